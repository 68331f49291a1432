// SPDX-License-Identifier: GPL-2.0
/*
 * hammer CPU_A CPU_B: two threads, pinned to CPU_A and CPU_B, each maps,
 * touches and unmaps one page without end: every munmap() flushes the
 * other thread's CPU with a call-function IPI, so that both CPUs run
 * __sysvec_call_function_single() all the time.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

static void *hammer(void *arg)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET((long)arg, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("sched_setaffinity");
		exit(1);
	}
	for (;;) {
		char *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED) {
			perror("mmap");
			exit(1);
		}
		p[0] = 1;
		munmap(p, 4096);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;

	if (argc != 3) {
		fprintf(stderr, "usage: %s CPU_A CPU_B\n", argv[0]);
		return 2;
	}
	if (pthread_create(&t, NULL, hammer, (void *)strtol(argv[1], NULL, 0)))
		return 1;
	hammer((void *)strtol(argv[2], NULL, 0));
	return 0;
}
