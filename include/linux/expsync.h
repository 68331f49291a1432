/* SPDX-License-Identifier: GPL-2.0 */
/*
 * expsync: expedited-synchronization policies (membarrier IPI strategy,
 * page-table freeing, vmstat draining) behind one interface.
 *
 * Every knob is a word chosen from a fixed table.  The same table serves
 * the "expsync.<knob>=" boot parameter, the kernel.expsync.<knob> sysctl,
 * the debugfs listing and the KUnit tests.  Values are applied in three
 * layers, each overriding the one before: Kconfig default, boot
 * parameter, sysctl.  See Documentation/admin-guide/expsync.rst.
 */
#ifndef _LINUX_EXPSYNC_H
#define _LINUX_EXPSYNC_H

#include <linux/cpumask.h>
#include <linux/jump_label.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/smp.h>
#include <linux/types.h>

/* Longest word a knob accepts, without the trailing newline. */
#define EXPSYNC_WORD_MAX	31

struct expsync_knob;

/**
 * typedef expsync_apply_t - validate and apply a new knob value
 * @knob: the knob being changed
 * @val: the new value, an index into @knob->words
 *
 * Called with expsync_policy_mutex held, in process context, before
 * @knob->value is updated.  It must either make @val effective and
 * return 0, or change nothing and return a negative errno (-EINVAL for
 * a request the system cannot honour safely).
 */
typedef int (*expsync_apply_t)(struct expsync_knob *knob, unsigned int val);

/**
 * struct expsync_knob - one word-valued policy knob
 * @name: name after "expsync." (boot) and "kernel.expsync." (sysctl)
 * @words: value names, indexed by the knob's enum
 * @nr_words: number of entries in @words
 * @apply: validate-and-apply callback, may be NULL
 * @value: current value; written only under expsync_policy_mutex,
 *	   read locklessly with READ_ONCE()
 * @boot_value: value given on the command line, or -1; applied by
 *	   expsync_init() once the system can honour it
 */
struct expsync_knob {
	const char *name;
	const char * const *words;
	unsigned int nr_words;
	expsync_apply_t apply;
	unsigned int value;
	int boot_value;
};

#define EXPSYNC_KNOB_INIT(_name, _words, _nr, _default, _apply)	\
	{								\
		.name = (_name),					\
		.words = (_words),					\
		.nr_words = (_nr),					\
		.apply = (_apply),					\
		.value = (_default),					\
		.boot_value = -1,					\
	}

/* Counters shown in /sys/kernel/debug/expsync/stats. */
enum expsync_stat {
	EXPSYNC_STAT_POLICY_CHANGES,	/* knob values applied */
	EXPSYNC_STAT_POLICY_REJECTED,	/* bad words or refused requests */
	EXPSYNC_STAT_MEMBARRIER_IPI_MANY,	/* IPI rounds sent IPI-to-many */
	EXPSYNC_STAT_MEMBARRIER_IPI_SINGLE,	/* IPI rounds sent one by one */
	EXPSYNC_STAT_MEMBARRIER_IPI_CPUS,	/* CPUs targeted, both strategies */
	EXPSYNC_STAT_TABLE_FREE_IMMEDIATE,	/* tables freed after the flush IPIs */
	EXPSYNC_STAT_TABLE_FREE_RCU,		/* tables handed to call_rcu() */
	EXPSYNC_STAT_TABLE_FREE_RCU_BATCHES,	/* call_rcu() calls for tables */
	EXPSYNC_STAT_TABLE_FREE_SYNC_IPI,	/* no batch page: sync IPI, free one */
	EXPSYNC_STAT_TABLE_FREE_WAITING,	/* gauge: tables not yet freed */
	NR_EXPSYNC_STATS
};

/* kernel.expsync.membarrier_ipi: how membarrier() reaches its targets. */
enum expsync_membarrier_ipi {
	EXPSYNC_MEMBARRIER_IPI_MANY,	/* one IPI-to-many */
	EXPSYNC_MEMBARRIER_IPI_SINGLE,	/* one IPI per target CPU */
	NR_EXPSYNC_MEMBARRIER_IPI
};

/* kernel.expsync.table_free: how page-table pages are freed. */
enum expsync_table_free {
	EXPSYNC_TABLE_FREE_AUTO,	/* what the pvops pick */
	EXPSYNC_TABLE_FREE_RCU,		/* after an RCU grace period */
	EXPSYNC_TABLE_FREE_IMMEDIATE,	/* right after the TLB-flush IPIs */
	NR_EXPSYNC_TABLE_FREE
};

/* kernel.expsync.table_free_rcu_batch: how RCU freeing is batched. */
enum expsync_table_free_rcu_batch {
	EXPSYNC_TABLE_FREE_RCU_BATCH_PERCPU,	/* collected per CPU */
	EXPSYNC_TABLE_FREE_RCU_BATCH_GATHER,	/* one call_rcu() per gather (6.12) */
	NR_EXPSYNC_TABLE_FREE_RCU_BATCH
};

/* Why membarrier() sends IPIs, for the tracepoint. */
enum expsync_membarrier_op {
	EXPSYNC_MEMBARRIER_OP_GLOBAL_EXPEDITED,
	EXPSYNC_MEMBARRIER_OP_PRIVATE_EXPEDITED,
	EXPSYNC_MEMBARRIER_OP_PRIVATE_EXPEDITED_SYNC_CORE,
	EXPSYNC_MEMBARRIER_OP_PRIVATE_EXPEDITED_RSEQ,
	EXPSYNC_MEMBARRIER_OP_REGISTER,
	NR_EXPSYNC_MEMBARRIER_OPS
};

#ifdef CONFIG_EXPSYNC
DECLARE_PER_CPU(long [NR_EXPSYNC_STATS], expsync_stats);

/**
 * expsync_count() - add to an expsync counter
 * @stat: the counter
 * @delta: amount to add (negative for gauges going down)
 *
 * One per-CPU add, safe from any context (this_cpu_add() is IRQ-safe);
 * readers sum over CPUs (see /sys/kernel/debug/expsync/stats).
 */
static inline void expsync_count(enum expsync_stat stat, long delta)
{
	this_cpu_add(expsync_stats[stat], delta);
}
#else
static inline void expsync_count(enum expsync_stat stat, long delta) { }
#endif

struct mmu_table_batch;

#ifdef CONFIG_EXPSYNC_TABLE_FREE
/* True: page tables go through tlb_remove_table() (RCU). */
DECLARE_STATIC_KEY_TRUE(expsync_table_free_rcu);

bool expsync_table_free_defer(struct mmu_table_batch *batch,
			      rcu_callback_t free_batch);
#else
static inline bool expsync_table_free_defer(struct mmu_table_batch *batch,
					    rcu_callback_t free_batch)
{
	return false;
}
#endif

#ifdef CONFIG_EXPSYNC_MEMBARRIER
void expsync_membarrier_ipi(enum expsync_membarrier_op op,
			    const struct cpumask *mask, smp_call_func_t func,
			    void *info, bool self);
#else
/*
 * 6.12's membarrier IPIs: one IPI-to-many, running @func on the calling
 * CPU too when @self is set (on_each_cpu_mask()).
 */
static inline void expsync_membarrier_ipi(enum expsync_membarrier_op op,
					  const struct cpumask *mask,
					  smp_call_func_t func, void *info,
					  bool self)
{
	if (self) {
		on_each_cpu_mask(mask, func, info, true);
	} else {
		preempt_disable();
		smp_call_function_many(mask, func, info, true);
		preempt_enable();
	}
}
#endif

#endif /* _LINUX_EXPSYNC_H */
