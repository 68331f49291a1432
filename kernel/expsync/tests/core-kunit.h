/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KUnit tests of the expsync front-end: the text of word knobs, boot
 * parameters and the sysctl handler, on a test knob and on the real
 * knobs' word tables.  Every rejected input must leave the knob's value,
 * and the mechanism behind it, unchanged.  Included at the end of
 * kernel/expsync/core.c, whose static helpers it tests.
 */
#ifdef CONFIG_EXPSYNC_KUNIT_TEST

#include <kunit/static_stub.h>
#include <kunit/test.h>

enum { TEST_ALPHA, TEST_BETA, TEST_GAMMA, NR_TEST_WORDS };
static const char * const test_words[] = {
	[TEST_ALPHA]	= "alpha",
	[TEST_BETA]	= "beta",
	[TEST_GAMMA]	= "gamma",
};

static_assert(ARRAY_SIZE(test_words) == NR_TEST_WORDS);

/* The fake mechanism: records what it applied, refuses gamma on demand. */
static unsigned int test_applied, test_apply_calls;
static bool test_refuse_gamma;

static const char *test_refuses(unsigned int val)
{
	return val == TEST_GAMMA && test_refuse_gamma ? "the test refuses it" : NULL;
}

static int test_apply(unsigned int val)
{
	test_apply_calls++;
	test_applied = val;
	return 0;
}

static struct expsync_word test_word = {
	.words		= test_words,
	.nr_words	= NR_TEST_WORDS,
	.def		= TEST_ALPHA,
	.refuses	= test_refuses,
	.apply		= test_apply,
};

static struct expsync_knob test_knob = EXPSYNC_WORD_KNOB("test", &test_word);

/*
 * The tests' writes are counted here, not in the stats file, which
 * shows what admins did: expsync_count_policy() is a static stub.
 */
static long test_policy_count[NR_EXPSYNC_STATS];

static void test_count_policy(enum expsync_stat stat)
{
	test_policy_count[stat]++;
}

static int expsync_test_init(struct kunit *test)
{
	/* Deactivated by KUnit when the test ends. */
	kunit_activate_static_stub(test, expsync_count_policy, test_count_policy);
	memset(test_policy_count, 0, sizeof(test_policy_count));
	test_word.value = TEST_ALPHA;
	test_applied = TEST_ALPHA;
	test_apply_calls = 0;
	test_refuse_gamma = false;
	return 0;
}

static bool test_valid(struct expsync_knob *knob, const char *text)
{
	guard(mutex)(&expsync_policy_mutex);
	return knob->ops->valid(knob, text);
}

static int test_write(const char *text)
{
	guard(mutex)(&expsync_policy_mutex);
	return expsync_knob_write(&test_knob, text, "kunit");
}

static int test_boot(const char *val)
{
	guard(mutex)(&expsync_policy_mutex);
	return expsync_knob_boot(&test_knob, val);
}

static void expsync_test_parse_words(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < NR_TEST_WORDS; i++)
		KUNIT_EXPECT_TRUE(test, test_valid(&test_knob, test_words[i]));
}

/* Not values, as the ops see them (sysctl strips one newline first). */
static const char * const bad_words[] = {
	"", "\n", "alph", "alphax", "alpha ", " alpha", "Alpha", "alpha\n",
	"alpha\nbeta", "1", "-1", "alpha,beta",
	"alphaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
};

static void expsync_test_parse_rejects(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad_words); i++)
		KUNIT_EXPECT_FALSE_MSG(test, test_valid(&test_knob, bad_words[i]),
				       "word \"%s\"", bad_words[i]);
}

static void expsync_test_set(struct kunit *test)
{
	long rejected = expsync_stat_read(EXPSYNC_STAT_POLICY_REJECTED);
	long changes = expsync_stat_read(EXPSYNC_STAT_POLICY_CHANGES);

	KUNIT_EXPECT_EQ(test, test_write("beta"), 0);
	KUNIT_EXPECT_EQ(test, test_word.value, TEST_BETA);
	KUNIT_EXPECT_EQ(test, test_applied, TEST_BETA);

	/* Refused by the mechanism: never applied, value unchanged. */
	test_refuse_gamma = true;
	test_apply_calls = 0;
	KUNIT_EXPECT_EQ(test, test_write("gamma"), -EINVAL);
	KUNIT_EXPECT_EQ(test, test_apply_calls, 0);
	KUNIT_EXPECT_EQ(test, test_word.value, TEST_BETA);
	KUNIT_EXPECT_EQ(test, test_applied, TEST_BETA);

	/* Not a value: never reaches the mechanism. */
	test_apply_calls = 0;
	KUNIT_EXPECT_EQ(test, test_write("delta"), -EINVAL);
	KUNIT_EXPECT_EQ(test, test_apply_calls, 0);
	KUNIT_EXPECT_EQ(test, test_word.value, TEST_BETA);

	/* One change, two refusals, counted by the stub and not in the stats file. */
	KUNIT_EXPECT_EQ(test, test_policy_count[EXPSYNC_STAT_POLICY_CHANGES], 1);
	KUNIT_EXPECT_EQ(test, test_policy_count[EXPSYNC_STAT_POLICY_REJECTED], 2);
	KUNIT_EXPECT_EQ(test, expsync_stat_read(EXPSYNC_STAT_POLICY_CHANGES), changes);
	KUNIT_EXPECT_EQ(test, expsync_stat_read(EXPSYNC_STAT_POLICY_REJECTED), rejected);
}

static void expsync_test_boot(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, test_boot("gamma"), 0);
	KUNIT_EXPECT_EQ(test, test_word.value, TEST_GAMMA);
	KUNIT_EXPECT_EQ(test, test_applied, TEST_GAMMA);

	/* Not values: the mechanism only ever sees the default. */
	test_apply_calls = 0;
	KUNIT_EXPECT_EQ(test, test_boot("gammax"), -EINVAL);
	KUNIT_EXPECT_EQ(test, test_boot(""), -EINVAL);
	/* "expsync.test" without '=' */
	KUNIT_EXPECT_EQ(test, test_boot(NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, test_apply_calls, 3);
	KUNIT_EXPECT_EQ(test, test_word.value, TEST_ALPHA);
	KUNIT_EXPECT_EQ(test, test_applied, TEST_ALPHA);

	/* Refused: the default is applied instead. */
	test_refuse_gamma = true;
	test_word.value = TEST_BETA;
	KUNIT_EXPECT_EQ(test, test_boot("gamma"), -EINVAL);
	KUNIT_EXPECT_EQ(test, test_word.value, TEST_ALPHA);
}

static int sysctl_write(const char *text, size_t len)
{
	struct ctl_table table = {
		.procname = "test", .data = &test_knob, .mode = 0644,
		.proc_handler = expsync_sysctl,
	};
	char buf[128];
	loff_t pos = 0;
	int ret;

	memcpy(buf, text, len);
	buf[len] = '\0';
	ret = expsync_sysctl(&table, 1, buf, &len, &pos);
	return ret ?: (int)pos;
}

/* What sysctl refuses on top of bad_words: the newline is stripped once. */
static const char * const bad_sysctl_words[] = {
	"alpha\n\n", "\n\n", "beta\n\n",
};

static void expsync_test_sysctl(struct kunit *test)
{
	struct ctl_table table = {
		.procname = "test", .data = &test_knob, .mode = 0644,
		.proc_handler = expsync_sysctl,
	};
	char buf[32] = "";
	size_t len = sizeof(buf);
	loff_t pos = 0;
	unsigned int i;

	KUNIT_EXPECT_EQ(test, sysctl_write("beta\n", 5), 5);
	KUNIT_EXPECT_EQ(test, test_word.value, TEST_BETA);
	KUNIT_EXPECT_EQ(test, sysctl_write("gamma", 5), 5);
	KUNIT_EXPECT_EQ(test, sysctl_write("beta", 4), 4);

	KUNIT_EXPECT_EQ(test, expsync_sysctl(&table, 0, buf, &len, &pos), 0);
	KUNIT_EXPECT_STREQ(test, buf, "beta\n");

	for (i = 0; i < ARRAY_SIZE(bad_words) + ARRAY_SIZE(bad_sysctl_words); i++) {
		const char *w = i < ARRAY_SIZE(bad_words) ? bad_words[i] :
				bad_sysctl_words[i - ARRAY_SIZE(bad_words)];

		/* "alpha\n" is "alpha" with echo's newline: a value here. */
		if (!strcmp(w, "alpha\n"))
			continue;
		KUNIT_EXPECT_EQ_MSG(test, sysctl_write(w, strlen(w)), -EINVAL,
				    "word \"%s\"", w);
		KUNIT_EXPECT_EQ(test, test_word.value, TEST_BETA);
		KUNIT_EXPECT_EQ(test, test_applied, TEST_BETA);
	}
	/* An embedded NUL must not turn "alpha\0junk" into "alpha". */
	KUNIT_EXPECT_EQ(test, sysctl_write("alpha\0junk", 10), -EINVAL);

	test_refuse_gamma = true;
	KUNIT_EXPECT_EQ(test, sysctl_write("gamma", 5), -EINVAL);
	KUNIT_EXPECT_EQ(test, test_word.value, TEST_BETA);
}

/* A cpulist knob over a private mask; its mechanism takes any set. */
static struct cpumask test_mask;

static void test_cpus_def(struct cpumask *mask)
{
	cpumask_clear(mask);
}

/* 0, or the error the mechanism returns on demand. */
static int test_cpus_err;

static int test_cpus_apply(const struct cpumask *mask)
{
	return test_cpus_err;
}

static struct expsync_cpulist test_cpulist = {
	.def	= test_cpus_def,
	.apply	= test_cpus_apply,
	.mask	= &test_mask,
};

static struct expsync_knob test_cpus_knob = EXPSYNC_CPULIST_KNOB("test_cpus", &test_cpulist);

/* Lists round-trip, "" is the empty set, and bad lists change nothing. */
static void expsync_test_cpulist(struct kunit *test)
{
	char buf[16], beyond[16];
	const char * const bad[] = { " 0", "0 ", "x", "-1", "0-", "\n", beyond };
	unsigned int i;

	snprintf(beyond, sizeof(beyond), "%u", nr_cpu_ids);
	guard(mutex)(&expsync_policy_mutex);
	KUNIT_EXPECT_EQ(test, expsync_knob_write(&test_cpus_knob, "0", "kunit"), 0);
	test_cpus_knob.ops->get(&test_cpus_knob, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "0");
	KUNIT_EXPECT_EQ(test, expsync_knob_write(&test_cpus_knob, "", "kunit"), 0);
	test_cpus_knob.ops->get(&test_cpus_knob, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "");
	KUNIT_EXPECT_TRUE(test, cpumask_empty(&test_mask));
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		KUNIT_EXPECT_EQ_MSG(test, expsync_knob_write(&test_cpus_knob, bad[i], "kunit"),
				    -EINVAL, "list \"%s\"", bad[i]);
		KUNIT_EXPECT_TRUE(test, cpumask_empty(&test_mask));
	}
}

static void test_cpus_def_all(struct cpumask *mask)
{
	cpumask_copy(mask, cpu_possible_mask);
}

/*
 * Should the text buffers not grow (expsync_size_texts()), a default
 * list longer than the limit becomes the empty set.  The limit is played
 * by shrinking it to 0 characters; nothing else reads it during a test.
 */
static void expsync_test_cpulist_default_too_long(struct kunit *test)
{
	size_t size = expsync_text_size;

	guard(mutex)(&expsync_policy_mutex);
	test_cpulist.def = test_cpus_def_all;
	expsync_text_size = 2;
	KUNIT_EXPECT_EQ(test, test_cpus_knob.ops->reset(&test_cpus_knob), 0);
	expsync_text_size = size;
	KUNIT_EXPECT_TRUE(test, cpumask_empty(&test_mask));
	/* With the limit back, the same default is kept whole. */
	KUNIT_EXPECT_EQ(test, test_cpus_knob.ops->reset(&test_cpus_knob), 0);
	KUNIT_EXPECT_TRUE(test, cpumask_equal(&test_mask, cpu_possible_mask));
	test_cpulist.def = test_cpus_def;
	cpumask_clear(&test_mask);
}

/*
 * Any set of n CPUs prints within expsync_cpulist_bound(n): the worst
 * patterns (every other CPU, pairs "a-b," with a gap, all, the last
 * alone) for small and huge n; and the texts hold a list of every
 * possible CPU number, so that each value reads back whole.
 */
static void expsync_test_cpulist_bound(struct kunit *test)
{
	static const unsigned int sizes[] = { 1, 2, 8, 10, 11, 100, 101, 1000, 4096, 8192 };
	unsigned int i, b, p;

	KUNIT_EXPECT_GE(test, expsync_text_max(), expsync_cpulist_bound(nr_cpu_ids));
	KUNIT_EXPECT_GE(test, expsync_text_max(), (size_t)EXPSYNC_TEXT_MAX);
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		unsigned int n = sizes[i];
		unsigned long *bits = bitmap_zalloc(n, GFP_KERNEL);

		KUNIT_ASSERT_NOT_NULL(test, bits);
		for (p = 0; p < 4; p++) {
			bitmap_zero(bits, n);
			for (b = 0; b < n; b++)
				if ((p == 0 && b % 2 == 0) || (p == 1 && b % 3 != 2) || p == 2)
					__set_bit(b, bits);
			if (p == 3)
				__set_bit(n - 1, bits);
			KUNIT_EXPECT_LE_MSG(test, (size_t)snprintf(NULL, 0, "%*pbl", n, bits),
					    expsync_cpulist_bound(n), "n %u pattern %u", n, p);
		}
		bitmap_free(bits);
	}
}

/* The last expsync_policy_set event of a test knob, as a probe saw it. */
static struct {
	unsigned int events;
	int err;
	char knob[16], source[16];
	char old[EXPSYNC_TRACE_TEXT_MAX + 16], new[EXPSYNC_TRACE_TEXT_MAX + 16];
} test_event;

static void test_policy_set_probe(void *data, const char *knob, const char *old,
				  const char *new, const char *source, int err)
{
	if (strncmp(knob, "test", 4))
		return;
	test_event.events++;
	test_event.err = err;
	strscpy(test_event.knob, knob);
	strscpy(test_event.source, source);
	/* Longer than the cut: the copies end without its "...". */
	strscpy(test_event.old, old);
	strscpy(test_event.new, new);
}

/*
 * The policy_set tracepoint carries the knob, the old and the requested
 * value, the source and the error: a value a knob's mechanism refuses
 * is traced as requested, a text that is no value is not traced, and a
 * long list is cut to EXPSYNC_TRACE_TEXT_MAX characters ending in "...".
 */
static void expsync_test_trace(struct kunit *test)
{
	char list[3 * EXPSYNC_TRACE_TEXT_MAX];
	unsigned int i;

	/* "0,0,...,0": a valid list far longer than the cut. */
	for (i = 0; i + 2 < sizeof(list); i += 2)
		memcpy(list + i, "0,", 2);
	list[i - 1] = '\0';
	if (!IS_ENABLED(CONFIG_TRACEPOINTS))
		kunit_skip(test, "no tracepoints (CONFIG_TRACEPOINTS=n)");
	memset(&test_event, 0, sizeof(test_event));
	KUNIT_ASSERT_EQ(test, register_trace_expsync_policy_set(test_policy_set_probe, NULL), 0);

	KUNIT_EXPECT_EQ(test, test_write("beta"), 0);
	KUNIT_EXPECT_EQ(test, test_event.events, 1);
	KUNIT_EXPECT_STREQ(test, test_event.knob, "test");
	KUNIT_EXPECT_STREQ(test, test_event.old, "alpha");
	KUNIT_EXPECT_STREQ(test, test_event.new, "beta");
	KUNIT_EXPECT_STREQ(test, test_event.source, "kunit");
	KUNIT_EXPECT_EQ(test, test_event.err, 0);

	test_refuse_gamma = true;
	KUNIT_EXPECT_EQ(test, test_write("gamma"), -EINVAL);
	KUNIT_EXPECT_EQ(test, test_event.events, 2);
	KUNIT_EXPECT_STREQ(test, test_event.old, "beta");
	KUNIT_EXPECT_STREQ(test, test_event.new, "gamma");
	KUNIT_EXPECT_EQ(test, test_event.err, -EINVAL);

	KUNIT_EXPECT_EQ(test, test_write("delta"), -EINVAL);
	KUNIT_EXPECT_EQ(test, test_event.events, 2);

	scoped_guard(mutex, &expsync_policy_mutex) {
		test_cpus_err = -EBUSY;
		KUNIT_EXPECT_EQ(test, expsync_knob_write(&test_cpus_knob, list, "kunit"), -EBUSY);
		test_cpus_err = 0;
	}
	KUNIT_EXPECT_EQ(test, test_event.events, 3);
	KUNIT_EXPECT_STREQ(test, test_event.knob, "test_cpus");
	KUNIT_EXPECT_EQ(test, test_event.err, -EBUSY);
	KUNIT_EXPECT_EQ(test, strlen(test_event.new), (size_t)EXPSYNC_TRACE_TEXT_MAX);
	KUNIT_EXPECT_STREQ(test, test_event.new + EXPSYNC_TRACE_TEXT_MAX - 3, "...");
	KUNIT_EXPECT_EQ(test, strncmp(test_event.new, list, EXPSYNC_TRACE_TEXT_MAX - 3), 0);

	unregister_trace_expsync_policy_set(test_policy_set_probe, NULL);
	/* No probe may still run when the next test resets test_event. */
	tracepoint_synchronize_unregister();
}

/* The registered word knobs, one test case each. */
static const void *expsync_word_knob_gen(const void *prev, char *desc)
{
	const struct expsync_knob *knob = prev;

	guard(mutex)(&expsync_policy_mutex);
	knob = list_prepare_entry(knob, &expsync_knobs, node);
	list_for_each_entry_continue(knob, &expsync_knobs, node) {
		if (knob->ops != &expsync_word_ops)
			continue;
		strscpy(desc, knob->name, KUNIT_PARAM_DESC_SIZE);
		return knob;
	}
	return NULL;
}

/*
 * Each word of a real table is a value, and nothing near it is: no
 * prefix, no extension, no other case, no blank.  Word 0, the fallback,
 * is one the system takes.
 */
static void expsync_test_real_words(struct kunit *test)
{
	struct expsync_knob *knob = (struct expsync_knob *)test->param_value;
	const struct expsync_word *w = knob->word;
	char near[64];
	unsigned int i;
	size_t len;

	KUNIT_EXPECT_GE(test, w->nr_words, 2);
	/* Word 0 is the fallback when the default is refused. */
	KUNIT_EXPECT_NULL(test, expsync_word_refused(knob, 0));
	for (i = 0; i < w->nr_words; i++) {
		const char *word = w->words[i];

		len = strlen(word);
		/* Room for the longest variant below, " word" or "wordx". */
		KUNIT_ASSERT_LT(test, len + 2, sizeof(near));
		KUNIT_EXPECT_TRUE_MSG(test, test_valid(knob, word), "%s", word);
		KUNIT_EXPECT_GT(test, len, 1);
		strscpy(near, word, len);			/* a prefix */
		KUNIT_EXPECT_FALSE_MSG(test, test_valid(knob, near), "%s", near);
		scnprintf(near, sizeof(near), "%sx", word);
		KUNIT_EXPECT_FALSE_MSG(test, test_valid(knob, near), "%s", near);
		scnprintf(near, sizeof(near), " %s", word);
		KUNIT_EXPECT_FALSE_MSG(test, test_valid(knob, near), "%s", near);
		strscpy(near, word, sizeof(near));
		near[0] = toupper(near[0]);
		KUNIT_EXPECT_FALSE_MSG(test, test_valid(knob, near), "%s", near);
	}
	KUNIT_EXPECT_FALSE(test, test_valid(knob, ""));
}

static struct kunit_case expsync_core_cases[] = {
	KUNIT_CASE(expsync_test_parse_words),
	KUNIT_CASE(expsync_test_parse_rejects),
	KUNIT_CASE(expsync_test_set),
	KUNIT_CASE(expsync_test_boot),
	KUNIT_CASE(expsync_test_sysctl),
	KUNIT_CASE(expsync_test_cpulist),
	KUNIT_CASE(expsync_test_cpulist_default_too_long),
	KUNIT_CASE(expsync_test_cpulist_bound),
	KUNIT_CASE(expsync_test_trace),
	KUNIT_CASE_PARAM(expsync_test_real_words, expsync_word_knob_gen),
	{}
};

static struct kunit_suite expsync_core_suite = {
	.name = "expsync_core",
	.init = expsync_test_init,
	.test_cases = expsync_core_cases,
};

kunit_test_suite(expsync_core_suite);

#endif /* CONFIG_EXPSYNC_KUNIT_TEST */
