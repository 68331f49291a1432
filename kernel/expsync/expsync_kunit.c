// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the expsync policy core: word parsing, boot parameters
 * and the sysctl handler.  Every rejected input must leave the knob's
 * value, and the mechanism behind it, unchanged.
 */

#include <kunit/test.h>
#include <linux/expsync.h>
#include <linux/sysctl.h>
#include <asm/tlb.h>

#include "internal.h"

enum { TEST_ALPHA, TEST_BETA, TEST_GAMMA, NR_TEST_WORDS };
static const char * const test_words[] = {
	[TEST_ALPHA]	= "alpha",
	[TEST_BETA]	= "beta",
	[TEST_GAMMA]	= "gamma",
};

static_assert(ARRAY_SIZE(test_words) == NR_TEST_WORDS);

/* The fake mechanism: records what it applied, refuses gamma on demand. */
static unsigned int test_applied;
static bool test_refuse_gamma;

static int test_apply(struct expsync_knob *knob, unsigned int val)
{
	if (val == TEST_GAMMA && test_refuse_gamma)
		return -EINVAL;
	test_applied = val;
	return 0;
}

static struct expsync_knob test_knob =
	EXPSYNC_KNOB_INIT("test", test_words, NR_TEST_WORDS, TEST_ALPHA, test_apply);

static int expsync_test_init(struct kunit *test)
{
	test_knob.value = TEST_ALPHA;
	test_knob.boot_value = -1;
	test_applied = TEST_ALPHA;
	test_refuse_gamma = false;
	return 0;
}

static void expsync_test_parse_words(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < NR_TEST_WORDS; i++) {
		const char *w = test_words[i];
		char nl[16];

		KUNIT_EXPECT_EQ(test, expsync_parse_word(&test_knob, w, strlen(w)), i);
		snprintf(nl, sizeof(nl), "%s\n", w);
		KUNIT_EXPECT_EQ(test, expsync_parse_word(&test_knob, nl, strlen(nl)), i);
	}
}

static const char * const bad_words[] = {
	"", "\n", "alph", "alphax", "alpha ", " alpha", "Alpha", "alpha\n\n",
	"alpha\nbeta", "1", "-1", "alpha,beta",
	"alphaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
};

static void expsync_test_parse_rejects(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad_words); i++)
		KUNIT_EXPECT_EQ_MSG(test, expsync_parse_word(&test_knob, bad_words[i],
							     strlen(bad_words[i])),
				    -EINVAL, "word \"%s\"", bad_words[i]);
	/* An embedded NUL must not turn "alpha\0junk" into "alpha". */
	KUNIT_EXPECT_EQ(test, expsync_parse_word(&test_knob, "alpha\0junk", 10),
			-EINVAL);
}

static void expsync_test_set(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, expsync_knob_set(&test_knob, TEST_BETA, "kunit"), 0);
	KUNIT_EXPECT_EQ(test, test_knob.value, TEST_BETA);
	KUNIT_EXPECT_EQ(test, test_applied, TEST_BETA);

	/* Refused by the mechanism: value and mechanism unchanged. */
	test_refuse_gamma = true;
	KUNIT_EXPECT_EQ(test, expsync_knob_set(&test_knob, TEST_GAMMA, "kunit"),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, test_knob.value, TEST_BETA);
	KUNIT_EXPECT_EQ(test, test_applied, TEST_BETA);

	/* Out of range: never reaches the mechanism. */
	KUNIT_EXPECT_EQ(test, expsync_knob_set(&test_knob, NR_TEST_WORDS, "kunit"),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, test_knob.value, TEST_BETA);
}

static void expsync_test_boot(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, expsync_boot_parse(&test_knob, "gamma"));
	KUNIT_EXPECT_EQ(test, test_knob.boot_value, TEST_GAMMA);
	/* Recorded only: applying is expsync_init()'s job. */
	KUNIT_EXPECT_EQ(test, test_knob.value, TEST_ALPHA);

	test_knob.boot_value = -1;
	KUNIT_EXPECT_FALSE(test, expsync_boot_parse(&test_knob, "gammax"));
	KUNIT_EXPECT_FALSE(test, expsync_boot_parse(&test_knob, ""));
	KUNIT_EXPECT_FALSE(test, expsync_boot_parse(&test_knob, NULL));
	KUNIT_EXPECT_EQ(test, test_knob.boot_value, -1);
	KUNIT_EXPECT_EQ(test, test_knob.value, TEST_ALPHA);
}

static int sysctl_write(const char *text, size_t len)
{
	struct ctl_table table = {
		.procname = "test", .data = &test_knob, .mode = 0644,
		.proc_handler = expsync_sysctl_word,
	};
	char buf[128];
	loff_t pos = 0;
	int ret;

	memcpy(buf, text, len);
	buf[len] = '\0';
	ret = expsync_sysctl_word(&table, 1, buf, &len, &pos);
	return ret ?: (int)pos;
}

static void expsync_test_sysctl(struct kunit *test)
{
	struct ctl_table table = {
		.procname = "test", .data = &test_knob, .mode = 0644,
		.proc_handler = expsync_sysctl_word,
	};
	char buf[32] = "";
	size_t len = sizeof(buf);
	loff_t pos = 0;
	unsigned int i;

	KUNIT_EXPECT_EQ(test, sysctl_write("beta\n", 5), 5);
	KUNIT_EXPECT_EQ(test, test_knob.value, TEST_BETA);

	KUNIT_EXPECT_EQ(test, expsync_sysctl_word(&table, 0, buf, &len, &pos), 0);
	KUNIT_EXPECT_STREQ(test, buf, "beta\n");

	for (i = 0; i < ARRAY_SIZE(bad_words); i++) {
		KUNIT_EXPECT_EQ(test, sysctl_write(bad_words[i], strlen(bad_words[i])),
				-EINVAL);
		KUNIT_EXPECT_EQ(test, test_knob.value, TEST_BETA);
		KUNIT_EXPECT_EQ(test, test_applied, TEST_BETA);
	}

	test_refuse_gamma = true;
	KUNIT_EXPECT_EQ(test, sysctl_write("gamma", 5), -EINVAL);
	KUNIT_EXPECT_EQ(test, test_knob.value, TEST_BETA);
}

static struct kunit_case expsync_core_cases[] = {
	KUNIT_CASE(expsync_test_parse_words),
	KUNIT_CASE(expsync_test_parse_rejects),
	KUNIT_CASE(expsync_test_set),
	KUNIT_CASE(expsync_test_boot),
	KUNIT_CASE(expsync_test_sysctl),
	{}
};

static struct kunit_suite expsync_core_suite = {
	.name = "expsync_core",
	.init = expsync_test_init,
	.test_cases = expsync_core_cases,
};

#ifdef CONFIG_EXPSYNC_VMSTAT
/* Policy transitions on the live system, through the real knobs. */
static void expsync_test_vmstat_transitions(struct kunit *test)
{
	struct expsync_knob *policy = expsync_knob_find("vmstat_drain");
	struct expsync_knob *cpus = expsync_knob_find("vmstat_drain_cpus");
	unsigned int old_policy, cpu, last = cpumask_last(cpu_online_mask);
	cpumask_var_t old_set, set;

	KUNIT_ASSERT_NOT_NULL(test, policy);
	KUNIT_ASSERT_NOT_NULL(test, cpus);
	KUNIT_ASSERT_TRUE(test, alloc_cpumask_var(&old_set, GFP_KERNEL));
	KUNIT_ASSERT_TRUE(test, zalloc_cpumask_var(&set, GFP_KERNEL));
	old_policy = policy->value;
	cpumask_copy(old_set, cpus->mask);

	/* periodic, set {last}: nobody folds on user return. */
	KUNIT_EXPECT_EQ(test, expsync_knob_set(policy, EXPSYNC_VMSTAT_DRAIN_PERIODIC, "kunit"), 0);
	cpumask_set_cpu(last, set);
	KUNIT_EXPECT_EQ(test, expsync_knob_set_mask(cpus, set, "kunit"), 0);
	for_each_possible_cpu(cpu)
		KUNIT_EXPECT_FALSE(test, expsync_vmstat_drain_owns(cpu));

	/* user-return: exactly the CPUs of the set. */
	KUNIT_EXPECT_EQ(test, expsync_knob_set(policy, EXPSYNC_VMSTAT_DRAIN_USER_RETURN,
					       "kunit"), 0);
	for_each_possible_cpu(cpu)
		KUNIT_EXPECT_EQ(test, expsync_vmstat_drain_owns(cpu), cpu == last);

	/* An empty set switches the whole mechanism off. */
	cpumask_clear(set);
	KUNIT_EXPECT_EQ(test, expsync_knob_set_mask(cpus, set, "kunit"), 0);
	KUNIT_EXPECT_FALSE(test, static_key_enabled(&expsync_vmstat_drain_user_return));
	for_each_possible_cpu(cpu)
		KUNIT_EXPECT_FALSE(test, expsync_vmstat_drain_owns(cpu));

	/* Restore what the boot set up. */
	KUNIT_EXPECT_EQ(test, expsync_knob_set_mask(cpus, old_set, "kunit"), 0);
	KUNIT_EXPECT_EQ(test, expsync_knob_set(policy, old_policy, "kunit"), 0);
	free_cpumask_var(old_set);
	free_cpumask_var(set);
}

static struct kunit_case expsync_vmstat_cases[] = {
	KUNIT_CASE(expsync_test_vmstat_transitions),
	{}
};

static struct kunit_suite expsync_vmstat_suite = {
	.name = "expsync_vmstat",
	.test_cases = expsync_vmstat_cases,
};

kunit_test_suite(expsync_vmstat_suite);
#endif

#ifdef CONFIG_EXPSYNC_TABLE_FREE
/* Immediate freeing only with a synchronous IPI flush nobody overrode. */
static void expsync_test_table_free_safety(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, expsync_table_free_immediate_safe_for(true, false));
	KUNIT_EXPECT_FALSE(test, expsync_table_free_immediate_safe_for(false, false));
	KUNIT_EXPECT_FALSE(test, expsync_table_free_immediate_safe_for(true, true));
	KUNIT_EXPECT_FALSE(test, expsync_table_free_immediate_safe_for(false, true));
}

/* A fake table batch holding tables first .. first + nr - 1. */
static struct mmu_table_batch *fake_batch(struct kunit *test, unsigned long first,
					  unsigned int nr)
{
	struct mmu_table_batch *b = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, b);
	for (i = 0; i < nr; i++)
		b->tables[i] = (void *)(first + i);
	b->nr = nr;
	return b;
}

static bool holds(struct mmu_table_batch *b, unsigned long first, unsigned int nr)
{
	unsigned int i;

	if (b->nr != nr)
		return false;
	for (i = 0; i < nr; i++)
		if (b->tables[i] != (void *)(first + i))
			return false;
	return true;
}

static void expsync_test_table_free_merge(struct kunit *test)
{
	struct mmu_table_batch *pending = NULL, *spare, *full, *a, *b, *big;
	const unsigned int max = MAX_TABLE_BATCH;

	/* The first batch becomes the pending one. */
	a = fake_batch(test, 1, 1);
	full = expsync_table_free_merge(&pending, a, &spare);
	KUNIT_EXPECT_NULL(test, full);
	KUNIT_EXPECT_PTR_EQ(test, pending, a);
	KUNIT_EXPECT_NULL(test, spare);

	/* The next ones are appended; their page is spare. */
	b = fake_batch(test, 2, 2);
	full = expsync_table_free_merge(&pending, b, &spare);
	KUNIT_EXPECT_NULL(test, full);
	KUNIT_EXPECT_PTR_EQ(test, spare, b);
	KUNIT_EXPECT_TRUE(test, holds(pending, 1, 3));

	/* Filling up exactly: the pending batch goes to RCU, none left. */
	b = fake_batch(test, 4, max - 3);
	full = expsync_table_free_merge(&pending, b, &spare);
	KUNIT_EXPECT_PTR_EQ(test, full, a);
	KUNIT_EXPECT_TRUE(test, holds(full, 1, max));
	KUNIT_EXPECT_NULL(test, pending);
	KUNIT_EXPECT_PTR_EQ(test, spare, b);

	/* Overflow: the full one goes, the rest stays pending in order. */
	a = fake_batch(test, 1000, max - 1);
	pending = a;
	b = fake_batch(test, 5000, 3);
	full = expsync_table_free_merge(&pending, b, &spare);
	KUNIT_EXPECT_PTR_EQ(test, full, a);
	KUNIT_EXPECT_EQ(test, full->nr, max);
	KUNIT_EXPECT_PTR_EQ(test, full->tables[max - 1], (void *)5000);
	KUNIT_EXPECT_PTR_EQ(test, pending, b);
	KUNIT_EXPECT_TRUE(test, holds(pending, 5001, 2));
	KUNIT_EXPECT_NULL(test, spare);

	/* A full gather batch goes to RCU as it is. */
	big = fake_batch(test, 9000, max);
	full = expsync_table_free_merge(&pending, big, &spare);
	KUNIT_EXPECT_PTR_EQ(test, full, big);
	KUNIT_EXPECT_PTR_EQ(test, pending, b);
	KUNIT_EXPECT_NULL(test, spare);
}

static struct kunit_case expsync_table_free_cases[] = {
	KUNIT_CASE(expsync_test_table_free_safety),
	KUNIT_CASE(expsync_test_table_free_merge),
	{}
};

static struct kunit_suite expsync_table_free_suite = {
	.name = "expsync_table_free",
	.test_cases = expsync_table_free_cases,
};

kunit_test_suites(&expsync_core_suite, &expsync_table_free_suite);
#else
kunit_test_suites(&expsync_core_suite);
#endif
