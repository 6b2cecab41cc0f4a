# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# btf2btf: libbtf2btf + the btf2btf CLI, fixtures, tests, kernel proof.
#
#   make            build library and CLI into build/
#   make demo       set up (packages when root), build, run on a fixture
#   make check      unit tests (SANITIZE=1: under ASan/UBSan)
#   make install    PREFIX=/usr/local DESTDIR= (also BINDIR, LIBDIR, ..., COMPLETIONDIR, ADAPTERDIR)

# The version is written once, in the public header.
VERSION		:= $(shell sed -n 's/^\#define BTF2BTF_VERSION[[:space:]]*"\(.*\)"/\1/p' include/btf2btf.h)
SOVERSION	:= $(firstword $(subst ., ,$(VERSION)))
PREFIX		?= /usr/local
BINDIR		?= $(PREFIX)/bin
LIBDIR		?= $(PREFIX)/lib
INCLUDEDIR	?= $(PREFIX)/include
MANDIR		?= $(PREFIX)/share/man
COMPLETIONDIR	?= $(PREFIX)/share/bash-completion/completions
PKGCONFIGDIR	?= $(LIBDIR)/pkgconfig
# the Kbuild adapter (make PAHOLE=$(ADAPTERDIR)/pahole), not multiarch
ADAPTERDIR	?= $(PREFIX)/lib/btf2btf

CC		?= cc
ifeq ($(origin CC),default)
CC		:= gcc
endif
PKG_CONFIG	?= pkg-config
# zlib reads and writes .ko.gz; liblzma and libzstd (.ko.xz/.zst) are
# loaded when such a module is met (src/lib/format/compress.c): their
# headers only are needed to build
LIBS		:= $(shell $(PKG_CONFIG) --libs libbpf 2>/dev/null || echo -lbpf) -lelf \
		   $(shell $(PKG_CONFIG) --libs zlib 2>/dev/null || echo -lz)

# GNU conventions: CFLAGS, CPPFLAGS and LDFLAGS belong to the user (default
# -O2 -g); the project's own flags live in B2B_* and are always added, so
# `make CFLAGS=-O1 SANITIZE=1` or `make CPPFLAGS=-DNDEBUG` keep the include
# paths, the warnings and the sanitizer.
CFLAGS		?= -O2 -g
WARN		:= -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers -Wshadow -Wstrict-prototypes \
		   -Wmissing-prototypes -Wformat=2 -Wno-format-nonliteral
# The library and the CLI see include/ only; the library's objects add
# src/lib, the one root its own headers are included from, by stage
# ("format/btf_format.h", "input/kfuncs.h"): a stage's folder is on no
# include path, so which stage a file reaches into is written in the file
# and check-layers can hold it to the order of LIB_STAGES. Tests and
# benchmarks reach inside both.
B2B_CPPFLAGS	:= -Iinclude -D_GNU_SOURCE
LIB_CPPFLAGS	:= -Isrc/lib
INTERNAL_CPPFLAGS := $(LIB_CPPFLAGS) -Isrc/cli

# What the installed libbpf declares and exports, for src/lib/util/libbpf_compat.c
# (a function 1.1.2 declares without exporting fails the link):
# -DB2B_HAVE_<FUNCTION> for each of these it has.
LIBBPF_PROBED	:= btf__new_split btf_ext__raw_data
libbpf_has	= $(shell printf '\043include <bpf/btf.h>\nint main(void) { void *volatile p = (void *)&%s; return !p; }\n' $(1) | \
		    $(CC) $(CPPFLAGS) -Werror -x c - -o /dev/null $(LDFLAGS) $(LIBS) >/dev/null 2>&1 && \
		    echo -DB2B_HAVE_$(1) | tr a-z A-Z)
B2B_CPPFLAGS	+= $(foreach f,$(LIBBPF_PROBED),$(call libbpf_has,$(f)))
B2B_CFLAGS	:= $(WARN) -MMD -MP
B2B_LDFLAGS	:=

ifeq ($(SANITIZE),1)
BUILD		?= build/san
SANFLAGS	:= -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
B2B_CFLAGS	+= $(SANFLAGS)
B2B_LDFLAGS	+= $(SANFLAGS)
else
BUILD		?= build
endif
# Test builds carry the fault-injection points; the installed binary does not.
TEST_CPPFLAGS	:= -DBTF2BTF_FAULT_INJECTION

COMPILE		= $(CC) $(B2B_CPPFLAGS) $(CPPFLAGS) $(B2B_CFLAGS) $(CFLAGS)
LINK		= $(CC) $(B2B_LDFLAGS) $(LDFLAGS)

# Objects are rebuilt when the compiler or any flag changes (as Kbuild's
# .cmd files do): `make CC=clang check` after `make check` recompiles.
FLAGS_STAMP	:= $(BUILD)/.flags
BUILD_FLAGS	:= $(CC) $(B2B_CPPFLAGS) $(CPPFLAGS) $(B2B_CFLAGS) $(CFLAGS) / $(B2B_LDFLAGS) $(LDFLAGS)
ifneq ($(BUILD_FLAGS),$(shell cat $(FLAGS_STAMP) 2>/dev/null))
$(shell mkdir -p $(BUILD) && printf '%s\n' '$(BUILD_FLAGS)' > $(FLAGS_STAMP))
endif

# The library by stage (docs/layout.md), lowest first: a file includes headers of its own
# stage and the ones before it, never after (check-layers). util: the small
# tools; format: BTF, ELF, compressed modules, output files; input: what is
# read at open (BTF_ID sets, kfuncs, checks, relocation); plan; edit;
# passes: dedup, sort, distill; api: the public API's files (the handle,
# open, transform, write).
LIB_STAGES	:= util format input plan edit passes api
LIB_SRCS	:= $(foreach s,$(LIB_STAGES),$(sort $(wildcard src/lib/$(s)/*.c)))
CLI_SRCS	:= $(addprefix src/cli/,main.c cli.c batch.c heap.c report.c inspect.c dump.c json.c cproto.c names.c \
		   type_keys.c diff.c kfunc_diff.c lint.c kfunc_decl.c kfunc_table.c kfunc_history.c \
		   prog_externs.c check_prog.c)
# objects by source path under src/ (obj/lib/format/btf_format.o)
LIB_OBJS	:= $(patsubst src/%.c,$(BUILD)/obj/%.o,$(LIB_SRCS))
PIC_OBJS	:= $(patsubst src/%.c,$(BUILD)/pic/%.o,$(LIB_SRCS))
CLI_OBJS	:= $(patsubst src/%.c,$(BUILD)/obj/%.o,$(CLI_SRCS))
# the library again, with fault injection, for tests and the test CLI
TLIB_OBJS	:= $(patsubst src/%.c,$(BUILD)/tobj/%.o,$(LIB_SRCS))
TCLI_OBJS	:= $(patsubst src/%.c,$(BUILD)/tobj/%.o,$(CLI_SRCS))

BTF2BTF_BIN	:= $(BUILD)/btf2btf
BTF2BTF_TEST_BIN := $(BUILD)/btf2btf-test
ADAPTER		:= $(BUILD)/lib/btf2btf/pahole
STATIC_LIB	:= $(BUILD)/libbtf2btf.a
SHARED_LIB	:= $(BUILD)/libbtf2btf.so.$(VERSION)
# Exported symbols, each in the version node of the release that added it.
VERSION_SCRIPT	:= src/lib/libbtf2btf.map

# no implicit rules but ours (no `%: %.o` chains through the fixtures)
MAKEFLAGS	+= --no-builtin-rules
.SUFFIXES:

.PHONY: all check demo install clean fixtures bench fuzz check-valgrind
.DEFAULT_GOAL := all

all: $(BTF2BTF_BIN) $(STATIC_LIB) $(SHARED_LIB) $(ADAPTER)

# The library (src/lib) and the CLI (src/cli) live apart, as libbpf and
# bpftool do; the CLI sees only include/btf2btf.h of the library. Header
# dependencies come from the compiler (-MMD), included at the end.
$(LIB_OBJS) $(PIC_OBJS) $(TLIB_OBJS): B2B_CPPFLAGS += $(LIB_CPPFLAGS)

$(BUILD)/obj/%.o: src/%.c $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(COMPILE) -c $< -o $@
$(BUILD)/pic/%.o: src/%.c $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(COMPILE) -fPIC -fvisibility=hidden -DBTF2BTF_EXPORT -c $< -o $@
$(BUILD)/tobj/%.o: src/%.c $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(COMPILE) $(TEST_CPPFLAGS) -c $< -o $@

$(BUILD)/tests $(BUILD)/fixtures:
	mkdir -p $@

$(STATIC_LIB): $(LIB_OBJS)
	rm -f $@ && ar rcs $@ $^
$(SHARED_LIB): $(PIC_OBJS) $(VERSION_SCRIPT)
	$(LINK) -shared -Wl,-soname,libbtf2btf.so.$(SOVERSION) \
		-Wl,--version-script=$(VERSION_SCRIPT) -o $@ $(PIC_OBJS) $(LIBS)
	ln -sf libbtf2btf.so.$(VERSION) $(BUILD)/libbtf2btf.so.$(SOVERSION)
	ln -sf libbtf2btf.so.$(SOVERSION) $(BUILD)/libbtf2btf.so
$(BTF2BTF_BIN): $(CLI_OBJS) $(STATIC_LIB)
	$(LINK) -o $@ $(CLI_OBJS) $(STATIC_LIB) $(LIBS)
$(BTF2BTF_TEST_BIN): $(TCLI_OBJS) $(TLIB_OBJS)
	$(LINK) -o $@ $^ $(LIBS)
# the Kbuild adapter, pointing at the btf2btf of this build (make install
# writes one pointing at $(BINDIR)/btf2btf); under lib/btf2btf as installed,
# not in build/ itself, which users put on PATH for btf2btf: there it would
# stand in for pahole in every build on the machine
$(ADAPTER): src/adapter/pahole.sh
	@mkdir -p $(@D)
	rm -f $(BUILD)/pahole	# where earlier trees built it
	sed 's|@BTF2BTF@|$(abspath $(BTF2BTF_BIN))|' $< > $@.tmp && chmod 755 $@.tmp && mv $@.tmp $@

include fixtures/fixtures.mk
include tests/tests.mk
include fuzz/fuzz.mk
-include kernel/kernel.mk
-include kernel/s390.mk
-include bench/bench.mk

# ---- demo: the main job on a built-in example ----
DEMO_PKGS := gcc make clang libbpf-dev libelf-dev zlib1g-dev liblzma-dev libzstd-dev libcmocka-dev pkg-config bash-completion \
	     dwarves bpftool mandoc
demo:
	@if [ "$$(id -u)" = 0 ]; then \
		missing=$$(for p in $(DEMO_PKGS); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
		if [ -n "$$missing" ]; then \
			echo "demo: installing $$missing"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
		fi; \
	fi
	$(MAKE) --no-print-directory all fixtures
	@./scripts/demo.sh $(BTF2BTF_BIN) $(FIXTURE_DIR)

# ---- install ----
install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR) \
		$(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man3 $(DESTDIR)$(PKGCONFIGDIR) $(DESTDIR)$(COMPLETIONDIR)
	install -m 755 $(BTF2BTF_BIN) $(DESTDIR)$(BINDIR)/btf2btf
	install -d $(DESTDIR)$(ADAPTERDIR)
	sed 's|@BTF2BTF@|$(BINDIR)/btf2btf|' src/adapter/pahole.sh > $(DESTDIR)$(ADAPTERDIR)/pahole
	chmod 755 $(DESTDIR)$(ADAPTERDIR)/pahole
	install -m 644 $(STATIC_LIB) $(DESTDIR)$(LIBDIR)/libbtf2btf.a
	install -m 755 $(SHARED_LIB) $(DESTDIR)$(LIBDIR)/
	ln -sf libbtf2btf.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libbtf2btf.so.$(SOVERSION)
	ln -sf libbtf2btf.so.$(SOVERSION) $(DESTDIR)$(LIBDIR)/libbtf2btf.so
	install -m 644 include/btf2btf.h $(DESTDIR)$(INCLUDEDIR)/btf2btf.h
	install -m 644 btf2btf.1 $(DESTDIR)$(MANDIR)/man1/btf2btf.1
	install -m 644 libbtf2btf.3 $(DESTDIR)$(MANDIR)/man3/libbtf2btf.3
	install -m 644 bash-completion/btf2btf $(DESTDIR)$(COMPLETIONDIR)/btf2btf
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
	    -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@VERSION@|$(VERSION)|' \
	    libbtf2btf.pc.in > $(DESTDIR)$(PKGCONFIGDIR)/libbtf2btf.pc

clean:
	rm -rf build

# dependency files are read if present and never made
%.d: ;
# a library source an older build's dependency files name where it was
# before it moved (src/lib itself, a stage folder): made anew from where it is
src/lib/%.c: ;
src/lib/%.h: ;
-include $(wildcard $(addsuffix .d,$(basename $(LIB_OBJS) $(PIC_OBJS) $(TLIB_OBJS) $(CLI_OBJS) $(TCLI_OBJS))) \
	   $(BUILD)/*/*.d $(BUILD)/fixtures/obj/*.d)
