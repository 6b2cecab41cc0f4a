// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * /init of the btf2btf test guest: loads bpf_testmod, checks the BTF the
 * kernel exposes, runs the BPF programs in /bpf and reports every test as
 * "PASS name" or "FAIL name: why", then "N passed, N failed", then reboots
 * (QEMU runs with -no-reboot, so that ends the VM).
 *
 * Linked statically against libbpf 1.1.2, libelf and zlib.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/klog.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

static int passed, failed;

/* libbpf's messages, kept for the report of a failing test */
static char libbpf_msgs[8192];
static size_t libbpf_len;

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	int n;

	if (level == LIBBPF_DEBUG)
		return 0;
	if (libbpf_len >= sizeof(libbpf_msgs) - 1)
		libbpf_len = 0;
	n = vsnprintf(libbpf_msgs + libbpf_len, sizeof(libbpf_msgs) - libbpf_len, fmt, ap);
	if (n > 0)
		libbpf_len += (size_t)n < sizeof(libbpf_msgs) - libbpf_len ? (size_t)n :
			      sizeof(libbpf_msgs) - libbpf_len - 1;
	return 0;
}

static void print_prefixed(const char *prefix, const char *text)
{
	const char *p = text, *nl;

	while (*p) {
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		if (nl > p)
			printf("%s %.*s\n", prefix, (int)(nl - p), p);
		p = *nl ? nl + 1 : nl;
	}
}

static void result(const char *name, bool ok, const char *fmt, ...)
{
	char why[512] = "";
	va_list ap;

	if (fmt) {
		va_start(ap, fmt);
		vsnprintf(why, sizeof(why), fmt, ap);
		va_end(ap);
	}
	if (ok) {
		passed++;
		printf("PASS %s%s%s\n", name, why[0] ? ": " : "", why);
	} else {
		failed++;
		printf("FAIL %s: %s\n", name, why);
		if (libbpf_len)
			print_prefixed("INFO", libbpf_msgs);
	}
	libbpf_len = 0;
	libbpf_msgs[0] = '\0';
	fflush(stdout);
}

static void setup(void)
{
	int fd;

	mkdir("/dev", 0755);
	mkdir("/proc", 0755);
	mkdir("/sys", 0755);
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	fd = open("/dev/console", O_RDWR);
	if (fd >= 0) {
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		if (fd > 2)
			close(fd);
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
}

static void load_testmod(void)
{
	int fd, err = 0;

	fd = open("/bpf_testmod.ko", O_RDONLY | O_CLOEXEC);
	if (fd < 0 || syscall(SYS_finit_module, fd, "", 0))
		err = errno;
	if (fd >= 0)
		close(fd);
	if (err)
		result("bpf_testmod_load", false, "finit_module: %s", strerror(err));
	else if (access("/sys/kernel/btf/bpf_testmod", R_OK))
		result("bpf_testmod_load", false, "no /sys/kernel/btf/bpf_testmod");
	else
		result("bpf_testmod_load", true, "/sys/kernel/btf/bpf_testmod present");
}

/* ---- BTF as the kernel exposes it ---------------------------------------- */

/* FUNC name -> its FUNC_PROTO, checking every id on the way */
static const struct btf_type *func_proto(const struct btf *btf, const char *name, char *why,
					 size_t len)
{
	const struct btf_type *t;
	__s32 id;

	id = btf__find_by_name_kind(btf, name, BTF_KIND_FUNC);
	if (id <= 0) {
		snprintf(why, len, "no FUNC %s", name);
		return NULL;
	}
	t = btf__type_by_id(btf, id);
	if (!t || t->type == 0 || t->type >= btf__type_cnt(btf)) {
		snprintf(why, len, "FUNC %s [%d] has an invalid type id", name, id);
		return NULL;
	}
	t = btf__type_by_id(btf, t->type);
	if (!t || !btf_is_func_proto(t)) {
		snprintf(why, len, "FUNC %s [%d] does not point to a FUNC_PROTO", name, id);
		return NULL;
	}
	return t;
}

static bool param_is_prog_aux(const struct btf *btf, const struct btf_type *proto, int idx)
{
	const struct btf_param *p = btf_params(proto) + idx;
	const struct btf_type *t = btf__type_by_id(btf, p->type);
	const char *name;

	while (t && btf_is_mod(t))
		t = btf__type_by_id(btf, t->type);
	if (!t || !btf_is_ptr(t))
		return false;
	t = btf__type_by_id(btf, t->type);
	while (t && btf_is_mod(t))
		t = btf__type_by_id(btf, t->type);
	if (!t || !btf_is_struct(t))
		return false;
	name = btf__name_by_offset(btf, t->name_off);
	return name && !strcmp(name, "bpf_prog_aux");
}

/* kfunc has nargs params and no bpf_prog_aux; kfunc_impl has nargs + 1, the
 * last one struct bpf_prog_aux *
 */
static void check_pair(const char *test, const struct btf *btf, const char *kfunc, int nargs)
{
	const struct btf_type *p, *pi;
	char impl[128], why[256] = "";
	int i;

	snprintf(impl, sizeof(impl), "%s_impl", kfunc);
	p = func_proto(btf, kfunc, why, sizeof(why));
	pi = p ? func_proto(btf, impl, why, sizeof(why)) : NULL;
	if (!p || !pi) {
		result(test, false, "%s", why);
		return;
	}
	if (btf_vlen(p) != nargs || btf_vlen(pi) != nargs + 1) {
		result(test, false, "%s has %d params (want %d), %s has %d (want %d)",
		       kfunc, btf_vlen(p), nargs, impl, btf_vlen(pi), nargs + 1);
		return;
	}
	for (i = 0; i < nargs; i++) {
		if (param_is_prog_aux(btf, p, i)) {
			result(test, false, "%s still has a struct bpf_prog_aux * param", kfunc);
			return;
		}
	}
	if (!param_is_prog_aux(btf, pi, nargs)) {
		result(test, false, "last param of %s is not struct bpf_prog_aux *", impl);
		return;
	}
	result(test, true, "%s: %d params, %s: %d params", kfunc, nargs, impl, nargs + 1);
}

/* DECL_TAG kind_flag: 6.12 rejects it (btf_decl_tag_check_meta) */
static void check_decl_tags(const char *test, const struct btf *btf, const struct btf *base)
{
	__u32 i, n = btf__type_cnt(btf), first = base ? btf__type_cnt(base) : 1;
	int tags = 0, kflag = 0;

	for (i = first; i < n; i++) {
		const struct btf_type *t = btf__type_by_id(btf, i);

		if (!btf_is_decl_tag(t))
			continue;
		tags++;
		if (btf_kflag(t))
			kflag++;
	}
	result(test, kflag == 0, "%d DECL_TAGs, %d with kind_flag", tags, kflag);
}

static void *read_file(const char *path, size_t *size)
{
	size_t cap = 1 << 20, len = 0;
	char *buf = malloc(cap), *nb;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || !buf) {
		free(buf);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	while ((n = read(fd, buf + len, cap - len)) > 0) {
		len += n;
		if (len == cap) {
			nb = realloc(buf, cap *= 2);
			if (!nb) {
				free(buf);
				close(fd);
				return NULL;
			}
			buf = nb;
		}
	}
	close(fd);
	*size = len;
	return buf;
}

/* Load the vmlinux BTF back into the kernel as a BTF object: the kernel's
 * full BTF checks (btf_check_meta, including DECL_TAG kind_flag) run on it.
 */
static void check_btf_reload(void)
{
	LIBBPF_OPTS(bpf_btf_load_opts, opts);
	size_t size = 0, log_size = 16 << 20;
	char *log, *last;
	void *data;
	int fd;

	data = read_file("/sys/kernel/btf/vmlinux", &size);
	if (!data) {
		result("btf_vmlinux_kernel_load", false, "cannot read /sys/kernel/btf/vmlinux");
		return;
	}
	fd = bpf_btf_load(data, size, &opts);
	if (fd >= 0) {
		close(fd);
		free(data);
		result("btf_vmlinux_kernel_load", true, "%zu bytes accepted by BPF_BTF_LOAD", size);
		return;
	}
	log = calloc(1, log_size);
	opts.log_buf = log;
	opts.log_size = log_size;
	opts.log_level = 1;
	fd = bpf_btf_load(data, size, &opts);
	if (fd >= 0)
		close(fd);
	last = log ? log + strlen(log) : NULL;
	/* show the tail of the log: the error is at the end */
	if (last) {
		int lines = 0;

		while (last > log && lines < 6)
			if (*--last == '\n')
				lines++;
		print_prefixed("INFO", last);
	}
	result("btf_vmlinux_kernel_load", false, "BPF_BTF_LOAD of /sys/kernel/btf/vmlinux: %s",
	       strerror(errno));
	free(log);
	free(data);
}

static void check_btf(void)
{
	struct btf *vmlinux, *mod = NULL;
	long err;

	vmlinux = btf__parse("/sys/kernel/btf/vmlinux", NULL);
	err = libbpf_get_error(vmlinux);
	result("btf_vmlinux_parse", !err, err ? "btf__parse: %ld" : "%u types", err ? err :
	       (long)btf__type_cnt(vmlinux) - 1);
	if (err)
		return;
	check_pair("btf_vmlinux_bpf_wq_set_callback", vmlinux, "bpf_wq_set_callback", 3);
	check_decl_tags("btf_vmlinux_no_kind_flag_decl_tags", vmlinux, NULL);

	mod = btf__parse_split("/sys/kernel/btf/bpf_testmod", vmlinux);
	err = libbpf_get_error(mod);
	result("btf_testmod_parse_split", !err, err ? "btf__parse_split: %ld" : "%u types",
	       err ? err : (long)(btf__type_cnt(mod) - btf__type_cnt(vmlinux)));
	if (!err) {
		check_pair("btf_testmod_implicit_arg", mod, "bpf_kfunc_implicit_arg", 1);
		check_pair("btf_testmod_implicit_arg_legacy", mod, "bpf_kfunc_implicit_arg_legacy", 2);
		check_decl_tags("btf_testmod_no_kind_flag_decl_tags", mod, vmlinux);
		btf__free(mod);
	}
	btf__free(vmlinux);
	check_btf_reload();
}

/* ---- BPF programs ------------------------------------------------------ */

static char vlog[1 << 20];

/* Open obj, load only prog. Returns the object (loaded or not) and sets *err. */
static struct bpf_object *load_one(const char *path, const char *prog, int *err)
{
	struct bpf_program *p, *want = NULL;
	struct bpf_object *obj;

	obj = bpf_object__open_file(path, NULL);
	if (libbpf_get_error(obj)) {
		*err = (int)libbpf_get_error(obj);
		return NULL;
	}
	bpf_object__for_each_program(p, obj) {
		bool me = !strcmp(bpf_program__name(p), prog);

		bpf_program__set_autoload(p, me);
		if (me)
			want = p;
	}
	if (!want) {
		*err = -ENOENT;
		bpf_object__close(obj);
		return NULL;
	}
	vlog[0] = '\0';
	bpf_program__set_log_buf(want, vlog, sizeof(vlog));
	bpf_program__set_log_level(want, 1);
	*err = bpf_object__load(obj);
	return obj;
}

static void test_retval(const char *test, const char *path, const char *prog, int want)
{
	LIBBPF_OPTS(bpf_test_run_opts, topts);
	struct bpf_object *obj;
	int err, fd;

	obj = load_one(path, prog, &err);
	if (!obj || err) {
		if (vlog[0])
			print_prefixed("INFO", vlog);
		result(test, false, "load of %s failed: %d", prog, err);
		bpf_object__close(obj);
		return;
	}
	fd = bpf_program__fd(bpf_object__find_program_by_name(obj, prog));
	err = bpf_prog_test_run_opts(fd, &topts);
	if (err)
		result(test, false, "test_run: %s", strerror(errno));
	else
		result(test, (int)topts.retval == want, "retval %d (want %d)", (int)topts.retval,
		       want);
	bpf_object__close(obj);
}

static void test_reject(const char *test, const char *path, const char *prog, const char *msg)
{
	struct bpf_object *obj;
	int err;

	obj = load_one(path, prog, &err);
	if (!obj) {
		result(test, false, "cannot open %s: %d", path, err);
		return;
	}
	if (!err)
		result(test, false, "%s was accepted by the verifier", prog);
	else if (!strstr(vlog, msg)) {
		print_prefixed("INFO", vlog);
		result(test, false, "rejected (%d) without \"%s\"", err, msg);
	} else {
		result(test, true, "rejected: \"%s\"", msg);
	}
	bpf_object__close(obj);
}

static void test_wq(void)
{
	LIBBPF_OPTS(bpf_test_run_opts, topts);
	const char *test = "wq_set_callback_runs";
	struct bpf_map *m, *bss = NULL;
	struct bpf_object *obj;
	int err, fd, i, zero = 0, ran = 0;
	char *val = NULL;

	obj = load_one("/bpf/wq.bpf.o", "test_wq_set_callback", &err);
	if (!obj || err) {
		if (vlog[0])
			print_prefixed("INFO", vlog);
		result(test, false, "load failed: %d", err);
		bpf_object__close(obj);
		return;
	}
	bpf_object__for_each_map(m, obj) {
		const char *n = bpf_map__name(m);

		if (strlen(n) > 4 && !strcmp(n + strlen(n) - 4, ".bss"))
			bss = m;
	}
	fd = bpf_program__fd(bpf_object__find_program_by_name(obj, "test_wq_set_callback"));
	err = bpf_prog_test_run_opts(fd, &topts);
	if (err || topts.retval) {
		result(test, false, "test_run: err %d retval %d", err, (int)topts.retval);
		goto out;
	}
	if (!bss) {
		result(test, false, "no .bss map");
		goto out;
	}
	val = calloc(1, bpf_map__value_size(bss));
	/* the callback runs from a workqueue: give it up to 5 s */
	for (i = 0; i < 500 && val; i++) {
		if (!bpf_map__lookup_elem(bss, &zero, sizeof(zero), val,
					  bpf_map__value_size(bss), 0)) {
			memcpy(&ran, val, sizeof(ran));
			if (ran)
				break;
		}
		usleep(10000);
	}
	result(test, ran == 42, "callback %s (wq_ran = %d)", ran ? "ran" : "did not run", ran);
out:
	free(val);
	bpf_object__close(obj);
}

/* ---- dmesg ---------------------------------------------------------------- */

static void check_dmesg(void)
{
	static char buf[1 << 20];
	int n, bad = 0;
	char *line, *save = NULL;

	n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, sizeof(buf) - 1);
	if (n < 0) {
		result("dmesg_no_btf_errors", false, "klogctl: %s", strerror(errno));
		return;
	}
	buf[n] = '\0';
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (strstr(line, "BPF:") || strstr(line, "BTF") || strstr(line, "btf")) {
			if (strstr(line, "rror") || strstr(line, "nvalid") || strstr(line, "fail") ||
			    strstr(line, "BPF:") || strstr(line, "malformed")) {
				printf("BTFERR %s\n", line);
				bad++;
			}
		}
	}
	result("dmesg_no_btf_errors", bad == 0, "%d BTF error lines", bad);
}

int main(void)
{
	setup();
	libbpf_set_print(libbpf_print);
	printf("INFO btf2btf guest tests starting\n");

	load_testmod();
	check_btf();

	test_retval("kfunc_implicit_arg", "/bpf/implicit_args.bpf.o",
		    "test_kfunc_implicit_arg", 5);
	test_reject("kfunc_implicit_arg_impl_rejected", "/bpf/implicit_args.bpf.o",
		    "test_kfunc_implicit_arg_impl_illegal",
		    "cannot find address for kernel function bpf_kfunc_implicit_arg_impl");
	test_retval("kfunc_implicit_arg_legacy", "/bpf/implicit_args.bpf.o",
		    "test_kfunc_implicit_arg_legacy", 7);
	test_retval("kfunc_implicit_arg_legacy_impl", "/bpf/implicit_args.bpf.o",
		    "test_kfunc_implicit_arg_legacy_impl", 11);
	test_wq();
	test_reject("wq_set_callback_impl_rejected", "/bpf/wq_impl.bpf.o",
		    "test_wq_set_callback_impl",
		    "cannot find address for kernel function bpf_wq_set_callback_impl");

	check_dmesg();

	printf("%d passed, %d failed\n", passed, failed);
	fflush(stdout);
	sync();
	reboot(RB_AUTOBOOT);
	return 0;
}
