// SPDX-License-Identifier: GPL-2.0
/*
 * tpcount [-a] [-o FILE] -e SYS:EVENT[/FILTER] ... -- COMMAND [ARG...]
 *
 * Counts kernel tracepoints while COMMAND runs, as "perf stat -e" does,
 * through the same interface (perf_event_open(), an ftrace filter set
 * with PERF_EVENT_IOC_SET_FILTER), without perf's start-up: under QEMU
 * TCG perf takes 2.6 s of guest time to start, and 4 s with -a.
 *
 * -a counts on every online CPU (system-wide, COMMAND's start and exit
 * included); without it, COMMAND and the threads and children it makes
 * (inherit), from its exec on.  FILTER is an ftrace filter such as
 * "func.function == ipi_mb".  Prints "COUNT SYS:EVENT" lines to FILE
 * (default stderr) once COMMAND has exited; exits with COMMAND's status,
 * or 125 when a counter cannot be opened (with a message).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_EVENTS	16
#define MAX_CPUS	256

struct event {
	char name[128];
	const char *filter;
	long long id;
	int fd[MAX_CPUS];
};

static long long tracepoint_id(const char *name)
{
	char path[256], sys[64], ev[64];
	long long id = -1;
	FILE *f;

	if (sscanf(name, "%63[^:]:%63s", sys, ev) != 2)
		return -1;
	snprintf(path, sizeof(path), "/sys/kernel/tracing/events/%s/%s/id", sys, ev);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%lld", &id) != 1)
		id = -1;
	fclose(f);
	return id;
}

static int open_counter(struct event *e, pid_t pid, int cpu, int on_exec)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_TRACEPOINT,
		.size = sizeof(attr),
		.config = e->id,
		.sample_period = 1,
		.disabled = on_exec,
		.enable_on_exec = on_exec,
		.inherit = pid > 0,
	};
	int fd = syscall(__NR_perf_event_open, &attr, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);

	if (fd < 0)
		return -1;
	if (e->filter && ioctl(fd, PERF_EVENT_IOC_SET_FILTER, e->filter)) {
		close(fd);
		return -1;
	}
	return fd;
}

int main(int argc, char **argv)
{
	struct event ev[MAX_EVENTS];
	int nev = 0, all = 0, go[2], i, c, ncpus, status;
	const char *out = NULL;
	FILE *o = stderr;
	pid_t pid;
	char x;

	while ((c = getopt(argc, argv, "+ao:e:")) != -1) {
		switch (c) {
		case 'a':
			all = 1;
			break;
		case 'o':
			out = optarg;
			break;
		case 'e': {
			char *slash;

			if (nev == MAX_EVENTS)
				return 2;
			memset(&ev[nev], 0, sizeof(ev[nev]));
			snprintf(ev[nev].name, sizeof(ev[nev].name), "%s", optarg);
			slash = strchr(ev[nev].name, '/');
			if (slash) {
				*slash = '\0';
				ev[nev].filter = optarg + (slash - ev[nev].name) + 1;
			}
			ev[nev].id = tracepoint_id(ev[nev].name);
			if (ev[nev].id < 0) {
				fprintf(stderr, "tpcount: no tracepoint %s\n", ev[nev].name);
				return 125;
			}
			nev++;
			break;
		}
		default:
			goto usage;
		}
	}
	if (!nev || optind >= argc)
		goto usage;
	ncpus = sysconf(_SC_NPROCESSORS_CONF);
	if (ncpus > MAX_CPUS)
		ncpus = MAX_CPUS;
	if (pipe(go))
		return 125;
	pid = fork();
	if (pid < 0)
		return 125;
	if (!pid) {
		close(go[1]);
		/* Wait until the counters are open, then exec (enables them). */
		if (read(go[0], &x, 1) != 1)
			_exit(125);
		execvp(argv[optind], argv + optind);
		perror("tpcount: exec");
		_exit(127);
	}
	close(go[0]);
	for (i = 0; i < nev; i++) {
		if (all) {
			for (c = 0; c < ncpus; c++) {
				ev[i].fd[c] = open_counter(&ev[i], -1, c, 0);
				/* An offline CPU has nothing to count. */
				if (ev[i].fd[c] < 0 && errno != ENODEV && errno != ENXIO)
					goto fail;
			}
		} else {
			ev[i].fd[0] = open_counter(&ev[i], pid, -1, 1);
			if (ev[i].fd[0] < 0)
				goto fail;
		}
	}
	if (write(go[1], "g", 1) != 1)
		goto fail;
	close(go[1]);
	if (waitpid(pid, &status, 0) != pid)
		return 125;
	if (out) {
		o = fopen(out, "w");
		if (!o)
			return 125;
	}
	for (i = 0; i < nev; i++) {
		uint64_t sum = 0, v;

		for (c = 0; c < (all ? ncpus : 1); c++)
			if (ev[i].fd[c] >= 0 && read(ev[i].fd[c], &v, sizeof(v)) == sizeof(v))
				sum += v;
		fprintf(o, "%llu %s\n", (unsigned long long)sum, ev[i].name);
	}
	if (o != stderr)
		fclose(o);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
fail:
	fprintf(stderr, "tpcount: cannot count %s%s%s: %s\n", ev[i].name,
		ev[i].filter ? " with filter " : "", ev[i].filter ?: "", strerror(errno));
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	return 125;
usage:
	fprintf(stderr,
		"usage: tpcount [-a] [-o FILE] -e SYS:EVENT[/FILTER] ... -- COMMAND [ARG...]\n");
	return 2;
}
