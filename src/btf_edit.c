// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * libbpf's btf__add_*() may grow (and so free) the string buffer that a
 * pointer from btf__name_by_offset() of the same BTF points into; fixed
 * only in recent libbpf. Every name passed back in here is copied first.
 */
#include <errno.h>
#include <string.h>

#include "btf2btf.h"
#include "btf_edit.h"

#define NAME_MAX_LEN BTF2BTF_KSYM_NAME_LEN

struct btf_type *b2b_type_mut(struct btf *btf, __u32 id)
{
	return (struct btf_type *)btf__type_by_id(btf, id);
}

int b2b_copy_str(const struct btf *btf, __u32 off, char *buf, size_t size)
{
	const char *s = btf__name_by_offset(btf, off);
	size_t len;

	if (!s)
		return -EINVAL;
	len = strlen(s);
	if (len >= size)
		return -ENAMETOOLONG;
	memcpy(buf, s, len + 1);
	return 0;
}

int b2b_add_decl_tag(struct btf *btf, const char *value, __u32 target, int component_idx,
		     bool kflag)
{
	int id = btf__add_decl_tag(btf, value, target, component_idx);

	if (id < 0 || !kflag)
		return id;
	/* libbpf 1.1.2 has no btf__add_decl_attr(): set the bit ourselves */
	b2b_type_mut(btf, id)->info |= 1U << 31;
	return id;
}

int b2b_add_proto_prefix(struct btf *btf, __u32 proto_id, __u16 nr_params)
{
	char name[NAME_MAX_LEN];
	int new_id, err;

	new_id = btf__add_func_proto(btf, btf__type_by_id(btf, proto_id)->type);
	if (new_id < 0)
		return new_id;
	for (__u16 i = 0; i < nr_params; i++) {
		/* re-read every time: adding moves the type buffer too */
		const struct btf_param *p = btf_params(btf__type_by_id(btf, proto_id)) + i;
		__u32 type = p->type;

		err = b2b_copy_str(btf, p->name_off, name, sizeof(name));
		if (err)
			return err;
		err = btf__add_func_param(btf, name, type);
		if (err < 0)
			return err;
	}
	return new_id;
}
