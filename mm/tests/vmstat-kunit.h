/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KUnit test of vmstat_drain's policy and set transitions, on the live
 * system through the real knobs' callbacks.  Included at the end of
 * mm/vmstat.c.
 */
#if defined(CONFIG_EXPSYNC_KUNIT_TEST) && defined(CONFIG_EXPSYNC_VMSTAT)

#include <kunit/test.h>

/*
 * What the front-end does for an accepted write, without its mutex: the
 * suite is an init-section one (kunit_test_init_section_suites()), run
 * once at boot before user space exists and never again from debugfs, so
 * no sysctl write races with these.  They can set an empty set, which
 * the sysctl refuses.
 */
static int vmstat_test_policy(unsigned int val)
{
	int err;

	err = vmstat_drain_apply(val);
	if (!err)
		WRITE_ONCE(vmstat_drain_word.value, val);
	return err;
}

static int vmstat_test_cpus(const struct cpumask *mask)
{
	int err;

	err = vmstat_drain_cpus_apply(mask);
	if (!err)
		cpumask_copy(&vmstat_drain_cpus_mask, mask);
	return err;
}

/* Policy transitions on the live system, through the real knobs. */
static void vmstat_drain_test_transitions(struct kunit *test)
{
	unsigned int old_policy, cpu, last = cpumask_last(cpu_online_mask);
	cpumask_var_t old_set, set;

	KUNIT_ASSERT_TRUE(test, alloc_cpumask_var(&old_set, GFP_KERNEL));
	KUNIT_ASSERT_TRUE(test, zalloc_cpumask_var(&set, GFP_KERNEL));
	old_policy = vmstat_drain_word.value;
	cpumask_copy(old_set, &vmstat_drain_cpus_mask);

	/* periodic, set {last}: nobody folds on user return. */
	KUNIT_EXPECT_EQ(test, vmstat_test_policy(EXPSYNC_VMSTAT_DRAIN_PERIODIC), 0);
	cpumask_set_cpu(last, set);
	KUNIT_EXPECT_EQ(test, vmstat_test_cpus(set), 0);
	for_each_possible_cpu(cpu)
		KUNIT_EXPECT_FALSE(test, expsync_vmstat_drain_owns(cpu));

	/* user-return: exactly the CPUs of the set; the join notes the sequence. */
	KUNIT_EXPECT_EQ(test, vmstat_test_policy(EXPSYNC_VMSTAT_DRAIN_USER_RETURN), 0);
	for_each_possible_cpu(cpu)
		KUNIT_EXPECT_EQ(test, expsync_vmstat_drain_owns(cpu), cpu == last);
	KUNIT_EXPECT_EQ(test, per_cpu(expsync_vmstat_join_seq, last),
			expsync_vmstat_seq(last));

	/* An empty set: nobody folds, but the key stays (no code patching). */
	cpumask_clear(set);
	KUNIT_EXPECT_EQ(test, vmstat_test_cpus(set), 0);
	KUNIT_EXPECT_TRUE(test, static_key_enabled(&expsync_vmstat_drain_owned));
	for_each_possible_cpu(cpu)
		KUNIT_EXPECT_FALSE(test, expsync_vmstat_drain_owns(cpu));

	/* periodic switches the whole mechanism off. */
	KUNIT_EXPECT_EQ(test, vmstat_test_policy(EXPSYNC_VMSTAT_DRAIN_PERIODIC), 0);
	KUNIT_EXPECT_FALSE(test, static_key_enabled(&expsync_vmstat_drain_owned));

	/* Restore what the boot set up. */
	KUNIT_EXPECT_EQ(test, vmstat_test_cpus(old_set), 0);
	KUNIT_EXPECT_EQ(test, vmstat_test_policy(old_policy), 0);
	free_cpumask_var(old_set);
	free_cpumask_var(set);
}

/* @cpu's stat_threshold in @zone. */
static int vmstat_test_zone_threshold(struct zone *zone, unsigned int cpu)
{
	return per_cpu_ptr(zone->per_cpu_zonestats, cpu)->stat_threshold;
}

/* Expect @cpu's stat_threshold in every zone and node to be 0, or not. */
static void vmstat_test_thresholds(struct kunit *test, unsigned int cpu, bool zero)
{
	struct zone *zone;

	for_each_populated_zone(zone) {
		int t = vmstat_test_zone_threshold(zone, cpu);
		int n = per_cpu_ptr(zone->zone_pgdat->per_cpu_nodestats, cpu)->stat_threshold;

		if (zero) {
			KUNIT_EXPECT_EQ_MSG(test, t, 0, "zone %s cpu %u", zone->name, cpu);
			KUNIT_EXPECT_EQ_MSG(test, n, 0, "node of %s cpu %u", zone->name, cpu);
		} else {
			KUNIT_EXPECT_EQ_MSG(test, t, calculate_normal_threshold(zone),
					    "zone %s cpu %u", zone->name, cpu);
			KUNIT_EXPECT_GT_MSG(test, n, 0, "node of %s cpu %u", zone->name, cpu);
		}
	}
}

/*
 * direct: the CPUs of the set get stat_threshold 0, which CPU hotplug's
 * and kswapd's threshold writers keep, and fold once at their next exit.
 */
static void vmstat_drain_test_direct(struct kunit *test)
{
	unsigned int old_policy, cpu, last = cpumask_last(cpu_online_mask);
	unsigned int first = cpumask_first(cpu_online_mask);
	cpumask_var_t old_set, set;
	struct zone *zone;

	KUNIT_ASSERT_TRUE(test, alloc_cpumask_var(&old_set, GFP_KERNEL));
	KUNIT_ASSERT_TRUE(test, zalloc_cpumask_var(&set, GFP_KERNEL));
	old_policy = vmstat_drain_word.value;
	cpumask_copy(old_set, &vmstat_drain_cpus_mask);
	cpumask_set_cpu(last, set);
	KUNIT_EXPECT_EQ(test, vmstat_test_policy(EXPSYNC_VMSTAT_DRAIN_PERIODIC), 0);
	KUNIT_EXPECT_EQ(test, vmstat_test_cpus(set), 0);
	vmstat_test_thresholds(test, last, false);

	KUNIT_EXPECT_EQ(test, vmstat_test_policy(EXPSYNC_VMSTAT_DRAIN_DIRECT), 0);
	for_each_online_cpu(cpu) {
		KUNIT_EXPECT_EQ(test, expsync_vmstat_drain_owns(cpu), cpu == last);
		vmstat_test_thresholds(test, cpu, cpu == last);
	}
	/* 6): the joiner folds what it held at its next exit, once. */
	KUNIT_EXPECT_EQ(test, per_cpu(expsync_vmstat_exit_fold, last),
			EXPSYNC_VMSTAT_EXIT_FOLD_ONCE);
	expsync_vmstat_threshold_lock();
	KUNIT_EXPECT_EQ(test, expsync_vmstat_drifting_cpus(), num_online_cpus() - 1);
	expsync_vmstat_threshold_unlock();

	/* CPU hotplug's and memory hotplug's writer keeps it 0. */
	refresh_zone_stat_thresholds();
	vmstat_test_thresholds(test, last, true);

	/* kswapd's writer, on a zone made to look at risk of drift. */
	for_each_populated_zone(zone) {
		unsigned long mark = zone->percpu_drift_mark;

		zone->percpu_drift_mark = mark ?: 1;
		set_pgdat_percpu_threshold(zone->zone_pgdat, calculate_pressure_threshold);
		KUNIT_EXPECT_EQ(test, vmstat_test_zone_threshold(zone, last), 0);
		if (first != last)
			KUNIT_EXPECT_EQ(test, vmstat_test_zone_threshold(zone, first),
					calculate_pressure_threshold(zone));
		zone->percpu_drift_mark = mark;
	}
	refresh_zone_stat_thresholds();

	/* Back to user-return: the normal threshold, a fold at every exit. */
	KUNIT_EXPECT_EQ(test, vmstat_test_policy(EXPSYNC_VMSTAT_DRAIN_USER_RETURN), 0);
	vmstat_test_thresholds(test, last, false);
	KUNIT_EXPECT_EQ(test, per_cpu(expsync_vmstat_exit_fold, last),
			EXPSYNC_VMSTAT_EXIT_FOLD_ALWAYS);

	/* Leaving the set under direct gives the threshold back, too. */
	KUNIT_EXPECT_EQ(test, vmstat_test_policy(EXPSYNC_VMSTAT_DRAIN_DIRECT), 0);
	cpumask_clear(set);
	KUNIT_EXPECT_EQ(test, vmstat_test_cpus(set), 0);
	vmstat_test_thresholds(test, last, false);
	KUNIT_EXPECT_EQ(test, per_cpu(expsync_vmstat_exit_fold, last), 0);

	KUNIT_EXPECT_EQ(test, vmstat_test_policy(EXPSYNC_VMSTAT_DRAIN_PERIODIC), 0);
	KUNIT_EXPECT_EQ(test, vmstat_test_cpus(old_set), 0);
	KUNIT_EXPECT_EQ(test, vmstat_test_policy(old_policy), 0);
	free_cpumask_var(old_set);
	free_cpumask_var(set);
}

/*
 * A change of the direct set rewrites the thresholds of the CPUs that
 * joined or left it, and no other: kswapd's pressure thresholds on the
 * other CPUs stay while it is awake.
 */
static void vmstat_drain_test_pressure_kept(struct kunit *test)
{
	unsigned int old_policy, last = cpumask_last(cpu_online_mask);
	unsigned int first = cpumask_first(cpu_online_mask);
	cpumask_var_t old_set, set;
	struct zone *zone;

	if (first == last)
		kunit_skip(test, "needs two online CPUs");
	KUNIT_ASSERT_TRUE(test, alloc_cpumask_var(&old_set, GFP_KERNEL));
	KUNIT_ASSERT_TRUE(test, zalloc_cpumask_var(&set, GFP_KERNEL));
	old_policy = vmstat_drain_word.value;
	cpumask_copy(old_set, &vmstat_drain_cpus_mask);
	KUNIT_EXPECT_EQ(test, vmstat_test_policy(EXPSYNC_VMSTAT_DRAIN_PERIODIC), 0);
	KUNIT_EXPECT_EQ(test, vmstat_test_cpus(set), 0);
	KUNIT_EXPECT_EQ(test, vmstat_test_policy(EXPSYNC_VMSTAT_DRAIN_DIRECT), 0);

	/* kswapd wakes: every zone looks at risk of drift. */
	for_each_populated_zone(zone) {
		zone->percpu_drift_mark = zone->percpu_drift_mark ?: 1;
		set_pgdat_percpu_threshold(zone->zone_pgdat, calculate_pressure_threshold);
	}
	/* @last joins direct, then leaves it: @first keeps its pressure threshold. */
	cpumask_set_cpu(last, set);
	KUNIT_EXPECT_EQ(test, vmstat_test_cpus(set), 0);
	for_each_populated_zone(zone) {
		KUNIT_EXPECT_EQ(test, vmstat_test_zone_threshold(zone, last), 0);
		KUNIT_EXPECT_EQ_MSG(test, vmstat_test_zone_threshold(zone, first),
				    calculate_pressure_threshold(zone), "zone %s", zone->name);
	}
	cpumask_clear(set);
	KUNIT_EXPECT_EQ(test, vmstat_test_cpus(set), 0);
	for_each_populated_zone(zone) {
		KUNIT_EXPECT_EQ(test, vmstat_test_zone_threshold(zone, last),
				calculate_normal_threshold(zone));
		KUNIT_EXPECT_EQ_MSG(test, vmstat_test_zone_threshold(zone, first),
				    calculate_pressure_threshold(zone), "zone %s", zone->name);
	}

	/* kswapd sleeps: every CPU's normal threshold, the real drift marks. */
	for_each_populated_zone(zone)
		zone->percpu_drift_mark = 0;
	refresh_zone_stat_thresholds();
	KUNIT_EXPECT_EQ(test, vmstat_test_policy(EXPSYNC_VMSTAT_DRAIN_PERIODIC), 0);
	KUNIT_EXPECT_EQ(test, vmstat_test_cpus(old_set), 0);
	KUNIT_EXPECT_EQ(test, vmstat_test_policy(old_policy), 0);
	free_cpumask_var(old_set);
	free_cpumask_var(set);
}

/*
 * The tick-stop fold runs in the idle loop only: called from a task (here
 * the test's kthread), as from irq_exit() on a nohz_full CPU whose tick
 * stops after an interrupt that may have landed inside a __mod_*()
 * update, expsync's part of quiet_vmstat() claims the CPU but leaves its
 * differentials alone.
 */
static void vmstat_drain_test_tick_stop(struct kunit *test)
{
	unsigned int old_policy = vmstat_drain_word.value;
	struct pglist_data *pgdat = NODE_DATA(numa_node_id());
	enum node_stat_item item = NR_KERNEL_MISC_RECLAIMABLE;
	cpumask_var_t old_set;
	s8 before, after;
	int added = 0;
	bool owned;

	KUNIT_ASSERT_TRUE(test, alloc_cpumask_var(&old_set, GFP_KERNEL));
	cpumask_copy(old_set, &vmstat_drain_cpus_mask);
	KUNIT_EXPECT_EQ(test, vmstat_test_cpus(cpu_online_mask), 0);
	KUNIT_EXPECT_EQ(test, vmstat_test_policy(EXPSYNC_VMSTAT_DRAIN_USER_RETURN), 0);

	local_irq_disable();
	/* A differential this CPU holds (below its threshold: not folded). */
	do {
		__mod_node_page_state(pgdat, item, 1);
		added++;
		before = this_cpu_read(pgdat->per_cpu_nodestats->vm_node_stat_diff[item]);
	} while (!before && added < 2);
	owned = expsync_vmstat_quiet();
	after = this_cpu_read(pgdat->per_cpu_nodestats->vm_node_stat_diff[item]);
	__mod_node_page_state(pgdat, item, -added);
	local_irq_enable();

	KUNIT_EXPECT_TRUE(test, owned);
	KUNIT_EXPECT_NE(test, before, 0);
	KUNIT_EXPECT_EQ(test, after, before);

	KUNIT_EXPECT_EQ(test, vmstat_test_policy(EXPSYNC_VMSTAT_DRAIN_PERIODIC), 0);
	KUNIT_EXPECT_EQ(test, vmstat_test_cpus(old_set), 0);
	KUNIT_EXPECT_EQ(test, vmstat_test_policy(old_policy), 0);
	free_cpumask_var(old_set);
}

/*
 * direct: a drain calls a CPU of the set done only when its diffs read 0
 * (expsync_vmstat_holds_none()).  The residue a task moved mid-update
 * leaves is faked on this CPU with IRQs off, so that no update or fold
 * runs beside it, and taken back before IRQs come on.
 */
static void vmstat_drain_test_direct_residue(struct kunit *test)
{
	unsigned int old_policy = vmstat_drain_word.value, cpu;
	enum node_stat_item item = NR_KERNEL_MISC_RECLAIMABLE;
	struct per_cpu_nodestat __percpu *nodestats;
	cpumask_var_t old_set;
	bool clean, residue;

	KUNIT_ASSERT_TRUE(test, alloc_cpumask_var(&old_set, GFP_KERNEL));
	cpumask_copy(old_set, &vmstat_drain_cpus_mask);
	KUNIT_EXPECT_EQ(test, vmstat_test_cpus(cpu_online_mask), 0);
	KUNIT_EXPECT_EQ(test, vmstat_test_policy(EXPSYNC_VMSTAT_DRAIN_DIRECT), 0);

	local_irq_disable();
	cpu = smp_processor_id();
	nodestats = NODE_DATA(cpu_to_node(cpu))->per_cpu_nodestats;
	/* What it held at its join goes first: then its diffs read 0. */
	expsync_vmstat_fold(EXPSYNC_VMSTAT_FOLD_DRAIN_NOW);
	clean = expsync_vmstat_holds_none(cpu);
	this_cpu_inc(nodestats->vm_node_stat_diff[item]);
	residue = expsync_vmstat_holds_none(cpu);
	this_cpu_dec(nodestats->vm_node_stat_diff[item]);
	local_irq_enable();

	KUNIT_EXPECT_TRUE(test, clean);
	KUNIT_EXPECT_FALSE(test, residue);

	KUNIT_EXPECT_EQ(test, vmstat_test_policy(EXPSYNC_VMSTAT_DRAIN_PERIODIC), 0);
	KUNIT_EXPECT_EQ(test, vmstat_test_cpus(old_set), 0);
	KUNIT_EXPECT_EQ(test, vmstat_test_policy(old_policy), 0);
	free_cpumask_var(old_set);
}

/*
 * An isolated CPU that joins the set loses the vmstat_update queued there
 * before (a CPU isolated at run time, by a cpuset partition, keeps the one
 * the shepherd queued): the shepherd leaves the CPU alone from then on,
 * and that work would still interrupt it once.  The work is queued here as
 * the shepherd would, with a delay far past the suite, before the join.
 */
static void vmstat_drain_test_isolated_join(struct kunit *test)
{
	unsigned int old_policy = vmstat_drain_word.value, cpu, iso = nr_cpu_ids;
	struct delayed_work *dw;
	cpumask_var_t old_set, set;
	bool before, after;

	for_each_online_cpu(cpu) {
		if (cpu_is_isolated(cpu)) {
			iso = cpu;
			break;
		}
	}
	KUNIT_ASSERT_LT_MSG(test, iso, nr_cpu_ids,
			    "no isolated CPU: boot with isolcpus= or nohz_full=");
	KUNIT_ASSERT_TRUE(test, alloc_cpumask_var(&old_set, GFP_KERNEL));
	KUNIT_ASSERT_TRUE(test, zalloc_cpumask_var(&set, GFP_KERNEL));
	cpumask_copy(old_set, &vmstat_drain_cpus_mask);
	cpumask_set_cpu(iso, set);
	dw = per_cpu_ptr(&vmstat_work, iso);

	/* periodic: the set owns nothing, the CPU is the shepherd's. */
	KUNIT_EXPECT_EQ(test, vmstat_test_policy(EXPSYNC_VMSTAT_DRAIN_PERIODIC), 0);
	KUNIT_EXPECT_EQ(test, vmstat_test_cpus(set), 0);
	queue_delayed_work_on(iso, mm_percpu_wq, dw, 1000 * HZ);
	before = delayed_work_pending(dw);
	/* user-return: the isolated CPU joins the set. */
	KUNIT_EXPECT_EQ(test, vmstat_test_policy(EXPSYNC_VMSTAT_DRAIN_USER_RETURN), 0);
	after = delayed_work_pending(dw);

	KUNIT_EXPECT_TRUE(test, before);
	KUNIT_EXPECT_FALSE_MSG(test, after,
			       "CPU %u joined isolated with vmstat_update still queued", iso);

	cancel_delayed_work(dw);
	KUNIT_EXPECT_EQ(test, vmstat_test_policy(EXPSYNC_VMSTAT_DRAIN_PERIODIC), 0);
	KUNIT_EXPECT_EQ(test, vmstat_test_cpus(old_set), 0);
	KUNIT_EXPECT_EQ(test, vmstat_test_policy(old_policy), 0);
	free_cpumask_var(set);
	free_cpumask_var(old_set);
}

static struct kunit_case vmstat_drain_cases[] = {
	KUNIT_CASE(vmstat_drain_test_transitions),
	KUNIT_CASE(vmstat_drain_test_direct),
	KUNIT_CASE(vmstat_drain_test_direct_residue),
	KUNIT_CASE(vmstat_drain_test_tick_stop),
	KUNIT_CASE(vmstat_drain_test_pressure_kept),
	KUNIT_CASE(vmstat_drain_test_isolated_join),
	{}
};

static struct kunit_suite vmstat_drain_suite = {
	.name = "expsync_vmstat",
	.test_cases = vmstat_drain_cases,
};

kunit_test_init_section_suites(&vmstat_drain_suite);

#endif
