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

#define EXPSYNC_KNOB_INIT(_name, _words, _default, _apply)		\
	{								\
		.name = (_name),					\
		.words = (_words),					\
		.nr_words = ARRAY_SIZE(_words),				\
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
	NR_EXPSYNC_STATS
};

/* kernel.expsync.membarrier_ipi: how membarrier() reaches its targets. */
enum expsync_membarrier_ipi {
	EXPSYNC_MEMBARRIER_IPI_MANY,	/* one IPI-to-many */
	EXPSYNC_MEMBARRIER_IPI_SINGLE,	/* one IPI per target CPU */
	NR_EXPSYNC_MEMBARRIER_IPI
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
void expsync_count(enum expsync_stat stat, long delta);
#else
static inline void expsync_count(enum expsync_stat stat, long delta) { }
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
