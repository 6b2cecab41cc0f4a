# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# make bench: btf2btf against parse+write, bpftool dump and resolve_btfids on
# the 6.12 and 7.3 vmlinux and module sets (when the kernel proofs' caches
# have them; Debian's modules when a linux-image .deb is cached), this
# machine's /sys/kernel/btf/vmlinux and synthetic objects of 100 .. 100,000
# kfuncs. Not part of make check. See bench/README.md.
BENCH_BUILD	:= $(BUILD)/bench
BENCH_BIN	:= $(BENCH_BUILD)/bench
BENCH_PW	:= $(BENCH_BUILD)/parse_write

$(BENCH_BUILD):
	mkdir -p $@
$(BENCH_BIN): bench/bench.c | $(BENCH_BUILD)
	$(COMPILE) -o $@ $< $(B2B_LDFLAGS) $(LDFLAGS) -lm
# with the CLI's heap policy for its --huge-heap row
$(BENCH_PW): bench/parse_write.c src/cli/heap.c | $(BENCH_BUILD)
	$(COMPILE) $(INTERNAL_CPPFLAGS) -o $@ $(filter %.c,$^) $(B2B_LDFLAGS) $(LDFLAGS) $(LIBS)

bench: $(BTF2BTF_BIN) $(MKFIXTURE) $(BENCH_BIN) $(BENCH_PW)
	@KERNEL_CACHE_ROOT='$(KERNEL_CACHE_ROOT)' KERNEL_CACHE='$(KERNEL_CACHE)' \
		KERNEL_CACHE_7_3='$(KERNEL_CACHE_7.3)' ./bench/run.sh $(BUILD)
