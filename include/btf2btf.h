/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * libbtf2btf: the KF_IMPLICIT_ARGS BTF transform as a library.
 *
 * For every kfunc flagged KF_IMPLICIT_ARGS in a BTF_ID_FLAGS set8, the BTF
 * gains a "<kfunc>_impl" FUNC with the real kernel prototype, and the kfunc
 * itself is pointed at a new, reduced FUNC_PROTO without the implicit
 * (struct bpf_prog_aux *) argument and everything after it.
 *
 * Conventions (as in libbpf): every function returning int returns 0 or a
 * negative errno; nothing here prints or exits; diagnostics go through the
 * log callback of struct btf2btf_opts, already prefixed with the file name.
 */
#ifndef BTF2BTF_H
#define BTF2BTF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

#define BTF2BTF_VERSION "0.3.0"

/* Kernel values (include/linux/btf.h, include/linux/btf_ids.h). */
#define BTF2BTF_KF_FASTCALL		(1U << 12)
#define BTF2BTF_KF_ARENA_RET		(1U << 13)
#define BTF2BTF_KF_ARENA_ARG1		(1U << 14)
#define BTF2BTF_KF_ARENA_ARG2		(1U << 15)
#define BTF2BTF_KF_IMPLICIT_ARGS	(1U << 16)
#define BTF2BTF_SET8_KFUNCS		(1U << 0)
#define BTF2BTF_KSYM_NAME_LEN		512
#define BTF2BTF_IMPL_SUFFIX		"_impl"

#if defined(BTF2BTF_EXPORT)
#define BTF2BTF_API __attribute__((visibility("default")))
#else
#define BTF2BTF_API
#endif

/*
 * Deprecation, as libbpf does it: a symbol stays exported (same SONAME)
 * and the compiler warns its callers; it goes only with a SONAME bump.
 */
#define BTF2BTF_DEPRECATED_SINCE(version, msg) \
	__attribute__((deprecated("btf2btf v" #version ": " msg)))

struct btf;
struct btf2btf;

enum btf2btf_log_level {
	BTF2BTF_LOG_ERROR,
	BTF2BTF_LOG_WARN,
	BTF2BTF_LOG_INFO,
	BTF2BTF_LOG_DEBUG,
};

typedef void (*btf2btf_log_fn)(enum btf2btf_log_level level, const char *msg, void *ctx);

/*
 * What the transform does, one bit per behaviour; the CLI spells them as
 * pahole spells --btf_features (--features=implicit_args,kfunc_tags,...).
 */
enum btf2btf_feature {
	BTF2BTF_FEAT_IMPLICIT_ARGS	= 1U << 0,	/* _impl FUNCs + reduced prototypes */
	BTF2BTF_FEAT_KFUNC_TAGS		= 1U << 1,	/* "bpf_kfunc" decl tag on every kfunc */
	BTF2BTF_FEAT_FASTCALL_TAGS	= 1U << 2,	/* "bpf_fastcall" for KF_FASTCALL */
	BTF2BTF_FEAT_ARENA_ATTRS	= 1U << 3,	/* address_space(1) type attributes */
	BTF2BTF_FEAT_DEDUP		= 1U << 4,	/* deduplicate the result */
	BTF2BTF_FEAT_SORT		= 1U << 5,	/* sort types by name */
};
/* What 0 in btf2btf_opts.features means: safe for every kernel (no kind_flag
 * tags, which 6.12 refuses) and byte-compatible with earlier releases. */
#define BTF2BTF_FEATS_DEFAULT		BTF2BTF_FEAT_IMPLICIT_ARGS
/* Everything: what Linux 7.3's resolve_btfids does to the BTF. */
#define BTF2BTF_FEATS_ALL		0x3fU

/*
 * Options of btf2btf__open*(). Declare with BTF2BTF_OPTS() so that sz is
 * set: the library reads only the fields inside sz (a caller built against
 * an older, shorter struct keeps working), and refuses with -EINVAL a sz
 * smaller than sizeof(size_t) or non-zero bytes past the fields it knows (a
 * caller built against a newer struct asking for something this library
 * cannot do). New fields are only ever appended, each release's after the
 * previous release's closing `size_t :0;` (so that they never fall into
 * padding an older library skips), with a `size_t :0;` of their own.
 */
struct btf2btf_opts {
	size_t sz;			/* sizeof(struct btf2btf_opts), for ABI growth */
	const char *btf_path;		/* raw BTF to use instead of the object's .BTF */
	const char *base_path;		/* base BTF (ELF or raw) when the BTF is split */
	/* deprecated since 0.3.0: .features = BTF2BTF_FEAT_KFUNC_TAGS says it
	 * (still honoured; a field cannot carry the compiler's warning) */
	bool add_kfunc_tags;
	btf2btf_log_fn log;		/* NULL: stay silent */
	void *log_ctx;
	/* For linting: set8s disagreeing on KF_IMPLICIT_ARGS for one kfunc are
	 * a warning, not an error of open(); transform() then refuses. */
	bool lenient;
	unsigned int features;		/* BTF2BTF_FEAT_*; 0: BTF2BTF_FEATS_DEFAULT */
	/* with base_path: rewrite the split BTF against a distilled base
	 * (btf2btf__raw_base_btf()), as 7.3 does for external modules */
	bool distill_base;
	/* the base BTF read already by btf2btf__load_base() (of base_path,
	 * which then only names it in messages): many modules, one base
	 * parsed once. Owned by the caller; it must outlive the handle */
	const struct btf *base_btf;
	/* the most bytes a compressed input (.ko.xz, .ko.zst, .ko.gz; the
	 * base and --btf files too) may decompress to, 0:
	 * BTF2BTF_MAX_DECOMPRESSED. Past it, or when the decompressed bytes
	 * are not an ELF object or raw BTF, open refuses the input early
	 * (-EFBIG, -ENOEXEC) instead of reading all of it */
	uint64_t max_decompressed;
	size_t :0;
};

/* The default of btf2btf_opts.max_decompressed: 1 GiB. Debian 12's
 * largest module with its debug info (6.1.0-47 amd64-dbg: amdgpu.ko,
 * 355 MB; median 0.46 MB) and its vmlinux with debug info (631 MB) are
 * below it. Uncompressed inputs have no such limit. */
#define BTF2BTF_MAX_DECOMPRESSED	(1ULL << 30)

/* A struct btf2btf_opts with sz set and the given fields, the rest zero:
 *	BTF2BTF_OPTS(opts, .base_path = "vmlinux");
 *	err = btf2btf__open("mod.ko", &opts, &b);
 */
#define BTF2BTF_OPTS(NAME, ...)						\
	struct btf2btf_opts NAME = ({					\
		memset(&NAME, 0, sizeof(struct btf2btf_opts));		\
		(struct btf2btf_opts){					\
			.sz = sizeof(struct btf2btf_opts),		\
			__VA_ARGS__					\
		};							\
	})

/* How a kfunc was found. */
#define BTF2BTF_FOUND_TAG	(1U << 0)	/* "bpf_kfunc" decl tag */
#define BTF2BTF_FOUND_SET8	(1U << 1)	/* entry of a BTF_SET8_KFUNCS set8 */
/* entry of an unflagged set8 that a kernel from 6.0 to 6.8 (before
 * BTF_SET8_KFUNCS) registers as a kfunc set through a struct
 * btf_kfunc_id_set: a kfunc for the views; the transform, as upstream's
 * resolve_btfids, acts on flagged set8s only and leaves it alone */
#define BTF2BTF_FOUND_KFUNC_ID_SET (1U << 2)

enum btf2btf_kfunc_state {
	BTF2BTF_KFUNC_PLAIN,		/* no KF_IMPLICIT_ARGS: left untouched */
	BTF2BTF_KFUNC_PENDING,		/* KF_IMPLICIT_ARGS, not transformed yet */
	BTF2BTF_KFUNC_TRANSFORMED,	/* reduced proto + new <name>_impl */
	BTF2BTF_KFUNC_LEGACY,		/* reduced proto, <name>_impl came from the source */
	BTF2BTF_KFUNC_ALREADY,		/* the input was already transformed */
};

/* What the transform does to a kfunc (struct btf2btf_kfunc.actions). */
#define BTF2BTF_ACT_ADD_IMPL		(1U << 0)	/* add <name>_impl, kernel prototype */
#define BTF2BTF_ACT_USE_LEGACY		(1U << 1)	/* <name>_impl is in the source already */
#define BTF2BTF_ACT_REDUCE_PROTO	(1U << 2)	/* new proto: the first reduced_params */
#define BTF2BTF_ACT_MOVE_TAGS		(1U << 3)	/* decl tags of dropped params go to _impl */
#define BTF2BTF_ACT_KFUNC_TAG		(1U << 4)	/* add a "bpf_kfunc" decl tag */
#define BTF2BTF_ACT_FASTCALL_TAG	(1U << 5)	/* add "bpf_fastcall" (and on a new _impl) */
#define BTF2BTF_ACT_ARENA_RET		(1U << 6)	/* return type gets address_space(1) */
#define BTF2BTF_ACT_ARENA_ARGS		(1U << 7)	/* the params of arena_args get it */

/*
 * One kfunc and its plan. Owned by the handle and returned by pointer: new
 * fields are only ever appended. The plan is made once, at open, from the
 * features asked for; the transform carries it out and every view prints it.
 */
struct btf2btf_kfunc {
	const char *name;
	uint32_t btf_id;		/* the kfunc's FUNC */
	uint32_t flags;			/* KF_* flags of its BTF_SET8_KFUNCS set8s */
	unsigned int found_by;		/* BTF2BTF_FOUND_* */
	const char *sets;		/* set8 names, comma separated ("" when none) */
	enum btf2btf_kfunc_state state;	/* now: before the transform, or after it */
	uint32_t orig_proto_id;		/* prototype the kernel implements */
	uint32_t impl_id;		/* <name>_impl FUNC, 0 when none (yet) */
	/* the plan */
	enum btf2btf_kfunc_state planned;	/* state once transformed */
	unsigned int actions;		/* BTF2BTF_ACT_* */
	unsigned int reduced_params;	/* ACT_REDUCE_PROTO: parameters kept */
	uint64_t arena_args;		/* ACT_ARENA_ARGS: bit i for parameter i */
	const char *impl_name;		/* "<name>_impl" when KF_IMPLICIT_ARGS, else NULL */
	unsigned int problems;		/* problems naming this kfunc */
	int implicit_arg;		/* first implicit parameter of the kernel prototype, -1 */
	/* impl_id is a kfunc of the source itself, which BPF programs may
	 * call (a legacy one), not the kernel prototype the transform adds */
	bool impl_is_kfunc;
};

enum btf2btf_severity {
	BTF2BTF_SEV_ERROR,		/* the transform refuses the object */
	BTF2BTF_SEV_WARNING,		/* done anyway, as upstream resolve_btfids does */
};

/* A problem the plan found; owned by the handle. */
struct btf2btf_problem {
	const char *rule;		/* stable name, e.g. "implicit-no-arg" */
	enum btf2btf_severity severity;
	const char *name;		/* the function concerned ("" when none) */
	uint32_t id;			/* its FUNC, 0 when none */
	const char *message;		/* one line, without the file name */
};

struct btf2btf_stats {
	unsigned int kfuncs;		/* all kfuncs found */
	unsigned int by_tag;		/* found by decl tag only */
	unsigned int by_set8;		/* found by set8 membership only */
	unsigned int by_both;
	unsigned int implicit;		/* flagged KF_IMPLICIT_ARGS */
	unsigned int transformed;	/* got a reduced proto in this run */
	unsigned int legacy;		/* of those, <name>_impl already in the source */
	unsigned int impl_added;	/* new <name>_impl FUNCs */
	unsigned int already;		/* recognised as transformed by an earlier run */
	unsigned int tags_added;	/* "bpf_kfunc" tags added (add_kfunc_tags) */
	unsigned int warnings;
	unsigned int fastcall_added;	/* "bpf_fastcall" tags added */
	unsigned int arena_protos;	/* prototypes with address_space(1) added */
};

/* Open an ELF object (or, with opts->btf_path, a raw BTF plus the object's
 * .BTF_ids and symbols) and collect its kfuncs. Split BTF that carries its
 * distilled base (a .BTF.base section; FILE.base beside raw FILE or
 * opts->btf_path) is read on it; with opts->base_path it is relocated onto
 * that base as the kernel does at module load (-EINVAL, logged naming the
 * first distilled type without a match, when it cannot be), and a
 * transform distills the result again from that base. */
BTF2BTF_API int btf2btf__open(const char *path, const struct btf2btf_opts *opts, struct btf2btf **out);

/* Same, from an in-memory ELF image (copied). name is used in messages. */
BTF2BTF_API int btf2btf__open_mem(const void *buf, size_t size, const char *name,
		      const struct btf2btf_opts *opts, struct btf2btf **out);

BTF2BTF_API void btf2btf__close(struct btf2btf *b);

/* Read and check the base BTF at path (ELF with .BTF, or raw), as open
 * does for opts.base_path, for opts.base_btf of many opens. Only opts'
 * log fields are used. The caller frees *out with libbpf's btf__free(). */
BTF2BTF_API int btf2btf__load_base(const char *path, const struct btf2btf_opts *opts,
				   struct btf **out);

/* Carry out the plan in memory. All or nothing: on error (a problem of
 * severity error: -EINVAL; -ENOMEM, ...) b, its kfuncs, stats, problems
 * and BTF are as they were, and calling it again gives the same result. */
BTF2BTF_API int btf2btf__transform(struct btf2btf *b);

/* True when the in-memory BTF differs from what was read. */
BTF2BTF_API bool btf2btf__changed(const struct btf2btf *b);

/*
 * How every writer below treats what is at the path: output goes to a temp
 * file in the target's directory, fsync, rename, so the file there is the
 * old one or the complete new one. A symlink is followed (its target is
 * rewritten), a file's mode and owner are kept; refused (-EACCES, -EMLINK,
 * -EINVAL, -EPERM) are a read-only file, a file with other hard links (they
 * would keep the old contents), an owner that cannot be kept, a directory
 * or other file that is not regular; a character device or a FIFO is
 * written to as it is. The raw writers refuse (-EINVAL) a path that is an
 * input of b (the object, opts.btf_path).
 */

/* Replace the object's .BTF section (with opts.btf_path: rewrite that
 * file; with a distilled base, FILE.base too, committed with it). The
 * input is untouched on any error. */
BTF2BTF_API int btf2btf__write_elf(struct btf2btf *b);

/* Write a copy of the ELF object with the .BTF (and with a distilled base
 * .BTF.base) of b at path, as objcopy IN OUT does; the object stays as it
 * is. Not for opts.btf_path (-EINVAL). */
BTF2BTF_API int btf2btf__write_elf_copy(struct btf2btf *b, const char *path);

/* Write the BTF as a raw BTF file. */
BTF2BTF_API int btf2btf__write_raw(struct btf2btf *b, const char *path);

/* Write the BTF to path and the distilled base (see btf2btf__raw_base_btf())
 * to base_path, committed together: on any error neither file changes
 * (short of a crash between the two renames). base_path NULL: path.base,
 * where btf2btf__write_elf() puts it for a raw input (as 7.3's
 * resolve_btfids writes X.BTF and X.BTF.base). */
BTF2BTF_API int btf2btf__write_raw_pair(struct btf2btf *b, const char *path,
					const char *base_path);

/* Build the rewritten ELF image in memory (for tools and fuzzing).
 * The caller frees *data. */
BTF2BTF_API int btf2btf__elf_image(struct btf2btf *b, void **data, size_t *size);

/* Raw BTF bytes of the (possibly transformed) BTF; owned by b, valid until
 * the next call on b (btf2btf__btf() may replace them). */
BTF2BTF_API int btf2btf__raw_btf(struct btf2btf *b, const void **data, size_t *size);

/* Raw bytes of the distilled base (opts.distill_base, after a transform;
 * or, without opts.base_path, the one the object carries, .BTF.base or
 * FILE.base beside a raw FILE, on which the BTF was read): the .BTF.base
 * section of an external module. -ENOENT when there is none. Owned by b. */
BTF2BTF_API int btf2btf__raw_base_btf(struct btf2btf *b, const void **data, size_t *size);

/* Write the distilled base as a raw BTF file. */
BTF2BTF_API int btf2btf__write_raw_base(struct btf2btf *b, const char *path);

/* The BTF: as read, or after a transform its result, split on its base
 * (btf__base_btf(): as read, or the distilled base the transform made).
 * Owned by b. libbpf's view is made on the first call (the library reads
 * BTF without it: a transform and a write need none): NULL then, errno
 * set, when there is no memory for it or libbpf refuses the bytes. */
BTF2BTF_API const struct btf *btf2btf__btf(const struct btf2btf *b);
BTF2BTF_DEPRECATED_SINCE(0.3.0, "use btf__base_btf(btf2btf__btf(b))")
BTF2BTF_API const struct btf *btf2btf__base_btf(const struct btf2btf *b);
BTF2BTF_API const char *btf2btf__path(const struct btf2btf *b);
BTF2BTF_API const struct btf2btf_stats *btf2btf__stats(const struct btf2btf *b);

/* Kfuncs by id. The table is made on first use and kept up to date by the
 * transform, every field of an entry (its name's address too: read it
 * through the entry after btf2btf__transform(), do not keep it across);
 * an entry is valid until b is closed. NULL (errno set) past the end or
 * without memory. */
BTF2BTF_API size_t btf2btf__kfunc_cnt(const struct btf2btf *b);
BTF2BTF_API const struct btf2btf_kfunc *btf2btf__kfunc(const struct btf2btf *b, size_t idx);

/* Problems of the plan: set8 entries first (in .BTF_ids order), then kfuncs
 * by id. The same list whatever the transform did. */
BTF2BTF_API size_t btf2btf__problem_cnt(const struct btf2btf *b);
BTF2BTF_API const struct btf2btf_problem *btf2btf__problem(const struct btf2btf *b, size_t idx);
/* The features the plan was made for (never 0). */
BTF2BTF_API unsigned int btf2btf__features(const struct btf2btf *b);

/* One (id, flags) pair of a set8 in .BTF_ids, as read. Owned by the
 * library (it may grow at its end): read it through the pointer. */
struct btf2btf_set8_entry {
	const char *set;		/* set8 name */
	uint32_t set_flags;		/* BTF2BTF_SET8_* of that set8 */
	const char *name;		/* from the pair's symbol (unresolved set8), else NULL */
	uint32_t id;			/* resolved set8: the id the pair holds; else the FUNC
					 * of that name in the BTF or its base (0: none) */
	uint32_t flags;			/* the pair's flags word (KF_*) */
};

/* Pairs of every set8 attributed to a function, in set order. The entry is
 * valid until b is closed (the transform may move its name: read it through
 * the entry); NULL (errno set) past the end or without memory. */
BTF2BTF_API size_t btf2btf__set8_entry_cnt(const struct btf2btf *b);
BTF2BTF_API const struct btf2btf_set8_entry *btf2btf__set8_entry(const struct btf2btf *b,
								  size_t idx);

/* What an object says of its kernel and of where its kfunc sets are. */
struct btf2btf_object_info {
	bool elf;			/* an ELF object (false: raw BTF) */
	bool has_btf_ids;		/* a .BTF_ids section */
	bool has_symtab;		/* with it, a symbol table (set8s can be found) */
	unsigned int set8s;		/* set8s found */
	/* KERNEL_VERSION(major, minor, 0) from .modinfo vermagic (a module) or
	 * linux_banner (a vmlinux); 0: unknown (an unlinked object) */
	uint32_t kernel_version;
	const char *kernel_release;	/* "6.1.0-50-cloud-amd64", "" when unknown */
	/* kernels 6.0-6.8: unflagged set8s a struct btf_kfunc_id_set registers as
	 * kfunc sets (BTF2BTF_FOUND_KFUNC_ID_SET), and as fmod_ret allow-lists */
	unsigned int kfunc_id_sets;
	unsigned int fmodret_sets;
	/* the BTF carries its own distilled base (.BTF.base, or FILE.base beside
	 * a raw FILE): its type count (0: none); relocated: it was relocated
	 * onto opts.base_path as the kernel relocates it at module load */
	unsigned int distilled_base_types;
	bool relocated;
	/* a kernel module: a .modinfo or .gnu.linkonce.this_module section,
	 * or BTF split on a base (or a distilled base) */
	bool module;
};

/* Owned by b; never NULL for an open handle. */
BTF2BTF_API const struct btf2btf_object_info *btf2btf__object_info(const struct btf2btf *b);

/* Index of the first implicit parameter (a pointer, through modifiers but
 * not typedefs, to struct bpf_prog_aux or struct btf_struct_meta) of
 * FUNC_PROTO proto_id; -ENOENT if it has none, -EINVAL if it is no FUNC_PROTO. */
BTF2BTF_DEPRECATED_SINCE(0.3.0, "use the kfunc table's implicit_arg (btf2btf__kfunc())")
BTF2BTF_API int btf2btf__implicit_arg(const struct btf *btf, uint32_t proto_id);

/* Names of KF_* flag bits; NULL for an unknown bit. */
BTF2BTF_DEPRECATED_SINCE(0.3.0, "use btf2btf__kf_flags_str(), the one spelling of flags")
BTF2BTF_API const char *btf2btf__kf_flag_name(unsigned int bit);

/* KF_* flags as text, the one spelling of every message and view:
 * "KF_ACQUIRE|KF_RET_NULL|0x80000000" (the bits without a name as one hex
 * number), "-" for none. Written into buf as snprintf() writes (cut short
 * and NUL-terminated when size is too small); returns the length of the
 * whole text. */
BTF2BTF_API int btf2btf__kf_flags_str(uint32_t flags, char *buf, size_t size);

/* Name of BTF kind BTF_KIND_* as bpftool prints it ("FUNC_PROTO"); "UNKNOWN"
 * for a kind this library does not know. */
BTF2BTF_API const char *btf2btf__kind_name(unsigned int kind);

BTF2BTF_API const char *btf2btf__version(void);

#ifdef __cplusplus
}
#endif

#endif /* BTF2BTF_H */
