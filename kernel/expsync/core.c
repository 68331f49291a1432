// SPDX-License-Identifier: GPL-2.0
/*
 * expsync front-end: the knobs' text, the boot command line, sysctl, the
 * counters and the tracepoints.
 *
 * Subsystems own their knobs (include/linux/expsync_knob.h) and register
 * them from an initcall.  The front-end is the only writer of a knob's
 * value: a boot parameter is recorded by the command-line parser and
 * applied when its knob registers; a sysctl write is applied at once.
 * Either way the text goes through the knob type's ops under
 * expsync_policy_mutex, and text that is not a value, or a value the
 * subsystem refuses, changes nothing.
 */

#define pr_fmt(fmt) "expsync: " fmt

#include <kunit/static_stub.h>
#include <linux/capability.h>
#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/init.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/sysctl.h>

#define CREATE_TRACE_POINTS
#include <trace/events/expsync.h>

#include "internal.h"

/* Serializes every knob change and every call of a knob's ops. */
DEFINE_MUTEX(expsync_policy_mutex);

/* The registered knobs, in registration order; under the mutex. */
static LIST_HEAD(expsync_knobs);

static const char * const expsync_stat_names[] = {
	EXPSYNC_STATS(EXPSYNC_WORD, EXPSYNC_WORD)
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
 * expsync_count_policy() - count a knob write in the policy counters
 * @stat: EXPSYNC_STAT_POLICY_CHANGES or EXPSYNC_STAT_POLICY_REJECTED
 *
 * The KUnit tests replace it (a static stub), so that their writes are
 * counted by the tests and not in the stats file, which shows what
 * admins and the boot command line did.
 */
static void expsync_count_policy(enum expsync_stat stat)
{
	KUNIT_STATIC_STUB_REDIRECT(expsync_count_policy, stat);
	expsync_count(stat, 1);
}

/* === Knob types === */

/*
 * Scratch space of the ops and the sysctl handler, under
 * expsync_policy_mutex.  The texts hold EXPSYNC_TEXT_MAX characters, or
 * more once expsync_size_texts() found that a list of nr_cpu_ids CPUs
 * may need it: every value, and every CPU list, reads back whole.
 */
static struct cpumask expsync_scratch_mask;
static char expsync_texts[3][EXPSYNC_TEXT_MAX + 2];
static char *expsync_old_text = expsync_texts[0];
static char *expsync_new_text = expsync_texts[1];
static char *expsync_sysctl_text = expsync_texts[2];
/* Bytes in each text buffer, newline and NUL included. */
static size_t expsync_text_size = EXPSYNC_TEXT_MAX + 2;

/*
 * Taken around each change of a CPU list knob's mask (under the mutex
 * too) and around a sysctl read's get(), which does not take the mutex:
 * a read never waits behind vm.stat_refresh, which holds the mutex for
 * up to a second, and never sees a mask half copied.
 */
static DEFINE_SPINLOCK(expsync_value_lock);

/**
 * expsync_cpulist_bound() - longest "%*pbl" text of a set of @n CPUs
 * @n: how many CPU numbers there are (0 .. @n - 1)
 *
 * Each CPU is printed at most once, as a number of at most as many
 * digits as @n - 1, followed by one separator ("," or "-"; none after
 * the last).
 *
 * Return: an upper bound on the length, NUL not counted.
 */
static size_t expsync_cpulist_bound(unsigned int n)
{
	unsigned int digits = 1, top = n ? n - 1 : 0;

	while (top >= 10) {
		top /= 10;
		digits++;
	}
	return (size_t)n * (digits + 1);
}

/*
 * Once, before the first knob registers (slab is up, nr_cpu_ids is
 * final): grow the text buffers so that any list of nr_cpu_ids CPUs
 * fits.  With up to 1000 CPUs the static ones are enough.
 */
static void __init expsync_size_texts(void)
{
	size_t need = expsync_cpulist_bound(nr_cpu_ids) + 2;
	char *buf;

	if (need <= expsync_text_size)
		return;
	buf = kcalloc(3, need, GFP_KERNEL);
	if (!buf) {
		pr_warn("no memory for CPU lists longer than %d characters\n",
			EXPSYNC_TEXT_MAX);
		return;
	}
	/* No knob is registered yet: nothing reads the old buffers. */
	expsync_old_text = buf;
	expsync_new_text = buf + need;
	expsync_sysctl_text = buf + 2 * need;
	expsync_text_size = need;
}

/* The longest value a write may give, without the trailing newline. */
static size_t expsync_text_max(void)
{
	return expsync_text_size - 2;
}

/* A word knob's value: exactly one word of its table, case and all. */
static int expsync_word_index(const struct expsync_knob *knob, const char *text)
{
	return match_string(knob->word->words, knob->word->nr_words, text);
}

static bool expsync_word_valid(const struct expsync_knob *knob, const char *text)
{
	return expsync_word_index(knob, text) >= 0;
}

/* Why this system never takes word @val of @knob, or NULL. */
static const char *expsync_word_refused(const struct expsync_knob *knob,
					unsigned int val)
{
	return knob->word->refuses ? knob->word->refuses(val) : NULL;
}

static int expsync_word_apply(struct expsync_knob *knob, unsigned int val)
{
	const char *why = expsync_word_refused(knob, val);
	int err;

	if (why) {
		pr_warn_ratelimited("%s=%s is refused: %s\n", knob->name,
				    knob->word->words[val], why);
		return -EINVAL;
	}
	err = knob->word->apply(val);

	/* Lockless readers only report the value; see struct expsync_word. */
	if (!err)
		WRITE_ONCE(knob->word->value, val);
	return err;
}

static int expsync_word_set(struct expsync_knob *knob, const char *text)
{
	return expsync_word_apply(knob, expsync_word_index(knob, text));
}

static void expsync_word_get(const struct expsync_knob *knob, char *buf, size_t size)
{
	strscpy(buf, knob->word->words[READ_ONCE(knob->word->value)], size);
}

/* The default, or word 0 (always safe) when the system refuses it. */
static int expsync_word_reset(struct expsync_knob *knob)
{
	const struct expsync_word *w = knob->word;

	if (!expsync_word_apply(knob, w->def))
		return 0;
	pr_warn("%s: default %s is refused on this system; using %s\n",
		knob->name, w->words[w->def], w->words[0]);
	return expsync_word_apply(knob, 0);
}

static void expsync_word_accepted(const struct expsync_knob *knob, char *buf,
				  size_t size)
{
	unsigned int i;

	*buf = '\0';
	for (i = 0; i < knob->word->nr_words; i++)
		scnprintf(buf + strlen(buf), size - strlen(buf), "%s%s",
			  i ? " " : "", knob->word->words[i]);
}

static void expsync_word_show(const struct expsync_knob *knob, struct seq_file *m)
{
	unsigned int i, cur = knob->word->value;

	for (i = 0; i < knob->word->nr_words; i++) {
		const char *word = knob->word->words[i];

		if (i == cur)
			seq_printf(m, " [%s]", word);
		else
			seq_printf(m, " %s%s", expsync_word_refused(knob, i) ? "!" : "", word);
	}
}

/*
 * expsync_word_ops: a knob whose value is one word of a table
 *
 * The value is exactly one of struct expsync_word's words: no prefix, no
 * blanks, no case folding.  Its reset applies the default, or word 0
 * when the system refuses the default.
 */
const struct expsync_knob_ops expsync_word_ops = {
	.valid		= expsync_word_valid,
	.set		= expsync_word_set,
	.get		= expsync_word_get,
	.reset		= expsync_word_reset,
	.accepted	= expsync_word_accepted,
	.show		= expsync_word_show,
};

/*
 * A knob's value must read back whole: "0-4095:1/2" is short, but the
 * canonical form of its set is longer.  It always fits once
 * expsync_size_texts() grew the buffers, the check is for when it could
 * not.
 */
static bool expsync_cpulist_fits(const struct cpumask *mask)
{
	return snprintf(NULL, 0, "%*pbl", cpumask_pr_args(mask)) <= expsync_text_max();
}

/* Parses @text into expsync_scratch_mask: a list of possible CPUs, "" for none. */
static bool expsync_cpulist_valid(const struct expsync_knob *knob, const char *text)
{
	lockdep_assert_held(&expsync_policy_mutex);
	/* cpulist_parse() skips blanks; a list with blanks is not one list. */
	return !strpbrk(text, " \t\n") &&
	       !cpulist_parse(text, &expsync_scratch_mask) &&
	       cpumask_subset(&expsync_scratch_mask, cpu_possible_mask) &&
	       expsync_cpulist_fits(&expsync_scratch_mask);
}

static int expsync_cpulist_apply(struct expsync_knob *knob, const struct cpumask *mask)
{
	int err = knob->cpulist->apply(mask);

	if (!err) {
		guard(spinlock)(&expsync_value_lock);
		cpumask_copy(knob->cpulist->mask, mask);
	}
	return err;
}

static int expsync_cpulist_set(struct expsync_knob *knob, const char *text)
{
	/* valid() just parsed @text into the scratch mask, under the mutex. */
	return expsync_cpulist_apply(knob, &expsync_scratch_mask);
}

static void expsync_cpulist_get(const struct expsync_knob *knob, char *buf, size_t size)
{
	scnprintf(buf, size, "%*pbl", cpumask_pr_args(knob->cpulist->mask));
}

static int expsync_cpulist_reset(struct expsync_knob *knob)
{
	int err;

	knob->cpulist->def(&expsync_scratch_mask);
	if (!expsync_cpulist_fits(&expsync_scratch_mask)) {
		pr_warn("%s: default list is longer than %zu characters; using none\n",
			knob->name, expsync_text_max());
		cpumask_clear(&expsync_scratch_mask);
	}
	err = expsync_cpulist_apply(knob, &expsync_scratch_mask);
	if (err)
		pr_warn("%s: default is refused on this system\n", knob->name);
	return err;
}

static void expsync_cpulist_accepted(const struct expsync_knob *knob, char *buf,
				     size_t size)
{
	scnprintf(buf, size, "a list of possible CPUs (0-%u) such as 1,3-5, or nothing",
		  nr_cpu_ids - 1);
}

static void expsync_cpulist_show(const struct expsync_knob *knob, struct seq_file *m)
{
	seq_printf(m, " <cpulist> [%*pbl]", cpumask_pr_args(knob->cpulist->mask));
}

/*
 * expsync_cpulist_ops: a knob whose value is a list of possible CPUs
 *
 * "1,3-5" as cpulist_parse() reads it, without blanks, naming possible
 * CPUs only; "" is the empty set.  Reads give the list, empty for none.
 */
const struct expsync_knob_ops expsync_cpulist_ops = {
	.valid		= expsync_cpulist_valid,
	.set		= expsync_cpulist_set,
	.get		= expsync_cpulist_get,
	.reset		= expsync_cpulist_reset,
	.accepted	= expsync_cpulist_accepted,
	.show		= expsync_cpulist_show,
};

static bool expsync_trigger_valid(const struct expsync_knob *knob, const char *text)
{
	return !strcmp(text, "1");
}

static int expsync_trigger_set(struct expsync_knob *knob, const char *text)
{
	return knob->trigger();
}

static void expsync_trigger_accepted(const struct expsync_knob *knob, char *buf,
				     size_t size)
{
	strscpy(buf, "1", size);
}

static void expsync_trigger_show(const struct expsync_knob *knob, struct seq_file *m)
{
	seq_puts(m, " <trigger>");
}

/*
 * expsync_trigger_ops: a write-only knob: writing "1" runs an action
 *
 * The write returns when the action is done.  Not readable, and not a
 * boot parameter.
 */
const struct expsync_knob_ops expsync_trigger_ops = {
	.valid		= expsync_trigger_valid,
	.set		= expsync_trigger_set,
	.accepted	= expsync_trigger_accepted,
	.show		= expsync_trigger_show,
};

/* === Setting === */

/*
 * Trace events stay small (ftrace drops events over a buffer page, perf
 * warns over PERF_MAX_TRACE_SIZE): a long CPU list is cut, with "...".
 */
#define EXPSYNC_TRACE_TEXT_MAX	128

static void expsync_trace_cut(char *text)
{
	if (strlen(text) > EXPSYNC_TRACE_TEXT_MAX)
		memcpy(text + EXPSYNC_TRACE_TEXT_MAX - 3, "...", 4);
}

/**
 * expsync_knob_write() - apply text to a knob
 * @knob: the knob
 * @text: the value, NUL-terminated, without a trailing newline
 * @source: who asks ("boot", "sysctl", "kunit"), for the tracepoint
 *
 * Called with expsync_policy_mutex held.  Text that is not a value of
 * @knob is -EINVAL and never reaches the subsystem; a value the
 * subsystem refuses returns its errno.  Either way nothing changes and
 * policy_rejected counts one.
 *
 * Return: 0 or a negative errno.
 */
int expsync_knob_write(struct expsync_knob *knob, const char *text,
		       const char *source)
{
	const struct expsync_knob_ops *ops = knob->ops;
	int err;

	lockdep_assert_held(&expsync_policy_mutex);
	if (!ops->valid(knob, text)) {
		expsync_count_policy(EXPSYNC_STAT_POLICY_REJECTED);
		return -EINVAL;
	}
	*expsync_old_text = '\0';
	if (ops->get)
		ops->get(knob, expsync_old_text, expsync_text_size);
	err = ops->set(knob, text);
	if (!err && ops->get)
		ops->get(knob, expsync_new_text, expsync_text_size);
	else
		strscpy(expsync_new_text, text, expsync_text_size);
	if (err)
		expsync_count_policy(EXPSYNC_STAT_POLICY_REJECTED);
	else if (ops->get && strcmp(expsync_old_text, expsync_new_text))
		expsync_count_policy(EXPSYNC_STAT_POLICY_CHANGES);
	expsync_trace_cut(expsync_old_text);
	expsync_trace_cut(expsync_new_text);
	trace_expsync_policy_set(knob->name, expsync_old_text, expsync_new_text,
				 source, err);
	return err;
}

/* === Boot parameters === */

/*
 * "expsync.<name>=<value>" as the command-line parser found them, kept
 * until the knob registers (initcalls run after the parser).
 */
#define EXPSYNC_BOOT_ARGS	16

static struct {
	const char *name;
	const char *val;	/* NULL: no '=' */
	bool claimed;
} expsync_boot_args[EXPSYNC_BOOT_ARGS] __initdata;
static unsigned int expsync_nr_boot_args __initdata;

static int __init expsync_boot_param(char *str)
{
	char *val = strchr(str, '=');

	if (val)
		*val++ = '\0';
	if (expsync_nr_boot_args == EXPSYNC_BOOT_ARGS) {
		pr_warn("more than %d expsync.* boot parameters; expsync.%s ignored\n",
			EXPSYNC_BOOT_ARGS, str);
		return 1;
	}
	expsync_boot_args[expsync_nr_boot_args].name = str;
	expsync_boot_args[expsync_nr_boot_args].val = val;
	expsync_nr_boot_args++;
	return 1;
}
__setup("expsync.", expsync_boot_param);

/**
 * expsync_knob_boot() - apply a knob's boot parameter, or else its default
 * @knob: the knob
 * @val: the text after '=', or NULL when there was no '='
 *
 * Called with expsync_policy_mutex held, when the knob registers.  A bad
 * or refused value is reported with the accepted values and the value
 * kept instead, which is the default (or what the default falls back
 * to, see expsync_word_ops).
 *
 * Return: 0 when @val was applied, else a negative errno.
 */
int expsync_knob_boot(struct expsync_knob *knob, const char *val)
{
	const struct expsync_knob_ops *ops = knob->ops;
	char accepted[80];
	bool valid;
	int err;

	if (!ops->get) {
		pr_warn("expsync.%s is a run-time trigger, not a boot parameter; ignored\n",
			knob->name);
		expsync_count_policy(EXPSYNC_STAT_POLICY_REJECTED);
		return -EINVAL;
	}
	/* "expsync.<name>" without '=' sets nothing, not even "". */
	valid = val && strlen(val) <= expsync_text_max() && ops->valid(knob, val);
	if (valid) {
		err = expsync_knob_write(knob, val, "boot");
		if (!err)
			return 0;
	} else {
		err = -EINVAL;
		expsync_count_policy(EXPSYNC_STAT_POLICY_REJECTED);
	}
	if (ops->reset)
		ops->reset(knob);
	/* Not a small buffer: the value kept may be a long CPU list. */
	ops->get(knob, expsync_old_text, expsync_text_size);
	if (!valid) {
		ops->accepted(knob, accepted, sizeof(accepted));
		pr_warn("expsync.%s=%s is not valid; accepted: %s; keeping %s\n",
			knob->name, val ?: "", accepted,
			*expsync_old_text ? expsync_old_text : "(empty)");
	} else {
		pr_warn("expsync.%s=%s is refused on this system (%d); keeping %s\n",
			knob->name, val, err, *expsync_old_text ? expsync_old_text : "(empty)");
	}
	return err;
}

/* No knob claimed these: report them once every knob had its chance. */
static int __init expsync_boot_unclaimed(void)
{
	unsigned int i;

	for (i = 0; i < expsync_nr_boot_args; i++)
		if (!expsync_boot_args[i].claimed)
			pr_warn("unknown boot parameter expsync.%s, ignored\n",
				expsync_boot_args[i].name);
	return 0;
}
late_initcall(expsync_boot_unclaimed);

/* === sysctl === */

/**
 * expsync_sysctl() - proc handler of every knob
 * @table: the sysctl entry; @table->data is the struct expsync_knob
 * @write: true for a write
 * @buffer: kernel buffer holding the text written, or receiving the read
 * @lenp: in: the buffer's length; out: bytes consumed or produced
 * @ppos: file position
 *
 * A read gives the current value and a newline.  A write must be one
 * whole value, optionally followed by one newline (what "echo" writes),
 * in a single write() at offset 0; anything else is -EINVAL with the
 * value unchanged.  Writers need CAP_SYS_ADMIN on top of the file mode,
 * as proc_do_static_key() does.
 *
 * Return: 0 or a negative errno.
 */
int expsync_sysctl(const struct ctl_table *table, int write, void *buffer,
		   size_t *lenp, loff_t *ppos)
{
	struct expsync_knob *knob = table->data;
	char *text = expsync_sysctl_text;
	struct ctl_table tmp;
	size_t len = *lenp;
	int err;

	if (!write) {
		if (!knob->ops->get)
			return -EINVAL;
		/* Not the shared buffer: that is the mutex's. */
		text = kmalloc(expsync_text_size, GFP_KERNEL);
		if (!text)
			return -ENOMEM;
		scoped_guard(spinlock, &expsync_value_lock)
			knob->ops->get(knob, text, expsync_text_size);
		tmp = *table;
		tmp.data = text;
		tmp.maxlen = expsync_text_size;
		err = proc_dostring(&tmp, 0, buffer, lenp, ppos);
		kfree(text);
		return err;
	}
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	/*
	 * A continued write (non-zero offset) is as bad as a bad value.  The
	 * limit is on the value, after echo's newline is stripped.
	 */
	if (*ppos || !len || len - (((char *)buffer)[len - 1] == '\n') > expsync_text_max())
		goto rejected;
	/* A NUL inside the buffer would make a prefix look like a value. */
	if (memchr(buffer, '\0', len))
		goto rejected;
	scoped_guard(mutex, &expsync_policy_mutex) {
		memcpy(text, buffer, len);
		text[len] = '\0';
		if (text[len - 1] == '\n')
			text[len - 1] = '\0';
		err = expsync_knob_write(knob, text, "sysctl");
	}
	if (!err)
		*ppos += len;
	return err;
rejected:
	expsync_count_policy(EXPSYNC_STAT_POLICY_REJECTED);
	return -EINVAL;
}

/**
 * expsync_call_locked() - run a mechanism's function as its knobs run
 * @fn: the function, typically a trigger's
 *
 * For a mechanism's own entry points outside kernel.expsync (such as
 * vm.stat_refresh) that need its knobs' state to stay put: @fn runs
 * with expsync_policy_mutex held, as the knobs' callbacks do.
 *
 * Return: what @fn returned, or -EINTR on a fatal signal while waiting
 * for the mutex.
 */
int expsync_call_locked(int (*fn)(void))
{
	int err;

	if (mutex_lock_killable(&expsync_policy_mutex))
		return -EINTR;
	err = fn();
	mutex_unlock(&expsync_policy_mutex);
	return err;
}

/* === Registration === */

/**
 * expsync_register_knobs() - offer knobs as boot parameters and sysctls
 * @knobs: the knobs, applied in this order
 * @nr: how many
 *
 * Called by the subsystem that owns @knobs, from an initcall, once its
 * mechanism can judge values.  Applies each knob's "expsync.<name>="
 * boot parameter if one was given and is taken, else its default, and
 * opens kernel.expsync.<name> (mode 0644, 0200 for a trigger).
 */
void __init expsync_register_knobs(struct expsync_knob *knobs, unsigned int nr)
{
	struct ctl_table *table;
	unsigned int i, a;

	scoped_guard(mutex, &expsync_policy_mutex) {
		if (list_empty(&expsync_knobs))
			expsync_size_texts();
	}
	table = kcalloc(nr, sizeof(*table), GFP_KERNEL);
	for (i = 0; i < nr; i++) {
		struct expsync_knob *knob = &knobs[i];
		const char *boot = NULL;
		bool given = false;

		/*
		 * The last of repeated parameters wins, and '-' matches '_',
		 * as for kernel_param.
		 */
		for (a = 0; a < expsync_nr_boot_args; a++) {
			if (!parameq(expsync_boot_args[a].name, knob->name))
				continue;
			expsync_boot_args[a].claimed = true;
			boot = expsync_boot_args[a].val;
			given = true;
		}
		/*
		 * The boot value if one is given and taken, else the default
		 * (which falls back further when the system refuses it).
		 */
		scoped_guard(mutex, &expsync_policy_mutex) {
			if (given)
				expsync_knob_boot(knob, boot);
			else if (knob->ops->reset)
				knob->ops->reset(knob);
			list_add_tail(&knob->node, &expsync_knobs);
		}
		if (table)
			table[i] = (struct ctl_table) {
				.procname	= knob->name,
				.data		= knob,
				.mode		= knob->ops->get ? 0644 : 0200,
				.proc_handler	= expsync_sysctl,
			};
	}
	if (table)
		__register_sysctl_init("kernel/expsync", table, knobs[0].name, nr);
	else
		pr_err("no memory for the sysctls of %s and %u more\n",
		       knobs[0].name, nr - 1);
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
	struct expsync_knob *knob;

	guard(mutex)(&expsync_policy_mutex);
	list_for_each_entry(knob, &expsync_knobs, node) {
		seq_printf(m, "%s:", knob->name);
		knob->ops->show(knob, m);
		seq_putc(m, '\n');
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(expsync_knobs);

static struct dentry *expsync_debugfs_dir;

/**
 * expsync_debugfs() - the /sys/kernel/debug/expsync directory
 *
 * Created on first use, so that subsystems can add their files from any
 * initcall after debugfs itself (core_initcall); called from initcalls
 * only, which run one at a time.
 *
 * Return: the directory (an error pointer if debugfs is off).
 */
struct dentry *expsync_debugfs(void)
{
	if (!expsync_debugfs_dir)
		expsync_debugfs_dir = debugfs_create_dir("expsync", NULL);
	return expsync_debugfs_dir;
}

static int __init expsync_debugfs_init(void)
{
	debugfs_create_file("stats", 0444, expsync_debugfs(), NULL, &expsync_stats_fops);
	debugfs_create_file("knobs", 0444, expsync_debugfs(), NULL, &expsync_knobs_fops);
	return 0;
}
fs_initcall(expsync_debugfs_init);

#include "tests/core-kunit.h"
