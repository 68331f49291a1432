/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the expsync selftests and benchmarks.
 */
#ifndef EXPSYNC_UTIL_H
#define EXPSYNC_UTIL_H

#include <fcntl.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define EXPSYNC_STATS	"/sys/kernel/debug/expsync/stats"

/*
 * EXPSYNC_TIME_SCALE (default 1): a KASAN kernel runs several times
 * slower, so a test that runs for a time runs this many
 * times longer there.  Anything but a number from 1 to 100 fails.
 */
static inline int expsync_time_scale(void)
{
	const char *s = getenv("EXPSYNC_TIME_SCALE");
	char *end;
	long v;

	if (!s)
		return 1;
	v = strtol(s, &end, 10);
	if (end == s || *end || v < 1 || v > 100) {
		fprintf(stderr, "EXPSYNC_TIME_SCALE=%s: not a number from 1 to 100\n", s);
		exit(1);
	}
	return v;
}

/* Write @val to @path in one write(); true when all of it was taken. */
static inline bool write_file(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);
	bool ok;

	if (fd < 0)
		return false;
	ok = write(fd, val, strlen(val)) == (ssize_t)strlen(val);
	close(fd);
	return ok;
}

/* The value of "@name N" in the file at @path, or -1. */
static inline long expsync_file_value(const char *path, const char *name)
{
	char line[128], key[64];
	long val, ret = -1;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %ld", key, &val) == 2 && !strcmp(key, name))
			ret = val;
	fclose(f);
	return ret;
}

/* The value of counter @name in the expsync stats file, or -1. */
static inline long expsync_stat(const char *name)
{
	return expsync_file_value(EXPSYNC_STATS, name);
}

/* Pin the calling thread to @cpu, or exit. */
static inline void pin_to_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("sched_setaffinity");
		exit(2);
	}
}

#endif /* EXPSYNC_UTIL_H */
