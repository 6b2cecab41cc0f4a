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
#   make check-kernel-harness   the harness without a kernel (part of make check):
#                               ARCH, CROSS_COMPILE, CC, LLVM, O refused, the
#                               step runner's bounds, the build logs' check
#   make check-check-prog-guest the comparison of the guests' libbpf verdicts
#                               with --check-prog on hand-written guest logs
#                               (part of make check)
#
# Every kernel make and guest boot of the proofs runs bounded in time and in
# log size, stdin from /dev/null (kernel/scripts/bounded-run; the limits,
# KTEST_BUILD_TIMEOUT=7200 s a kernel make, KTEST_CONFIG_TIMEOUT=900,
# KTEST_STEP_TIMEOUT=3600 the other makes, QEMU_TIMEOUT a boot,
# KTEST_LOG_MAX=128 MiB a log: kernel/scripts/lib.sh); a stopped step fails
# with its last lines and the path of its log. The kernel's build logs
# ($KCACHE/logs) must hold no btf2btf warning.
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
		  PEER_KCACHE=$(KERNEL_CACHE_7.3) \
		  DIFF_WORK=$(KTEST_DIFF_WORK)
KTEST_ENV_7.3	= BTF2BTF=$(KTEST_BTF2BTF) $(KTEST_ADAPTER) KCACHE=$(KERNEL_CACHE_7.3) \
		  JOBS=$(KERNEL_JOBS) BTFCANON=$(abspath $(DIFF_CANON)) DIFF_WORK=$(KTEST_DIFF_WORK) \
		  PEER_KCACHE=$(KERNEL_CACHE)
KTEST_ENV_7.2	= BTF2BTF=$(KTEST_BTF2BTF) $(KTEST_ADAPTER) \
		  KCACHE=$(KERNEL_CACHE_7.2) KFETCH=$(KERNEL_CACHE_7.2)/fetch JOBS=$(KERNEL_JOBS) BTFCANON=$(abspath $(DIFF_CANON)) \
		  DIFF_WORK=$(KTEST_DIFF_WORK)
KTEST_ADAPTER_DEP = $(filter $(ADAPTER),$(PAHOLE_ADAPTER))

$(foreach k,$(KERNEL),$(if $(KTEST_$(k)),,$(error KERNEL=$(k): no such kernel proof (6.12, 7.3 or 7.2))))

# Make variables that change what the kernels' make builds, which no cache
# key of the proofs holds: refused, before anything is built, when a goal
# runs a proof and one comes from the command line or the environment (make
# hands both down to the kernel's make). `make kernel-test KERNEL=7.3
# ARCH=s390` once ran the x86 proof with ARCH=s390: failstop's make prepare
# met s390's Kconfig with the host's gcc and wrote 59 GB of kconfig prompts.
# kernel/scripts/lib.sh refuses them too, for the scripts run by hand.
KTEST_BUILD_VARS := ARCH CROSS_COMPILE CC LLVM O KBUILD_OUTPUT
KTEST_GIVEN_VARS := $(strip $(foreach v,$(KTEST_BUILD_VARS),$(if $(filter command environment override,\
		    $(firstword $(origin $(v)))),$(if $($(v)),$(v)=$($(v))))))
ifneq ($(and $(filter kernel-test kernel-build kernel-test-s390,$(MAKECMDGOALS)),$(KTEST_GIVEN_VARS)),)
ifneq ($(filter ARCH=s390%,$(KTEST_GIVEN_VARS)),)
$(error $(KTEST_GIVEN_VARS): refused; the s390x proof is `make kernel-test-s390`, which sets ARCH \
	and CROSS_COMPILE itself (kernel/s390.mk))
endif
$(error $(KTEST_GIVEN_VARS): refused; these change the kernel build and no cache key of the \
	proofs holds them. The proofs build x86-64 with the host's gcc (s390x: `make kernel-test-s390`); \
	to prove a btf2btf built otherwise, give BTF2BTF=<path of it>)
endif

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

check-kernel-harness:
	@./tests/test-kernel-harness.sh
check: check-kernel-harness
.PHONY: check-kernel-harness

# the host's half of the guests' --check-prog agreement
# (kernel/scripts/check-prog-guest.sh) on guest logs written by hand, every
# kind of disagreement planted (needs clang, pahole, jq)
check-check-prog-guest: $(BTF2BTF_BIN)
	BTF2BTF=$(abspath $(BTF2BTF_BIN)) ./tests/test-check-prog-guest.sh
check: check-check-prog-guest
.PHONY: check-check-prog-guest
