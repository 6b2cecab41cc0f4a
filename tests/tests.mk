# Unit tests: every tests/test_*.c is one cmocka program. `make check` builds
# the fixtures and the test CLI, runs them all, and prints the total.
TEST_SRCS	:= $(wildcard tests/test_*.c)
TEST_BINS	:= $(patsubst tests/%.c,$(BUILD)/tests/%,$(TEST_SRCS))
TEST_HELPERS	:= $(BUILD)/tests/helpers.o
TEST_LIBS	:= $(LIBS) -lcmocka
# the CLI modules tests call directly
TEST_CLI_OBJS	:= $(filter-out $(BUILD)/tobj/main.o,$(TCLI_OBJS))

$(BUILD)/tests/%.o: tests/%.c $(FLAGS_STAMP) | $(BUILD)/tests
	$(COMPILE) $(TEST_CPPFLAGS) $(INTERNAL_CPPFLAGS) -Ifixtures -Itests -c $< -o $@
$(BUILD)/tests/test_%: $(BUILD)/tests/test_%.o $(TEST_HELPERS) $(TLIB_OBJS) $(TEST_CLI_OBJS) \
		       $(FX_BUILDER_OBJS)
	$(LINK) -o $@ $(filter %.o,$^) $(TEST_LIBS)

check: all fixtures $(BTF2BTF_TEST_BIN) $(TEST_BINS)
	@./tests/check-abi.sh $(SHARED_LIB)
	@FIXTURE_DIR=$(abspath $(FIXTURE_DIR)) BTF2BTF=$(abspath $(BTF2BTF_TEST_BIN)) \
		MKFIXTURE=$(abspath $(MKFIXTURE)) ./tests/run-tests.sh $(TEST_BINS)
	@$(MAKE) --no-print-directory check-differential
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
check-adapter: $(BUILD)/pahole $(BTF2BTF_BIN)
	ADAPTER=$(abspath $(BUILD)/pahole) BTF2BTF=$(abspath $(BTF2BTF_BIN)) ./tests/test-adapter.sh
check-libbpf-api: $(LIB_OBJS)
	@CC="$(CC)" CPPFLAGS="$(CPPFLAGS)" ./tests/check-libbpf-api.sh $(LIB_OBJS)
check: check-completion check-debian check-cli-symbols check-adapter check-libbpf-api
.PHONY: check-completion check-debian check-cli-symbols check-adapter check-libbpf-api
# run-tests.sh itself: a passing program is one line, a failing one shown whole
check-run-tests:
	@./tests/check-run-tests.sh
check: check-run-tests
.PHONY: check-run-tests
# every "$ command" example of README.md and btf2btf.1, run and its output compared
check-docs: $(BTF2BTF_BIN) fixtures
	@./tests/check-docs.sh $(BUILD) README.md btf2btf.1
check: check-docs
.PHONY: check-docs

include tests/differential/differential.mk

# The whole make check in a Debian SUITE chroot (trixie, forky, ...) with
# that suite's toolchain, warnings as errors; CHROOT_MAKEFLAGS go to its make
# (e.g. CC=clang). Needs root and debootstrap (scripts/chroot.sh).
SUITE		?= trixie
check-chroot:
	./scripts/check-chroot.sh $(SUITE) $(CHROOT_MAKEFLAGS)
.PHONY: check-chroot
