/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private interface between the expsync policy core (core.c), the
 * mechanisms it steers and the KUnit tests.
 */
#ifndef _KERNEL_EXPSYNC_INTERNAL_H
#define _KERNEL_EXPSYNC_INTERNAL_H

#include <linux/expsync.h>
#include <linux/mutex.h>
#include <linux/sysctl.h>

struct dentry;

int expsync_parse_word(const struct expsync_knob *knob, const char *buf,
		       size_t len);
int expsync_knob_set(struct expsync_knob *knob, unsigned int val,
		     const char *source);
bool expsync_boot_parse(struct expsync_knob *knob, const char *val);
int expsync_sysctl_word(const struct ctl_table *table, int write,
			void *buffer, size_t *lenp, loff_t *ppos);
int expsync_knob_set_mask(struct expsync_knob *knob, const struct cpumask *mask,
			  const char *source);
int expsync_sysctl_cpulist(const struct ctl_table *table, int write,
			   void *buffer, size_t *lenp, loff_t *ppos);
int expsync_sysctl_trigger(const struct ctl_table *table, int write,
			   void *buffer, size_t *lenp, loff_t *ppos);
long expsync_stat_read(enum expsync_stat stat);
struct expsync_knob *expsync_knob_find(const char *name);

/* The word tables of the knobs, shared by core.c and the mechanisms. */
extern const char * const expsync_membarrier_ipi_words[];
extern const char * const expsync_table_free_words[];
extern const char * const expsync_table_free_rcu_batch_words[];
extern const char * const expsync_vmstat_drain_words[];

int expsync_membarrier_ipi_apply(struct expsync_knob *knob, unsigned int val);
int expsync_table_free_apply(struct expsync_knob *knob, unsigned int val);
int expsync_table_free_rcu_batch_apply(struct expsync_knob *knob,
				       unsigned int val);

int expsync_vmstat_drain_apply(struct expsync_knob *knob, unsigned int val);
int expsync_vmstat_drain_cpus_apply(struct expsync_knob *knob,
				    const struct cpumask *mask);
void expsync_vmstat_drain_cpus_default(struct cpumask *mask);
int expsync_vmstat_drain_now(struct expsync_knob *knob);
void expsync_vmstat_debugfs_init(struct dentry *dir);

extern struct mutex expsync_policy_mutex;

/* table_free internals, exposed for KUnit. */
struct mmu_table_batch;
bool expsync_table_free_immediate_safe_for(bool ipi_flush, bool pv_wants_rcu);
struct mmu_table_batch *expsync_table_free_merge(struct mmu_table_batch **pending,
						 struct mmu_table_batch *batch,
						 struct mmu_table_batch **spare);

#endif /* _KERNEL_EXPSYNC_INTERNAL_H */
