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
static DEFINE_MUTEX(expsync_policy_mutex);

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

/*
 * Knobs exposed as expsync.<name>= and kernel.expsync.<name>.  Word 0 of
 * every knob is always safe to apply: expsync_init() falls back to it.
 */
static struct expsync_knob *const expsync_knobs[] = {
#ifdef CONFIG_EXPSYNC_MEMBARRIER
	&expsync_membarrier_ipi_knob,
#endif
#ifdef CONFIG_EXPSYNC_TABLE_FREE
	&expsync_table_free_knob,
	&expsync_table_free_rcu_batch_knob,
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

/* Handles every "expsync.<knob>=<word>" on the kernel command line. */
static int __init expsync_boot_param(char *str)
{
	char *val = strchr(str, '=');
	unsigned int i;

	if (val)
		*val++ = '\0';
	for (i = 0; i < ARRAY_SIZE(expsync_knobs); i++) {
		if (!strcmp(str, expsync_knobs[i]->name)) {
			expsync_boot_parse(expsync_knobs[i], val);
			return 1;
		}
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

static struct ctl_table expsync_sysctls[ARRAY_SIZE(expsync_knobs)];

static void __init expsync_sysctl_init(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(expsync_knobs); i++) {
		expsync_sysctls[i] = (struct ctl_table) {
			.procname	= expsync_knobs[i]->name,
			.data		= expsync_knobs[i],
			.mode		= 0644,
			.proc_handler	= expsync_sysctl_word,
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

/* "name: word [current] word", the accepted words of every knob. */
static int expsync_knobs_show(struct seq_file *m, void *v)
{
	unsigned int i, w;

	for (i = 0; i < ARRAY_SIZE(expsync_knobs); i++) {
		const struct expsync_knob *knob = expsync_knobs[i];
		unsigned int cur = READ_ONCE(knob->value);

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
	return 0;
}
fs_initcall(expsync_debugfs_init);

/* === Init === */

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
