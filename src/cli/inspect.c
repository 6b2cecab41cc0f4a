// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * --kfuncs: one row per kfunc (id, name, how it was found, set8s, flags,
 * state, _impl, prototypes), before the transform or after it (-T); and
 * the helpers --diff and --check share.
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

/* ---- shared ---- */

bool inspect_problem_shown(const struct btf2btf_problem *p, bool set8s)
{
	return set8s || strcmp(p->rule, "tag-not-in-set");
}

bool inspect_sets_readable(const struct btf2btf *b)
{
	const struct btf2btf_object_info *info = btf2btf__object_info(b);

	/* no .BTF_ids: no kfunc set to miss */
	return info->elf && (!info->has_btf_ids || info->has_symtab);
}

const char *inspect_object_note(const struct btf2btf *b, char *buf, size_t size)
{
	const struct btf2btf_object_info *info = btf2btf__object_info(b);
	const char *rel = *info->kernel_release ? info->kernel_release : "RELEASE";

	if (!info->elf) {
		snprintf(buf, size, "raw BTF has no .BTF_ids and no symbol table: only kfuncs "
			 "with a bpf_kfunc decl tag are seen, their set8s and flags are not "
			 "(they are in the object the BTF came from)");
	} else if (!inspect_sets_readable(b)) {
		snprintf(buf, size, "no symbol table (a stripped vmlinux): the set8s in .BTF_ids "
			 "cannot be found, so only kfuncs with a bpf_kfunc decl tag are seen, their "
			 "flags are not; the symbols are in the unstripped vmlinux (Debian: package "
			 "linux-image-%s-dbg, usr/lib/debug/boot/vmlinux-%s; a System.map has the "
			 "addresses but not the set8s' sizes, and the one in /boot is a placeholder)",
			 rel, rel);
	} else if (info->kfunc_id_sets || info->fmodret_sets) {
		snprintf(buf, size, "Linux %s predates BTF_SET8_KFUNCS (6.9): %u set8%s registered "
			 "by a struct btf_kfunc_id_set read as kfunc set%s%s%s%s; the transform keeps "
			 "upstream's rule (flagged set8s only) and leaves them alone", rel,
			 info->kfunc_id_sets, info->kfunc_id_sets == 1 ? "" : "s",
			 info->kfunc_id_sets == 1 ? "" : "s", info->fmodret_sets ? ", " : "",
			 info->fmodret_sets ? (info->fmodret_sets == 1 ? "1 fmod_ret allow-list"
								: "fmod_ret allow-lists") : "",
			 info->fmodret_sets ? " (register_btf_fmodret_id_set) left out" : "");
	} else {
		return NULL;
	}
	return buf;
}

void inspect_note_problems(const struct btf2btf *b, const char *path, unsigned int how)
{
	bool readable = inspect_sets_readable(b);
	const char *note;
	char buf[1024];
	size_t nr = 0;

	if (cli_opts()->verbose < 0)
		return;		/* -q: errors only */
	for (size_t i = 0; i < btf2btf__problem_cnt(b); i++)
		nr += inspect_problem_shown(btf2btf__problem(b, i), readable);
	/* -v printed every warning */
	if ((how & INSPECT_NOTE_PROBLEMS) && nr && !cli_opts()->verbose)
		fprintf(stderr, "btf2btf: warning: %s: %zu problem%s in the kfunc declarations "
			"(--check lists them)\n", path, nr, nr == 1 ? "" : "s");
	note = how & INSPECT_NOTE_OBJECT ? inspect_object_note(b, buf, sizeof(buf)) : NULL;
	if (note)
		fprintf(stderr, "btf2btf: note: %s: %s\n", path, note);
}

char *inspect_flags_str(uint32_t flags)
{
	int len = btf2btf__kf_flags_str(flags, NULL, 0);
	char *buf = len >= 0 ? malloc(len + 1) : NULL;

	if (buf)
		btf2btf__kf_flags_str(flags, buf, len + 1);
	return buf;
}

void inspect_flags_json(struct json *j, const char *flags_str)
{
	inspect_list_json(j, strcmp(flags_str, "-") ? flags_str : "", '|');
}

const char *inspect_found_str(unsigned int found_by)
{
	/* a 6.0-6.8 kfunc set is a set8 too (the note says which rule found it) */
	if (found_by & BTF2BTF_FOUND_KFUNC_ID_SET)
		found_by |= BTF2BTF_FOUND_SET8;
	switch (found_by & (BTF2BTF_FOUND_TAG | BTF2BTF_FOUND_SET8)) {
	case BTF2BTF_FOUND_TAG: return "tag";
	case BTF2BTF_FOUND_SET8: return "set8";
	case BTF2BTF_FOUND_TAG | BTF2BTF_FOUND_SET8: return "both";
	default: return "-";
	}
}

void inspect_found_json(struct json *j, unsigned int found_by)
{
	json_start_array(j);
	if (found_by & BTF2BTF_FOUND_TAG)
		json_string(j, "decl_tag");
	if (found_by & BTF2BTF_FOUND_SET8)
		json_string(j, "set8");
	if (found_by & BTF2BTF_FOUND_KFUNC_ID_SET)
		json_string(j, "kfunc_id_set");
	json_end_array(j);
}

void inspect_list_json(struct json *j, const char *list, char sep)
{
	json_start_array(j);
	while (list && *list) {
		const char *end = strchr(list, sep);
		size_t len = end ? (size_t)(end - list) : strlen(list);
		char *one = strndup(list, len);

		json_string(j, one ? one : "");
		free(one);
		list += len + (end != NULL);
	}
	json_end_array(j);
}

/* ---- --kfuncs ---- */

struct krow {
	const struct btf2btf_kfunc *k;
	const char *state;	/* now */
	const char *planned;	/* once transformed: the plan's verdict */
	uint32_t type_id;	/* the kfunc FUNC's proto, as it is now */
	bool implicit;		/* the plan handles it as KF_IMPLICIT_ARGS */
	bool known;		/* its set8s and flags could be read (else: unknown) */
	char id_col[16], impl_col[32];
	char *flags;
	char *proto;		/* the prototype the kernel implements */
	char *bpf_proto;	/* the prototype BPF programs see */
};

char *inspect_bpf_proto(const struct btf *btf, const struct btf2btf_kfunc *k, bool transformed)
{
	const struct btf_type *t = btf__type_by_id(btf, k->btf_id);
	int keep = !transformed && (k->actions & BTF2BTF_ACT_REDUCE_PROTO) ? (int)k->reduced_params
									   : -1;

	/* before the transform, what it will make of the kfunc */
	return cproto_func(btf, t ? t->type : 0, k->name, keep);
}

/* A row of the plan: the library decided everything, this only formats it. */
static int fill_row(struct krow *r, const struct btf *btf, bool transformed, bool known)
{
	const struct btf2btf_kfunc *k = r->k;
	const struct btf_type *t = btf__type_by_id(btf, k->btf_id);
	bool impl_proto = k->state == BTF2BTF_KFUNC_ALREADY || (transformed && k->impl_id);

	r->type_id = t ? t->type : 0;
	r->implicit = k->impl_name != NULL;
	r->known = known;
	/* without set8s: what the BTF showed (a transformed kfunc), else unknown */
	r->flags = known ? inspect_flags_str(k->flags) : strdup(INSPECT_UNKNOWN);
	r->state = known || k->state != BTF2BTF_KFUNC_PLAIN ? cli_state_str(k->state) : INSPECT_UNKNOWN;
	r->planned = cli_state_str(k->planned);
	/* the kernel prototype is _impl's once the kfunc has been reduced */
	r->proto = cproto_func(btf, k->orig_proto_id, impl_proto ? k->impl_name : k->name, -1);
	r->bpf_proto = inspect_bpf_proto(btf, k, transformed);

	snprintf(r->id_col, sizeof(r->id_col), "%u", k->btf_id);
	if (!r->implicit)
		snprintf(r->impl_col, sizeof(r->impl_col), "-");
	else if (k->impl_id)
		snprintf(r->impl_col, sizeof(r->impl_col), "%u%s", k->impl_id,
			 k->actions & BTF2BTF_ACT_USE_LEGACY ? " legacy" : "");
	else if (k->actions & BTF2BTF_ACT_ADD_IMPL)
		snprintf(r->impl_col, sizeof(r->impl_col), "new");
	else
		snprintf(r->impl_col, sizeof(r->impl_col), "?");
	return r->flags && r->proto && r->bpf_proto ? 0 : -ENOMEM;
}

static void actions_json(struct json *j, unsigned int actions)
{
	json_start_array(j);
	for (unsigned int i = 0; cli_action_name(i, true); i++)
		if (actions & (1U << i))
			json_string(j, cli_action_name(i, true));
	json_end_array(j);
}

/* --kfuncs' text table: one header over the rows of every object (with
 * several, FILE first), the columns as wide as their widest cell. */
enum { C_FILE, C_ID, C_NAME, C_FOUND, C_SETS, C_FLAGS, C_STATE, C_IMPL, C_PROTO, NR_COLS };

static struct {
	char *(*rows)[NR_COLS];	/* malloc'd cells */
	size_t nr, cap;
	bool failed;		/* out of memory: said once */
} table;

static void table_add(const char *file, const struct krow *r)
{
	const char *cells[NR_COLS] = { file, r->id_col, r->k->name, inspect_found_str(r->k->found_by),
				       !r->known ? INSPECT_UNKNOWN : *r->k->sets ? r->k->sets : "-",
				       r->flags, r->state,
				       r->impl_col, r->proto };
	char *(*row)[NR_COLS];

	if (table.nr == table.cap) {
		void *grown = realloc(table.rows, (table.cap = table.cap ? 2 * table.cap : 64) *
					  sizeof(*table.rows));

		if (!grown) {
			table.failed = true;
			return;
		}
		table.rows = grown;
	}
	row = &table.rows[table.nr++];
	for (int c = 0; c < NR_COLS; c++)
		(*row)[c] = strdup(cells[c]);
	/* the prototype cell replaced, the copy made above freed */
	if (strcmp(r->proto, r->bpf_proto)) {
		free((*row)[C_PROTO]);
		if (asprintf(&(*row)[C_PROTO], "%s  [BPF: %s]", r->proto, r->bpf_proto) < 0)
			(*row)[C_PROTO] = NULL;
	}
	for (int c = 0; c < NR_COLS; c++)
		table.failed |= !(*row)[c];
}

void inspect_kfuncs_flush(bool with_file)
{
	static const char *const head[NR_COLS] = { "FILE", "ID", "NAME", "FOUND", "SETS", "FLAGS",
						   "STATE", "IMPL", "PROTOTYPE" };
	size_t w[NR_COLS];

	if (table.failed)
		cli_error("out of memory for the kfunc table");
	for (int c = 0; c < NR_COLS; c++)
		w[c] = strlen(head[c]);
	for (size_t i = 0; i < table.nr && !table.failed; i++)
		for (int c = 0; c < NR_COLS; c++)
			if (strlen(table.rows[i][c]) > w[c])
				w[c] = strlen(table.rows[i][c]);
	for (size_t i = 0; !table.failed && i <= table.nr; i++) {
		const char *const *cells = i ? (const char *const *)table.rows[i - 1] : head;

		for (int c = with_file ? C_FILE : C_ID; c < C_PROTO; c++)
			printf("%-*s  ", (int)w[c], cells[c]);
		printf("%s\n", cells[C_PROTO]);
	}
	for (size_t i = 0; i < table.nr; i++)
		for (int c = 0; c < NR_COLS; c++)
			free(table.rows[i][c]);
	free(table.rows);
	memset(&table, 0, sizeof(table));
}
static void print_json(const struct btf2btf *b, const struct krow *rows, size_t nr,
		       bool transformed)
{
	struct json *j = cli_json_record();

	json_start_object(j);
	json_string_field(j, "file", btf2btf__path(b));
	json_bool_field(j, "after_transform", transformed);
	json_key(j, "kfuncs");
	json_start_array(j);
	for (size_t i = 0; i < nr; i++) {
		const struct krow *r = &rows[i];

		json_start_object(j);
		json_uint_field(j, "id", r->k->btf_id);
		json_string_field(j, "name", r->k->name);
		json_key(j, "found_by");
		inspect_found_json(j, r->k->found_by);
		/* null: the input cannot tell (no set8s to read) */
		json_key(j, "sets");
		if (r->known)
			inspect_list_json(j, r->k->sets, ',');
		else
			json_null(j);
		json_key(j, "flags");
		if (r->known)
			json_uint(j, r->k->flags);
		else
			json_null(j);
		json_key(j, "flag_names");
		if (r->known)
			inspect_flags_json(j, r->flags);
		else
			json_null(j);
		json_key(j, "implicit_args");
		if (r->known || r->implicit)
			json_bool(j, r->implicit);
		else
			json_null(j);
		json_key(j, "state");
		if (strcmp(r->state, INSPECT_UNKNOWN))
			json_string(j, r->state);
		else
			json_null(j);
		json_key(j, "planned");
		if (strcmp(r->state, INSPECT_UNKNOWN))
			json_string(j, r->planned);
		else
			json_null(j);
		json_key(j, "actions");
		actions_json(j, r->k->actions);
		json_uint_field(j, "reduced_params", r->k->reduced_params);
		json_uint_field(j, "problems", r->k->problems);
		json_uint_field(j, "type_id", r->type_id);
		json_string_field(j, "proto", r->proto);
		json_string_field(j, "bpf_proto", r->bpf_proto);
		json_key(j, "implicit_arg");
		if (r->implicit && r->k->implicit_arg >= 0)
			json_int(j, r->k->implicit_arg);
		else
			json_null(j);
		json_key(j, "impl_id");
		if (r->implicit && r->k->impl_id)
			json_uint(j, r->k->impl_id);
		else
			json_null(j);
		json_key(j, "impl_name");
		if (r->implicit)
			json_string(j, r->k->impl_name);
		else
			json_null(j);
		json_bool_field(j, "impl_legacy", r->k->actions & BTF2BTF_ACT_USE_LEGACY);
		json_end_object(j);
	}
	json_end_array(j);
	json_end_object(j);
	cli_json_done(j);
}

int cli_kfuncs(const char *path)
{
	const struct cli_opts *o = cli_opts();
	struct krow *rows = NULL;
	struct btf2btf *b;
	size_t nr;
	int err = 0;
	int open_rc;

	/* without -T a set8 conflict is shown, not fatal (the transform refuses it) */
	open_rc = cli_open(path, (o->transform ? 0 : CLI_OPEN_LENIENT) | CLI_OPEN_QUIET, &b);
	if (open_rc)
		return open_rc;
	inspect_note_problems(b, path, INSPECT_NOTE_PROBLEMS | INSPECT_NOTE_OBJECT);
	if (o->transform) {
		err = btf2btf__transform(b);
		if (err) {
			btf2btf__close(b);
			return cli_fail(path, err);
		}
	}
	nr = btf2btf__kfunc_cnt(b);
	rows = calloc(nr ? nr : 1, sizeof(*rows));
	err = rows ? 0 : -ENOMEM;
	if (!err && !btf2btf__btf(b))
		err = -errno;
	for (size_t i = 0; i < nr && !err; i++) {
		rows[i].k = btf2btf__kfunc(b, i);
		err = rows[i].k ? fill_row(&rows[i], btf2btf__btf(b), o->transform,
					   inspect_sets_readable(b)) : -errno;
	}
	if (!err) {
		cli_tally()->kfuncs += nr;
		if (o->json) {
			print_json(b, rows, nr, o->transform);
		} else {
			for (size_t i = 0; i < nr; i++)
				table_add(path, &rows[i]);
			/* several objects: one table, printed by cli_run_each() */
			if (!cli_batch())
				inspect_kfuncs_flush(false);
		}
	}
	for (size_t i = 0; rows && i < nr; i++) {
		free(rows[i].flags);
		free(rows[i].proto);
		free(rows[i].bpf_proto);
	}
	free(rows);
	btf2btf__close(b);
	/* the library logged its own failure (a vlen libbpf cannot hold) */
	return err ? cli_fail(path, err) : 0;
}
