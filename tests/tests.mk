# Unit tests: every tests/test_*.c is one cmocka program. `make check` builds
# the fixtures and the test CLI, runs them all, and prints the total.
TEST_SRCS	:= $(wildcard tests/test_*.c)
TEST_BINS	:= $(patsubst tests/%.c,$(BUILD)/tests/%,$(TEST_SRCS))
TEST_HELPERS	:= $(BUILD)/tests/helpers.o $(BUILD)/tests/views.o $(BUILD)/tests/passes.o
TEST_LIBS	:= $(LIBS) -lcmocka
# the CLI modules tests call directly
TEST_CLI_OBJS	:= $(filter-out $(BUILD)/tobj/cli/main.o,$(TCLI_OBJS))

$(BUILD)/tests/%.o: tests/%.c $(FLAGS_STAMP) | $(BUILD)/tests
	$(COMPILE) $(TEST_CPPFLAGS) $(INTERNAL_CPPFLAGS) -Ifixtures -Itests -c $< -o $@
$(BUILD)/tests/test_%: $(BUILD)/tests/test_%.o $(TEST_HELPERS) $(TLIB_OBJS) $(TEST_CLI_OBJS) \
		       $(FX_BUILDER_OBJS)
	$(LINK) -o $@ $(filter %.o,$^) $(TEST_LIBS)

# the unit tests alone: nothing downloaded (make check adds the differential,
# which fetches linux-source-7.3 once, and the script checks below)
check-unit: check-layers all fixtures $(BTF2BTF_TEST_BIN) $(TEST_BINS)
	@./tests/check-abi.sh $(SHARED_LIB)
	@FIXTURE_DIR=$(abspath $(FIXTURE_DIR)) BTF2BTF=$(abspath $(BTF2BTF_TEST_BIN)) \
		MKFIXTURE=$(abspath $(MKFIXTURE)) ./tests/run-tests.sh $(TEST_BINS)
check: check-unit
	@$(MAKE) --no-print-directory check-differential
.PHONY: check-unit
# the stages' order (LIB_STAGES): no file of the library includes a header of
# a later stage, and the check itself fails on a planted upward include
check-layers:
	@./tests/check-layers.sh src/lib $(LIB_STAGES)
	@./tests/check-layers-self.sh $(LIB_STAGES)
.PHONY: check-layers
.SECONDARY: $(TEST_BINS:%=%.o) $(TEST_HELPERS)

# The bash completion, driven through complete/COMPREPLY in a non-interactive
# bash and checked against the CLI's option table (needs bash-completion);
# debian/ (symbols file, changelog version) against the version script and header.
check-completion: $(BTF2BTF_BIN)
	BTF2BTF=$(abspath $(BTF2BTF_BIN)) ./tests/test-completion.sh bash-completion/btf2btf
check-debian:
	./tests/check-debian.sh
# b2b_ is the library's internal prefix: the CLI defines none (it builds with
# -Iinclude only, so it cannot declare one either).
check-cli-symbols: $(CLI_OBJS)
	@bad=$$(nm --defined-only $(CLI_OBJS) | awk '$$2 ~ /[A-Z]/ && $$3 ~ /^b2b_/ { print $$3 }'); \
	if [ -n "$$bad" ]; then echo "check-cli-symbols: the CLI defines library-internal symbols: $$bad"; exit 1; fi; \
	echo "check-cli-symbols: $(words $(CLI_OBJS)) CLI objects define no b2b_ symbol"
# The Kbuild pahole adapter against the real pahole (needs pahole, clang, bpftool)
check-adapter: $(ADAPTER) $(BTF2BTF_BIN)
	ADAPTER=$(abspath $(ADAPTER)) BTF2BTF=$(abspath $(BTF2BTF_BIN)) ./tests/test-adapter.sh
# the man pages against --help, the version script and mandoc; libbtf2btf(3)'s
# example compiled and run
check-man: $(BTF2BTF_BIN) $(SHARED_LIB) fixtures
	@./tests/check-man.sh $(BUILD) $(CC) $(B2B_LDFLAGS)
check-libbpf-api: $(LIB_OBJS)
	@CC="$(CC)" CPPFLAGS="$(CPPFLAGS)" ./tests/check-libbpf-api.sh $(LIB_OBJS)
check: check-completion check-debian check-cli-symbols check-adapter check-libbpf-api check-man
.PHONY: check-completion check-debian check-cli-symbols check-adapter check-libbpf-api check-man
# The bytes this build writes for what another build recorded
# (tests/same-output.sh record, scripts/check-chroot.sh: the host's build,
# compared in the trixie and forky chroots)
check-same-output: $(BTF2BTF_BIN)
	@[ -n "$(SAME_OUTPUT_REF)" ] || { echo "check-same-output: give SAME_OUTPUT_REF=DIR (tests/same-output.sh record)"; exit 1; }
	@./tests/same-output.sh compare $(BTF2BTF_BIN) $(SAME_OUTPUT_REF)
.PHONY: check-same-output
# The bytes and exit statuses of this build against a reference build of an
# earlier commit on the differential's objects, Debian's kernels, the kernel
# proofs' vmlinux and bpf_testmod and the layout objects (tests/same-as.sh:
# the sets it finds, those it does not named): the guard of a refactoring
check-same-as: all fixtures $(DIFF_CANON)
	@[ -n "$(SAME_AS_REF)" ] || { echo "check-same-as: give SAME_AS_REF=BTF2BTF (a build of the reference commit)"; exit 1; }
	@BUILD=$(BUILD) ./tests/same-as.sh $(SAME_AS_REF) $(BTF2BTF_BIN)
.PHONY: check-same-as
# run-tests.sh itself: a passing program is one line, a failing one shown whole
check-run-tests:
	@./tests/check-run-tests.sh
check: check-run-tests
.PHONY: check-run-tests
# every "$ command" example of README.md, docs/ and the man pages, run and
# its output compared
# (on every toolchain: the compiled fixtures they show are renumbered in an
# order no toolchain decides, build/fixtures/docs/)
DOC_PAGES := README.md $(sort $(wildcard docs/*.md)) btf2btf.1 libbtf2btf.3
check-docs: $(BTF2BTF_BIN) fixtures
	@./tests/check-docs-self.sh $(BUILD)
	@./tests/check-docs.sh $(BUILD) $(DOC_PAGES)
check: check-docs
.PHONY: check-docs
# the README's blocks on Debian's own kernels (fetched into DEBIAN_KERNELS,
# ~250 MB the first time): not in make check (network); .ci/run runs it
check-docs-debian: $(BTF2BTF_BIN)
	@./tests/check-docs-debian.sh $(BUILD) $(DEBIAN_KERNELS)
.PHONY: check-docs-debian

include tests/differential/differential.mk

# --kfuncs --format=c: the header compiles with clang -target bpf beside
# bpftool's vmlinux.h, with and without its kfunc externs (needs clang, bpftool)
$(BUILD)/tests/kfunc-externs: tests/kfunc-externs.c $(FLAGS_STAMP) | $(BUILD)/tests
	$(COMPILE) $(B2B_LDFLAGS) $(LDFLAGS) -o $@ $< $(LIBS)
check-kfunc-decl: $(BTF2BTF_BIN) fixtures $(BUILD)/tests/kfunc-externs
	BTF2BTF=$(abspath $(BTF2BTF_BIN)) MKFIXTURE=$(abspath $(MKFIXTURE)) \
		FIXTURE_DIR=$(abspath $(FIXTURE_DIR)) KFUNC_EXTERNS=$(abspath $(BUILD)/tests/kfunc-externs) \
		./tests/test-kfunc-decl.sh
check: check-kfunc-decl
.PHONY: check-kfunc-decl
# --check-prog on BPF objects clang compiles from tests/check-prog/ against
# kernels made from the fixtures (and --kfuncs --format=c --used-by)
# (needs clang, pahole, jq)
check-check-prog: $(BTF2BTF_BIN) fixtures
	BTF2BTF=$(abspath $(BTF2BTF_BIN)) FIXTURE_DIR=$(abspath $(FIXTURE_DIR)) \
		./tests/test-check-prog.sh
check: check-check-prog
.PHONY: check-check-prog
# Debian's own cloud kernels (bookworm 6.1, trixie 6.12, sid 7.2,
# trixie-backports 7.3) and all their modules through every view and the
# transform in memory: fetched into DEBIAN_KERNELS (outside the clone, as the
# kernel proofs' caches, keyed on the package version: a fresh clone on a
# machine that fetched them before reuses them), not part of `make check`
# (network, minutes); .ci/run runs it
DEBIAN_KERNELS	?= $(KERNEL_CACHE_ROOT)/debian-kernels
corpus-debian: $(BTF2BTF_BIN)
	./tests/corpus-debian.sh $(BTF2BTF_BIN) $(DEBIAN_KERNELS)
	./tests/check-prog-debian.sh $(BTF2BTF_BIN) $(DEBIAN_KERNELS)
.PHONY: corpus-debian
# The whole make check in a Debian SUITE chroot (trixie, forky, ...) with
# that suite's toolchain, warnings as errors; CHROOT_MAKEFLAGS go to its make
# (e.g. CC=clang). Needs root and debootstrap (scripts/chroot.sh).
SUITE		?= trixie
check-chroot:
	./scripts/check-chroot.sh $(SUITE) $(CHROOT_MAKEFLAGS)
.PHONY: check-chroot
# The library and the unit tests built against Linux 7.3's <linux/btf.h>
# (struct btf_header of 32 bytes, as forky's linux-libc-dev has it), taken
# from the oracle's linux-source-7.3 tree: the BTF it reads and writes must
# not depend on the header it was built with (btf_format.h).
UAPI_BUILD	:= build/uapi-7.3
check-uapi:
	@tree=$$(./scripts/fetch-linux-source.sh 7.3 trixie-backports $(ORACLE_CACHE)/linux-7.3) && \
	mkdir -p $(UAPI_BUILD)/include/linux && \
	cp "$$tree/include/uapi/linux/btf.h" $(UAPI_BUILD)/include/linux/btf.h && \
	grep -q layout_len $(UAPI_BUILD)/include/linux/btf.h && \
	$(MAKE) --no-print-directory BUILD=$(UAPI_BUILD) \
		CPPFLAGS="$(CPPFLAGS) -I$(abspath $(UAPI_BUILD))/include" check-unit | tail -1 | sed 's/^/uapi-7.3 /'
# (once, in .ci/run: every make check of the matrix would build it again)
.PHONY: check-uapi
