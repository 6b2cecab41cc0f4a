// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* --kfuncs, --diff and --check (issue 6). */
#include <stdio.h>

#include "cli.h"

int cli_kfuncs(const char *path)
{
	(void)path;
	cli_error("--kfuncs is not implemented yet");
	return 1;
}

int cli_diff(const char *old_path, const char *new_path)
{
	(void)old_path; (void)new_path;
	cli_error("--diff is not implemented yet");
	return 1;
}

int cli_check(const char *path)
{
	(void)path;
	cli_error("--check is not implemented yet");
	return 1;
}
