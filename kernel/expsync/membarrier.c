// SPDX-License-Identifier: GPL-2.0
/*
 * expsync membarrier mechanism: how membarrier() sends its IPIs.
 *
 * kernel/sched/membarrier.c picks the target CPUs under
 * membarrier_ipi_mutex and calls expsync_membarrier_ipi().  The strategy
 * decides only how the same set of CPUs is reached:
 *
 *  - "many":   one smp_call_function_many() (one IPI-to-many),
 *              6.12's behaviour;
 *  - "single": one smp_call_function_single() per target CPU, each
 *              waited for before the next is sent.
 *
 * Both wait until @func has run on every target before returning, so the
 * ordering argument of kernel/sched/membarrier.c (the smp_mb() before
 * the target CPUs are read, the one in each IPI handler and the one after
 * the last IPI) is the same for either strategy.
 */

#include <linux/expsync.h>
#include <linux/jump_label.h>
#include <linux/smp.h>

#include <trace/events/expsync.h>

#include "internal.h"

/* True when membarrier_ipi is "single". */
DEFINE_STATIC_KEY_MAYBE(CONFIG_EXPSYNC_MEMBARRIER_IPI_DEFAULT_SINGLE,
			expsync_membarrier_ipi_single);

static const char * const expsync_membarrier_op_names[] = {
	[EXPSYNC_MEMBARRIER_OP_GLOBAL_EXPEDITED]	= "global_expedited",
	[EXPSYNC_MEMBARRIER_OP_PRIVATE_EXPEDITED]	= "private_expedited",
	[EXPSYNC_MEMBARRIER_OP_PRIVATE_EXPEDITED_SYNC_CORE] =
		"private_expedited_sync_core",
	[EXPSYNC_MEMBARRIER_OP_PRIVATE_EXPEDITED_RSEQ]	= "private_expedited_rseq",
	[EXPSYNC_MEMBARRIER_OP_REGISTER]		= "register",
};

static_assert(ARRAY_SIZE(expsync_membarrier_op_names) == NR_EXPSYNC_MEMBARRIER_OPS);

/**
 * expsync_membarrier_ipi_apply() - switch membarrier's IPI strategy
 * @knob: the membarrier_ipi knob
 * @val: an enum expsync_membarrier_ipi value
 *
 * Safe while other CPUs are inside membarrier(): each call reads the key
 * once (see expsync_membarrier_ipi()), and both strategies give the same
 * guarantee, so a call sees either the old or the new strategy whole.
 *
 * Return: 0.
 */
int expsync_membarrier_ipi_apply(struct expsync_knob *knob, unsigned int val)
{
	/* Patches code on all CPUs (IPIs); rare, under expsync_policy_mutex. */
	if (val == EXPSYNC_MEMBARRIER_IPI_SINGLE)
		static_branch_enable(&expsync_membarrier_ipi_single);
	else
		static_branch_disable(&expsync_membarrier_ipi_single);
	return 0;
}

/**
 * expsync_membarrier_ipi() - run a membarrier IPI handler on target CPUs
 * @op: the membarrier operation, for the tracepoint
 * @mask: the target CPUs, stable for the call (the caller holds
 *	  membarrier_ipi_mutex and cpus_read_lock())
 * @func: the handler
 * @info: its argument
 * @self: also run @func on the calling CPU when it is in @mask
 *
 * Returns when @func has completed on every target.  Allocates nothing:
 * "many" uses kernel/smp.c's per-CPU cfd masks, "single" an on-stack
 * csd per call (wait=1).  Must not be called with interrupts disabled.
 */
void expsync_membarrier_ipi(enum expsync_membarrier_op op,
			    const struct cpumask *mask, smp_call_func_t func,
			    void *info, bool self)
{
	/*
	 * One read of the key per call: a concurrent switch affects later
	 * calls only.
	 */
	bool single = static_branch_maybe(CONFIG_EXPSYNC_MEMBARRIER_IPI_DEFAULT_SINGLE,
					  &expsync_membarrier_ipi_single);
	unsigned int nr = 0;
	int this_cpu, cpu;

	if (single) {
		/*
		 * Stay on this CPU so that "self" means one CPU for the whole
		 * call; preemption may run between the round trips.
		 */
		migrate_disable();
		this_cpu = smp_processor_id();
		for_each_cpu(cpu, mask) {
			if (cpu == this_cpu && !self)
				continue;
			/* Runs @func locally, IRQs off, if cpu == this_cpu. */
			smp_call_function_single(cpu, func, info, 1);
			nr++;
		}
		migrate_enable();
		expsync_count(EXPSYNC_STAT_MEMBARRIER_IPI_SINGLE, 1);
	} else {
		/* smp_call_function_many() wants preemption off. */
		this_cpu = get_cpu();
		nr = cpumask_weight(mask);
		if (self) {
			on_each_cpu_mask(mask, func, info, true);
		} else {
			nr -= cpumask_test_cpu(this_cpu, mask);
			smp_call_function_many(mask, func, info, true);
		}
		put_cpu();
		expsync_count(EXPSYNC_STAT_MEMBARRIER_IPI_MANY, 1);
	}

	expsync_count(EXPSYNC_STAT_MEMBARRIER_IPI_CPUS, nr);
	trace_expsync_membarrier_ipi(expsync_membarrier_op_names[op], nr,
				     expsync_membarrier_ipi_words[single ?
				     EXPSYNC_MEMBARRIER_IPI_SINGLE :
				     EXPSYNC_MEMBARRIER_IPI_MANY]);
}
