// SPDX-License-Identifier: GPL-2.0
/*
 * membarrier_bench THREADS CALLS [CMD [CALLERS]]
 *
 * THREADS threads of one process, each pinned to its own CPU (0 ..
 * THREADS-1); threads 0 .. CALLERS-1 (default 1) each issue CALLS
 * membarrier(CMD) calls, all starting at once, while the others spin in
 * user mode, so every call targets at least THREADS-CALLERS CPUs.
 * Prints "ns_per_call <n>": CLOCK_MONOTONIC from the start until the
 * last caller is done, divided by CALLS (run under QEMU -icount for a
 * figure that counts instructions, not host load).
 * CMD is one of the expedited commands: "private"
 * (MEMBARRIER_CMD_PRIVATE_EXPEDITED, default), "global"
 * (MEMBARRIER_CMD_GLOBAL_EXPEDITED), "sync_core"
 * (MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE) or "rseq"
 * (MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ); the process registers for it
 * first.  IPIs per call are counted from outside with perf stat, on the
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

static atomic_int ready, go, stop;
static int cmd = MEMBARRIER_CMD_PRIVATE_EXPEDITED;
static long calls;

static void *spinner(void *arg)
{
	pin_to_cpu((long)arg);
	atomic_fetch_add(&ready, 1);
	while (!atomic_load_explicit(&stop, memory_order_relaxed))
		;
	return NULL;
}

/* Waits for the start, then calls membarrier(cmd) CALLS times. */
static void *caller(void *arg)
{
	long i;

	pin_to_cpu((long)arg);
	atomic_fetch_add(&ready, 1);
	while (!atomic_load(&go))
		;
	for (i = 0; i < calls; i++) {
		if (syscall(__NR_membarrier, cmd, 0, 0)) {
			perror("membarrier");
			exit(1);
		}
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int reg = MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED;
	pthread_t th[64];
	struct timespec a, b;
	long threads, callers = 1, i;
	double ns;

	if (argc < 3) {
		fprintf(stderr,
			"usage: %s THREADS CALLS [private|global|sync_core|rseq [CALLERS]]\n",
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
	} else if (argc > 3 && !strcmp(argv[3], "rseq")) {
		cmd = MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ;
		reg = MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_RSEQ;
	} else if (argc > 3 && strcmp(argv[3], "private")) {
		fprintf(stderr, "CMD must be private, global, sync_core or rseq\n");
		return 2;
	}
	if (argc > 4)
		callers = atol(argv[4]);
	if (threads < 1 || threads > 64 || threads > sysconf(_SC_NPROCESSORS_ONLN)) {
		fprintf(stderr, "THREADS must be 1 .. online CPUs\n");
		return 2;
	}
	if (callers < 1 || callers > threads) {
		fprintf(stderr, "CALLERS must be 1 .. THREADS\n");
		return 2;
	}
	pin_to_cpu(0);
	for (i = 1; i < threads; i++)
		pthread_create(&th[i], NULL, i < callers ? caller : spinner, (void *)i);
	while (atomic_load(&ready) != threads - 1)
		;
	/* With every thread on its CPU, so that registration reaches them. */
	if (syscall(__NR_membarrier, reg, 0, 0)) {
		perror("membarrier register");
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &a);
	atomic_store(&go, 1);
	caller((void *)0);
	for (i = 1; i < callers; i++)
		pthread_join(th[i], NULL);
	clock_gettime(CLOCK_MONOTONIC, &b);
	atomic_store(&stop, 1);
	for (i = callers; i < threads; i++)
		pthread_join(th[i], NULL);
	ns = (b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec);
	printf("ns_per_call %.0f\n", calls ? ns / calls : 0.0);
	return 0;
}
