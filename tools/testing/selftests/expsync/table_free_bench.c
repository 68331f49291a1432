// SPDX-License-Identifier: GPL-2.0
/*
 * table_free_bench malloc THREADS ROUNDS
 *	will-it-scale malloc1, as in the table_free seed: each thread does
 *	ROUNDS of malloc(128 MB) + free().  glibc serves 128 MB with mmap,
 *	writes its chunk header (one page fault: page tables) and unmaps it
 *	on free(): about one table freed per munmap.
 * table_free_bench munmap ROUNDS [GAP_MS]
 *	one thread maps 4 MB, touches one byte per 2 MB and unmaps it,
 *	sleeping GAP_MS (default 0) after each unmap.
 * table_free_bench munmap-failing ROUNDS
 *	the same, with /proc/thread-self/make-it-fail set first, so that
 *	fault injection (fail_page_alloc, task-filter) fails the loop's
 *	allocations as configured, and not those of the exec before it
 *	or of the exit after it.
 *
 * Prints "munmaps N cpu_ms T": T is the CPU time of all its threads
 * (CLOCK_PROCESS_CPUTIME_ID, what perf stat's task-clock counts) from
 * the start of the work to its end.  Count tracepoints around it.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

static long rounds, gap_ms;

static void *malloc1(void *arg)
{
	long i;

	(void)arg;
	for (i = 0; i < rounds; i++) {
		char *p = malloc(128UL << 20);

		if (!p)
			abort();
		free(p);
	}
	return NULL;
}

static void munmap_loop(void)
{
	const size_t len = 4UL << 20;
	long i;

	for (i = 0; i < rounds; i++) {
		char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			abort();
		/* PTE tables to free, even with THP "always" (EINVAL without THP). */
		madvise(p, len, MADV_NOHUGEPAGE);
		p[0] = 1;
		p[len / 2] = 1;
		munmap(p, len);
		if (gap_ms) {
			struct timespec ts = { gap_ms / 1000, gap_ms % 1000 * 1000000L };

			nanosleep(&ts, NULL);
		}
	}
}

int main(int argc, char **argv)
{
	pthread_t th[64];
	long threads = 1, i;
	struct timespec t0, t1;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	if (argc == 4 && !strcmp(argv[1], "malloc")) {
		threads = atol(argv[2]);
		rounds = atol(argv[3]);
		if (threads < 1 || threads > 64)
			return 2;
		for (i = 0; i < threads; i++)
			pthread_create(&th[i], NULL, malloc1, NULL);
		for (i = 0; i < threads; i++)
			pthread_join(th[i], NULL);
	} else if (argc == 3 && !strcmp(argv[1], "munmap-failing")) {
		int fd = open("/proc/thread-self/make-it-fail", O_WRONLY);

		rounds = atol(argv[2]);
		if (rounds < 0 || fd < 0 || write(fd, "1", 1) != 1) {
			perror("make-it-fail");
			return 2;
		}
		close(fd);
		munmap_loop();
		/*
		 * Off again before the exit, whose atomic allocations (the
		 * parent's SIGCHLD) would fail with a stack dump, which the
		 * VM run takes for a kernel splat.
		 */
		fd = open("/proc/thread-self/make-it-fail", O_WRONLY);
		if (fd < 0 || write(fd, "0", 1) != 1) {
			perror("make-it-fail");
			return 2;
		}
		close(fd);
	} else if ((argc == 3 || argc == 4) && !strcmp(argv[1], "munmap")) {
		rounds = atol(argv[2]);
		gap_ms = argc == 4 ? atol(argv[3]) : 0;
		if (rounds < 0 || gap_ms < 0)
			return 2;
		munmap_loop();
	} else {
		fprintf(stderr, "usage: %s malloc THREADS ROUNDS\n", argv[0]);
		fprintf(stderr, "       %s munmap ROUNDS [GAP_MS]\n", argv[0]);
		fprintf(stderr, "       %s munmap-failing ROUNDS\n", argv[0]);
		return 2;
	}
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
	printf("munmaps %ld cpu_ms %.3f\n", threads * rounds,
	       (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6);
	return 0;
}
