// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Fault injection for the tests: a kill at a named point, a failed allocation. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#ifdef BTF2BTF_FAULT_INJECTION
unsigned long b2b_fault_nomem_at, b2b_fault_nomem_calls;

bool b2b_fault_nomem(void)
{
	return b2b_fault_nomem_at && ++b2b_fault_nomem_calls == b2b_fault_nomem_at;
}

/* Die at a named point to prove the input survives. */
void b2b_fault_point(const char *name)
{
	const char *want = getenv("BTF2BTF_FAULT");

	if (want && !strcmp(want, name))
		raise(SIGKILL);
}
#else
bool b2b_fault_nomem(void)
{
	return false;
}

void b2b_fault_point(const char *name)
{
	(void)name;
}
#endif
