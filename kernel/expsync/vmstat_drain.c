// SPDX-License-Identifier: GPL-2.0
/*
 * expsync vmstat_drain mechanism: when per-CPU vmstat differentials are
 * folded into the global counters.
 *
 * "periodic" is 6.12: vmstat_update work every vm.stat_interval, a fold
 * when the tick stops, and a shepherd that skips isolated CPUs, whose
 * differentials then stay stale with no time bound.
 *
 * "user-return": a CPU of the set (vmstat_drain_cpus, by default the
 * nohz_full CPUs) folds its own differentials
 *
 *  1) on every return to user mode, in exit_to_user_mode_prepare() with
 *     IRQs off, when it has any (a scan of its diff bytes, no write
 *     otherwise), and
 *  2) when its tick stops (quiet_vmstat()), which covers idle,
 *
 * and the shepherd never queues vmstat_update on it.  While such a CPU
 * runs user code its differentials are zero, so the global counters
 * hold all it counted.  The counter fast path (__mod_zone_page_state()
 * and friends) is not touched in either mode; the whole cost is the
 * check in 1), on the CPUs of the set only.
 *
 * Not covered: a CPU of the set that runs kernel code for long without
 * returning to user mode or stopping its tick; it folds when it does.
 *
 * Changes of the policy or the set: a CPU joins the set after its flag
 * is set and its pending vmstat_update cancelled; a CPU leaves it after
 * its flag is cleared and one fold is run on it, after which the
 * shepherd looks after it as in 6.12.
 *
 * vmstat_drain_now folds every online CPU's differentials and returns
 * when done.  It runs the fold as work on each CPU, except on a CPU of
 * the set that context tracking says is in user mode: that CPU folded
 * before it entered user mode (1), and ct_user_enter()'s fully ordered
 * atomic update of its state, which we observe, orders that fold before
 * our read of the state.
 */

#define pr_fmt(fmt) "expsync: " fmt

#include <linux/context_tracking_state.h>
#include <linux/debugfs.h>
#include <linux/mmzone.h>
#include <linux/seq_file.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/expsync.h>
#include <linux/jump_label.h>
#include <linux/ktime.h>
#include <linux/percpu.h>
#include <linux/sched/isolation.h>
#include <linux/tick.h>
#include <linux/vmstat.h>
#include <linux/workqueue.h>

#include <trace/events/expsync.h>

#include "internal.h"

/* True when vmstat_drain is "user-return" (and the set may be non-empty). */
DEFINE_STATIC_KEY_FALSE(expsync_vmstat_drain_user_return);
/* This CPU folds on user return; read by itself and by the shepherd. */
DEFINE_PER_CPU(bool, expsync_vmstat_drain_cpu);

/* The mechanism's own view of the two knobs, under expsync_policy_mutex. */
static bool expsync_vmstat_user_return_on;
static struct cpumask expsync_vmstat_set;

static const char * const expsync_vmstat_fold_names[] = {
	[EXPSYNC_VMSTAT_FOLD_USER_RETURN]	= "user-return",
	[EXPSYNC_VMSTAT_FOLD_IDLE]		= "idle",
	[EXPSYNC_VMSTAT_FOLD_WORK]		= "work",
	[EXPSYNC_VMSTAT_FOLD_DRAIN_NOW]		= "drain-now",
};

static_assert(ARRAY_SIZE(expsync_vmstat_fold_names) == NR_EXPSYNC_VMSTAT_FOLDS);

/**
 * expsync_vmstat_count_fold() - account a fold of this CPU's differentials
 * @why: the reason
 * @items: differentials folded (0: nothing to fold, not counted)
 */
void expsync_vmstat_count_fold(enum expsync_vmstat_fold why, int items)
{
	if (!items)
		return;
	expsync_count(EXPSYNC_STAT_VMSTAT_FOLD_USER_RETURN + why, 1);
	expsync_count(EXPSYNC_STAT_VMSTAT_ITEMS, items);
	trace_expsync_vmstat_fold(expsync_vmstat_fold_names[why], items);
}

/**
 * expsync_vmstat_fold() - fold this CPU's differentials if it has any
 * @why: the reason, for the counters and the tracepoint
 *
 * Called with IRQs off on return to user mode and from quiet_vmstat().
 */
void expsync_vmstat_fold(enum expsync_vmstat_fold why)
{
	expsync_vmstat_count_fold(why, vmstat_fold_this_cpu());
}

/* One work item per CPU, used under expsync_policy_mutex only. */
static DEFINE_PER_CPU(struct work_struct, expsync_vmstat_fold_works);

static void expsync_vmstat_fold_work(struct work_struct *work)
{
	/* Per-CPU diffs: the fold must not be interrupted by an update. */
	local_irq_disable();
	expsync_vmstat_fold(EXPSYNC_VMSTAT_FOLD_DRAIN_NOW);
	local_irq_enable();
}

/*
 * Run one fold on each online CPU of @cpus and wait for them.  Called
 * with cpus_read_lock() held, so the CPUs stay online.
 */
static void expsync_vmstat_fold_on(const struct cpumask *cpus)
{
	unsigned int cpu;

	for_each_cpu_and(cpu, cpus, cpu_online_mask) {
		struct work_struct *w = per_cpu_ptr(&expsync_vmstat_fold_works, cpu);

		INIT_WORK(w, expsync_vmstat_fold_work);
		schedule_work_on(cpu, w);
	}
	for_each_cpu_and(cpu, cpus, cpu_online_mask)
		flush_work(per_cpu_ptr(&expsync_vmstat_fold_works, cpu));
}

/* Make the effective set user_return ? set : none.  Under the mutex. */
static void expsync_vmstat_update_set(bool user_return, const struct cpumask *set)
{
	static struct cpumask leaving;	/* under expsync_policy_mutex */
	unsigned int cpu;

	cpus_read_lock();
	cpumask_clear(&leaving);
	for_each_possible_cpu(cpu) {
		bool was = per_cpu(expsync_vmstat_drain_cpu, cpu);
		bool now = user_return && cpumask_test_cpu(cpu, set);

		if (was == now)
			continue;
		/* Pairs with the lockless reads in expsync_vmstat_drain_owns(). */
		WRITE_ONCE(per_cpu(expsync_vmstat_drain_cpu, cpu), now);
		if (now) {
			/* The shepherd sees the flag from now on: cancel what it queued. */
			smp_mb();
			vmstat_cancel_work(cpu);
		} else {
			__cpumask_set_cpu(cpu, &leaving);
		}
	}
	/* Patches code on all CPUs; rare, under expsync_policy_mutex. */
	if (user_return && !cpumask_empty(set))
		static_branch_enable_cpuslocked(&expsync_vmstat_drain_user_return);
	else
		static_branch_disable_cpuslocked(&expsync_vmstat_drain_user_return);

	/* Leaving CPUs: fold once, then the shepherd looks after them. */
	expsync_vmstat_fold_on(&leaving);
	cpus_read_unlock();
}

/**
 * expsync_vmstat_drain_apply() - switch between periodic and user-return
 * @knob: the vmstat_drain knob
 * @val: an enum expsync_vmstat_drain value
 *
 * Return: 0.
 */
int expsync_vmstat_drain_apply(struct expsync_knob *knob, unsigned int val)
{
	expsync_vmstat_user_return_on = val == EXPSYNC_VMSTAT_DRAIN_USER_RETURN;
	expsync_vmstat_update_set(expsync_vmstat_user_return_on, &expsync_vmstat_set);
	return 0;
}

/**
 * expsync_vmstat_drain_cpus_apply() - change the set of CPUs that fold on
 * user return
 * @knob: the vmstat_drain_cpus knob
 * @mask: the new set
 *
 * Return: 0.
 */
int expsync_vmstat_drain_cpus_apply(struct expsync_knob *knob,
				    const struct cpumask *mask)
{
	cpumask_copy(&expsync_vmstat_set, mask);
	expsync_vmstat_update_set(expsync_vmstat_user_return_on, mask);
	return 0;
}

/* Is @cpu in user mode, per context tracking?  False when unknown. */
static bool expsync_cpu_in_user(unsigned int cpu)
{
#ifdef CONFIG_CONTEXT_TRACKING_USER
	int state;

	if (!context_tracking_enabled_cpu(cpu))
		return false;
	state = atomic_read(&per_cpu(context_tracking.state, cpu)) & CT_STATE_MASK;
	/*
	 * Pairs with the fully ordered atomic update of the state in
	 * ct_user_enter(): the fold done before it is visible to us.
	 */
	smp_mb();
	return state == CT_STATE_USER;
#else
	return false;
#endif
}

/* How many of @cpu's differentials are non-zero (a racy snapshot). */
static unsigned int expsync_vmstat_cpu_diffs(unsigned int cpu)
{
	struct pglist_data *pgdat;
	struct zone *zone;
	unsigned int i, n = 0;

	for_each_populated_zone(zone) {
		struct per_cpu_zonestat *z = per_cpu_ptr(zone->per_cpu_zonestats, cpu);

		for (i = 0; i < NR_VM_ZONE_STAT_ITEMS; i++)
			n += READ_ONCE(z->vm_stat_diff[i]) != 0;
	}
	for_each_online_pgdat(pgdat) {
		struct per_cpu_nodestat *p = per_cpu_ptr(pgdat->per_cpu_nodestats, cpu);

		for (i = 0; i < NR_VM_NODE_STAT_ITEMS; i++)
			n += READ_ONCE(p->vm_node_stat_diff[i]) != 0;
	}
	return n;
}

/* Zone items whose global counter differs from the sum over zones. */
static unsigned int expsync_vmstat_sum_mismatches(void)
{
	unsigned int i, bad = 0;

	for (i = 0; i < NR_VM_ZONE_STAT_ITEMS; i++) {
		long sum = 0;
		struct zone *zone;

		for_each_populated_zone(zone)
			sum += atomic_long_read(&zone->vm_stat[i]);
		bad += sum != atomic_long_read(&vm_zone_stat[i]);
	}
	return bad;
}

/* What the last vmstat_drain_now saw right after its folds. */
static struct {
	unsigned int cpus, skipped, cpus_with_diffs, sum_mismatches;
	s64 ns;
} expsync_vmstat_last_drain;

/**
 * expsync_vmstat_drain_now() - fold every CPU's differentials now
 * @knob: the vmstat_drain_now trigger
 *
 * Return: 0 when done.
 */
int expsync_vmstat_drain_now(struct expsync_knob *knob)
{
	static struct cpumask targets;	/* under expsync_policy_mutex */
	ktime_t start = ktime_get();
	unsigned int cpu, skipped = 0;

	cpus_read_lock();
	cpumask_clear(&targets);
	for_each_online_cpu(cpu) {
		if (expsync_vmstat_drain_owns(cpu) && expsync_cpu_in_user(cpu)) {
			skipped++;
			continue;
		}
		__cpumask_set_cpu(cpu, &targets);
	}
	expsync_vmstat_fold_on(&targets);
	expsync_vmstat_last_drain.ns = ktime_to_ns(ktime_sub(ktime_get(), start));
	expsync_vmstat_last_drain.cpus = cpumask_weight(&targets);
	expsync_vmstat_last_drain.skipped = skipped;
	/* On a quiet system both must be 0: see the vmstat_last_drain file. */
	expsync_vmstat_last_drain.cpus_with_diffs = 0;
	for_each_online_cpu(cpu)
		expsync_vmstat_last_drain.cpus_with_diffs += !!expsync_vmstat_cpu_diffs(cpu);
	expsync_vmstat_last_drain.sum_mismatches = expsync_vmstat_sum_mismatches();
	cpus_read_unlock();

	expsync_count(EXPSYNC_STAT_VMSTAT_DRAIN_NOW_SKIPPED, skipped);
	trace_expsync_vmstat_drain_now(expsync_vmstat_last_drain.cpus, skipped,
				       expsync_vmstat_last_drain.ns);
	return 0;
}

/* debugfs vmstat_diffs: "cpu N diffs M" per online CPU, racy snapshot. */
static int expsync_vmstat_diffs_show(struct seq_file *m, void *v)
{
	unsigned int cpu;

	cpus_read_lock();
	for_each_online_cpu(cpu)
		seq_printf(m, "cpu %u diffs %u%s\n", cpu, expsync_vmstat_cpu_diffs(cpu),
			   expsync_vmstat_drain_owns(cpu) ? " user-return" : "");
	cpus_read_unlock();
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(expsync_vmstat_diffs);

static int expsync_vmstat_last_drain_show(struct seq_file *m, void *v)
{
	guard(mutex)(&expsync_policy_mutex);
	seq_printf(m, "cpus %u\nskipped %u\ncpus_with_diffs %u\nsum_mismatches %u\nns %lld\n",
		   expsync_vmstat_last_drain.cpus, expsync_vmstat_last_drain.skipped,
		   expsync_vmstat_last_drain.cpus_with_diffs,
		   expsync_vmstat_last_drain.sum_mismatches, expsync_vmstat_last_drain.ns);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(expsync_vmstat_last_drain);

/**
 * expsync_vmstat_debugfs_init() - add the vmstat_drain debugfs files
 * @dir: /sys/kernel/debug/expsync
 */
void expsync_vmstat_debugfs_init(struct dentry *dir)
{
	debugfs_create_file("vmstat_diffs", 0444, dir, NULL, &expsync_vmstat_diffs_fops);
	debugfs_create_file("vmstat_last_drain", 0444, dir, NULL,
			    &expsync_vmstat_last_drain_fops);
}

/**
 * expsync_vmstat_drain_cpus_default() - the default set: nohz_full CPUs
 * @mask: filled with the default
 */
void expsync_vmstat_drain_cpus_default(struct cpumask *mask)
{
	cpumask_clear(mask);
#ifdef CONFIG_NO_HZ_FULL
	if (tick_nohz_full_enabled())
		cpumask_copy(mask, tick_nohz_full_mask);
#endif
}
