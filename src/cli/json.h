/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* A small JSON writer in the manner of bpftool's json_writer. */
#ifndef BTF2BTF_JSON_H
#define BTF2BTF_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct json {
	FILE *f;
	bool pretty;
	int depth;
	bool first;		/* nothing written yet at this depth */
	bool after_key;
};

void json_init(struct json *j, FILE *f, bool pretty);
void json_start_object(struct json *j);
void json_end_object(struct json *j);
void json_start_array(struct json *j);
void json_end_array(struct json *j);
void json_key(struct json *j, const char *key);
void json_string(struct json *j, const char *s);
void json_uint(struct json *j, uint64_t v);
void json_int(struct json *j, int64_t v);
void json_bool(struct json *j, bool v);
void json_null(struct json *j);
/* key + value shorthands */
void json_string_field(struct json *j, const char *key, const char *s);
void json_uint_field(struct json *j, const char *key, uint64_t v);
void json_int_field(struct json *j, const char *key, int64_t v);
void json_bool_field(struct json *j, const char *key, bool v);
/* Documents finished so far: a failed -j run with none prints an error object. */
extern unsigned int json_documents;
/* Finish the document (newline). */
void json_finish(struct json *j);

#endif /* BTF2BTF_JSON_H */
