// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The CLI's heap policy. btf2btf's cost on a big input (a vmlinux, a
 * module's base) is mostly memory touched for the first time, a page fault
 * per 4 KB page, so the heap a big input needs is reserved once and marked
 * MADV_HUGEPAGE: a fault per 2 MB, and fewer TLB misses (the figures that
 * justify it, and what it costs in peak RSS, are in bench/README.md).
 *
 * Only memory touched becomes resident (a huge page at a time), so peak
 * RSS grows by at most the last, partly used, huge page of the region.
 * Best effort: without THP (or with it "never"), or when the heap cannot
 * grow, nothing changes but the speed. A program using libbtf2btf keeps its
 * own policy: this is the process's, so the CLI's, not the library's.
 */
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "heap.h"

#define HUGE_PAGE	(2UL << 20)
#define RESERVE_MAX	(192UL << 20)

void cli_heap_init(void)
{
	/* big tables come from the heap, and freed ones are reused instead of
	 * unmapped and faulted in again; the reserved region is never trimmed */
	mallopt(M_MMAP_THRESHOLD, RESERVE_MAX + HUGE_PAGE);
	mallopt(M_TRIM_THRESHOLD, 2 * RESERVE_MAX);
}

/*
 * What comes before the region's first huge page faults 4 KB at a time,
 * and the run's first tables would go there. The region is shrunk in
 * place to end there and kept (its pages never touched but for malloc's
 * header): the rest, given back to the top of the heap, starts at the
 * first huge page. In glibc a chunk carries two words before the memory
 * it gives and shrinks where it is; when it moved (another allocator),
 * it is given back and only the speed is lost. Kept for the process's
 * life, reachable (leak checkers).
 */
static char *held;

static void hold_below(char *region, uintptr_t start)
{
	size_t words = 2 * sizeof(size_t);
	uintptr_t at = (uintptr_t)region;
	char *kept;

	if (start - at < 4 * words) {
		free(region);
		return;
	}
	kept = realloc(region, start - at - words);
	if (!kept)
		free(region);	/* not shrunk: still the region */
	else if ((uintptr_t)kept != at)
		free(kept);
	else
		held = kept;
}

void cli_heap_reserve(const char *const *paths, size_t n)
{
	size_t total = 0, want;
	uintptr_t start, end;
	struct stat st;
	char *region;

	for (size_t i = 0; i < n; i++)
		if (paths[i] && !stat(paths[i], &st) && S_ISREG(st.st_mode))
			total += st.st_size;
	if (total < CLI_HEAP_HUGE_MIN)
		return;	/* a few hundred faults: a huge page would only add RSS */
	want = total > RESERVE_MAX / 4 ? RESERVE_MAX : 4 * total;
	/* grown at the top of the heap, marked, and given back to malloc:
	 * what the run allocates next comes from that region */
	region = malloc(want);
	if (!region)
		return;
	start = ((uintptr_t)region + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
	end = ((uintptr_t)region + want) & ~(HUGE_PAGE - 1);
	if (end <= start) {
		free(region);
		return;
	}
	madvise((void *)start, end - start, MADV_HUGEPAGE);
	hold_below(region, start);
}
