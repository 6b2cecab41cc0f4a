/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Internal state of a btf2btf handle and the logging helpers every module uses. */
#ifndef BTF2BTF_INTERNAL_H
#define BTF2BTF_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "btf2btf.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

/* Bytes the library owns (data NULL: none). */
struct b2b_bytes {
	void *data;
	size_t size;
};

struct b2b_log {
	btf2btf_log_fn fn;
	void *ctx;
	const char *path;	/* prefix of every message */
	unsigned int *warnings;	/* counter bumped by b2b_warn, may be NULL */
};

__attribute__((format(printf, 3, 4)))
void b2b_log(const struct b2b_log *log, enum btf2btf_log_level level, const char *fmt, ...);

#define b2b_err(log, ...)   b2b_log(log, BTF2BTF_LOG_ERROR, __VA_ARGS__)
#define b2b_info(log, ...)  b2b_log(log, BTF2BTF_LOG_INFO, __VA_ARGS__)
#define b2b_debug(log, ...) b2b_log(log, BTF2BTF_LOG_DEBUG, __VA_ARGS__)
__attribute__((format(printf, 2, 3)))
void b2b_warn(const struct b2b_log *log, const char *fmt, ...);

/* Room for need elements of elem bytes in *arr (capacity *cap, doubled, at
 * least need): 0 or -ENOMEM, *arr untouched on failure. */
int b2b_grow(void **arr, size_t *cap, size_t need, size_t elem);
/* The first index of a[0, n) (sorted ascending) holding key or more; n if none. */
size_t b2b_lower_bound_u32(const uint32_t *a, size_t n, uint32_t key);

/*
 * Fault injection (test builds, -DBTF2BTF_FAULT_INJECTION): b2b_fault_nomem()
 * is called before each allocation the transform makes and says whether to
 * fail it: the b2b_fault_nomem_at-th call (counted in b2b_fault_nomem_calls)
 * fails when b2b_fault_nomem_at > 0. Always false in other builds.
 */
bool b2b_fault_nomem(void);
/* The library's allocations (alloc.c): malloc/calloc/realloc, each a
 * b2b_fault_nomem() point; a size or count of 0 asks for 1. */
void *b2b_malloc(size_t size);
void *b2b_calloc(size_t n, size_t size);
void *b2b_realloc(void *p, size_t size);
char *b2b_strdup(const char *s);
#ifdef BTF2BTF_FAULT_INJECTION
extern unsigned long b2b_fault_nomem_at, b2b_fault_nomem_calls;
#endif
/* Test builds: whether $BTF2BTF_FAULT == name (a failure to inject there). */
bool b2b_fault_at(const char *name);
/* Test builds: SIGKILL when $BTF2BTF_FAULT == name (crash tests). */
void b2b_fault_point(const char *name);

/*
 * Options structs, checked as libbpf's OPTS_VALID does: sz must cover at
 * least sz itself, and bytes past the struct this library knows must be
 * zero (a newer caller asking for something we cannot do). Fields are read
 * only when they lie inside sz (an older caller's shorter struct).
 *
 * "The struct we know" is all of it, its tail padding included: compilers
 * do not promise to zero padding (clang 14 -O2 leaves garbage in it even
 * through BTF2BTF_OPTS()), so padding must not be read as a field. That
 * holds because every release's fields end with `size_t :0;` in the public
 * header and the next release appends after it: a newer field never lands
 * in the padding an older library ignores.
 */
#ifndef offsetofend
#define offsetofend(TYPE, FIELD) (offsetof(TYPE, FIELD) + sizeof(((TYPE *)0)->FIELD))
#endif

bool b2b_opts_valid(const void *opts, size_t known_sz, size_t user_sz);
#define B2B_OPTS_VALID(opts, type)						\
	(!(opts) || b2b_opts_valid(opts, sizeof(struct type), (opts)->sz))
#define B2B_OPTS_HAS(opts, field)						\
	((opts) && (opts)->sz >= offsetofend(__typeof__(*(opts)), field))
#define B2B_OPTS_GET(opts, field, fallback)					\
	(B2B_OPTS_HAS(opts, field) ? (opts)->field : (fallback))

/* Returns 0 on success, or the (negative) error it logged. */
int b2b_errno(const struct b2b_log *log, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif /* BTF2BTF_INTERNAL_H */
