/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* C declarations of BTF types and function prototypes, on one line. */
#ifndef BTF2BTF_CPROTO_H
#define BTF2BTF_CPROTO_H

#include <stdint.h>

struct btf;

/*
 * "int name(int a, struct bpf_prog_aux *aux)" for FUNC_PROTO proto_id, with
 * only its first max_params parameters when max_params >= 0. Anonymous
 * structs, unions and enums print as "struct {...}". Malformed or too deep
 * chains print "?" where the type cannot be named. malloc'd; NULL: ENOMEM.
 */
char *cproto_func(const struct btf *btf, uint32_t proto_id, const char *name, int max_params);
/* A type alone: "const struct bpf_prog_aux *", "int (*)(void *)". */
char *cproto_type(const struct btf *btf, uint32_t type_id);

#endif /* BTF2BTF_CPROTO_H */
