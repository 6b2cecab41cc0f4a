// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Several objects in one run (the transform, --kfuncs, --check): the base
 * read once, each object on its own, the worst exit status, a final tally;
 * with -j one JSON document for the whole run:
 *
 *   {"version": 1, "mode": "check", "objects": [RECORD, ...], "tally": {...}}
 *
 * where a RECORD is what the mode prints for one object, or {"file",
 * "error"} for one that failed. One object keeps the document it always
 * had (the record alone, or {"error"}), so scripts written for it go on
 * working; "version" tells the two apart and changes when the batch
 * document does.
 */
#include <bpf/btf.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "json.h"

#define BATCH_JSON_VERSION 1

static struct json doc;
static bool batch;		/* several objects: records go into "objects" */
static bool several;		/* several objects, text or JSON */
static struct cli_tally tally;

struct cli_tally *cli_tally(void)
{
	return &tally;
}

bool cli_batch(void)
{
	return several;
}

struct json *cli_json_record(void)
{
	if (!batch)
		json_init(&doc, stdout, cli_opts()->pretty);
	return &doc;
}

void cli_json_done(struct json *j)
{
	if (!batch)
		json_finish(j);
}

void cli_json_error(void)
{
	struct json *j = cli_json_record();

	json_start_object(j);
	json_string_field(j, "error", cli_opts()->first_error[0] ? cli_opts()->first_error : "failed");
	json_end_object(j);
	cli_json_done(j);
}

static void tally_json(const char *mode)
{
	json_key(&doc, "tally");
	json_start_object(&doc);
	json_uint_field(&doc, "objects", tally.objects);
	json_uint_field(&doc, "failed", tally.failed);
	if (!strcmp(mode, "transform")) {
		json_uint_field(&doc, "changed", tally.changed);
		json_uint_field(&doc, "written", tally.written);
	} else if (!strcmp(mode, "kfuncs")) {
		json_uint_field(&doc, "kfuncs", tally.kfuncs);
	} else {
		json_uint_field(&doc, "clean", tally.clean);
		json_uint_field(&doc, "with_errors", tally.with_errors);
		json_uint_field(&doc, "errors", tally.errors);
		json_uint_field(&doc, "warnings", tally.warnings);
	}
	json_end_object(&doc);
}

/* The transform prints a line per object already: the tally line is for
 * the views, whose output per object does not add up by itself. */
static void tally_text(const char *mode)
{
	if (!strcmp(mode, "kfuncs"))
		printf("kfuncs: %u objects, %u kfuncs, %u failed\n", tally.objects, tally.kfuncs,
		       tally.failed);
	else if (!strcmp(mode, "check"))
		printf("check: %u objects: %u clean, %u with errors, %u failed; "
		       "%u errors, %u warnings\n", tally.objects, tally.clean, tally.with_errors,
		       tally.failed, tally.errors, tally.warnings);
}

int cli_run_each(const char *mode, int nr, char **paths, int (*one)(const char *path),
		 void (*table_done)(bool with_file))
{
	struct cli_opts *o = cli_opts();
	struct btf *base = NULL;
	int rc = 0;

	if (nr == 1) {
		tally.objects = 1;
		return one(paths[0]);
	}
	if (o->base_path) {
		BTF2BTF_OPTS(opts, .log = cli_log_cb, .max_decompressed = o->max_decompressed);
		int err = btf2btf__load_base(o->base_path, &opts, &base);

		if (err)
			return cli_fail_open(o->base_path, err);
		o->base_btf = base;
	}
	if (o->json) {
		batch = true;
		json_init(&doc, stdout, o->pretty);
		json_start_object(&doc);
		json_uint_field(&doc, "version", BATCH_JSON_VERSION);
		json_string_field(&doc, "mode", mode);
		json_key(&doc, "objects");
		json_start_array(&doc);
	}
	several = true;
	for (int i = 0; i < nr; i++) {
		int status;

		/* cli_fail() and the JSON error record speak for this object only */
		o->errors = 0;
		o->first_error[0] = 0;
		tally.objects++;
		status = one(paths[i]);
		if (status && o->errors) {	/* failed, not only found problems */
			tally.failed++;
			if (o->json) {
				json_start_object(&doc);
				json_string_field(&doc, "file", paths[i]);
				json_string_field(&doc, "error", o->first_error);
				json_end_object(&doc);
			}
		}
		fflush(stdout);	/* each object's line as it is done */
		if (status > rc)
			rc = status;
	}
	if (o->json) {
		json_end_array(&doc);
		tally_json(mode);
		json_end_object(&doc);
		batch = false;
		json_finish(&doc);
	} else {
		/* --kfuncs: one table for all, a FILE column naming each row's */
		if (table_done)
			table_done(true);
		tally_text(mode);
	}
	several = false;
	o->base_btf = NULL;
	btf__free(base);
	return rc;
}
