// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Options-struct ABI checks (B2B_OPTS_VALID): see internal.h. */
#include "util/internal.h"

bool b2b_opts_valid(const void *opts, size_t known_sz, size_t user_sz)
{
	const unsigned char *p = opts;
	size_t i;

	if (user_sz < sizeof(size_t))
		return false;
	/* a newer caller: what we do not know must be left zero */
	for (i = known_sz; i < user_sz; i++)
		if (p[i])
			return false;
	return true;
}
