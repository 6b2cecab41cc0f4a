// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * /init of the big-endian (s390x) 7.3 guest: reads the BTF the kernel
 * exposes back (/sys/kernel/btf/vmlinux, written by btf2btf in the cross
 * build) for the KF_IMPLICIT_ARGS kfuncs, loads BTF with BPF_BTF_LOAD
 * (btf_accept.c: the running kernel's own, and the differential's objects in
 * big-endian byte order), checks the kernel log for BTF errors; "PASS name"
 * / "FAIL name: why" per test, then "N passed, M failed", then reboots (QEMU
 * runs with -no-reboot).
 *
 * Static, built with s390x-linux-gnu-gcc; no libbpf (there is none for
 * s390x on this machine), so the BTF is read with the few lines below.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/btf.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <termios.h>
#include <unistd.h>

#include "btf_accept.h"

static int passed, failed;

static void result(bool ok, const char *name, const char *fmt, ...)
{
	char why[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	if (ok)
		passed++;
	else
		failed++;
	printf("%s %s: %s\n", ok ? "PASS" : "FAIL", name, why);
}

static void report(bool ok, const char *name, const char *why)
{
	result(ok, name, "%s", why);
}

/* a BTF as the kernel exposes it: host byte order, split on BASE or not */
struct kbtf {
	char *data;
	const struct btf_type **types;	/* this BTF's own types, from start_id */
	unsigned int nr, start_id, start_str, str_len;
	const char *strs;
	const struct kbtf *base;
};

static size_t type_size(const struct btf_type *t)
{
	unsigned int vlen = BTF_INFO_VLEN(t->info);

	switch (BTF_INFO_KIND(t->info)) {
	case BTF_KIND_INT: case BTF_KIND_VAR: case BTF_KIND_DECL_TAG:
		return sizeof(*t) + 4;
	case BTF_KIND_ARRAY:
		return sizeof(*t) + sizeof(struct btf_array);
	case BTF_KIND_STRUCT: case BTF_KIND_UNION:
		return sizeof(*t) + vlen * sizeof(struct btf_member);
	case BTF_KIND_DATASEC:
		return sizeof(*t) + vlen * sizeof(struct btf_var_secinfo);
	case BTF_KIND_ENUM64:
		return sizeof(*t) + vlen * sizeof(struct btf_enum64);
	case BTF_KIND_ENUM:
		return sizeof(*t) + vlen * sizeof(struct btf_enum);
	case BTF_KIND_FUNC_PROTO:
		return sizeof(*t) + vlen * sizeof(struct btf_param);
	case BTF_KIND_PTR: case BTF_KIND_FWD: case BTF_KIND_TYPEDEF: case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST: case BTF_KIND_RESTRICT: case BTF_KIND_FUNC: case BTF_KIND_FLOAT:
	case BTF_KIND_TYPE_TAG:
		return sizeof(*t);
	}
	return 0;	/* a kind this reader does not know */
}

/* 0, or why PATH could not be read as BTF */
static const char *kbtf_open(struct kbtf *b, const char *path, const struct kbtf *base)
{
	static char why[300];
	const struct btf_header *hdr;
	size_t cap = 1 << 20, len = 0, off, sz;
	const char *p, *end;
	ssize_t n;
	int fd = open(path, O_RDONLY);

	memset(b, 0, sizeof(*b));
	b->base = base;
	if (fd < 0)
		return strerror(errno);
	b->data = malloc(cap);
	while (b->data && (n = read(fd, b->data + len, cap - len)) > 0)
		if ((len += n) == cap)
			b->data = realloc(b->data, cap *= 2);
	close(fd);
	if (!b->data)
		return strerror(ENOMEM);
	hdr = (const struct btf_header *)b->data;
	if (len < sizeof(*hdr) || hdr->magic != BTF_MAGIC)
		return "no BTF magic in the host's byte order";
	p = b->data + hdr->hdr_len + hdr->type_off;
	end = p + hdr->type_len;
	b->strs = b->data + hdr->hdr_len + hdr->str_off;
	b->str_len = hdr->str_len;
	b->start_id = base ? base->start_id + base->nr : 1;
	b->start_str = base ? base->start_str + base->str_len : 0;
	for (off = 0; p + off < end; off += sz, b->nr++) {
		sz = type_size((const struct btf_type *)(p + off));
		if (!sz) {
			snprintf(why, sizeof(why), "unknown kind %u at type %u",
				 BTF_INFO_KIND(((const struct btf_type *)(p + off))->info),
				 b->start_id + b->nr);
			return why;
		}
	}
	b->types = calloc(b->nr, sizeof(*b->types));
	if (!b->types)
		return strerror(ENOMEM);
	for (off = 0, n = 0; p + off < end; off += type_size(b->types[n++]))
		b->types[n] = (const struct btf_type *)(p + off);
	return NULL;
}

static const struct btf_type *kbtf_type(const struct kbtf *b, unsigned int id)
{
	if (id < b->start_id)
		return b->base ? kbtf_type(b->base, id) : NULL;
	return id - b->start_id < b->nr ? b->types[id - b->start_id] : NULL;
}

static const char *kbtf_str(const struct kbtf *b, unsigned int off)
{
	if (off < b->start_str)
		return b->base ? kbtf_str(b->base, off) : "?";
	return off - b->start_str < b->str_len ? b->strs + off - b->start_str : "?";
}

/* the prototype of FUNC NAME among B's own types */
static const struct btf_type *kbtf_func_proto(const struct kbtf *b, const char *name)
{
	for (unsigned int i = 0; i < b->nr; i++) {
		const struct btf_type *t = b->types[i];

		if (BTF_INFO_KIND(t->info) == BTF_KIND_FUNC && !strcmp(kbtf_str(b, t->name_off), name))
			return kbtf_type(b, t->type);
	}
	return NULL;
}

static int nparams(const struct btf_type *proto)
{
	return proto && BTF_INFO_KIND(proto->info) == BTF_KIND_FUNC_PROTO ?
	       (int)BTF_INFO_VLEN(proto->info) : -1;
}

/* "struct NAME *" of PROTO's last parameter, or "" */
static const char *last_param_struct(const struct kbtf *b, const struct btf_type *proto)
{
	const struct btf_param *params = (const struct btf_param *)(proto + 1);
	const struct btf_type *t;
	int n = nparams(proto);

	if (n <= 0)
		return "";
	t = kbtf_type(b, params[n - 1].type);
	if (!t || BTF_INFO_KIND(t->info) != BTF_KIND_PTR)
		return "";
	t = kbtf_type(b, t->type);
	return t && BTF_INFO_KIND(t->info) == BTF_KIND_STRUCT ? kbtf_str(b, t->name_off) : "";
}

/* the kfuncs' reduced prototypes and their _impl, read back from big-endian BTF */
static void check_btf(void)
{
	/* the first four's _impl exist only in BTF: their last parameter is the aux */
	static const struct { const char *fn; int reduced, impl; bool aux; } kf[] = {
		{ "bpf_wq_set_callback", 3, 4, true },
		{ "bpf_stream_vprintk", 4, 5, true },
		{ "bpf_task_work_schedule_signal", 4, 5, true },
		{ "bpf_task_work_schedule_resume", 4, 5, true },
		{ "bpf_obj_new", 1, 2, false },
		{ "bpf_list_push_front", 2, 4, false },
		{ "bpf_rbtree_add", 3, 5, false },
	};
	const struct btf_type *fp, *ip;
	struct kbtf vmlinux;
	char impl[128], name[160];
	const char *err, *aux;
	size_t i;

	err = kbtf_open(&vmlinux, "/sys/kernel/btf/vmlinux", NULL);
	result(!err, "btf_vmlinux_read", "%s%u types, %u string bytes, magic 0x%02x%02x in memory",
	       err ? err : "", vmlinux.nr, vmlinux.str_len,
	       vmlinux.data ? (unsigned char)vmlinux.data[0] : 0,
	       vmlinux.data ? (unsigned char)vmlinux.data[1] : 0);
	if (err)
		return;
	for (i = 0; i < sizeof(kf) / sizeof(kf[0]); i++) {
		snprintf(impl, sizeof(impl), "%s_impl", kf[i].fn);
		snprintf(name, sizeof(name), "btf_vmlinux_%s", kf[i].fn);
		fp = kbtf_func_proto(&vmlinux, kf[i].fn);
		ip = kbtf_func_proto(&vmlinux, impl);
		aux = ip ? last_param_struct(&vmlinux, ip) : "";
		result(nparams(fp) == kf[i].reduced && nparams(ip) == kf[i].impl &&
		       (!kf[i].aux || !strcmp(aux, "bpf_prog_aux")), name,
		       "%s: %d params, %s: %d, its last: struct %s *", kf[i].fn, nparams(fp),
		       impl, nparams(ip), aux[0] ? aux : "-");
	}
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	printf("INFO 7.3 s390x guest (big-endian)\n");

	check_btf();
	btf_accept_run("/btf-accept", report);
	guest_check_dmesg(report);

	printf("%d passed, %d failed\n", passed, failed);
	fflush(stdout);
	/*
	 * The SCLP line-mode tty sends what it buffered from a timer, and the
	 * reboot deactivates the SCLP: without waiting here the last lines
	 * (the summary among them) never reach the console.
	 */
	tcdrain(STDOUT_FILENO);
	sync();
	reboot(RB_AUTOBOOT);
	return 0;
}
