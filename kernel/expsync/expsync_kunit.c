// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the expsync policy core: word parsing, boot parameters
 * and the sysctl handler.  Every rejected input must leave the knob's
 * value, and the mechanism behind it, unchanged.
 */

#include <kunit/test.h>
#include <linux/expsync.h>
#include <linux/sysctl.h>

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
	EXPSYNC_KNOB_INIT("test", test_words, TEST_ALPHA, test_apply);

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

kunit_test_suites(&expsync_core_suite);
