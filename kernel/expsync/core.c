// SPDX-License-Identifier: GPL-2.0
/*
 * expsync policy core: the knobs, their parsing for the boot command line
 * and sysctl, the counters and the tracepoints.
 *
 * Each knob is a word out of a fixed table (struct expsync_knob).  The
 * core is the only writer of knob values: a boot parameter is recorded
 * by the command-line parser and applied by expsync_init(); a sysctl
 * write is applied at once.  Either way the new value goes through the
 * mechanism's apply callback under expsync_policy_mutex, and a value the
 * callback refuses changes nothing.
 */

#define pr_fmt(fmt) "expsync: " fmt

#include <linux/capability.h>
#include <linux/debugfs.h>
#include <linux/init.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/sysctl.h>

#define CREATE_TRACE_POINTS
#include <trace/events/expsync.h>

#include "internal.h"

/* === Data === */

/* Serializes every knob change: the sole writer of knob->value. */
DEFINE_MUTEX(expsync_policy_mutex);

/* membarrier_ipi: see kernel/expsync/membarrier.c. */
const char * const expsync_membarrier_ipi_words[] = {
	[EXPSYNC_MEMBARRIER_IPI_MANY]	= "many",
	[EXPSYNC_MEMBARRIER_IPI_SINGLE]	= "single",
};

static_assert(ARRAY_SIZE(expsync_membarrier_ipi_words) == NR_EXPSYNC_MEMBARRIER_IPI);

#ifdef CONFIG_EXPSYNC_MEMBARRIER
static struct expsync_knob expsync_membarrier_ipi_knob =
	EXPSYNC_KNOB_INIT("membarrier_ipi", expsync_membarrier_ipi_words,
			  NR_EXPSYNC_MEMBARRIER_IPI,
			  IS_ENABLED(CONFIG_EXPSYNC_MEMBARRIER_IPI_DEFAULT_SINGLE) ?
			  EXPSYNC_MEMBARRIER_IPI_SINGLE : EXPSYNC_MEMBARRIER_IPI_MANY,
			  expsync_membarrier_ipi_apply);
#endif

/* table_free and table_free_rcu_batch: see kernel/expsync/table_free.c. */
const char * const expsync_table_free_words[] = {
	[EXPSYNC_TABLE_FREE_AUTO]	= "auto",
	[EXPSYNC_TABLE_FREE_RCU]	= "rcu",
	[EXPSYNC_TABLE_FREE_IMMEDIATE]	= "immediate",
};

static_assert(ARRAY_SIZE(expsync_table_free_words) == NR_EXPSYNC_TABLE_FREE);

const char * const expsync_table_free_rcu_batch_words[] = {
	[EXPSYNC_TABLE_FREE_RCU_BATCH_PERCPU]	= "percpu",
	[EXPSYNC_TABLE_FREE_RCU_BATCH_GATHER]	= "gather",
};

static_assert(ARRAY_SIZE(expsync_table_free_rcu_batch_words) ==
	      NR_EXPSYNC_TABLE_FREE_RCU_BATCH);

#ifdef CONFIG_EXPSYNC_TABLE_FREE
static struct expsync_knob expsync_table_free_knob =
	EXPSYNC_KNOB_INIT("table_free", expsync_table_free_words,
			  NR_EXPSYNC_TABLE_FREE,
			  IS_ENABLED(CONFIG_EXPSYNC_TABLE_FREE_DEFAULT_RCU) ?
			  EXPSYNC_TABLE_FREE_RCU :
			  IS_ENABLED(CONFIG_EXPSYNC_TABLE_FREE_DEFAULT_IMMEDIATE) ?
			  EXPSYNC_TABLE_FREE_IMMEDIATE : EXPSYNC_TABLE_FREE_AUTO,
			  expsync_table_free_apply);

static struct expsync_knob expsync_table_free_rcu_batch_knob =
	EXPSYNC_KNOB_INIT("table_free_rcu_batch",
			  expsync_table_free_rcu_batch_words,
			  NR_EXPSYNC_TABLE_FREE_RCU_BATCH,
			  EXPSYNC_TABLE_FREE_RCU_BATCH_PERCPU,
			  expsync_table_free_rcu_batch_apply);
#endif

/* vmstat_drain, vmstat_drain_cpus, vmstat_drain_now: see vmstat_drain.c. */
const char * const expsync_vmstat_drain_words[] = {
	[EXPSYNC_VMSTAT_DRAIN_PERIODIC]		= "periodic",
	[EXPSYNC_VMSTAT_DRAIN_USER_RETURN]	= "user-return",
};

static_assert(ARRAY_SIZE(expsync_vmstat_drain_words) == NR_EXPSYNC_VMSTAT_DRAIN);

#ifdef CONFIG_EXPSYNC_VMSTAT
static struct expsync_knob expsync_vmstat_drain_knob =
	EXPSYNC_KNOB_INIT("vmstat_drain", expsync_vmstat_drain_words,
			  NR_EXPSYNC_VMSTAT_DRAIN,
			  IS_ENABLED(CONFIG_EXPSYNC_VMSTAT_DEFAULT_USER_RETURN) ?
			  EXPSYNC_VMSTAT_DRAIN_USER_RETURN : EXPSYNC_VMSTAT_DRAIN_PERIODIC,
			  expsync_vmstat_drain_apply);

static struct cpumask expsync_vmstat_drain_cpus_value;

static struct expsync_knob expsync_vmstat_drain_cpus_knob = {
	.name		= "vmstat_drain_cpus",
	.type		= EXPSYNC_KNOB_CPULIST,
	.mask		= &expsync_vmstat_drain_cpus_value,
	.apply_mask	= expsync_vmstat_drain_cpus_apply,
	.default_mask	= expsync_vmstat_drain_cpus_default,
	.boot_value	= -1,
};

static struct expsync_knob expsync_vmstat_drain_now_knob = {
	.name		= "vmstat_drain_now",
	.type		= EXPSYNC_KNOB_TRIGGER,
	.trigger	= expsync_vmstat_drain_now,
	.boot_value	= -1,
};
#endif

/*
 * Knobs exposed as expsync.<name>= and kernel.expsync.<name>.  Word 0 of
 * every knob is always safe to apply: expsync_init() falls back to it.
 * vmstat_drain_cpus comes before vmstat_drain, so that the set is in
 * place when the policy is applied.
 */
static struct expsync_knob *const expsync_knobs[] = {
#ifdef CONFIG_EXPSYNC_MEMBARRIER
	&expsync_membarrier_ipi_knob,
#endif
#ifdef CONFIG_EXPSYNC_TABLE_FREE
	&expsync_table_free_knob,
	&expsync_table_free_rcu_batch_knob,
#endif
#ifdef CONFIG_EXPSYNC_VMSTAT
	&expsync_vmstat_drain_cpus_knob,
	&expsync_vmstat_drain_knob,
	&expsync_vmstat_drain_now_knob,
#endif
};

static const char * const expsync_stat_names[] = {
	[EXPSYNC_STAT_POLICY_CHANGES]	= "policy_changes",
	[EXPSYNC_STAT_POLICY_REJECTED]	= "policy_rejected",
	[EXPSYNC_STAT_MEMBARRIER_IPI_MANY]	= "membarrier_ipi_many",
	[EXPSYNC_STAT_MEMBARRIER_IPI_SINGLE]	= "membarrier_ipi_single",
	[EXPSYNC_STAT_MEMBARRIER_IPI_CPUS]	= "membarrier_ipi_cpus",
	[EXPSYNC_STAT_TABLE_FREE_IMMEDIATE]	= "table_free_immediate",
	[EXPSYNC_STAT_TABLE_FREE_RCU]		= "table_free_rcu",
	[EXPSYNC_STAT_TABLE_FREE_RCU_BATCHES]	= "table_free_rcu_batches",
	[EXPSYNC_STAT_TABLE_FREE_SYNC_IPI]	= "table_free_sync_ipi",
	[EXPSYNC_STAT_TABLE_FREE_WAITING]	= "table_free_waiting",
	[EXPSYNC_STAT_VMSTAT_FOLD_USER_RETURN]	= "vmstat_fold_user_return",
	[EXPSYNC_STAT_VMSTAT_FOLD_IDLE]		= "vmstat_fold_idle",
	[EXPSYNC_STAT_VMSTAT_FOLD_WORK]		= "vmstat_fold_work",
	[EXPSYNC_STAT_VMSTAT_FOLD_DRAIN_NOW]	= "vmstat_fold_drain_now",
	[EXPSYNC_STAT_VMSTAT_ITEMS]		= "vmstat_items_folded",
	[EXPSYNC_STAT_VMSTAT_SHEPHERD_SKIPPED]	= "vmstat_shepherd_skipped",
	[EXPSYNC_STAT_VMSTAT_DRAIN_NOW_SKIPPED]	= "vmstat_drain_now_skipped",
};

static_assert(ARRAY_SIZE(expsync_stat_names) == NR_EXPSYNC_STATS);

/*
 * Per-CPU so that mechanisms can count without a shared cache line;
 * readers sum over possible CPUs and accept a value that is only as
 * current as the last update each CPU made visible.
 */
DEFINE_PER_CPU(long [NR_EXPSYNC_STATS], expsync_stats);

/* === Counters === */

/**
 * expsync_stat_read() - current value of an expsync counter
 * @stat: the counter
 *
 * Return: the sum over all possible CPUs.
 */
long expsync_stat_read(enum expsync_stat stat)
{
	long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu(expsync_stats, cpu)[stat];
	return sum;
}

/**
 * expsync_knob_find() - look a knob up by name
 * @name: the name after "expsync."
 *
 * Return: the knob, or NULL.
 */
struct expsync_knob *expsync_knob_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(expsync_knobs); i++)
		if (!strcmp(expsync_knobs[i]->name, name))
			return expsync_knobs[i];
	return NULL;
}

/* === Parsing and setting === */

/**
 * expsync_parse_word() - map user text to a knob value
 * @knob: the knob whose word table to use
 * @buf: the text, not necessarily NUL-terminated
 * @len: its length in bytes
 *
 * Accepts exactly one word of @knob->words, optionally followed by a
 * single newline (what "echo" writes).  Nothing else: no prefixes, no
 * surrounding blanks, no case folding.
 *
 * Return: the value, or -EINVAL for an empty, over-long or unknown word.
 */
int expsync_parse_word(const struct expsync_knob *knob, const char *buf,
		       size_t len)
{
	char word[EXPSYNC_WORD_MAX + 2];

	if (!len || len > EXPSYNC_WORD_MAX + 1)
		return -EINVAL;
	memcpy(word, buf, len);
	word[len] = '\0';
	/* A NUL inside the buffer would make a prefix look like a word. */
	if (strlen(word) != len)
		return -EINVAL;
	return __sysfs_match_string(knob->words, knob->nr_words, word);
}

static int __expsync_knob_set(struct expsync_knob *knob, unsigned int val,
			      const char *source, bool force)
{
	unsigned int old;
	int err = 0;

	if (val >= knob->nr_words)
		return -EINVAL;

	guard(mutex)(&expsync_policy_mutex);
	old = knob->value;
	if ((val != old || force) && knob->apply)
		err = knob->apply(knob, val);
	trace_expsync_policy_set(knob->name, knob->words[old],
				 knob->words[val], source, err);
	if (err) {
		expsync_count(EXPSYNC_STAT_POLICY_REJECTED, 1);
		return err;
	}
	if (val != old) {
		/* Lockless readers only report the value; see @value. */
		WRITE_ONCE(knob->value, val);
		expsync_count(EXPSYNC_STAT_POLICY_CHANGES, 1);
	}
	return 0;
}

/**
 * expsync_knob_set() - apply a new value to a knob
 * @knob: the knob
 * @val: the new value, an index into @knob->words
 * @source: who asks ("boot", "sysctl", "kunit"), for the tracepoint
 *
 * Takes expsync_policy_mutex, so it may sleep.  The mechanism's apply
 * callback validates @val and makes it effective; only when it succeeds
 * is @knob->value updated.  Setting the current value again is a no-op
 * that succeeds.
 *
 * Return: 0, or the callback's negative errno with nothing changed.
 */
int expsync_knob_set(struct expsync_knob *knob, unsigned int val,
		     const char *source)
{
	return __expsync_knob_set(knob, val, source, false);
}

/* === Boot parameters === */

static void expsync_warn_words(const struct expsync_knob *knob,
			       const char *val, const char *why)
{
	char list[64] = "";
	unsigned int i;

	for (i = 0; i < knob->nr_words; i++) {
		strlcat(list, " ", sizeof(list));
		strlcat(list, knob->words[i], sizeof(list));
	}
	pr_warn("expsync.%s=%s %s; accepted:%s; keeping %s\n", knob->name,
		val, why, list, knob->words[knob->value]);
}

/**
 * expsync_boot_parse() - record a knob's value from the command line
 * @knob: the knob
 * @val: the text after '=', or NULL when there was no '='
 *
 * Runs before the mechanisms are initialized, so it only records the
 * value; expsync_init() applies it.  A bad word is reported with the
 * accepted words and leaves the default in place.
 *
 * Return: true when @val was a valid word.
 */
bool expsync_boot_parse(struct expsync_knob *knob, const char *val)
{
	int v = val ? expsync_parse_word(knob, val, strlen(val)) : -EINVAL;

	if (v < 0) {
		expsync_warn_words(knob, val ?: "", "is not valid");
		expsync_count(EXPSYNC_STAT_POLICY_REJECTED, 1);
		return false;
	}
	knob->boot_value = v;
	return true;
}

/* Syntax check of a boot cpulist, before any allocator exists. */
static struct cpumask expsync_boot_mask __initdata;

static void __init expsync_boot_parse_cpulist(struct expsync_knob *knob,
					      const char *val)
{
	if (!val || !*val || strlen(val) > EXPSYNC_CPULIST_MAX ||
	    cpulist_parse(val, &expsync_boot_mask) ||
	    !cpumask_subset(&expsync_boot_mask, cpu_possible_mask)) {
		pr_warn("expsync.%s=%s is not valid; accepted: a list of possible CPUs (0-%u) such as 1,3-5; keeping the default\n",
			knob->name, val ?: "", nr_cpu_ids - 1);
		expsync_count(EXPSYNC_STAT_POLICY_REJECTED, 1);
		return;
	}
	knob->boot_str = val;
}

/* Handles every "expsync.<knob>=<value>" on the kernel command line. */
static int __init expsync_boot_param(char *str)
{
	char *val = strchr(str, '=');
	unsigned int i;

	if (val)
		*val++ = '\0';
	for (i = 0; i < ARRAY_SIZE(expsync_knobs); i++) {
		struct expsync_knob *knob = expsync_knobs[i];

		if (strcmp(str, knob->name))
			continue;
		if (knob->type == EXPSYNC_KNOB_WORD)
			expsync_boot_parse(knob, val);
		else if (knob->type == EXPSYNC_KNOB_CPULIST)
			expsync_boot_parse_cpulist(knob, val);
		else
			pr_warn("expsync.%s is a run-time trigger, not a boot parameter; ignored\n",
				str);
		return 1;
	}
	pr_warn("unknown boot parameter expsync.%s, ignored\n", str);
	return 1;
}
__setup("expsync.", expsync_boot_param);

/* === sysctl === */

/**
 * expsync_sysctl_word() - proc handler of a word-valued knob
 * @table: the sysctl entry; @table->data is the struct expsync_knob
 * @write: true for a write
 * @buffer: kernel buffer holding the text written, or receiving the read
 * @lenp: in: the buffer's length; out: bytes consumed or produced
 * @ppos: file position
 *
 * A read gives the current word and a newline.  A write must be one
 * whole word in a single write() at offset 0; anything else is -EINVAL
 * with the value unchanged.  Writers need CAP_SYS_ADMIN on top of the
 * file mode, as proc_do_static_key() does.
 *
 * Return: 0 or a negative errno.
 */
int expsync_sysctl_word(const struct ctl_table *table, int write,
			void *buffer, size_t *lenp, loff_t *ppos)
{
	struct expsync_knob *knob = table->data;
	struct ctl_table tmp;
	int val;

	if (!write) {
		tmp = *table;
		tmp.data = (void *)knob->words[READ_ONCE(knob->value)];
		tmp.maxlen = strlen(tmp.data) + 1;
		return proc_dostring(&tmp, 0, buffer, lenp, ppos);
	}

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	/* A continued write (non-zero offset) is as bad as a bad word. */
	val = *ppos ? -EINVAL : expsync_parse_word(knob, buffer, *lenp);
	if (val < 0) {
		expsync_count(EXPSYNC_STAT_POLICY_REJECTED, 1);
		return val;
	}
	val = expsync_knob_set(knob, val, "sysctl");
	if (val)
		return val;
	*ppos += *lenp;
	return 0;
}

/**
 * expsync_knob_set_mask() - apply a new CPU list to a cpulist knob
 * @knob: the knob
 * @mask: the new list, a subset of the possible CPUs
 * @source: who asks, for the tracepoint
 *
 * As expsync_knob_set(), for cpulist knobs.
 *
 * Return: 0, or the callback's negative errno with nothing changed.
 */
int expsync_knob_set_mask(struct expsync_knob *knob, const struct cpumask *mask,
			  const char *source)
{
	char old[32], new[32];
	int err;

	guard(mutex)(&expsync_policy_mutex);
	err = knob->apply_mask(knob, mask);
	snprintf(old, sizeof(old), "%*pbl", cpumask_pr_args(knob->mask));
	snprintf(new, sizeof(new), "%*pbl", cpumask_pr_args(mask));
	trace_expsync_policy_set(knob->name, old, new, source, err);
	if (err) {
		expsync_count(EXPSYNC_STAT_POLICY_REJECTED, 1);
		return err;
	}
	if (!cpumask_equal(knob->mask, mask))
		expsync_count(EXPSYNC_STAT_POLICY_CHANGES, 1);
	cpumask_copy(knob->mask, mask);
	return 0;
}

/**
 * expsync_sysctl_cpulist() - proc handler of a cpulist knob
 * @table: the sysctl entry; @table->data is the struct expsync_knob
 * @write: true for a write
 * @buffer: kernel buffer holding the text written, or receiving the read
 * @lenp: in: the buffer's length; out: bytes consumed or produced
 * @ppos: file position
 *
 * A read gives the list ("1,3-5", empty for none) and a newline.  A
 * write must be one whole list of possible CPUs in a single write() at
 * offset 0; an empty, over-long or malformed list, or one naming an
 * impossible CPU, is -EINVAL with the value unchanged.
 *
 * Return: 0 or a negative errno.
 */
int expsync_sysctl_cpulist(const struct ctl_table *table, int write,
			   void *buffer, size_t *lenp, loff_t *ppos)
{
	struct expsync_knob *knob = table->data;
	char text[EXPSYNC_CPULIST_MAX + 2];
	cpumask_var_t mask;
	struct ctl_table tmp;
	int err;

	if (!write) {
		scoped_guard(mutex, &expsync_policy_mutex)
			snprintf(text, sizeof(text), "%*pbl", cpumask_pr_args(knob->mask));
		tmp = *table;
		tmp.data = text;
		tmp.maxlen = sizeof(text);
		return proc_dostring(&tmp, 0, buffer, lenp, ppos);
	}
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	err = -EINVAL;
	if (*ppos || !*lenp || *lenp > EXPSYNC_CPULIST_MAX + 1)
		goto rejected;
	memcpy(text, buffer, *lenp);
	text[*lenp] = '\0';
	if (strlen(text) != *lenp)
		goto rejected;
	if (text[*lenp - 1] == '\n')
		text[*lenp - 1] = '\0';
	/* cpulist_parse() skips blanks; a list with blanks is not one list. */
	if (!*text || strpbrk(text, " \t\n"))
		goto rejected;
	if (!alloc_cpumask_var(&mask, GFP_KERNEL))
		return -ENOMEM;
	err = cpulist_parse(text, mask) ? -EINVAL : 0;
	if (!err && !cpumask_subset(mask, cpu_possible_mask))
		err = -EINVAL;
	if (err) {
		free_cpumask_var(mask);
		goto rejected;
	}
	err = expsync_knob_set_mask(knob, mask, "sysctl");
	free_cpumask_var(mask);
	if (!err)
		*ppos += *lenp;
	return err;
rejected:
	expsync_count(EXPSYNC_STAT_POLICY_REJECTED, 1);
	return err;
}

/**
 * expsync_sysctl_trigger() - proc handler of a trigger knob (mode 0200)
 * @table: the sysctl entry; @table->data is the struct expsync_knob
 * @write: true for a write
 * @buffer: kernel buffer holding the text written
 * @lenp: in: the buffer's length; out: bytes consumed
 * @ppos: file position
 *
 * Writing "1" (with or without a newline) runs the action and returns
 * when it is done; anything else is -EINVAL.
 *
 * Return: 0, the action's negative errno, or -EINVAL.
 */
int expsync_sysctl_trigger(const struct ctl_table *table, int write,
			   void *buffer, size_t *lenp, loff_t *ppos)
{
	struct expsync_knob *knob = table->data;
	const char *text = buffer;
	int err;

	if (!write)
		return -EINVAL;
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (*ppos || !(*lenp == 1 || (*lenp == 2 && text[1] == '\n')) ||
	    text[0] != '1') {
		expsync_count(EXPSYNC_STAT_POLICY_REJECTED, 1);
		return -EINVAL;
	}
	scoped_guard(mutex, &expsync_policy_mutex)
		err = knob->trigger(knob);
	if (!err)
		*ppos += *lenp;
	return err;
}

static struct ctl_table expsync_sysctls[ARRAY_SIZE(expsync_knobs)];

static void __init expsync_sysctl_init(void)
{
	static proc_handler *const handlers[] = {
		[EXPSYNC_KNOB_WORD]	= expsync_sysctl_word,
		[EXPSYNC_KNOB_CPULIST]	= expsync_sysctl_cpulist,
		[EXPSYNC_KNOB_TRIGGER]	= expsync_sysctl_trigger,
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(expsync_knobs); i++) {
		enum expsync_knob_type type = expsync_knobs[i]->type;

		expsync_sysctls[i] = (struct ctl_table) {
			.procname	= expsync_knobs[i]->name,
			.data		= expsync_knobs[i],
			.mode		= type == EXPSYNC_KNOB_TRIGGER ? 0200 : 0644,
			.proc_handler	= handlers[type],
		};
	}
	register_sysctl_sz("kernel/expsync", expsync_sysctls,
			   ARRAY_SIZE(expsync_sysctls));
}

/* === debugfs === */

static int expsync_stats_show(struct seq_file *m, void *v)
{
	unsigned int i;

	for (i = 0; i < NR_EXPSYNC_STATS; i++)
		seq_printf(m, "%s %ld\n", expsync_stat_names[i],
			   expsync_stat_read(i));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(expsync_stats);

/*
 * One line per knob: "name: word [current] word" for word knobs,
 * "name: <cpulist> [current]" and "name: <trigger>" for the others.
 */
static int expsync_knobs_show(struct seq_file *m, void *v)
{
	unsigned int i, w;

	guard(mutex)(&expsync_policy_mutex);
	for (i = 0; i < ARRAY_SIZE(expsync_knobs); i++) {
		const struct expsync_knob *knob = expsync_knobs[i];
		unsigned int cur = knob->value;

		if (knob->type == EXPSYNC_KNOB_CPULIST) {
			seq_printf(m, "%s: <cpulist> [%*pbl]\n", knob->name,
				   cpumask_pr_args(knob->mask));
			continue;
		}
		if (knob->type == EXPSYNC_KNOB_TRIGGER) {
			seq_printf(m, "%s: <trigger>\n", knob->name);
			continue;
		}
		seq_printf(m, "%s:", knob->name);
		for (w = 0; w < knob->nr_words; w++)
			seq_printf(m, w == cur ? " [%s]" : " %s",
				   knob->words[w]);
		seq_putc(m, '\n');
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(expsync_knobs);

static int __init expsync_debugfs_init(void)
{
	struct dentry *dir = debugfs_create_dir("expsync", NULL);

	debugfs_create_file("stats", 0444, dir, NULL, &expsync_stats_fops);
	debugfs_create_file("knobs", 0444, dir, NULL, &expsync_knobs_fops);
	if (IS_ENABLED(CONFIG_EXPSYNC_VMSTAT))
		expsync_vmstat_debugfs_init(dir);
	return 0;
}
fs_initcall(expsync_debugfs_init);

/* === Init === */

/* The boot list if one was given and is accepted, else the default. */
static void __init expsync_init_cpulist(struct expsync_knob *knob)
{
	cpumask_var_t mask;

	if (knob->boot_str && alloc_cpumask_var(&mask, GFP_KERNEL)) {
		cpulist_parse(knob->boot_str, mask);	/* checked at boot */
		if (!expsync_knob_set_mask(knob, mask, "boot")) {
			free_cpumask_var(mask);
			return;
		}
		free_cpumask_var(mask);
		pr_warn("expsync.%s=%s is refused on this system; keeping the default\n",
			knob->name, knob->boot_str);
	}
	if (alloc_cpumask_var(&mask, GFP_KERNEL)) {
		knob->default_mask(mask);
		if (expsync_knob_set_mask(knob, mask, "boot"))
			pr_warn("%s: default is refused on this system\n", knob->name);
		free_cpumask_var(mask);
	}
}

/*
 * Apply every knob once the mechanisms can judge the values (pvops,
 * housekeeping and static keys are set up by now): the boot parameter if
 * given, else the Kconfig default.  A refused boot value falls back to
 * the default, a refused default to word 0.  Then open the sysctls.
 */
static int __init expsync_init(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(expsync_knobs); i++) {
		struct expsync_knob *knob = expsync_knobs[i];

		if (knob->type == EXPSYNC_KNOB_CPULIST) {
			expsync_init_cpulist(knob);
			continue;
		}
		if (knob->type != EXPSYNC_KNOB_WORD)
			continue;
		if (knob->boot_value >= 0 &&
		    !__expsync_knob_set(knob, knob->boot_value, "boot", true))
			continue;
		if (knob->boot_value >= 0)
			expsync_warn_words(knob, knob->words[knob->boot_value],
					   "is refused on this system");
		if (!__expsync_knob_set(knob, knob->value, "boot", true))
			continue;
		pr_warn("%s: default %s is refused on this system; using %s\n",
			knob->name, knob->words[knob->value], knob->words[0]);
		__expsync_knob_set(knob, 0, "boot", true);
	}
	expsync_sysctl_init();
	return 0;
}
core_initcall(expsync_init);
