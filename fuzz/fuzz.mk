# Hostile input: the libFuzzer target and the valgrind run of the CLI tests.
#
#   make fuzz [FUZZ_SECONDS=60]   build build/fuzz/fuzz_btf2btf (clang,
#                                 -fsanitize=fuzzer,address,undefined), seed it
#                                 from the fixtures, fuzz; crashes land in
#                                 tests/corpus/ (replayed by `make check`)
#   make fuzz-build               just the binary
#   make check-valgrind           the cmocka suite with every CLI run under
#                                 valgrind --leak-check=full (error exit 99), then
#                                 test_corpus itself (the library) under memcheck
FUZZ_CC		?= clang
FUZZ_SECONDS	?= 60
FUZZ_JOBS	?= 1
FUZZ_DIR	:= build/fuzz
FUZZ_BIN	:= $(FUZZ_DIR)/fuzz_btf2btf
FUZZ_CFLAGS	:= -g -O1 -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined \
		   -fno-sanitize-recover=all
FUZZ_SRCS	:= $(addprefix src/lib/,$(LIB_SRCS)) fixtures/builder.c fixtures/recipes.c
FUZZ_OBJS	:= $(patsubst %.c,$(FUZZ_DIR)/obj/%.o,$(notdir $(FUZZ_SRCS)))
FUZZ_CORPUS	:= $(FUZZ_DIR)/corpus
FUZZ_SEEDS	:= $(FUZZ_DIR)/seeds

.PHONY: fuzz fuzz-build fuzz-seeds check-valgrind

$(FUZZ_DIR)/obj/%.o: src/lib/%.c $(wildcard src/lib/*.h include/*.h)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(B2B_CPPFLAGS) $(CPPFLAGS) $(FUZZ_CFLAGS) -c $< -o $@
$(FUZZ_DIR)/obj/%.o: fixtures/%.c fixtures/*.h
	@mkdir -p $(@D)
	$(FUZZ_CC) $(B2B_CPPFLAGS) $(CPPFLAGS) -Ifixtures $(FUZZ_CFLAGS) -c $< -o $@
$(FUZZ_DIR)/obj/fuzz_btf2btf.o: fuzz/fuzz_btf2btf.c include/btf2btf.h fixtures/recipes.h
	@mkdir -p $(@D)
	$(FUZZ_CC) $(B2B_CPPFLAGS) $(CPPFLAGS) -Ifixtures $(FUZZ_CFLAGS) -c $< -o $@
$(FUZZ_BIN): $(FUZZ_DIR)/obj/fuzz_btf2btf.o $(FUZZ_OBJS)
	$(FUZZ_CC) -fsanitize=fuzzer,address,undefined -o $@ $^ $(LIBS)

fuzz-build: $(FUZZ_BIN)

fuzz-seeds: fixtures
	./fuzz/mkseeds.sh $(FIXTURE_DIR) $(MKFIXTURE) $(FUZZ_SEEDS)

# -artifact_prefix: every crash, leak or timeout becomes a regression file
fuzz: $(FUZZ_BIN) fuzz-seeds
	@mkdir -p $(FUZZ_CORPUS) tests/corpus
	$(FUZZ_BIN) -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 -dict=fuzz/btf2btf.dict \
		-artifact_prefix=tests/corpus/ $(if $(filter-out 1,$(FUZZ_JOBS)),-fork=$(FUZZ_JOBS)) \
		$(FUZZ_CORPUS) $(FUZZ_SEEDS) tests/corpus

# The non-sanitized test CLI (valgrind and ASan do not mix). Valgrind's
# error exit code is 99, not 1: 1 is the CLI's own "refused" status, which
# most malformed-input tests expect, and would hide a valgrind error there.
VALGRIND	?= valgrind
VALGRIND_FLAGS	:= --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
		   --quiet --trace-children=no
check-valgrind: all fixtures $(BTF2BTF_TEST_BIN) $(TEST_BINS)
	@command -v $(VALGRIND) >/dev/null || { echo "check-valgrind: $(VALGRIND) is not installed (apt-get install valgrind)"; exit 1; }
	@FIXTURE_DIR=$(abspath $(FIXTURE_DIR)) BTF2BTF=$(abspath $(BTF2BTF_TEST_BIN)) \
		MKFIXTURE=$(abspath $(MKFIXTURE)) \
		BTF2BTF_WRAPPER="$(VALGRIND) $(VALGRIND_FLAGS)" ./tests/run-tests.sh $(TEST_BINS)
	@# and the library itself under memcheck (uninitialised reads, which ASan
	@# does not see) on the regression corpus and the sweeps
	@FIXTURE_DIR=$(abspath $(FIXTURE_DIR)) $(VALGRIND) $(VALGRIND_FLAGS) $(BUILD)/tests/test_corpus \
		> $(BUILD)/tests/test_corpus.valgrind.log 2>&1 || \
		{ cat $(BUILD)/tests/test_corpus.valgrind.log; echo "check-valgrind: test_corpus failed under valgrind"; exit 1; }
	@echo "check-valgrind: test_corpus (library, corpus + sweeps) clean under memcheck"
