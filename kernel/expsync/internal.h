/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private interface of the expsync front-end (core.c) and its KUnit
 * tests.  Subsystems use include/linux/expsync_knob.h.
 */
#ifndef _KERNEL_EXPSYNC_INTERNAL_H
#define _KERNEL_EXPSYNC_INTERNAL_H

#include <linux/expsync.h>
#include <linux/expsync_knob.h>
#include <linux/mutex.h>
#include <linux/sysctl.h>

extern struct mutex expsync_policy_mutex;

int expsync_knob_write(struct expsync_knob *knob, const char *text,
		       const char *source);
int expsync_knob_boot(struct expsync_knob *knob, const char *val);
int expsync_sysctl(const struct ctl_table *table, int write, void *buffer,
		   size_t *lenp, loff_t *ppos);
long expsync_stat_read(enum expsync_stat stat);

#endif /* _KERNEL_EXPSYNC_INTERNAL_H */
