# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# make differential: btf2btf --features=all against Linux 7.3's resolve_btfids
# (fetched from Debian's archive and built into .cache/ on first use) on every
# fixture and DIFF_N (300) random objects; exit 1 on any undocumented
# difference. make check runs it too, from what is already in .cache.
DIFF_CANON	:= $(BUILD)/tests/btfcanon
ORACLE_CACHE	:= .cache

$(DIFF_CANON): tests/differential/btfcanon.c | $(BUILD)/tests
	$(COMPILE) -o $@ $< $(B2B_LDFLAGS) $(LDFLAGS) $(LIBS)

differential: all fixtures $(DIFF_CANON)
	@rb=$$(./scripts/oracle-resolve-btfids.sh $(ORACLE_CACHE)) && \
		./tests/differential/selftest.sh $(BUILD) "$$rb" && \
		./tests/differential/run.sh $(BUILD) "$$rb"

# For make check: only with what is cached, never fetching or building the
# oracle. Not cached is a failure: only DIFFERENTIAL=skip (the offline
# Debian package build; CI never sets it) leaves the differential out.
differential-if-cached: all fixtures $(DIFF_CANON)
	@if [ "$(DIFFERENTIAL)" = skip ]; then \
		echo "differential: skipped on purpose (DIFFERENTIAL=skip)"; \
	elif ! rb=$$(./scripts/oracle-resolve-btfids.sh --cached-only $(ORACLE_CACHE) 2>&1); then \
		echo "differential: NOT RUN: $${rb#oracle: } (run make differential once, or DIFFERENTIAL=skip)"; \
		exit 1; \
	else \
		echo "differential: run by make check (7.3 tree and upstream resolve_btfids cached in $(ORACLE_CACHE))"; \
		./tests/differential/selftest.sh $(BUILD) "$$rb" && \
		./tests/differential/run.sh $(BUILD) "$$rb"; \
	fi
.PHONY: differential differential-if-cached
