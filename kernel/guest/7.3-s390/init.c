// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * /init of the big-endian (s390x) 7.3 guest: reads the BTF the kernel
 * exposes back (/sys/kernel/btf/vmlinux, written by btf2btf in the cross
 * build) for the KF_IMPLICIT_ARGS kfuncs, loads BTF with BPF_BTF_LOAD
 * (btf_accept.c: the running kernel's own, and the differential's objects in
 * big-endian byte order), checks the kernel log for BTF errors; "PASS name"
 * / "FAIL name: why" per test, then "N passed, M failed", then reboots (QEMU
 * runs with -no-reboot).
 *
 * Static, built with s390x-linux-gnu-gcc; no libbpf (there is none for
 * s390x on this machine), so the BTF is read with the few lines below.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <linux/btf.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/syscall.h>
#include <termios.h>
#include <unistd.h>

#include "btf_accept.h"

static int passed, failed;

static void result(bool ok, const char *name, const char *fmt, ...)
{
	char why[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	if (ok)
		passed++;
	else
		failed++;
	printf("%s %s: %s\n", ok ? "PASS" : "FAIL", name, why);
}

static void report(bool ok, const char *name, const char *why)
{
	result(ok, name, "%s", why);
}

/* a BTF as the kernel exposes it: host byte order, split on BASE or not */
struct kbtf {
	char *data;
	const struct btf_type **types;	/* this BTF's own types, from start_id */
	unsigned int nr, start_id, start_str, str_len;
	const char *strs;
	const struct kbtf *base;
};

static size_t type_size(const struct btf_type *t)
{
	unsigned int vlen = BTF_INFO_VLEN(t->info);

	switch (BTF_INFO_KIND(t->info)) {
	case BTF_KIND_INT: case BTF_KIND_VAR: case BTF_KIND_DECL_TAG:
		return sizeof(*t) + 4;
	case BTF_KIND_ARRAY:
		return sizeof(*t) + sizeof(struct btf_array);
	case BTF_KIND_STRUCT: case BTF_KIND_UNION:
		return sizeof(*t) + vlen * sizeof(struct btf_member);
	case BTF_KIND_DATASEC:
		return sizeof(*t) + vlen * sizeof(struct btf_var_secinfo);
	case BTF_KIND_ENUM64:
		return sizeof(*t) + vlen * sizeof(struct btf_enum64);
	case BTF_KIND_ENUM:
		return sizeof(*t) + vlen * sizeof(struct btf_enum);
	case BTF_KIND_FUNC_PROTO:
		return sizeof(*t) + vlen * sizeof(struct btf_param);
	case BTF_KIND_PTR: case BTF_KIND_FWD: case BTF_KIND_TYPEDEF: case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST: case BTF_KIND_RESTRICT: case BTF_KIND_FUNC: case BTF_KIND_FLOAT:
	case BTF_KIND_TYPE_TAG:
		return sizeof(*t);
	}
	return 0;	/* a kind this reader does not know */
}

/* 0, or why PATH could not be read as BTF */
static const char *kbtf_open(struct kbtf *b, const char *path, const struct kbtf *base)
{
	static char why[300];
	const struct btf_header *hdr;
	size_t cap = 1 << 20, len = 0, off, sz;
	const char *p, *end;
	ssize_t n;
	int fd = open(path, O_RDONLY);

	memset(b, 0, sizeof(*b));
	b->base = base;
	if (fd < 0)
		return strerror(errno);
	b->data = malloc(cap);
	while (b->data && (n = read(fd, b->data + len, cap - len)) > 0)
		if ((len += n) == cap)
			b->data = realloc(b->data, cap *= 2);
	close(fd);
	if (!b->data)
		return strerror(ENOMEM);
	hdr = (const struct btf_header *)b->data;
	if (len < sizeof(*hdr) || hdr->magic != BTF_MAGIC)
		return "no BTF magic in the host's byte order";
	p = b->data + hdr->hdr_len + hdr->type_off;
	end = p + hdr->type_len;
	b->strs = b->data + hdr->hdr_len + hdr->str_off;
	b->str_len = hdr->str_len;
	b->start_id = base ? base->start_id + base->nr : 1;
	b->start_str = base ? base->start_str + base->str_len : 0;
	for (off = 0; p + off < end; off += sz, b->nr++) {
		sz = type_size((const struct btf_type *)(p + off));
		if (!sz) {
			snprintf(why, sizeof(why), "unknown kind %u at type %u",
				 BTF_INFO_KIND(((const struct btf_type *)(p + off))->info),
				 b->start_id + b->nr);
			return why;
		}
	}
	b->types = calloc(b->nr, sizeof(*b->types));
	if (!b->types)
		return strerror(ENOMEM);
	for (off = 0, n = 0; p + off < end; off += type_size(b->types[n++]))
		b->types[n] = (const struct btf_type *)(p + off);
	return NULL;
}

static const struct btf_type *kbtf_type(const struct kbtf *b, unsigned int id)
{
	if (id < b->start_id)
		return b->base ? kbtf_type(b->base, id) : NULL;
	return id - b->start_id < b->nr ? b->types[id - b->start_id] : NULL;
}

static const char *kbtf_str(const struct kbtf *b, unsigned int off)
{
	if (off < b->start_str)
		return b->base ? kbtf_str(b->base, off) : "?";
	return off - b->start_str < b->str_len ? b->strs + off - b->start_str : "?";
}

/* the type id of FUNC NAME among B's own types, or 0 */
static unsigned int kbtf_func_id(const struct kbtf *b, const char *name)
{
	for (unsigned int i = 0; i < b->nr; i++) {
		const struct btf_type *t = b->types[i];

		if (BTF_INFO_KIND(t->info) == BTF_KIND_FUNC && !strcmp(kbtf_str(b, t->name_off), name))
			return b->start_id + i;
	}
	return 0;
}

/* the prototype of FUNC NAME among B's own types */
static const struct btf_type *kbtf_func_proto(const struct kbtf *b, const char *name)
{
	unsigned int id = kbtf_func_id(b, name);

	return id ? kbtf_type(b, kbtf_type(b, id)->type) : NULL;
}

static int nparams(const struct btf_type *proto)
{
	return proto && BTF_INFO_KIND(proto->info) == BTF_KIND_FUNC_PROTO ?
	       (int)BTF_INFO_VLEN(proto->info) : -1;
}

/* "struct NAME *" of PROTO's last parameter, or "" */
static const char *last_param_struct(const struct kbtf *b, const struct btf_type *proto)
{
	const struct btf_param *params = (const struct btf_param *)(proto + 1);
	const struct btf_type *t;
	int n = nparams(proto);

	if (n <= 0)
		return "";
	t = kbtf_type(b, params[n - 1].type);
	if (!t || BTF_INFO_KIND(t->info) != BTF_KIND_PTR)
		return "";
	t = kbtf_type(b, t->type);
	return t && BTF_INFO_KIND(t->info) == BTF_KIND_STRUCT ? kbtf_str(b, t->name_off) : "";
}

/*
 * The kfuncs' reduced prototypes and their _impl, read back from big-endian
 * BTF into VMLINUX; false when it cannot be read.
 */
static bool check_btf(struct kbtf *vmlinux)
{
	/* the first four's _impl exist only in BTF: their last parameter is the aux */
	static const struct { const char *fn; int reduced, impl; bool aux; } kf[] = {
		{ "bpf_wq_set_callback", 3, 4, true },
		{ "bpf_stream_vprintk", 4, 5, true },
		{ "bpf_task_work_schedule_signal", 4, 5, true },
		{ "bpf_task_work_schedule_resume", 4, 5, true },
		{ "bpf_obj_new", 1, 2, false },
		{ "bpf_list_push_front", 2, 4, false },
		{ "bpf_rbtree_add", 3, 5, false },
	};
	const struct btf_type *fp, *ip;
	char impl[128], name[160];
	const char *err, *aux;
	size_t i;

	err = kbtf_open(vmlinux, "/sys/kernel/btf/vmlinux", NULL);
	result(!err, "btf_vmlinux_read", "%s%u types, %u string bytes, magic 0x%02x%02x in memory",
	       err ? err : "", vmlinux->nr, vmlinux->str_len,
	       vmlinux->data ? (unsigned char)vmlinux->data[0] : 0,
	       vmlinux->data ? (unsigned char)vmlinux->data[1] : 0);
	if (err)
		return false;
	for (i = 0; i < sizeof(kf) / sizeof(kf[0]); i++) {
		snprintf(impl, sizeof(impl), "%s_impl", kf[i].fn);
		snprintf(name, sizeof(name), "btf_vmlinux_%s", kf[i].fn);
		fp = kbtf_func_proto(vmlinux, kf[i].fn);
		ip = kbtf_func_proto(vmlinux, impl);
		aux = ip ? last_param_struct(vmlinux, ip) : "";
		result(nparams(fp) == kf[i].reduced && nparams(ip) == kf[i].impl &&
		       (!kf[i].aux || !strcmp(aux, "bpf_prog_aux")), name,
		       "%s: %d params, %s: %d, its last: struct %s *", kf[i].fn, nparams(fp),
		       impl, nparams(ip), aux[0] ? aux : "-");
	}
	return true;
}

static long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

/* 7.3's enum bpf_stream_id; the cross toolchain's headers are 6.1's */
#define BPF_STDOUT_7_3 1

#define STREAM_FMT "s390x stream %d\n"

/*
 * A read-only, frozen array map holding STREAM_FMT: the constant string a
 * "__str" kfunc argument must point to. An fd, or -1 with WHY filled.
 */
static int stream_fmt_map(char *why, size_t size)
{
	static const char fmt[32] = STREAM_FMT;
	union bpf_attr attr;
	__u32 key = 0;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = BPF_MAP_TYPE_ARRAY;
	attr.key_size = sizeof(key);
	attr.value_size = sizeof(fmt);
	attr.max_entries = 1;
	attr.map_flags = BPF_F_RDONLY_PROG;
	fd = sys_bpf(BPF_MAP_CREATE, &attr);
	if (fd < 0) {
		snprintf(why, size, "BPF_MAP_CREATE: %s", strerror(errno));
		return -1;
	}
	memset(&attr, 0, sizeof(attr));
	attr.map_fd = fd;
	attr.key = (unsigned long)&key;
	attr.value = (unsigned long)fmt;
	if (sys_bpf(BPF_MAP_UPDATE_ELEM, &attr)) {
		snprintf(why, size, "BPF_MAP_UPDATE_ELEM: %s", strerror(errno));
		close(fd);
		return -1;
	}
	/* BPF_MAP_FREEZE takes the map fd alone */
	memset(&attr, 0, sizeof(attr));
	attr.map_fd = fd;
	if (sys_bpf(BPF_MAP_FREEZE, &attr)) {
		snprintf(why, size, "BPF_MAP_FREEZE: %s", strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * A sleepable syscall program doing KFUNC(BPF_STDOUT, STREAM_FMT, &42, 8)
 * through the kfunc call of BTF id ID (r5 = 0 too, for an _impl's aux).
 * Its fd, or -1 with the verifier's log in LOG.
 */
static int stream_prog_load(int map_fd, unsigned int id, char *log, size_t log_size)
{
	struct bpf_insn insns[] = {
		{ .code = BPF_ST | BPF_MEM | BPF_DW, .dst_reg = BPF_REG_10, .off = -8, .imm = 42 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_1, .imm = BPF_STDOUT_7_3 },
		{ .code = BPF_LD | BPF_DW | BPF_IMM, .dst_reg = BPF_REG_2,
		  .src_reg = BPF_PSEUDO_MAP_VALUE, .imm = map_fd },
		{ .imm = 0 },	/* offset in the map value */
		{ .code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = BPF_REG_3, .src_reg = BPF_REG_10 },
		{ .code = BPF_ALU64 | BPF_ADD | BPF_K, .dst_reg = BPF_REG_3, .imm = -8 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_4, .imm = 8 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_5, .imm = 0 },
		{ .code = BPF_JMP | BPF_CALL, .src_reg = BPF_PSEUDO_KFUNC_CALL, .imm = (int)id },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_SYSCALL;
	attr.prog_flags = BPF_F_SLEEPABLE;
	attr.insns = (unsigned long)insns;
	attr.insn_cnt = sizeof(insns) / sizeof(insns[0]);
	attr.license = (unsigned long)"GPL";
	attr.log_buf = (unsigned long)log;
	attr.log_size = log_size;
	attr.log_level = 1;
	log[0] = '\0';
	return sys_bpf(BPF_PROG_LOAD, &attr);
}

/* the last line of the verifier's LOG that is not empty, in place */
static const char *log_last_line(char *log)
{
	size_t n = strlen(log);
	char *nl;

	while (n && log[n - 1] == '\n')
		log[--n] = '\0';
	nl = strrchr(log, '\n');
	return nl ? nl + 1 : log;
}

/*
 * Where the verifier put the program's aux for the kfunc call in the
 * translated program of FD: the 64-bit value it loads into R5 just before
 * the call (0 when it loads nothing there); -1 when the program cannot be
 * read.
 */
static long long aux_before_call(int fd)
{
	struct bpf_insn insns[64];
	struct bpf_prog_info info;
	union bpf_attr attr;
	unsigned int i, n;

	memset(&info, 0, sizeof(info));
	info.xlated_prog_len = sizeof(insns);
	info.xlated_prog_insns = (unsigned long)insns;
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = fd;
	attr.info.info_len = sizeof(info);
	attr.info.info = (unsigned long)&info;
	if (sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr) || info.xlated_prog_len > sizeof(insns))
		return -1;
	n = info.xlated_prog_len / sizeof(insns[0]);
	for (i = 2; i < n; i++)
		if (insns[i].code == (BPF_JMP | BPF_CALL) &&
		    insns[i - 2].code == (BPF_LD | BPF_DW | BPF_IMM) && insns[i - 2].dst_reg == BPF_REG_5)
			return (long long)((unsigned long long)(__u32)insns[i - 1].imm << 32 |
					   (__u32)insns[i - 2].imm);
	return 0;
}

/*
 * A KF_IMPLICIT_ARGS kfunc called through the big-endian BTF: the verifier
 * takes bpf_stream_vprintk with its reduced prototype (4 arguments), knows
 * from the set8 flags of .BTF_ids (byte order!) that the 5th, the
 * struct bpf_prog_aux *, is the kernel's to pass, and loads it into R5 in
 * front of the call; a call of the _impl FUNC (the full prototype, in BTF
 * only) is refused. Not run: without CONFIG_NET there is no
 * BPF_PROG_TEST_RUN (net/bpf/test_run.c), and this config has no other
 * program type the guest could trigger (kernel/README.md).
 */
static void check_stream_kfunc(const struct kbtf *vmlinux)
{
	static char log[1 << 16];
	unsigned int id = kbtf_func_id(vmlinux, "bpf_stream_vprintk");
	unsigned int impl = kbtf_func_id(vmlinux, "bpf_stream_vprintk_impl");
	const char *refusal = "cannot find address for kernel function bpf_stream_vprintk_impl";
	char why[600];
	long long aux;
	int map_fd, fd;
	bool refused;

	map_fd = stream_fmt_map(why, sizeof(why));
	if (map_fd < 0) {
		report(false, "kfunc_stream_vprintk", why);
		return;
	}
	fd = stream_prog_load(map_fd, id, log, sizeof(log));
	if (fd < 0) {
		result(false, "kfunc_stream_vprintk", "BTF id %u: BPF_PROG_LOAD: %s: %s", id,
		       strerror(errno), log_last_line(log));
	} else {
		aux = aux_before_call(fd);
		result(aux != 0 && aux != -1, "kfunc_stream_vprintk",
		       "bpf_stream_vprintk (BTF id %u) called with 4 arguments: loaded, the verifier "
		       "loads %s into R5 before the call", id,
		       aux == -1 ? "? (BPF_OBJ_GET_INFO_BY_FD failed)" :
		       aux ? "the program's aux" : "nothing");
		close(fd);
	}
	fd = stream_prog_load(map_fd, impl, log, sizeof(log));
	refused = fd < 0 && strstr(log, refusal);
	result(impl && refused, "kfunc_stream_vprintk_impl_refused",
	       "bpf_stream_vprintk_impl (BTF id %u): %s: \"%s\"", impl,
	       fd < 0 ? "refused" : "loaded", refused ? refusal : log_last_line(log));
	if (fd >= 0)
		close(fd);
	close(map_fd);
}

int main(void)
{
	struct kbtf vmlinux;

	setvbuf(stdout, NULL, _IOLBF, 0);
	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	printf("INFO 7.3 s390x guest (big-endian)\n");

	if (check_btf(&vmlinux))
		check_stream_kfunc(&vmlinux);
	btf_accept_run("/btf-accept", report);
	guest_check_dmesg(report);

	printf("%d passed, %d failed\n", passed, failed);
	fflush(stdout);
	/*
	 * The SCLP line-mode tty sends what it buffered from a timer, and the
	 * reboot deactivates the SCLP: without waiting here the last lines
	 * (the summary among them) never reach the console.
	 */
	tcdrain(STDOUT_FILENO);
	sync();
	reboot(RB_AUTOBOOT);
	return 0;
}
