/* SPDX-License-Identifier: GPL-2.0 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM expsync

#if !defined(_TRACE_EXPSYNC_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_EXPSYNC_H

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

/*
 * expsync_membarrier_ipi - membarrier() sent its IPIs
 * @op: the command (or "register" for a registration's runqueue sync)
 * @nr_cpus: CPUs targeted
 * @strategy: "many" (one IPI-to-many) or "single" (one IPI per CPU)
 */
TRACE_EVENT(expsync_membarrier_ipi,

	TP_PROTO(const char *op, unsigned int nr_cpus, const char *strategy),

	TP_ARGS(op, nr_cpus, strategy),

	TP_STRUCT__entry(
		__string(op, op)
		__field(unsigned int, nr_cpus)
		__string(strategy, strategy)
	),

	TP_fast_assign(
		__assign_str(op);
		__entry->nr_cpus = nr_cpus;
		__assign_str(strategy);
	),

	TP_printk("op=%s nr_cpus=%u strategy=%s", __get_str(op),
		  __entry->nr_cpus, __get_str(strategy))
);

/*
 * expsync_table_free_rcu - page-table pages were handed to call_rcu()
 * @nr: tables in the batch
 * @why: "gather" (6.12's one batch per gather), "full" (a per-CPU batch
 *	 filled up), "timer", "pressure" (shrinker), "hotplug", "switch"
 */
TRACE_EVENT(expsync_table_free_rcu,

	TP_PROTO(unsigned int nr, const char *why),

	TP_ARGS(nr, why),

	TP_STRUCT__entry(
		__field(unsigned int, nr)
		__string(why, why)
	),

	TP_fast_assign(
		__entry->nr = nr;
		__assign_str(why);
	),

	TP_printk("nr=%u why=%s", __entry->nr, __get_str(why))
);

#endif /* _TRACE_EXPSYNC_H */

/* This part must be outside protection */
#include <trace/define_trace.h>
