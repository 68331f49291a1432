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
 * Usage: table_free_stress [SECONDS] (default 10).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest.h"
#include "expsync_util.h"
#include "../../../../mm/gup_test.h"

#define SYSCTL		"/proc/sys/kernel/expsync/"
#define GUP_TEST	"/sys/kernel/debug/gup_test"
#define REGION		(4UL << 20)
#define NR_MAPPERS	2
#define NR_WALKERS	2

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

int main(int argc, char **argv)
{
	int seconds = argc > 1 ? atoi(argv[1]) : 10;
	pthread_t th[NR_MAPPERS + NR_WALKERS + 1];
	char mode[32], batch[32];
	long imm0, rcu0, bat0, imm, rcu, bat;
	int i, n = 0;

	ksft_print_header();
	if (geteuid())
		ksft_exit_skip("must run as root\n");
	if (!read_str(SYSCTL "table_free", mode, sizeof(mode)) ||
	    !read_str(SYSCTL "table_free_rcu_batch", batch, sizeof(batch)))
		ksft_exit_skip("no kernel.expsync.table_free (CONFIG_EXPSYNC_TABLE_FREE=n)\n");
	if (access(GUP_TEST, R_OK))
		ksft_exit_skip("no " GUP_TEST " (CONFIG_GUP_TEST=n)\n");
	if (!write_file(SYSCTL "table_free", "immediate"))
		ksft_exit_skip("table_free=immediate refused here (paravirt TLB flush)\n");
	ksft_set_plan(3);

	imm0 = expsync_stat("table_free_immediate");
	rcu0 = expsync_stat("table_free_rcu");
	bat0 = expsync_stat("table_free_rcu_batches");
	for (i = 0; i < NR_MAPPERS; i++)
		pthread_create(&th[n++], NULL, mapper, (void *)(long)i);
	for (i = 0; i < NR_WALKERS; i++)
		pthread_create(&th[n++], NULL, walker, NULL);
	pthread_create(&th[n++], NULL, flipper, NULL);
	sleep(seconds);
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
		       seconds, atomic_load(&munmaps), atomic_load(&walks),
		       atomic_load(&flips));
	ksft_print_msg("tables freed immediately %ld, via RCU %ld in %ld call_rcu()\n",
		       imm, rcu, bat);
	ksft_test_result(atomic_load(&munmaps) > 100 && atomic_load(&walks) > 100 &&
			 atomic_load(&flips) > 100,
			 "mappers, GUP-fast walkers and the flipper all ran\n");
	ksft_test_result(imm > 0 && rcu > 0, "both free paths were used\n");
	ksft_test_result(bat > 0 && bat < rcu, "RCU batches held more than one table\n");
	ksft_finished();
}
