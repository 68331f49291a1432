/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KUnit test of membarrier's round numbering (membarrier_coalesce), on
 * the live system.  Included at the end of kernel/sched/membarrier.c.
 * An init-section suite: it runs once at boot, before user space can
 * call membarrier() or write the knob, so nothing races its rounds.
 */
#if defined(CONFIG_EXPSYNC_KUNIT_TEST) && defined(CONFIG_EXPSYNC_MEMBARRIER)

#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/kthread.h>

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

/* A caller of membarrier_round_lock() in a kthread, for the queueing test. */
struct membarrier_test_caller {
	enum expsync_membarrier_op op;
	u64 snap, round;
	bool started;
	struct completion done;
};

static int membarrier_test_caller_fn(void *arg)
{
	struct membarrier_test_caller *c = arg;

	WRITE_ONCE(c->started, true);
	c->round = membarrier_round_lock(&init_mm, c->op, c->snap);
	if (c->round != MEMBARRIER_ROUND_SHARED) {
		membarrier_round_end(&init_mm, c->op, c->round);
		membarrier_ipi_unlock();
	}
	complete(&c->done);
	return 0;
}

/*
 * on: behind a holder that leads another kind's round (here a global
 * one), a private caller queues on the mutex at once; behind a leader of
 * its own kind it sleeps on membarrier_round_wq, for that round.  Held
 * by this test, the mutex is released with no round recorded, so the
 * caller leads its own either way.
 */
static void membarrier_test_round_queue(struct kunit *test)
{
	enum expsync_membarrier_op op = EXPSYNC_MEMBARRIER_OP_PRIVATE_EXPEDITED;
	bool was = membarrier_test_coalesce(true);
	struct membarrier_test_caller c;
	struct task_struct *t;
	unsigned int own, i;

	for (own = 0; own < 2; own++) {
		memset(&c, 0, sizeof(c));
		c.op = op;
		init_completion(&c.done);
		mutex_lock(&membarrier_ipi_mutex);
		WRITE_ONCE(membarrier_round_leading, own ? membarrier_round_done(&init_mm, op) :
			   &membarrier_global_round_done);
		c.snap = membarrier_round_snap();
		t = kthread_run(membarrier_test_caller_fn, &c, "membarrier_test");
		if (IS_ERR(t)) {
			membarrier_ipi_unlock();
			KUNIT_FAIL(test, "kthread_run: %ld", PTR_ERR(t));
			break;
		}
		/* It sleeps on the wait queue or, the only other place, the mutex. */
		for (i = 0; i < 250; i++) {
			if (READ_ONCE(c.started) && READ_ONCE(t->__state) == TASK_UNINTERRUPTIBLE)
				break;
			msleep(20);
		}
		KUNIT_EXPECT_EQ_MSG(test, READ_ONCE(t->__state), TASK_UNINTERRUPTIBLE,
				    "the caller never slept (%s kind)", own ? "own" : "another");
		KUNIT_EXPECT_EQ_MSG(test, wq_has_sleeper(&membarrier_round_wq), (bool)own,
				    "behind a leader of %s kind", own ? "its own" : "another");
		membarrier_ipi_unlock();
		wait_for_completion(&c.done);
		KUNIT_EXPECT_NE(test, c.round, MEMBARRIER_ROUND_SHARED);
	}
	membarrier_test_coalesce(was);
}

static struct kunit_case membarrier_round_cases[] = {
	KUNIT_CASE(membarrier_test_round_off),
	KUNIT_CASE(membarrier_test_round_on),
	KUNIT_CASE(membarrier_test_round_kinds),
	KUNIT_CASE(membarrier_test_round_queue),
	{}
};

static struct kunit_suite membarrier_round_suite = {
	.name = "expsync_membarrier",
	.test_cases = membarrier_round_cases,
};

kunit_test_init_section_suites(&membarrier_round_suite);

#endif
