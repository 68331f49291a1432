/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KUnit test of when x86 may free page tables right after the TLB
 * flush.  Included at the end of arch/x86/mm/pgtable.c, whose static
 * x86_table_free_immediate_safe_for() and knob table it tests.
 */
#if defined(CONFIG_EXPSYNC_KUNIT_TEST) && defined(CONFIG_EXPSYNC_TABLE_FREE)

#include <kunit/static_stub.h>
#include <kunit/test.h>

/* Immediate freeing only with a synchronous IPI flush nobody overrode. */
static void x86_table_free_test_safety(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, x86_table_free_immediate_safe_for(true, false));
	KUNIT_EXPECT_FALSE(test, x86_table_free_immediate_safe_for(false, false));
	KUNIT_EXPECT_FALSE(test, x86_table_free_immediate_safe_for(true, true));
	KUNIT_EXPECT_FALSE(test, x86_table_free_immediate_safe_for(false, true));
}

/* A guest whose flush may skip a CPU that walks page tables. */
static bool x86_table_free_test_unsafe(void)
{
	return false;
}

/*
 * There the knob refuses immediate, whether it comes from a sysctl write
 * or from the boot command line (the front-end then keeps the default),
 * and takes auto and rcu.
 */
static void x86_table_free_test_refused(struct kunit *test)
{
	/* This system: refused exactly where the pvops make it unsafe. */
	KUNIT_EXPECT_EQ(test, !x86_table_free_word.refuses(EXPSYNC_TABLE_FREE_IMMEDIATE),
			x86_table_free_immediate_safe());
	kunit_activate_static_stub(test, x86_table_free_immediate_safe,
				   x86_table_free_test_unsafe);
	KUNIT_EXPECT_NOT_NULL(test, x86_table_free_word.refuses(EXPSYNC_TABLE_FREE_IMMEDIATE));
	KUNIT_EXPECT_NULL(test, x86_table_free_word.refuses(EXPSYNC_TABLE_FREE_AUTO));
	KUNIT_EXPECT_NULL(test, x86_table_free_word.refuses(EXPSYNC_TABLE_FREE_RCU));
}

static struct kunit_case x86_table_free_cases[] = {
	KUNIT_CASE(x86_table_free_test_safety),
	KUNIT_CASE(x86_table_free_test_refused),
	{}
};

static struct kunit_suite x86_table_free_suite = {
	.name = "expsync_table_free_x86",
	.test_cases = x86_table_free_cases,
};

kunit_test_suite(x86_table_free_suite);

#endif
