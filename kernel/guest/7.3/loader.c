// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * /init of the 7.3 guest: loads bpf_testmod.ko, checks the kfunc
 * prototypes in /sys/kernel/btf, then runs upstream's own BPF selftest
 * objects (compiled from the 7.3 tree) under their test annotations.
 *
 * The annotations are BTF decl tags "comment:<counter>:test_..." on each
 * program's FUNC (tools/testing/selftests/bpf/progs/bpf_misc.h). They are
 * read the way tools/testing/selftests/bpf/test_loader.c reads them:
 * tags sorted by strverscmp() (that restores source order), a program is
 * loaded alone (plus __auxiliary ones), __failure/__success decide whether
 * the load must fail, __msg patterns ("{{regex}}" parts allowed) must
 * appear in order in the verifier log, __retval runs the program once with
 * BPF_PROG_TEST_RUN, __stderr/__stdout patterns are matched line by line
 * against the program's BPF streams. Annotations this loader does not
 * implement make the test FAIL rather than being ignored.
 *
 * Objects whose upstream runner is a custom prog_tests/ function
 * (kfunc_implicit_args_tracing, wq's callback check, task_work,
 * linked_list, rbtree) get a driver here doing what that function checks.
 *
 * Built with -DGUEST_KERNEL_7_2 it is the /init of the 7.2 guest
 * (kernel/scripts/ktest-7.2.sh): the same objects from the 7.2 tree (7.2 has
 * no arena_kfunc.c), sched_ext's kfuncs checked in the BTF, and
 * tools/testing/selftests/sched_ext's runner run, one result per test. Both
 * guests then load the differential's objects with BPF_BTF_LOAD
 * (/btf-accept: 7.3 btf2btf's and resolve_btfids', 7.2 the pahole adapter's).
 *
 * Output: one "PASS name" / "FAIL name: why" / "SKIP name: why" line per
 * test and "N passed, M failed" at the end; then the guest reboots.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <regex.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "btf_accept.h"
#ifndef GUEST_KERNEL_7_2
#include "progload.h"
#endif

#define PROGS_DIR	"/progs"
#define LOG_SZ		(4 << 20)
#define POINTER_VALUE	0xbadcafe	/* __retval(POINTER_VALUE): any value */
#define TEST_DATA_LEN	64

static int passed, failed;
static bool libbpf_debug;	/* libbpf's debug messages too (while opening) */

static int print_libbpf(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBBPF_DEBUG && !libbpf_debug)
		return 0;
	return vfprintf(stdout, fmt, ap);
}

/* bpf_object__open_file(), with libbpf's reasons printed when it fails */
static struct bpf_object *open_obj(const char *path)
{
	struct bpf_object *obj = bpf_object__open_file(path, NULL);

	if (!obj) {
		int err = errno;

		libbpf_debug = true;
		obj = bpf_object__open_file(path, NULL);
		libbpf_debug = false;
		if (obj)
			bpf_object__close(obj);
		errno = err;
		return NULL;
	}
	return obj;
}
static char log_buf[LOG_SZ];
static char stream_buf[LOG_SZ];

/*
 * Upstream tests whose expected output came and went between boots of one
 * and the same kernel under QEMU TCG. A failure of one of these is printed
 * as "INFO XFAIL" with its reason and counted apart, never as a pass.
 */
static const struct {
	const char *name, *why;
} known_flaky[] = {
	{ "stream/stream_arena_callback_fault",
	  "the arena fault report from a callback reached BPF stderr in 1 of 3 boots of the "
	  "same 7.3 kernel under TCG (kernel/README.md)" },
	{ "sched_ext/allowed_cpus",
	  "its idle-CPU check ('CPU 0 should be marked as busy') failed in 1 of 2 boots of the "
	  "same 7.2 kernel under TCG on a loaded host; the scheduler loaded, its kfuncs resolved "
	  "(docs/kernel-proofs.md)" },
};
static int xfailed;

static const char *flaky_reason(const char *name)
{
	for (size_t i = 0; i < sizeof(known_flaky) / sizeof(known_flaky[0]); i++)
		if (!strcmp(known_flaky[i].name, name))
			return known_flaky[i].why;
	return NULL;
}

static void result(bool ok, const char *name, const char *fmt, ...)
{
	const char *flaky = ok ? NULL : flaky_reason(name);
	va_list ap;

	if (flaky)
		printf("INFO XFAIL %s", name);
	else
		printf("%s %s", ok ? "PASS" : "FAIL", name);
	if (fmt && *fmt) {
		printf(ok ? " (" : ": ");
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
		if (ok)
			printf(")");
	}
	if (flaky)
		printf(" [known flaky: %s]", flaky);
	printf("\n");
	if (ok)
		passed++;
	else if (flaky)
		xfailed++;
	else
		failed++;
}

/* ---- expected messages ------------------------------------------------ */

struct pattern {
	const char *text;
	regex_t re;
	bool is_re;
	bool next_line;	/* must match on the line after the previous one */
	bool negative;	/* __not_msg */
};

struct patterns {
	struct pattern *p;
	int n;
};

/* "{{re}}" parts are regular expressions, the rest is matched literally */
static int compile_pattern(struct pattern *p, char *why, size_t why_sz)
{
	char buf[4096];
	const char *s = p->text;
	size_t n = 0;
	bool in_re = false;
	int err;

	while (*s) {
		if (n + 3 >= sizeof(buf)) {
			snprintf(why, why_sz, "pattern too long: '%s'", p->text);
			return -1;
		}
		if (!in_re && !strncmp(s, "{{", 2)) {
			in_re = true;
			s += 2;
		} else if (in_re && !strncmp(s, "}}", 2)) {
			in_re = false;
			s += 2;
		} else {
			if (!in_re && strchr(".[]\\()*+?{}|^$", *s))
				buf[n++] = '\\';
			buf[n++] = *s++;
		}
	}
	buf[n] = 0;
	if (in_re) {
		snprintf(why, why_sz, "unclosed '{{' in '%s'", p->text);
		return -1;
	}
	err = regcomp(&p->re, buf, REG_EXTENDED | REG_NEWLINE);
	if (err) {
		snprintf(why, why_sz, "bad regex '%s'", buf);
		return -1;
	}
	p->is_re = true;
	return 0;
}

static int add_pattern(struct patterns *ps, const char *text, bool next_line,
		       bool negative, char *why, size_t why_sz)
{
	struct pattern *p;

	ps->p = realloc(ps->p, (ps->n + 1) * sizeof(*ps->p));
	if (!ps->p)
		abort();
	p = &ps->p[ps->n++];
	memset(p, 0, sizeof(*p));
	p->text = text;
	p->next_line = next_line;
	p->negative = negative;
	if (strstr(text, "{{"))
		return compile_pattern(p, why, why_sz);
	return 0;
}

static void free_patterns(struct patterns *ps)
{
	int i;

	for (i = 0; i < ps->n; i++)
		if (ps->p[i].is_re)
			regfree(&ps->p[i].re);
	free(ps->p);
	ps->p = NULL;
	ps->n = 0;
}

/* find p in *pos; on a match return its start and move *pos past it */
static const char *find_pattern(const struct pattern *p, const char **pos)
{
	regmatch_t m;
	const char *at;

	if (!p->is_re) {
		at = strstr(*pos, p->text);
		if (at)
			*pos = at + strlen(p->text);
		return at;
	}
	if (regexec(&p->re, *pos, 1, &m, 0))
		return NULL;
	at = *pos + m.rm_so;
	*pos += m.rm_eo;
	return at;
}

static int lines_between(const char *a, const char *b)
{
	int n = 0;

	for (; a < b; a++)
		n += *a == '\n';
	return n;
}

/*
 * Positive patterns must match in order, each after the previous match
 * (and on the very next line when next_line is set). A negative pattern
 * must not match between the positive matches around it.
 */
static bool match_patterns(const char *text, const struct patterns *ps,
			   char *why, size_t why_sz)
{
	const char *pos = text, *at, *prev = text, *span_start = text;
	const char **start = calloc(ps->n + 1, sizeof(*start));
	const char **end = calloc(ps->n + 1, sizeof(*end));
	int i, j, line = 0, prev_line = -1;
	bool ok = true;

	if (!start || !end)
		abort();
	for (i = 0; i < ps->n && ok; i++) {
		if (ps->p[i].negative)
			continue;
		at = find_pattern(&ps->p[i], &pos);
		if (!at) {
			snprintf(why, why_sz, "expected '%s' not found", ps->p[i].text);
			ok = false;
			break;
		}
		line += lines_between(prev, at);
		if (ps->p[i].next_line && prev_line >= 0 && line != prev_line + 1) {
			snprintf(why, why_sz, "'%s' matched on line %d, expected line %d",
				 ps->p[i].text, line, prev_line + 1);
			ok = false;
		}
		start[i] = at;
		end[i] = pos;
		prev = at;
		prev_line = line;
	}
	for (i = 0; i < ps->n && ok; i++) {
		const char *span_end = text + strlen(text), *p;

		if (!ps->p[i].negative) {
			span_start = end[i] ? end[i] : span_start;
			continue;
		}
		for (j = i + 1; j < ps->n; j++)
			if (!ps->p[j].negative) {
				span_end = start[j];
				break;
			}
		p = span_start;
		at = find_pattern(&ps->p[i], &p);
		if (at && p <= span_end) {
			snprintf(why, why_sz, "unexpected '%s' found", ps->p[i].text);
			ok = false;
		}
	}
	free(start);
	free(end);
	return ok;
}

/* ---- test specs from decl tags ---------------------------------------- */

struct spec {
	const char *prog;
	const char *desc;
	bool valid;
	bool failure;
	bool auxiliary;
	bool execute;
	bool other_arch;	/* __arch_* given, x86_64 not among them */
	int load_mode;		/* __load_if_JITed: 1, __load_if_no_JITed: 2, else 0 */
	int retval;
	int log_level;
	int flags;
	struct patterns msgs;
	struct patterns err;	/* __stderr */
	struct patterns out;	/* __stdout */
	char why[512];		/* why the spec is invalid */
};

static int cmp_tags(const void *a, const void *b)
{
	return strverscmp(*(const char * const *)a, *(const char * const *)b);
}

static const char *has_prefix(const char *s, const char *pfx)
{
	size_t n = strlen(pfx);

	return strncmp(s, pfx, n) ? NULL : s + n;
}

static bool parse_retval(const char *s, int *val)
{
	char *end;
	long v;

	if (!strcmp(s, "_INT_MIN")) {
		*val = INT_MIN;
		return true;
	}
	if (!strcmp(s, "POINTER_VALUE")) {
		*val = POINTER_VALUE;
		return true;
	}
	if (!strcmp(s, "TEST_DATA_LEN")) {
		*val = TEST_DATA_LEN;
		return true;
	}
	errno = 0;
	v = strtol(s, &end, 0);
	if (errno || *end || end == s)
		return false;
	*val = (int)v;
	return true;
}

static const struct { const char *name; int flag; } prog_flag_names[] = {
	{ "BPF_F_STRICT_ALIGNMENT", BPF_F_STRICT_ALIGNMENT },
	{ "BPF_F_ANY_ALIGNMENT", BPF_F_ANY_ALIGNMENT },
	{ "BPF_F_TEST_RND_HI32", BPF_F_TEST_RND_HI32 },
	{ "BPF_F_TEST_STATE_FREQ", BPF_F_TEST_STATE_FREQ },
	{ "BPF_F_SLEEPABLE", BPF_F_SLEEPABLE },
	{ "BPF_F_XDP_HAS_FRAGS", BPF_F_XDP_HAS_FRAGS },
	{ "BPF_F_TEST_REG_INVARIANTS", BPF_F_TEST_REG_INVARIANTS },
};

static bool parse_flag(const char *s, int *flags)
{
	bool clear = *s == '!';
	size_t i;
	int f = 0;
	char *end;

	s += clear;
	for (i = 0; i < sizeof(prog_flag_names) / sizeof(prog_flag_names[0]); i++)
		if (!strcmp(s, prog_flag_names[i].name))
			f = prog_flag_names[i].flag;
	if (!f) {
		f = (int)strtol(s, &end, 0);
		if (*end || end == s)
			return false;
	}
	if (clear)
		*flags &= ~f;
	else
		*flags |= f;
	return true;
}

static void parse_spec(const struct btf *btf, const char *prog, struct spec *sp)
{
	const char **tags = NULL;
	bool err_next = true, out_next = true, arch_given = false, arch_x86 = false;
	int func_id, i, n = 0, ntypes = btf__type_cnt(btf);
	char *why = sp->why;
	size_t why_sz = sizeof(sp->why);

	memset(sp, 0, sizeof(*sp));
	sp->prog = prog;
	/* what test_progs adds to every program (testing_prog_flags()) */
	sp->flags = BPF_F_TEST_RND_HI32 | BPF_F_TEST_REG_INVARIANTS;
	func_id = btf__find_by_name_kind(btf, prog, BTF_KIND_FUNC);
	if (func_id < 0) {
		snprintf(why, why_sz, "no FUNC %s in the object's BTF", prog);
		return;
	}
	for (i = 1; i < ntypes; i++) {
		const struct btf_type *t = btf__type_by_id(btf, i);

		if (!btf_is_decl_tag(t) || t->type != (unsigned int)func_id ||
		    btf_decl_tag(t)->component_idx != -1)
			continue;
		tags = realloc(tags, (n + 1) * sizeof(*tags));
		if (!tags)
			abort();
		tags[n++] = btf__name_by_offset(btf, t->name_off);
	}
	if (n)
		qsort(tags, n, sizeof(*tags), cmp_tags);
	for (i = 0; i < n; i++) {
		const char *s = tags[i], *v;
		int skip = 0;

		if (sscanf(s, "comment:%*d:%n", &skip) < 0 || !skip)
			continue;
		s += skip;
		if ((v = has_prefix(s, "test_description="))) {
			sp->desc = v;
		} else if (!strcmp(s, "test_expect_failure")) {
			sp->failure = true;
		} else if (!strcmp(s, "test_expect_success")) {
			sp->failure = false;
		} else if (!strcmp(s, "test_auxiliary")) {
			sp->auxiliary = true;
		} else if ((v = has_prefix(s, "test_expect_msg="))) {
			if (add_pattern(&sp->msgs, v, false, false, why, why_sz))
				goto out;
		} else if ((v = has_prefix(s, "test_expect_not_msg="))) {
			if (add_pattern(&sp->msgs, v, false, true, why, why_sz))
				goto out;
		} else if ((v = has_prefix(s, "test_retval="))) {
			if (!parse_retval(v, &sp->retval)) {
				snprintf(why, why_sz, "bad __retval '%s'", v);
				goto out;
			}
			sp->execute = true;
		} else if ((v = has_prefix(s, "test_log_level="))) {
			sp->log_level = atoi(v);
		} else if ((v = has_prefix(s, "test_prog_flags="))) {
			if (!parse_flag(v, &sp->flags)) {
				snprintf(why, why_sz, "bad __flag '%s'", v);
				goto out;
			}
		} else if ((v = has_prefix(s, "test_arch="))) {
			arch_given = true;
			arch_x86 |= !strcmp(v, "X86_64");
		} else if ((v = has_prefix(s, "load_mode="))) {
			if (!strcmp(v, "jited")) {
				sp->load_mode = 1;
			} else if (!strcmp(v, "no_jited")) {
				sp->load_mode = 2;
			} else {
				snprintf(why, why_sz, "bad load_mode '%s'", v);
				goto out;
			}
		} else if ((v = has_prefix(s, "test_expect_stderr="))) {
			if (!strcmp(v, "...")) {
				err_next = false;
				continue;
			}
			if (add_pattern(&sp->err, v, err_next, false, why, why_sz))
				goto out;
			err_next = true;
		} else if ((v = has_prefix(s, "test_expect_stdout="))) {
			if (!strcmp(v, "...")) {
				out_next = false;
				continue;
			}
			if (add_pattern(&sp->out, v, out_next, false, why, why_sz))
				goto out;
			out_next = true;
		} else {
			/* __xlated, __jited, *_unpriv, __btf_path, __caps_unpriv,
			 * __linear_size: not implemented here
			 */
			snprintf(why, why_sz, "annotation '%s' not supported by this loader", s);
			goto out;
		}
	}
	sp->other_arch = arch_given && !arch_x86;
	sp->valid = true;
out:
	free(tags);
}

static void free_spec(struct spec *sp)
{
	free_patterns(&sp->msgs);
	free_patterns(&sp->err);
	free_patterns(&sp->out);
}

/* ---- running programs ------------------------------------------------- */

static int test_run(int fd, bool syscall, int *retval)
{
	unsigned char in[TEST_DATA_LEN] = { 0 }, out[TEST_DATA_LEN << 2];
	LIBBPF_OPTS(bpf_test_run_opts, opts);
	int err;

	if (!syscall) {
		/* an Ethernet frame of zeros but for an IPv4 EtherType */
		in[12] = 0x08;
		opts.data_in = in;
		opts.data_size_in = sizeof(in);
		opts.data_out = out;
		opts.data_size_out = sizeof(out);
		opts.repeat = 1;
	}
	err = bpf_prog_test_run_opts(fd, &opts);
	if (err)
		return -errno;
	*retval = opts.retval;
	return 0;
}

static bool check_stream(int fd, int stream, const struct patterns *ps,
			 char *why, size_t why_sz)
{
	int n;

	if (!ps->n)
		return true;
	n = bpf_prog_stream_read(fd, stream, stream_buf, sizeof(stream_buf) - 1, NULL);
	if (n <= 0) {
		snprintf(why, why_sz, "nothing in BPF stream %d (%d)", stream, n);
		return false;
	}
	stream_buf[n] = 0;
	return match_patterns(stream_buf, ps, why, why_sz);
}

static bool jit_enabled(void)
{
	FILE *f = fopen("/proc/sys/net/core/bpf_jit_enable", "r");
	int on = 0;

	if (f) {
		if (fscanf(f, "%d", &on) != 1)
			on = 0;
		fclose(f);
	}
	return on > 0;
}

static void show_log(void)
{
	size_t n = strlen(log_buf);

	/* the tail of the verifier log says why a load failed */
	printf("---- verifier log (last 2000 bytes) ----\n%s\n----\n",
	       n > 2000 ? log_buf + n - 2000 : log_buf);
}

/* one test of an annotated object, the way test_loader.c's run_subtest() does it */
static void run_spec(const char *path, const char *oname, struct spec *specs, int idx)
{
	struct spec *sp = &specs[idx];
	struct bpf_object *obj;
	struct bpf_program *prog, *target = NULL;
	char name[256], why[1024] = "";
	bool syscall;
	int err, i = 0, retval;

	snprintf(name, sizeof(name), "%s/%s", oname, sp->prog);
	if (sp->other_arch) {
		printf("SKIP %s: __arch_* does not include x86_64\n", name);
		return;
	}
	if (sp->load_mode && sp->load_mode != (jit_enabled() ? 1 : 2)) {
		/* upstream skips it too */
		printf("SKIP %s: __load_if_%sJITed and the JIT is %s\n", name,
		       sp->load_mode == 1 ? "" : "no_", jit_enabled() ? "on" : "off");
		return;
	}
	obj = open_obj(path);
	if (!obj) {
		result(false, name, "open: %s", strerror(errno));
		return;
	}
	bpf_object__for_each_program(prog, obj) {
		struct spec *s = &specs[i++];
		bool load = false;

		if (s->valid && !strcmp(bpf_program__name(prog), sp->prog)) {
			target = prog;
			load = true;
		}
		if (s->valid && s->auxiliary)
			load = true;
		bpf_program__set_autoload(prog, load);
	}
	if (!target) {
		result(false, name, "program not found");
		goto out;
	}
	bpf_program__set_log_buf(target, log_buf, sizeof(log_buf));
	bpf_program__set_log_level(target, sp->log_level);
	bpf_program__set_flags(target, bpf_program__flags(target) | sp->flags);
	log_buf[0] = 0;
	err = bpf_object__load(obj);
	if (sp->failure && !err) {
		result(false, name, "load succeeded, __failure expected");
		goto out;
	}
	if (!sp->failure && err) {
		show_log();
		result(false, name, "load failed (%d), __success expected", err);
		goto out;
	}
	if (!match_patterns(log_buf, &sp->msgs, why, sizeof(why))) {
		show_log();
		result(false, name, "verifier log: %s", why);
		goto out;
	}
	if (sp->failure || !sp->execute) {
		result(true, name, "%s%s%s", sp->failure ? "load refused as expected" : "loaded",
		       sp->msgs.n ? ", log matches" : "",
		       sp->failure ? "" : "; no __retval: not run, as upstream");
		goto out;
	}
	syscall = bpf_program__type(target) == BPF_PROG_TYPE_SYSCALL;
	err = test_run(bpf_program__fd(target), syscall, &retval);
	if (err) {
		result(false, name, "BPF_PROG_TEST_RUN: %s", strerror(-err));
		goto out;
	}
	if (retval != sp->retval && sp->retval != POINTER_VALUE) {
		result(false, name, "retval %d, expected %d", retval, sp->retval);
		goto out;
	}
	if (!check_stream(bpf_program__fd(target), 2, &sp->err, why, sizeof(why))) {
		printf("---- stderr ----\n%s\n----\n", stream_buf);
		result(false, name, "stderr: %s", why);
		goto out;
	}
	if (!check_stream(bpf_program__fd(target), 1, &sp->out, why, sizeof(why))) {
		printf("---- stdout ----\n%s\n----\n", stream_buf);
		result(false, name, "stdout: %s", why);
		goto out;
	}
	result(true, name, "retval %d%s%s", retval, sp->err.n ? ", stderr matches" : "",
	       sp->out.n ? ", stdout matches" : "");
out:
	bpf_object__close(obj);
}

static void obj_path(char *buf, size_t sz, const char *oname)
{
	snprintf(buf, sz, PROGS_DIR "/%s.bpf.o", oname);
}

/* RUN_TESTS(oname): every program of the object is a test */
static void run_tests(const char *oname)
{
	struct bpf_object *obj;
	struct bpf_program *prog;
	struct spec *specs;
	char path[256], name[256];
	int i, n = 0;

	obj_path(path, sizeof(path), oname);
	obj = open_obj(path);
	if (!obj) {
		result(false, oname, "open %s: %s", path, strerror(errno));
		return;
	}
	bpf_object__for_each_program(prog, obj)
		n++;
	specs = calloc(n ? n : 1, sizeof(*specs));
	if (!specs)
		abort();
	i = 0;
	bpf_object__for_each_program(prog, obj)
		parse_spec(bpf_object__btf(obj), bpf_program__name(prog), &specs[i++]);
	for (i = 0; i < n; i++) {
		if (!specs[i].valid) {
			snprintf(name, sizeof(name), "%s/%s", oname, specs[i].prog);
			result(false, name, "%s", specs[i].why);
			continue;
		}
		if (!specs[i].auxiliary)
			run_spec(path, oname, specs, i);
	}
	for (i = 0; i < n; i++)
		free_spec(&specs[i]);
	free(specs);
	bpf_object__close(obj);
}

/* ---- drivers for objects upstream runs with custom prog_tests --------- */

static struct bpf_object *open_load(const char *oname, char *name)
{
	struct bpf_object *obj;
	char path[256];
	int err;

	obj_path(path, sizeof(path), oname);
	obj = open_obj(path);
	if (!obj) {
		result(false, name, "open %s: %s", path, strerror(errno));
		return NULL;
	}
	err = bpf_object__load(obj);
	if (err) {
		result(false, name, "load: %d", err);
		bpf_object__close(obj);
		return NULL;
	}
	return obj;
}

/* offset and size of global VAR in the object's data section SEC */
static int global_var(const struct btf *btf, const char *sec, const char *var,
		      __u32 *off, __u32 *size)
{
	const struct btf_var_secinfo *vs;
	const struct btf_type *ds;
	int id = btf__find_by_name_kind(btf, sec, BTF_KIND_DATASEC);
	unsigned int i;

	if (id < 0)
		return -ENOENT;
	ds = btf__type_by_id(btf, id);
	vs = btf_var_secinfos(ds);
	for (i = 0; i < btf_vlen(ds); i++, vs++) {
		const struct btf_type *v = btf__type_by_id(btf, vs->type);

		if (!strcmp(btf__name_by_offset(btf, v->name_off), var)) {
			*off = vs->offset;
			*size = vs->size;
			return 0;
		}
	}
	return -ENOENT;
}

static struct bpf_map *data_map(struct bpf_object *obj, const char *sec)
{
	struct bpf_map *m;

	bpf_object__for_each_map(m, obj)
		if (strstr(bpf_map__name(m), sec))
			return m;
	return NULL;
}

/* current value of global VAR (size sz) in the object's data section SEC */
static int read_global(struct bpf_object *obj, const char *sec, const char *var,
		       void *val, size_t sz)
{
	struct bpf_map *map = data_map(obj, sec);
	__u32 off, size;
	size_t vsz;
	int zero = 0, err;
	char *data;

	if (!map || global_var(bpf_object__btf(obj), sec, var, &off, &size) || size != sz)
		return -ENOENT;
	vsz = bpf_map__value_size(map);
	data = malloc(vsz);
	if (!data)
		abort();
	err = bpf_map__lookup_elem(map, &zero, sizeof(zero), data, vsz, 0) ? -errno : 0;
	if (!err)
		memcpy(val, data + off, sz);
	free(data);
	return err;
}

static int run_prog(struct bpf_object *obj, const char *prog_name, int *retval)
{
	struct bpf_program *prog = bpf_object__find_program_by_name(obj, prog_name);

	if (!prog)
		return -ENOENT;
	return test_run(bpf_program__fd(prog),
			bpf_program__type(prog) == BPF_PROG_TYPE_SYSCALL, retval);
}

/* prog_tests/kfunc_implicit_args_tracing.c */
static void drive_tracing(void)
{
	static const char *name = "kfunc_implicit_args_tracing/fentry+fexit";
	struct bpf_object *obj = open_load("kfunc_implicit_args_tracing", (char *)name);
	struct bpf_program *prog;
	struct bpf_link *links[4] = { 0 };
	unsigned long long v[6];
	static const char *vars[6] = { "fentry_arg_cnt", "fentry_aux_arg", "fentry_result",
				       "fexit_arg_cnt", "fexit_aux_arg", "fexit_result" };
	int n = 0, i, retval, err;

	if (!obj)
		return;
	bpf_object__for_each_program(prog, obj) {
		if (bpf_program__type(prog) != BPF_PROG_TYPE_TRACING)
			continue;
		links[n] = bpf_program__attach(prog);
		if (!links[n]) {
			result(false, name, "attach %s: %s", bpf_program__name(prog),
			       strerror(errno));
			goto out;
		}
		n++;
	}
	err = run_prog(obj, "trigger_implicit_arg", &retval);
	if (err || retval != 5) {
		result(false, name, "trigger_implicit_arg: err %d retval %d, expected 5", err, retval);
		goto out;
	}
	for (i = 0; i < 6; i++)
		if (read_global(obj, ".bss", vars[i], &v[i], sizeof(v[i]))) {
			result(false, name, "cannot read %s", vars[i]);
			goto out;
		}
	if (v[0] != 2 || !v[1] || v[2] != 1 || v[3] != 2 || !v[4] || v[5] != 1) {
		result(false, name, "fentry: arg_cnt %llu aux %#llx result %llu; "
		       "fexit: arg_cnt %llu aux %#llx result %llu (want 2, non-zero, 1)",
		       v[0], v[1], v[2], v[3], v[4], v[5]);
		goto out;
	}
	result(true, name, "%d programs attached, both see 2 args (a=5, aux=%#llx), "
	       "kfunc returned 5", n, v[1]);
out:
	while (n-- > 0)
		bpf_link__destroy(links[n]);
	bpf_object__close(obj);
}

/*
 * A bpf_wq callback really runs: program PROG of object ONAME arms it, the
 * callback sets global VAR to WANT (prog_tests/wq.c serial_test_wq()).
 */
static void drive_wq(const char *name, const char *oname, const char *prog, const char *var,
		     int want)
{
	struct bpf_object *obj = open_load(oname, (char *)name);
	int retval = -1, got = 0, err, tries;

	if (!obj)
		return;
	err = run_prog(obj, prog, &retval);
	if (err || retval) {
		result(false, name, "test run: err %d retval %d", err, retval);
		goto out;
	}
	for (tries = 0; tries < 500; tries++) {
		if (read_global(obj, ".bss", var, &got, sizeof(got)) == 0 && got == want)
			break;
		usleep(10000);
	}
	if (got != want) {
		result(false, name, "%s = %d after 5 s, expected %d", var, got, want);
		goto out;
	}
	result(true, name, "bpf_wq_set_callback's callback ran: %s = %d", var, got);
out:
	bpf_object__close(obj);
}

/*
 * prog_tests/test_task_work.c. Upstream samples PERF_COUNT_HW_CPU_CYCLES
 * and skips where there is no PMU (QEMU TCG has none); here the same
 * programs run on the software cpu-clock event instead.
 */
static void drive_task_work(const char *prog_name, const char *map_name)
{
	static const char text[] = "hello world";
	char name[128];
	struct bpf_object *obj = NULL;
	struct bpf_program *prog, *p;
	struct bpf_link *link = NULL;
	struct bpf_map *map;
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.size = sizeof(attr),
		.sample_period = 100000,
	};
	struct { char data[128]; char tw[64]; } *value;
	int pfd[2], pid, status, pe_fd, k, found = 0, err;
	char path[256], *bss;
	size_t bss_sz;
	__u32 off, size;
	unsigned long long addr = (unsigned long)text;

	snprintf(name, sizeof(name), "task_work/%s (cpu-clock, not HW cycles)", prog_name);
	if (pipe(pfd))
		abort();
	pid = fork();
	if (pid == 0) {
		volatile unsigned long long num = 1;
		struct timespec t0, t;
		char c;

		close(pfd[1]);
		if (read(pfd[0], &c, 1) != 1)
			_exit(1);
		clock_gettime(CLOCK_MONOTONIC, &t0);
		do {	/* ~300 ms of CPU for the sampling event */
			for (k = 0; k < 10000; k++)
				num *= time(NULL) % 7;
			clock_gettime(CLOCK_MONOTONIC, &t);
		} while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < 300);
		_exit(0);
	}
	close(pfd[0]);
	obj_path(path, sizeof(path), "task_work");
	obj = open_obj(path);
	if (!obj) {
		result(false, name, "open: %s", strerror(errno));
		goto out;
	}
	prog = bpf_object__find_program_by_name(obj, prog_name);
	bpf_object__for_each_program(p, obj)
		bpf_program__set_autoload(p, p == prog);
	map = data_map(obj, ".bss");
	bss = map ? bpf_map__initial_value(map, &bss_sz) : NULL;
	if (!prog || !bss ||
	    global_var(bpf_object__btf(obj), ".bss", "user_ptr", &off, &size) ||
	    size != sizeof(addr) || off + size > bss_sz) {
		result(false, name, "no program %s or no user_ptr in .bss", prog_name);
		goto out;
	}
	/* what upstream does with skel->bss->user_ptr before the load */
	memcpy(bss + off, &addr, sizeof(addr));
	err = bpf_object__load(obj);
	if (err) {
		result(false, name, "load: %d", err);
		goto out;
	}
	pe_fd = syscall(__NR_perf_event_open, &attr, pid, -1, -1, 0);
	if (pe_fd < 0) {
		result(false, name, "perf_event_open: %s", strerror(errno));
		goto out;
	}
	link = bpf_program__attach_perf_event(prog, pe_fd);
	if (!link) {
		close(pe_fd);
		result(false, name, "attach: %s", strerror(errno));
		goto out;
	}
	if (write(pfd[1], "x", 1) != 1)
		abort();
	close(pfd[1]);
	pfd[1] = -1;
	waitpid(pid, &status, 0);
	pid = 0;
	map = bpf_object__find_map_by_name(obj, map_name);
	value = calloc(1, bpf_map__value_size(map) > sizeof(*value) ?
			  bpf_map__value_size(map) : sizeof(*value));
	if (!map || !value)
		abort();
	for (k = 0; k < (int)bpf_map__max_entries(map); k++) {
		if (bpf_map__lookup_elem(map, &k, sizeof(k), value, bpf_map__value_size(map), 0))
			continue;
		if (strcmp(value->data, text)) {
			result(false, name, "%s[%d] = '%.20s', expected '%s'", map_name, k,
			       value->data, text);
			free(value);
			goto out;
		}
		found++;
	}
	free(value);
	if (!found)
		result(false, name, "no element of %s was written by the task_work callback",
		       map_name);
	else
		result(true, name, "%d elements of %s hold '%s' copied by the callback",
		       found, map_name, text);
out:
	bpf_link__destroy(link);
	bpf_object__close(obj);
	if (pfd[1] >= 0)
		close(pfd[1]);
	if (pid > 0)
		waitpid(pid, &status, 0);
}

/*
 * prog_tests/linked_list.c and rbtree.c: each program run once on a loaded
 * object returns 0 (their own checks); rbtree's add programs also report
 * that the less() callback ran.
 */
static void drive_run_all(const char *oname, const char *const *progs,
			  const char *const *flag_vars)
{
	char name[256];
	int i, retval, err;
	long long flag;	/* rbtree.c: long less_callback_ran */

	for (i = 0; progs[i]; i++) {
		struct bpf_object *obj;

		snprintf(name, sizeof(name), "%s/%s", oname, progs[i]);
		obj = open_load(oname, name);
		if (!obj)
			continue;
		err = run_prog(obj, progs[i], &retval);
		if (err || retval) {
			result(false, name, "test run: err %d retval %d, expected 0", err, retval);
		} else if (flag_vars && flag_vars[i] &&
			   (read_global(obj, ".data", flag_vars[i], &flag, sizeof(flag)) || flag != 1)) {
			result(false, name, "%s != 1", flag_vars[i]);
		} else {
			result(true, name, "retval 0%s%s%s", flag_vars && flag_vars[i] ? ", " : "",
			       flag_vars && flag_vars[i] ? flag_vars[i] : "",
			       flag_vars && flag_vars[i] ? " = 1" : "");
		}
		bpf_object__close(obj);
	}
}

/* ---- module and BTF checks -------------------------------------------- */

static int func_params(const struct btf *btf, const char *fn)
{
	int id = btf__find_by_name_kind(btf, fn, BTF_KIND_FUNC);
	const struct btf_type *t;

	if (id < 0)
		return -1;
	t = btf__type_by_id(btf, btf__type_by_id(btf, id)->type);
	return t && btf_is_func_proto(t) ? (int)btf_vlen(t) : -1;
}

/* seed 010: the migrated kfuncs have reduced prototypes, X_impl the full one */
static void check_btf(void)
{
	/*
	 * reduced = the parameters before the first implicit one; the _impl
	 * of the first four exists only in BTF (the transform adds it), the
	 * others' _impl are real legacy kernel functions (void *meta__ign).
	 */
	static const struct { const char *fn; int reduced, impl; } kf[] = {
		{ "bpf_wq_set_callback", 3, 4 },
		{ "bpf_stream_vprintk", 4, 5 },
		{ "bpf_task_work_schedule_signal", 4, 5 },
		{ "bpf_task_work_schedule_resume", 4, 5 },
		{ "bpf_obj_new", 1, 2 },
		{ "bpf_list_push_front", 2, 4 },
		{ "bpf_rbtree_add", 3, 5 },
#ifdef GUEST_KERNEL_7_2
		/* sched_ext: KF_IMPLICIT_ARGS, no legacy _impl in the source */
		{ "scx_bpf_dsq_insert", 4, 5 },
		{ "scx_bpf_create_dsq", 2, 3 },
		{ "scx_bpf_kick_cpu", 2, 3 },
#endif
	};
	struct btf *vmlinux = btf__parse("/sys/kernel/btf/vmlinux", NULL), *mod;
	char impl[128], name[160];
	size_t i;
	int n, m;

	if (!vmlinux) {
		result(false, "btf_vmlinux_parse", "%s", strerror(errno));
		return;
	}
	result(true, "btf_vmlinux_parse", "%u types", btf__type_cnt(vmlinux) - 1);
	for (i = 0; i < sizeof(kf) / sizeof(kf[0]); i++) {
		snprintf(impl, sizeof(impl), "%s_impl", kf[i].fn);
		snprintf(name, sizeof(name), "btf_vmlinux_%s", kf[i].fn);
		n = func_params(vmlinux, kf[i].fn);
		m = func_params(vmlinux, impl);
		result(n == kf[i].reduced && m == kf[i].impl, name, "%s: %d params, %s: %d",
		       kf[i].fn, n, impl, m);
	}
	mod = btf__parse_split("/sys/kernel/btf/bpf_testmod", vmlinux);
	if (!mod) {
		result(false, "btf_testmod_parse_split", "%s", strerror(errno));
	} else {
		n = func_params(mod, "bpf_kfunc_implicit_arg");
		m = func_params(mod, "bpf_kfunc_implicit_arg_impl");
		result(n == 1 && m == 2, "btf_testmod_implicit_arg",
		       "bpf_kfunc_implicit_arg: %d params, _impl: %d", n, m);
		btf__free(mod);
	}
	btf__free(vmlinux);
}

#ifdef GUEST_KERNEL_7_2
#define SCX_RUNNER	"/sched_ext/runner"
/* vmlinux's BTF from the same build without the adapter (ktest-7.2.sh) */
#define NO_ADAPTER_BTF	"/no-adapter/vmlinux.btf"
#define KERNEL_BTF	"/sys/kernel/btf/vmlinux"

/*
 * tools/testing/selftests/sched_ext's runner with OPT [ARG] ("-l"; "-t
 * FILTER": only the tests whose name has it), quiet; its stdout and stderr
 * on the returned stream; NULL (after a FAIL line named TEST) when it
 * cannot be started.
 */
static FILE *runner_start(const char *opt, const char *arg, const char *test, pid_t *pid)
{
	int pfd[2];

	if (pipe(pfd)) {
		result(false, test, "pipe: %s", strerror(errno));
		return NULL;
	}
	*pid = fork();
	if (*pid < 0) {
		result(false, test, "fork: %s", strerror(errno));
		close(pfd[0]);
		close(pfd[1]);
		return NULL;
	}
	if (*pid == 0) {
		dup2(pfd[1], 1);
		dup2(pfd[1], 2);
		close(pfd[0]);
		execl(SCX_RUNNER, SCX_RUNNER, "-q", opt, arg, (char *)NULL);
		_exit(127);
	}
	close(pfd[1]);
	return fdopen(pfd[0], "r");
}

/* the runner's exit status, -1 when it did not exit */
static int runner_wait(FILE *in, pid_t pid)
{
	int status;

	fclose(in);
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/*
 * The tests the runner lists (runner -l), one runner process each
 * ("-t NAME"). A test that fails may end its process (rt_stall calls
 * ksft_exit_fail()) or leave its scheduler attached: in a process of its
 * own it takes no other test with it. "-t" matches every name containing
 * it, so a process may run later tests too (select_cpu_dfl runs
 * select_cpu_dfl_nodispatch): their results are kept and they are not run
 * again.
 */
#define SCX_MAX_TESTS	64

enum scx_state { SCX_NOT_RUN, SCX_OK, SCX_SKIPPED, SCX_NOT_OK };

static struct {
	char name[256];
	enum scx_state state;
	/* rt_stall's measured shares, "FAIR 4.99%, EXT 5.19%, ..." */
	char shares[256];
} scx[SCX_MAX_TESTS];
static int nscx;

/*
 * The one test run again when it fails, because its outcome depends on
 * timing TCG stretches (kernel/README.md, "sched_ext"): every attempt is
 * printed, and it passes only when an attempt passes.
 */
#define RETRIED_TEST		"rt_stall"
#define RETRIED_ATTEMPTS	3

static int scx_find(const char *name)
{
	for (int i = 0; i < nscx; i++)
		if (!strcmp(scx[i].name, name))
			return i;
	return -1;
}

/* scx[] from "runner -l"; the number of tests, -1 on error */
static int scx_list(void)
{
	char line[256];
	FILE *in;
	pid_t pid;

	in = runner_start("-l", NULL, "sched_ext_runner", &pid);
	if (!in)
		return -1;
	while (fgets(line, sizeof(line), in) && nscx < SCX_MAX_TESTS) {
		line[strcspn(line, "\n")] = 0;
		if (line[0])
			snprintf(scx[nscx++].name, sizeof(scx[0].name), "%s", line);
	}
	return runner_wait(in, pid) == 0 ? nscx : -1;
}

/*
 * One runner process for "-t FILTER": the outcome of every test it ran in
 * scx[], its output to the console. A test it started and did not report
 * ended the process: not ok.
 */
static void scx_run(const char *filter)
{
	char line[4096], name[256], directive[64], cls[16], pct[16];
	int cur = -1, t;
	unsigned int num;
	FILE *in;
	pid_t pid;

	in = runner_start("-t", filter, "sched_ext_runner", &pid);
	if (!in)
		return;
	while (fgets(line, sizeof(line), in)) {
		bool ok = !strncmp(line, "ok ", 3);

		printf("  scx| %s", line);
		if (sscanf(line, "TEST: %255s", name) == 1) {
			cur = scx_find(name);
			if (cur >= 0)
				scx[cur].shares[0] = 0;
			continue;
		}
		if (cur >= 0 && sscanf(line, "# %15s task got %15[0-9.]%% of total runtime", cls, pct) == 2) {
			size_t len = strlen(scx[cur].shares);

			snprintf(scx[cur].shares + len, sizeof(scx[cur].shares) - len, "%s%s %s%%",
				 len ? ", " : "", cls, pct);
			continue;
		}
		/* the runner's own lines have " # " (rt_stall prints "ok 1 PASS: ...") */
		directive[0] = 0;
		if (!strstr(line, " # "))
			continue;
		if ((ok && sscanf(line, "ok %u %255s # %63s", &num, name, directive) >= 2) ||
		    (!ok && sscanf(line, "not ok %u %255s", &num, name) == 2)) {
			t = scx_find(name);
			if (t < 0)
				continue;
			scx[t].state = !ok ? SCX_NOT_OK : !strcmp(directive, "SKIP") ? SCX_SKIPPED : SCX_OK;
			if (t == cur)
				cur = -1;
		}
	}
	runner_wait(in, pid);
	if (cur >= 0) {
		printf("  scx| (the runner exited during %s)\n", scx[cur].name);
		scx[cur].state = SCX_NOT_OK;
	}
}

static void run_sched_ext(void)
{
	int i, attempt, reported = 0;

	/* total_bw reads the deadline servers in /sys/kernel/debug/sched/ (or skips) */
	if (mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL))
		result(false, "sched_ext_debugfs", "mount debugfs on /sys/kernel/debug: %s",
		       strerror(errno));
	if (scx_list() <= 0) {
		result(false, "sched_ext_runner", "runner -l listed no test");
		return;
	}
	for (i = 0; i < nscx; i++) {
		bool retried = !strcmp(scx[i].name, RETRIED_TEST);
		int max = retried ? RETRIED_ATTEMPTS : 1;
		char full[300];

		snprintf(full, sizeof(full), "sched_ext/%s", scx[i].name);
		/* a test an earlier filter ran has had its first attempt */
		attempt = scx[i].state == SCX_NOT_RUN ? 0 : 1;
		while (attempt < max &&
		       (scx[i].state == SCX_NOT_RUN || (retried && scx[i].state == SCX_NOT_OK))) {
			if (attempt > 0)
				printf("INFO %s attempt %d of %d: %s (%s), run again (kernel/README.md)\n",
				       full, attempt, max,
				       scx[i].state == SCX_NOT_OK ? "not ok" : "no result",
				       scx[i].shares[0] ? scx[i].shares : "no share measured");
			scx[i].state = SCX_NOT_RUN;
			scx_run(scx[i].name);
			attempt++;
		}
		switch (scx[i].state) {
		case SCX_SKIPPED:
			printf("SKIP %s: skipped by the test itself (scx| lines above)\n", full);
			break;
		case SCX_NOT_RUN:
			result(false, full, "the runner reported no result");
			continue;
		default:
			if (retried)
				result(scx[i].state == SCX_OK, full, "test %d of %d, attempt %d of %d: %s",
				       i + 1, nscx, attempt, max,
				       scx[i].shares[0] ? scx[i].shares : "no share measured");
			else
				result(scx[i].state == SCX_OK, full, "test %d of %d", i + 1, nscx);
		}
		reported++;
	}
	result(reported == nscx, "sched_ext_runner", "%d tests listed by runner -l, %d reported, "
	       "one runner process each", nscx, reported);
}

/*
 * The negative control at run time: vmlinux's BTF as the same build gives
 * it without the adapter, bind-mounted where libbpf reads the kernel's BTF,
 * and the runner's create_dsq test, whose scheduler calls the
 * KF_IMPLICIT_ARGS kfunc scx_bpf_create_dsq. libbpf must refuse it with the
 * message sched_ext users get on a 7.2 built with pahole < 1.26.
 */
static void run_sched_ext_without_adapter(void)
{
	static const char test[] = "negative_sched_ext_create_dsq_without_adapter";
	char line[4096], refusal[512] = "";
	bool failed = false;
	int status = -1;
	FILE *in;
	pid_t pid;

	if (mount(NO_ADAPTER_BTF, KERNEL_BTF, NULL, MS_BIND, NULL)) {
		result(false, test, "bind mount %s on %s: %s", NO_ADAPTER_BTF, KERNEL_BTF,
		       strerror(errno));
		return;
	}
	in = runner_start("-t", "create_dsq", test, &pid);
	if (in) {
		while (fgets(line, sizeof(line), in)) {
			printf("  scx-no-adapter| %s", line);
			if (!refusal[0] && strstr(line, "'scx_bpf_create_dsq': func_proto") &&
			    strstr(line, "incompatible with vmlinux"))
				snprintf(refusal, sizeof(refusal), "%.*s", (int)strcspn(line, "\n"),
					 line);
			failed |= !strncmp(line, "not ok ", 7);
		}
		status = runner_wait(in, pid);
	}
	if (umount(KERNEL_BTF))
		result(false, test, "umount %s: %s", KERNEL_BTF, strerror(errno));
	if (!in)
		return;
	if (refusal[0] && failed)
		result(true, test, "vmlinux BTF built without the adapter: %s; runner: not ok, exit %d",
		       refusal, status);
	else
		result(false, test, "vmlinux BTF built without the adapter: %s, %s, exit %d",
		       refusal[0] ? refusal : "no func_proto refusal of scx_bpf_create_dsq",
		       failed ? "not ok" : "no \"not ok\" line", status);
}
#endif

/* the shared checks' results (guest.h), reported as every other test */
#ifdef GUEST_KERNEL_7_2
/* the first line of a sysfs file, "" when it cannot be read */
static void read_sysfs(const char *path, char *buf, size_t sz)
{
	FILE *f = fopen(path, "r");

	buf[0] = 0;
	if (f) {
		if (!fgets(buf, sz, f))
			buf[0] = 0;
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = 0;
}

/* wait up to 5 s for /sys/kernel/sched_ext/state to read want */
static bool scx_state_is(const char *want, char *state, size_t sz)
{
	for (int tries = 0; tries < 500; tries++) {
		read_sysfs("/sys/kernel/sched_ext/state", state, sz);
		if (!strcmp(state, want))
			return true;
		usleep(10000);
	}
	return false;
}

/*
 * kernel/guest/7.2/kdecl/scx_kfunc_decl.c, whose kfunc declarations come
 * from btf2btf --kfuncs --format=c: it loads, attaches as the system's
 * scheduler, tasks run through it (its enqueue and dispatch callbacks call
 * the kfuncs), and it detaches.
 */
static void run_kfunc_decl_scx(void)
{
	static const char *name = "kfunc_decl/sched_ext";
	struct bpf_object *obj = open_load("scx_kfunc_decl", (char *)name);
	struct bpf_link *link = NULL;
	char state[64], ops[64];
	__u64 enq = 0, disp = 0;
	__s32 created = 1;
	struct bpf_map *map;

	if (!obj)
		return;
	result(true, "kfunc_decl/sched_ext_load", "scx_kfunc_decl.bpf.o loaded (verifier accepted "
	       "scx_bpf_create_dsq, scx_bpf_dsq_insert, scx_bpf_dsq_move_to_local)");
	map = bpf_object__find_map_by_name(obj, "kdecl_ops");
	link = map ? bpf_map__attach_struct_ops(map) : NULL;
	if (!link) {
		result(false, name, "attach kdecl_ops: %s", strerror(errno));
		goto out;
	}
	if (!scx_state_is("enabled", state, sizeof(state))) {
		result(false, name, "sched_ext state '%s' after attaching, expected enabled", state);
		goto out;
	}
	read_sysfs("/sys/kernel/sched_ext/root/ops", ops, sizeof(ops));
	usleep(500000);		/* the guest's tasks go through it */
	read_global(obj, ".bss", "nr_enqueued", &enq, sizeof(enq));
	read_global(obj, ".bss", "nr_dispatched", &disp, sizeof(disp));
	read_global(obj, ".data", "create_dsq_ret", &created, sizeof(created));
	bpf_link__destroy(link);
	link = NULL;
	if (!scx_state_is("disabled", state, sizeof(state))) {
		result(false, name, "sched_ext state '%s' after detaching, expected disabled", state);
		goto out;
	}
	result(!strcmp(ops, "kfunc_decl") && created == 0 && enq > 0 && disp > 0, name,
	       "ops '%s' enabled and detached; scx_bpf_create_dsq() = %d, %llu tasks enqueued "
	       "with scx_bpf_dsq_insert, %llu dispatched with scx_bpf_dsq_move_to_local",
	       ops, created, (unsigned long long)enq, (unsigned long long)disp);
out:
	bpf_link__destroy(link);
	bpf_object__close(obj);
}
#endif

static void report(bool ok, const char *name, const char *why)
{
	result(ok, name, "%s", why);
}

int main(void)
{
	static const char *const linked_list_progs[] = {
		"map_list_push_pop", "inner_map_list_push_pop", "global_list_push_pop",
		"global_list_push_pop_nested", "global_list_array_push_pop",
		"map_list_push_pop_multiple", "inner_map_list_push_pop_multiple",
		"global_list_push_pop_multiple", "map_list_in_list",
		"inner_map_list_in_list", "global_list_in_list", NULL,
	};
	static const char *const rbtree_progs[] = {
		"rbtree_add_nodes", "rbtree_add_nodes_nested", "rbtree_add_and_remove",
		"rbtree_add_and_remove_array", "rbtree_first_and_remove",
		"rbtree_api_release_aliasing", NULL,
	};
	static const char *const rbtree_flags[] = {
		"less_callback_ran", "less_callback_ran", NULL, NULL, NULL, NULL, NULL,
	};
	/* RUN_TESTS() objects, in the order prog_tests/ runs them */
	static const char *const annotated[] = {
		"kfunc_implicit_args", "wq", "wq_failures", "stream", "stream_fail",
		"task_work_fail", "rbtree_fail", "refcounted_kptr", "verifier_arena",
#ifndef GUEST_KERNEL_7_2
		"arena_kfunc", "kfunc_decl",
#endif
		"impl_refused", NULL,
	};
	int i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	libbpf_set_print(print_libbpf);
	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
#ifdef GUEST_KERNEL_7_2
	printf("INFO 7.2 guest (kernel built with the pahole adapter): upstream selftest objects from %s\n",
	       PROGS_DIR);
#else
	printf("INFO 7.3 guest: upstream selftest objects from %s\n", PROGS_DIR);
#endif

	guest_load_testmod(report);
	check_btf();
	for (i = 0; annotated[i]; i++)
		run_tests(annotated[i]);
	drive_tracing();
	drive_wq("wq/test_syscall_array_sleepable callback", "wq",
		 "test_syscall_array_sleepable", "ok_sleepable", 1 << 1);
#ifndef GUEST_KERNEL_7_2
	/* declared by btf2btf --kfuncs --format=c (kernel/guest/7.3/kdecl) */
	drive_wq("kfunc_decl/kdecl_wq_set_callback callback", "kfunc_decl",
		 "kdecl_wq_set_callback", "wq_ran", 1);
#endif
	drive_task_work("oncpu_hash_map", "hmap");
	drive_task_work("oncpu_array_map", "arrmap");
	drive_task_work("oncpu_lru_map", "lrumap");
	drive_run_all("linked_list", linked_list_progs, NULL);
	drive_run_all("rbtree", rbtree_progs, rbtree_flags);
#ifdef GUEST_KERNEL_7_2
	run_sched_ext();
	run_sched_ext_without_adapter();
	run_kfunc_decl_scx();
#else
	/* the corpus --check-prog is judged on (kernel/scripts/check-prog-guest.sh) */
	progload_run("/progmode", report);
#endif
	btf_accept_run("/btf-accept", report);
	guest_check_dmesg(report);

	if (xfailed)
		printf("INFO %d known-flaky test(s) failed (INFO XFAIL lines above)\n", xfailed);
	printf("%d passed, %d failed\n", passed, failed);
	fflush(stdout);
	sync();
	reboot(RB_AUTOBOOT);
	return 0;
}
