// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * --check: print the problems of the library's plan, one line per problem
 * ("FILE: SEVERITY: RULE: detail"); exit 1 on an error (the transform
 * refuses the object), on a warning only with --werror. The object is
 * opened leniently and never transformed, so every problem is reported,
 * including those that make the transform refuse the object. The rules
 * themselves live in the library (src/lib/plan/plan.c); README.md lists them.
 *
 * Input whose set8s cannot be read (raw BTF; a stripped vmlinux: .BTF_ids
 * but no symbol table) hides what most rules look at: that is said, not
 * reported as "clean", and the rule that only means something next to
 * set8s (tag-not-in-set) is left out. An object without .BTF_ids has no
 * kfunc set to miss: clean. A 6.0-6.8 kernel's kfunc sets get one note.
 */
#include <stdio.h>

#include "btf2btf.h"
#include "cli.h"
#include "inspect.h"
#include "json.h"

static const char *severity_str(enum btf2btf_severity s)
{
	return s == BTF2BTF_SEV_ERROR ? "error" : "warning";
}

/* What --check can say of a module's BTF on a distilled base: relocated
 * onto -B as the kernel relocates it at load (a failure is an error of the
 * open), or read on its own distilled base alone. NULL: no distilled base. */
static const char *distilled_note(const struct btf2btf *b, char *buf, size_t size)
{
	const struct btf2btf_object_info *info = btf2btf__object_info(b);

	if (!info->distilled_base_types)
		return NULL;
	if (info->relocated)
		snprintf(buf, size, "its distilled base (%u types) relocates onto %s as the kernel "
			 "relocates it at module load: its BTF is accepted there",
			 info->distilled_base_types, cli_opts()->base_path);
	else
		snprintf(buf, size, "read on its own distilled base (%u types); -B vmlinux (or "
			 "/sys/kernel/btf/vmlinux) checks that a kernel will accept its BTF",
			 info->distilled_base_types);
	return buf;
}

static void print_json(const char *path, const struct btf2btf *b, bool set8s,
		       unsigned int errors, unsigned int warnings)
{
	size_t nr = btf2btf__problem_cnt(b);
	struct json *j = cli_json_record();
	const char *note;
	char buf[1024];

	json_start_object(j);
	json_string_field(j, "file", path);
	json_bool_field(j, "clean", set8s && !errors && !warnings);
	json_bool_field(j, "set8s_seen", set8s);
	note = inspect_object_note(b, buf, sizeof(buf));
	json_key(j, "note");	/* always there, as every key: null when there is none */
	if (note)
		json_string(j, note);
	else
		json_null(j);
	note = distilled_note(b, buf, sizeof(buf));
	json_key(j, "distilled_base");
	if (note)
		json_string(j, note);
	else
		json_null(j);
	json_uint_field(j, "errors", errors);
	json_uint_field(j, "warnings", warnings);
	json_key(j, "problems");
	json_start_array(j);
	for (size_t i = 0; i < nr; i++) {
		const struct btf2btf_problem *p = btf2btf__problem(b, i);

		if (!inspect_problem_shown(p, set8s))
			continue;
		json_start_object(j);
		json_string_field(j, "rule", p->rule);
		json_string_field(j, "severity", severity_str(p->severity));
		json_string_field(j, "name", p->name);
		json_key(j, "id");
		if (p->id)
			json_uint(j, p->id);
		else
			json_null(j);
		json_string_field(j, "detail", p->message);
		json_end_object(j);
	}
	json_end_array(j);
	json_end_object(j);
	cli_json_done(j);
}

int cli_check(const char *path)
{
	const struct cli_opts *o = cli_opts();
	unsigned int errors = 0, warnings = 0;
	struct btf2btf *b;
	bool set8s;
	size_t nr;
	int open_rc;

	open_rc = cli_open(path, CLI_OPEN_LENIENT | CLI_OPEN_QUIET, &b);
	if (open_rc)
		return open_rc;
	nr = btf2btf__problem_cnt(b);
	set8s = inspect_sets_readable(b);
	for (size_t i = 0; i < nr; i++) {
		const struct btf2btf_problem *p = btf2btf__problem(b, i);

		if (!inspect_problem_shown(p, set8s))
			continue;
		if (p->severity == BTF2BTF_SEV_ERROR)
			errors++;
		else
			warnings++;
		if (!o->json)
			printf("%s: %s: %s: %s\n", path, severity_str(p->severity), p->rule,
			       p->message);
	}
	cli_tally()->errors += errors;
	cli_tally()->warnings += warnings;
	cli_tally()->with_errors += errors > 0;
	cli_tally()->clean += set8s && !errors && !warnings;
	if (o->json) {
		print_json(path, b, set8s, errors, warnings);
	} else {
		char buf[1024];
		const char *note = inspect_object_note(b, buf, sizeof(buf));

		if (note)
			printf("%s: note: %s\n", path, note);
		note = distilled_note(b, buf, sizeof(buf));
		if (note)
			printf("%s: note: %s\n", path, note);
	}
	btf2btf__close(b);
	return errors || (o->werror && warnings) ? 1 : 0;
}
