// SPDX-License-Identifier: GPL-2.0
/*
 * The loads of the isolation ledger (isolation_ledger.sh).
 *
 * isolation_ledger spin CPU SECONDS
 *
 * The isolated workload: SCHED_FIFO on CPU, it maps, touches and unmaps
 * 4 MB, then spins 250 ms in user mode (vDSO clock, no system call),
 * for SECONDS or until SIGTERM.  Prints "rounds N".
 *
 * isolation_ledger spin-only CPU
 *
 * SCHED_FIFO on CPU, it spins in user mode, with no system call and no
 * clock read (a clock that is not in the vDSO would enter the kernel),
 * until SIGTERM.  table_free_isolation.sh's user-mode CPU.
 *
 * isolation_ledger churn CPU0 CPU1 SECONDS
 *
 * The housekeeping load: one thread on each of CPU0 and CPU1 maps and
 * touches 4 MB in small pages, collapses it with MADV_COLLAPSE (each
 * collapse ends in tlb_remove_table_sync_one()), unmaps it and calls
 * MEMBARRIER_CMD_PRIVATE_EXPEDITED, over and over; the first thread
 * also keeps a 4 MB MADV_HUGEPAGE region of small pages mapped for
 * khugepaged, replaced every second, for SECONDS or until SIGTERM.
 * Prints "collapses N failed F membarriers M".
 */
#define _GNU_SOURCE
#include <linux/membarrier.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "expsync_util.h"

#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE	25
#endif

#define REGION		(4UL << 20)

/* Set by SIGTERM; lock-free, so safe to store from the handler. */
static atomic_int stop;

static void on_term(int sig)
{
	(void)sig;
	atomic_store(&stop, 1);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* 4 MB of anonymous memory, touched page by page, or exit. */
static char *touched_region(void)
{
	char *p = mmap(NULL, REGION, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	size_t off;

	if (p == MAP_FAILED) {
		perror("mmap");
		exit(2);
	}
	for (off = 0; off < REGION; off += 4096)
		p[off] = 1;
	return p;
}

static int spin(int cpu, double seconds)
{
	struct sched_param sp = { .sched_priority = 1 };
	double end = now() + seconds;
	long rounds = 0;

	pin_to_cpu(cpu);
	if (sched_setscheduler(0, SCHED_FIFO, &sp)) {
		perror("sched_setscheduler");
		return 2;
	}
	while (now() < end && !atomic_load(&stop)) {
		double until;

		munmap(touched_region(), REGION);
		rounds++;
		until = now() + 0.25;
		while (now() < until && !atomic_load(&stop))
			;
	}
	printf("rounds %ld\n", rounds);
	return 0;
}

static int spin_only(int cpu)
{
	struct sched_param sp = { .sched_priority = 1 };

	pin_to_cpu(cpu);
	if (sched_setscheduler(0, SCHED_FIFO, &sp)) {
		perror("sched_setscheduler");
		return 2;
	}
	while (!atomic_load(&stop))
		;
	return 0;
}

struct churn {
	int cpu;
	int khugepaged;
	double end;
	long collapses, failed, membarriers;
};

static void *churn_thread(void *arg)
{
	struct churn *c = arg;
	double renew = 0;
	char *lazy = NULL;

	pin_to_cpu(c->cpu);
	while (now() < c->end && !atomic_load(&stop)) {
		char *p = touched_region();

		if (madvise(p, REGION, MADV_COLLAPSE))
			c->failed++;
		else
			c->collapses++;
		munmap(p, REGION);
		if (!syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0))
			c->membarriers++;
		if (c->khugepaged && now() > renew) {
			if (lazy)
				munmap(lazy, REGION);
			lazy = touched_region();
			madvise(lazy, REGION, MADV_HUGEPAGE);
			renew = now() + 1;
		}
		usleep(2000);
	}
	return NULL;
}

static int churn(int cpu0, int cpu1, double seconds)
{
	struct churn c[2] = {
		{ .cpu = cpu0, .khugepaged = 1, .end = now() + seconds },
		{ .cpu = cpu1, .end = now() + seconds },
	};
	pthread_t t[2];
	int i;

	if (syscall(__NR_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0)) {
		perror("membarrier register");
		return 2;
	}
	for (i = 0; i < 2; i++)
		if (pthread_create(&t[i], NULL, churn_thread, &c[i]))
			return 2;
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("collapses %ld failed %ld membarriers %ld\n",
	       c[0].collapses + c[1].collapses, c[0].failed + c[1].failed,
	       c[0].membarriers + c[1].membarriers);
	return 0;
}

int main(int argc, char **argv)
{
	signal(SIGTERM, on_term);
	if (argc == 4 && !strcmp(argv[1], "spin"))
		return spin(atoi(argv[2]), atof(argv[3]));
	if (argc == 3 && !strcmp(argv[1], "spin-only"))
		return spin_only(atoi(argv[2]));
	if (argc == 5 && !strcmp(argv[1], "churn"))
		return churn(atoi(argv[2]), atoi(argv[3]), atof(argv[4]));
	fprintf(stderr, "usage: %s spin CPU SECONDS | spin-only CPU | churn CPU0 CPU1 SECONDS\n",
		argv[0]);
	return 2;
}
