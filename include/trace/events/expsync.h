/* SPDX-License-Identifier: GPL-2.0 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM expsync

#if !defined(_TRACE_EXPSYNC_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_EXPSYNC_H

#include <linux/expsync.h>
#include <linux/tracepoint.h>

/*
 * expsync_policy_set - a knob change was requested
 * @knob: knob name
 * @old: value before the request
 * @new: value requested
 * @source: "boot", "sysctl" or "kunit"
 * @err: 0 when applied, else the errno returned and the value kept
 */
TRACE_EVENT(expsync_policy_set,

	TP_PROTO(const char *knob, const char *old, const char *new,
		 const char *source, int err),

	TP_ARGS(knob, old, new, source, err),

	TP_STRUCT__entry(
		__string(knob, knob)
		__string(old, old)
		__string(new, new)
		__string(source, source)
		__field(int, err)
	),

	TP_fast_assign(
		__assign_str(knob);
		__assign_str(old);
		__assign_str(new);
		__assign_str(source);
		__entry->err = err;
	),

	TP_printk("knob=%s old=%s new=%s source=%s err=%d",
		  __get_str(knob), __get_str(old), __get_str(new),
		  __get_str(source), __entry->err)
);

/* The enums' numbers for user space, then their names for TP_printk(). */
#undef EM
#undef EMe
#define EM(a, b)	TRACE_DEFINE_ENUM(a);
#define EMe(a, b)	TRACE_DEFINE_ENUM(a);

EXPSYNC_MEMBARRIER_OP(EM, EMe)
EXPSYNC_MEMBARRIER_IPI(EM, EMe)
EXPSYNC_TABLE_FREE_WHY(EM, EMe)
EXPSYNC_VMSTAT_FOLD(EM, EMe)

#undef EM
#undef EMe
#define EM(a, b)	{ a, b },
#define EMe(a, b)	{ a, b }

/*
 * expsync_membarrier_ipi - membarrier() sent its IPIs
 * @op: the command, or "register" for a registration's runqueue sync
 * @nr_cpus: CPUs targeted
 * @strategy: "many" (one IPI-to-many) or "single" (one IPI per CPU)
 */
TRACE_EVENT(expsync_membarrier_ipi,

	TP_PROTO(enum expsync_membarrier_op op, unsigned int nr_cpus,
		 enum expsync_membarrier_ipi strategy),

	TP_ARGS(op, nr_cpus, strategy),

	TP_STRUCT__entry(
		__field(unsigned int, op)
		__field(unsigned int, nr_cpus)
		__field(unsigned int, strategy)
	),

	TP_fast_assign(
		__entry->op = op;
		__entry->nr_cpus = nr_cpus;
		__entry->strategy = strategy;
	),

	TP_printk("op=%s nr_cpus=%u strategy=%s",
		  __print_symbolic(__entry->op, EXPSYNC_MEMBARRIER_OP(EM, EMe)),
		  __entry->nr_cpus,
		  __print_symbolic(__entry->strategy, EXPSYNC_MEMBARRIER_IPI(EM, EMe)))
);

/*
 * expsync_membarrier_call - an expedited membarrier() call was served
 * @op: the command
 * @round: the number of the IPI round that served it (0 for a round led
 *	  with membarrier_coalesce off, which no other call can share)
 * @shared: true when another caller's round served it (membarrier_coalesce)
 */
TRACE_EVENT(expsync_membarrier_call,

	TP_PROTO(enum expsync_membarrier_op op, u64 round, bool shared),

	TP_ARGS(op, round, shared),

	TP_STRUCT__entry(
		__field(unsigned int, op)
		__field(u64, round)
		__field(bool, shared)
	),

	TP_fast_assign(
		__entry->op = op;
		__entry->round = round;
		__entry->shared = shared;
	),

	TP_printk("op=%s round=%llu shared=%d",
		  __print_symbolic(__entry->op, EXPSYNC_MEMBARRIER_OP(EM, EMe)),
		  __entry->round, __entry->shared)
);

/*
 * expsync_table_free_rcu - page-table pages were handed to call_rcu()
 * @nr: tables in the batch
 * @why: "gather" (one batch per gather, as 6.12), "full" (a per-CPU
 *	 batch filled up), "timer", "pressure" (shrinker), "hotplug",
 *	 "switch" (batching left percpu)
 */
TRACE_EVENT(expsync_table_free_rcu,

	TP_PROTO(unsigned int nr, enum expsync_table_free_why why),

	TP_ARGS(nr, why),

	TP_STRUCT__entry(
		__field(unsigned int, nr)
		__field(unsigned int, why)
	),

	TP_fast_assign(
		__entry->nr = nr;
		__entry->why = why;
	),

	TP_printk("nr=%u why=%s", __entry->nr,
		  __print_symbolic(__entry->why, EXPSYNC_TABLE_FREE_WHY(EM, EMe)))
);

/*
 * expsync_vmstat_fold - a CPU folded its vmstat differentials
 * @why: "user-return", "idle", "work" (vmstat_update), "drain-now"
 * @items: differentials folded
 */
TRACE_EVENT(expsync_vmstat_fold,

	TP_PROTO(enum expsync_vmstat_fold why, int items),

	TP_ARGS(why, items),

	TP_STRUCT__entry(
		__field(unsigned int, why)
		__field(int, items)
	),

	TP_fast_assign(
		__entry->why = why;
		__entry->items = items;
	),

	TP_printk("why=%s items=%d",
		  __print_symbolic(__entry->why, EXPSYNC_VMSTAT_FOLD(EM, EMe)),
		  __entry->items)
);

/*
 * expsync_vmstat_drain_now - kernel.expsync.vmstat_drain_now completed
 * @nr_cpus: CPUs that folded (as work, or on their own while waited for)
 * @skipped: CPUs left alone: in user mode, already folded
 * @missed: CPUs that did not fold within the bounded wait
 * @ns: time taken
 */
TRACE_EVENT(expsync_vmstat_drain_now,

	TP_PROTO(unsigned int nr_cpus, unsigned int skipped, unsigned int missed,
		 s64 ns),

	TP_ARGS(nr_cpus, skipped, missed, ns),

	TP_STRUCT__entry(
		__field(unsigned int, nr_cpus)
		__field(unsigned int, skipped)
		__field(unsigned int, missed)
		__field(s64, ns)
	),

	TP_fast_assign(
		__entry->nr_cpus = nr_cpus;
		__entry->skipped = skipped;
		__entry->missed = missed;
		__entry->ns = ns;
	),

	TP_printk("nr_cpus=%u skipped=%u missed=%u ns=%lld", __entry->nr_cpus,
		  __entry->skipped, __entry->missed, __entry->ns)
);

#endif /* _TRACE_EXPSYNC_H */

/* This part must be outside protection */
#include <trace/define_trace.h>
