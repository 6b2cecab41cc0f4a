# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# make differential: btf2btf --features=all against Linux 7.3's resolve_btfids
# (fetched from Debian's archive and built into .cache/ on first use) on every
# fixture and DIFF_N (300) random objects; exit 1 on any undocumented
# difference. make check runs it too when the 7.3 tree and the upstream
# binary are already in .cache, and says so either way.
DIFF_CANON	:= $(BUILD)/tests/btfcanon
ORACLE_CACHE	:= .cache

$(DIFF_CANON): tests/differential/btfcanon.c | $(BUILD)/tests
	$(COMPILE) -o $@ $< $(B2B_LDFLAGS) $(LDFLAGS) $(LIBS)

differential: all fixtures $(DIFF_CANON)
	@rb=$$(./scripts/oracle-resolve-btfids.sh $(ORACLE_CACHE)) && \
		./tests/differential/selftest.sh $(BUILD) "$$rb" && \
		./tests/differential/run.sh $(BUILD) "$$rb"

# for make check: only with what is cached, never fetching or building the oracle
differential-if-cached: all fixtures $(DIFF_CANON)
	@if ! rb=$$(./scripts/oracle-resolve-btfids.sh --cached-only $(ORACLE_CACHE) 2>&1); then \
		echo "differential: NOT RUN by make check: $${rb#oracle: } (run make differential)"; \
	elif ! $(BTF2BTF_BIN) --features=all --help >/dev/null 2>&1; then \
		echo "differential: NOT RUN by make check: $(BTF2BTF_BIN) has no --features=all yet (issue 12 items 1-4)"; \
	else \
		echo "differential: run by make check (7.3 tree and upstream resolve_btfids cached in $(ORACLE_CACHE))"; \
		./tests/differential/selftest.sh $(BUILD) "$$rb" && \
		./tests/differential/run.sh $(BUILD) "$$rb"; \
	fi
.PHONY: differential differential-if-cached
