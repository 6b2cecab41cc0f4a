// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * --kfuncs --format=c: a C header for BPF programs with one extern
 * declaration per kfunc they may call, as bpftool >= 7.5 writes them at the
 * end of vmlinux.h from "bpf_kfunc" decl tags, but found from set8s too (so
 * for kernels built with any pahole) and with the prototype BPF sees:
 *
 *   - the object is transformed in memory first (implicit_args,
 *     fastcall_tags, arena_attrs): a KF_IMPLICIT_ARGS kfunc is declared
 *     with its reduced prototype, never its <name>_impl, while a legacy
 *     <name>_impl that is a kfunc itself (stock 6.12's
 *     bpf_wq_set_callback_impl) is declared as it is;
 *   - __bpf_fastcall for KF_FASTCALL or a "bpf_fastcall" tag, and the
 *     address_space(1) of arena pointers (KF_ARENA_*, __arena parameters,
 *     or the kernel's own type attributes) printed as bpftool prints them,
 *     so that each declaration is the same as vmlinux.h's of the same BTF
 *     and both may be in one program;
 *   - the types the prototypes use: structs, unions and enums
 *     forward-declared, typedefs defined (by libbpf's btf_dump) unless
 *     vmlinux.h was included before (its __VMLINUX_H__ guard), those of
 *     <linux/types.h> also unless it was (uapi_guard()), or with
 *     --vmlinux-h FILE an #include of FILE, checked to define them.
 *
 * --kfunc-names LIST (names or fnmatch() patterns, comma separated) and
 * --used-by PROG.bpf.o (the kfuncs the object calls, "___flavour" names as
 * libbpf looks them up) keep only the kfuncs asked for: a program carries
 * the declarations it needs. A name or pattern no kfunc answers is an
 * error; a kfunc the object calls that the kernel lacks, a warning (the
 * object may guard it).
 *
 * The header is made in memory and printed whole, or nothing is printed.
 */
#include <bpf/btf.h>
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cproto.h"
#include "inspect.h"
#include "prog_externs.h"

#define MAX_DEPTH 32
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* What a declaration needs of a type (need[] per type id). */
enum {
	NEED_FWD = 1,		/* struct/union/enum X; */
	NEED_TYPEDEF = 2,	/* typedef ... X; (printed by cproto) */
	NEED_DUMP = 4,		/* a typedef of an anonymous type: btf_dump defines it */
};

struct decl {
	const char *name;	/* into the BTF's strings */
	uint32_t func_id;
	bool fastcall;
	char *proto;		/* "int bpf_foo(int a)", malloc'd */
};

struct header {
	const struct btf *btf;
	uint8_t *need;		/* NEED_* per type id */
	uint32_t nr_types;
	uint32_t *typedefs;	/* the typedefs needed, each after those it uses */
	size_t nr_typedefs;
	struct decl *decls;
	size_t nr_decls;
	const char *bad;	/* why a type cannot be declared, or NULL */
	uint32_t bad_id;
	/* --kfunc-names, --used-by: the kfuncs to declare (none: all) */
	char **want;
	bool *want_from_prog;	/* from --used-by: a miss is a warning */
	unsigned int *hits;
	size_t nr_want;
};

static int want_add(struct header *h, const char *name, size_t len, bool from_prog)
{
	char **w = realloc(h->want, (h->nr_want + 1) * sizeof(*w));
	bool *f;

	if (!w)
		return -ENOMEM;
	h->want = w;
	f = realloc(h->want_from_prog, (h->nr_want + 1) * sizeof(*f));
	if (!f)
		return -ENOMEM;
	h->want_from_prog = f;
	w[h->nr_want] = strndup(name, len);
	if (!w[h->nr_want])
		return -ENOMEM;
	f[h->nr_want++] = from_prog;
	return 0;
}

/* The names of --kfunc-names and --used-by: 0, or 1 after the error. */
static int want_read(struct header *h, const char *names, const char *used_by)
{
	struct prog p;
	int err = 0;

	for (const char *s = names; s && *s && !err; ) {
		size_t len = strcspn(s, ",");

		if (len)
			err = want_add(h, s, len, false);
		s += len + (s[len] == ',');
	}
	if (!err && names && !h->nr_want) {
		cli_error("--kfunc-names: no name in '%s'", names);
		return 1;
	}
	if (!err && used_by) {
		int rc = prog_load(&p, used_by);

		if (rc == 1)
			cli_error("%s: --used-by takes a BPF object (an ELF file of machine BPF)",
				  used_by);
		if (rc)
			return 1;
		for (size_t i = 0; i < p.nr && !err; i++)
			if (p.ext[i].func)
				err = want_add(h, p.ext[i].essent, strlen(p.ext[i].essent), true);
		prog_free(&p);
	}
	if (!err)
		h->hits = calloc(h->nr_want + 1, sizeof(*h->hits));
	if (err || !h->hits) {
		cli_error("out of memory");
		return 1;
	}
	return 0;
}

static bool wanted(const struct header *h, const char *name)
{
	bool any = false;

	if (!h->want)
		return true;
	for (size_t i = 0; i < h->nr_want; i++)
		if (!fnmatch(h->want[i], name, 0)) {
			h->hits[i]++;
			any = true;
		}
	return any;
}

/* Names no kfunc answered: 0, or 1 after the error (a warning only for the
 * kfuncs an object calls). */
static int want_check(const struct header *h, const char *path, const char *used_by)
{
	int ret = 0;

	for (size_t i = 0; i < h->nr_want; i++) {
		if (h->hits[i])
			continue;
		if (h->want_from_prog[i]) {
			fprintf(stderr, "btf2btf: warning: %s: no kfunc %s, which %s calls: not "
				"declared (btf2btf --check-prog says what loading it there does)\n",
				path, h->want[i], used_by);
		} else {
			cli_error("%s: --kfunc-names: no kfunc %s '%s'", path,
				  strpbrk(h->want[i], "*?[") ? "matches" : "is named", h->want[i]);
			ret = 1;
		}
	}
	return ret;
}

static const char *type_name(const struct btf *btf, const struct btf_type *t)
{
	const char *n = t->name_off ? btf__name_by_offset(btf, t->name_off) : NULL;

	return n && *n ? n : NULL;
}

/* Is id, through qualifiers, an anonymous struct, union or enum? */
static bool anon_target(const struct btf *btf, uint32_t id)
{
	for (int depth = 0; depth < MAX_DEPTH; depth++) {
		const struct btf_type *t = id ? btf__type_by_id(btf, id) : NULL;

		if (!t)
			return false;
		if (btf_is_mod(t)) {
			id = t->type;
			continue;
		}
		return (btf_is_composite(t) || btf_is_any_enum(t)) && !type_name(btf, t);
	}
	return false;
}

/* Mark what the declaration of type id needs; h->bad on what C cannot say. */
static void need_type(struct header *h, uint32_t id, int depth)
{
	const struct btf_type *t = id ? btf__type_by_id(h->btf, id) : NULL;

	if (!t || depth > MAX_DEPTH) {
		if (id && !h->bad) {
			h->bad = "a type id out of range or a chain too deep";
			h->bad_id = id;
		}
		return;
	}
	switch (btf_kind(t)) {
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
	case BTF_KIND_FWD:
		if (type_name(h->btf, t))
			h->need[id] |= NEED_FWD;
		else if (!h->bad) {
			h->bad = "an anonymous struct, union or enum outside a typedef";
			h->bad_id = id;
		}
		return;
	case BTF_KIND_TYPEDEF:
		if (h->need[id] & (NEED_TYPEDEF | NEED_DUMP))
			return;
		/* "typedef struct {...} x_t;" has no shorter form */
		h->need[id] |= anon_target(h->btf, t->type) ? NEED_DUMP : NEED_TYPEDEF;
		if (h->need[id] & NEED_TYPEDEF)
			need_type(h, t->type, depth + 1);
		h->typedefs[h->nr_typedefs++] = id;	/* after the typedefs it uses */
		return;
	case BTF_KIND_PTR:
	case BTF_KIND_CONST:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPE_TAG:
		need_type(h, t->type, depth + 1);
		return;
	case BTF_KIND_ARRAY:
		need_type(h, btf_array(t)->type, depth + 1);
		return;
	case BTF_KIND_FUNC_PROTO:
		need_type(h, t->type, depth + 1);
		for (int i = 0; i < btf_vlen(t); i++)
			need_type(h, btf_params(t)[i].type, depth + 1);
		return;
	default:	/* INT, FLOAT: C's own names */
		return;
	}
}

/* FUNCs with a "bpf_fastcall" decl tag on themselves (component -1). */
static int fastcall_tagged(const struct btf *btf, uint8_t *tagged)
{
	uint32_t n = btf__type_cnt(btf);

	for (uint32_t id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const char *name;

		if (!btf_is_decl_tag(t) || btf_decl_tag(t)->component_idx != -1 || t->type >= n)
			continue;
		name = btf__name_by_offset(btf, t->name_off);
		if (name && !strcmp(name, "bpf_fastcall"))
			tagged[t->type] = 1;
	}
	return 0;
}

static int cmp_decl(const void *a, const void *b)
{
	const struct decl *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : (x->func_id > y->func_id) - (x->func_id < y->func_id);
}

static void header_free(struct header *h)
{
	for (size_t i = 0; i < h->nr_want; i++)
		free(h->want[i]);
	free(h->want);
	free(h->want_from_prog);
	free(h->hits);
	for (size_t i = 0; i < h->nr_decls; i++)
		free(h->decls[i].proto);
	free(h->decls);
	free(h->need);
	free(h->typedefs);
}

/* The kfuncs of b (transformed) and what their prototypes need. */
static int collect(struct header *h, const struct btf2btf *b, const char *path)
{
	size_t nr = btf2btf__kfunc_cnt(b);
	uint8_t *fastcall;

	h->btf = btf2btf__btf(b);
	h->nr_types = btf__type_cnt(h->btf);
	h->need = calloc(h->nr_types, 1);
	h->typedefs = calloc(h->nr_types, sizeof(*h->typedefs));
	fastcall = calloc(h->nr_types, 1);
	h->decls = calloc(nr ? nr : 1, sizeof(*h->decls));
	if (!h->need || !h->typedefs || !fastcall || !h->decls) {
		free(fastcall);
		return -ENOMEM;
	}
	fastcall_tagged(h->btf, fastcall);
	for (size_t i = 0; i < nr; i++) {
		const struct btf2btf_kfunc *k = btf2btf__kfunc(b, i);
		const struct btf_type *f;
		struct decl *d;

		if (!k) {
			free(fastcall);
			return -errno;
		}
		f = btf__type_by_id(h->btf, k->btf_id);
		if (!f || !btf_is_func(f) || !wanted(h, k->name))
			continue;
		h->bad = NULL;
		need_type(h, f->type, 0);
		if (h->bad) {
			/* the rest of the header is still right: say which is missing */
			fprintf(stderr, "btf2btf: warning: %s: kfunc %s not declared: its prototype "
				"uses %s ([%u])\n", path, k->name, h->bad, h->bad_id);
			continue;
		}
		d = &h->decls[h->nr_decls];
		d->name = k->name;
		d->func_id = k->btf_id;
		d->fastcall = fastcall[k->btf_id] || (k->flags & BTF2BTF_KF_FASTCALL);
		d->proto = cproto_func(h->btf, f->type, k->name, -1);
		if (!d->proto) {
			free(fastcall);
			return -ENOMEM;
		}
		h->nr_decls++;
	}
	free(fastcall);
	qsort(h->decls, h->nr_decls, sizeof(*h->decls), cmp_decl);
	return 0;
}

/* ---- --vmlinux-h FILE ---- */

/* Does text declare "kw name" (struct, union, enum) or, with kw NULL, the
 * typedef name? A word match: bpftool writes one declaration a line. */
static bool declares(const char *text, const char *kw, const char *name)
{
	size_t len = strlen(name);

	for (const char *p = strstr(text, name); p; p = strstr(p + 1, name)) {
		const char *end = p + len, *line = p;

		if ((p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_')) ||
		    isalnum((unsigned char)*end) || *end == '_')
			continue;
		while (line > text && line[-1] != '\n')
			line--;
		if (kw) {
			size_t kl = strlen(kw);

			/* "struct name {" or "struct name;" */
			if ((size_t)(p - text) > kl && !strncmp(p - kl - 1, kw, kl) && p[-1] == ' ' &&
			    (!strncmp(end, " {", 2) || *end == ';'))
				return true;
		} else if (!strncmp(line, "typedef ", 8)) {
			/* "typedef ... name;" or "typedef ... (*name)(...);" */
			if (*end == ';' || *end == ')' || *end == '[')
				return true;
		}
	}
	return false;
}

static char *read_text(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0, n;

	if (!f)
		return NULL;
	for (;;) {
		char *grown = realloc(buf, len + 65536 + 1);

		if (!grown) {
			free(buf);
			fclose(f);
			errno = ENOMEM;
			return NULL;
		}
		buf = grown;
		n = fread(buf + len, 1, 65536, f);
		len += n;
		if (n < 65536)
			break;
	}
	if (ferror(f)) {
		free(buf);
		fclose(f);
		errno = EIO;
		return NULL;
	}
	fclose(f);
	buf[len] = 0;
	return buf;
}

/* Every typedef and enum the declarations need is in vmlinux_h's text:
 * 0, or 1 after naming the first missing one. (Structs and unions need
 * only their forward declarations, which the header has anyway.) */
static int check_vmlinux_h(const struct header *h, const char *vmlinux_h)
{
	char *text = read_text(vmlinux_h);
	int rc = 0;

	if (!text) {
		cli_error("%s: %s", vmlinux_h, strerror(errno));
		return 1;
	}
	for (uint32_t id = 1; id < h->nr_types && !rc; id++) {
		const struct btf_type *t = btf__type_by_id(h->btf, id);
		const char *n = type_name(h->btf, t);
		bool is_enum = btf_is_enum(t) || btf_is_enum64(t);

		if (!((h->need[id] & (NEED_TYPEDEF | NEED_DUMP)) || ((h->need[id] & NEED_FWD) && is_enum)))
			continue;
		if (!declares(text, is_enum ? "enum" : NULL, n)) {
			cli_error("%s defines no %s%s, which the kfunc declarations use: is it the "
				  "vmlinux.h of another kernel?", vmlinux_h, is_enum ? "enum " : "", n);
			rc = 1;
		}
	}
	free(text);
	return rc;
}

/* ---- printing ---- */

static void dump_printf(void *ctx, const char *fmt, va_list ap)
{
	vfprintf(ctx, fmt, ap);
}

/* "__BTF2BTF_KFUNCS_VMLINUX_H__" from the input's file name: two headers
 * (vmlinux, a module) can be included together. */
static void print_guard(FILE *f, const char *path)
{
	const char *base = strrchr(path, '/');

	fputs("__BTF2BTF_KFUNCS_", f);
	for (const char *p = base ? base + 1 : path; *p; p++)
		fputc(isalnum((unsigned char)*p) ? toupper((unsigned char)*p) : '_', f);
	fputs("_H__", f);
}

static const char preamble[] =
	"#ifndef __ksym\n"
	"#define __ksym __attribute__((section(\".ksyms\")))\n"
	"#endif\n"
	"#ifndef __weak\n"
	"#define __weak __attribute__((weak))\n"
	"#endif\n"
	"#ifndef __bpf_fastcall\n"
	"#if __has_attribute(bpf_fastcall)\n"
	"#define __bpf_fastcall __attribute__((bpf_fastcall))\n"
	"#else\n"
	"#define __bpf_fastcall\n"
	"#endif\n"
	"#endif\n";

/*
 * The typedefs <linux/types.h> defines (through asm/types.h and
 * linux/posix_types.h, as Debian's linux-libc-dev installs them), with the
 * guard of the header that defines each: after <linux/bpf.h> the UAPI's
 * own stand (for -target bpf its __BITS_PER_LONG is 32, so its
 * __kernel_size_t is no kernel's), and the header does not define them
 * again with another type.
 */
static const char *uapi_guard(const char *name)
{
	static const char *const ll64[] = { "__s8", "__u8", "__s16", "__u16", "__s32", "__u32",
					    "__s64", "__u64" };
	static const char *const types[] = { "__le16", "__be16", "__le32", "__be32", "__le64",
					     "__be64", "__sum16", "__wsum", "__poll_t" };
	static const char *const posix[] = {
		"__kernel_fd_set", "__kernel_sighandler_t", "__kernel_key_t", "__kernel_mqd_t",
		"__kernel_long_t", "__kernel_ulong_t", "__kernel_ino_t", "__kernel_mode_t",
		"__kernel_pid_t", "__kernel_ipc_pid_t", "__kernel_uid_t", "__kernel_gid_t",
		"__kernel_suseconds_t", "__kernel_daddr_t", "__kernel_uid32_t", "__kernel_gid32_t",
		"__kernel_old_uid_t", "__kernel_old_gid_t", "__kernel_old_dev_t", "__kernel_size_t",
		"__kernel_ssize_t", "__kernel_ptrdiff_t", "__kernel_fsid_t", "__kernel_off_t",
		"__kernel_loff_t", "__kernel_old_time_t", "__kernel_time_t", "__kernel_time64_t",
		"__kernel_clock_t", "__kernel_timer_t", "__kernel_clockid_t", "__kernel_caddr_t",
		"__kernel_uid16_t", "__kernel_gid16_t",
	};
	static const struct {
		const char *const *names;
		size_t nr;
		const char *guard;
	} headers[] = {
		{ ll64, ARRAY_SIZE(ll64), "_ASM_GENERIC_INT_LL64_H" },
		{ types, ARRAY_SIZE(types), "_LINUX_TYPES_H" },
		{ posix, ARRAY_SIZE(posix), "_LINUX_POSIX_TYPES_H" },
	};

	for (size_t i = 0; name && i < ARRAY_SIZE(headers); i++)
		for (size_t k = 0; k < headers[i].nr; k++)
			if (!strcmp(name, headers[i].names[k]))
				return headers[i].guard;
	return NULL;
}

static int print_types(FILE *f, const struct header *h, const char *vmlinux_h)
{
	struct btf_dump *d;
	const char *base;
	bool any = false;
	int err = 0;

	if (vmlinux_h) {
		base = strrchr(vmlinux_h, '/');
		fprintf(f, "\n#include \"%s\"\n", base ? base + 1 : vmlinux_h);
	}
	/* forward declarations: harmless before or after vmlinux.h's definitions */
	for (uint32_t id = 1; id < h->nr_types; id++) {
		const struct btf_type *t = btf__type_by_id(h->btf, id);
		const char *kw;

		if (!(h->need[id] & NEED_FWD))
			continue;
		kw = btf_is_union(t) || (btf_is_fwd(t) && btf_kflag(t)) ? "union" :
		     btf_is_enum(t) || btf_is_enum64(t) ? "enum" : "struct";
		fprintf(f, "%s%s %s;\n", any ? "" : "\n", kw, type_name(h->btf, t));
		any = true;
	}
	if (vmlinux_h || !h->nr_typedefs)
		return 0;
	d = btf_dump__new(h->btf, dump_printf, f, NULL);
	if (!d)
		return -errno;
	/* (and each of <linux/types.h>'s unless its UAPI header was included) */
	fputs("\n/* the typedefs they use, unless vmlinux.h has them already */\n"
	      "#ifndef __VMLINUX_H__\n", f);
	for (size_t i = 0; i < h->nr_typedefs && !err; i++) {
		uint32_t id = h->typedefs[i];
		const struct btf_type *t = btf__type_by_id(h->btf, id);
		const char *guard = uapi_guard(type_name(h->btf, t));
		char *def;

		if (guard)
			fprintf(f, "#ifndef %s\n", guard);
		if (h->need[id] & NEED_DUMP) {
			err = btf_dump__dump_type(d, id);
		} else {
			/* a typedef of a struct needs only its forward declaration:
			 * redefined the same by vmlinux.h, included before or after */
			def = cproto_func(h->btf, t->type, type_name(h->btf, t), -1);
			if (!def) {
				err = -ENOMEM;
				break;
			}
			fprintf(f, "typedef %s;\n", def);
			free(def);
		}
		if (guard)
			fprintf(f, "#endif\n");
	}
	fputs("#endif /* __VMLINUX_H__ */\n", f);
	btf_dump__free(d);
	return err;
}

static int print_header(FILE *f, const struct header *h, const char *path, const char *vmlinux_h,
			bool flags_known)
{
	int err;

	fprintf(f, "/* Kfunc declarations for BPF programs, from %s: %zu kfuncs.\n"
		" * Generated by btf2btf %s --kfuncs --format=c; do not edit.\n"
		" * The prototypes BPF programs see (KF_IMPLICIT_ARGS kfuncs without their\n"
		" * implicit arguments); each is the same as the one bpftool >= 7.5 writes\n"
		" * into vmlinux.h from the same BTF, so both headers may be included.",
		path, h->nr_decls, btf2btf__version());
	/* no set8s: a kfunc flagged KF_IMPLICIT_ARGS but not transformed yet
	 * cannot be told from the BTF */
	if (!flags_known)
		fputs("\n * The kfuncs' flags are unknown (no set8s could be read): those the BTF\n"
		      " * shows transformed are declared reduced, the others as they are.", f);
	fputs(" */\n", f);
	fputs("#ifndef ", f);
	print_guard(f, path);
	fputs("\n#define ", f);
	print_guard(f, path);
	fputs("\n\n", f);
	fputs(preamble, f);
	err = print_types(f, h, vmlinux_h);
	if (err)
		return err;
	fputc('\n', f);
	for (size_t i = 0; i < h->nr_decls; i++) {
		const char *flavour = strstr(h->decls[i].name, "___");

		/* libbpf resolves "a___b" as kfunc "a" (CO-RE flavours) */
		if (flavour)
			fprintf(f, "/* libbpf looks %s up as %.*s: to call it, declare it as "
				"%s___1 (sched_ext's compat.bpf.h does so) */\n", h->decls[i].name,
				(int)(flavour - h->decls[i].name), h->decls[i].name, h->decls[i].name);
		fprintf(f, "extern %s%s __weak __ksym;\n", h->decls[i].fastcall ? "__bpf_fastcall " : "",
			h->decls[i].proto);
	}
	fputs("\n#endif /* ", f);
	print_guard(f, path);
	fputs(" */\n", f);
	return 0;
}

int cli_kfunc_decls(const char *path)
{
	struct cli_opts *o = cli_opts();
	struct header h = { 0 };
	struct btf2btf *b;
	char *text = NULL;
	size_t len = 0;
	FILE *mem;
	int err;
	int open_rc;

	/* what the kernel's BTF phase makes of the kfuncs (7.3's set, without
	 * the bpf_kfunc tags, dedup and sort a declaration does not need) */
	o->features = BTF2BTF_FEAT_IMPLICIT_ARGS | BTF2BTF_FEAT_FASTCALL_TAGS |
		      BTF2BTF_FEAT_ARENA_ATTRS;
	if ((o->kfunc_names || o->used_by) && want_read(&h, o->kfunc_names, o->used_by)) {
		header_free(&h);
		return 1;
	}
	open_rc = cli_open(path, CLI_OPEN_QUIET, &b);
	if (open_rc) {
		header_free(&h);
		return open_rc;
	}
	inspect_note_problems(b, path, INSPECT_NOTE_PROBLEMS | INSPECT_NOTE_OBJECT);
	err = btf2btf__transform(b);
	if (err) {
		btf2btf__close(b);
		return cli_fail(path, err);
	}
	err = btf2btf__btf(b) ? collect(&h, b, path) : -errno;
	if ((!err && o->vmlinux_h && check_vmlinux_h(&h, o->vmlinux_h)) ||
	    (!err && want_check(&h, path, o->used_by))) {
		header_free(&h);
		btf2btf__close(b);
		return 1;
	}
	if (!err) {
		mem = open_memstream(&text, &len);
		err = mem ? print_header(mem, &h, path, o->vmlinux_h, inspect_sets_readable(b))
			  : -errno;
		if (mem && fclose(mem) && !err)
			err = -ENOMEM;
	}
	if (!err)
		fwrite(text, 1, len, stdout);	/* finish_stdout() checks it */
	free(text);
	header_free(&h);
	btf2btf__close(b);
	if (err) {
		cli_error("%s: %s", path, strerror(-err));
		return 1;
	}
	return 0;
}
