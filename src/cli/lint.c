// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * --check: print the problems of the library's plan, one line per problem
 * ("FILE: SEVERITY: RULE: detail"); exit 1 on an error (the transform
 * refuses the object), on a warning only with --werror. The object is
 * opened leniently and never transformed, so every problem is reported,
 * including those that make the transform refuse the object. The rules
 * themselves live in the library (src/lib/plan.c); README.md lists them.
 *
 * Input without set8s (raw BTF, a stripped vmlinux: no .BTF_ids) hides
 * what most rules look at: that is said, not reported as "clean", and the
 * rule that only means something next to set8s (tag-not-in-set) is left out.
 */
#include <stdio.h>

#include "cli.h"
#include "inspect.h"
#include "json.h"

static const char *severity_str(enum btf2btf_severity s)
{
	return s == BTF2BTF_SEV_ERROR ? "error" : "warning";
}

#define NO_SET8_NOTE "no BTF_SET8_KFUNCS set8 (raw BTF, or no .BTF_ids: a stripped object): " \
	"kfuncs are found by decl tag only, their flags and set8s cannot be checked"

static void print_json(const char *path, const struct btf2btf *b, bool set8s,
		       unsigned int errors, unsigned int warnings)
{
	size_t nr = btf2btf__problem_cnt(b);
	struct json *j = cli_json_record();

	json_start_object(j);
	json_string_field(j, "file", path);
	json_bool_field(j, "clean", set8s && !errors && !warnings);
	json_bool_field(j, "set8s_seen", set8s);
	json_key(j, "note");	/* always there, as every key: null when set8s were seen */
	if (set8s)
		json_null(j);
	else
		json_string(j, NO_SET8_NOTE);
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

	if (cli_open(path, CLI_OPEN_LENIENT | CLI_OPEN_QUIET, &b))
		return 1;
	nr = btf2btf__problem_cnt(b);
	set8s = btf2btf__set8_entry_cnt(b) > 0;
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
	if (o->json)
		print_json(path, b, set8s, errors, warnings);
	else if (!set8s)
		printf("%s: note: %s\n", path, NO_SET8_NOTE);
	btf2btf__close(b);
	return errors || (o->werror && warnings) ? 1 : 0;
}
