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

#include "btf_accept.h"
#include "progload.h"

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

/* bpf_wq_set_callback: KF_IMPLICIT_ARGS with a legacy _impl, the stock 6.12
 * kfunc (wq, cb, flags, void *aux__ign), which btf2btf must leave as is
 */
static void check_wq_pair(const char *test, const struct btf *btf)
{
	const struct btf_type *p, *pi, *t;
	char why[256] = "";

	p = func_proto(btf, "bpf_wq_set_callback", why, sizeof(why));
	pi = p ? func_proto(btf, "bpf_wq_set_callback_impl", why, sizeof(why)) : NULL;
	if (!p || !pi) {
		result(test, false, "%s", why);
		return;
	}
	if (btf_vlen(p) != 3 || btf_vlen(pi) != 4) {
		result(test, false, "bpf_wq_set_callback has %d params (want 3), _impl %d (want 4)",
		       btf_vlen(p), btf_vlen(pi));
		return;
	}
	t = btf__type_by_id(btf, btf_params(pi)[3].type);
	if (!t || !btf_is_ptr(t) || t->type != 0) {
		result(test, false, "last param of bpf_wq_set_callback_impl is not void *");
		return;
	}
	result(test, true, "bpf_wq_set_callback: 3 params, legacy bpf_wq_set_callback_impl: 4, "
	       "the last void *aux__ign");
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
	check_wq_pair("btf_vmlinux_bpf_wq_set_callback", vmlinux);
	check_decl_tags("btf_vmlinux_no_kind_flag_decl_tags", vmlinux, NULL);

	mod = btf__parse_split("/sys/kernel/btf/bpf_testmod", vmlinux);
	err = libbpf_get_error(mod);
	result("btf_testmod_parse_split", !err, err ? "btf__parse_split: %ld" : "%u types",
	       err ? err : (long)(btf__type_cnt(mod) - btf__type_cnt(vmlinux)));
	if (!err) {
		check_pair("btf_testmod_implicit_arg", mod, "bpf_kfunc_implicit_arg", 1);
		check_pair("btf_testmod_implicit_arg_legacy", mod, "bpf_kfunc_implicit_arg_legacy", 2);
		check_pair("btf_testmod_implicit_arg_prog_id", mod, "bpf_kfunc_implicit_arg_prog_id", 1);
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

/* load_one() for a test that must load: NULL after reporting its FAIL line. */
static struct bpf_object *load_or_fail(const char *test, const char *path, const char *prog)
{
	int err;
	struct bpf_object *obj = load_one(path, prog, &err);

	if (obj && !err)
		return obj;
	if (vlog[0])
		print_prefixed("INFO", vlog);
	result(test, false, "load of %s failed: %d", prog, err);
	bpf_object__close(obj);
	return NULL;
}

static void test_retval(const char *test, const char *path, const char *prog, int want)
{
	LIBBPF_OPTS(bpf_test_run_opts, topts);
	struct bpf_object *obj;
	int err, fd;

	obj = load_or_fail(test, path, prog);
	if (!obj)
		return;
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

static void test_wq(const char *test, const char *path, const char *prog)
{
	LIBBPF_OPTS(bpf_test_run_opts, topts);
	struct bpf_map *m, *bss = NULL;
	struct bpf_object *obj;
	int err, fd, i, zero = 0, ran = 0;
	char *val = NULL;

	obj = load_one(path, prog, &err);
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
	fd = bpf_program__fd(bpf_object__find_program_by_name(obj, prog));
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

/* ---- the calling program's own aux --------------------------------------- */

static __u32 prog_id_of(int fd)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return 0;
	return info.id;
}

/* prog returns bpf_kfunc_implicit_arg_prog_id(0): its own id */
static void test_prog_id(const char *test, const char *path, const char *prog)
{
	LIBBPF_OPTS(bpf_test_run_opts, topts);
	struct bpf_object *obj;
	int err, fd;
	__u32 id;

	obj = load_or_fail(test, path, prog);
	if (!obj)
		return;
	fd = bpf_program__fd(bpf_object__find_program_by_name(obj, prog));
	id = prog_id_of(fd);
	err = bpf_prog_test_run_opts(fd, &topts);
	if (err)
		result(test, false, "test_run: %s", strerror(errno));
	else
		result(test, id && topts.retval == id, "aux->id %d, program id %u",
		       (int)topts.retval, id);
	bpf_object__close(obj);
}

/* ---- fentry/fexit on bpf_kfunc_implicit_arg ---------------------------- */

/* .bss of tracing.bpf.o */
struct trace_result {
	__u64 fentry_arg_cnt, fentry_a, fentry_aux, fentry_aux_id;
	__u64 fexit_arg_cnt, fexit_a, fexit_aux, fexit_ret;
	__u64 kfunc_aux;
};

static struct bpf_map *find_bss(struct bpf_object *obj)
{
	struct bpf_map *m;

	bpf_object__for_each_map(m, obj) {
		const char *n = bpf_map__name(m);

		if (strlen(n) > 4 && !strcmp(n + strlen(n) - 4, ".bss"))
			return m;
	}
	return NULL;
}

static void test_tracing(void)
{
	static const char *tests[] = { "kfunc_implicit_arg_fentry", "kfunc_implicit_arg_fexit",
				       "kfunc_implicit_arg_traced_retval" };
	LIBBPF_OPTS(bpf_test_run_opts, topts);
	struct bpf_link *fentry = NULL, *fexit = NULL;
	struct trace_result res = {}, *r = &res;
	struct bpf_map *bss;
	int zero = 0;
	struct bpf_program *trigger;
	struct bpf_object *obj;
	char why[256] = "";
	size_t size = 0;
	int err, fd, i;
	__u32 id;

	obj = bpf_object__open_file("/bpf/tracing.bpf.o", NULL);
	err = libbpf_get_error(obj);
	if (err) {
		obj = NULL;
		snprintf(why, sizeof(why), "open: %d", err);
		goto fail;
	}
	err = bpf_object__load(obj);
	if (err) {
		snprintf(why, sizeof(why), "load: %d", err);
		goto fail;
	}
	fentry = bpf_program__attach(bpf_object__find_program_by_name(obj,
						"trace_implicit_arg_fentry"));
	fexit = bpf_program__attach(bpf_object__find_program_by_name(obj,
						"trace_implicit_arg_fexit"));
	if (libbpf_get_error(fentry) || libbpf_get_error(fexit)) {
		snprintf(why, sizeof(why), "attach: fentry %ld, fexit %ld",
			 libbpf_get_error(fentry), libbpf_get_error(fexit));
		goto fail;
	}
	trigger = bpf_object__find_program_by_name(obj, "trigger_implicit_arg");
	fd = bpf_program__fd(trigger);
	id = prog_id_of(fd);
	err = bpf_prog_test_run_opts(fd, &topts);
	if (err) {
		snprintf(why, sizeof(why), "test_run: %s", strerror(errno));
		goto fail;
	}
	/* libbpf 1.1.2 maps .bss into memory only for skeletons: look it up */
	bss = find_bss(obj);
	size = bss ? bpf_map__value_size(bss) : 0;
	if (size != sizeof(res) ||
	    bpf_map__lookup_elem(bss, &zero, sizeof(zero), &res, sizeof(res), 0)) {
		snprintf(why, sizeof(why), ".bss of %zu bytes (want %zu) not readable", size,
			 sizeof(res));
		goto fail;
	}
	result(tests[0], r->fentry_arg_cnt == 2 && r->fentry_a == 5 && r->fentry_aux &&
	       r->fentry_aux == r->kfunc_aux && r->fentry_aux_id == id,
	       "%llu args, a=%llu, aux %s the kfunc's (%s), aux->id %llu (caller %u)",
	       r->fentry_arg_cnt, r->fentry_a,
	       r->fentry_aux == r->kfunc_aux ? "==" : "!=", r->fentry_aux ? "non-NULL" : "NULL",
	       r->fentry_aux_id, id);
	result(tests[1], r->fexit_arg_cnt == 2 && r->fexit_a == 5 && r->fexit_aux &&
	       r->fexit_aux == r->kfunc_aux && r->fexit_ret == 5,
	       "%llu args, a=%llu, aux %s the kfunc's (%s), ret %llu",
	       r->fexit_arg_cnt, r->fexit_a,
	       r->fexit_aux == r->kfunc_aux ? "==" : "!=", r->fexit_aux ? "non-NULL" : "NULL",
	       r->fexit_ret);
	result(tests[2], topts.retval == 5 && r->kfunc_aux,
	       "bpf_kfunc_implicit_arg(5) returned %d under fentry+fexit", (int)topts.retval);
	goto out;
fail:
	for (i = 0; i < 3; i++)
		result(tests[i], false, "%s", why);
out:
	bpf_link__destroy(fentry);
	bpf_link__destroy(fexit);
	bpf_object__close(obj);
}

/* ---- raw instruction programs ------------------------------------------ */

#define INSN(c, d, s, o, i) \
	((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s), .off = (o), .imm = (i) })
#define MOV64_IMM(d, i)	INSN(BPF_ALU64 | BPF_MOV | BPF_K, d, 0, 0, i)
#define MOV32_IMM(d, i)	INSN(BPF_ALU | BPF_MOV | BPF_K, d, 0, 0, i)
#define MOV64_REG(d, s)	INSN(BPF_ALU64 | BPF_MOV | BPF_X, d, s, 0, 0)
#define ADD64_IMM(d, i)	INSN(BPF_ALU64 | BPF_ADD | BPF_K, d, 0, 0, i)
#define ADD32_REG(d, s)	INSN(BPF_ALU | BPF_ADD | BPF_X, d, s, 0, 0)
/* module kfunc: off 1 = fd_array[1], the bpf_testmod BTF */
#define KCALL(id)	INSN(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_KFUNC_CALL, 1, id)
#define EXIT()		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)

static int testmod_btf_fd = -1;
static struct btf *testmod_btf;

static int module_btf_fd(const char *name)
{
	__u32 id = 0;

	while (!bpf_btf_get_next_id(id, &id)) {
		struct bpf_btf_info info = {};
		__u32 len = sizeof(info);
		char n[64] = "";
		int fd;

		fd = bpf_btf_get_fd_by_id(id);
		if (fd < 0)
			continue;
		info.name = (__u64)(unsigned long)n;
		info.name_len = sizeof(n);
		if (!bpf_obj_get_info_by_fd(fd, &info, &len) && !strcmp(n, name))
			return fd;
		close(fd);
	}
	return -1;
}

static bool raw_setup(const char *test)
{
	struct btf *vmlinux;

	if (testmod_btf_fd >= 0)
		return true;
	testmod_btf_fd = module_btf_fd("bpf_testmod");
	vmlinux = btf__parse("/sys/kernel/btf/vmlinux", NULL);
	if (!libbpf_get_error(vmlinux))
		testmod_btf = btf__parse_split("/sys/kernel/btf/bpf_testmod", vmlinux);
	if (testmod_btf_fd < 0 || !testmod_btf || libbpf_get_error(testmod_btf)) {
		result(test, false, "no bpf_testmod BTF object");
		testmod_btf = NULL;
		return false;
	}
	return true;
}

static int kfunc_id(const char *name)
{
	return testmod_btf ? btf__find_by_name_kind(testmod_btf, name, BTF_KIND_FUNC) : -1;
}

static int raw_load(enum bpf_prog_type type, const struct bpf_insn *insns, size_t cnt,
		    __u32 flags, __u32 log_level)
{
	int fd_array[2] = { 0, testmod_btf_fd };
	/* 6.12: "Syscall programs can only be sleepable" */
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .fd_array = fd_array,
		    .prog_flags = flags | (type == BPF_PROG_TYPE_SYSCALL ? BPF_F_SLEEPABLE : 0),
		    .log_buf = vlog, .log_size = sizeof(vlog), .log_level = log_level);

	vlog[0] = '\0';
	return bpf_prog_load(type, NULL, "GPL", insns, cnt, &opts);
}

static void raw_reject(const char *test, enum bpf_prog_type type, const struct bpf_insn *insns,
		       size_t cnt, const char *msg)
{
	int fd = raw_load(type, insns, cnt, 0, 1);

	if (fd >= 0) {
		close(fd);
		result(test, false, "accepted by the verifier");
	} else if (!strstr(vlog, msg)) {
		print_prefixed("INFO", vlog);
		result(test, false, "rejected (%s) without \"%s\"", strerror(errno), msg);
	} else {
		result(test, true, "rejected: \"%s\"", msg);
	}
}

/* run a syscall program; want < 0 means "the program's own id" */
static void raw_retval(const char *test, const struct bpf_insn *insns, size_t cnt, __u32 flags,
		       long long want)
{
	LIBBPF_OPTS(bpf_test_run_opts, topts);
	int fd = raw_load(BPF_PROG_TYPE_SYSCALL, insns, cnt, flags, 1);
	__u32 id;

	if (fd < 0) {
		print_prefixed("INFO", vlog);
		result(test, false, "load: %s", strerror(errno));
		return;
	}
	id = prog_id_of(fd);
	if (want < 0)
		want = id;
	if (bpf_prog_test_run_opts(fd, &topts))
		result(test, false, "test_run: %s", strerror(errno));
	else
		result(test, topts.retval == want, "retval %d (want %lld)%s", (int)topts.retval,
		       want, flags & BPF_F_TEST_RND_HI32 ? " with BPF_F_TEST_RND_HI32" : "");
	close(fd);
}

static void test_raw(void)
{
	int implicit = kfunc_id("bpf_kfunc_implicit_arg");
	int legacy = kfunc_id("bpf_kfunc_implicit_arg_legacy");
	int prog_id = kfunc_id("bpf_kfunc_implicit_arg_prog_id");

	if (implicit <= 0 || legacy <= 0 || prog_id <= 0) {
		result("kfunc_implicit_arg_raw", false, "kfunc ids %d %d %d", implicit, legacy,
		       prog_id);
		return;
	}
	{
		/* legacy(a, b): b not set */
		struct bpf_insn p[] = { MOV64_IMM(1, 3), KCALL(legacy), EXIT() };

		raw_reject("kfunc_implicit_arg_too_few_args", BPF_PROG_TYPE_SYSCALL, p, 3,
			   "R2 is not a scalar");
	}
	{
		/* implicit_arg(int a) given a stack pointer */
		struct bpf_insn p[] = { MOV64_REG(1, 10), ADD64_IMM(1, -8), KCALL(implicit),
					EXIT() };

		raw_reject("kfunc_implicit_arg_wrong_type", BPF_PROG_TYPE_SYSCALL, p, 4,
			   "R1 is not a scalar");
	}
	{
		/* a value the program leaves in the aux register is not what the kfunc gets */
		struct bpf_insn p[] = { MOV64_IMM(1, 0), MOV64_IMM(2, 0x1234), KCALL(prog_id),
					EXIT() };

		raw_retval("kfunc_implicit_arg_aux_not_from_prog", p, 4, 0, -1);
	}
	{
		/* 32-bit defs in the argument and aux registers before the calls, the
		 * result used as a 32-bit value after them
		 */
		struct bpf_insn p[] = {
			MOV32_IMM(2, 7), MOV32_IMM(1, 5), KCALL(implicit), MOV64_REG(6, 0),
			MOV32_IMM(3, 9), MOV32_IMM(1, 3), MOV32_IMM(2, 4), KCALL(legacy),
			ADD32_REG(0, 6), EXIT(),
		};

		raw_retval("kfunc_implicit_arg_rnd_hi32", p, 10, BPF_F_TEST_RND_HI32, 12);
	}
}

/*
 * Verification time of 256 calls to the implicit bpf_kfunc_implicit_arg()
 * vs 256 calls to the plain bpf_kfunc_implicit_arg_legacy_impl(), which
 * takes its aux explicitly: the programs are the same but for the call
 * target (w1 = 1, w2 = 1, r3 = 0, call), and both calls get the same
 * LD_IMM64 of prog->aux at fixup, so the difference is the cost of
 * resolving KF_IMPLICIT_ARGS (the _impl prototype) at every visit.
 */
#define VT_CALLS 256
#define VT_ROUNDS 5

static long long verify_time(int kfunc)
{
	static struct bpf_insn p[4 * VT_CALLS + 2];
	const char *s;
	int i, fd;

	for (i = 0; i < VT_CALLS; i++) {
		p[4 * i] = MOV32_IMM(1, 1);
		p[4 * i + 1] = MOV32_IMM(2, 1);
		p[4 * i + 2] = MOV64_IMM(3, 0);
		p[4 * i + 3] = KCALL(kfunc);
	}
	p[4 * VT_CALLS] = MOV64_IMM(0, 0);
	p[4 * VT_CALLS + 1] = EXIT();
	fd = raw_load(BPF_PROG_TYPE_SYSCALL, p, 4 * VT_CALLS + 2, 0, 4 /* BPF_LOG_STATS */);
	if (fd < 0) {
		print_prefixed("INFO", vlog);
		return -1;
	}
	close(fd);
	s = strstr(vlog, "verification time ");
	return s ? atoll(s + strlen("verification time ")) : -1;
}

static void test_verify_time(void)
{
	const char *test = "kfunc_implicit_verify_time";
	int implicit = kfunc_id("bpf_kfunc_implicit_arg");
	int plain = kfunc_id("bpf_kfunc_implicit_arg_legacy_impl");
	long long ti = -1, tp = -1, t;
	double ratio;
	int i;

	for (i = 0; i < VT_ROUNDS; i++) {
		t = verify_time(implicit);
		if (t < 0) {
			result(test, false, "load of the implicit program failed");
			return;
		}
		if (ti < 0 || t < ti)
			ti = t;
		t = verify_time(plain);
		if (t < 0) {
			result(test, false, "load of the plain program failed");
			return;
		}
		if (tp < 0 || t < tp)
			tp = t;
	}
	ratio = (double)ti / (tp > 0 ? tp : 1);
	printf("INFO verification time of %d kfunc calls (best of %d): implicit bpf_kfunc_implicit_arg %lld us, plain bpf_kfunc_implicit_arg_legacy_impl %lld us, ratio %.2f\n",
	       VT_CALLS, VT_ROUNDS, ti, tp, ratio);
	/* the guest clock ticks in ms: both must be measurable */
	if (tp <= 0) {
		result(test, false, "plain program took %lld us: below the clock's resolution", tp);
		return;
	}
	/* one _impl lookup by name per visit costs a scan of the whole BTF: far above 2x */
	result(test, ratio < 2.0, "ratio %.2f (implicit %lld us / plain %lld us, limit 2)", ratio,
	       ti, tp);
}

/* ---- RUN_TESTS programs of the series (__failure, __msg, __retval) ------- */

#define TAG_PFX "comment:test_"

struct run_spec {
	bool failure, success, auxiliary, priv, has_retval;
	long long retval;
	const char *msgs[16];
	int nr_msgs;
};

static void parse_spec(const struct btf *btf, int func_id, struct run_spec *spec)
{
	__u32 i, n = btf__type_cnt(btf);

	memset(spec, 0, sizeof(*spec));
	for (i = 1; i < n; i++) {
		const struct btf_type *t = btf__type_by_id(btf, i);
		const char *s, *v;

		if (!btf_is_decl_tag(t) || t->type != (__u32)func_id ||
		    btf_decl_tag(t)->component_idx != -1)
			continue;
		s = btf__name_by_offset(btf, t->name_off);
		if (!s || strncmp(s, TAG_PFX, strlen(TAG_PFX)))
			continue;
		s += strlen(TAG_PFX);
		if (!strcmp(s, "expect_failure")) {
			spec->failure = spec->priv = true;
		} else if (!strcmp(s, "expect_success")) {
			spec->success = spec->priv = true;
		} else if (!strcmp(s, "auxiliary")) {
			spec->auxiliary = true;
		} else if (!strncmp(s, "expect_msg=", 11)) {
			v = strchr(s + 11, '=');
			if (v && spec->nr_msgs < 16)
				spec->msgs[spec->nr_msgs++] = v + 1;
			spec->priv = true;
		} else if (!strncmp(s, "retval=", 7)) {
			spec->retval = strtoll(s + 7, NULL, 0);
			spec->has_retval = spec->priv = true;
		}
	}
}

static void run_tests(const char *label, const char *path)
{
	LIBBPF_OPTS(bpf_test_run_opts, topts);
	char test[160], names[32][64];
	struct bpf_object *obj, *one;
	struct bpf_program *p;
	int n = 0, i, j, err, fd;
	struct run_spec spec;
	const struct btf *btf;
	unsigned char pkt[64] = {};

	obj = bpf_object__open_file(path, NULL);
	if (libbpf_get_error(obj)) {
		snprintf(test, sizeof(test), "%.60s", label);
		result(test, false, "cannot open %s", path);
		return;
	}
	btf = bpf_object__btf(obj);
	bpf_object__for_each_program(p, obj)
		if (n < 32)
			snprintf(names[n++], sizeof(names[0]), "%s", bpf_program__name(p));
	for (i = 0; i < n; i++) {
		const char *pos;
		bool ok;

		snprintf(test, sizeof(test), "%.60s/%.63s", label, names[i]);
		parse_spec(btf, btf__find_by_name_kind(btf, names[i], BTF_KIND_FUNC), &spec);
		if (spec.auxiliary)
			continue;
		if (!spec.priv && (spec.failure || spec.success || spec.nr_msgs)) {
			printf("INFO %s: unprivileged-only test, not run (the guest runs as root)\n",
			       test);
			continue;
		}
		one = load_one(path, names[i], &err);
		if (!one) {
			result(test, false, "cannot open: %d", err);
			continue;
		}
		ok = spec.failure ? err != 0 : err == 0;
		pos = vlog;
		for (j = 0; ok && j < spec.nr_msgs; j++) {
			pos = strstr(pos, spec.msgs[j]);
			if (!pos) {
				print_prefixed("INFO", vlog);
				result(test, false, "%s, no \"%s\" in the log",
				       err ? "rejected" : "loaded", spec.msgs[j]);
				break;
			}
			pos += strlen(spec.msgs[j]);
		}
		if (j < spec.nr_msgs) {
			bpf_object__close(one);
			continue;
		}
		if (!ok) {
			if (vlog[0])
				print_prefixed("INFO", vlog);
			result(test, false, "%s, expected %s", err ? "rejected" : "loaded",
			       spec.failure ? "failure" : "success");
		} else if (spec.has_retval) {
			fd = bpf_program__fd(bpf_object__find_program_by_name(one, names[i]));
			topts.data_in = pkt;
			topts.data_size_in = sizeof(pkt);
			if (bpf_program__type(bpf_object__find_program_by_name(one, names[i])) ==
			    BPF_PROG_TYPE_SYSCALL) {
				topts.data_in = NULL;
				topts.data_size_in = 0;
			}
			if (bpf_prog_test_run_opts(fd, &topts))
				result(test, false, "test_run: %s", strerror(errno));
			else
				result(test, (int)topts.retval == spec.retval,
				       "retval %d (want %lld)", (int)topts.retval, spec.retval);
		} else {
			result(test, true, "%s as expected, %d message(s) matched",
			       err ? "rejected" : "loaded", spec.nr_msgs);
		}
		bpf_object__close(one);
	}
	bpf_object__close(obj);
}

/* ---- negative control: a kernel and bpf_testmod built without btf2btf ---- */

static void run_negative(void)
{
	struct btf *vmlinux, *mod;
	const struct btf_type *p;
	char why[256] = "";
	int implicit;

	printf("INFO negative control: kernel and bpf_testmod built with BTF2BTF=true\n");
	vmlinux = btf__parse("/sys/kernel/btf/vmlinux", NULL);
	if (libbpf_get_error(vmlinux)) {
		result("negative_btf_untransformed", false, "cannot parse vmlinux BTF");
		return;
	}
	mod = btf__parse_split("/sys/kernel/btf/bpf_testmod", vmlinux);
	if (libbpf_get_error(mod)) {
		result("negative_btf_untransformed", false, "cannot parse bpf_testmod BTF");
		return;
	}
	p = func_proto(mod, "bpf_kfunc_implicit_arg", why, sizeof(why));
	result("negative_btf_untransformed",
	       p && btf_vlen(p) == 2 &&
	       btf__find_by_name_kind(mod, "bpf_kfunc_implicit_arg_impl", BTF_KIND_FUNC) < 0,
	       "bpf_kfunc_implicit_arg has %d params, bpf_kfunc_implicit_arg_impl %s",
	       p ? btf_vlen(p) : -1,
	       btf__find_by_name_kind(mod, "bpf_kfunc_implicit_arg_impl", BTF_KIND_FUNC) < 0 ?
	       "absent" : "present");
	if (!raw_setup("negative_kfunc_implicit_arg_refused"))
		return;
	implicit = kfunc_id("bpf_kfunc_implicit_arg");
	{
		struct bpf_insn prog[] = { MOV64_IMM(1, 5), MOV64_IMM(2, 0), KCALL(implicit), EXIT() };

		raw_reject("negative_kfunc_implicit_arg_refused", BPF_PROG_TYPE_SYSCALL, prog, 4,
			   "cannot find function bpf_kfunc_implicit_arg_impl in BTF");
	}
}

/* ---- relocatable module BTF: bpf_testmod built against another kernel ---- */

static bool cmdline_has(const char *word)
{
	char buf[1024] = "";
	int fd = open("/proc/cmdline", O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return n > 0 && strstr(buf, word);
}

static int load_module(const char *path)
{
	int fd, err = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || syscall(SYS_finit_module, fd, "", 0))
		err = errno;
	if (fd >= 0)
		close(fd);
	return err;
}

/*
 * This kernel is build B: the tree of build A with a config change that
 * shifts vmlinux type ids. /bpf_testmod_plain.ko is bpf_testmod built
 * against A with split BTF on A's vmlinux; /bpf_testmod.ko is the same
 * module built with btf2btf --distill-base (.BTF.base).
 */
static void run_reloc(void)
{
	struct btf *vmlinux, *mod;
	int err;

	printf("INFO relocation: kernel B, modules built against kernel A\n");
	err = load_module("/bpf_testmod_plain.ko");
	if (!err) {
		result("reloc_plain_module_refused", false,
		       "bpf_testmod without .BTF.base loaded into another kernel");
		syscall(SYS_delete_module, "bpf_testmod", O_NONBLOCK);
	} else {
		result("reloc_plain_module_refused", err == EINVAL,
		       "finit_module of the module without .BTF.base: %s", strerror(err));
	}
	err = load_module("/bpf_testmod.ko");
	if (err) {
		result("reloc_module_load", false, "finit_module: %s", strerror(err));
		return;
	}
	result("reloc_module_load", !access("/sys/kernel/btf/bpf_testmod", R_OK),
	       "bpf_testmod with .BTF.base loaded, /sys/kernel/btf/bpf_testmod %s",
	       access("/sys/kernel/btf/bpf_testmod", R_OK) ? "absent" : "present");
	vmlinux = btf__parse("/sys/kernel/btf/vmlinux", NULL);
	mod = libbpf_get_error(vmlinux) ? NULL :
	      btf__parse_split("/sys/kernel/btf/bpf_testmod", vmlinux);
	if (!mod || libbpf_get_error(mod)) {
		result("reloc_module_btf", false, "cannot parse the relocated module BTF");
		return;
	}
	check_pair("reloc_module_btf", mod, "bpf_kfunc_implicit_arg", 1);
	test_retval("reloc_kfunc_implicit_arg", "/bpf/implicit_args.bpf.o",
		    "test_kfunc_implicit_arg", 5);
	test_retval("reloc_kfunc_implicit_arg_legacy", "/bpf/implicit_args.bpf.o",
		    "test_kfunc_implicit_arg_legacy", 7);
	test_prog_id("reloc_kfunc_implicit_arg_own_aux", "/bpf/implicit_paths.bpf.o",
		     "prog_id_main");
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

/* btf_accept_run()'s results (guest.h), reported as every other test */
static void accept_report(bool ok, const char *name, const char *why)
{
	result(name, ok, "%s", why);
}

int main(void)
{
	setup();
	libbpf_set_print(libbpf_print);
	printf("INFO btf2btf guest tests starting\n");

	if (cmdline_has("btf2btf.reloc=1")) {
		run_reloc();
		goto out;
	}
	if (cmdline_has("btf2btf.negative=1")) {
		load_testmod();
		run_negative();
		goto out;
	}

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
	test_wq("wq_set_callback_runs", "/bpf/wq.bpf.o", "test_wq_set_callback");
	test_wq("wq_set_callback_impl_legacy_runs", "/bpf/wq_legacy.bpf.o",
		"test_wq_set_callback_legacy");

	test_tracing();

	test_prog_id("kfunc_implicit_arg_own_aux", "/bpf/implicit_paths.bpf.o", "prog_id_main");
	test_prog_id("kfunc_implicit_arg_static_subprog", "/bpf/implicit_paths.bpf.o",
		     "prog_id_static_subprog");
	test_prog_id("kfunc_implicit_arg_global_subprog", "/bpf/implicit_paths.bpf.o",
		     "prog_id_global_subprog");
	test_prog_id("kfunc_implicit_arg_callback", "/bpf/implicit_paths.bpf.o",
		     "prog_id_callback");
	test_retval("kfunc_implicit_arg_loop", "/bpf/implicit_paths.bpf.o",
		    "implicit_arg_loop", 2080);
	test_retval("kfunc_implicit_arg_pruning", "/bpf/implicit_paths.bpf.o",
		    "implicit_arg_pruning", 14);
	test_reject("kfunc_implicit_arg_outside_hook", "/bpf/implicit_paths.bpf.o",
		    "implicit_arg_socket_filter",
		    "calling kernel function bpf_kfunc_implicit_arg is not allowed");

	if (raw_setup("kfunc_implicit_arg_raw")) {
		test_raw();
		test_verify_time();
	}

	run_tests("selftest_kfunc_implicit_args", "/bpf/selftests/kfunc_implicit_args.bpf.o");
	run_tests("selftest_wq_failures", "/bpf/selftests/wq_failures.bpf.o");

	/* the corpus --check-prog is judged on (kernel/scripts/check-prog-guest.sh) */
	progload_run("/progmode", accept_report);
	btf_accept_run("/btf-accept", accept_report);
	check_dmesg();
out:
	printf("%d passed, %d failed\n", passed, failed);
	fflush(stdout);
	sync();
	reboot(RB_AUTOBOOT);
	return 0;
}
