// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Named types sorted by name: one sort, then binary searches. */
#include <bpf/btf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "names.h"

static int cmp_ent(const void *a, const void *b)
{
	const struct names_ent *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	return x->id < y->id ? -1 : x->id > y->id;
}

int names_build(struct names *n, const struct btf *btf, int kind)
{
	uint32_t cnt = btf__type_cnt(btf);

	memset(n, 0, sizeof(*n));
	n->btf = btf;
	n->ents = malloc((cnt ? cnt : 1) * sizeof(*n->ents));
	if (!n->ents)
		return -ENOMEM;
	for (uint32_t id = 1; id < cnt; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const char *name;

		if (!t || !t->name_off || (kind >= 0 && btf_kind(t) != kind))
			continue;
		name = btf__name_by_offset(btf, t->name_off);
		if (!name || !*name)
			continue;
		n->ents[n->nr].name = name;
		n->ents[n->nr].id = id;
		n->nr++;
	}
	if (n->nr)
		qsort(n->ents, n->nr, sizeof(*n->ents), cmp_ent);
	return 0;
}

void names_free(struct names *n)
{
	free(n->ents);
	memset(n, 0, sizeof(*n));
}

size_t names_find(const struct names *n, const char *name, size_t *first)
{
	size_t lo = 0, hi = n->nr, end;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(n->ents[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (end = lo; end < n->nr && !strcmp(n->ents[end].name, name); end++)
		;
	*first = lo;
	return end - lo;
}

uint32_t names_lookup(const struct names *n, const char *name, int kind)
{
	size_t first, cnt = names_find(n, name, &first);

	for (size_t i = first; i < first + cnt; i++)
		if (kind < 0 || btf_kind(btf__type_by_id(n->btf, n->ents[i].id)) == kind)
			return n->ents[i].id;
	return 0;
}
