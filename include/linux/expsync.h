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
/* Longest CPU list a cpulist knob accepts, without the newline. */
#define EXPSYNC_CPULIST_MAX	255

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
 * typedef expsync_apply_mask_t - validate and apply a new CPU list
 * @knob: the knob being changed
 * @mask: the new CPU set, a subset of the possible CPUs
 *
 * As expsync_apply_t, for cpulist knobs: make @mask effective and return
 * 0, or change nothing and return a negative errno.
 */
typedef int (*expsync_apply_mask_t)(struct expsync_knob *knob,
				    const struct cpumask *mask);

/**
 * typedef expsync_trigger_t - run a one-shot action
 * @knob: the trigger knob written to
 *
 * Called with expsync_policy_mutex held, in process context.
 */
typedef int (*expsync_trigger_t)(struct expsync_knob *knob);

enum expsync_knob_type {
	EXPSYNC_KNOB_WORD,	/* one word of a table */
	EXPSYNC_KNOB_CPULIST,	/* a CPU list, "1-3,5" */
	EXPSYNC_KNOB_TRIGGER,	/* write "1" to act; not readable */
};

/**
 * struct expsync_knob - one policy knob
 * @name: name after "expsync." (boot) and "kernel.expsync." (sysctl)
 * @type: what values the knob takes
 * @words: (word) value names, indexed by the knob's enum
 * @nr_words: (word) number of entries in @words
 * @apply: (word) validate-and-apply callback, may be NULL
 * @value: (word) current value; written only under
 *	   expsync_policy_mutex, read locklessly with READ_ONCE()
 * @boot_value: (word) value given on the command line, or -1; applied
 *	   by expsync_init() once the system can honour it
 * @mask: (cpulist) current value; written only under
 *	   expsync_policy_mutex
 * @apply_mask: (cpulist) validate-and-apply callback
 * @default_mask: (cpulist) fills in the default, at expsync_init() time
 * @boot_str: (cpulist) the command-line value, parsed by expsync_init()
 * @trigger: (trigger) the action
 */
struct expsync_knob {
	const char *name;
	enum expsync_knob_type type;
	const char * const *words;
	unsigned int nr_words;
	expsync_apply_t apply;
	unsigned int value;
	int boot_value;
	struct cpumask *mask;
	expsync_apply_mask_t apply_mask;
	void (*default_mask)(struct cpumask *mask);
	const char *boot_str;
	expsync_trigger_t trigger;
};

#define EXPSYNC_KNOB_INIT(_name, _words, _nr, _default, _apply)	\
	{								\
		.name = (_name),					\
		.type = EXPSYNC_KNOB_WORD,				\
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
	/* Folds of vmstat differentials, in enum expsync_vmstat_fold order. */
	EXPSYNC_STAT_VMSTAT_FOLD_USER_RETURN,
	EXPSYNC_STAT_VMSTAT_FOLD_IDLE,
	EXPSYNC_STAT_VMSTAT_FOLD_WORK,
	EXPSYNC_STAT_VMSTAT_FOLD_DRAIN_NOW,
	EXPSYNC_STAT_VMSTAT_ITEMS,		/* differentials folded */
	EXPSYNC_STAT_VMSTAT_SHEPHERD_SKIPPED,	/* shepherd passes over a CPU */
	EXPSYNC_STAT_VMSTAT_DRAIN_NOW_SKIPPED,	/* drain-now: CPU in user mode */
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

/* kernel.expsync.vmstat_drain: when vmstat differentials are folded. */
enum expsync_vmstat_drain {
	EXPSYNC_VMSTAT_DRAIN_PERIODIC,		/* 6.12: vmstat_update work */
	EXPSYNC_VMSTAT_DRAIN_USER_RETURN,	/* on return to user mode */
	NR_EXPSYNC_VMSTAT_DRAIN
};

/* Why a CPU folded its vmstat differentials. */
enum expsync_vmstat_fold {
	EXPSYNC_VMSTAT_FOLD_USER_RETURN,
	EXPSYNC_VMSTAT_FOLD_IDLE,
	EXPSYNC_VMSTAT_FOLD_WORK,
	EXPSYNC_VMSTAT_FOLD_DRAIN_NOW,
	NR_EXPSYNC_VMSTAT_FOLDS
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

#ifdef CONFIG_EXPSYNC_VMSTAT
DECLARE_STATIC_KEY_FALSE(expsync_vmstat_drain_user_return);
DECLARE_PER_CPU(bool, expsync_vmstat_drain_cpu);

void expsync_vmstat_fold(enum expsync_vmstat_fold why);
void expsync_vmstat_count_fold(enum expsync_vmstat_fold why, int items);

/**
 * expsync_vmstat_drain_owns() - does @cpu fold its own vmstat diffs?
 * @cpu: the CPU
 *
 * True under vmstat_drain=user-return for the CPUs of
 * vmstat_drain_cpus: the shepherd leaves them alone.  A static-key NOP
 * under "periodic".
 *
 * Return: true when @cpu folds on user return.
 */
static __always_inline bool expsync_vmstat_drain_owns(int cpu)
{
	return static_branch_unlikely(&expsync_vmstat_drain_user_return) &&
	       READ_ONCE(per_cpu(expsync_vmstat_drain_cpu, cpu));
}

/**
 * expsync_vmstat_user_return() - fold vmstat diffs on return to user mode
 *
 * Called by exit_to_user_mode_prepare() with IRQs off.  A static-key NOP
 * under "periodic"; a per-CPU flag test on CPUs outside the set.
 */
static __always_inline void expsync_vmstat_user_return(void)
{
	/* The flag is written by other CPUs: this_cpu_read(), one load. */
	if (static_branch_unlikely(&expsync_vmstat_drain_user_return) &&
	    this_cpu_read(expsync_vmstat_drain_cpu))
		expsync_vmstat_fold(EXPSYNC_VMSTAT_FOLD_USER_RETURN);
}
#else
static inline bool expsync_vmstat_drain_owns(int cpu) { return false; }
static inline void expsync_vmstat_user_return(void) { }
static inline void expsync_vmstat_fold(enum expsync_vmstat_fold why) { }
static inline void expsync_vmstat_count_fold(enum expsync_vmstat_fold why,
					     int items) { }
#endif

#endif /* _LINUX_EXPSYNC_H */
