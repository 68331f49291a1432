/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KUnit test of membarrier's round numbering (membarrier_coalesce), on
 * the live system.  Included at the end of kernel/sched/membarrier.c.
 * An init-section suite: it runs once at boot, before user space can
 * call membarrier() or write the knob, so nothing races its rounds.
 */
#if defined(CONFIG_EXPSYNC_KUNIT_TEST) && defined(CONFIG_EXPSYNC_MEMBARRIER)

#include <kunit/test.h>

/* Set the key as the knob's apply does, and say what it was. */
static bool membarrier_test_coalesce(bool on)
{
	bool was = static_key_enabled(&membarrier_coalesce);

	membarrier_coalesce_apply(on ? EXPSYNC_MEMBARRIER_COALESCE_ON :
				  EXPSYNC_MEMBARRIER_COALESCE_OFF);
	return was;
}

/* off: the round takes no number, records none, and names no leader. */
static void membarrier_test_round_off(struct kunit *test)
{
	enum expsync_membarrier_op op = EXPSYNC_MEMBARRIER_OP_GLOBAL_EXPEDITED;
	bool was = membarrier_test_coalesce(false);
	u64 snap = membarrier_round_snap();
	s64 done = atomic64_read(&membarrier_global_round_done);
	u64 round;

	round = membarrier_round_lock(NULL, op, snap);
	KUNIT_EXPECT_EQ(test, round, 0);
	KUNIT_EXPECT_PTR_EQ(test, READ_ONCE(membarrier_round_leading), NULL);
	membarrier_round_end(NULL, op, round);
	membarrier_ipi_unlock();
	KUNIT_EXPECT_EQ(test, (u64)atomic64_read(&membarrier_round), snap);
	KUNIT_EXPECT_EQ(test, atomic64_read(&membarrier_global_round_done), done);
	membarrier_test_coalesce(was);
}

/*
 * on: the round takes the next number and leads; once recorded it serves
 * callers whose snapshot is below it, not those that read it.
 */
static void membarrier_test_round_on(struct kunit *test)
{
	enum expsync_membarrier_op op = EXPSYNC_MEMBARRIER_OP_GLOBAL_EXPEDITED;
	bool was = membarrier_test_coalesce(true);
	u64 snap = membarrier_round_snap();
	u64 round;

	round = membarrier_round_lock(NULL, op, snap);
	KUNIT_EXPECT_EQ(test, round, snap + 1);
	KUNIT_EXPECT_PTR_EQ(test, READ_ONCE(membarrier_round_leading),
			    &membarrier_global_round_done);
	KUNIT_EXPECT_FALSE(test, membarrier_round_served(NULL, op, snap));
	membarrier_round_end(NULL, op, round);
	membarrier_ipi_unlock();
	KUNIT_EXPECT_PTR_EQ(test, READ_ONCE(membarrier_round_leading), NULL);
	KUNIT_EXPECT_TRUE(test, membarrier_round_served(NULL, op, snap));
	KUNIT_EXPECT_FALSE(test, membarrier_round_served(NULL, op, round));
	membarrier_test_coalesce(was);
}

/* Each private kind of an mm and GLOBAL_EXPEDITED record apart. */
static void membarrier_test_round_kinds(struct kunit *test)
{
	enum expsync_membarrier_op a, b;

	for (a = EXPSYNC_MEMBARRIER_OP_GLOBAL_EXPEDITED;
	     a <= EXPSYNC_MEMBARRIER_OP_PRIVATE_EXPEDITED_RSEQ; a++)
		for (b = a + 1; b <= EXPSYNC_MEMBARRIER_OP_PRIVATE_EXPEDITED_RSEQ; b++)
			KUNIT_EXPECT_PTR_NE(test, membarrier_round_done(&init_mm, a),
					    membarrier_round_done(&init_mm, b));
}

static struct kunit_case membarrier_round_cases[] = {
	KUNIT_CASE(membarrier_test_round_off),
	KUNIT_CASE(membarrier_test_round_on),
	KUNIT_CASE(membarrier_test_round_kinds),
	{}
};

static struct kunit_suite membarrier_round_suite = {
	.name = "expsync_membarrier",
	.test_cases = membarrier_round_cases,
};

kunit_test_init_section_suites(&membarrier_round_suite);

#endif
