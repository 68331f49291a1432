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
 * Changes of the policy or the set: a CPU joins the set when its flag is
 * set, its pending vmstat_update cancelled and one fold run on it (it
 * may have been in user mode with old differentials); a CPU leaves it
 * when its flag is cleared and one fold is run on it, after which the
 * shepherd looks after it as in 6.12.  These folds are the only work the
 * mechanism runs on a CPU of the set, at the admin's request.
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
	static struct cpumask changed;	/* under expsync_policy_mutex */
	bool any = user_return && !cpumask_empty(set);
	unsigned int cpu;

	cpus_read_lock();
	/*
	 * expsync_vmstat_drain_owns() is key && flag: turn the key on before
	 * any flag, and off after the last flag is cleared, so that each
	 * flag alone decides.  Patching code IPIs all CPUs: rare, under
	 * expsync_policy_mutex.
	 */
	if (any)
		static_branch_enable_cpuslocked(&expsync_vmstat_drain_user_return);
	cpumask_clear(&changed);
	for_each_possible_cpu(cpu) {
		bool was = per_cpu(expsync_vmstat_drain_cpu, cpu);
		bool now = user_return && cpumask_test_cpu(cpu, set);

		if (was == now)
			continue;
		/* Pairs with the lockless reads in expsync_vmstat_drain_owns(). */
		WRITE_ONCE(per_cpu(expsync_vmstat_drain_cpu, cpu), now);
		/*
		 * The shepherd sees the flag from now on; cancel what it
		 * queued before.  The workqueue's fully ordered PENDING-bit
		 * RMW orders our store before the cancel; a vmstat_update the
		 * shepherd queued concurrently may still run once and does
		 * not re-arm (vmstat_update()).
		 */
		if (now)
			vmstat_cancel_work(cpu);
		__cpumask_set_cpu(cpu, &changed);
	}
	if (!any)
		static_branch_disable_cpuslocked(&expsync_vmstat_drain_user_return);

	/*
	 * Fold every CPU that changed side once: a leaving CPU is then the
	 * shepherd's again; a joining CPU may be in user mode with old
	 * differentials, which its next return to user mode would only
	 * fold later, and drain-now skips CPUs of the set in user mode.
	 */
	expsync_vmstat_fold_on(&changed);
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
	 * ct_user_enter() (ct_state_inc(), CONTEXT_TRACKING_IDLE, which
	 * TREE_RCU selects): the fold done before it is visible to us.
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

	/*
	 * Order what preceded the request (the caller's own updates, seen
	 * by its CPU) before the reads of other CPUs' state below.
	 */
	smp_mb();
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

/*
 * debugfs vmstat_primitives: the cost of the primitives vmstat counters
 * are built from, as in Christoph Lameter's table in the vmstat_dirty
 * review (locked cmpxchg 12 cycles, unlocked 3, CLI/STI 24, preempt
 * off/on 6).  Each is timed over a loop with ktime_get(); under QEMU
 * -icount a nanosecond is one guest instruction.
 */
#define EXPSYNC_PRIMITIVE_LOOPS	100000

static DEFINE_PER_CPU(unsigned long, expsync_prim_pcp);
static unsigned long expsync_prim_shared;

static int expsync_vmstat_primitives_show(struct seq_file *m, void *v)
{
	struct zone *zone = NULL, *z;
	unsigned long flags;
	ktime_t t0;
	int i, k;

	for_each_populated_zone(z)
		zone = z;
	seq_printf(m, "# %d loops each, ns per operation (guest clock)\n",
		   EXPSYNC_PRIMITIVE_LOOPS);
	for (k = 0; k < 6; k++) {
		static const char * const what[] = {
			"empty loop",
			"locked cmpxchg",
			"this_cpu_cmpxchg (unlocked)",
			"local_irq_save/restore pair",
			"preempt_disable/enable pair",
			"__mod_zone_page_state +1 and -1, IRQs off",
		};

		local_irq_save(flags);
		t0 = ktime_get();
		for (i = 0; i < EXPSYNC_PRIMITIVE_LOOPS; i++) {
			switch (k) {
			case 1:
				cmpxchg(&expsync_prim_shared, i, i + 1);
				break;
			case 2:
				this_cpu_cmpxchg(expsync_prim_pcp, i, i + 1);
				break;
			case 3: {
				unsigned long f2;

				local_irq_save(f2);
				local_irq_restore(f2);
				break;
			}
			case 4:
				preempt_disable();
				preempt_enable();
				break;
			case 5:
				__mod_zone_page_state(zone, NR_ZONE_INACTIVE_ANON, 1);
				__mod_zone_page_state(zone, NR_ZONE_INACTIVE_ANON, -1);
				break;
			}
			barrier();
		}
		t0 = ktime_sub(ktime_get(), t0);
		local_irq_restore(flags);
		seq_printf(m, "%-45s %6lld\n", what[k],
			   div_s64(ktime_to_ns(t0), EXPSYNC_PRIMITIVE_LOOPS));
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(expsync_vmstat_primitives);

/**
 * expsync_vmstat_debugfs_init() - add the vmstat_drain debugfs files
 * @dir: /sys/kernel/debug/expsync
 */
void expsync_vmstat_debugfs_init(struct dentry *dir)
{
	debugfs_create_file("vmstat_diffs", 0444, dir, NULL, &expsync_vmstat_diffs_fops);
	debugfs_create_file("vmstat_last_drain", 0444, dir, NULL,
			    &expsync_vmstat_last_drain_fops);
	debugfs_create_file("vmstat_primitives", 0400, dir, NULL,
			    &expsync_vmstat_primitives_fops);
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
