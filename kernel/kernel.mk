# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Kernel proofs: included by the top-level Makefile, which defines
# BTF2BTF_BIN (the CLI built from src/) before including this file.
#
#   make kernel-test            for each KERNEL (default: 6.12 and 7.3): fetch or
#                               unpack, patch, configure, build with btf2btf, build
#                               the guest, boot it in QEMU and run the guest tests
#                               (non-zero exit unless all pass); for 7.3 also the
#                               build-time differential against stock resolve_btfids
#                               and the check that a btf2btf failure stops the build;
#                               for both, the pahole adapter's pass-through on their
#                               objects (PAHOLE_ADAPTER, default build/lib/btf2btf/pahole)
#   make kernel-test KERNEL=7.3 only the 7.3 proof (KERNEL=6.12: only 6.12)
#   make kernel-test BTF2BTF=/usr/bin/btf2btf   build the kernels with another btf2btf
#   make kernel-test KERNEL=7.3 KERNEL_STEP=pahole-layout   the built 7.3 kernel's
#                               objects encoded by forky's pahole 1.32 with 7.3's
#                               libbpf (layout section), btf2btf vs 7.3's
#                               resolve_btfids, loaded in a guest (root, forky chroot)
#   make kernel-build           everything up to the initramfs, no boot
#   make kernel-check-patches   git am the series on a fresh tree + checkpatch --strict
#   make kernel-check-docs      README's examples on the 6.12 and 7.3 vmlinux (run
#                               by kernel-test when it does both)
#   make kernel-test KERNEL=7.2 the pahole adapter on unpatched Linux 7.2 (build/lib/btf2btf/pahole,
#                               or PAHOLE_ADAPTER=/usr/lib/btf2btf/pahole)
#   make kernel-clean           remove the caches (KERNEL_CACHE_ROOT/kernel-{6.12,7.3,7.2})
#
# Cached steps live outside the clone, in KERNEL_CACHE_ROOT (/var/cache/btf2btf
# when writable, else ~/.cache/btf2btf): kernel-6.12, kernel-7.3, kernel-7.2 and
# kernel-7.3-s390. A fresh clone (CI's) on a machine that built them before
# reuses them; each step is redone only when the hash of its inputs (tree,
# series, config fragments, btf2btf sources and binary, guest sources) changes,
# and a changed btf2btf only relinks. See kernel/README.md.

KERNEL		?= 6.12 7.3
KERNEL_CACHE_ROOT ?= $(if $(shell test -w /var/cache && echo w),/var/cache/btf2btf,$(HOME)/.cache/btf2btf)
KERNEL_CACHE	?= $(KERNEL_CACHE_ROOT)/kernel-6.12
KERNEL_CACHE_7.3 ?= $(KERNEL_CACHE_ROOT)/kernel-7.3
KERNEL_CACHE_7.2 ?= $(KERNEL_CACHE_ROOT)/kernel-7.2
KERNEL_JOBS	?= $(shell nproc)
KTEST_6.12	:= kernel/scripts/ktest.sh
KTEST_7.3	:= kernel/scripts/ktest-7.3.sh
KTEST_7.2	:= kernel/scripts/ktest-7.2.sh
# the Kbuild adapter the 7.2 proof builds with (make PAHOLE=...), and whose
# pass-through the 6.12 and 7.3 proofs check on their objects
PAHOLE_ADAPTER	?= $(ADAPTER)
KTEST_ADAPTER	= PAHOLE_ADAPTER=$(abspath $(PAHOLE_ADAPTER))
# The btf2btf the kernel builds run: the tree's (built first) unless
# BTF2BTF names another, e.g. the packaged /usr/bin/btf2btf; a bare name is
# looked up in PATH.
BTF2BTF		?= $(BTF2BTF_BIN)
# the differential's work directory (make check's), whose objects the guests
# load with BPF_BTF_LOAD (kernel/scripts/btf-accept-sets.sh runs it if absent)
KTEST_DIFF_WORK	= $(abspath $(BUILD))/differential
KTEST_BTF2BTF	= $(if $(findstring /,$(BTF2BTF)),$(abspath $(BTF2BTF)),$(shell command -v $(BTF2BTF)))
KTEST_TOOL_DEP	= $(filter $(BTF2BTF_BIN),$(BTF2BTF))
KTEST_ENV_6.12	= BTF2BTF=$(KTEST_BTF2BTF) $(KTEST_ADAPTER) KCACHE=$(KERNEL_CACHE) JOBS=$(KERNEL_JOBS) \
		  DIFF_WORK=$(KTEST_DIFF_WORK)
KTEST_ENV_7.3	= BTF2BTF=$(KTEST_BTF2BTF) $(KTEST_ADAPTER) KCACHE=$(KERNEL_CACHE_7.3) \
		  JOBS=$(KERNEL_JOBS) BTFCANON=$(abspath $(DIFF_CANON)) DIFF_WORK=$(KTEST_DIFF_WORK)
KTEST_ENV_7.2	= BTF2BTF=$(KTEST_BTF2BTF) $(KTEST_ADAPTER) \
		  KCACHE=$(KERNEL_CACHE_7.2) KFETCH=$(KERNEL_CACHE_7.2)/fetch JOBS=$(KERNEL_JOBS) BTFCANON=$(abspath $(DIFF_CANON)) \
		  DIFF_WORK=$(KTEST_DIFF_WORK)
KTEST_ADAPTER_DEP = $(filter $(ADAPTER),$(PAHOLE_ADAPTER))

$(foreach k,$(KERNEL),$(if $(KTEST_$(k)),,$(error KERNEL=$(k): no such kernel proof (6.12, 7.3 or 7.2))))

# run STEP of each selected proof, in order, stopping at the first failure
ktest = @set -e; $(foreach k,$(KERNEL),echo "==> kernel $(k): $(1)"; $(KTEST_ENV_$(k)) $(KTEST_$(k)) $(1);)

.PHONY: kernel-test kernel-build kernel-check-patches kernel-clean kernel-check-docs

# KERNEL_STEP: the proof's step to run (all; or one the script names, e.g. btf for 7.2)
KERNEL_STEP	?= all
# with both 6.12 and 7.3 built: README's examples on their vmlinux
KTEST_DOCS	= $(and $(filter all,$(KERNEL_STEP)),$(filter 6.12,$(KERNEL)),$(filter 7.3,$(KERNEL)))
kernel-test: $(KTEST_TOOL_DEP) $(KTEST_ADAPTER_DEP) $(if $(filter 7.3 7.2,$(KERNEL)),$(DIFF_CANON)) \
	     $(if $(KTEST_DOCS),$(BTF2BTF_BIN))
	$(call ktest,$(KERNEL_STEP))
	$(if $(KTEST_DOCS),@$(MAKE) --no-print-directory kernel-check-docs)

# README's and docs/'s blocks marked "docs: kernel proofs" (tests/check-docs.sh --kernels),
# run on the proofs' vmlinux files as 6.12/vmlinux and 7.3/vmlinux
kernel-check-docs: $(BTF2BTF_BIN)
	@d=$$(mktemp -d) && mkdir $$d/6.12 $$d/7.3 && \
	ln -s $(KERNEL_CACHE)/build/vmlinux $$d/6.12/vmlinux && \
	ln -s $(KERNEL_CACHE_7.3)/build/vmlinux $$d/7.3/vmlinux && \
	{ ./tests/check-docs.sh --kernels $$d $(BUILD) README.md docs/*.md; rc=$$?; rm -rf $$d; exit $$rc; }

kernel-build: $(KTEST_TOOL_DEP) $(KTEST_ADAPTER_DEP)
	$(call ktest,guest)

kernel-check-patches:
	$(call ktest,check-patches)

kernel-clean:
	rm -rf $(KERNEL_CACHE) $(KERNEL_CACHE_7.3) $(KERNEL_CACHE_7.2)
