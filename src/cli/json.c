// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* JSON writer: one document, keys in the order written, optional indent. */
#include <inttypes.h>

#include "json.h"

void json_init(struct json *j, FILE *f, bool pretty)
{
	j->f = f;
	j->pretty = pretty;
	j->depth = 0;
	j->first = true;
	j->after_key = false;
}

static void newline(struct json *j)
{
	if (!j->pretty)
		return;
	fputc('\n', j->f);
	for (int i = 0; i < j->depth; i++)
		fputs("    ", j->f);
}

/* Separator and indent before a value or a key. */
static void before(struct json *j)
{
	if (j->after_key) {
		j->after_key = false;
		return;
	}
	if (!j->first)
		fputc(',', j->f);
	if (j->depth)
		newline(j);
	j->first = false;
}

static void open_(struct json *j, char c)
{
	before(j);
	fputc(c, j->f);
	j->depth++;
	j->first = true;
}

static void close_(struct json *j, char c)
{
	j->depth--;
	if (!j->first)
		newline(j);
	fputc(c, j->f);
	j->first = false;
}

void json_start_object(struct json *j) { open_(j, '{'); }
void json_end_object(struct json *j) { close_(j, '}'); }
void json_start_array(struct json *j) { open_(j, '['); }
void json_end_array(struct json *j) { close_(j, ']'); }

static void quoted(struct json *j, const char *s)
{
	fputc('"', j->f);
	for (; *s; s++) {
		unsigned char c = *s;

		switch (c) {
		case '"': fputs("\\\"", j->f); break;
		case '\\': fputs("\\\\", j->f); break;
		case '\n': fputs("\\n", j->f); break;
		case '\t': fputs("\\t", j->f); break;
		case '\r': fputs("\\r", j->f); break;
		case '\b': fputs("\\b", j->f); break;
		case '\f': fputs("\\f", j->f); break;
		default:
			if (c < 0x20)
				fprintf(j->f, "\\u%04x", c);
			else
				fputc(c, j->f);
		}
	}
	fputc('"', j->f);
}

void json_key(struct json *j, const char *key)
{
	before(j);
	quoted(j, key);
	fputs(j->pretty ? ": " : ":", j->f);
	j->after_key = true;
}

void json_string(struct json *j, const char *s)
{
	before(j);
	quoted(j, s ? s : "");
}

void json_uint(struct json *j, uint64_t v)
{
	before(j);
	fprintf(j->f, "%" PRIu64, v);
}

void json_int(struct json *j, int64_t v)
{
	before(j);
	fprintf(j->f, "%" PRId64, v);
}

void json_bool(struct json *j, bool v)
{
	before(j);
	fputs(v ? "true" : "false", j->f);
}

void json_null(struct json *j)
{
	before(j);
	fputs("null", j->f);
}

void json_string_field(struct json *j, const char *key, const char *s)
{
	json_key(j, key);
	json_string(j, s);
}

void json_uint_field(struct json *j, const char *key, uint64_t v)
{
	json_key(j, key);
	json_uint(j, v);
}

void json_int_field(struct json *j, const char *key, int64_t v)
{
	json_key(j, key);
	json_int(j, v);
}

void json_bool_field(struct json *j, const char *key, bool v)
{
	json_key(j, key);
	json_bool(j, v);
}

unsigned int json_documents;

void json_finish(struct json *j)
{
	json_documents++;
	fputc('\n', j->f);
}
