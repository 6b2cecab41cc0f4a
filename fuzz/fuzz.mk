# Hostile input: the libFuzzer target and the valgrind run of the CLI tests.
#
#   make fuzz [FUZZ_SECONDS=60]   build build/fuzz/fuzz_btf2btf (clang,
#                                 -fsanitize=fuzzer,address,undefined), seed it
#                                 from the fixtures, fuzz; crashes land in
#                                 tests/corpus/ (replayed by `make check`)
#   make fuzz-build               just the binary
#   make fuzz-ci [FUZZ_SECONDS=120]   the bounded campaign .ci/run runs: from
#                                 the seeds and the corpus kept in the repo
#                                 (fuzz/corpus.tar.xz); fails on any finding
#                                 or when it ran too few inputs to mean anything
#   make fuzz-corpus              merge build/fuzz/corpus into the kept corpus
#                                 (libFuzzer -merge=1: the inputs that add
#                                 coverage) and repack fuzz/corpus.tar.xz
#   make check-valgrind           the cmocka suite with every CLI run under
#                                 valgrind --leak-check=full (error exit 99), then
#                                 test_corpus itself (the library) under memcheck
FUZZ_CC		?= clang
FUZZ_SECONDS	?= 60
FUZZ_JOBS	?= 1
FUZZ_DIR	:= build/fuzz
FUZZ_BIN	:= $(FUZZ_DIR)/fuzz_btf2btf
FUZZ_CFLAGS	:= -g -O1 -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined \
		   -fno-sanitize-recover=all -DBTF2BTF_FUZZING
FUZZ_LIB_OBJS	:= $(patsubst src/%.c,$(FUZZ_DIR)/obj/%.o,$(LIB_SRCS))
FUZZ_OBJS	:= $(FUZZ_LIB_OBJS) $(patsubst %,$(FUZZ_DIR)/obj/%.o,builder recipes relocation)
FUZZ_SURFACES	:= views diff decompress format signature distilled
FUZZ_SURFACE_BINS := $(FUZZ_SURFACES:%=$(FUZZ_DIR)/fuzz_%)
FUZZ_CLI_OBJS	:= $(patsubst src/%.c,$(FUZZ_DIR)/obj/%.o,$(filter-out src/cli/main.c,$(CLI_SRCS)))
# the views and diff run the CLI's modules on files: slower per input
FUZZ_SURFACE_MIN_RUNS ?= 1000
FUZZ_CORPUS	:= $(FUZZ_DIR)/corpus
FUZZ_SEEDS	:= $(FUZZ_DIR)/seeds

FUZZ_KEPT	:= fuzz/corpus.tar.xz
# CI's campaign: a finding lands here, not in tests/corpus/ (a fresh clone's
# CI log names it; a developer reproduces it with make fuzz)
FUZZ_CI_DIR	:= $(FUZZ_DIR)/ci
# fewer runs than this in a campaign means the harness or the machine broke,
# not that the library is clean (a quiet 120 s campaign does ~1,000,000)
FUZZ_MIN_RUNS	?= 10000

.PHONY: fuzz fuzz-build fuzz-seeds fuzz-ci fuzz-corpus fuzz-unpack check-valgrind

# the library's objects by source path (obj/lib/format/btf_format.o)
$(FUZZ_LIB_OBJS): $(FUZZ_DIR)/obj/%.o: src/%.c $(wildcard src/lib/*/*.h include/*.h)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(B2B_CPPFLAGS) $(LIB_CPPFLAGS) $(CPPFLAGS) $(FUZZ_CFLAGS) -c $< -o $@
$(FUZZ_DIR)/obj/%.o: fixtures/%.c fixtures/*.h
	@mkdir -p $(@D)
	$(FUZZ_CC) $(B2B_CPPFLAGS) $(CPPFLAGS) -Ifixtures $(FUZZ_CFLAGS) -c $< -o $@
$(FUZZ_DIR)/obj/fuzz_btf2btf.o: fuzz/fuzz_btf2btf.c include/btf2btf.h fixtures/recipes.h
	@mkdir -p $(@D)
	$(FUZZ_CC) $(B2B_CPPFLAGS) $(CPPFLAGS) -Ifixtures $(FUZZ_CFLAGS) -c $< -o $@
$(FUZZ_BIN): $(FUZZ_DIR)/obj/fuzz_btf2btf.o $(FUZZ_OBJS)
	$(FUZZ_CC) -fsanitize=fuzzer,address,undefined -o $@ $^ $(LIBS)

# A target per surface (fuzz/fuzz_NAME.c, fuzz/README.md): the CLI's views,
# --diff, compressed streams, BTF headers and layout, the signature
# trailer, the distilled base and relocation. They link the CLI's modules
# (not main.c) and the library's internals they fuzz.
$(FUZZ_CLI_OBJS): $(FUZZ_DIR)/obj/%.o: src/%.c $(wildcard src/cli/*.h include/*.h)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(B2B_CPPFLAGS) $(CPPFLAGS) $(FUZZ_CFLAGS) -c $< -o $@
$(FUZZ_DIR)/obj/fuzz_%.o: fuzz/fuzz_%.c fuzz/fuzz_common.h include/btf2btf.h $(wildcard src/lib/*/*.h)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(B2B_CPPFLAGS) $(LIB_CPPFLAGS) -Isrc/cli -Ifixtures $(CPPFLAGS) $(FUZZ_CFLAGS) -c $< -o $@
$(FUZZ_SURFACE_BINS): $(FUZZ_DIR)/fuzz_%: $(FUZZ_DIR)/obj/fuzz_%.o $(FUZZ_OBJS) $(FUZZ_CLI_OBJS)
	$(FUZZ_CC) -fsanitize=fuzzer,address,undefined -o $@ $^ $(LIBS)

fuzz-build: $(FUZZ_BIN) $(FUZZ_SURFACE_BINS)

fuzz-seeds: fixtures
	./fuzz/mkseeds.sh $(FIXTURE_DIR) $(MKFIXTURE) $(FUZZ_SEEDS)
	./fuzz/mkseeds-surfaces.sh $(FIXTURE_DIR) $(MKFIXTURE) $(FUZZ_DIR)

# the kept corpus, unpacked into the working one (new inputs are added to it)
fuzz-unpack:
	@mkdir -p $(FUZZ_CORPUS)
	tar -xJf $(FUZZ_KEPT) -C $(FUZZ_CORPUS)

# -artifact_prefix: every crash, leak or timeout becomes a regression file
fuzz: $(FUZZ_BIN) fuzz-seeds fuzz-unpack
	@mkdir -p $(FUZZ_CORPUS) tests/corpus
	$(FUZZ_BIN) -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 -dict=fuzz/btf2btf.dict \
		-artifact_prefix=tests/corpus/ $(if $(filter-out 1,$(FUZZ_JOBS)),-fork=$(FUZZ_JOBS)) \
		$(FUZZ_CORPUS) $(FUZZ_SEEDS) tests/corpus

# every target, FUZZ_SECONDS each (CI: 7 targets x 35 s), FUZZ_CI_JOBS at
# a time (default: one a CPU; a campaign is one process, so each still has
# a CPU of its own for its seconds); the kept corpus and tests/corpus for
# fuzz_btf2btf, the seeds and tests/corpus/NAME (regression inputs) for each
# surface. A line per campaign: NAME BIN MIN_RUNS OUT CORPUS...
FUZZ_CI_JOBS	?= $(shell nproc)
fuzz-ci: $(FUZZ_BIN) $(FUZZ_SURFACE_BINS) fuzz-seeds
	@rm -rf $(FUZZ_CI_DIR) && mkdir -p $(FUZZ_CI_DIR)/kept
	@tar -xJf $(FUZZ_KEPT) -C $(FUZZ_CI_DIR)/kept
	@echo "fuzz-ci: $(FUZZ_SECONDS) s a target, $(FUZZ_CI_JOBS) at a time: btf2btf $(FUZZ_SURFACES)"
	@{ echo btf2btf $(FUZZ_BIN) $(FUZZ_MIN_RUNS) $(FUZZ_CI_DIR)/btf2btf \
		$(FUZZ_CI_DIR)/kept $(FUZZ_SEEDS) tests/corpus; \
	  for t in $(FUZZ_SURFACES); do \
		mkdir -p tests/corpus/$$t; \
		echo $$t $(FUZZ_DIR)/fuzz_$$t $(FUZZ_SURFACE_MIN_RUNS) $(FUZZ_CI_DIR)/$$t \
			$(FUZZ_DIR)/seeds-$$t tests/corpus/$$t; \
	  done; } | xargs -L 1 -P $(FUZZ_CI_JOBS) sh -c \
		'n=$$1 bin=$$2 min=$$3; shift 3; exec ./fuzz/campaign.sh "$$n" "$$bin" $(FUZZ_SECONDS) "$$min" "$$@"' \
		fuzz-ci || { echo "fuzz-ci: a campaign failed (above)"; exit 1; }

# -merge=1 keeps the inputs that add coverage over what is kept already;
# the archive is packed so that the same inputs give the same bytes
fuzz-corpus: $(FUZZ_BIN)
	@rm -rf $(FUZZ_DIR)/merged && mkdir -p $(FUZZ_DIR)/merged $(FUZZ_CORPUS)
	$(FUZZ_BIN) -merge=1 $(FUZZ_DIR)/merged $(FUZZ_CORPUS) $(FUZZ_SEEDS) > $(FUZZ_DIR)/merge.log 2>&1 || \
		{ tail -20 $(FUZZ_DIR)/merge.log; exit 1; }
	tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -C $(FUZZ_DIR)/merged -cf - . | \
		xz -9e -T1 > $(FUZZ_KEPT).tmp && mv $(FUZZ_KEPT).tmp $(FUZZ_KEPT)
	@echo "fuzz-corpus: $$(ls $(FUZZ_DIR)/merged | wc -l) inputs kept in $(FUZZ_KEPT)"

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
