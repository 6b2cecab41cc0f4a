// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * bench: run every command of a spec several times, interleaved (one round
 * runs each command once, so a burst of load on this shared machine hits
 * all of them alike), and print per input the median wall time, median CPU
 * time, the child's peak RSS (ru_maxrss from wait4) and the output size,
 * then the goals of issues 7, 12 and 26 and one summary line:
 *
 *   bench: vmlinux ratio=R1 scaling10x=R2 rss_ratio=R3 all_vs_upstream=R4
 *          all_scaling10x=R5 modules_vs_upstream=R6 largest_rss_ok=N/M
 *
 * Usage: bench [-r RUNS] [-w WARMUP] [-l LOGDIR] SPEC
 *
 * SPEC, one record a line, fields separated by TABs:
 *   input  ID  KIND  LABEL  [NOTE]    KIND: vmlinux-pre | vmlinux | sys | vmlinux73 |
 *                                           modset:N | synthetic:N | module
 * (vmlinux-pre: a vmlinux whose BTF the transform has not seen yet; modset:N:
 * N modules on their vmlinux, rows MODSET_ONE, MODSET_PER, MODSET_GEN and MODSET_UP;
 * module: one of the largest modules, rows MODULE_GEN and MODULE_UP)
 *   skip   LABEL  REASON
 *   row    ID  TOOL  OUT  PREP  ARGV0 [ARGV1 ...]
 * TOOL names the row; btf2btf, "btf2btf --features=all", parse+write,
 * bpftool-dump, resolve_btfids-7.3 and "btf2btf@e70b18f --features=all"
 * are the ones the goals use. OUT is the file whose size is reported ("-":
 * none). PREP ("-": none) is a /bin/sh command run before every run of the
 * row and not timed (e.g. a fresh copy of the file a tool rewrites). The
 * command's stdout goes to /dev/null, its stderr to LOGDIR/<row>.err.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_ARGS 32
#define MAX_INPUTS 128
#define MAX_ROWS 512

/* K_V73 comes after K_SYS: never the summary input (that is 6.12's) */
enum kind { K_PRE, K_VMLINUX, K_SYS, K_V73, K_MODSET, K_SYNTH, K_MODULE };

/* the rows of a module set (bench/run.sh) */
#define MODSET_ONE "btf2btf all, one run"
#define MODSET_PER "btf2btf all, per module"
#define MODSET_GEN "btf2btf all, per module, gen-btf"
#define MODSET_UP "resolve_btfids-7.3 per module"
/* the rows of one of the largest modules */
#define MODULE_GEN "btf2btf all, gen-btf"
#define MODULE_UP "resolve_btfids-7.3"

struct input {
	char *id, *label, *note;
	enum kind kind;
	unsigned long n;	/* synthetic: kfuncs; modset: modules */
};

struct row {
	struct input *in;
	char *tool, *out, *prep;
	char *argv[MAX_ARGS + 1];
	double *wall, *cpu;	/* seconds, one per run */
	long maxrss_kb;		/* max over runs */
	int nr;
	bool failed;
	char err_path[512];
};

static struct input inputs[MAX_INPUTS];
static int nr_inputs;
static struct row rows[MAX_ROWS];
static int nr_rows;
static char *skips[32][2];
static int nr_skips;

static void die(const char *msg)
{
	fprintf(stderr, "bench: %s\n", msg);
	exit(1);
}

static struct input *find_input(const char *id)
{
	for (int i = 0; i < nr_inputs; i++)
		if (!strcmp(inputs[i].id, id))
			return &inputs[i];
	return NULL;
}

static int split_tabs(char *line, char **f, int max)
{
	int n = 0;

	line[strcspn(line, "\n")] = 0;
	while (n < max) {
		f[n++] = line;
		line = strchr(line, '\t');
		if (!line)
			break;
		*line++ = 0;
	}
	return n;
}

static void read_spec(const char *path, int runs)
{
	char buf[4096], *f[MAX_ARGS + 8];
	FILE *fp = fopen(path, "r");

	if (!fp)
		die("cannot open spec");
	while (fgets(buf, sizeof(buf), fp)) {
		int n;

		if (buf[0] == '#' || buf[0] == '\n')
			continue;
		n = split_tabs(buf, f, MAX_ARGS + 6);
		if ((!strcmp(f[0], "input") && nr_inputs == MAX_INPUTS) ||
		    (!strcmp(f[0], "row") && nr_rows == MAX_ROWS))
			die("too many inputs or rows in spec");
		if (!strcmp(f[0], "input") && n >= 4) {
			struct input *in = &inputs[nr_inputs++];

			in->id = strdup(f[1]);
			in->label = strdup(f[3]);
			in->note = strdup(n > 4 ? f[4] : "");
			if (!strcmp(f[2], "vmlinux-pre"))
				in->kind = K_PRE;
			else if (!strcmp(f[2], "vmlinux"))
				in->kind = K_VMLINUX;
			else if (!strcmp(f[2], "sys"))
				in->kind = K_SYS;
			else if (!strcmp(f[2], "vmlinux73"))
				in->kind = K_V73;
			else if (!strncmp(f[2], "modset:", 7)) {
				in->kind = K_MODSET;
				in->n = strtoul(f[2] + 7, NULL, 10);
			} else if (!strncmp(f[2], "synthetic:", 10)) {
				in->kind = K_SYNTH;
				in->n = strtoul(f[2] + 10, NULL, 10);
			} else if (!strcmp(f[2], "module")) {
				in->kind = K_MODULE;
			} else
				die("bad input kind in spec");
		} else if (!strcmp(f[0], "skip") && n >= 3 && nr_skips < 32) {
			skips[nr_skips][0] = strdup(f[1]);
			skips[nr_skips++][1] = strdup(f[2]);
		} else if (!strcmp(f[0], "row") && n >= 6) {
			struct row *r = &rows[nr_rows++];

			r->in = find_input(f[1]);
			if (!r->in)
				die("row before its input in spec");
			r->tool = strdup(f[2]);
			r->out = strdup(f[3]);
			r->prep = strdup(f[4]);
			for (int i = 5; i < n && i - 5 < MAX_ARGS; i++)
				r->argv[i - 5] = strdup(f[i]);
			r->wall = calloc(runs, sizeof(double));
			r->cpu = calloc(runs, sizeof(double));
			if (!r->wall || !r->cpu)
				die("out of memory");
		} else {
			die("bad spec line");
		}
	}
	fclose(fp);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* One run: prep and sync (untimed), then fork+exec, wait4. */
static int run_once(struct row *r, double *wall, double *cpu, long *maxrss)
{
	struct rusage ru;
	double t0, t1;
	int status;
	pid_t pid;

	if (strcmp(r->prep, "-") && system(r->prep) != 0)
		return -1;
	/* the rows that write without fsync (resolve_btfids) leave dirty pages
	 * that the next row's fsync would write out (an ext4 journal commit
	 * takes them along): flushed here, untimed, so no row pays for another */
	sync();
	t0 = now();
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		int err = open(r->err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (null >= 0)
			dup2(null, STDOUT_FILENO);
		if (err >= 0)
			dup2(err, STDERR_FILENO);
		execvp(r->argv[0], r->argv);
		_exit(127);
	}
	while (wait4(pid, &status, 0, &ru) < 0)
		if (errno != EINTR)
			return -1;
	t1 = now();
	*wall = t1 - t0;
	*cpu = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec +
	       ru.ru_stime.tv_usec / 1e6;
	*maxrss = ru.ru_maxrss;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(const double *v, int n)
{
	double tmp[n > 0 ? n : 1];

	if (!n)
		return NAN;
	memcpy(tmp, v, n * sizeof(*v));
	qsort(tmp, n, sizeof(*tmp), cmp_double);
	return n % 2 ? tmp[n / 2] : (tmp[n / 2 - 1] + tmp[n / 2]) / 2;
}

static struct row *find_row(const struct input *in, const char *tool)
{
	for (int i = 0; i < nr_rows; i++)
		if (rows[i].in == in && !strcmp(rows[i].tool, tool) && !rows[i].failed)
			return &rows[i];
	return NULL;
}

static double row_wall(const struct row *r)
{
	return r ? median(r->wall, r->nr) : NAN;
}

static long file_size(const char *path)
{
	struct stat st;

	if (!strcmp(path, "-") || stat(path, &st))
		return -1;
	return st.st_size;
}

/* BTF size of an input: the raw bytes parse+write wrote. */
static long btf_size(const struct input *in)
{
	struct row *pw = find_row(in, "parse+write");

	return pw ? file_size(pw->out) : -1;
}

static const char *verdict(bool ok)
{
	return ok ? "ok" : "MISSED";
}

static void loadavg(char *buf, size_t len)
{
	FILE *fp = fopen("/proc/loadavg", "r");

	snprintf(buf, len, "?");
	if (fp) {
		if (fgets(buf, len, fp))
			buf[strcspn(buf, " ")] = 0;	/* the 1-minute figure */
		fclose(fp);
	}
}

static void print_tables(void)
{
	for (int i = 0; i < nr_inputs; i++) {
		struct input *in = &inputs[i];
		double pw = row_wall(find_row(in, "parse+write"));
		long bs = btf_size(in);
		bool modset = in->kind == K_MODSET, module = in->kind == K_MODULE;

		/* a module's rows: their time against resolve_btfids' */
		if (module)
			pw = row_wall(find_row(in, MODULE_UP));
		printf("\n%s%s%s\n", in->label, *in->note ? ": " : "", in->note);
		printf("  %-30s %10s %10s %12s %14s %10s\n", "tool", "wall ms", "cpu ms",
		       "peak RSS KB", "output bytes", modset ? "ms/module" : module ? "time/rb-7.3" : "time/p+w");
		for (int j = 0; j < nr_rows; j++) {
			struct row *r = &rows[j];
			long os;

			if (r->in != in)
				continue;
			if (r->failed) {
				printf("  %-30s FAILED (see %s)\n", r->tool, r->err_path);
				continue;
			}
			os = file_size(r->out);
			printf("  %-30s %10.2f %10.2f %12ld ", r->tool, row_wall(r) * 1e3,
			       median(r->cpu, r->nr) * 1e3, r->maxrss_kb);
			if (os >= 0)
				printf("%14ld ", os);
			else
				printf("%14s ", "-");
			if (modset)
				printf("%10.2f\n", row_wall(r) * 1e3 / in->n);
			else
				printf("%10.2f\n", row_wall(r) / pw);
		}
		if (bs >= 0)
			printf("  (BTF %ld bytes)\n", bs);
	}
	for (int i = 0; i < nr_skips; i++)
		printf("\n%s: skipped: %s\n", skips[i][0], skips[i][1]);
}

/*
 * The btf2btf CLI reserves the heap of an input of 1 MB or more for
 * transparent huge pages (src/cli/heap.c); parse+write does not. The same
 * ratio against the floor with that heap policy says how much of the lead
 * is the policy and how much the work btf2btf does. Information, no goal.
 */
static void info_huge_heap(struct input *in, const char *tool, const char *label)
{
	struct row *r = find_row(in, tool), *hh = find_row(in, "parse+write --huge-heap");

	if (r && hh)
		printf("  %-28s %s/parse+write --huge-heap = %5.2f  (info: the floor with btf2btf's heap policy)\n",
		       in->id, label, row_wall(r) / row_wall(hh));
}

/*
 * btf2btf --features=all (what 7.3's resolve_btfids does to BTF) against
 * resolve_btfids-7.3 on the same raw BTF and object. Issue 26, on real
 * inputs: <= 0.25x its time on a vmlinux, <= 0.15x on a module, peak RSS
 * <= its own, and no more than 1.2x the time of the e70b18f build when the
 * row is there. Synthetic inputs: the ratios as information, the scaling
 * curve below. *worst_up: the largest time ratio to upstream on a real
 * input; *worst_scale: the largest ratio between consecutive synthetic sizes.
 */
static void goals_features_all(struct input **synth, int nr_synth, double *worst_up,
			       double *worst_scale)
{
	static const char all[] = "btf2btf --features=all";

	for (int i = 0; i < nr_inputs; i++) {
		struct input *in = &inputs[i];
		struct row *a = find_row(in, all), *up = find_row(in, "resolve_btfids-7.3");
		struct row *old = find_row(in, "btf2btf@e70b18f --features=all");
		bool real = in->kind != K_SYNTH;
		double goal = 0.25;

		if (!a)
			continue;
		if (up) {
			double ratio = row_wall(a) / row_wall(up);
			double cpu = median(a->cpu, a->nr) / median(up->cpu, up->nr);

			if (real) {
				printf("  %-28s all/resolve_btfids-7.3 = %5.2f  (goal <= %.2f)  %s  (cpu %5.2f)\n",
				       in->id, ratio, goal, verdict(ratio <= goal), cpu);
				printf("  %-28s all: peak RSS %ld KB, resolve_btfids-7.3 %ld KB  (goal <=)  %s\n",
				       in->id, a->maxrss_kb, up->maxrss_kb,
				       verdict(a->maxrss_kb <= up->maxrss_kb));
				if (isnan(*worst_up) || ratio > *worst_up)
					*worst_up = ratio;
			} else {
				printf("  %-28s all/resolve_btfids-7.3 = %5.2f  (synthetic: no goal)  (cpu %5.2f)\n",
				       in->id, ratio, cpu);
			}
		}
		if (old && real)
			printf("  %-28s all / e70b18f's = %5.2f  (goal <= 1.20)  %s\n", in->id,
			       row_wall(a) / row_wall(old), verdict(row_wall(a) / row_wall(old) <= 1.2));
	}
	for (int i = 1; i < nr_synth; i++) {
		struct row *a0 = find_row(synth[i - 1], all), *a1 = find_row(synth[i], all);
		double ratio, kratio = (double)synth[i]->n / synth[i - 1]->n;
		char what[64];

		if (!a0 || !a1)
			continue;
		ratio = row_wall(a1) / row_wall(a0);
		snprintf(what, sizeof(what), "kfuncs %lu -> %lu", synth[i - 1]->n, synth[i]->n);
		printf("  %-28s all: time x%-6.2f (scaling curve, %.0fx kfuncs)\n", what, ratio,
		       kratio);
		if (isnan(*worst_scale) || ratio > *worst_scale)
			*worst_scale = ratio;
	}
}

/*
 * Module sets: btf2btf --features=all over every module in one process (the
 * base read once, each .ko rewritten in place), once per module in place,
 * and once per module as our 7.3 patch's gen-btf.sh runs it (--btf X.BTF.1
 * -o X.BTF), against 7.3's resolve_btfids once per module, as stock
 * gen-btf.sh runs it. Issue 26's module goal, <= 0.15x its time: one run,
 * and per module on the row that reads and writes the files resolve_btfids
 * does (the in-place row also rewrites and fsyncs the whole .ko: its ratio
 * is information). Peak RSS (a row's is its largest process) <= its own.
 * *worst: the largest one-run ratio.
 */
static void goals_modsets(double *worst)
{
	for (int i = 0; i < nr_inputs; i++) {
		struct input *in = &inputs[i];
		struct row *up = find_row(in, MODSET_UP);
		const char *tools[] = { MODSET_ONE, MODSET_GEN, MODSET_PER };
		const char *what[] = { "one run", "per module", "in place" };

		if (in->kind != K_MODSET || !up)
			continue;
		for (int t = 0; t < 3; t++) {
			struct row *r = find_row(in, tools[t]);
			double ratio, cpu;

			if (!r)
				continue;
			ratio = row_wall(r) / row_wall(up);
			cpu = median(r->cpu, r->nr) / median(up->cpu, up->nr);
			if (t == 2)
				printf("  %-28s %s/resolve_btfids-7.3 = %5.2f  (info: the whole .ko written)  (cpu %5.2f)\n",
				       in->id, what[t], ratio, cpu);
			else
				printf("  %-28s %s/resolve_btfids-7.3 = %5.2f  (goal <= 0.15)  %s  (cpu %5.2f)\n",
				       in->id, what[t], ratio, verdict(ratio <= 0.15), cpu);
			printf("  %-28s %s: peak RSS %ld KB, resolve_btfids-7.3 %ld KB  (goal <=)  %s\n",
			       in->id, what[t], r->maxrss_kb, up->maxrss_kb,
			       verdict(r->maxrss_kb <= up->maxrss_kb));
			if (t == 0 && (isnan(*worst) || ratio > *worst))
				*worst = ratio;
		}
		if (find_row(in, MODSET_ONE) && find_row(in, MODSET_PER))
			printf("  %-28s one run / per module = %5.2f  (info: %lu module(s), the base read once)\n",
			       in->id, row_wall(find_row(in, MODSET_ONE)) /
					       row_wall(find_row(in, MODSET_PER)), in->n);
	}
}

/*
 * The largest modules of each Debian kernel (bench/module-sets.sh), one
 * process each, as the build runs btf2btf (our 7.3 gen-btf.sh) and 7.3's
 * resolve_btfids (stock gen-btf.sh) on it. Issue 45: peak RSS at or below
 * resolve_btfids' on every module, judged per module (a module set's row
 * shows only its largest process); the time ratio as information (the
 * module goal is the sets'). *ok of *nr modules meet it.
 */
static void goals_largest(int *ok, int *nr)
{
	for (int i = 0; i < nr_inputs; i++) {
		struct input *in = &inputs[i];
		struct row *r = find_row(in, MODULE_GEN), *up = find_row(in, MODULE_UP);

		if (in->kind != K_MODULE || !r || !up)
			continue;
		(*nr)++;
		*ok += r->maxrss_kb <= up->maxrss_kb;
		printf("  %-28s peak RSS %ld KB, resolve_btfids-7.3 %ld KB  (goal <=)  %s  (time %5.2fx)\n",
		       in->id, r->maxrss_kb, up->maxrss_kb, verdict(r->maxrss_kb <= up->maxrss_kb),
		       row_wall(r) / row_wall(up));
	}
	if (*nr)
		printf("  %-28s peak RSS at or below resolve_btfids-7.3's on %d of %d  %s\n",
		       "largest modules", *ok, *nr, verdict(*ok == *nr));
}

int main(int argc, char **argv)
{
	int runs = 7, warmup = 1, opt;
	const char *logdir = ".";
	struct input *primary = NULL, *synth[64];
	int nr_synth = 0;
	double r1 = NAN, r2 = NAN, r3 = NAN, r4 = NAN, r5 = NAN, r6 = NAN;
	int largest_ok = 0, largest_nr = 0;
	char la0[32], la1[32];

	while ((opt = getopt(argc, argv, "r:w:l:")) != -1) {
		switch (opt) {
		case 'r':
			runs = atoi(optarg);
			break;
		case 'w':
			warmup = atoi(optarg);
			break;
		case 'l':
			logdir = optarg;
			break;
		default:
			fprintf(stderr, "usage: bench [-r RUNS] [-w WARMUP] [-l LOGDIR] SPEC\n");
			return 2;
		}
	}
	if (optind != argc - 1 || runs < 1)
		die("usage: bench [-r RUNS] [-w WARMUP] [-l LOGDIR] SPEC");
	read_spec(argv[optind], runs);
	for (int j = 0; j < nr_rows; j++) {
		char tool[64];

		snprintf(tool, sizeof(tool), "%s", rows[j].tool);
		for (char *p = tool; *p; p++)
			if (*p == '/' || *p == ' ' || *p == '(' || *p == ')')
				*p = '_';
		snprintf(rows[j].err_path, sizeof(rows[j].err_path), "%s/%s.%s.err", logdir,
			 rows[j].in->id, tool);
	}

	loadavg(la0, sizeof(la0));
	for (int round = -warmup; round < runs; round++) {
		for (int j = 0; j < nr_rows; j++) {
			struct row *r = &rows[j];
			double wall, cpu;
			long rss;

			if (r->failed)
				continue;
			if (run_once(r, &wall, &cpu, &rss)) {
				r->failed = true;
				continue;
			}
			if (round < 0)
				continue;
			r->wall[r->nr] = wall;
			r->cpu[r->nr++] = cpu;
			if (rss > r->maxrss_kb)
				r->maxrss_kb = rss;
		}
	}
	loadavg(la1, sizeof(la1));

	printf("btf2btf bench: nproc=%ld, %d runs per command (median), %d warm-up, "
	       "interleaved; load average %s at start, %s at end\n",
	       sysconf(_SC_NPROCESSORS_ONLN), runs, warmup, la0, la1);
	print_tables();

	/* ---- goals ---- */
	printf("\ngoals\n");
	/* summary input: the vmlinux as the build hands it to btf2btf, else the
	 * (already transformed) vmlinux, else the /sys BTF */
	for (enum kind k = K_PRE; k <= K_SYS && !primary; k++)
		for (int i = 0; i < nr_inputs && !primary; i++)
			if (inputs[i].kind == k)
				primary = &inputs[i];
	for (int i = 0; i < nr_inputs; i++) {
		struct input *in = &inputs[i];
		double b = row_wall(find_row(in, "btf2btf"));
		double pw = row_wall(find_row(in, "parse+write"));
		double dump = row_wall(find_row(in, "bpftool-dump"));

		if (in->kind == K_MODSET || in->kind == K_MODULE)
			continue;	/* goals_modsets(), goals_largest() */
		/* issue 12: the default features too, at every size */
		printf("  %-28s btf2btf/parse+write = %5.2f  (goal <= 1.50)  %s\n", in->id, b / pw,
		       verdict(b / pw <= 1.5));
		info_huge_heap(in, "btf2btf", "btf2btf");
		if (in->kind == K_SYNTH) {
			synth[nr_synth++] = in;
			continue;
		}
		if (find_row(in, "bpftool-dump"))
			printf("  %-28s btf2btf/bpftool-dump = %5.2f  (goal <  1.00)  %s\n", in->id,
			       b / dump, verdict(b < dump));
		if (find_row(in, "parse+modify+write") && find_row(in, "btf2btf")) {
			double pmw = row_wall(find_row(in, "parse+modify+write"));

			printf("  %-28s btf2btf/parse+modify+write = %5.2f  (info: libbpf's edit floor is %.2fx parse+write)\n",
			       in->id, b / pmw, pmw / pw);
		}
	}
	/* synthetic inputs by size */
	for (int i = 1; i < nr_synth; i++)
		for (int j = i; j > 0 && synth[j]->n < synth[j - 1]->n; j--) {
			struct input *t = synth[j];

			synth[j] = synth[j - 1];
			synth[j - 1] = t;
		}
	for (int i = 1; i < nr_synth; i++) {
		double a = row_wall(find_row(synth[i - 1], "btf2btf"));
		double b = row_wall(find_row(synth[i], "btf2btf"));
		double ratio = b / a, kratio = (double)synth[i]->n / synth[i - 1]->n;
		char what[64];

		snprintf(what, sizeof(what), "kfuncs %lu -> %lu", synth[i - 1]->n, synth[i]->n);
		printf("  %-28s btf2btf time x%-6.2f (goal <= %.2f) %s\n", what, ratio,
		       kratio * 1.1, verdict(ratio <= kratio * 1.1));
		if (isnan(r2) || ratio > r2)
			r2 = ratio;
	}
	for (int i = 0; i < nr_inputs; i++) {
		struct input *in = &inputs[i];
		struct row *b = find_row(in, "btf2btf"), *pw = find_row(in, "parse+write");
		long bs = btf_size(in);
		double ratio;

		if (!b || !pw || bs <= 0)
			continue;
		ratio = (double)(b->maxrss_kb - pw->maxrss_kb) * 1024 / bs;
		printf("  %-28s (RSS btf2btf - parse+write) / BTF = %5.2f  (goal <= 2.00)  %s\n",
		       in->id, ratio, verdict(ratio <= 2.0));
		if (in == primary)
			r3 = ratio;
	}
	/* what the RSS goal sees on small inputs is mostly the process itself
	 * (btf2btf's text and libraries against parse_write's): the cost that
	 * grows with the input is the step between consecutive sizes */
	for (int i = 1; i < nr_synth; i++) {
		struct row *b0 = find_row(synth[i - 1], "btf2btf"), *b1 = find_row(synth[i], "btf2btf");
		struct row *p0 = find_row(synth[i - 1], "parse+write");
		struct row *p1 = find_row(synth[i], "parse+write");
		long s0 = btf_size(synth[i - 1]), s1 = btf_size(synth[i]);
		char what[64];

		if (!b0 || !b1 || !p0 || !p1 || s1 <= s0)
			continue;
		snprintf(what, sizeof(what), "kfuncs %lu -> %lu", synth[i - 1]->n, synth[i]->n);
		printf("  %-28s (dRSS btf2btf - dRSS parse+write) / dBTF = %5.2f  (info: the RSS that grows with the input)\n",
		       what, (double)((b1->maxrss_kb - b0->maxrss_kb) - (p1->maxrss_kb - p0->maxrss_kb)) *
				     1024 / (s1 - s0));
	}
	goals_features_all(synth, nr_synth, &r4, &r5);
	goals_modsets(&r6);
	goals_largest(&largest_ok, &largest_nr);
	if (primary) {
		r1 = row_wall(find_row(primary, "btf2btf")) /
		     row_wall(find_row(primary, "parse+write"));
		printf("  summary: ratio and rss_ratio from %s (%s)\n", primary->id,
		       primary->kind == K_PRE ? "the 6.12 vmlinux BTF before the transform"
		       : primary->kind == K_VMLINUX ? "the 6.12 vmlinux as the cache holds it"
						    : "no 6.12 vmlinux in the kernel cache: "
						      "the /sys BTF input instead");
	} else {
		printf("  summary: no vmlinux input at all: ratio and rss_ratio are nan\n");
	}
	for (int j = 0; j < nr_rows; j++)
		if (rows[j].failed)
			printf("  FAILED: %s on %s (see %s)\n", rows[j].tool, rows[j].in->id,
			       rows[j].err_path);
	printf("bench: vmlinux ratio=%.2f scaling10x=%.2f rss_ratio=%.2f all_vs_upstream=%.2f "
	       "all_scaling10x=%.2f modules_vs_upstream=%.2f largest_rss_ok=%d/%d\n", r1, r2, r3, r4,
	       r5, r6, largest_ok, largest_nr);
	return 0;
}
