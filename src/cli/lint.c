// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * --check: print the problems of the library's plan, one line per problem
 * ("FILE: RULE: detail"), exit 1 if there is any. The object is opened
 * leniently and never transformed, so every problem is reported, including
 * those that make the transform refuse the object. The rules themselves
 * live in the library (src/lib/plan.c); README.md lists them.
 */
#include <stdio.h>

#include "cli.h"
#include "inspect.h"
#include "json.h"

static const char *severity_str(enum btf2btf_severity s)
{
	return s == BTF2BTF_SEV_ERROR ? "error" : "warning";
}

static void print_json(const char *path, const struct btf2btf *b)
{
	size_t nr = btf2btf__problem_cnt(b);
	struct json j;

	json_init(&j, stdout, cli_opts()->pretty);
	json_start_object(&j);
	json_string_field(&j, "file", path);
	json_bool_field(&j, "clean", nr == 0);
	json_key(&j, "problems");
	json_start_array(&j);
	for (size_t i = 0; i < nr; i++) {
		const struct btf2btf_problem *p = btf2btf__problem(b, i);

		json_start_object(&j);
		json_string_field(&j, "rule", p->rule);
		json_string_field(&j, "severity", severity_str(p->severity));
		json_string_field(&j, "name", p->name);
		json_key(&j, "id");
		if (p->id)
			json_uint(&j, p->id);
		else
			json_null(&j);
		json_string_field(&j, "detail", p->message);
		json_end_object(&j);
	}
	json_end_array(&j);
	json_end_object(&j);
	json_finish(&j);
}

int cli_check(const char *path)
{
	struct btf2btf *b;
	size_t nr;

	if (inspect_open(path, true, true, &b))
		return 1;
	nr = btf2btf__problem_cnt(b);
	if (cli_opts()->json)
		print_json(path, b);
	else
		for (size_t i = 0; i < nr; i++) {
			const struct btf2btf_problem *p = btf2btf__problem(b, i);

			printf("%s: %s: %s\n", path, p->rule, p->message);
		}
	btf2btf__close(b);
	return nr ? 1 : 0;
}
