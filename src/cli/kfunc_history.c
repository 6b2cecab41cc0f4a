// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * --kfunc-history K1 ... Kn: the kfuncs of several kernels (vmlinux files
 * or raw BTF such as /sys/kernel/btf/vmlinux), oldest first, paired by
 * name: per kfunc the first kernel that has it, the one it is gone from,
 * the kernels where the prototype BPF programs see changes, where it moved
 * to KF_IMPLICIT_ARGS, and its flags. A kernel's BTF is final: the
 * prototype is the FUNC's own, as the verifier checks programs against it.
 *
 * Flags come from the set8s of .BTF_ids. Raw BTF has none: its flags are
 * "unknown" (JSON null), and so is a move to KF_IMPLICIT_ARGS that only
 * such a kernel could show, unless its BTF shows the kfunc transformed (the
 * plan's: an _impl with the kernel prototype beside it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "inspect.h"
#include "json.h"
#include "kfunc_table.h"

/* one string, compared by address: "unknown" is said, never guessed */
static const char UNKNOWN[] = "unknown";

struct kernel {
	const char *label;	/* LABEL of LABEL=FILE, else FILE */
	const char *modules;	/* of LABEL=FILE,MODULES...: its modules, or NULL */
	struct kside s;
};

static bool kfuncs_known(const struct kernel *k)
{
	return kside_kfuncs_known(&k->s);
}

/* One kfunc across the kernels: at[i] is kernel i's, or NULL. */
struct row {
	const char *name;
	const struct kf **at;
	int first, gone;		/* kernel indexes; gone -1: still there */
	bool first_exact;		/* no kernel before first hides its kfuncs */
	const char *implicit;		/* a label, UNKNOWN or NULL (never flagged) */
	bool moved;			/* it was there before without the flag */
	const char *was;		/* the legacy <name>_impl programs called before */
	unsigned int proto_changes;
};

/* "LABEL=FILE" (LABEL without a '/', so a path with '=' still works). */
static void split_label(const char *arg, struct kernel *k)
{
	const char *eq = strchr(arg, '=');

	const char *comma;

	k->label = arg;
	k->s.path = arg;
	if (eq && eq > arg && eq[1] && !memchr(arg, '/', eq - arg)) {
		k->label = strndup(arg, eq - arg);
		k->s.path = eq + 1;
	}
	/* FILE,MODULES...: the kernel with its modules (files or directories) */
	comma = strchr(k->s.path, ',');
	if (comma && comma[1]) {
		k->modules = comma + 1;
		k->s.path = strndup(k->s.path, comma - k->s.path);
		if (k->label == arg)
			k->label = k->s.path;
	}
}

static void fill_row(struct row *r, const struct kernel *ks, int n)
{
	int prev = -1;		/* the last kernel that had it (or its legacy _impl) */
	bool unseen = false;	/* a kernel that had it showed no flags */
	bool known = false;	/* a kernel that had it showed its flags */

	r->first = r->gone = -1;
	for (int i = 0; i < n; i++) {
		const struct kf *k = r->at[i];

		if (!k) {
			if (r->first >= 0 && r->gone < 0 && kfuncs_known(&ks[i]))
				r->gone = i;
			continue;
		}
		if (r->first < 0) {
			r->first = i;
			/* the kernel before lacks it, unless it cannot tell */
			r->first_exact = !i || kfuncs_known(&ks[i - 1]);
			/* the form before KF_IMPLICIT_ARGS: programs called <name>_impl */
			for (int j = i - 1; j >= 0 && !r->was; j--) {
				const struct kf *legacy = kside_find_impl(&ks[j].s, r->name);

				if (legacy) {
					r->was = legacy->name;
					prev = j;
					unseen |= !ks[j].s.set8s;
				}
			}
		} else {
			r->gone = -1;	/* back again */
			r->proto_changes += strcmp(r->at[prev]->bpf_proto, k->bpf_proto) != 0;
		}
		/* without set8s the BTF may still show it transformed (an _impl
		 * with the kernel prototype beside it): known then */
		known |= ks[i].s.set8s || k->implicit;
		if (!r->implicit && !ks[i].s.set8s && !k->implicit) {
			unseen = true;
		} else if (!r->implicit && k->implicit) {
			/* a kernel without flags before it may hide the move */
			r->implicit = unseen ? UNKNOWN : ks[i].label;
			r->moved = prev >= 0;
		}
		prev = i;
	}
	/* never seen with flags: nothing can be said about KF_IMPLICIT_ARGS */
	if (!r->implicit && !known)
		r->implicit = UNKNOWN;
}

/* The kfunc's flags in kernel i, as text. */
static const char *flags_at(const struct kernel *ks, const struct row *r, int i)
{
	return ks[i].s.set8s ? r->at[i]->flag_str : UNKNOWN;
}

static int last_at(const struct row *r, int n)
{
	int i = n - 1;

	while (!r->at[i])
		i--;
	return i;
}

static void print_text(const struct kernel *ks, int n, const struct row *rows, size_t nr)
{
	static const char *const head[] = { "KFUNC", "FIRST", "GONE", "IMPLICIT_ARGS",
					    "PROTO_CHANGES", "FLAGS" };
	size_t w[6], kw[2] = { strlen("KERNEL"), strlen("FILE") };
	char (*col)[6][64] = calloc(nr ? nr : 1, sizeof(*col));

	if (!col) {
		cli_error("out of memory");
		return;
	}
	for (int i = 0; i < n; i++) {
		if (strlen(ks[i].label) > kw[0])
			kw[0] = strlen(ks[i].label);
		if (strlen(ks[i].s.path) > kw[1])
			kw[1] = strlen(ks[i].s.path);
	}
	printf("%-*s  %-*s  %-7s  %s\n", (int)kw[0], "KERNEL", (int)kw[1], "FILE", "KFUNCS",
	       "FLAGS");
	for (int i = 0; i < n; i++) {
		char cnt[24];

		snprintf(cnt, sizeof(cnt), "%zu", ks[i].s.nr);
		printf("%-*s  %-*s  %-7s  %s\n", (int)kw[0], ks[i].label, (int)kw[1], ks[i].s.path,
		       kfuncs_known(&ks[i]) ? cnt : UNKNOWN,
		       ks[i].s.set8s ? "set8s" : "unknown (no set8s read: raw BTF, or no symbol table)");
	}
	putchar('\n');
	for (int c = 0; c < 6; c++)
		w[c] = strlen(head[c]);
	for (size_t r = 0; r < nr; r++) {
		const struct row *x = &rows[r];
		int last = last_at(x, n);

		snprintf(col[r][0], 64, "%s", x->name);
		/* "by K": an earlier kernel hides its kfuncs, it may be older */
		snprintf(col[r][1], 64, "%s%s", x->first_exact ? "" : "by ", ks[x->first].label);
		snprintf(col[r][2], 64, "%s", x->gone >= 0 ? ks[x->gone].label : "-");
		snprintf(col[r][3], 64, "%s%s", x->implicit && x->implicit != UNKNOWN && x->moved ?
			 "moved in " : "", x->implicit ? x->implicit : "-");
		snprintf(col[r][4], 64, "%u", x->proto_changes);
		snprintf(col[r][5], 64, "%s", flags_at(ks, x, last));
		for (int c = 0; c < 6; c++)
			if (strlen(col[r][c]) > w[c])
				w[c] = strlen(col[r][c]);
	}
	for (int c = 0; c < 6; c++)
		printf("%-*s  ", (int)w[c], head[c]);
	printf("PROTOTYPE (BPF)\n");
	for (size_t r = 0; r < nr; r++) {
		const struct row *x = &rows[r];
		const char *shown = NULL;

		for (int c = 0; c < 6; c++)
			printf("%-*s  ", (int)w[c], col[r][c]);
		printf("%s", x->at[last_at(x, n)]->bpf_proto);
		if (x->was)
			printf("  (before: %s)", x->was);
		putchar('\n');
		if (!x->proto_changes)
			continue;
		/* every prototype it had, from the kernel that brought it */
		for (int i = 0; i < n; i++) {
			if (!x->at[i] || (shown && !strcmp(shown, x->at[i]->bpf_proto)))
				continue;
			shown = x->at[i]->bpf_proto;
			printf("    %s: %s\n", ks[i].label, shown);
		}
	}
	free(col);
}

static void print_json(const struct kernel *ks, int n, const struct row *rows, size_t nr)
{
	struct json *j = cli_json_record();

	json_start_object(j);
	json_key(j, "kernels");
	json_start_array(j);
	for (int i = 0; i < n; i++) {
		json_start_object(j);
		json_string_field(j, "label", ks[i].label);
		json_string_field(j, "file", ks[i].s.path);
		json_key(j, "kfuncs");
		kfuncs_known(&ks[i]) ? json_uint(j, ks[i].s.nr) : json_null(j);
		json_bool_field(j, "flags_known", ks[i].s.set8s);
		json_end_object(j);
	}
	json_end_array(j);
	json_key(j, "kfuncs");
	json_start_array(j);
	for (size_t r = 0; r < nr; r++) {
		const struct row *x = &rows[r];
		const char *prev = NULL;

		json_start_object(j);
		json_string_field(j, "name", x->name);
		json_string_field(j, "first", ks[x->first].label);
		json_bool_field(j, "first_exact", x->first_exact);
		json_key(j, "gone");
		x->gone >= 0 ? json_string(j, ks[x->gone].label) : json_null(j);
		json_key(j, "implicit_args_since");
		x->implicit ? json_string(j, x->implicit) : json_null(j);
		json_bool_field(j, "moved_to_implicit_args", x->moved && x->implicit &&
				x->implicit != UNKNOWN);
		json_key(j, "was");
		x->was ? json_string(j, x->was) : json_null(j);
		json_key(j, "proto_changed_in");
		json_start_array(j);
		for (int i = 0; i < n; i++) {
			if (!x->at[i])
				continue;
			if (prev && strcmp(prev, x->at[i]->bpf_proto))
				json_string(j, ks[i].label);
			prev = x->at[i]->bpf_proto;
		}
		json_end_array(j);
		json_key(j, "in");
		json_start_array(j);
		for (int i = 0; i < n; i++) {
			if (!x->at[i])
				continue;
			json_start_object(j);
			json_string_field(j, "kernel", ks[i].label);
			json_key(j, "flags");
			ks[i].s.set8s ? json_uint(j, x->at[i]->flags) : json_null(j);
			json_key(j, "flag_names");
			if (ks[i].s.set8s)
				inspect_flags_json(j, x->at[i]->flag_str);
			else
				json_null(j);
			json_string_field(j, "proto", x->at[i]->bpf_proto);
			json_end_object(j);
		}
		json_end_array(j);
		json_end_object(j);
	}
	json_end_array(j);
	json_end_object(j);
	cli_json_done(j);
}

/* A kernel's BTF is what is compared: a module's, or an object's that no
 * kernel build made (a BPF program, a tool), would pass for one. */
static int refuse_non_kernel(const struct kernel *k)
{
	const struct btf2btf_object_info *info = btf2btf__object_info(k->s.b);

	if (info->module) {
		cli_error("%s: is a kernel module, not a kernel: --kfunc-history compares kernels "
			  "(vmlinux, or its raw BTF as /sys/kernel/btf/vmlinux)", k->s.path);
		return 1;
	}
	if (info->elf && !info->has_btf_ids && !info->kernel_release[0]) {
		cli_error("%s: is not a kernel: an ELF object with neither .BTF_ids nor a "
			  "linux_banner (--kfunc-history compares vmlinux files or their raw BTF)",
			  k->s.path);
		return 1;
	}
	return 0;
}

/* Kernels given out of their versions' order (read from the objects: raw
 * BTF has none) make FIRST and GONE wrong: said once, the order given kept. */
static void warn_order(const struct kernel *ks, int n)
{
	uint32_t last = 0;
	int at = -1;

	for (int i = 0; i < n; i++) {
		uint32_t v = btf2btf__object_info(ks[i].s.b)->kernel_version;

		if (!v)
			continue;
		if (at >= 0 && v < last) {
			fprintf(stderr, "btf2btf: warning: --kfunc-history takes the kernels oldest "
				"first, but %s (%u.%u) comes after %s (%u.%u): FIRST and GONE follow "
				"the order given\n", ks[i].label, v >> 16, (v >> 8) & 0xff,
				ks[at].label, last >> 16, (last >> 8) & 0xff);
			return;
		}
		last = v;
		at = i;
	}
}

int cli_kfunc_history(int n, char **args)
{
	struct kernel *ks = calloc(n, sizeof(*ks));
	size_t *pos = calloc(n, sizeof(*pos)), cap = 0, nr = 0;
	struct row *rows = NULL;
	int ret = 1;

	if (!ks || !pos) {
		cli_error("out of memory");
		goto out;
	}
	for (int i = 0; i < n; i++) {
		split_label(args[i], &ks[i]);
		if (kside_load(&ks[i].s, ks[i].s.path, true) || refuse_non_kernel(&ks[i]) ||
		    (ks[i].modules && kside_add_modules(&ks[i].s, ks[i].modules)))
			goto out;
	}
	if (cli_opts()->verbose >= 0)
		warn_order(ks, n);
	for (int i = 0; i < n; i++)
		cap += ks[i].s.nr;
	rows = calloc(cap ? cap : 1, sizeof(*rows));
	if (!rows)
		goto nomem;
	/* a merge of the kernels' name-sorted lists */
	for (;;) {
		const char *name = NULL;
		struct row *r;

		for (int i = 0; i < n; i++)
			if (pos[i] < ks[i].s.nr &&
			    (!name || strcmp(ks[i].s.k[pos[i]].name, name) < 0))
				name = ks[i].s.k[pos[i]].name;
		if (!name)
			break;
		r = &rows[nr++];
		r->name = name;
		r->at = calloc(n, sizeof(*r->at));
		if (!r->at)
			goto nomem;
		for (int i = 0; i < n; i++)
			if (pos[i] < ks[i].s.nr && !strcmp(ks[i].s.k[pos[i]].name, name))
				r->at[i] = &ks[i].s.k[pos[i]++];
		fill_row(r, ks, n);
	}
	if (cli_opts()->json)
		print_json(ks, n, rows, nr);
	else
		print_text(ks, n, rows, nr);
	ret = 0;
	goto out;
nomem:
	cli_error("out of memory");
out:
	for (size_t r = 0; r < nr; r++)
		free(rows[r].at);
	free(rows);
	for (int i = 0; ks && i < n; i++) {
		if (ks[i].label != args[i])
			free((char *)ks[i].label);
		kside_free(&ks[i].s);
	}
	free(ks);
	free(pos);
	return ret;
}
