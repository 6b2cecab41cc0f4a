// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * BPF_BTF_LOAD of every object of a set (see btf_accept.h). Raw bpf(2), no
 * libbpf: the same file serves the guests linked with Debian's libbpf, with
 * 7.3's, and the s390x guest, which has none.
 */
#include "btf_accept.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define ACCEPT_LOG_SZ	(4 << 20)
#define MAX_KEYS	16

static char accept_log[ACCEPT_LOG_SZ];

/* refusals counted by the kernel's message */
struct msg_counts {
	int n;
	struct {
		char msg[160];
		int count;
	} keys[MAX_KEYS];
};

struct set_result {
	int objects, accepted, refused, unexpected, input_refused;
	struct msg_counts msgs, input_msgs;
	char first_bad[256];
};

static void *slurp(const char *path, size_t *size)
{
	struct stat st;
	char *buf;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || !(buf = malloc(st.st_size + 1))) {
		close(fd);
		return NULL;
	}
	/* sysfs (/sys/kernel/btf/vmlinux) hands a file out in pieces */
	for (*size = 0; *size < (size_t)st.st_size;) {
		ssize_t n = read(fd, buf + *size, st.st_size - *size);

		if (n <= 0) {
			free(buf);
			close(fd);
			return NULL;
		}
		*size += n;
	}
	close(fd);
	buf[*size] = '\0';
	return buf;
}

/* fd of the loaded BTF, or -errno; with LOG, the kernel's log in accept_log */
static int btf_load(const void *data, size_t size, bool log)
{
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.btf = (uintptr_t)data;
	attr.btf_size = size;
	if (log) {
		accept_log[0] = '\0';
		attr.btf_log_buf = (uintptr_t)accept_log;
		attr.btf_log_size = sizeof(accept_log);
		attr.btf_log_level = 1;
	}
	fd = syscall(__NR_bpf, BPF_BTF_LOAD, &attr, sizeof(attr));
	return fd < 0 ? -errno : fd;
}

/* the last non-empty line of the log */
static void last_line(char *out, size_t n)
{
	size_t len = strnlen(accept_log, sizeof(accept_log));
	const char *end, *start;

	while (len && (accept_log[len - 1] == '\n' || accept_log[len - 1] == ' '))
		len--;
	end = accept_log + len;
	start = end;
	while (start > accept_log && start[-1] != '\n')
		start--;
	snprintf(out, n, "%.*s", (int)(end - start), start);
}

/*
 * What the message says without the type it names: the kernel writes
 * "[ID] KIND NAME field=value ... message"; keep what follows the last
 * "field=value" word (the whole line when there is none).
 */
static const char *message_key(const char *line)
{
	const char *key = line, *p = line;

	while ((p = strchr(p, '='))) {
		const char *sp = strchr(p, ' ');

		if (!sp)
			break;
		key = sp + 1;
		p = sp;
	}
	return key;
}

static void count_key(struct msg_counts *c, const char *line)
{
	const char *key = message_key(line);
	int i;

	for (i = 0; i < c->n; i++)
		if (!strncmp(c->keys[i].msg, key, sizeof(c->keys[i].msg) - 1))
			break;
	if (i == c->n) {
		if (c->n == MAX_KEYS)
			i = MAX_KEYS - 1;	/* the rest counted with the last */
		else
			snprintf(c->keys[c->n++].msg, sizeof(c->keys[0].msg), "%.159s", key);
	}
	c->keys[i].count++;
}

/* append ": N \"msg\", ..." to OUT (of SIZE, OFF used) */
static size_t print_counts(char *out, size_t size, size_t off, const struct msg_counts *c)
{
	for (int i = 0; i < c->n && off < size; i++)
		off += snprintf(out + off, size - off, "%s %d \"%s\"", i ? "," : ":",
				c->keys[i].count, c->keys[i].msg);
	return off;
}

static void print_base64(const char *tag, const unsigned char *p, size_t n)
{
	static const char tab[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	char line[80];
	size_t i, o = 0;

	for (i = 0; i < n; i += 3) {
		uint32_t v = p[i] << 16 | (i + 1 < n ? p[i + 1] << 8 : 0) |
			     (i + 2 < n ? p[i + 2] : 0);

		line[o++] = tab[v >> 18 & 63];
		line[o++] = tab[v >> 12 & 63];
		line[o++] = i + 1 < n ? tab[v >> 6 & 63] : '=';
		line[o++] = i + 2 < n ? tab[v & 63] : '=';
		if (o == 76 || i + 3 >= n) {
			printf("BTFOBJ %s %.*s\n", tag, (int)o, line);
			o = 0;
		}
	}
}

/* is NAME a line of the refuse list? */
static bool listed(const char *list, const char *name)
{
	size_t len = strlen(name);
	const char *p = list;

	while ((p = strstr(p, name))) {
		if ((p == list || p[-1] == '\n') && (p[len] == '\n' || p[len] == '\0'))
			return true;
		p += len;
	}
	return false;
}

/* why the kernel refuses DATA: the last line of its log, in MSG */
static void refusal(const void *data, size_t size, char *msg, size_t n)
{
	int fd = btf_load(data, size, true);

	if (fd >= 0) {
		close(fd);
		snprintf(msg, n, "refused without a log, accepted with one");
		return;
	}
	last_line(msg, n);
	if (!msg[0])
		snprintf(msg, n, "%s, empty log", strerror(-fd));
}

/* does the kernel take the BTF in PATH? If not, count why in C */
static bool accepted(const char *path, struct msg_counts *c)
{
	char msg[512];
	size_t size;
	void *data = slurp(path, &size);
	int fd = data ? btf_load(data, size, false) : -1;

	if (fd >= 0) {
		close(fd);
		free(data);
		return true;
	}
	if (data)
		refusal(data, size, msg, sizeof(msg));
	else
		snprintf(msg, sizeof(msg), "cannot read %.200s: %s", path, strerror(errno));
	count_key(c, msg);
	free(data);
	return false;
}

/*
 * One object: NAME.btf must load unless NAME is listed in refuse or its
 * input NAME.in.btf (when the set has one) is refused by this kernel too.
 */
static void check_object(const char *set, const char *dir, const char *file,
			 const char *refuse, struct set_result *r)
{
	char path[512], input[600], name[256], msg[512], tag[300];
	bool must_refuse, input_refused;
	unsigned char *data;
	size_t size, len;
	int fd;

	snprintf(path, sizeof(path), "%.250s/%.250s", dir, file);
	len = strlen(file) - strlen(".btf");
	snprintf(name, sizeof(name), "%.*s", (int)len, file);
	snprintf(input, sizeof(input), "%.250s/%.250s.in.btf", dir, name);
	snprintf(tag, sizeof(tag), "%.40s/%.250s", set, name);
	must_refuse = listed(refuse, name);
	input_refused = !access(input, F_OK) && !accepted(input, &r->input_msgs);
	r->input_refused += input_refused;
	r->objects++;
	data = slurp(path, &size);
	if (!data) {
		printf("INFO btf_accept_%s %s: cannot read %s: %s\n", set, name, path,
		       strerror(errno));
		r->unexpected++;
		return;
	}
	fd = btf_load(data, size, false);
	if (fd >= 0) {
		close(fd);
		r->accepted++;
		if (must_refuse) {
			printf("INFO btf_accept_%s %s: accepted, expected refused\n", set, name);
			if (!r->unexpected++)
				snprintf(r->first_bad, sizeof(r->first_bad), "%.200s accepted", name);
		}
		free(data);
		return;
	}
	r->refused++;
	refusal(data, size, msg, sizeof(msg));
	count_key(&r->msgs, msg);
	if (!must_refuse && !input_refused) {
		printf("INFO btf_accept_%s refused %s: %s\n", set, name, msg);
		if (!r->unexpected++)
			snprintf(r->first_bad, sizeof(r->first_bad), "%.40s refused: %.200s",
				 name, msg);
		printf("INFO btf_accept_%s %s: the kernel's log:\n", set, name);
		fputs(accept_log, stdout);
		printf("\nINFO btf_accept_%s %s: the object (%zu bytes, base64):\n", set, name,
		       size);
		print_base64(tag, data, size);
	}
	free(data);
}

static int is_btf(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return n > 4 && !strcmp(d->d_name + n - 4, ".btf") &&
	       !(n > 7 && !strcmp(d->d_name + n - 7, ".in.btf"));
}

static void run_set(const char *root, const char *set, guest_report_fn report)
{
	char dir[512], path[600], test[128], why[1024], label[200] = "";
	struct dirent **files;
	struct set_result r;
	char *refuse, *lbl;
	size_t size;
	int n, i, expected = 0;
	size_t off;

	memset(&r, 0, sizeof(r));
	snprintf(dir, sizeof(dir), "%s/%s", root, set);
	snprintf(test, sizeof(test), "btf_accept_%.100s", set);
	snprintf(path, sizeof(path), "%s/label", dir);
	lbl = slurp(path, &size);
	if (lbl) {
		snprintf(label, sizeof(label), "%.*s", (int)strcspn(lbl, "\n"), lbl);
		free(lbl);
	}
	snprintf(path, sizeof(path), "%s/refuse", dir);
	refuse = slurp(path, &size);
	if (!refuse) {
		snprintf(why, sizeof(why), "no %s: %s", path, strerror(errno));
		report(false, test, why);
		return;
	}
	for (i = 0; refuse[i]; i++)
		expected += refuse[i] == '\n';
	n = scandir(dir, &files, is_btf, alphasort);
	if (n <= 0) {
		snprintf(why, sizeof(why), "no objects in %s", dir);
		report(false, test, why);
		free(refuse);
		return;
	}
	for (i = 0; i < n; i++) {
		check_object(set, dir, files[i]->d_name, refuse, &r);
		free(files[i]);
	}
	free(files);
	/* every object the list names must have been there */
	for (char *p = refuse, *nl; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl)
			break;
		*nl = '\0';
		snprintf(path, sizeof(path), "%s/%s.btf", dir, p);
		if (access(path, R_OK)) {
			printf("INFO %s %s: listed as refused, but not in the set\n", test, p);
			if (!r.unexpected++)
				snprintf(r.first_bad, sizeof(r.first_bad), "%.200s missing", p);
		}
	}
	free(refuse);
	off = snprintf(why, sizeof(why), "%s: %d objects, %d accepted, %d refused", label,
		       r.objects, r.accepted, r.refused);
	off = print_counts(why, sizeof(why), off, &r.msgs);
	if (off < sizeof(why))
		off += snprintf(why + off, sizeof(why) - off, "; %d listed to be refused", expected);
	if (r.input_refused && off < sizeof(why)) {
		off += snprintf(why + off, sizeof(why) - off,
				"; this kernel refuses %d of their inputs", r.input_refused);
		off = print_counts(why, sizeof(why), off, &r.input_msgs);
	}
	if (r.unexpected && off < sizeof(why))
		snprintf(why + off, sizeof(why) - off, "; %d not as expected, first: %s",
			 r.unexpected, r.first_bad);
	report(!r.unexpected && r.objects > 0, test, why);
}

static int is_set(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

int btf_accept_run(const char *root, guest_report_fn report)
{
	struct dirent **sets;
	char why[600];
	int n, i;

	n = scandir(root, &sets, is_set, alphasort);
	if (n <= 0) {
		snprintf(why, sizeof(why), "no object sets in %s", root);
		report(false, "btf_accept", why);
		return 0;
	}
	for (i = 0; i < n; i++) {
		run_set(root, sets[i]->d_name, report);
		free(sets[i]);
	}
	free(sets);
	return n;
}
