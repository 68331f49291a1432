/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KUnit tests of the per-CPU RCU table batches: how a gather's batch is
 * merged into the pending one, and its page reused by the next gather.
 * Included at the end of mm/mmu_gather.c, whose static functions it
 * tests.
 */
#if defined(CONFIG_EXPSYNC_KUNIT_TEST) && defined(CONFIG_EXPSYNC_TABLE_FREE_RCU_BATCH)

#include <kunit/test.h>

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

static void tlb_table_test_merge(struct kunit *test)
{
	struct mmu_table_batch *pending = NULL, *spare, *full, *a, *b, *big;
	const unsigned int max = MAX_TABLE_BATCH;

	/* The first batch becomes the pending one. */
	a = fake_batch(test, 1, 1);
	full = tlb_table_batch_merge(&pending, a, &spare);
	KUNIT_EXPECT_NULL(test, full);
	KUNIT_EXPECT_PTR_EQ(test, pending, a);
	KUNIT_EXPECT_NULL(test, spare);

	/* The next ones are appended; their page is spare. */
	b = fake_batch(test, 2, 2);
	full = tlb_table_batch_merge(&pending, b, &spare);
	KUNIT_EXPECT_NULL(test, full);
	KUNIT_EXPECT_PTR_EQ(test, spare, b);
	KUNIT_EXPECT_TRUE(test, holds(pending, 1, 3));

	/* Filling up exactly: the pending batch goes to RCU, none left. */
	b = fake_batch(test, 4, max - 3);
	full = tlb_table_batch_merge(&pending, b, &spare);
	KUNIT_EXPECT_PTR_EQ(test, full, a);
	KUNIT_EXPECT_TRUE(test, holds(full, 1, max));
	KUNIT_EXPECT_NULL(test, pending);
	KUNIT_EXPECT_PTR_EQ(test, spare, b);

	/* Overflow: the full one goes, the rest stays pending in order. */
	a = fake_batch(test, 1000, max - 1);
	pending = a;
	b = fake_batch(test, 5000, 3);
	full = tlb_table_batch_merge(&pending, b, &spare);
	KUNIT_EXPECT_PTR_EQ(test, full, a);
	KUNIT_EXPECT_EQ(test, full->nr, max);
	KUNIT_EXPECT_PTR_EQ(test, full->tables[max - 1], (void *)5000);
	KUNIT_EXPECT_PTR_EQ(test, pending, b);
	KUNIT_EXPECT_TRUE(test, holds(pending, 5001, 2));
	KUNIT_EXPECT_NULL(test, spare);

	/* A full gather batch goes to RCU as it is. */
	big = fake_batch(test, 9000, max);
	full = tlb_table_batch_merge(&pending, big, &spare);
	KUNIT_EXPECT_PTR_EQ(test, full, big);
	KUNIT_EXPECT_PTR_EQ(test, pending, b);
	KUNIT_EXPECT_NULL(test, spare);
}

/* A merged gather's batch page is the next gather's, on the same CPU. */
static void tlb_table_test_spare(struct kunit *test)
{
	struct mmu_table_batch *a, *b, *kept, *again, *fresh, *other;
	struct tlb_table_pcp *pcp;
	unsigned long flags;

	a = (void *)__get_free_page(GFP_KERNEL);
	b = (void *)__get_free_page(GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, b);

	/* No munmap can run on this CPU and take the spare meanwhile. */
	preempt_disable();
	pcp = this_cpu_ptr(&tlb_table_pcp);
	tlb_table_spare_drop(smp_processor_id());
	raw_spin_lock_irqsave(&pcp->lock, flags);
	kept = tlb_table_spare_put(pcp, a);	/* NULL: a is the spare */
	again = tlb_table_spare_put(pcp, b);	/* b: one spare only */
	raw_spin_unlock_irqrestore(&pcp->lock, flags);
	other = tlb_table_batch_alloc();	/* a */
	fresh = tlb_table_batch_alloc();	/* a new page */
	preempt_enable();

	KUNIT_EXPECT_NULL(test, kept);
	KUNIT_EXPECT_PTR_EQ(test, again, b);
	KUNIT_EXPECT_PTR_EQ(test, other, a);
	KUNIT_EXPECT_NOT_NULL(test, fresh);
	KUNIT_EXPECT_PTR_NE(test, fresh, a);
	free_page((unsigned long)b);
	free_page((unsigned long)other);
	if (fresh && fresh != a)
		free_page((unsigned long)fresh);
}

/*
 * Memory pressure (the shrinker's scan) frees the spare page, and so does
 * the CPU-dead callback (called here for this live CPU: it only hands
 * pending tables to RCU and drops the spare).  The shrinker counts the
 * spare as an object, so that its scan runs at all.
 */
static void tlb_table_test_spare_freed(struct kunit *test)
{
	struct shrink_control sc = { .gfp_mask = GFP_KERNEL, .nr_to_scan = 1 };
	struct mmu_table_batch *a, *kept, *left;
	unsigned long counted, flags;
	struct tlb_table_pcp *pcp;
	unsigned int cpu, pass;

	for (pass = 0; pass < 2; pass++) {
		a = (void *)__get_free_page(GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, a);
		/* No munmap can run on this CPU and take the spare meanwhile. */
		preempt_disable();
		cpu = smp_processor_id();
		pcp = this_cpu_ptr(&tlb_table_pcp);
		tlb_table_spare_drop(cpu);
		raw_spin_lock_irqsave(&pcp->lock, flags);
		kept = tlb_table_spare_put(pcp, a);	/* NULL: a is the spare */
		raw_spin_unlock_irqrestore(&pcp->lock, flags);
		counted = tlb_table_shrink_count(NULL, &sc);
		if (pass == 0)
			tlb_table_shrink_scan(NULL, &sc);
		else
			tlb_table_cpu_dead(cpu);
		/* Racy only with this CPU's munmaps, which preemption keeps off. */
		left = data_race(pcp->spare);
		preempt_enable();

		KUNIT_EXPECT_NULL(test, kept);
		KUNIT_EXPECT_NE(test, counted, SHRINK_EMPTY);
		KUNIT_EXPECT_GE(test, counted, 1UL);
		KUNIT_EXPECT_NULL_MSG(test, left, "spare page kept after %s",
				      pass ? "the CPU-dead callback" : "the shrinker's scan");
	}
}

static struct kunit_case tlb_table_batch_cases[] = {
	KUNIT_CASE(tlb_table_test_merge),
	KUNIT_CASE(tlb_table_test_spare),
	KUNIT_CASE(tlb_table_test_spare_freed),
	{}
};

static struct kunit_suite tlb_table_batch_suite = {
	.name = "expsync_table_free",
	.test_cases = tlb_table_batch_cases,
};

kunit_test_suite(tlb_table_batch_suite);

#endif
