/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Every difference between the libbpf versions btf2btf builds against, in
 * one place. The Makefile probes the installed libbpf (try-compile and link:
 * 1.1.2 declares some functions it does not export) and defines
 * B2B_HAVE_<FUNCTION> for what it has; libbpf_compat.c uses the function then,
 * its own code otherwise. The rest of the library calls only what every
 * supported libbpf declares and exports (tests/check-libbpf-api.sh).
 */
#ifndef BTF2BTF_LIBBPF_COMPAT_H
#define BTF2BTF_LIBBPF_COMPAT_H

#include <bpf/btf.h>
#include <stddef.h>

/* Raw split (base != NULL) or plain BTF bytes parsed by libbpf; NULL with
 * errno set on failure. */
struct btf *b2b_btf_new(const void *data, size_t size, const struct btf *base);

/* The raw bytes of ext as libbpf holds them (after btf__dedup() renumbered
 * its type ids); NULL when it has none. */
const void *b2b_btf_ext_raw(const struct btf_ext *ext, __u32 *size);


/*
 * How the running libbpf's btf__dedup() deduplicates a typedef (the fold
 * mode follows it): with the reference types, equal when the type it names
 * resolved to the same (up to 1.5); in the struct phase by graph
 * comparison, the base's typedefs found (1.8, 7.3's tools/lib/bpf); in the
 * struct phase with the base's typedefs hashed as reference types, so
 * never found (1.7: btf_dedup_prep() and btf_dedup_struct_type() hash them
 * apart). Other versions: not known.
 */
enum b2b_typedef_dedup {
	B2B_TYPEDEF_REF_PHASE,
	B2B_TYPEDEF_STRUCT_PHASE,
	B2B_TYPEDEF_STRUCT_PHASE_NO_BASE,
	B2B_TYPEDEF_UNKNOWN,
};

enum b2b_typedef_dedup b2b_libbpf_typedef_dedup(void);

#endif /* BTF2BTF_LIBBPF_COMPAT_H */
