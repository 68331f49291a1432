// SPDX-License-Identifier: GPL-2.0
/*
 * expsync table_free mechanism: how x86 frees page-table pages.
 *
 * A page-table page unlinked by munmap or exit may still be read by a
 * lockless walker (GUP-fast, perf_get_page_size()) that found it before
 * the unlink.  Those walkers run with IRQs off.  It is safe to free the
 * page once
 *
 *  1) it is unlinked, and the TLB flush that follows has reached every
 *     CPU that may walk the mm by a synchronous IPI: a walker with IRQs
 *     off holds that IPI off, so when the flush returns no walker that
 *     saw the page is left ("immediate", native x86); or
 *  2) an RCU grace period has passed since the unlink: IRQ-disabled
 *     regions are RCU read-side critical sections ("rcu"; needed when a
 *     paravirt flush may skip the IPI to a CPU, as KVM's PV flush does
 *     for preempted vCPUs, and Hyper-V's and Xen's hypercall flushes).
 *
 * The choice is one static key, expsync_table_free_rcu, read where x86
 * frees a table (arch/x86/mm/pgtable.c): true sends the table to
 * tlb_remove_table() (RCU), false to tlb_remove_page() (freed with the
 * gathered pages after the flush).  "auto" sets it as 6.12's pvops
 * would.  The key starts true, the choice that is always safe, until
 * expsync_init() applies the policy.
 *
 * Switching while gathers are in flight: "immediate" is only accepted
 * when 1) holds for every flush (expsync_table_free_immediate_safe()),
 * and there both paths are safe for every table at every moment.  A
 * gather may hold tables of both kinds after a switch; each is freed by
 * its own path, after tlb_table_invalidate() and the flush IPIs, so no
 * synchronization with the switch is needed.  Every table free sets
 * tlb->freed_tables, so the flush before an immediate free IPIs every
 * CPU of the mm, lazy-TLB ones included; if a tlb_table_invalidate()
 * flush resets the range in between, that flush came after the table
 * was unlinked, and a table added later sets freed_tables again.  Where 1) does not hold the
 * key can never become false.
 *
 * RCU freeing without the per-munmap call_rcu(): 6.12 hands every
 * gather's table batch to call_rcu(), and a munmap gathers about one
 * table.  In "percpu" batching, tlb_remove_table_free() gives the batch
 * to expsync_table_free_defer(), which appends its tables to a per-CPU
 * pending batch (one page, MAX_TABLE_BATCH tables) and calls call_rcu()
 * once that is full.  The tables already went through
 * tlb_table_invalidate() and are unlinked, so delaying their call_rcu()
 * only delays their free.  The memory so held is bounded: at most one
 * page of pointers and MAX_TABLE_BATCH tables per CPU, for at most
 * EXPSYNC_TABLE_FREE_DELAY; a shrinker and CPU hotplug hand pending
 * tables to RCU at once.
 */

#define pr_fmt(fmt) "expsync: " fmt

#include <linux/cpuhotplug.h>
#include <linux/expsync.h>
#include <linux/jump_label.h>
#include <linux/percpu.h>
#include <linux/shrinker.h>
#include <linux/spinlock.h>
#include <linux/timer.h>
#include <asm/paravirt.h>
#include <asm/tlb.h>

#include <trace/events/expsync.h>

#include "internal.h"

/* How long a table may wait in a per-CPU batch before call_rcu(). */
#define EXPSYNC_TABLE_FREE_DELAY	msecs_to_jiffies(10)

/* True: tables go to tlb_remove_table(), RCU.  See the top comment. */
DEFINE_STATIC_KEY_TRUE(expsync_table_free_rcu);
/* True: 6.12's one call_rcu() per gather, no per-CPU collection. */
static DEFINE_STATIC_KEY_FALSE(expsync_table_free_per_gather);

struct expsync_table_free_pcp {
	raw_spinlock_t lock;		/* local appends vs. remote flushes */
	struct mmu_table_batch *pending;
	struct timer_list timer;
	unsigned int cpu;
};

static DEFINE_PER_CPU(struct expsync_table_free_pcp, expsync_table_free_pcp);

/* mmu_gather's RCU callback: frees a batch's tables and the batch page. */
static rcu_callback_t expsync_table_free_batch_fn;

/* === Safety === */

/**
 * expsync_table_free_immediate_safe_for() - may tables be freed right
 * after the TLB flush?
 * @ipi_flush: remote TLB flushes are synchronous IPIs to every CPU in the
 *	       mm's cpumask (native_flush_tlb_multi())
 * @pv_wants_rcu: the paravirt code installed RCU table freeing
 *
 * Lockless page-table walkers rely on IRQs being off to hold off the free
 * (see the top of this file).  That only works when the flush reaches
 * each CPU by an IPI it must acknowledge; a hypercall flush, or a PV flush
 * that skips preempted vCPUs, does not wait for the walker.  A hypervisor
 * that asks for RCU freeing is trusted to know why.
 *
 * Return: true when immediate freeing is safe.
 */
bool expsync_table_free_immediate_safe_for(bool ipi_flush, bool pv_wants_rcu)
{
	return ipi_flush && !pv_wants_rcu;
}

static bool expsync_table_free_immediate_safe(void)
{
#ifdef CONFIG_PARAVIRT
	bool ipi_flush = pv_ops.mmu.flush_tlb_multi == native_flush_tlb_multi;
	bool pv_wants_rcu = pv_ops.mmu.tlb_remove_table == tlb_remove_table;

	return expsync_table_free_immediate_safe_for(ipi_flush, pv_wants_rcu);
#else
	return expsync_table_free_immediate_safe_for(true, false);
#endif
}

/* === RCU submission and the per-CPU batches === */

/* After a grace period: account, then let mmu_gather free the tables. */
static void expsync_table_free_rcu_cb(struct rcu_head *head)
{
	struct mmu_table_batch *batch = container_of(head, struct mmu_table_batch, rcu);

	expsync_count(EXPSYNC_STAT_TABLE_FREE_WAITING, -(long)batch->nr);
	READ_ONCE(expsync_table_free_batch_fn)(head);
}

static void expsync_table_free_submit(struct mmu_table_batch *batch,
				      const char *why)
{
	expsync_count(EXPSYNC_STAT_TABLE_FREE_RCU, batch->nr);
	expsync_count(EXPSYNC_STAT_TABLE_FREE_RCU_BATCHES, 1);
	trace_expsync_table_free_rcu(batch->nr, why);
	/* The tables are unlinked and invalidated; the grace period does the rest. */
	call_rcu(&batch->rcu, expsync_table_free_rcu_cb);
}

/**
 * expsync_table_free_merge() - add a gather's tables to a pending batch
 * @pending: the per-CPU pending batch, or NULL; updated
 * @batch: the gather's batch, handed over by tlb_remove_table_free()
 * @spare: set to a batch page that holds no tables any more (to free), or
 *	   NULL
 *
 * Pure bookkeeping, no locking (the caller holds the per-CPU lock).
 *
 * Return: a full batch to hand to RCU now, or NULL.
 */
struct mmu_table_batch *expsync_table_free_merge(struct mmu_table_batch **pending,
						 struct mmu_table_batch *batch,
						 struct mmu_table_batch **spare)
{
	struct mmu_table_batch *p = *pending;
	unsigned int room, n;

	*spare = NULL;
	if (batch->nr >= MAX_TABLE_BATCH)	/* a big gather pays RCU once */
		return batch;
	if (!p) {
		WRITE_ONCE(*pending, batch);
		return NULL;
	}
	room = MAX_TABLE_BATCH - p->nr;
	n = min(room, batch->nr);
	memcpy(&p->tables[p->nr], batch->tables, n * sizeof(void *));
	/* The shrinker peeks at nr without the lock. */
	WRITE_ONCE(p->nr, p->nr + n);
	if (p->nr < MAX_TABLE_BATCH) {
		*spare = batch;
		return NULL;
	}
	/* p is full: it goes to RCU, what did not fit becomes the new pending. */
	batch->nr -= n;
	memmove(batch->tables, &batch->tables[n], batch->nr * sizeof(void *));
	if (batch->nr) {
		WRITE_ONCE(*pending, batch);
	} else {
		WRITE_ONCE(*pending, NULL);
		*spare = batch;
	}
	return p;
}

/* Hand this CPU's pending batch to RCU.  Called with pcp->lock held. */
static unsigned int expsync_table_free_flush_locked(struct expsync_table_free_pcp *pcp,
						    const char *why)
{
	struct mmu_table_batch *p = pcp->pending;
	unsigned int nr;

	if (!p)
		return 0;
	WRITE_ONCE(pcp->pending, NULL);
	nr = p->nr;	/* p belongs to RCU after the submit */
	expsync_table_free_submit(p, why);
	return nr;
}

static unsigned int expsync_table_free_flush_cpu(unsigned int cpu, const char *why)
{
	struct expsync_table_free_pcp *pcp = per_cpu_ptr(&expsync_table_free_pcp, cpu);
	unsigned long flags;
	unsigned int nr;

	raw_spin_lock_irqsave(&pcp->lock, flags);
	nr = expsync_table_free_flush_locked(pcp, why);
	raw_spin_unlock_irqrestore(&pcp->lock, flags);
	return nr;
}

static void expsync_table_free_flush_all(const char *why)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		expsync_table_free_flush_cpu(cpu, why);
}

static void expsync_table_free_timer_fn(struct timer_list *t)
{
	struct expsync_table_free_pcp *pcp = from_timer(pcp, t, timer);

	expsync_table_free_flush_cpu(pcp->cpu, "timer");
}

/**
 * expsync_table_free_defer() - take a gather's table batch for RCU freeing
 * @batch: the batch; its tables are unlinked and tlb_table_invalidate()
 *	   has run
 * @free_batch: mmu_gather's RCU callback that frees a batch
 *
 * Called by tlb_remove_table_free() in place of its call_rcu().
 *
 * Return: true: the batch is taken care of (always).
 */
bool expsync_table_free_defer(struct mmu_table_batch *batch,
			      rcu_callback_t free_batch)
{
	struct expsync_table_free_pcp *pcp;
	struct mmu_table_batch *full, *spare;
	unsigned long flags;

	/* Set before the first table batch exists; never changes. */
	if (unlikely(!expsync_table_free_batch_fn))
		WRITE_ONCE(expsync_table_free_batch_fn, free_batch);

	expsync_count(EXPSYNC_STAT_TABLE_FREE_WAITING, batch->nr);
	if (static_branch_unlikely(&expsync_table_free_per_gather)) {
		expsync_table_free_submit(batch, "gather");
		return true;
	}

	/*
	 * IRQs off: pins us to this CPU's pcp and excludes its timer; the
	 * lock excludes the shrinker and the hotplug callback on other CPUs.
	 * A raw lock, as it is taken with IRQs off (PREEMPT_RT too);
	 * call_rcu() and mod_timer() are fine under it.
	 */
	local_irq_save(flags);
	pcp = this_cpu_ptr(&expsync_table_free_pcp);
	raw_spin_lock(&pcp->lock);
	full = expsync_table_free_merge(&pcp->pending, batch, &spare);
	if (full)
		expsync_table_free_submit(full, "full");
	if (pcp->pending && !timer_pending(&pcp->timer))
		mod_timer(&pcp->timer, jiffies + EXPSYNC_TABLE_FREE_DELAY);
	raw_spin_unlock(&pcp->lock);
	local_irq_restore(flags);

	/* Only a container of pointers, never a page table: free it now. */
	if (spare)
		free_page((unsigned long)spare);
	return true;
}

/* === Memory pressure and CPU hotplug === */

static unsigned long expsync_table_free_shrink_count(struct shrinker *s,
						     struct shrink_control *sc)
{
	unsigned long nr = 0;
	unsigned int cpu;

	/* A racy peek is fine for a count; RCU keeps a submitted batch alive. */
	rcu_read_lock();
	for_each_possible_cpu(cpu) {
		struct mmu_table_batch *p;

		p = READ_ONCE(per_cpu_ptr(&expsync_table_free_pcp, cpu)->pending);
		if (p)
			nr += READ_ONCE(p->nr);
	}
	rcu_read_unlock();
	return nr ?: SHRINK_EMPTY;
}

/* Under pressure, start the grace period for every pending table now. */
static unsigned long expsync_table_free_shrink_scan(struct shrinker *s,
						    struct shrink_control *sc)
{
	unsigned long nr = 0;
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		nr += expsync_table_free_flush_cpu(cpu, "pressure");
	return nr;
}

/* The CPU is dead: hand its pending tables to RCU from here. */
static int expsync_table_free_cpu_dead(unsigned int cpu)
{
	expsync_table_free_flush_cpu(cpu, "hotplug");
	return 0;
}

/* === Policy === */

/**
 * expsync_table_free_apply() - switch between RCU and immediate freeing
 * @knob: the table_free knob
 * @val: an enum expsync_table_free value
 *
 * Why a switch is safe with gathers in flight is at the top of this file.
 *
 * Return: 0, or -EINVAL for "immediate" where it is not safe.
 */
int expsync_table_free_apply(struct expsync_knob *knob, unsigned int val)
{
	bool safe = expsync_table_free_immediate_safe();

	if (val == EXPSYNC_TABLE_FREE_IMMEDIATE && !safe)
		return -EINVAL;
	/* auto: what 6.12's pvops pick, which is immediate exactly when safe. */
	if (val == EXPSYNC_TABLE_FREE_RCU || !safe)
		static_branch_enable(&expsync_table_free_rcu);
	else
		static_branch_disable(&expsync_table_free_rcu);
	return 0;
}

/**
 * expsync_table_free_rcu_batch_apply() - per-CPU or per-gather RCU batches
 * @knob: the table_free_rcu_batch knob
 * @val: an enum expsync_table_free_rcu_batch value
 *
 * Leaving "percpu" hands every pending table to RCU at once, so that no
 * table waits on a mechanism that is off.
 *
 * Return: 0.
 */
int expsync_table_free_rcu_batch_apply(struct expsync_knob *knob, unsigned int val)
{
	if (val == EXPSYNC_TABLE_FREE_RCU_BATCH_GATHER) {
		static_branch_enable(&expsync_table_free_per_gather);
		/* New batches bypass the pcp lists now; drain what they hold. */
		expsync_table_free_flush_all("switch");
	} else {
		static_branch_disable(&expsync_table_free_per_gather);
	}
	return 0;
}

static int __init expsync_table_free_init(void)
{
	struct shrinker *shrinker;
	unsigned int cpu;
	int ret;

	for_each_possible_cpu(cpu) {
		struct expsync_table_free_pcp *pcp = per_cpu_ptr(&expsync_table_free_pcp, cpu);

		raw_spin_lock_init(&pcp->lock);
		pcp->cpu = cpu;
		timer_setup(&pcp->timer, expsync_table_free_timer_fn, TIMER_PINNED);
	}
	ret = cpuhp_setup_state_nocalls(CPUHP_BP_PREPARE_DYN, "expsync/table_free:dead",
					NULL, expsync_table_free_cpu_dead);
	if (ret < 0)
		pr_warn("table_free: no CPU hotplug callback (%d)\n", ret);

	shrinker = shrinker_alloc(0, "expsync-table-free");
	if (!shrinker) {
		pr_warn("table_free: no shrinker\n");
		return 0;
	}
	shrinker->count_objects = expsync_table_free_shrink_count;
	shrinker->scan_objects = expsync_table_free_shrink_scan;
	shrinker->seeks = 0;
	shrinker_register(shrinker);
	return 0;
}

/* Before expsync_init() (core_initcall) applies the policy. */
early_initcall(expsync_table_free_init);
