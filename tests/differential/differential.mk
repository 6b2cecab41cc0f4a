# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# make differential: btf2btf --features=all against Linux 7.3's resolve_btfids
# (fetched from Debian's archive and built into .cache/ on first use) on every
# fixture and DIFF_N (300) random objects; exit 1 on any undocumented
# difference. make check runs it too (check-differential).
DIFF_CANON	:= $(BUILD)/tests/btfcanon
ORACLE_CACHE	:= .cache

$(DIFF_CANON): tests/differential/btfcanon.c | $(BUILD)/tests
	$(COMPILE) -o $@ $< $(B2B_LDFLAGS) $(LDFLAGS) $(LIBS)

differential: all fixtures $(DIFF_CANON)
	@rb=$$(./scripts/oracle-resolve-btfids.sh $(ORACLE_CACHE)) && \
		./tests/differential/selftest.sh $(BUILD) "$$rb" && \
		./tests/differential/run.sh $(BUILD) "$$rb"

# For make check: the same, fetching and building the oracle on first use
# (Debian's archive; the README's make check on a fresh machine needs nothing
# else). Only DIFFERENTIAL=skip (the offline Debian package build; CI never
# sets it) leaves the differential out, and says so.
check-differential: all fixtures $(DIFF_CANON)
	@if [ "$(DIFFERENTIAL)" = skip ]; then \
		echo "differential: skipped on purpose (DIFFERENTIAL=skip)"; \
	else \
		$(MAKE) --no-print-directory differential; \
	fi
.PHONY: differential check-differential

# The differential on base objects a current pahole wrote with the BTF layout
# section (forky's pahole 1.32 + the 7.3 tree's libbpf, in the forky chroot):
# root, the forky chroot (scripts/chroot.sh builds it), Debian's archive.
check-layout: all fixtures $(DIFF_CANON)
	@rb=$$(./scripts/oracle-resolve-btfids.sh $(ORACLE_CACHE)) && \
		./tests/differential/layout.sh $(BUILD) "$$rb"
.PHONY: check-layout
