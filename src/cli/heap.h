/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The CLI's heap policy: the process's, so the CLI's, not the library's. */
#ifndef BTF2BTF_CLI_HEAP_H
#define BTF2BTF_CLI_HEAP_H

#include <stddef.h>

/* Big tables stay in the heap, and freed ones are reused. */
void cli_heap_init(void);
/* Before the first input is read: with paths[0..n) (NULL entries skipped)
 * totalling CLI_HEAP_HUGE_MIN bytes or more, the heap is grown once to
 * about four times that and marked for transparent huge pages. */
void cli_heap_reserve(const char *const *paths, size_t n);

#define CLI_HEAP_HUGE_MIN	(1u << 20)

#endif /* BTF2BTF_CLI_HEAP_H */
