# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# The big-endian kernel proof (kernel/scripts/ktest-s390.sh), included by the
# top-level Makefile after kernel/kernel.mk (BTF2BTF, KERNEL_JOBS, DIFF_CANON).
#
#   make kernel-test-s390       cross-build Debian's 7.3 for s390x with btf2btf
#                               doing the BTF phase (cached outside the clone),
#                               the BTF-phase differential against stock
#                               resolve_btfids, the big-endian BTF read back,
#                               the guest booted in qemu-system-s390x (TCG)
#   make kernel-test-s390 S390_STEPS=boot   the guest alone
#   make kernel-clean-s390      remove its cache

KERNEL_CACHE_S390 ?= $(KERNEL_CACHE_ROOT)/kernel-7.3-s390
S390_STEPS	?= all
KTEST_ENV_S390	= BTF2BTF=$(KTEST_BTF2BTF) KCACHE=$(KERNEL_CACHE_S390) \
		  JOBS=$(KERNEL_JOBS) BTFCANON=$(abspath $(DIFF_CANON)) DIFF_WORK=$(KTEST_DIFF_WORK)

.PHONY: kernel-test-s390 kernel-clean-s390

kernel-test-s390: $(KTEST_TOOL_DEP) $(DIFF_CANON)
	@set -e; for s in $(S390_STEPS); do \
		echo "==> kernel 7.3 s390x: $$s"; \
		$(KTEST_ENV_S390) kernel/scripts/ktest-s390.sh $$s; \
	done

kernel-clean-s390:
	rm -rf $(KERNEL_CACHE_S390)
