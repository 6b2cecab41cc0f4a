// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Appended module signatures, as scripts/sign-file writes them and the
 * kernel's mod_verify_sig() reads them:
 *
 *	ELF | signature (PKCS#7, sig_len bytes) | struct module_signature | marker
 *
 * struct module_signature is 12 bytes ending in sig_len (big endian); the
 * marker is "~Module signature appended~\n". The signature covers every byte
 * before it, so a rewrite of the ELF invalidates it: write.c refuses the
 * in-place rewrite of a signed module and says how to sign a copy again.
 */
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "format/modsig.h"

#define MODSIG_STRUCT	12	/* algo, hash, id_type, signer_len, key_id_len, pad[3], sig_len */
#define PKEY_ID_PKCS7	2

int b2b_modsig_find(const void *data, size_t size, size_t *elf_size, char *why, size_t why_size)
{
	size_t marker = strlen(B2B_MODSIG_MARKER);
	const unsigned char *p = data, *ms;
	uint32_t sig_len;

	if (size < marker || memcmp(p + size - marker, B2B_MODSIG_MARKER, marker))
		return 0;
	/* the marker is there: what the kernel's mod_check_sig() checks */
	if (size - marker < MODSIG_STRUCT) {
		snprintf(why, why_size, "the file ends in \"~Module signature appended~\" but has no room for struct module_signature before it (%zu bytes)",
			 size - marker);
		return -EBADMSG;
	}
	ms = p + size - marker - MODSIG_STRUCT;
	memcpy(&sig_len, ms + 8, 4);
	sig_len = be32toh(sig_len);
	if (sig_len >= size - marker - MODSIG_STRUCT) {
		snprintf(why, why_size, "its module signature trailer says the signature is %u bytes, but only %zu bytes come before the trailer",
			 sig_len, size - marker - MODSIG_STRUCT);
		return -EBADMSG;
	}
	if (ms[2] != PKEY_ID_PKCS7 || ms[0] || ms[1] || ms[3] || ms[4] || ms[5] || ms[6] || ms[7]) {
		snprintf(why, why_size, "its module signature trailer is not of a PKCS#7 signature as scripts/sign-file writes it (id_type %u, other fields not zero)",
			 ms[2]);
		return -EBADMSG;
	}
	*elf_size = size - marker - MODSIG_STRUCT - sig_len;
	return 1;
}
