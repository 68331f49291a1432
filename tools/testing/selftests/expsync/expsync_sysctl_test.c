// SPDX-License-Identifier: GPL-2.0
/*
 * Every kernel.expsync.* word knob (cpulist and trigger knobs are tested
 * by vmstat_sysctl.sh): reads give the current word alone,
 * every accepted word can be written and read back, and every bad write
 * (unknown word, empty, over-long, trailing garbage, offset, unprivileged,
 * root without CAP_SYS_ADMIN) fails with the value unchanged, also
 * under concurrent writers.  A word this system refuses ("!word" in the
 * knobs file, such as membarrier_coalesce's "on" on PREEMPT_RT) fails
 * with EINVAL and changes nothing.  The words come from
 * /sys/kernel/debug/expsync/knobs, the same table the kernel parses with.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/capability.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../kselftest.h"
#include "expsync_util.h"

#define KNOBS_FILE	"/sys/kernel/debug/expsync/knobs"
#define SYSCTL_DIR	"/proc/sys/kernel/expsync/"
#define MAX_KNOBS	16
#define MAX_WORDS	8

struct knob {
	char name[64];
	char words[MAX_WORDS][32];
	int nr_words;
	int cur;
	char refused[MAX_WORDS][32];
	int nr_refused;
};

static struct knob knobs[MAX_KNOBS];
static int nr_knobs;

static int load_knobs(void)
{
	char line[512];
	FILE *f = fopen(KNOBS_FILE, "r");

	if (!f)
		return -1;
	while (nr_knobs < MAX_KNOBS && fgets(line, sizeof(line), f)) {
		struct knob *k = &knobs[nr_knobs];
		char *tok, *save;

		tok = strtok_r(line, ":\t\n ", &save);
		if (!tok)
			continue;
		snprintf(k->name, sizeof(k->name), "%s", tok);
		/* "<cpulist>" and "<trigger>" knobs have their own tests. */
		if (save && *save == ' ' && save[1] == '<')
			continue;
		while ((tok = strtok_r(NULL, "\t\n ", &save)) && k->nr_words < MAX_WORDS) {
			if (tok[0] == '!') {
				snprintf(k->refused[k->nr_refused++], 32, "%s", tok + 1);
				continue;
			}
			if (tok[0] == '[') {
				k->cur = k->nr_words;
				tok++;
				tok[strlen(tok) - 1] = '\0';
			}
			snprintf(k->words[k->nr_words++], 32, "%s", tok);
		}
		nr_knobs++;
	}
	fclose(f);
	return 0;
}

/* The knob's sysctl file: a name too long fails the test, never truncates. */
static void path_of(const struct knob *k, char *buf, size_t len)
{
	if (snprintf(buf, len, SYSCTL_DIR "%s", k->name) >= (int)len)
		ksft_exit_fail_msg("knob name too long: %s\n", k->name);
}

/* The file's whole content, or "" on error. */
static void read_knob(const struct knob *k, char *buf, size_t len)
{
	char path[128];
	ssize_t n;
	int fd;

	path_of(k, path, sizeof(path));
	buf[0] = '\0';
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return;
	n = read(fd, buf, len - 1);
	buf[n > 0 ? n : 0] = '\0';
	close(fd);
}

/* One write() of @len bytes at @off; returns 0 or the errno. */
static int write_knob(const struct knob *k, const char *data, size_t len, off_t off)
{
	char path[128];
	ssize_t n;
	int fd, err = 0;

	path_of(k, path, sizeof(path));
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return errno;
	n = pwrite(fd, data, len, off);
	if (n < 0)
		err = errno;
	else if ((size_t)n != len)
		err = EIO;
	close(fd);
	return err;
}

static bool reads_as(const struct knob *k, const char *word)
{
	char buf[64], want[64];

	read_knob(k, buf, sizeof(buf));
	snprintf(want, sizeof(want), "%s\n", word);
	return !strcmp(buf, want);
}

static void test_read(const struct knob *k)
{
	ksft_test_result(reads_as(k, k->words[k->cur]),
			 "%s: read gives the current word \"%s\"\n",
			 k->name, k->words[k->cur]);
}

static void test_each_word(const struct knob *k)
{
	bool ok = true;
	int i;

	for (i = 0; i < k->nr_words; i++) {
		char buf[40];

		snprintf(buf, sizeof(buf), "%s\n", k->words[i]);
		if (write_knob(k, buf, strlen(buf), 0) || !reads_as(k, k->words[i])) {
			ksft_print_msg("%s: writing \"%s\" failed\n", k->name, k->words[i]);
			ok = false;
		}
		/* Without the newline too (what "echo -n" writes). */
		if (write_knob(k, k->words[i], strlen(k->words[i]), 0) ||
		    !reads_as(k, k->words[i]))
			ok = false;
	}
	ksft_test_result(ok, "%s: every accepted word round-trips\n", k->name);
}

/* A word the system refuses: EINVAL, and the value stays. */
static void test_refused(const struct knob *k)
{
	bool ok = true;
	int i, err;

	for (i = 0; i < k->nr_refused; i++) {
		err = write_knob(k, k->refused[i], strlen(k->refused[i]), 0);
		if (err != EINVAL || !reads_as(k, k->words[k->cur])) {
			ksft_print_msg("%s: writing refused \"%s\": %s\n", k->name,
				       k->refused[i], err ? strerror(err) : "succeeded");
			ok = false;
		}
	}
	ksft_test_result(ok, "%s: %d refused word(s) fail with EINVAL, value kept\n",
			 k->name, k->nr_refused);
}

static void test_bad_writes(const struct knob *k)
{
	const char *orig = k->words[k->cur];
	char big[8192], garbage[64];
	const char * const bad[] = { "nonsense", "\n", " ", "0", "1", "-1", "", garbage,
			      garbage + 32, big };
	size_t lens[] = { 8, 1, 1, 1, 1, 2, 0, 0, 0, sizeof(big) };
	long before, after;
	unsigned int i, expected = 0;
	bool ok = true;

	memset(big, 'a', sizeof(big));
	snprintf(garbage, 32, "%s x", orig);
	snprintf(garbage + 32, 32, "%s\n\n", orig);
	lens[7] = strlen(garbage);
	lens[8] = strlen(garbage + 32);

	write_knob(k, orig, strlen(orig), 0);
	before = expsync_stat("policy_rejected");
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		int err = write_knob(k, bad[i], lens[i], 0);

		if (err != EINVAL) {
			ksft_print_msg("%s: bad write #%u gave errno %d, want EINVAL\n",
				       k->name, i, err);
			ok = false;
		} else {
			expected++;
		}
		if (!reads_as(k, orig)) {
			ksft_print_msg("%s: bad write #%u changed the value\n", k->name, i);
			ok = false;
		}
	}
	/* A write at a non-zero offset (a continued write) is refused too. */
	if (write_knob(k, orig, strlen(orig), 1) != EINVAL)
		ok = false;
	else
		expected++;
	/* Prefixes and case variants of a valid word. */
	snprintf(garbage, sizeof(garbage), "%.*s", (int)strlen(orig) - 1, orig);
	if (write_knob(k, garbage, strlen(garbage), 0) != EINVAL)
		ok = false;
	else
		expected++;
	after = expsync_stat("policy_rejected");
	ksft_test_result(ok && reads_as(k, orig),
			 "%s: bad writes get EINVAL and change nothing\n", k->name);
	ksft_test_result(after - before == expected,
			 "%s: policy_rejected counted %ld of %u refusals\n",
			 k->name, after - before, expected);
}

static void test_unprivileged(const struct knob *k)
{
	const char *other = k->words[(k->cur + 1) % k->nr_words];
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		if (setgid(65534) || setuid(65534))
			_exit(2);
		_exit(write_knob(k, other, strlen(other), 0) == EACCES ? 0 : 1);
	}
	waitpid(pid, &status, 0);
	ksft_test_result(WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
			 reads_as(k, k->words[k->cur]),
			 "%s: an unprivileged write is refused\n", k->name);
}

/*
 * Drop CAP_SYS_ADMIN from the calling process and keep every other
 * capability: uid 0 still owns the files and may open them for writing
 * (and CAP_DAC_OVERRIDE stays), so the write() reaches the handler,
 * whose capable(CAP_SYS_ADMIN) check must refuse it.
 */
static bool drop_cap_sys_admin(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
	int i;

	if (syscall(SYS_capget, &hdr, data))
		return false;
	for (i = 0; i < _LINUX_CAPABILITY_U32S_3; i++) {
		data[i].effective &= ~(i == CAP_TO_INDEX(CAP_SYS_ADMIN) ?
				       CAP_TO_MASK(CAP_SYS_ADMIN) : 0);
		data[i].permitted = data[i].effective;
	}
	return !syscall(SYS_capset, &hdr, data) &&
	       (data[CAP_TO_INDEX(CAP_DAC_OVERRIDE)].effective &
		CAP_TO_MASK(CAP_DAC_OVERRIDE));
}

/* In a child without CAP_SYS_ADMIN: 0 if writing @text to @path gets EPERM. */
static int write_without_cap_sys_admin(const char *path, const char *text)
{
	int status, fd;
	pid_t pid = fork();

	if (pid == 0) {
		if (!drop_cap_sys_admin())
			_exit(2);
		fd = open(path, O_WRONLY);
		if (fd < 0)
			_exit(3);
		_exit(write(fd, text, strlen(text)) < 0 && errno == EPERM ? 0 : 1);
	}
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 4;
}

static void test_no_cap_sys_admin(const struct knob *k)
{
	const char *other = k->words[(k->cur + 1) % k->nr_words];
	char path[128];
	int ret;

	path_of(k, path, sizeof(path));
	ret = write_without_cap_sys_admin(path, other);
	ksft_test_result(!ret && reads_as(k, k->words[k->cur]),
			 "%s: root without CAP_SYS_ADMIN gets EPERM (child status %d)\n",
			 k->name, ret);
}

/* The cpulist and trigger knobs' handlers check the capability too. */
static void test_no_cap_sys_admin_other(const char *name, const char *text)
{
	char path[128];
	int ret;

	snprintf(path, sizeof(path), SYSCTL_DIR "%s", name);
	if (access(path, F_OK)) {
		ksft_test_result_skip("%s: not in this kernel\n", name);
		return;
	}
	ret = write_without_cap_sys_admin(path, text);
	ksft_test_result(!ret, "%s: root without CAP_SYS_ADMIN gets EPERM (child status %d)\n",
			 name, ret);
}

struct writer_arg {
	const struct knob *k;
	int id;
	int failures;
};

static void *writer(void *p)
{
	struct writer_arg *a = p;
	int i;

	for (i = 0; i < 300; i++) {
		int w = (i + a->id) % a->k->nr_words;
		const char *word = a->k->words[w];

		if (a->id % 2) {
			/* Odd writers write bad words only: always EINVAL. */
			if (write_knob(a->k, "bogus\n", 6, 0) != EINVAL)
				a->failures++;
		} else if (write_knob(a->k, word, strlen(word), 0)) {
			a->failures++;
		}
	}
	return NULL;
}

static void test_concurrent(const struct knob *k)
{
	struct writer_arg args[4];
	pthread_t th[4];
	char buf[64];
	int i, failures = 0;
	bool valid = false;

	for (i = 0; i < 4; i++) {
		args[i] = (struct writer_arg){ .k = k, .id = i };
		pthread_create(&th[i], NULL, writer, &args[i]);
	}
	for (i = 0; i < 4; i++) {
		pthread_join(th[i], NULL);
		failures += args[i].failures;
	}
	read_knob(k, buf, sizeof(buf));
	for (i = 0; i < k->nr_words; i++)
		valid |= reads_as(k, k->words[i]);
	ksft_test_result(!failures && valid,
			 "%s: concurrent writers: %d unexpected results, final \"%.*s\"\n",
			 k->name, failures, (int)strcspn(buf, "\n"), buf);
	/* Leave the knob as the boot left it. */
	write_knob(k, k->words[k->cur], strlen(k->words[k->cur]), 0);
}

int main(void)
{
	int i, refusing = 0;

	ksft_print_header();
	if (geteuid())
		ksft_exit_skip("must run as root\n");
	if (load_knobs())
		ksft_exit_skip("no " KNOBS_FILE " (CONFIG_EXPSYNC=n or no debugfs)\n");
	if (!nr_knobs)
		ksft_exit_skip("no expsync knobs are registered in this kernel\n");

	for (i = 0; i < nr_knobs; i++)
		refusing += knobs[i].nr_refused > 0;
	ksft_set_plan(nr_knobs * 7 + refusing + 2);
	for (i = 0; i < nr_knobs; i++) {
		test_read(&knobs[i]);
		test_each_word(&knobs[i]);
		if (knobs[i].nr_refused)
			test_refused(&knobs[i]);
		test_bad_writes(&knobs[i]);
		test_unprivileged(&knobs[i]);
		test_no_cap_sys_admin(&knobs[i]);
		test_concurrent(&knobs[i]);
	}
	test_no_cap_sys_admin_other("vmstat_drain_cpus", "0");
	test_no_cap_sys_admin_other("vmstat_drain_now", "1");
	ksft_finished();
}
