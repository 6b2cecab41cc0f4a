/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Test helpers: temp dirs, fixture paths, running the CLI, files. */
#ifndef TEST_HELPERS_H
#define TEST_HELPERS_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "btf2btf.h"

struct btf;

struct run {
	int status;		/* exit status, or 128 + signal */
	char *out;		/* stdout */
	char *err;		/* stderr */
};

/* A fresh temp dir for the test (removed by th_cleanup). */
const char *th_tmpdir(void);
void th_cleanup(void);
/* th_tmpdir()/name, in a static rotating buffer. */
const char *th_path(const char *name);
/* $FIXTURE_DIR/name; fails the test if it does not exist. */
const char *th_fixture(const char *name);
/* Copy a fixture into the temp dir; returns the copy's path. */
const char *th_copy_fixture(const char *name, const char *as);

/* Run argv (NULL-terminated) capturing output. argv[0] "btf2btf" is the CLI under test. */
void th_run(struct run *r, const char *const *argv);
void th_run_free(struct run *r);
/* Path of the CLI under test ($BTF2BTF), for argv built by hand (no wrapper). */
const char *th_cli(void);
/* printf-style shell command (sh -c). */
void th_sh(struct run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Fail loudly unless the tool is on PATH. */
void th_require_tool(const char *tool);

void *th_read(const char *path, size_t *size);
/* Each regular file of dir (names starting with '.' aside, in readdir's
 * order) read whole and given to fn; how many. Fails the test when dir
 * cannot be opened. */
int th_each_file(const char *dir, void (*fn)(const char *path, uint8_t *data, size_t size, void *ctx),
		 void *ctx);
bool th_same_file(const char *a, const char *b);
void th_copy(const char *from, const char *to);
size_t th_count_lines(const char *s);

/* Open with the library, failing the test on error; records log lines. */
struct btf2btf *th_open(const char *path, const struct btf2btf_opts *opts);
/* The kfunc of that name in b's table: NULL when none (th_kfunc_or_null),
 * or the test fails (th_kfunc). */
const struct btf2btf_kfunc *th_kfunc_or_null(const struct btf2btf *b, const char *name);
const struct btf2btf_kfunc *th_kfunc(const struct btf2btf *b, const char *name);
/* Fail unless path holds exactly the bytes btf2btf__raw_btf(b) gives; *size: how many. */
void th_assert_raw_written(struct btf2btf *b, const char *path, size_t *size);
/* Messages logged at ERROR level through th_log_cb, joined by '\n'. */
extern char th_log_errors[8192];
extern unsigned int th_log_error_count;
void th_log_cb(enum btf2btf_log_level level, const char *msg, void *ctx);
void th_log_reset(void);

/* Id of a named type of a kind in btf (asserting it exists). */
int th_find(const struct btf *btf, const char *name, int kind);
/* Parse the .BTF of an ELF file (or raw BTF) with libbpf, optionally split. */
struct btf *th_parse(const char *path, const struct btf *base);

/*
 * A test that needs what this host may lack (the running kernel's BTF, a
 * tool) skips itself: a line "SKIP: REASON" (tests/run-tests.sh counts the
 * skips by reason in its summary), then cmocka's skip(). With BTF2BTF_NO_SKIP
 * set (.ci/run sets it, so that CI runs every test) a skip is a failure.
 */
#define TH_SYS_VMLINUX "/sys/kernel/btf/vmlinux"
void th_skip(const char *reason);
/* The running kernel's BTF (TH_SYS_VMLINUX), or the test skipped when the
 * host has none ("no /sys/kernel/btf/vmlinux": a chroot, a container, a
 * kernel without CONFIG_DEBUG_INFO_BTF); present but unreadable fails. */
struct btf *th_sys_vmlinux(void);

#endif
