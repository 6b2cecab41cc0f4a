# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Kernel proof: included by the top-level Makefile, which defines
# BTF2BTF_BIN (the CLI built from src/) before including this file.
#
#   make kernel-test [BTF2BTF=/usr/bin/btf2btf]
#                               unpack + patch + configure + build linux-source-6.12
#                               with btf2btf, build the guest, boot it in QEMU and
#                               run the guest tests (non-zero exit unless all pass)
#   make kernel-build           everything up to the initramfs, no boot
#   make kernel-check-patches   git am the series on a fresh unpack + checkpatch --strict
#   make kernel-clean           remove the cache (.cache/kernel)
#
# Cached steps live in $(KERNEL_CACHE); each is redone only when the hash of
# its inputs (series, config fragments, btf2btf sources, guest sources)
# changes. See kernel/README.md.

KERNEL_CACHE	?= .cache/kernel
KERNEL_JOBS	?= $(shell nproc)
KTEST		:= kernel/scripts/ktest.sh
# The btf2btf the kernel build runs: the tree's (built first) unless
# BTF2BTF names another, e.g. the packaged /usr/bin/btf2btf; a bare name is
# looked up in PATH.
BTF2BTF		?= $(BTF2BTF_BIN)
KTEST_BTF2BTF	= $(if $(findstring /,$(BTF2BTF)),$(abspath $(BTF2BTF)),$(shell command -v $(BTF2BTF)))
KTEST_TOOL_DEP	= $(filter $(BTF2BTF_BIN),$(BTF2BTF))
KTEST_ENV	= BTF2BTF=$(KTEST_BTF2BTF) KCACHE=$(KERNEL_CACHE) JOBS=$(KERNEL_JOBS)

.PHONY: kernel-test kernel-build kernel-check-patches kernel-clean

kernel-test: $(KTEST_TOOL_DEP)
	@$(KTEST_ENV) $(KTEST) all

kernel-build: $(KTEST_TOOL_DEP)
	@$(KTEST_ENV) $(KTEST) guest

kernel-check-patches:
	@$(KTEST_ENV) $(KTEST) check-patches

kernel-clean:
	rm -rf $(KERNEL_CACHE)
