// SPDX-License-Identifier: GPL-2.0
/*
 * membarrier_bench THREADS CALLS [CMD [CALLERS [CPUS]]]
 *
 * THREADS threads of one process, thread i pinned to CPU i, or to the
 * i-th CPU of CPUS, a comma-separated list; threads 0 .. CALLERS-1 (default 1)
 * each issue CALLS membarrier(CMD) calls, all starting at once, while
 * the others spin in user mode, so every call targets at least
 * THREADS-CALLERS CPUs.
 * Prints one line, "ns_per_call <n> calls_per_sec <r> p99_ns <p>
 * max_ns <m>": CLOCK_MONOTONIC from the start until the last caller is
 * done, divided by the calls of one caller (CALLS, or their mean with
 * MEMBARRIER_BENCH_OVERLAP); all callers' calls per second over that time;
 * the 99th percentile and the worst of every call's own latency (run
 * under QEMU -icount for figures that count instructions, not host
 * load).
 * With MEMBARRIER_BENCH_OVERLAP=1 in the environment, the callers stop
 * as soon as the first of them has made its CALLS calls, so every call
 * counted was made while all CALLERS were calling (the others would
 * otherwise finish alone: fewer concurrent callers than asked for), and
 * the line ends with "calls <n>", the calls all callers made.
 * CMD is one of the expedited commands: "private"
 * (MEMBARRIER_CMD_PRIVATE_EXPEDITED, default), "global"
 * (MEMBARRIER_CMD_GLOBAL_EXPEDITED), "sync_core"
 * (MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE), "rseq"
 * (MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ) or "rseq_cpu" (the same with
 * MEMBARRIER_CMD_FLAG_CPU, targeting the last thread's CPU only), or
 * "mixed": caller i calls private, sync_core and rseq for i = 0, 1, 2
 * (and so on, modulo 3), so that the three private kinds run at once in
 * one mm; the process registers for it (for each of them) first.
 * IPIs per call are counted from outside with perf stat, on the
 * sending side (ipi:*) or on the targets (irq_vectors:call_function*).
 */
#define _GNU_SOURCE
#include <linux/membarrier.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "expsync_util.h"

static atomic_int ready, go, stop, done;
static int cmd = MEMBARRIER_CMD_PRIVATE_EXPEDITED;
static bool mixed;

static const int mixed_cmds[] = {
	MEMBARRIER_CMD_PRIVATE_EXPEDITED,
	MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE,
	MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ,
};

static const int mixed_regs[] = {
	MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED,
	MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_SYNC_CORE,
	MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_RSEQ,
};

/* rseq_cpu: MEMBARRIER_CMD_FLAG_CPU and the last thread's CPU. */
static int cmd_flags, cmd_cpu;
static long calls, cpus[64], made[64];
static bool overlap;
/* Each call's latency in ns, CALLS per caller, caller i at i * CALLS. */
static double *lat;

static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void *spinner(void *arg)
{
	pin_to_cpu(cpus[(long)arg]);
	atomic_fetch_add(&ready, 1);
	while (!atomic_load_explicit(&stop, memory_order_relaxed))
		;
	return NULL;
}

/* Waits for the start, then calls membarrier(cmd) CALLS times. */
static void *caller(void *arg)
{
	double *mine = lat + (long)arg * calls, t;
	int my_cmd = mixed ? mixed_cmds[(long)arg % 3] : cmd;
	long i;

	pin_to_cpu(cpus[(long)arg]);
	atomic_fetch_add(&ready, 1);
	while (!atomic_load(&go))
		;
	for (i = 0; i < calls; i++) {
		if (overlap && atomic_load_explicit(&done, memory_order_relaxed))
			break;
		t = now_ns();
		if (syscall(__NR_membarrier, my_cmd, cmd_flags, cmd_cpu)) {
			perror("membarrier");
			exit(1);
		}
		mine[i] = now_ns() - t;
	}
	made[(long)arg] = i;
	atomic_store(&done, 1);
	return NULL;
}

int main(int argc, char **argv)
{
	int reg = MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED;
	pthread_t th[64];
	long threads, callers = 1, i, n;
	double a, b, ns;
	char *p = NULL, *e = getenv("MEMBARRIER_BENCH_OVERLAP");

	if (argc < 3) {
		fprintf(stderr,
			"usage: %s THREADS CALLS [private|global|sync_core|rseq|rseq_cpu|mixed [CALLERS [CPUS]]]\n",
			argv[0]);
		return 2;
	}
	threads = atol(argv[1]);
	calls = atol(argv[2]);
	if (argc > 3 && !strcmp(argv[3], "global")) {
		cmd = MEMBARRIER_CMD_GLOBAL_EXPEDITED;
		reg = MEMBARRIER_CMD_REGISTER_GLOBAL_EXPEDITED;
	} else if (argc > 3 && !strcmp(argv[3], "sync_core")) {
		cmd = MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE;
		reg = MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_SYNC_CORE;
	} else if (argc > 3 && (!strcmp(argv[3], "rseq") || !strcmp(argv[3], "rseq_cpu"))) {
		cmd = MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ;
		reg = MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_RSEQ;
		cmd_flags = strcmp(argv[3], "rseq") ? MEMBARRIER_CMD_FLAG_CPU : 0;
	} else if (argc > 3 && !strcmp(argv[3], "mixed")) {
		mixed = true;
	} else if (argc > 3 && strcmp(argv[3], "private")) {
		fprintf(stderr,
			"CMD must be private, global, sync_core, rseq, rseq_cpu or mixed\n");
		return 2;
	}
	if (argc > 4)
		callers = atol(argv[4]);
	if (calls < 0 || threads < 1 || threads > 64) {
		fprintf(stderr, "CALLS must be >= 0, THREADS 1 .. 64\n");
		return 2;
	}
	if (argc > 5)
		p = argv[5];
	for (i = 0; i < threads; i++) {
		cpus[i] = p ? strtol(p, &p, 10) : i;
		if (p && *p == ',')
			p++;
		if (cpus[i] < 0 || cpus[i] >= sysconf(_SC_NPROCESSORS_ONLN) ||
		    (p && (!*p) != (i == threads - 1))) {
			fprintf(stderr, "CPUS must list THREADS online CPUs, each thread's\n");
			return 2;
		}
	}
	cmd_cpu = cmd_flags ? cpus[threads - 1] : 0;
	if (callers < 1 || callers > threads) {
		fprintf(stderr, "CALLERS must be 1 .. THREADS\n");
		return 2;
	}
	if (e && strcmp(e, "0") && strcmp(e, "1")) {
		fprintf(stderr, "MEMBARRIER_BENCH_OVERLAP must be 0 or 1\n");
		return 2;
	}
	overlap = e && !strcmp(e, "1");
	lat = calloc(callers * calls + 1, sizeof(*lat));
	if (!lat) {
		perror("calloc");
		return 1;
	}
	pin_to_cpu(cpus[0]);
	for (i = 1; i < threads; i++)
		pthread_create(&th[i], NULL, i < callers ? caller : spinner, (void *)i);
	while (atomic_load(&ready) != threads - 1)
		;
	/* With every thread on its CPU, so that registration reaches them. */
	for (i = 0; i < (mixed ? 3 : 1); i++) {
		if (syscall(__NR_membarrier, mixed ? mixed_regs[i] : reg, 0, 0)) {
			perror("membarrier register");
			return 1;
		}
	}
	a = now_ns();
	atomic_store(&go, 1);
	caller((void *)0);
	for (i = 1; i < callers; i++)
		pthread_join(th[i], NULL);
	b = now_ns();
	atomic_store(&stop, 1);
	for (i = callers; i < threads; i++)
		pthread_join(th[i], NULL);
	ns = b - a;
	/* Caller i's latencies are lat[i * calls .. + made[i]]: pack them. */
	for (n = 0, i = 0; i < callers; i++) {
		memmove(lat + n, lat + i * calls, made[i] * sizeof(*lat));
		n += made[i];
	}
	qsort(lat, n, sizeof(*lat), cmp_double);
	printf("ns_per_call %.0f calls_per_sec %.1f p99_ns %.0f max_ns %.0f",
	       n ? ns * callers / n : 0.0, ns > 0 ? n * 1e9 / ns : 0.0,
	       n ? lat[(n * 99 - 1) / 100] : 0.0, n ? lat[n - 1] : 0.0);
	if (overlap)
		printf(" calls %ld", n);
	printf("\n");
	return 0;
}
