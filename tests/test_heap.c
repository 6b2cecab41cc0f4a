// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The CLI's heap policy (src/cli/heap.c): an input of 1 MB or more gets the
 * heap region it will use marked for transparent huge pages, a small one
 * does not, and paths that are not regular files count for nothing. Read
 * back from /proc/self/smaps ("hg" in VmFlags: MADV_HUGEPAGE). A program of
 * its own: the policy is process-wide, and the order of the tests matters.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "heap.h"
#include "helpers.h"

#if defined(__SANITIZE_ADDRESS__)
#define OTHER_ALLOCATOR "AddressSanitizer's"
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define OTHER_ALLOCATOR "AddressSanitizer's"
#endif
#endif

/* A file of size bytes (sparse), in the test's temp dir. */
static const char *file_of(const char *name, off_t size)
{
	const char *path = th_path(name);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, size), 0);
	close(fd);
	return path;
}

/* The VmFlags of the mapping holding p: 1 with "hg", 0 without, -1 none. */
static int huge_advised(const void *p)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	unsigned long lo, hi, at = (unsigned long)p;
	bool in = false;
	char line[512];
	int ret = -1;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		/* a mapping's first line; its fields ("Anonymous: ...") never
		 * scan as a range */
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2) {
			in = at >= lo && at < hi;
			continue;
		}
		if (in && !strncmp(line, "VmFlags:", 8)) {
			ret = strstr(line, " hg") != NULL;
			break;
		}
	}
	fclose(f);
	return ret;
}

/* malloc(size), touched, and whether its middle is huge-page advised. */
static int advised_after_malloc(size_t size)
{
	char *p = malloc(size);
	int ret;

	assert_non_null(p);
	memset(p, 1, size);
	ret = huge_advised(p + size / 2);
	free(p);
	return ret;
}

static bool glibc_heap(void)
{
#ifdef OTHER_ALLOCATOR
	print_message("heap policy: malloc is %s, not glibc's: only checked not to break it\n",
		      OTHER_ALLOCATOR);
	return false;
#else
	return true;
#endif
}

/* Runs first: nothing in this process has advised any memory yet. */
static void test_small_input_leaves_heap(void **state)
{
	const char *small[] = { file_of("small", CLI_HEAP_HUGE_MIN - 1), NULL, "/nonexistent",
				"/dev/zero" };

	(void)state;
	cli_heap_init();
	cli_heap_reserve(small, 4);
	if (glibc_heap())
		assert_int_equal(advised_after_malloc(8 << 20), 0);
	else
		assert_true(advised_after_malloc(8 << 20) >= 0);
	th_cleanup();
}

static void test_big_input_advises_heap(void **state)
{
	const char *big[] = { file_of("object", 4 << 20), file_of("btf", 4 << 20) };

	(void)state;
	cli_heap_reserve(big, 2);
	/* what the run allocates next comes from the region (4x the inputs,
	 * 32 MB):
	 * sizes past the 8 MB chunk the first test freed, which a smaller one
	 * would reuse */
	if (glibc_heap()) {
		/* the first table taken from the region starts at its first
		 * huge page, not in the 4 KB pages before it (past the 8 MB
		 * chunk the first test freed) */
		char *first = malloc(9 << 20);

		assert_non_null(first);
		assert_true(((uintptr_t)first & ((2UL << 20) - 1)) <= 64);
		free(first);
		assert_int_equal(advised_after_malloc(10 << 20), 1);
		assert_int_equal(advised_after_malloc(12 << 20), 1);
	} else {
		assert_true(advised_after_malloc(12 << 20) >= 0);
	}
	th_cleanup();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_small_input_leaves_heap),
		cmocka_unit_test(test_big_input_advises_heap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
