// SPDX-License-Identifier: GPL-2.0
/*
 * vmstat_isolation CPU SECONDS [MIN_SAMPLES]
 *
 * A child pinned to CPU alternates between a batch of counter-changing
 * syscalls (mmap, touch, munmap: NR_ANON_MAPPED, NR_FREE_PAGES, ...)
 * and ~10 ms of user-mode spinning, publishing an even sequence number
 * while it spins.  The parent, on another CPU, samples CPU's vmstat
 * differentials (/sys/kernel/debug/expsync/vmstat_diffs) during each
 * spin and keeps the samples where the sequence did not move.
 *
 * It runs SECONDS, and longer (up to 6 times as long) until it has
 * MIN_SAMPLES samples (default 0), so that a loaded host does not leave
 * the test without power.
 *
 * Prints "samples N nonzero M max K rounds R": under vmstat_drain =
 * user-return every sample must be 0; under periodic the isolated CPU
 * keeps stale differentials.
 *
 * vmstat_isolation join CPU
 *
 * CPU joins and leaves the set while it runs user code only.  Under
 * vmstat_drain = periodic, a child pinned to CPU changes counters, then
 * spins in user mode without a syscall until told to stop.  The parent
 * checks that CPU holds differentials (6.12 leaves them: on an isolated
 * CPU the shepherd never comes, elsewhere vm.stat_interval is set long
 * by the caller), switches to user-return with CPU as the set (join),
 * writes vmstat_drain_now, pokes the child into one getppid(), drains
 * again, switches back to periodic (leave), and prints "before D0
 * joined D1 drain_rc E1 drain_ms M drained D2 poked D3 drain2_rc E2
 * left D4 child_in_user C tries T read_in_drain R skipped S" (E: 0 or an
 * errno; S: the CPUs vmstat_last_drain says the drain after the poke
 * skipped, which must be CPU alone: it folded since it joined and spins
 * in user mode).
 * R: 100 ms into the first drain, a thread reads vmstat_drain, which
 * must not wait for the drain that holds the knobs' lock: 1 when the
 * read returned while the drain was still running, 0 when it returned
 * only after, -1 when the drain was over before the read began.  Nothing may
 * interrupt CPU for the join, the leave or the drains: the first drain
 * either finds the differentials folded (an interrupt came) or gives up
 * with EAGAIN, within its bound, leaving them; after the poke's return
 * to user mode they are 0 and a drain succeeds.  A child that leaves no
 * differentials is replaced, T children in all (at most 5).
 *
 * vmstat_isolation flip CPU SECONDS [MIN_SAMPLES]
 *
 * The load of the first mode runs on CPU while the parent moves CPU in
 * and out of the set every ~200 ms, alternately by the policy and by
 * the set, and samples CPU's differentials while it spins in user mode
 * and is in the set.  Prints "flips F samples N nonzero M max K": every
 * sample must be 0, at any point of a flip.  Like the first mode, it
 * goes on (up to 6 times as long) until it has MIN_SAMPLES samples.
 *
 * vmstat_isolation drain CPU N [fifo]
 *
 * The load of the first mode runs on CPU (SCHED_FIFO with "fifo") while
 * the parent writes vmstat_drain_now N times, and prints "drains N
 * failed F max_ms M rounds R": every write must succeed, within the
 * bound, without running work on CPU (the caller counts that).
 *
 * vmstat_isolation migrate CPU SECONDS
 *
 * The race of mod_zone_state(): a child changes counters without pause
 * while the parent moves it between CPU and the other CPU every ~2 ms
 * (sched_setaffinity() on the child migrates it wherever it was
 * preempted, in the middle of a counter update too), for SECONDS.  Then
 * it parks the child on the other CPU, samples CPU's differentials
 * ("residue"), stops the child, writes vmstat_drain_now and reads what
 * the drain left.
 * Prints "moves M rounds R residue D drain_rc E cpus_with_diffs C
 * sum_mismatches S": E, C and S must be 0 (the counters are exact after
 * a drain, whatever the race left); D is what was left on CPU, 0 unless
 * the race hit.
 *
 * VMSTAT_DRAIN_FILE (default kernel.expsync.vmstat_drain_now) is what
 * the modes write to drain, e.g. /proc/sys/vm/stat_refresh.
 *
 * VMSTAT_JOIN_POLICY (default user-return) is the policy the join and
 * flip modes join by; VMSTAT_SAMPLE_ANY=1 makes the first mode sample
 * at any time, in the child's syscalls too (under direct the CPU holds
 * no differential at any time).
 *
 * vmstat_isolation drift CPU SECONDS
 *
 * Counters never drift.  On CPU, one thread maps, touches and unmaps a
 * 64-page shared memfd (NR_FILE_MAPPED: rmap updates it with the
 * non-atomic __mod_*() read-modify-write, IRQs on), while another
 * thread of the process sleeps 1 ms at a time there, so that CPU's tick
 * stops and starts all the time, from irq_exit() too.  The work is net
 * zero: after a drain, nr_mapped must read what it read before (after
 * a one-second warm-up).  Prints "before B after A rounds R sleeps S
 * drain_rc E".  A fold that lands inside an interrupted update counts
 * the old differential twice, for good.
 *
 * vmstat_isolation put FILE TEXT
 *
 * One write() of exactly TEXT to FILE, an empty one too (a shell
 * redirection writes nothing for ""); exits 1 when it fails.
 *
 * vmstat_isolation cost CPU N
 *
 * On CPU, times N getppid() calls (nothing to fold) and N rounds of
 * mmap + touch + munmap of one page (counters change every round), and
 * prints "getppid_ns X page_cycle_ns Y": the exit-to-user cost of a
 * policy is the difference between runs under each (guest clock; under
 * QEMU -icount, 1 ns = 1 instruction).
 *
 * vmstat_isolation pages CPU
 *
 * On CPU, maps, touches and unmaps one page over and over until killed:
 * counter updates for a debugger to step through.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>

#include "expsync_util.h"

#define DIFFS "/sys/kernel/debug/expsync/vmstat_diffs"
#define POLICY "/proc/sys/kernel/expsync/vmstat_drain"
#define SET "/proc/sys/kernel/expsync/vmstat_drain_cpus"
#define DRAIN "/proc/sys/kernel/expsync/vmstat_drain_now"
#define LAST_DRAIN "/sys/kernel/debug/expsync/vmstat_last_drain"

/* The policy the join and flip modes join by. */
static const char *join_policy(void)
{
	const char *p = getenv("VMSTAT_JOIN_POLICY");

	return p && *p ? p : "user-return";
}

struct shared {
	atomic_long seq;	/* even: child spins in user mode */
	atomic_int stop;
	atomic_int in_user;	/* join mode: counters changed, now spinning */
	atomic_long spins;	/* grows while the child spins in user mode */
	atomic_int poke;	/* join mode: make one syscall, then spin again */
	long rounds;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Map, fault in and unmap @pages pages: NR_ANON_MAPPED, NR_FREE_PAGES... */
static void change_counters(size_t pages)
{
	char *p = mmap(NULL, pages << 12, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		exit(2);
	memset(p, 1, pages << 12);
	munmap(p, pages << 12);
}

/*
 * The child's user-mode spin between batches.  A sample that finds
 * differentials reads them twice around a spin of the child: under TCG
 * that took more than 2 ms, and a 2 ms spin left periodic with 32
 * samples in its 60 s cap on an isolated CPU, where the test wants 50.
 */
#define USER_SPIN_S	0.010

static void child(struct shared *sh, int cpu, int fifo)
{
	struct sched_param sp = { .sched_priority = 1 };

	pin_to_cpu(cpu);
	if (fifo && sched_setscheduler(0, SCHED_FIFO, &sp))
		exit(5);
	while (!atomic_load(&sh->stop)) {
		double end;
		int i;

		atomic_fetch_add(&sh->seq, 1);		/* odd: in syscalls */
		for (i = 0; i < 4; i++)
			change_counters(16);
		sh->rounds++;
		atomic_fetch_add(&sh->seq, 1);		/* even: user mode */
		end = now() + USER_SPIN_S;
		while (now() < end)			/* vDSO: no syscall */
			atomic_fetch_add_explicit(&sh->spins, 1, memory_order_relaxed);
	}
	exit(0);
}

/* CPU @cpu's non-zero differentials, or -1. */
static int diffs_of(int cpu)
{
	char line[128];
	int c, d, ret = -1;
	FILE *f = fopen(DIFFS, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "cpu %d diffs %d", &c, &d) == 2 && c == cpu)
			ret = d;
	fclose(f);
	return ret;
}

struct samples {
	long n, nonzero, max;
};

/* Count one sample of @d non-zero differentials, then pause 1 ms. */
static void record(struct samples *got, int d)
{
	got->n++;
	got->nonzero += d > 0;
	if (d > got->max)
		got->max = d;
	usleep(1000);
}

/*
 * One sample of @cpu's differentials, taken only if the child stayed in
 * user mode, apart from interrupts, all along (same even sequence
 * before and after the reads).  A non-zero read may catch @cpu in an
 * interrupt, or running a kworker while the child waits, before the
 * child's return to user mode folds: it counts only if the diffs are
 * still there once the child has spun again, that is returned to user
 * mode, since the first read.  Samples before the child's sequence
 * reaches @min_seq (it has not yet returned to user mode since CPU
 * joined the set) are not taken.
 */
static void sample(struct shared *sh, int cpu, struct samples *got, long min_seq)
{
	const char *any = getenv("VMSTAT_SAMPLE_ANY");
	long seq = atomic_load(&sh->seq), spins;
	double give_up;
	int d, again;

	if (any && !strcmp(any, "1")) {		/* any time, no second look */
		d = diffs_of(cpu);
		if (d >= 0)
			record(got, d);
		return;
	}
	if ((seq & 1) || seq < min_seq)
		return;
	d = diffs_of(cpu);
	if (d > 0) {
		spins = atomic_load(&sh->spins);
		give_up = now() + 0.05;
		while (atomic_load(&sh->spins) == spins && now() < give_up)
			usleep(100);
		again = diffs_of(cpu);
		d = again < d ? again : d;
	}
	if (atomic_load(&sh->seq) != seq || d < 0)
		return;
	record(got, d);
}

/* The page shared with the child, or exit. */
static struct shared *map_shared(void)
{
	struct shared *sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
				 MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (sh == MAP_FAILED) {
		perror("mmap");
		exit(2);
	}
	return sh;
}

/* Write @val to sysctl @path, or exit: the test cannot go on. */
static void set_knob(const char *path, const char *val)
{
	if (!write_file(path, val)) {
		fprintf(stderr, "cannot write %s to %s\n", val, path);
		exit(3);
	}
}

static void spin_child(struct shared *sh, int cpu)
{
	char *p;

	pin_to_cpu(cpu);
	change_counters(64);
	/* Keep 64 more pages mapped: counters with a net change. */
	p = mmap(NULL, 64 << 12, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		exit(2);
	memset(p, 1, 64 << 12);
	atomic_store(&sh->in_user, 1);
	while (!atomic_load_explicit(&sh->stop, memory_order_relaxed))
		if (atomic_load_explicit(&sh->poke, memory_order_relaxed) == 1) {
			getppid();			/* one return to user */
			atomic_store(&sh->poke, 2);
		}					/* else user mode only */
	exit(0);
}

/*
 * draining is set while join_leave()'s first drain runs; drain_started
 * once it has begun, and stays set: a drain over before the reader
 * looked must not leave the reader waiting for it.
 */
static atomic_int draining, drain_started;

/* 100 ms into the drain, read a knob: see "R" in the header. */
static void *read_in_drain(void *arg)
{
	int *result = arg, fd;
	char buf[64];

	while (!atomic_load(&drain_started))
		usleep(1000);
	usleep(100000);
	if (!atomic_load(&draining)) {
		*result = -1;
		return NULL;
	}
	fd = open(POLICY, O_RDONLY);
	if (fd < 0 || read(fd, buf, sizeof(buf)) <= 0)
		*result = -2;
	else
		*result = atomic_load(&draining);
	if (fd >= 0)
		close(fd);
	return NULL;
}

/* Write 1 to vmstat_drain_now: 0 or the errno; *ms gets the time taken. */
static int drain(double *ms)
{
	const char *path = getenv("VMSTAT_DRAIN_FILE");
	double t = now();
	int err = write_file(path && *path ? path : DRAIN, "1") ? 0 : errno;

	if (ms)
		*ms = (now() - t) * 1e3;
	return err;
}

static int join_leave(int cpu)
{
	char list[16];
	struct shared *sh;
	int d[5], tries = 0, rc[2], read_result = -3, i;
	long skipped;
	pthread_t reader;
	double ms;
	pid_t pid;

	sh = map_shared();
	snprintf(list, sizeof(list), "%d", cpu);
	set_knob(POLICY, "periodic");
	set_knob(SET, list);
	pin_to_cpu(cpu ? 0 : 1);
	/*
	 * The join must be seen folding real differentials: a child whose
	 * updates happened to cancel out (or landed on a threshold fold)
	 * leaves none, so try another, at most 5 times.  No knob changes
	 * meanwhile, so the fold work count is untouched.
	 */
	do {
		if (tries++) {
			atomic_store(&sh->stop, 1);
			waitpid(pid, NULL, 0);
			atomic_store(&sh->stop, 0);
			atomic_store(&sh->in_user, 0);
		}
		pid = fork();
		if (!pid)
			spin_child(sh, cpu);
		while (!atomic_load(&sh->in_user))
			usleep(1000);
		usleep(100000);
		d[0] = diffs_of(cpu);
	} while (d[0] == 0 && tries < 5);
	set_knob(POLICY, join_policy());	/* join: no work on cpu */
	d[1] = diffs_of(cpu);
	if (pthread_create(&reader, NULL, read_in_drain, &read_result))
		exit(2);
	atomic_store(&draining, 1);
	atomic_store(&drain_started, 1);
	rc[0] = drain(&ms);			/* waits, gives up: EAGAIN */
	atomic_store(&draining, 0);
	pthread_join(reader, NULL);
	d[2] = diffs_of(cpu);
	atomic_store(&sh->poke, 1);
	while (atomic_load(&sh->poke) != 2)
		usleep(1000);
	d[3] = diffs_of(cpu);			/* folded on the way back */
	rc[1] = drain(NULL);
	/*
	 * Done without waiting: folded since it joined and in user mode,
	 * CPU is the drain's one skipped CPU.  A drain that samples CPU
	 * inside an interrupt waits for its exit instead: up to 3 drains.
	 */
	for (i = 0; (skipped = expsync_file_value(LAST_DRAIN, "skipped")) != 1 && i < 2; i++)
		drain(NULL);
	set_knob(POLICY, "periodic");		/* leave */
	d[4] = diffs_of(cpu);
	/* Still spinning, back in the kernel only for the poke. */
	printf("before %d joined %d drain_rc %d drain_ms %.0f drained %d ",
	       d[0], d[1], rc[0], ms, d[2]);
	printf("poked %d drain2_rc %d left %d child_in_user %d tries %d ",
	       d[3], rc[1], d[4], waitpid(pid, NULL, WNOHANG) == 0, tries);
	printf("read_in_drain %d skipped %ld\n", read_result, skipped);
	atomic_store(&sh->stop, 1);
	waitpid(pid, NULL, 0);
	return 0;
}

static int flip(int cpu, double seconds, long min_samples)
{
	struct samples got = { 0 };
	char list[16], other[16];
	struct shared *sh;
	double end, cap;
	long flips = 0;
	pid_t pid;

	sh = map_shared();
	snprintf(list, sizeof(list), "%d", cpu);
	snprintf(other, sizeof(other), "%d", cpu ? 0 : 1);
	set_knob(POLICY, "periodic");
	set_knob(SET, list);
	pid = fork();
	if (!pid)
		child(sh, cpu, 0);
	pin_to_cpu(cpu ? 0 : 1);
	end = now() + seconds;
	cap = now() + 6 * seconds;
	while (now() < end || (got.n < min_samples && now() < cap)) {
		double until;
		long joined;

		/* Join by the policy and leave by the set, then the reverse. */
		if (flips & 1) {
			set_knob(SET, list);
		} else {
			set_knob(SET, list);
			set_knob(POLICY, join_policy());
		}
		/*
		 * Differentials from before the join are folded at the
		 * child's next return to user mode: sample after that one.
		 */
		joined = atomic_load(&sh->seq);
		until = now() + 0.2;
		while (now() < until)
			sample(sh, cpu, &got, joined + 2 + (joined & 1));
		if (flips & 1)
			set_knob(POLICY, "periodic");
		else
			set_knob(SET, other);
		flips++;
		usleep(50000);
	}
	set_knob(POLICY, "periodic");
	set_knob(SET, list);
	atomic_store(&sh->stop, 1);
	waitpid(pid, NULL, 0);
	printf("flips %ld samples %ld nonzero %ld max %ld\n", flips, got.n,
	       got.nonzero, got.max);
	return 0;
}

static int migrate(int cpu, double seconds)
{
	int other = cpu ? 0 : 1, here = cpu, rc, residue;
	struct shared *sh;
	long moves = 0;
	cpu_set_t set;
	double end;
	pid_t pid;

	sh = map_shared();
	pid = fork();
	if (!pid) {
		while (!atomic_load(&sh->stop)) {
			change_counters(16);
			sh->rounds++;
		}
		exit(0);
	}
	pin_to_cpu(other);
	end = now() + seconds;
	while (now() < end) {
		here = here == cpu ? other : cpu;
		CPU_ZERO(&set);
		CPU_SET(here, &set);
		if (sched_setaffinity(pid, sizeof(set), &set)) {
			perror("sched_setaffinity");
			exit(3);
		}
		moves++;
		usleep(2000);
	}
	CPU_ZERO(&set);
	CPU_SET(other, &set);
	sched_setaffinity(pid, sizeof(set), &set);
	usleep(100000);
	residue = diffs_of(cpu);
	atomic_store(&sh->stop, 1);
	waitpid(pid, NULL, 0);
	rc = drain(NULL);
	printf("moves %ld rounds %ld residue %d drain_rc %d ", moves, sh->rounds, residue, rc);
	printf("cpus_with_diffs %ld sum_mismatches %ld\n",
	       expsync_file_value(LAST_DRAIN, "cpus_with_diffs"),
	       expsync_file_value(LAST_DRAIN, "sum_mismatches"));
	return 0;
}

struct drift {
	int cpu, fd;
	atomic_int stop;
	long rounds, sleeps, sink;
};

#define DRIFT_PAGES	64

static void *drift_mapper(void *arg)
{
	struct drift *d = arg;
	size_t len = DRIFT_PAGES << 12, i;

	pin_to_cpu(d->cpu);
	while (!atomic_load(&d->stop)) {
		char *p = mmap(NULL, len, PROT_READ, MAP_SHARED, d->fd, 0);

		if (p == MAP_FAILED)
			exit(2);
		for (i = 0; i < len; i += 4096)	/* fault each page in */
			d->sink += p[i];
		munmap(p, len);
		d->rounds++;
	}
	return NULL;
}

static void *drift_sleeper(void *arg)
{
	struct drift *d = arg;

	pin_to_cpu(d->cpu);
	while (!atomic_load(&d->stop)) {
		usleep(1000);
		d->sleeps++;
	}
	return NULL;
}

static void drift_run(struct drift *d, double seconds)
{
	pthread_t m, s;

	atomic_store(&d->stop, 0);
	if (pthread_create(&m, NULL, drift_mapper, d) ||
	    pthread_create(&s, NULL, drift_sleeper, d)) {
		perror("pthread_create");
		exit(2);
	}
	usleep(seconds * 1e6);
	atomic_store(&d->stop, 1);
	pthread_join(m, NULL);
	pthread_join(s, NULL);
}

static int drift(int cpu, double seconds)
{
	struct drift d = { .cpu = cpu };
	long before, after;
	char *p;
	int rc;

	pin_to_cpu(cpu ? 0 : 1);
	d.fd = memfd_create("vmstat_drift", 0);
	if (d.fd < 0 || ftruncate(d.fd, DRIFT_PAGES << 12)) {
		perror("memfd");
		return 2;
	}
	p = mmap(NULL, DRIFT_PAGES << 12, PROT_WRITE, MAP_SHARED, d.fd, 0);
	if (p == MAP_FAILED)
		return 2;
	memset(p, 1, DRIFT_PAGES << 12);	/* in the page cache from now on */
	munmap(p, DRIFT_PAGES << 12);
	/*
	 * A warm-up round through every step below, so that the code pages
	 * they fault in (mapped file pages too) are mapped before the count.
	 */
	drift_run(&d, 1);
	drain(NULL);
	expsync_file_value("/proc/vmstat", "nr_mapped");
	rc = drain(NULL);
	before = expsync_file_value("/proc/vmstat", "nr_mapped");
	d.rounds = 0;
	d.sleeps = 0;
	drift_run(&d, seconds);
	rc = rc ? rc : drain(NULL);
	after = expsync_file_value("/proc/vmstat", "nr_mapped");
	printf("before %ld after %ld rounds %ld sleeps %ld drain_rc %d\n",
	       before, after, d.rounds, d.sleeps, rc);
	return 0;
}

static int drain_beside_load(int cpu, long n, int fifo)
{
	double ms, max_ms = 0;
	long i, failed = 0;
	struct shared *sh;
	pid_t pid;

	sh = map_shared();
	pid = fork();
	if (!pid)
		child(sh, cpu, fifo);
	pin_to_cpu(cpu ? 0 : 1);
	while (atomic_load(&sh->seq) < 4) {	/* the child is running */
		if (waitpid(pid, NULL, WNOHANG) == pid) {
			fprintf(stderr, "the load exited (no SCHED_FIFO?)\n");
			return 1;
		}
		usleep(1000);
	}
	for (i = 0; i < n; i++) {
		if (drain(&ms))
			failed++;
		if (ms > max_ms)
			max_ms = ms;
		usleep(20000);
	}
	atomic_store(&sh->stop, 1);
	waitpid(pid, NULL, 0);
	printf("drains %ld failed %ld max_ms %.0f rounds %ld\n", n, failed, max_ms,
	       sh->rounds);
	return 0;
}

/* Map, touch and unmap one page; -1 when mmap() fails. */
static int page_cycle(void)
{
	char *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return -1;
	p[0] = 1;
	munmap(p, 4096);
	return 0;
}

static int cost(int cpu, long n)
{
	double t0, t1, t2;
	long i;

	pin_to_cpu(cpu);
	t0 = now();
	for (i = 0; i < n; i++)
		getppid();
	t1 = now();
	for (i = 0; i < n; i++)
		if (page_cycle())
			return 2;
	t2 = now();
	printf("getppid_ns %.0f page_cycle_ns %.0f\n", (t1 - t0) * 1e9 / n,
	       (t2 - t1) * 1e9 / n);
	return 0;
}

static int pages(int cpu)
{
	pin_to_cpu(cpu);
	while (!page_cycle())
		;
	return 2;
}

int main(int argc, char **argv)
{
	struct samples got = { 0 };
	struct shared *sh;
	long min_samples;
	double end, cap;
	pid_t pid;
	int cpu;

	if (argc == 4 && !strcmp(argv[1], "drift"))
		return drift(atoi(argv[2]), atof(argv[3]));
	if (argc == 4 && !strcmp(argv[1], "put"))
		return !write_file(argv[2], argv[3]);	/* one write(), "" too */
	if (argc == 3 && !strcmp(argv[1], "pages"))
		return pages(atoi(argv[2]));
	if (argc == 4 && !strcmp(argv[1], "cost"))
		return cost(atoi(argv[2]), atol(argv[3]));
	if ((argc == 4 || argc == 5) && !strcmp(argv[1], "drain"))
		return drain_beside_load(atoi(argv[2]), atol(argv[3]),
					 argc == 5 && !strcmp(argv[4], "fifo"));
	if (argc == 4 && !strcmp(argv[1], "migrate"))
		return migrate(atoi(argv[2]), atof(argv[3]));
	if (argc == 3 && !strcmp(argv[1], "join"))
		return join_leave(atoi(argv[2]));
	if ((argc == 4 || argc == 5) && !strcmp(argv[1], "flip"))
		return flip(atoi(argv[2]), atof(argv[3]), argc == 5 ? atol(argv[4]) : 0);
	cpu = argc > 1 ? atoi(argv[1]) : 1;
	end = now() + (argc > 2 ? atof(argv[2]) : 10);
	cap = now() + 6 * (argc > 2 ? atof(argv[2]) : 10);
	min_samples = argc > 3 ? atol(argv[3]) : 0;

	if (access(DIFFS, R_OK)) {
		fprintf(stderr, "no %s\n", DIFFS);
		return 4;
	}
	sh = map_shared();
	pid = fork();
	if (!pid)
		child(sh, cpu, 0);
	pin_to_cpu(cpu ? 0 : 1);
	while (now() < end || (got.n < min_samples && now() < cap))
		sample(sh, cpu, &got, 0);
	atomic_store(&sh->stop, 1);
	waitpid(pid, NULL, 0);
	printf("samples %ld nonzero %ld max %ld rounds %ld\n", got.n, got.nonzero,
	       got.max, sh->rounds);
	return 0;
}
