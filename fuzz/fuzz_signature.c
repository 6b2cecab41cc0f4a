// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * libFuzzer target: the appended module signature (modsig.c, elf_file.c).
 *
 *   input = 2 bytes (id_type, a sig_len adjustment) + an ELF image
 *
 * The image gets a signature trailer as scripts/sign-file writes it (64
 * bytes of "signature", struct module_signature, the marker), its id_type
 * and sig_len made to lie by the first bytes (an adjustment of 0 and
 * id_type 2 is the honest trailer); the image alone is tried too.
 * Properties beyond no crash, leak or UB:
 *   - a trailer that does not add up (b2b_modsig_find() < 0) is never
 *     opened: it is refused with one message, never taken for no signature;
 *   - an honest trailer on an image that opens unsigned opens signed, and
 *     the ELF image written (btf2btf__elf_image) carries no signature;
 *   - an open that fails logs its error.
 */
#include <endian.h>
#include <errno.h>

#include "btf2btf.h"
#include "format/modsig.h"
#include "fuzz_common.h"

#define SIG	64

/* 0 opened, else the error; the in-memory image written when it opened */
static int try_open(const void *img, size_t size, bool *image_signed)
{
	BTF2BTF_OPTS(opts, .log = fuzz_log, .lenient = true);
	struct btf2btf *b = NULL;
	size_t marker = strlen(B2B_MODSIG_MARKER), out_size;
	void *out;
	int err;

	fuzz_errors = 0;
	err = btf2btf__open_mem(img, size, "fuzz-signed", &opts, &b);
	if (err && !fuzz_errors)
		FUZZ_FAIL("an open failed without a message");
	*image_signed = false;
	if (!err && !btf2btf__elf_image(b, &out, &out_size)) {
		*image_signed = out_size >= marker &&
				!memcmp((char *)out + out_size - marker, B2B_MODSIG_MARKER, marker);
		free(out);
	}
	btf2btf__close(b);
	return err;
}

static int fuzz_one(const uint8_t *data, size_t size)
{
	size_t marker = strlen(B2B_MODSIG_MARKER), elf_size, signed_size;
	unsigned char *img;
	uint32_t sig_len;
	char why[256];
	bool plain_ok, image_signed;
	int found, err;

	if (size < 2)
		return 0;
	elf_size = size - 2;
	signed_size = elf_size + SIG + 12 + marker;
	img = calloc(1, signed_size);
	if (!img)
		return 0;
	memcpy(img, data + 2, elf_size);
	plain_ok = !try_open(img, elf_size, &image_signed);
	/* struct module_signature: algo, hash, id_type, signer_len,
	 * key_id_len, pad[3], sig_len (big endian) */
	img[elf_size + SIG + 2] = data[0];
	sig_len = htobe32(SIG + (int8_t)data[1]);
	memcpy(img + elf_size + SIG + 8, &sig_len, 4);
	memcpy(img + elf_size + SIG + 12, B2B_MODSIG_MARKER, marker);
	found = b2b_modsig_find(img, signed_size, &elf_size, why, sizeof(why));
	err = try_open(img, signed_size, &image_signed);
	if (found < 0 && !err)
		FUZZ_FAIL("a signature trailer that does not add up was taken");
	if (found < 0 && fuzz_errors != 1)
		FUZZ_FAIL("a refused trailer is not one message");
	if (data[0] == 2 && !data[1] && plain_ok && found != 1)
		FUZZ_FAIL("an honest trailer was not found");
	if (!err && image_signed)
		FUZZ_FAIL("a rewritten image kept the old signature");
	free(img);
	return 0;
}

FUZZ_ENTRY()
