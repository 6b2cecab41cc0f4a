// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The guest's libbpf on a corpus of BPF objects (progload.h): each object
 * opened and loaded whole with bpf_object__load(), as a program's loader
 * would, and what libbpf said about it reduced to PROGLOAD lines. libbpf
 * resolves every kfunc and __ksym extern before it creates a map or loads a
 * program, in its own order (by name), and stops at the first strong one
 * it cannot resolve; its debug messages name each one it resolved ("extern
 * (func ksym) 'X': resolved to vmlinux [N]"; 1.1.2: "resolved to kernel");
 * a weak extern left at 0 gets no message. Past the externs, the verifier's
 * log of the first program it refuses says whether a kfunc call was the
 * reason ("calling kernel function X is not allowed", "cannot find address
 * for kernel function X").
 *
 * Builds with Debian 12's libbpf 1.1.2 (the 6.12 guest) and the 7.3
 * tree's (the 7.3 guest): only API both have.
 */
#define _GNU_SOURCE
#include "progload.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#define LINE_MAX_SHOWN	200

/* What libbpf said while one object loaded. */
static struct {
	const char *obj;
	char failed_extern[128];	/* the first extern a warning named */
	char failed_prog[128];		/* "prog 'P': BPF program load failed" */
	char kfunc[128];		/* the kfunc the verifier refused */
	char weak_kfunc[128];		/* a weak kfunc at 0 the program calls */
	char verifier_line[LINE_MAX_SHOWN + 1];
	char first_warn[LINE_MAX_SHOWN + 1];
	bool in_log;			/* between BEGIN and END PROG LOAD LOG */
} st;

static void copy_line(char *dst, size_t size, const char *src)
{
	size_t n = strcspn(src, "\n");

	if (n >= size)
		n = size - 1;
	memcpy(dst, src, n);
	dst[n] = 0;
}

/* "extern (func ksym) 'NAME': REST": NAME's kind, and REST */
static bool parse_extern(const char *msg, char *name, size_t size, const char **kind,
			 const char **rest)
{
	const char *p = strstr(msg, "extern ("), *q, *end;

	if (!p)
		return false;
	p += strlen("extern (");
	if (!strncmp(p, "func ksym) '", 12))
		*kind = "func";
	else if (!strncmp(p, "var ksym) '", 11))
		*kind = "var";
	else
		return false;	/* kcfg and untyped ksyms: not --check-prog's */
	q = strchr(p, '\'') + 1;
	end = strstr(q, "': ");
	if (!end || (size_t)(end - q) >= size)
		return false;
	memcpy(name, q, end - q);
	name[end - q] = 0;
	*rest = end + 3;
	return true;
}

/* the verifier's reason in a program's log: a kfunc refusal, else its last
 * line that is not the statistics */
static void scan_log(const char *log)
{
	static const char *const refusals[] = {
		"calling kernel function ", "cannot find address for kernel function ",
	};
	char line[LINE_MAX_SHOWN + 1];
	const char *p, *next, *r;

	for (p = log; *p; p = next) {
		next = p + strcspn(p, "\n");
		copy_line(line, sizeof(line), p);
		if (*next)
			next++;
		if (strstr(line, "-- END PROG LOAD LOG --")) {
			st.in_log = false;
			return;
		}
		for (size_t i = 0; i < sizeof(refusals) / sizeof(refusals[0]) && !st.kfunc[0]; i++) {
			r = strstr(line, refusals[i]);
			if (r) {
				r += strlen(refusals[i]);
				snprintf(st.kfunc, sizeof(st.kfunc), "%.*s", (int)strcspn(r, " "), r);
				snprintf(st.verifier_line, sizeof(st.verifier_line), "%s", line);
			}
		}
		/* libbpf's own line (since 1.3) for a call of a weak kfunc it
		 * left at 0, in the place of the verifier's */
		if (!st.kfunc[0] && !strncmp(line, "kfunc '", 7) &&
		    strstr(line, "' is referenced but wasn't resolved")) {
			snprintf(st.weak_kfunc, sizeof(st.weak_kfunc), "%.*s",
				 (int)strcspn(line + 7, "'"), line + 7);
			snprintf(st.verifier_line, sizeof(st.verifier_line), "%s", line);
		}
		if (!st.kfunc[0] && !st.weak_kfunc[0] && line[0] && strncmp(line, "processed ", 10) &&
		    strncmp(line, "verification time", 17))
			snprintf(st.verifier_line, sizeof(st.verifier_line), "%s", line);
	}
}

static int progload_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char *msg, name[128];
	const char *kind, *rest, *p;

	if (vasprintf(&msg, fmt, ap) < 0)
		return 0;
	if (st.in_log) {
		scan_log(msg);
	} else if ((p = strstr(msg, "extern '")) && strstr(p, "' (weak): not resolved, defaulting to zero")) {
		p += strlen("extern '");
		printf("PROGLOAD %s extern %.*s zero\n", st.obj, (int)strcspn(p, "'"), p);
	} else if (parse_extern(msg, name, sizeof(name), &kind, &rest)) {
		if (!strncmp(rest, "resolved to ", 12)) {
			char where[64] = "btf";

			/* func: "resolved to vmlinux [N]" (1.1.2: "kernel [N]") */
			if (!strcmp(kind, "func"))
				sscanf(rest + 12, "%63s", where);
			printf("PROGLOAD %s extern %s resolved %s\n", st.obj, name, where);
		} else if (level == LIBBPF_WARN) {
			printf("PROGLOAD %s extern %s failed %.*s\n", st.obj, name,
			       (int)strcspn(rest, "\n"), rest);
			if (!st.failed_extern[0])
				snprintf(st.failed_extern, sizeof(st.failed_extern), "%s", name);
		}
	} else if (level == LIBBPF_WARN) {
		if (!st.failed_prog[0] && (p = strstr(msg, "prog '")) &&
		    strstr(msg, "': BPF program load failed")) {
			p += strlen("prog '");
			snprintf(st.failed_prog, sizeof(st.failed_prog), "%.*s",
				 (int)strcspn(p, "'"), p);
		}
		if ((p = strstr(msg, "-- BEGIN PROG LOAD LOG --"))) {
			/* the log of the first program refused only */
			st.in_log = !st.verifier_line[0];
			if (st.in_log)
				scan_log(p + strlen("-- BEGIN PROG LOAD LOG --"));
		}
		if (!st.first_warn[0])
			copy_line(st.first_warn, sizeof(st.first_warn),
				  strncmp(msg, "libbpf: ", 8) ? msg : msg + 8);
	}
	free(msg);
	return 0;
}

static void load_one(const char *dir, const char *rel)
{
	char path[4096];
	struct bpf_object *obj;
	int err;

	memset(&st, 0, sizeof(st));
	st.obj = rel;
	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	obj = bpf_object__open_file(path, NULL);
	if (!obj) {
		printf("PROGLOAD %s result open %d %s\n", rel, errno, st.first_warn);
		return;
	}
	err = bpf_object__load(obj);
	if (!err)
		printf("PROGLOAD %s result loaded\n", rel);
	else if (st.failed_extern[0])
		printf("PROGLOAD %s result extern %s\n", rel, st.failed_extern);
	else if (st.failed_prog[0] && st.kfunc[0])
		printf("PROGLOAD %s result verifier %s kfunc %s %s\n", rel, st.failed_prog, st.kfunc,
		       st.verifier_line);
	else if (st.failed_prog[0] && st.weak_kfunc[0])
		printf("PROGLOAD %s result verifier %s weak %s %s\n", rel, st.failed_prog,
		       st.weak_kfunc, st.verifier_line);
	else if (st.failed_prog[0])
		printf("PROGLOAD %s result verifier %s other %s\n", rel, st.failed_prog,
		       st.verifier_line[0] ? st.verifier_line : "(no log)");
	else
		printf("PROGLOAD %s result error %d %s\n", rel, -err, st.first_warn);
	bpf_object__close(obj);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool is_obj(const char *name)
{
	size_t n = strlen(name);

	return n > 2 && !strcmp(name + n - 2, ".o");
}

/* the objects under dir and one level of subdirectories, sorted */
static int list_objs(const char *dir, char ***out)
{
	char **v = NULL, sub[4096];
	size_t n = 0;
	DIR *d = opendir(dir), *d2;
	struct dirent *e, *e2;
	struct stat s;

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", dir, e->d_name);
		if (stat(sub, &s))
			continue;
		if (S_ISREG(s.st_mode) && is_obj(e->d_name)) {
			v = realloc(v, (n + 1) * sizeof(*v));
			v[n++] = strdup(e->d_name);
		} else if (S_ISDIR(s.st_mode) && (d2 = opendir(sub))) {
			while ((e2 = readdir(d2)))
				if (e2->d_name[0] != '.' && is_obj(e2->d_name)) {
					v = realloc(v, (n + 1) * sizeof(*v));
					if (asprintf(&v[n], "%s/%s", e->d_name, e2->d_name) > 0)
						n++;
				}
			closedir(d2);
		}
	}
	closedir(d);
	qsort(v, n, sizeof(*v), cmp_str);
	*out = v;
	return (int)n;
}

void progload_run(const char *dir, progload_report_fn report)
{
	char **objs, why[200];
	int n = list_objs(dir, &objs), status, i;
	struct timespec t0, t1;
	pid_t pid;

	if (n <= 0) {
		snprintf(why, sizeof(why), "no BPF object under %s", dir);
		report(false, "progload", why);
		return;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		libbpf_set_print(progload_print);
		for (i = 0; i < n; i++) {
			load_one(dir, objs[i]);
			fflush(stdout);
		}
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid) {
		snprintf(why, sizeof(why), "fork/wait: %s", strerror(errno));
		report(false, "progload", why);
	} else if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		snprintf(why, sizeof(why), "the loading process ended with status 0x%x", status);
		report(false, "progload", why);
	} else {
		clock_gettime(CLOCK_MONOTONIC, &t1);
		snprintf(why, sizeof(why), "%d objects under %s loaded by libbpf %u.%u in %.1f s"
			 " (PROGLOAD lines; the host compares them with btf2btf --check-prog)", n,
			 dir, libbpf_major_version(), libbpf_minor_version(),
			 (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
		report(true, "progload", why);
	}
	for (i = 0; i < n; i++)
		free(objs[i]);
	free(objs);
}
