/* SPDX-License-Identifier: GPL-2.0 */
/*
 * expsync knobs: how a subsystem offers a policy as the "expsync.<name>="
 * boot parameter and the kernel.expsync.<name> sysctl.
 *
 * A subsystem defines its knobs next to the mechanism they steer and
 * hands them to expsync_register_knobs() from an initcall, the way
 * module_param_cb() and struct kernel_param_ops let kfence own its
 * parameters.  The front-end (kernel/expsync/core.c) owns the text:
 * parsing, the boot command line, sysctl, the tracepoint and the
 * counters.  The knob type's ops (word, cpulist, trigger) turn text into
 * a call of the subsystem's apply callback.  Adding a knob edits only
 * the subsystem that owns it.
 *
 * See Documentation/admin-guide/expsync.rst.
 */
#ifndef _LINUX_EXPSYNC_KNOB_H
#define _LINUX_EXPSYNC_KNOB_H

#include <linux/cpumask.h>
#include <linux/init.h>
#include <linux/list.h>
#include <linux/types.h>

/*
 * Longest text a knob accepts or shows, without the trailing newline:
 * 4 KiB with room for the newline and the NUL, as a sysfs file holds.
 * A CPU list knob takes more where a list of nr_cpu_ids CPUs may need it
 * (more than 1000 CPUs), so that every list reads back whole.
 */
#define EXPSYNC_TEXT_MAX	4094

struct expsync_knob;
struct seq_file;

/**
 * struct expsync_knob_ops - what one type of knob does with text
 * @valid: is @text (NUL-terminated, no trailing newline) a value of
 *	   @knob?  No side effects.
 * @set: apply @text, which @valid accepted; return 0, or the
 *	 subsystem's negative errno with nothing changed
 * @get: print the current value into @buf (@size bytes); NULL for a
 *	 write-only trigger, which is no boot parameter either
 * @reset: apply the default; NULL when there is none
 * @accepted: print what @valid accepts into @buf, for the warnings
 * @show: the debugfs "knobs" line after "name:"
 *
 * The front-end calls every op with expsync_policy_mutex held, in
 * process context, but @get for a sysctl read, which runs under a
 * spinlock alone and must not sleep.
 */
struct expsync_knob_ops {
	bool (*valid)(const struct expsync_knob *knob, const char *text);
	int (*set)(struct expsync_knob *knob, const char *text);
	void (*get)(const struct expsync_knob *knob, char *buf, size_t size);
	int (*reset)(struct expsync_knob *knob);
	void (*accepted)(const struct expsync_knob *knob, char *buf, size_t size);
	void (*show)(const struct expsync_knob *knob, struct seq_file *m);
};

/**
 * struct expsync_word - a knob whose value is one word of a table
 * @words: the words, indexed by the subsystem's enum
 * @nr_words: number of @words
 * @def: the default, an index into @words
 * @refuses: NULL, or why this system never honours @val (NULL when
 *	     it does).  A refused word is -EINVAL with that reason in the
 *	     log, never reaches @apply, and shows as "!word" in the
 *	     debugfs "knobs" file.
 * @apply: make a value effective, or change nothing and return a
 *	   negative errno.  Called for every accepted write, the current
 *	   value included, so it must be idempotent.
 * @value: the current value; written by the front-end under
 *	   expsync_policy_mutex after @apply succeeded, read with READ_ONCE()
 *
 * Word 0 must always be safe to apply: it is the fallback when the
 * default is refused.
 */
struct expsync_word {
	const char * const *words;
	unsigned int nr_words;
	unsigned int def;
	const char *(*refuses)(unsigned int val);
	int (*apply)(unsigned int val);
	unsigned int value;
};

/**
 * struct expsync_cpulist - a knob whose value is a CPU list ("1,3-5")
 * @def: fill in the default set, at registration
 * @apply: make a set of possible CPUs effective, or change nothing and
 *	   return a negative errno
 * @mask: the current set; written by the front-end under
 *	  expsync_policy_mutex after @apply succeeded
 */
struct expsync_cpulist {
	void (*def)(struct cpumask *mask);
	int (*apply)(const struct cpumask *mask);
	struct cpumask *mask;
};

/**
 * struct expsync_knob - one knob
 * @name: the name after "expsync." (boot) and "kernel.expsync." (sysctl)
 * @ops: its type: &expsync_word_ops, &expsync_cpulist_ops or
 *	 &expsync_trigger_ops
 * @word: (word knobs) the table, default and callback
 * @cpulist: (cpulist knobs) the set, default and callback
 * @trigger: (trigger knobs) the action run when "1" is written
 * @node: in the front-end's list of registered knobs
 */
struct expsync_knob {
	const char *name;
	const struct expsync_knob_ops *ops;
	union {
		struct expsync_word *word;
		struct expsync_cpulist *cpulist;
		int (*trigger)(void);
	};
	struct list_head node;
};

extern const struct expsync_knob_ops expsync_word_ops;
extern const struct expsync_knob_ops expsync_cpulist_ops;
extern const struct expsync_knob_ops expsync_trigger_ops;

#define EXPSYNC_WORD_KNOB(_name, _word)					\
	{ .name = (_name), .ops = &expsync_word_ops, .word = (_word) }
#define EXPSYNC_CPULIST_KNOB(_name, _cpulist)				\
	{ .name = (_name), .ops = &expsync_cpulist_ops, .cpulist = (_cpulist) }
#define EXPSYNC_TRIGGER_KNOB(_name, _fn)				\
	{ .name = (_name), .ops = &expsync_trigger_ops, .trigger = (_fn) }

struct dentry;

#ifdef CONFIG_EXPSYNC
void __init expsync_register_knobs(struct expsync_knob *knobs, unsigned int nr);
struct dentry *expsync_debugfs(void);
int expsync_call_locked(int (*fn)(void));
#else
static inline void expsync_register_knobs(struct expsync_knob *knobs,
					  unsigned int nr) { }
#endif

#endif /* _LINUX_EXPSYNC_KNOB_H */
