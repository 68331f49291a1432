// SPDX-License-Identifier: GPL-2.0
/*
 * Page-table freeing under mode switches.
 *
 * Mapper threads map, touch and unmap 4 MiB regions (each munmap frees
 * page-table pages), GUP-fast threads walk the same regions locklessly
 * through /sys/kernel/debug/gup_test, and a flipper switches
 * kernel.expsync.table_free between rcu and immediate every 2 ms (and
 * table_free_rcu_batch between percpu and gather every 50 ms).  A table
 * freed while a walker can still read it shows up as a crash or a
 * DEBUG_PAGEALLOC / DEBUG_VM report, which fails the VM run; the test
 * itself checks that both free paths and the batching really ran.
 *
 * Then, with table_free=rcu and no flipping, one mapper on CPU 1:
 *  - batching: under "percpu" no batch goes to call_rcu() on its own
 *    (no expsync_table_free_rcu event with why "gather", counted through
 *    tracefs), at most one page of pointers (509 tables) goes per
 *    call_rcu(), and there are at most as many call_rcu() as 10 ms timer
 *    periods in the run plus full pages plus 5: the bound holds however
 *    slow the guest runs, where a ratio of tables per call_rcu() to
 *    "gather"'s does not (21.6 against 2.0 on a quiet host, 4.9 against
 *    2.0 on a loaded one);
 *  - gather: every call_rcu() is one mmu_gather's own batch (why
 *    "gather", traced; as many as table_free_rcu_batches counts), and
 *    there is at least one per munmap, as in 6.12;
 *  - reasons: under percpu, one munmap of 1100 page tables hands two
 *    full batch pages to RCU (why "full") and its leftover goes by the
 *    batch timer (why "timer");
 *  - switch: a switch from percpu to gather while the mapper runs hands
 *    the pending batch to RCU at once (why "switch", traced);
 *  - time bound: once the mapper stops, table_free_waiting (tables not
 *    yet freed) drains to 0 within the 10 ms batch timer plus two grace
 *    periods (one to start the callback's, one for its callbacks to
 *    run) plus the 5 ms poll, a grace period being the longest of 5
 *    synchronize_rcu() (membarrier(MEMBARRIER_CMD_GLOBAL)) timed just
 *    before; without the timer the leftover batch would wait for the
 *    next 509 tables, for ever in an idle system;
 *  - memory pressure: drop_caches runs the shrinkers, and the table_free
 *    shrinker hands pending tables to RCU (expsync:expsync_table_free_rcu
 *    events with why "pressure", counted through tracefs);
 *  - CPU hotplug: offlining and onlining the mapper's CPU while it frees
 *    tables loses none: nothing is left waiting afterwards, within the
 *    same bound.  The "hotplug" flushes are printed, not judged: the
 *    dying CPU's batch timer usually fires first, and a timer left
 *    pending is migrated and flushes that CPU's batch anyway.
 *
 * The stress phase's verdicts are that every thread ran and that both
 * free paths were used; how many tables an RCU batch holds is judged
 * only by the batching test, where one batching mode runs at a time.
 *
 * Usage: table_free_stress [SECONDS] (default 10).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/membarrier.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest.h"
#include "expsync_util.h"
#include "../../../../mm/gup_test.h"

#define SYSCTL		"/proc/sys/kernel/expsync/"
#define GUP_TEST	"/sys/kernel/debug/gup_test"
#define REGION		(4UL << 20)
#define MIN_RUNS	100	/* munmaps, walks and flips in the first test */
#define NR_MAPPERS	2
#define NR_WALKERS	2
#define TRACING		"/sys/kernel/tracing/"
#define TF_EVENT	TRACING "events/expsync/expsync_table_free_rcu/"
#define BATCH_MS	10	/* the per-CPU batch timer */
#define POLL_MS		5
#define LOAD_CPU	1

static atomic_bool stop;
static atomic_ulong current_region[NR_MAPPERS];
static atomic_long munmaps, walks, flips;

static bool read_str(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return false;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[strcspn(buf, "\n")] = '\0';
	return true;
}

static void *mapper(void *arg)
{
	long id = (long)arg;

	while (!atomic_load(&stop)) {
		char *p = mmap(NULL, REGION, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		unsigned long off;

		if (p == MAP_FAILED)
			continue;
		/* One page per 2 MiB: page tables for each. */
		for (off = 0; off < REGION; off += 1UL << 21)
			p[off] = 1;
		atomic_store(&current_region[id], (unsigned long)p);
		munmap(p, REGION);
		atomic_fetch_add(&munmaps, 1);
	}
	return NULL;
}

static void *walker(void *arg)
{
	int fd = open(GUP_TEST, O_RDWR);
	long n = 0;

	(void)arg;
	if (fd < 0)
		return NULL;
	while (!atomic_load(&stop)) {
		struct gup_test gup = {
			.addr = atomic_load(&current_region[n++ % NR_MAPPERS]),
			.size = REGION,
			.nr_pages_per_call = 512,
		};

		if (!gup.addr)
			continue;
		/* Races with munmap on purpose: failures are expected. */
		ioctl(fd, GUP_FAST_BENCHMARK, &gup);
		atomic_fetch_add(&walks, 1);
	}
	close(fd);
	return NULL;
}

static void *flipper(void *arg)
{
	static const char *const modes[] = { "rcu", "immediate" };
	static const char *const batching[] = { "percpu", "gather" };
	struct timespec ts = { .tv_nsec = 2 * 1000 * 1000 };
	long i = 0;

	(void)arg;
	while (!atomic_load(&stop)) {
		if (!write_file(SYSCTL "table_free", modes[i % 2]))
			ksft_print_msg("cannot write table_free: %s\n", strerror(errno));
		if (i % 25 == 0)
			write_file(SYSCTL "table_free_rcu_batch", batching[(i / 25) % 2]);
		atomic_fetch_add(&flips, 1);
		nanosleep(&ts, NULL);
		i++;
	}
	return NULL;
}

/* One mapper on LOAD_CPU for the phases after the stress. */
static atomic_bool load_stop;

static void *pinned_mapper(void *arg)
{
	long n = 0;

	(void)arg;
	while (!atomic_load(&load_stop)) {
		char *p;

		/* Re-pin now and then: offlining the CPU breaks the affinity. */
		if (n++ % 16 == 0) {
			cpu_set_t set;

			CPU_ZERO(&set);
			CPU_SET(LOAD_CPU, &set);
			sched_setaffinity(0, sizeof(set), &set);
		}
		p = mmap(NULL, REGION, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			continue;
		p[0] = 1;
		p[REGION / 2] = 1;
		munmap(p, REGION);
		atomic_fetch_add(&munmaps, 1);
	}
	return NULL;
}

static pthread_t load_start(void)
{
	pthread_t th;

	atomic_store(&load_stop, false);
	pthread_create(&th, NULL, pinned_mapper, NULL);
	return th;
}

static void load_end(pthread_t th)
{
	atomic_store(&load_stop, true);
	pthread_join(th, NULL);
}

/*
 * Run @seconds of pinned munmaps under @batching; *@calls gets the
 * call_rcu() of page tables, *@tables the tables they held.
 */
static void rcu_batches_of(const char *batching, int seconds, long *calls, long *tables)
{
	long rcu0, bat0;
	pthread_t th;

	write_file(SYSCTL "table_free_rcu_batch", batching);
	rcu0 = expsync_stat("table_free_rcu");
	bat0 = expsync_stat("table_free_rcu_batches");
	th = load_start();
	sleep(seconds);
	load_end(th);
	*calls = expsync_stat("table_free_rcu_batches") - bat0;
	*tables = expsync_stat("table_free_rcu") - rcu0;
}

/* The drain bound, in ms: set by measure_bound(). */
static long wait_ms;

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * The batch timer, two grace periods and the poll: a grace period is
 * the longest of 5 synchronize_rcu() timed now (MEMBARRIER_CMD_GLOBAL
 * is one), so that the bound follows the guest's speed.
 */
static void measure_bound(void)
{
	long gp = 0, t, i;

	for (i = 0; i < 5; i++) {
		t = now_ms();
		if (syscall(__NR_membarrier, MEMBARRIER_CMD_GLOBAL, 0, 0))
			ksft_exit_fail_msg("membarrier(GLOBAL): %s\n", strerror(errno));
		t = now_ms() - t;
		gp = t > gp ? t : gp;
	}
	wait_ms = BATCH_MS + 2 * gp + POLL_MS;
	ksft_print_msg("longest of 5 grace periods %ld ms: drain bound %ld ms\n", gp, wait_ms);
}

/* Milliseconds until table_free_waiting is 0, or -1 after wait_ms. */
static long wait_drained(void)
{
	long start = now_ms(), ms;

	for (;;) {
		ms = now_ms() - start;
		if (expsync_stat("table_free_waiting") == 0)
			return ms;
		if (ms > wait_ms)
			return -1;
		usleep(POLL_MS * 1000);
	}
}

/*
 * The number of @why in the event's __print_symbolic() table, as its
 * format file shows it ({ 0, "gather" }, ...), or -1.
 */
static int why_value(const char *why)
{
	char fmt[4096], key[64], *p;
	ssize_t n;
	int fd = open(TF_EVENT "format", O_RDONLY);

	if (fd < 0)
		return -1;
	n = read(fd, fmt, sizeof(fmt) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	fmt[n] = '\0';
	snprintf(key, sizeof(key), ", \"%s\" }", why);
	p = strstr(fmt, key);
	if (!p)
		return -1;
	while (p > fmt && p[-1] != '{')
		p--;
	return atoi(p);
}

/* Record expsync_table_free_rcu events with why == @why only. */
static bool trace_start(const char *why)
{
	int val = why ? why_value(why) : 0, fd;
	char filter[64];

	if (val < 0)
		return false;
	fd = open(TRACING "trace", O_WRONLY | O_TRUNC);
	if (fd < 0)
		return false;
	close(fd);
	/* "0" clears the filter: every reason. */
	if (why)
		snprintf(filter, sizeof(filter), "why == %d", val);
	else
		snprintf(filter, sizeof(filter), "0");
	return write_file(TF_EVENT "filter", filter) &&
	       write_file(TF_EVENT "enable", "1") &&
	       write_file(TRACING "tracing_on", "1");
}

/* Stop recording; the number of events recorded, or -1. */
/* The lines of the trace buffer that hold @key, -1 if unreadable. */
static long traced(const char *key)
{
	char line[512];
	long n = 0;
	FILE *f = fopen(TRACING "trace", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		n += line[0] != '#' && strstr(line, key);
	fclose(f);
	return n;
}

static long trace_stop(void)
{
	write_file(TF_EVENT "enable", "0");
	write_file(TF_EVENT "filter", "0");
	return traced("expsync_table_free_rcu:");
}

/* The events of the last trace whose reason is @why ("why=@why"). */
static long traced_why(const char *why)
{
	char key[64];

	snprintf(key, sizeof(key), "why=%s\n", why);
	return traced(key);
}

/*
 * Two reasons of expsync:expsync_table_free_rcu under percpu, on
 * LOAD_CPU: one munmap that frees BIG_TABLES page tables fills two
 * batch pages (509 tables each on x86-64), each handed to RCU as
 * "full"; what is left over stays pending, with no munmap after it, until
 * the batch timer hands it over ("timer").
 */
#define BIG_TABLES	1100

static void test_reasons(void)
{
	size_t len = BIG_TABLES * (1UL << 21), off;
	long full = -1, timer = -1, ms = -1;
	cpu_set_t set, old;
	char *p;

	write_file(SYSCTL "table_free", "rcu");
	write_file(SYSCTL "table_free_rcu_batch", "percpu");
	sched_getaffinity(0, sizeof(old), &old);
	CPU_ZERO(&set);
	CPU_SET(LOAD_CPU, &set);
	sched_setaffinity(0, sizeof(set), &set);
	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p != MAP_FAILED && trace_start(NULL)) {
		/* A PTE table per 2 MiB, not a huge page. */
		madvise(p, len, MADV_NOHUGEPAGE);
		for (off = 0; off < len; off += 1UL << 21)
			p[off] = 1;
		munmap(p, len);
		ms = wait_drained();
		trace_stop();
		full = traced_why("full");
		timer = traced_why("timer");
	}
	sched_setaffinity(0, sizeof(old), &old);
	ksft_test_result(full >= 2,
			 "reason full: a munmap of %d page tables filled %ld batch pages (at least 2; -1: not run)\n",
			 BIG_TABLES, full);
	ksft_test_result(timer >= 1 && ms >= 0,
			 "reason timer: its leftover went to RCU by the batch timer %ld times, none left after %ld ms\n",
			 timer, ms);
}

static void test_batching_and_bound(void)
{
	long calls_pcp, tables_pcp, calls_gather, tables_gather, alone, ms, bound;
	long m0, m, own;
	bool traced;
	const int seconds = 3;

	write_file(SYSCTL "table_free", "rcu");
	if (!trace_start("gather")) {
		ksft_test_result_fail("per-CPU batching: cannot trace through " TRACING "\n");
		ksft_test_result_fail("pending tables freed within the bound: not run\n");
		ksft_test_result_fail("gather: not run\n");
		return;
	}
	rcu_batches_of("percpu", seconds, &calls_pcp, &tables_pcp);
	alone = trace_stop();
	/* Before any switch: a switch to gather would flush the batch. */
	ms = wait_drained();
	traced = trace_start("gather");
	m0 = atomic_load(&munmaps);
	rcu_batches_of("gather", seconds, &calls_gather, &tables_gather);
	m = atomic_load(&munmaps) - m0;
	own = traced ? trace_stop() : -1;
	bound = seconds * 100 + tables_pcp / 509 + 5;
	ksft_print_msg("percpu: %ld tables in %ld call_rcu() (%.1f each), %ld alone; "
		       "gather: %ld tables in %ld call_rcu() (%.1f each)\n",
		       tables_pcp, calls_pcp, calls_pcp ? (double)tables_pcp / calls_pcp : 0,
		       alone, tables_gather, calls_gather,
		       calls_gather ? (double)tables_gather / calls_gather : 0);
	ksft_test_result(calls_pcp > 0 && alone == 0 && calls_pcp <= bound &&
			 tables_pcp <= 509 * calls_pcp,
			 "per-CPU batching: no batch alone, %ld call_rcu() <= %ld (timer periods + full pages + 5)\n",
			 calls_pcp, bound);
	ksft_test_result(ms >= 0,
			 "pending tables freed %ld ms after the last munmap (bound %ld ms)\n",
			 ms, wait_ms);
	ksft_test_result(calls_gather >= m && m > 0 && own == calls_gather,
			 "gather: each of %ld call_rcu() is one mmu_gather's batch (%ld traced, -1: no tracing), at least one per munmap (%ld)\n",
			 calls_gather, own, m);
	write_file(SYSCTL "table_free_rcu_batch", "percpu");
}

/*
 * Each switch from percpu to gather hands every CPU's pending batch to
 * RCU at once (why "switch"), the mapper keeping one pending on
 * LOAD_CPU: a batch is empty only between a flush (its timer's, or a
 * switch's) and the next munmap.  Each switch finds one with a
 * probability well above one half here, so that none of 20 does is
 * as good as impossible.  Without that flush the batch would wait for
 * its timer, or for ever if a task added to it after its last check.
 */
static void test_switch(void)
{
	long events, i, ms;
	pthread_t th;

	write_file(SYSCTL "table_free_rcu_batch", "percpu");
	if (!trace_start("switch")) {
		ksft_test_result_fail("switch to gather: cannot trace through " TRACING "\n");
		return;
	}
	th = load_start();
	for (i = 0; i < 20; i++) {
		usleep(30 * 1000);
		write_file(SYSCTL "table_free_rcu_batch", "gather");
		usleep(10 * 1000);
		write_file(SYSCTL "table_free_rcu_batch", "percpu");
	}
	load_end(th);
	ms = wait_drained();
	events = trace_stop();
	ksft_test_result(events > 0 && ms >= 0,
			 "switch to gather: 20 switches under munmap handed pending tables to RCU %ld times, none left after %ld ms\n",
			 events, ms);
}

static void test_pressure(void)
{
	long events, i, ms;
	pthread_t th;

	if (!trace_start("pressure")) {
		ksft_test_result_fail("shrinker: cannot trace through " TRACING "\n");
		return;
	}
	th = load_start();
	for (i = 0; i < 50; i++) {
		usleep(20 * 1000);
		write_file("/proc/sys/vm/drop_caches", "2");
	}
	load_end(th);
	ms = wait_drained();
	events = trace_stop();
	ksft_test_result(events > 0 && ms >= 0,
			 "shrinker: drop_caches handed pending tables to RCU %ld times, none left after %ld ms\n",
			 events, ms);
}

static void test_hotplug(void)
{
	char path[64];
	long events, i, ms;
	bool ok = true;
	pthread_t th;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", LOAD_CPU);
	if (!trace_start("hotplug")) {
		ksft_test_result_fail("hotplug: cannot trace through " TRACING "\n");
		return;
	}
	th = load_start();
	for (i = 0; i < 5; i++) {
		usleep(200 * 1000);
		ok &= write_file(path, "0");
		usleep(50 * 1000);
		ok &= write_file(path, "1");
	}
	load_end(th);
	ms = wait_drained();
	events = trace_stop();
	ksft_print_msg("hotplug: %ld flushes by the hotplug callback\n", events);
	ksft_test_result(ok && ms >= 0,
			 "hotplug: 5 offline/online cycles of CPU %d under munmap, no table left waiting after %ld ms (bound %ld ms)%s\n",
			 LOAD_CPU, ms, wait_ms, ok ? "" : " (offline/online failed)");
}

int main(int argc, char **argv)
{
	int seconds = argc > 1 ? atoi(argv[1]) : 10 * expsync_time_scale();
	pthread_t th[NR_MAPPERS + NR_WALKERS + 1];
	char mode[32], batch[32];
	long imm0, rcu0, bat0, imm, rcu, bat;
	int i, n = 0, elapsed;

	ksft_print_header();
	/* A missing precondition is a skip, not a failure. */
	if (geteuid())
		ksft_exit_skip("must run as root\n");
	if (!read_str(SYSCTL "table_free", mode, sizeof(mode)) ||
	    !read_str(SYSCTL "table_free_rcu_batch", batch, sizeof(batch)))
		ksft_exit_skip("no kernel.expsync.table_free (CONFIG_EXPSYNC_TABLE_FREE=n)\n");
	if (access(GUP_TEST, R_OK))
		ksft_exit_skip("no " GUP_TEST " (CONFIG_GUP_TEST=n)\n");
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		ksft_exit_skip("needs 2 CPUs\n");
	/* Native TLB flush IPIs only (QEMU TCG, no paravirt flush). */
	if (!write_file(SYSCTL "table_free", "immediate"))
		ksft_exit_skip("table_free=immediate refused: not a native-flush machine\n");
	ksft_set_plan(10);
	measure_bound();

	imm0 = expsync_stat("table_free_immediate");
	rcu0 = expsync_stat("table_free_rcu");
	bat0 = expsync_stat("table_free_rcu_batches");
	for (i = 0; i < NR_MAPPERS; i++)
		pthread_create(&th[n++], NULL, mapper, (void *)(long)i);
	for (i = 0; i < NR_WALKERS; i++)
		pthread_create(&th[n++], NULL, walker, NULL);
	pthread_create(&th[n++], NULL, flipper, NULL);
	/*
	 * At least @seconds, and on until every thread has done MIN_RUNS
	 * (a loaded host can halve the munmap rate): up to 6 x @seconds.
	 */
	for (elapsed = 0; elapsed < 6 * seconds; elapsed++) {
		if (elapsed >= seconds && atomic_load(&munmaps) >= MIN_RUNS &&
		    atomic_load(&walks) >= MIN_RUNS && atomic_load(&flips) >= MIN_RUNS)
			break;
		sleep(1);
	}
	atomic_store(&stop, true);
	for (i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	write_file(SYSCTL "table_free", mode);
	write_file(SYSCTL "table_free_rcu_batch", batch);
	/* Wait out the per-CPU batch timer and a grace period or two. */
	usleep(200 * 1000);

	imm = expsync_stat("table_free_immediate") - imm0;
	rcu = expsync_stat("table_free_rcu") - rcu0;
	bat = expsync_stat("table_free_rcu_batches") - bat0;
	ksft_print_msg("%ds: %ld munmaps, %ld GUP-fast walks, %ld mode flips\n",
		       elapsed, atomic_load(&munmaps), atomic_load(&walks),
		       atomic_load(&flips));
	ksft_print_msg("tables freed immediately %ld, via RCU %ld in %ld call_rcu()\n",
		       imm, rcu, bat);
	ksft_test_result(atomic_load(&munmaps) >= MIN_RUNS && atomic_load(&walks) >= MIN_RUNS &&
			 atomic_load(&flips) >= MIN_RUNS,
			 "mappers, GUP-fast walkers and the flipper each ran %d times\n", MIN_RUNS);
	ksft_test_result(imm > 0 && rcu > 0 && bat > 0, "both free paths were used\n");

	test_batching_and_bound();
	test_reasons();
	test_switch();
	test_pressure();
	test_hotplug();
	write_file(SYSCTL "table_free", mode);
	write_file(SYSCTL "table_free_rcu_batch", batch);
	ksft_finished();
}
