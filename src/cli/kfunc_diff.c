// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * --diff --kfuncs OLD NEW: the kfuncs of two objects paired by name (ids
 * differ between builds): added, removed, moved to KF_IMPLICIT_ARGS (an
 * _impl now carries the kernel prototype), flags changed, and the
 * prototype BPF programs see changed. Text or JSON.
 *
 * "Moved" is a kfunc flagged KF_IMPLICIT_ARGS in NEW that OLD had without
 * the flag, or that OLD did not have but whose <name>_impl it had: the
 * form before KF_IMPLICIT_ARGS, where BPF programs called the _impl and
 * passed a placeholder for the pointer (bpf_obj_new_impl(id, NULL) became
 * bpf_obj_new(id) in 7.0).
 */
#include <bpf/btf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cproto.h"
#include "inspect.h"
#include "json.h"
#include "kfunc_table.h"

enum change { C_ADDED, C_REMOVED, C_IMPLICIT, C_FLAGS, C_PROTO, C_NR };

static const char *const change_title[C_NR] = {
	"kfuncs added", "kfuncs removed", "moved to KF_IMPLICIT_ARGS (an _impl has the kernel prototype)",
	"flags changed", "prototypes BPF sees changed",
};
static const char *const change_key[C_NR] = {
	"added", "removed", "moved_to_implicit_args", "flags_changed", "protos_changed",
};

struct pair {
	const struct kf *old, *new;
};

/* The pairs of each kind of change, in name order. */
static int pair_up(const struct kside *o, const struct kside *n, struct pair *p[C_NR],
		   size_t nr[C_NR])
{
	size_t i = 0, j = 0, cap = o->nr + n->nr + 1;

	for (int c = 0; c < C_NR; c++) {
		p[c] = calloc(cap, sizeof(**p));
		nr[c] = 0;
		if (!p[c])
			return -ENOMEM;
	}
	/* a side whose kfuncs are unknown: nothing added or removed */
	if (!kside_kfuncs_known(o) || !kside_kfuncs_known(n))
		return 0;
	while (i < o->nr || j < n->nr) {
		int cmp = i == o->nr ? 1 : j == n->nr ? -1 : strcmp(o->k[i].name, n->k[j].name);

		if (cmp < 0) {
			p[C_REMOVED][nr[C_REMOVED]++] = (struct pair){ &o->k[i++], NULL };
			continue;
		}
		if (cmp > 0) {
			const struct kf *legacy = n->k[j].implicit ? kside_find_impl(o, n->k[j].name) : NULL;

			if (legacy)
				p[C_IMPLICIT][nr[C_IMPLICIT]++] = (struct pair){ legacy, &n->k[j] };
			p[C_ADDED][nr[C_ADDED]++] = (struct pair){ NULL, &n->k[j++] };
			continue;
		}
		/* without set8s a kfunc not shown transformed may be flagged */
		if (!o->k[i].implicit && n->k[j].implicit && o->set8s)
			p[C_IMPLICIT][nr[C_IMPLICIT]++] = (struct pair){ &o->k[i], &n->k[j] };
		if (o->set8s && n->set8s && o->k[i].flags != n->k[j].flags)
			p[C_FLAGS][nr[C_FLAGS]++] = (struct pair){ &o->k[i], &n->k[j] };
		if (strcmp(o->k[i].bpf_proto, n->k[j].bpf_proto))
			p[C_PROTO][nr[C_PROTO]++] = (struct pair){ &o->k[i], &n->k[j] };
		i++;
		j++;
	}
	return 0;
}

/* Why a change cannot be told (its count unknown), or NULL. */
static const char *unknown_why(const struct kside *o, const struct kside *n, int c)
{
	const struct kside *u = !kside_kfuncs_known(o) ? o : !kside_kfuncs_known(n) ? n : NULL;

	if (u)
		return "unknown";
	if (c == C_FLAGS && (!o->set8s || !n->set8s))
		return "unknown";
	return NULL;
}

static void print_side(const char *mark, const struct kside *s)
{
	if (kside_kfuncs_known(s))
		printf("%s %s (%zu kfuncs%s)\n", mark, s->path, s->nr,
		       s->set8s ? "" : "; flags unknown: no set8s read");
	else
		printf("%s %s (kfuncs unknown: no set8s read and no bpf_kfunc decl tags)\n", mark,
		       s->path);
}

static void print_text(const struct kside *o, const struct kside *n, struct pair *p[C_NR],
		       const size_t nr[C_NR])
{
	print_side("---", o);
	print_side("+++", n);
	for (int c = 0; c < C_NR; c++) {
		if (unknown_why(o, n, c)) {
			printf("%s: unknown\n", change_title[c]);
			continue;
		}
		printf("%s: %zu\n", change_title[c], nr[c]);
		for (size_t i = 0; i < nr[c]; i++) {
			const struct kf *a = p[c][i].old, *b = p[c][i].new;

			switch (c) {
			case C_ADDED:
				printf("+%s  %s\n", b->bpf_proto, b->flag_str);
				break;
			case C_REMOVED:
				printf("-%s  %s\n", a->bpf_proto, a->flag_str);
				break;
			case C_IMPLICIT:
				printf(" %s: BPF sees %s", b->name, b->bpf_proto);
				if (strcmp(a->name, b->name))
					printf(" (called %s before)", a->bpf_proto);
				printf("\n");
				break;
			case C_FLAGS:
				printf(" %s: %s -> %s\n", b->name, a->flag_str, b->flag_str);
				break;
			case C_PROTO:
				printf("-%s\n+%s\n", a->bpf_proto, b->bpf_proto);
				break;
			}
		}
	}
}

static void json_kf(struct json *j, const char *key, const struct kf *k)
{
	json_key(j, key);
	json_start_object(j);
	json_string_field(j, "proto", k->bpf_proto);
	json_uint_field(j, "flags", k->flags);
	json_key(j, "flag_names");
	inspect_flags_json(j, k->flag_str);
	json_bool_field(j, "implicit_args", k->implicit);
	json_end_object(j);
}

static void print_json(const struct kside *o, const struct kside *n, struct pair *p[C_NR],
		       const size_t nr[C_NR])
{
	const struct kside *sides[2] = { o, n };
	struct json j;

	json_init(&j, stdout, cli_opts()->pretty);
	json_start_object(&j);
	for (int s = 0; s < 2; s++) {
		json_key(&j, s ? "new" : "old");
		json_start_object(&j);
		json_string_field(&j, "file", sides[s]->path);
		json_key(&j, "kfuncs");
		if (kside_kfuncs_known(sides[s]))
			json_uint(&j, sides[s]->nr);
		else
			json_null(&j);
		json_bool_field(&j, "flags_known", sides[s]->set8s);
		json_end_object(&j);
	}
	for (int c = 0; c < C_NR; c++) {
		json_key(&j, change_key[c]);
		if (unknown_why(o, n, c)) {
			json_null(&j);
			continue;
		}
		json_start_array(&j);
		for (size_t i = 0; i < nr[c]; i++) {
			const struct kf *a = p[c][i].old, *b = p[c][i].new;

			json_start_object(&j);
			json_string_field(&j, "name", b ? b->name : a->name);
			if (a && b && strcmp(a->name, b->name))
				json_string_field(&j, "old_name", a->name);
			if (a)
				json_kf(&j, "old", a);
			if (b)
				json_kf(&j, "new", b);
			json_end_object(&j);
		}
		json_end_array(&j);
	}
	json_end_object(&j);
	json_finish(&j);
}

int cli_diff_kfuncs(const char *old_path, const char *new_path)
{
	struct kside o = { 0 }, n = { 0 };
	struct pair *p[C_NR] = { 0 };
	size_t nr[C_NR];
	int ret = cli_opts()->fail_status;

	if (kside_load(&o, old_path, false) || cli_new_side() || kside_load(&n, new_path, false))
		goto out;
	if (pair_up(&o, &n, p, nr)) {
		cli_error("out of memory");
		goto out;
	}
	if (cli_opts()->json)
		print_json(&o, &n, p, nr);
	else
		print_text(&o, &n, p, nr);
	/* as diff(1): 1 when they differ, 2 when that cannot be told */
	ret = 0;
	for (int c = 0; c < C_NR; c++)
		ret |= nr[c] > 0;
	if (!kside_kfuncs_known(&o) || !kside_kfuncs_known(&n)) {
		/* the trouble said where diff(1) says it, beside the table's
		 * "unknown" (-j: the side's "kfuncs": null) */
		cli_error("%s: kfuncs unknown (no set8s read and no bpf_kfunc decl tags): whether "
			  "the kfuncs differ cannot be told",
			  kside_kfuncs_known(&o) ? new_path : old_path);
		ret = 2;
	}
out:
	for (int c = 0; c < C_NR; c++)
		free(p[c]);
	kside_free(&o);
	kside_free(&n);
	return ret;
}
