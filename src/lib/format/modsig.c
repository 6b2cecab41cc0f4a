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
#include <string.h>

#include "format/modsig.h"

#define MODSIG_STRUCT	12	/* algo, hash, id_type, signer_len, key_id_len, pad[3], sig_len */

bool b2b_modsig_find(const void *data, size_t size, size_t *elf_size)
{
	size_t marker = strlen(B2B_MODSIG_MARKER);
	const unsigned char *p = data;
	uint32_t sig_len;

	if (size < marker + MODSIG_STRUCT ||
	    memcmp(p + size - marker, B2B_MODSIG_MARKER, marker))
		return false;
	memcpy(&sig_len, p + size - marker - 4, 4);
	sig_len = be32toh(sig_len);
	if (sig_len > size - marker - MODSIG_STRUCT)
		return false;
	*elf_size = size - marker - MODSIG_STRUCT - sig_len;
	return true;
}
