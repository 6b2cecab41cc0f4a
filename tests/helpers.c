// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <bpf/btf.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helpers.h"

static char tmpdir[256];
char th_log_errors[8192];
unsigned int th_log_error_count;

const char *th_tmpdir(void)
{
	if (!tmpdir[0]) {
		const char *base = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";

		snprintf(tmpdir, sizeof(tmpdir), "%s/btf2btf-test.XXXXXX", base);
		assert_non_null(mkdtemp(tmpdir));
	}
	return tmpdir;
}

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st; (void)flag; (void)ftw;
	return remove(p);
}

void th_cleanup(void)
{
	if (tmpdir[0]) {
		chmod(tmpdir, 0700);
		nftw(tmpdir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	}
	tmpdir[0] = 0;
}

const char *th_path(const char *name)
{
	static char bufs[8][4096];
	static int n;
	char *b = bufs[n++ % 8];

	snprintf(b, 4096, "%s/%s", th_tmpdir(), name);
	return b;
}

const char *th_fixture(const char *name)
{
	static char bufs[8][4096];
	static int n;
	const char *dir = getenv("FIXTURE_DIR");
	char *b = bufs[n++ % 8];

	if (!dir)
		fail_msg("FIXTURE_DIR is not set: run the tests through `make check`");
	snprintf(b, 4096, "%s/%s", dir, name);
	if (access(b, R_OK))
		fail_msg("fixture %s is missing: `make fixtures` builds it", b);
	return b;
}

void th_copy(const char *from, const char *to)
{
	size_t size;
	void *data = th_read(from, &size);
	FILE *f = fopen(to, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, size, f), size);
	assert_int_equal(fclose(f), 0);
	free(data);
}

const char *th_copy_fixture(const char *name, const char *as)
{
	const char *dst = th_path(as ? as : name);

	th_copy(th_fixture(name), dst);
	return dst;
}

static char *slurp_fd(int fd)
{
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap);
	ssize_t n;

	assert_non_null(buf);
	while ((n = read(fd, buf + len, cap - len - 1)) > 0) {
		len += n;
		if (cap - len < 2) {
			cap *= 2;
			buf = realloc(buf, cap);
			assert_non_null(buf);
		}
	}
	buf[len] = 0;
	return buf;
}

static const char *cli_path(void)
{
	const char *p = getenv("BTF2BTF");

	if (!p)
		fail_msg("BTF2BTF is not set: run the tests through `make check`");
	return p;
}

static void run_argv(struct run *r, char *const *argv)
{
	char out_tmpl[4096], err_tmpl[4096];
	int ofd, efd, st;
	pid_t pid;

	snprintf(out_tmpl, sizeof(out_tmpl), "%s/.out.XXXXXX", th_tmpdir());
	snprintf(err_tmpl, sizeof(err_tmpl), "%s/.err.XXXXXX", th_tmpdir());
	ofd = mkstemp(out_tmpl);
	efd = mkstemp(err_tmpl);
	assert_true(ofd >= 0 && efd >= 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		dup2(ofd, 1);
		dup2(efd, 2);
		execvp(argv[0], argv);
		_exit(127);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	lseek(ofd, 0, SEEK_SET);
	lseek(efd, 0, SEEK_SET);
	r->out = slurp_fd(ofd);
	r->err = slurp_fd(efd);
	close(ofd);
	close(efd);
	unlink(out_tmpl);
	unlink(err_tmpl);
}

const char *th_cli(void)
{
	return cli_path();
}

/*
 * BTF2BTF_WRAPPER="valgrind --error-exitcode=1 ...": words run in front of
 * the CLI (make check-valgrind). Split on blanks, no quoting.
 */
static int wrapper_words(const char **v, int max, char *buf, size_t size)
{
	const char *w = getenv("BTF2BTF_WRAPPER");
	int n = 0;

	if (!w || !*w)
		return 0;
	snprintf(buf, size, "%s", w);
	for (char *tok = strtok(buf, " \t"); tok && n < max; tok = strtok(NULL, " \t"))
		v[n++] = tok;
	return n;
}

void th_run(struct run *r, const char *const *argv)
{
	static char wbuf[1024];
	const char *v[96];
	int i, n = 0;

	if (!strcmp(argv[0], "btf2btf")) {
		n = wrapper_words(v, 30, wbuf, sizeof(wbuf));
		v[n++] = cli_path();
		argv++;
	}
	for (i = 0; argv[i] && n < 94; i++)
		v[n++] = argv[i];
	v[n] = NULL;
	run_argv(r, (char *const *)v);
}

void th_sh(struct run *r, const char *fmt, ...)
{
	char cmd[8192];
	va_list ap;
	const char *v[] = { "sh", "-c", cmd, NULL };

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	run_argv(r, (char *const *)v);
}

void th_run_free(struct run *r)
{
	free(r->out);
	free(r->err);
	r->out = r->err = NULL;
}

void th_require_tool(const char *tool)
{
	struct run r;

	th_sh(&r, "command -v %s", tool);
	if (r.status)
		fail_msg("required tool '%s' is not installed (.ci/run installs it)", tool);
	th_run_free(&r);
}

void *th_read(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		fail_msg("cannot open %s: %s", path, strerror(errno));
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc(n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, n, f), (size_t)n);
	fclose(f);
	buf[n] = 0;
	*size = n;
	return buf;
}

int th_each_file(const char *dir, void (*fn)(const char *path, uint8_t *data, size_t size, void *ctx),
		 void *ctx)
{
	struct dirent *de;
	char path[4096];
	int n = 0;
	DIR *d = opendir(dir);

	if (!d)
		fail_msg("cannot open %s: %s", dir, strerror(errno));
	while ((de = readdir(d))) {
		struct stat st;
		size_t size;
		uint8_t *data;

		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		/* (a directory such as the fixture builder's obj/ is not one) */
		if (de->d_name[0] == '.' || stat(path, &st) || !S_ISREG(st.st_mode))
			continue;
		data = th_read(path, &size);
		fn(path, data, size, ctx);
		free(data);
		n++;
	}
	closedir(d);
	return n;
}

bool th_same_file(const char *a, const char *b)
{
	size_t sa, sb;
	void *da = th_read(a, &sa), *db = th_read(b, &sb);
	bool same = sa == sb && !memcmp(da, db, sa);

	free(da);
	free(db);
	return same;
}

void th_assert_raw_written(struct btf2btf *b, const char *path, size_t *size)
{
	size_t raw_size, file_size;
	const void *raw;
	void *file;

	assert_int_equal(btf2btf__raw_btf(b, &raw, &raw_size), 0);
	file = th_read(path, &file_size);
	assert_int_equal(file_size, raw_size);
	assert_memory_equal(file, raw, raw_size);
	free(file);
	if (size)
		*size = raw_size;
}

size_t th_count_lines(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

void th_log_reset(void)
{
	th_log_errors[0] = 0;
	th_log_error_count = 0;
}

void th_log_cb(enum btf2btf_log_level level, const char *msg, void *ctx)
{
	size_t len = strlen(th_log_errors);

	(void)ctx;
	if (level != BTF2BTF_LOG_ERROR)
		return;
	th_log_error_count++;
	snprintf(th_log_errors + len, sizeof(th_log_errors) - len, "%s%s", len ? "\n" : "", msg);
}

const struct btf2btf_kfunc *th_kfunc_or_null(const struct btf2btf *b, const char *name)
{
	for (size_t i = 0; i < btf2btf__kfunc_cnt(b); i++)
		if (!strcmp(btf2btf__kfunc(b, i)->name, name))
			return btf2btf__kfunc(b, i);
	return NULL;
}

const struct btf2btf_kfunc *th_kfunc(const struct btf2btf *b, const char *name)
{
	const struct btf2btf_kfunc *k = th_kfunc_or_null(b, name);

	if (!k)
		fail_msg("no kfunc %s", name);
	return k;
}

struct btf2btf *th_open(const char *path, const struct btf2btf_opts *opts)
{
	BTF2BTF_OPTS(o, .log = th_log_cb);
	struct btf2btf *b = NULL;
	int err;

	if (opts)
		o = *opts;
	if (!o.log)
		o.log = th_log_cb;
	th_log_reset();
	err = btf2btf__open(path, &o, &b);
	if (err)
		fail_msg("btf2btf__open(%s): %d: %s", path, err, th_log_errors);
	return b;
}

int th_find(const struct btf *btf, const char *name, int kind)
{
	int id = btf__find_by_name_kind(btf, name, kind);

	if (id <= 0)
		fail_msg("no type %s of kind %d", name, kind);
	return id;
}

void th_skip(const char *reason)
{
	const char *strict = getenv("BTF2BTF_NO_SKIP");

	if (strict && *strict)
		fail_msg("would skip (%s), but BTF2BTF_NO_SKIP is set: a skip is a failure", reason);
	printf("SKIP: %s\n", reason);
	fflush(stdout);
	skip();
}

struct btf *th_sys_vmlinux(void)
{
	struct btf *btf;

	if (access(TH_SYS_VMLINUX, F_OK))
		th_skip("no " TH_SYS_VMLINUX);
	btf = btf__parse(TH_SYS_VMLINUX, NULL);
	if (!btf)
		fail_msg("libbpf cannot parse %s: %s", TH_SYS_VMLINUX, strerror(errno));
	return btf;
}

struct btf *th_parse(const char *path, const struct btf *base)
{
	struct btf *btf;

	btf = base ? btf__parse_split(path, (struct btf *)base) : btf__parse(path, NULL);
	if (!btf)
		fail_msg("libbpf cannot parse %s: %s", path, strerror(errno));
	return btf;
}
