// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * tests/same-as.sh's driver for the many modules of a kernel: one process
 * reads the base once (btf2btf__load_base(), as the CLI's batch mode does)
 * and, per module of standard input (one path a line) and feature set
 * (default, all), opens and transforms it in memory and prints what
 * `btf2btf -o` would write: the statuses of open and transform and the
 * length and FNV-1a hash of the raw BTF (and of the distilled base, with
 * --distill-base). Built against the library under test and against a
 * reference build's, the two outputs must be the same lines.
 *
 *	same-as-batch BASE [--distill-base] < MODULES
 */
#include <bpf/btf.h>
#include <btf2btf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t fnv1a(const void *data, size_t size)
{
	const unsigned char *p = data;
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < size; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h;
}

static void put_bytes(const char *what, int err, const void *data, size_t size)
{
	if (err)
		printf(" %s:%d", what, err);
	else
		printf(" %s:%zu:%016llx", what, size, (unsigned long long)fnv1a(data, size));
}

int main(int argc, char **argv)
{
	static const unsigned int features[] = { BTF2BTF_FEATS_DEFAULT, BTF2BTF_FEATS_ALL };
	bool distill = argc == 3 && !strcmp(argv[2], "--distill-base");
	struct btf *base = NULL;
	char path[4096];
	int err;

	if (argc != 2 && !distill) {
		fprintf(stderr, "usage: %s BASE [--distill-base] < MODULES\n", argv[0]);
		return 2;
	}
	{
		BTF2BTF_OPTS(opts, .base_path = argv[1]);

		err = btf2btf__load_base(argv[1], &opts, &base);
	}
	printf("base %s: %d\n", argv[1], err);
	if (err)
		return 1;
	while (fgets(path, sizeof(path), stdin)) {
		path[strcspn(path, "\n")] = 0;
		for (size_t f = 0; f < sizeof(features) / sizeof(features[0]); f++) {
			BTF2BTF_OPTS(opts, .base_path = argv[1], .base_btf = base,
				     .features = features[f], .distill_base = distill);
			struct btf2btf *b = NULL;
			const void *data;
			size_t size;

			printf("%s %s", path, f ? "all" : "default");
			err = btf2btf__open(path, &opts, &b);
			printf(" open:%d", err);
			if (!err) {
				err = btf2btf__transform(b);
				printf(" transform:%d changed:%d", err, !err && btf2btf__changed(b));
			}
			if (!err) {
				int e = btf2btf__raw_btf(b, &data, &size);

				put_bytes("btf", e, data, size);
				if (distill) {
					e = btf2btf__raw_base_btf(b, &data, &size);
					put_bytes("base", e, data, size);
				}
			}
			putchar('\n');
			btf2btf__close(b);
		}
	}
	btf__free(base);
	return 0;
}
