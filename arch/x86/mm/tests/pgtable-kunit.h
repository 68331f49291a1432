/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KUnit test of when x86 may free page tables right after the TLB
 * flush.  Included at the end of arch/x86/mm/pgtable.c, whose static
 * x86_table_free_immediate_safe_for() it tests.
 */
#if defined(CONFIG_EXPSYNC_KUNIT_TEST) && defined(CONFIG_EXPSYNC_TABLE_FREE)

#include <kunit/test.h>

/* Immediate freeing only with a synchronous IPI flush nobody overrode. */
static void x86_table_free_test_safety(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, x86_table_free_immediate_safe_for(true, false));
	KUNIT_EXPECT_FALSE(test, x86_table_free_immediate_safe_for(false, false));
	KUNIT_EXPECT_FALSE(test, x86_table_free_immediate_safe_for(true, true));
	KUNIT_EXPECT_FALSE(test, x86_table_free_immediate_safe_for(false, true));
}

static struct kunit_case x86_table_free_cases[] = {
	KUNIT_CASE(x86_table_free_test_safety),
	{}
};

static struct kunit_suite x86_table_free_suite = {
	.name = "expsync_table_free_x86",
	.test_cases = x86_table_free_cases,
};

kunit_test_suite(x86_table_free_suite);

#endif
