/* SPDX-License-Identifier: GPL-2.0 */
/*
 * expsync: expedited-synchronization policies (membarrier IPI strategy,
 * page-table freeing, vmstat draining) behind one interface.
 *
 * This header holds what the hooks in mm/, kernel/ and the entry code
 * need: the policies' values, the counters, and the static keys and
 * inline hooks of the vmstat_drain policy.  The knobs themselves live
 * with their mechanisms (include/linux/expsync_knob.h).  See
 * Documentation/admin-guide/expsync.rst.
 */
#ifndef _LINUX_EXPSYNC_H
#define _LINUX_EXPSYNC_H

#include <linux/cpumask.h>
#include <linux/jump_label.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/smp.h>
#include <linux/types.h>

/*
 * Each enum below comes with its names, in one list: the EXPSYNC_*(EM,
 * EMe) macros expand to the enum here, to the knobs' word tables
 * (EXPSYNC_WORD) and to the tracepoints' TRACE_DEFINE_ENUM() and
 * __print_symbolic() tables (include/trace/events/expsync.h).
 */
#define EXPSYNC_ENUM(a, b)	a,
#define EXPSYNC_WORD(a, b)	[a] = b,

/*
 * Counters shown in /sys/kernel/debug/expsync/stats, and their names
 * (Documentation/admin-guide/expsync.rst says what each counts).
 */
#define EXPSYNC_STATS(EM, EMe)							\
	EM(EXPSYNC_STAT_POLICY_CHANGES,		"policy_changes")		\
	EM(EXPSYNC_STAT_POLICY_REJECTED,	"policy_rejected")		\
	EM(EXPSYNC_STAT_MEMBARRIER_IPI_MANY,	"membarrier_ipi_many")		\
	EM(EXPSYNC_STAT_MEMBARRIER_IPI_SINGLE,	"membarrier_ipi_single")	\
	EM(EXPSYNC_STAT_MEMBARRIER_IPI_CPUS,	"membarrier_ipi_cpus")		\
	/* Expedited calls that need a round, and the rounds they sent. */	\
	EM(EXPSYNC_STAT_MEMBARRIER_CALLS,	"membarrier_calls")		\
	EM(EXPSYNC_STAT_MEMBARRIER_ROUNDS,	"membarrier_rounds")		\
	EM(EXPSYNC_STAT_TABLE_FREE_IMMEDIATE,	"table_free_immediate")		\
	EM(EXPSYNC_STAT_TABLE_FREE_RCU,		"table_free_rcu")		\
	EM(EXPSYNC_STAT_TABLE_FREE_RCU_BATCHES,	"table_free_rcu_batches")	\
	EM(EXPSYNC_STAT_TABLE_FREE_ALONE,	"table_free_alone")		\
	/* A gauge: tables handed to RCU and not yet freed. */			\
	EM(EXPSYNC_STAT_TABLE_FREE_WAITING,	"table_free_waiting")		\
	/* Folds of vmstat differentials, in enum expsync_vmstat_fold order. */	\
	EM(EXPSYNC_STAT_VMSTAT_FOLD_USER_RETURN, "vmstat_fold_user_return")	\
	EM(EXPSYNC_STAT_VMSTAT_FOLD_IDLE,	"vmstat_fold_idle")		\
	EM(EXPSYNC_STAT_VMSTAT_FOLD_WORK,	"vmstat_fold_work")		\
	EM(EXPSYNC_STAT_VMSTAT_FOLD_DRAIN_NOW,	"vmstat_fold_drain_now")	\
	EM(EXPSYNC_STAT_VMSTAT_ITEMS,		"vmstat_items_folded")		\
	EM(EXPSYNC_STAT_VMSTAT_SHEPHERD_SKIPPED, "vmstat_shepherd_skipped")	\
	EMe(EXPSYNC_STAT_VMSTAT_DRAIN_NOW_SKIPPED, "vmstat_drain_now_skipped")

enum expsync_stat {
	EXPSYNC_STATS(EXPSYNC_ENUM, EXPSYNC_ENUM)
	NR_EXPSYNC_STATS
};

/* kernel.expsync.membarrier_ipi: how membarrier() reaches its targets. */
#define EXPSYNC_MEMBARRIER_IPI(EM, EMe)					\
	EM(EXPSYNC_MEMBARRIER_IPI_MANY,		"many")	/* one IPI-to-many */	\
	EMe(EXPSYNC_MEMBARRIER_IPI_SINGLE,	"single") /* one per target */

enum expsync_membarrier_ipi {
	EXPSYNC_MEMBARRIER_IPI(EXPSYNC_ENUM, EXPSYNC_ENUM)
	NR_EXPSYNC_MEMBARRIER_IPI
};

/* kernel.expsync.membarrier_coalesce: may concurrent callers share a round? */
#define EXPSYNC_MEMBARRIER_COALESCE(EM, EMe)				\
	EM(EXPSYNC_MEMBARRIER_COALESCE_OFF,	"off")	/* a round per call */	\
	EMe(EXPSYNC_MEMBARRIER_COALESCE_ON,	"on")

enum expsync_membarrier_coalesce {
	EXPSYNC_MEMBARRIER_COALESCE(EXPSYNC_ENUM, EXPSYNC_ENUM)
	NR_EXPSYNC_MEMBARRIER_COALESCE
};

/* kernel.expsync.table_free: how page-table pages are freed. */
#define EXPSYNC_TABLE_FREE(EM, EMe)					\
	EM(EXPSYNC_TABLE_FREE_AUTO,		"auto")	/* as the pvops pick */	\
	EM(EXPSYNC_TABLE_FREE_RCU,		"rcu")	/* after a grace period */ \
	EMe(EXPSYNC_TABLE_FREE_IMMEDIATE,	"immediate") /* after the flush */

enum expsync_table_free {
	EXPSYNC_TABLE_FREE(EXPSYNC_ENUM, EXPSYNC_ENUM)
	NR_EXPSYNC_TABLE_FREE
};

/* kernel.expsync.table_free_rcu_batch: how RCU freeing is batched. */
#define EXPSYNC_TABLE_FREE_RCU_BATCH(EM, EMe)				\
	EM(EXPSYNC_TABLE_FREE_RCU_BATCH_PERCPU,	"percpu") /* per CPU */		\
	EMe(EXPSYNC_TABLE_FREE_RCU_BATCH_GATHER, "gather") /* one per gather */

enum expsync_table_free_rcu_batch {
	EXPSYNC_TABLE_FREE_RCU_BATCH(EXPSYNC_ENUM, EXPSYNC_ENUM)
	NR_EXPSYNC_TABLE_FREE_RCU_BATCH
};

/* Why page tables were handed to call_rcu(), for the tracepoint. */
#define EXPSYNC_TABLE_FREE_WHY(EM, EMe)					\
	EM(EXPSYNC_TABLE_FREE_WHY_GATHER,	"gather")	/* one per gather */ \
	EM(EXPSYNC_TABLE_FREE_WHY_FULL,		"full")		/* a batch filled */ \
	EM(EXPSYNC_TABLE_FREE_WHY_TIMER,	"timer")			\
	EM(EXPSYNC_TABLE_FREE_WHY_PRESSURE,	"pressure")	/* shrinker */	\
	EM(EXPSYNC_TABLE_FREE_WHY_HOTPLUG,	"hotplug")			\
	EMe(EXPSYNC_TABLE_FREE_WHY_SWITCH,	"switch")	/* left percpu */

enum expsync_table_free_why {
	EXPSYNC_TABLE_FREE_WHY(EXPSYNC_ENUM, EXPSYNC_ENUM)
	NR_EXPSYNC_TABLE_FREE_WHY
};

/* kernel.expsync.vmstat_drain: when vmstat differentials are folded. */
#define EXPSYNC_VMSTAT_DRAIN(EM, EMe)					\
	EM(EXPSYNC_VMSTAT_DRAIN_PERIODIC,	"periodic") /* vmstat_update */	\
	EM(EXPSYNC_VMSTAT_DRAIN_USER_RETURN,	"user-return")			\
	EMe(EXPSYNC_VMSTAT_DRAIN_DIRECT,	"direct") /* stat_threshold 0 */

enum expsync_vmstat_drain {
	EXPSYNC_VMSTAT_DRAIN(EXPSYNC_ENUM, EXPSYNC_ENUM)
	NR_EXPSYNC_VMSTAT_DRAIN
};

/* Why a CPU folded its vmstat differentials (counters in this order). */
#define EXPSYNC_VMSTAT_FOLD(EM, EMe)					\
	EM(EXPSYNC_VMSTAT_FOLD_USER_RETURN,	"user-return")			\
	EM(EXPSYNC_VMSTAT_FOLD_IDLE,		"idle")				\
	EM(EXPSYNC_VMSTAT_FOLD_WORK,		"work")				\
	EMe(EXPSYNC_VMSTAT_FOLD_DRAIN_NOW,	"drain-now")

enum expsync_vmstat_fold {
	EXPSYNC_VMSTAT_FOLD(EXPSYNC_ENUM, EXPSYNC_ENUM)
	NR_EXPSYNC_VMSTAT_FOLDS
};

/* Why membarrier() sends IPIs, for the tracepoint. */
#define EXPSYNC_MEMBARRIER_OP(EM, EMe)					\
	EM(EXPSYNC_MEMBARRIER_OP_GLOBAL_EXPEDITED,	"global_expedited")	\
	EM(EXPSYNC_MEMBARRIER_OP_PRIVATE_EXPEDITED,	"private_expedited")	\
	EM(EXPSYNC_MEMBARRIER_OP_PRIVATE_EXPEDITED_SYNC_CORE,			\
	   "private_expedited_sync_core")					\
	EM(EXPSYNC_MEMBARRIER_OP_PRIVATE_EXPEDITED_RSEQ, "private_expedited_rseq") \
	EMe(EXPSYNC_MEMBARRIER_OP_REGISTER,		"register")

enum expsync_membarrier_op {
	EXPSYNC_MEMBARRIER_OP(EXPSYNC_ENUM, EXPSYNC_ENUM)
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

#ifdef CONFIG_EXPSYNC_VMSTAT
DECLARE_STATIC_KEY_FALSE(expsync_vmstat_drain_owned);
DECLARE_PER_CPU(bool, expsync_vmstat_drain_cpu);
DECLARE_PER_CPU(bool, expsync_vmstat_direct_cpu);
DECLARE_PER_CPU(int, expsync_vmstat_exit_fold);

/* expsync_vmstat_exit_fold: does this CPU fold on its next exit to user? */
#define EXPSYNC_VMSTAT_EXIT_FOLD_ONCE	1	/* direct: once, then not */
#define EXPSYNC_VMSTAT_EXIT_FOLD_ALWAYS	2	/* user-return: every exit */

void expsync_vmstat_fold(enum expsync_vmstat_fold why);
void expsync_vmstat_count_fold(enum expsync_vmstat_fold why, int items);
void expsync_vmstat_exit_fold_now(void);
bool expsync_vmstat_refresh(int *err);
unsigned int expsync_vmstat_drifting_cpus(void);
void expsync_vmstat_threshold_lock(void);
void expsync_vmstat_threshold_unlock(void);

/**
 * expsync_vmstat_drain_owns() - does @cpu fold its own vmstat diffs?
 * @cpu: the CPU
 *
 * True under vmstat_drain=user-return or direct for the CPUs of
 * vmstat_drain_cpus: they fold on return to user mode (or hold none),
 * and the shepherd leaves the isolated ones alone.  A static-key NOP
 * under "periodic".
 *
 * Return: true when @cpu is a CPU of the set under user-return or direct.
 */
static __always_inline bool expsync_vmstat_drain_owns(int cpu)
{
	return static_branch_unlikely(&expsync_vmstat_drain_owned) &&
	       READ_ONCE(per_cpu(expsync_vmstat_drain_cpu, cpu));
}

/**
 * expsync_vmstat_is_direct() - is @cpu a CPU of the set under direct?
 * @cpu: the CPU
 *
 * Return: true when @cpu's stat_threshold is kept 0.
 */
static inline bool expsync_vmstat_is_direct(int cpu)
{
	return READ_ONCE(per_cpu(expsync_vmstat_direct_cpu, cpu));
}

/**
 * expsync_vmstat_threshold() - the stat_threshold @cpu may use
 * @cpu: the CPU
 * @threshold: what vmstat computed for it
 *
 * Under vmstat_drain=direct the CPUs of the set hold no differential:
 * their threshold is 0, so every update goes to the global counters.
 * Called by the writers of stat_threshold, under
 * expsync_vmstat_threshold_lock().
 *
 * Return: 0 for a CPU of the set under direct, else @threshold.
 */
static inline int expsync_vmstat_threshold(int cpu, int threshold)
{
	return expsync_vmstat_is_direct(cpu) ? 0 : threshold;
}

/**
 * expsync_vmstat_user_return() - fold vmstat diffs on return to user mode
 *
 * Called by exit_to_user_mode_prepare() with IRQs off.  A static-key NOP
 * under "periodic"; otherwise a per-CPU test, which only the CPUs of the
 * set under user-return (every exit) and under direct (once after they
 * join, or when a drain asks) pass.
 */
static __always_inline void expsync_vmstat_user_return(void)
{
	/* Written by other CPUs: this_cpu_read(), one load. */
	if (static_branch_unlikely(&expsync_vmstat_drain_owned) &&
	    this_cpu_read(expsync_vmstat_exit_fold))
		expsync_vmstat_exit_fold_now();
}
#else
static inline bool expsync_vmstat_drain_owns(int cpu) { return false; }
static inline bool expsync_vmstat_is_direct(int cpu) { return false; }
static inline int expsync_vmstat_threshold(int cpu, int threshold) { return threshold; }
static inline unsigned int expsync_vmstat_drifting_cpus(void) { return num_online_cpus(); }
static inline bool expsync_vmstat_refresh(int *err) { return false; }
static inline void expsync_vmstat_threshold_lock(void) { }
static inline void expsync_vmstat_threshold_unlock(void) { }
static inline void expsync_vmstat_user_return(void) { }
static inline void expsync_vmstat_fold(enum expsync_vmstat_fold why) { }
static inline void expsync_vmstat_count_fold(enum expsync_vmstat_fold why,
					     int items) { }
#endif

#endif /* _LINUX_EXPSYNC_H */
