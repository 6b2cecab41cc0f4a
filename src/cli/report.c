// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The run summary and --dump, in text or JSON. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "dump.h"
#include "json.h"

void cli_print_summary(const struct btf2btf *b)
{
	const struct btf2btf_stats *s = btf2btf__stats(b);
	const struct cli_opts *o = cli_opts();
	bool changed = btf2btf__changed(b);
	/* -o always writes its file (unchanged BTF too); in place, only a
	 * change is written (the same bytes would be) */
	bool written = !o->dry_run && (o->output ? strcmp(o->output, "-") != 0 : changed);
	const char *result = o->dry_run ? (changed ? "dry run, nothing written" : "unchanged")
			     : o->output ? (changed ? "written" : "unchanged; written")
			     : changed ? "rewritten" : "unchanged";
	/* the file the line is about: with --btf, the raw BTF is what changes */
	const char *file = o->btf_path ? o->btf_path : btf2btf__path(b);

	cli_tally()->changed += changed;
	cli_tally()->written += written;
	if (o->json) {
		struct json *j = cli_json_record();

		json_start_object(j);
		json_string_field(j, "file", file);
		if (o->btf_path)
			json_string_field(j, "set8s_from", btf2btf__path(b));
		json_uint_field(j, "kfuncs", s->kfuncs);
		json_uint_field(j, "by_tag", s->by_tag);
		json_uint_field(j, "by_set8", s->by_set8);
		json_uint_field(j, "by_both", s->by_both);
		json_uint_field(j, "implicit", s->implicit);
		json_uint_field(j, "transformed", s->transformed);
		json_uint_field(j, "legacy", s->legacy);
		json_uint_field(j, "impl_added", s->impl_added);
		json_uint_field(j, "already_transformed", s->already);
		json_uint_field(j, "tags_added", s->tags_added);
		json_uint_field(j, "warnings", s->warnings);
		json_bool_field(j, "changed", changed);
		json_bool_field(j, "written", written);
		if (o->output)
			json_string_field(j, "output", o->output);
		json_end_object(j);
		cli_json_done(j);
		return;
	}
	printf("btf2btf: %s: %u kfuncs (tag %u, set8 %u, both %u), %u KF_IMPLICIT_ARGS: "
	       "%u transformed (%u legacy), %u _impl added, %u already transformed",
	       file, s->kfuncs, s->by_tag, s->by_set8, s->by_both, s->implicit,
	       s->transformed, s->legacy, s->impl_added, s->already);
	if (s->tags_added)
		printf(", %u bpf_kfunc tags added", s->tags_added);
	if (written && o->output)
		printf("; %s to %s\n", result, o->output);
	else
		printf("; %s\n", result);
}

int cli_dump(const struct btf2btf *b)
{
	const struct btf *btf = btf2btf__btf(b);
	const struct cli_opts *o = cli_opts();
	struct json j;

	if (!btf)
		return -errno;	/* logged */
	if (!o->json) {
		dump_btf(stdout, btf, NULL);
		return 0;
	}
	json_init(&j, stdout, o->pretty);
	dump_btf(stdout, btf, &j);
	json_finish(&j);
	return 0;
}
