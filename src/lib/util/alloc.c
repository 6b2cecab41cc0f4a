// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Every allocation the library makes itself goes through here, so that the
 * tests can fail any one of them (b2b_fault_nomem()) and prove that each
 * error path leaves the handle and the files as they were. Also the kill at
 * a named point of the crash tests.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "util/internal.h"

void *b2b_malloc(size_t size)
{
	return b2b_fault_nomem() ? NULL : malloc(size ? size : 1);
}

void *b2b_calloc(size_t n, size_t size)
{
	return b2b_fault_nomem() ? NULL : calloc(n ? n : 1, size ? size : 1);
}

void *b2b_realloc(void *p, size_t size)
{
	return b2b_fault_nomem() ? NULL : realloc(p, size ? size : 1);
}

char *b2b_strdup(const char *s)
{
	return b2b_fault_nomem() ? NULL : strdup(s);
}

#ifdef BTF2BTF_FAULT_INJECTION
unsigned long b2b_fault_nomem_at, b2b_fault_nomem_calls;

bool b2b_fault_nomem(void)
{
	return b2b_fault_nomem_at && ++b2b_fault_nomem_calls == b2b_fault_nomem_at;
}

bool b2b_fault_at(const char *name)
{
	const char *want = getenv("BTF2BTF_FAULT");

	return want && !strcmp(want, name);
}

/* Die at a named point to prove the input survives. */
void b2b_fault_point(const char *name)
{
	if (b2b_fault_at(name))
		raise(SIGKILL);
}
#else
bool b2b_fault_nomem(void)
{
	return false;
}

bool b2b_fault_at(const char *name)
{
	(void)name;
	return false;
}

void b2b_fault_point(const char *name)
{
	(void)name;
}
#endif
