// SPDX-License-Identifier: GPL-2.0
/*
 * Test hooks for kernel.expsync.vmstat_drain, in /sys/kernel/debug/expsync/.
 * Kept out of mm/vmstat.c: they only observe, through a probe on the
 * expsync_vmstat_drain_now tracepoint and racy reads of the diffs.
 *
 * vmstat_diffs       "cpu N diffs M [user-return|direct]" per online CPU: how many
 *                    of its differentials are non-zero (a racy snapshot).
 * vmstat_last_drain  what the last vmstat_drain_now left, checked by the
 *                    probe right after the folds: CPUs with differentials
 *                    and zone items whose global counter is not the sum
 *                    over zones.  Both are 0 on a quiet system.
 * vmstat_primitives  the cost of the primitives vmstat counters are built
 *                    from (root only: it runs loops with IRQs off).
 */

#include <linux/cpu.h>
#include <linux/debugfs.h>
#include <linux/expsync.h>
#include <linux/expsync_knob.h>
#include <linux/init.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/seq_file.h>
#include <linux/spinlock.h>
#include <linux/vmstat.h>

#include <trace/events/expsync.h>

/* How many of @cpu's differentials are non-zero (a racy snapshot). */
static unsigned int vmstat_cpu_diffs(unsigned int cpu)
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
static unsigned int vmstat_sum_mismatches(void)
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

/*
 * What the last vmstat_drain_now saw; the lock keeps readers from a torn
 * copy.  Raw: the probe runs with IRQs off, also on PREEMPT_RT.
 */
struct drain_result {
	unsigned int cpus, skipped, missed, cpus_with_diffs, sum_mismatches;
	s64 ns;
};

static DEFINE_RAW_SPINLOCK(last_drain_lock);
static struct drain_result last_drain;

/*
 * Called by vmstat_drain_now() right after its folds, CPUs held online,
 * with preemption off (a tracepoint probe): the scan of every CPU's
 * differentials is why this is a test option.
 */
static void vmstat_drain_now_probe(void *data, unsigned int nr_cpus,
				   unsigned int skipped, unsigned int missed, s64 ns)
{
	struct drain_result r = {
		.cpus = nr_cpus, .skipped = skipped, .missed = missed, .ns = ns
	};
	unsigned int cpu;

	for_each_online_cpu(cpu)
		r.cpus_with_diffs += !!vmstat_cpu_diffs(cpu);
	r.sum_mismatches = vmstat_sum_mismatches();
	raw_spin_lock(&last_drain_lock);
	last_drain = r;
	raw_spin_unlock(&last_drain_lock);
}

static int vmstat_diffs_show(struct seq_file *m, void *v)
{
	unsigned int cpu;

	cpus_read_lock();
	for_each_online_cpu(cpu)
		seq_printf(m, "cpu %u diffs %u%s\n", cpu, vmstat_cpu_diffs(cpu),
			   !expsync_vmstat_drain_owns(cpu) ? "" :
			   per_cpu(expsync_vmstat_direct_cpu, cpu) ? " direct" : " user-return");
	cpus_read_unlock();
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(vmstat_diffs);

static int vmstat_last_drain_show(struct seq_file *m, void *v)
{
	struct drain_result r;

	raw_spin_lock_irq(&last_drain_lock);
	r = last_drain;
	raw_spin_unlock_irq(&last_drain_lock);
	seq_printf(m, "cpus %u\nskipped %u\nmissed %u\ncpus_with_diffs %u\nsum_mismatches %u\nns %lld\n",
		   r.cpus, r.skipped, r.missed, r.cpus_with_diffs, r.sum_mismatches, r.ns);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(vmstat_last_drain);

/*
 * The primitives, as in Christoph Lameter's table in the vmstat_dirty
 * review (locked cmpxchg 12 cycles, unlocked 3, CLI/STI 24, preempt
 * off/on 6).  Each is timed over a loop with ktime_get(); under QEMU
 * -icount a nanosecond is one guest instruction.
 */
#define PRIMITIVE_LOOPS	100000

static DEFINE_PER_CPU(unsigned long, prim_pcp);
static unsigned long prim_shared;

static int vmstat_primitives_show(struct seq_file *m, void *v)
{
	static const char * const what[] = {
		"empty loop",
		"locked cmpxchg",
		"this_cpu_cmpxchg (unlocked)",
		"local_irq_save/restore pair",
		"preempt_disable/enable pair",
		"__mod_zone_page_state +1 and -1, IRQs off",
	};
	struct zone *zone = NULL, *z;
	unsigned long flags;
	ktime_t t0;
	int i, k;

	for_each_populated_zone(z)
		zone = z;
	seq_printf(m, "# %d loops each, ns per operation (guest clock)\n", PRIMITIVE_LOOPS);
	for (k = 0; k < ARRAY_SIZE(what); k++) {
		/* IRQs off: no interrupt lands in the timed loop. */
		local_irq_save(flags);
		t0 = ktime_get();
		for (i = 0; i < PRIMITIVE_LOOPS; i++) {
			switch (k) {
			case 1:
				cmpxchg(&prim_shared, i, i + 1);
				break;
			case 2:
				this_cpu_cmpxchg(prim_pcp, i, i + 1);
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
				/* +1 then -1: the counter ends where it was. */
				__mod_zone_page_state(zone, NR_ZONE_INACTIVE_ANON, 1);
				__mod_zone_page_state(zone, NR_ZONE_INACTIVE_ANON, -1);
				break;
			}
			barrier();
		}
		t0 = ktime_sub(ktime_get(), t0);
		local_irq_restore(flags);
		seq_printf(m, "%-45s %6lld\n", what[k],
			   div_s64(ktime_to_ns(t0), PRIMITIVE_LOOPS));
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(vmstat_primitives);

static int __init vmstat_drain_test_init(void)
{
	struct dentry *dir = expsync_debugfs();
	int err;

	err = register_trace_expsync_vmstat_drain_now(vmstat_drain_now_probe, NULL);
	if (err) {
		pr_err("expsync: vmstat_drain test probe not registered: %d\n", err);
		return err;
	}
	debugfs_create_file("vmstat_diffs", 0444, dir, NULL, &vmstat_diffs_fops);
	debugfs_create_file("vmstat_last_drain", 0444, dir, NULL, &vmstat_last_drain_fops);
	debugfs_create_file("vmstat_primitives", 0400, dir, NULL, &vmstat_primitives_fops);
	return 0;
}
late_initcall(vmstat_drain_test_init);
