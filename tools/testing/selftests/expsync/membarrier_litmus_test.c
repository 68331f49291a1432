// SPDX-License-Identifier: GPL-2.0
/*
 * Store-buffering litmus test with membarrier() as the heavy fence.
 *
 *   fast thread (CPU B)          slow thread (CPU A)
 *   x = 1;                       y = 1;
 *   barrier();                   membarrier(cmd);
 *   r1 = y;                      r2 = x;
 *
 * membarrier() must order the fast thread's accesses as if it had run
 * smp_mb(): the outcome r1 == 0 && r2 == 0 is forbidden.  Each expedited
 * command runs ITERS times (default 100000) under every membarrier_ipi
 * strategy kernel.expsync.membarrier_ipi offers; each result fails on a
 * forbidden outcome or on a call that returns an error.  A control run
 * with a compiler barrier instead of membarrier() prints how often the
 * forbidden outcome appears when nothing forbids it; it is no result.
 *
 * HAMMERS threads (default 0, at most 2 and one per CPU beyond the
 * two) of the same process call the same command in a loop meanwhile,
 * so that with kernel.expsync.membarrier_coalesce=on the slow thread's
 * calls ride on their IPI rounds too; each result line says how many
 * calls they made.  membarrier_coalesce.sh runs it so, with fewer ITERS:
 * the hammers slow every call down.
 *
 * What it can and cannot see: a command that fails, and a forbidden
 * outcome where one shows, but not a membarrier() that sends no IPI: a system call that long drains
 * the slow thread's store buffer anyway, and the fast thread's window is
 * tiny under QEMU TCG, where the control showed the outcome in about 1
 * of 20000 rounds.  Delivery of the IPIs
 * to every target CPU is proven by membarrier_delivery.sh, which counts
 * them on the targets with the kernel's irq_vectors tracepoints.
 *
 * Built as membarrier_nomem_test with -DNOMEM: the slow thread then runs
 * with fault injection failing every slab and page allocation it makes
 * (failslab and fail_page_alloc, task-filtered by make-it-fail), does
 * every registration and NOMEM_ITERS (10000) calls of every command, and
 * each must return 0 and still order memory.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/membarrier.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../kselftest.h"
#include "expsync_util.h"

#define SYSCTL	"/proc/sys/kernel/expsync/membarrier_ipi"
static inline void barrier(void)
{
	__asm__ __volatile__("" : : : "memory");
}

/* Plain, untorn accesses the compiler must emit: the litmus's x, y, r1. */
#define WRITE_ONCE(v, val)	__atomic_store_n(&(v), (val), __ATOMIC_RELAXED)
#define READ_ONCE(v)		__atomic_load_n(&(v), __ATOMIC_RELAXED)
#define CONTROL	(-1)

static int x, y, r1;
static atomic_long go, done;
static atomic_bool stop;
static long iters;
static int cpu_fast, cpu_slow;

static int membarrier(int cmd, unsigned int flags, int cpu_id)
{
	return syscall(__NR_membarrier, cmd, flags, cpu_id);
}

/* Runs round after round until told to stop; never enters the kernel. */
static void *fast_thread(void *arg)
{
	long i = 0;

	(void)arg;
	pin_to_cpu(cpu_fast);
	for (;;) {
		long g;

		while ((g = atomic_load_explicit(&go, memory_order_acquire)) == i)
			if (atomic_load_explicit(&stop, memory_order_relaxed))
				return NULL;
		i = g;
		WRITE_ONCE(x, 1);
		barrier();
		WRITE_ONCE(r1, READ_ONCE(y));
		atomic_store_explicit(&done, i, memory_order_release);
	}
}

static long round_no;

/* What the hammers call (0: nothing), and how many calls they made. */
static atomic_int hammer_cmd;
static atomic_uint hammer_flags;
static atomic_long hammer_calls;

static void *hammer_thread(void *arg)
{
	pin_to_cpu((long)arg);
	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		int cmd = atomic_load(&hammer_cmd);

		if (!cmd)
			continue;
		membarrier(cmd, atomic_load(&hammer_flags), cpu_fast);
		atomic_fetch_add(&hammer_calls, 1);
	}
	return NULL;
}

/* One litmus run of @n rounds; returns forbidden outcomes, or -errno. */
static long run(int cmd, unsigned int flags, long n, long *errors)
{
	long i, forbidden = 0;

	*errors = 0;
	atomic_store(&hammer_calls, 0);
	atomic_store(&hammer_flags, flags);
	atomic_store(&hammer_cmd, cmd == CONTROL ? 0 : cmd);
	for (i = 0; i < n; i++) {
		long me = ++round_no;
		int r2;

		WRITE_ONCE(x, 0);
		WRITE_ONCE(y, 0);
		atomic_store_explicit(&go, me, memory_order_release);
		WRITE_ONCE(y, 1);
		if (cmd == CONTROL) {
			barrier();
		} else if (membarrier(cmd, flags, cpu_fast)) {
			if (!(*errors)++)
				ksft_print_msg("membarrier(%#x): %s\n", cmd, strerror(errno));
		}
		r2 = READ_ONCE(x);
		while (atomic_load_explicit(&done, memory_order_acquire) != me)
			;
		if (READ_ONCE(r1) == 0 && r2 == 0)
			forbidden++;
		/* One error is the verdict: do not wait for thousands more. */
		if (*errors)
			break;
	}
	atomic_store(&hammer_cmd, 0);
	return forbidden;
}

static const struct {
	int cmd, reg;
	unsigned int flags;
	const char *name;
} cmds[] = {
	{ MEMBARRIER_CMD_PRIVATE_EXPEDITED, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED,
	  0, "PRIVATE_EXPEDITED" },
	{ MEMBARRIER_CMD_GLOBAL_EXPEDITED, MEMBARRIER_CMD_REGISTER_GLOBAL_EXPEDITED,
	  0, "GLOBAL_EXPEDITED" },
	{ MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE,
	  MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_SYNC_CORE, 0,
	  "PRIVATE_EXPEDITED_SYNC_CORE" },
	{ MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ,
	  MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_RSEQ, 0,
	  "PRIVATE_EXPEDITED_RSEQ" },
	{ MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ,
	  MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_RSEQ, MEMBARRIER_CMD_FLAG_CPU,
	  "PRIVATE_EXPEDITED_RSEQ|FLAG_CPU" },
};

#define NR_CMDS ARRAY_SIZE(cmds)

#ifdef NOMEM
#define NOMEM_MODE 1
#define FI "/sys/kernel/debug/"
static long global_iters;
static int make_it_fail_fd = -1;

static void fault_injection(bool on)
{
	static const char *const dirs[] = { FI "failslab/", FI "fail_page_alloc/" };
	unsigned int i;
	char path[128];

	/*
	 * Only this thread fails allocations.  The fd stays open: with
	 * make-it-fail on, even open() fails, so it goes off first.
	 */
	if (!on && write(make_it_fail_fd, "0", 1) != 1)
		ksft_exit_fail_msg("make-it-fail: %s\n", strerror(errno));
	for (i = 0; i < 2; i++) {
		static const char *const settings[][2] = {
			{ "task-filter", "Y" }, { "ignore-gfp-wait", "N" },
			{ "interval", "1" }, { "times", "-1" }, { "verbose", "0" },
			{ "space", "0" },
		};
		unsigned int j;

		for (j = 0; j < ARRAY_SIZE(settings); j++) {
			snprintf(path, sizeof(path), "%s%s", dirs[i], settings[j][0]);
			if (!write_file(path, settings[j][1]))
				ksft_exit_fail_msg("cannot write %s\n", path);
		}
		snprintf(path, sizeof(path), "%sprobability", dirs[i]);
		write_file(path, on ? "100" : "0");
	}
	write_file(FI "fail_page_alloc/ignore-gfp-highmem", "N");
	write_file(FI "fail_page_alloc/min-order", "0");
	if (on && write(make_it_fail_fd, "1", 1) != 1)
		ksft_exit_fail_msg("make-it-fail: %s\n", strerror(errno));
}

/* Proof that injection is live: an allocating syscall must fail. */
static bool allocation_fails(void)
{
	int fd = eventfd(0, 0);

	if (fd >= 0) {
		close(fd);
		return false;
	}
	return errno == ENOMEM;
}

/* The commands without a litmus role: each must return its usual value. */
static void run_plain(void)
{
	static const struct { int cmd; const char *name; } plain[] = {
		{ MEMBARRIER_CMD_QUERY, "QUERY" },
		{ MEMBARRIER_CMD_GET_REGISTRATIONS, "GET_REGISTRATIONS" },
		{ MEMBARRIER_CMD_GLOBAL, "GLOBAL" },
	};
	unsigned int c;

	for (c = 0; c < 3; c++) {
		int want = membarrier(plain[c].cmd, 0, 0);
		long i, n = plain[c].cmd == MEMBARRIER_CMD_GLOBAL ? global_iters : iters;
		long bad = 0;

		for (i = 0; i < n && !bad; i++)
			bad += membarrier(plain[c].cmd, 0, 0) != want;
		ksft_test_result(want >= 0 && !bad, "%s: %ld calls, %ld differ from %d\n",
				 plain[c].name, n, bad, want);
	}
}
#else
#define NOMEM_MODE 0
#endif

static const char litmus_fmt[] =
	"%s, membarrier_ipi=%s: %ld rounds, %ld forbidden outcomes, %ld errors, %ld hammer calls\n";

/* Every command under the strategy in force; returns the failures. */
static int run_all(const char *strategy)
{
	int failures = 0;
	unsigned int c;

	for (c = 0; c < NR_CMDS; c++) {
		long forbidden, errors;

		forbidden = run(cmds[c].cmd, cmds[c].flags, iters, &errors);
		ksft_test_result(!forbidden && !errors, litmus_fmt,
				 cmds[c].name, strategy, iters, forbidden, errors,
				 atomic_load(&hammer_calls));
		failures += forbidden || errors;
	}
	return failures;
}

int main(void)
{
	char strategies[2][16] = { "" }, orig[16] = "";
	int nr_strategies = 0, s, ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	long control, errors;
	pthread_t fast, hammer[2];
	long hammers, h;
	unsigned int c;
	FILE *f;

	ksft_print_header();
	if (ncpus < 2)
		ksft_exit_skip("needs two CPUs, has %d\n", ncpus);
	if (membarrier(MEMBARRIER_CMD_QUERY, 0, 0) < 0)
		ksft_exit_skip("membarrier() not supported\n");
#ifdef NOMEM
	iters = getenv("NOMEM_ITERS") ? atol(getenv("NOMEM_ITERS")) : 10000;
	/*
	 * Each MEMBARRIER_CMD_GLOBAL is a synchronize_rcu(), milliseconds
	 * under TCG: 1000 of them, not 10000.
	 */
	global_iters = getenv("NOMEM_GLOBAL_ITERS") ? atol(getenv("NOMEM_GLOBAL_ITERS")) : 1000;
	if (geteuid())
		ksft_exit_skip("must run as root (fault injection)\n");
	if (access(FI "failslab", F_OK) || access(FI "fail_page_alloc", F_OK))
		ksft_exit_skip("needs CONFIG_FAILSLAB, CONFIG_FAIL_PAGE_ALLOC and debugfs\n");
	/* No page faults once allocations fail: a fault would be SIGBUS. */
	if (mlockall(MCL_CURRENT | MCL_FUTURE))
		ksft_exit_fail_msg("mlockall: %s\n", strerror(errno));
#else
	iters = getenv("ITERS") ? atol(getenv("ITERS")) : 100000;
#endif
	cpu_slow = 0;
	cpu_fast = 1;
	pin_to_cpu(cpu_slow);

	/* The strategies to test: all the sysctl offers, or the one in force. */
	f = fopen(SYSCTL, "r");
	if (f && fscanf(f, "%15s", orig) == 1) {
		snprintf(strategies[0], sizeof(strategies[0]), "many");
		snprintf(strategies[1], sizeof(strategies[1]), "single");
		nr_strategies = 2;
	} else {
		snprintf(strategies[0], sizeof(strategies[0]), "(kernel's own)");
		nr_strategies = 1;
	}
	if (f)
		fclose(f);

#ifdef NOMEM
	ksft_set_plan(2 + NR_CMDS + 3 + nr_strategies * NR_CMDS);
	make_it_fail_fd = open("/proc/thread-self/make-it-fail", O_WRONLY);
	if (make_it_fail_fd < 0)
		ksft_exit_skip("no /proc/thread-self/make-it-fail\n");
#else
	ksft_set_plan(NR_CMDS + nr_strategies * NR_CMDS);
#endif
	if (pthread_create(&fast, NULL, fast_thread, NULL))
		ksft_exit_fail_msg("pthread_create\n");
	hammers = getenv("HAMMERS") ? atol(getenv("HAMMERS")) : 0;
	hammers = hammers < 0 ? 0 : hammers > 2 ? 2 : hammers > ncpus - 2 ? ncpus - 2 : hammers;
	ksft_print_msg("%ld hammer threads\n", hammers);
	for (h = 0; h < hammers; h++)
		if (pthread_create(&hammer[h], NULL, hammer_thread, (void *)(2 + h)))
			ksft_exit_fail_msg("pthread_create\n");

#ifdef NOMEM
	fault_injection(true);
	ksft_test_result(allocation_fails(),
			 "fault injection fails this thread's allocations\n");
#endif
	/* Registrations, with the fast thread live (the mm has two users). */
	for (c = 0; c < NR_CMDS; c++) {
		long i, err = 0;

		for (i = 0; i < (NOMEM_MODE ? iters : 1) && !err; i++)
			err += membarrier(cmds[c].reg, 0, 0) != 0;
		ksft_test_result(!err, "register for %s: %ld errors (last: %s)\n",
				 cmds[c].name, err, err ? strerror(errno) : "none");
	}
#ifdef NOMEM
	run_plain();
#endif

	for (s = 0; s < nr_strategies; s++) {
		if (nr_strategies > 1) {
#ifdef NOMEM
			fault_injection(false);		/* open() would fail */
#endif
			if (!write_file(SYSCTL, strategies[s]))
				ksft_exit_fail_msg("cannot set membarrier_ipi=%s\n",
						   strategies[s]);
#ifdef NOMEM
			fault_injection(true);
#endif
		}
		run_all(strategies[s]);
	}
#ifdef NOMEM
	ksft_test_result(allocation_fails(),
			 "fault injection still live after the last call\n");
	fault_injection(false);
#endif
	if (nr_strategies > 1)
		write_file(SYSCTL, orig);
	/* Control: nothing forbids the outcome here; it says how sensitive the test is. */
	control = run(CONTROL, 0, iters, &errors);
	ksft_print_msg("control without membarrier: %ld of %ld rounds show r1 == r2 == 0\n",
		       control, iters);

	atomic_store(&stop, true);
	pthread_join(fast, NULL);
	for (h = 0; h < hammers; h++)
		pthread_join(hammer[h], NULL);
	ksft_finished();
}
