#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vmstat_drain isolation, perf-based.  Needs a boot with CPU 1 isolated
# (nohz_full=1 isolcpus=1); make check boots one.  For each policy, a
# counter-changing load runs on CPU 1 for $SECONDS s while
#  - perf stat -C 1 counts vmstat_update work items executed on CPU 1
#    (workqueue:workqueue_execute_start, filtered on the function), and
#  - vmstat_isolation samples CPU 1's differentials from CPU 0 whenever
#    the load is in user mode.
# user-return: 0 work items and every sample 0.
# periodic (6.12): stale differentials or work items must show, or the
# test could not tell the two apart.
here=$(cd "$(dirname "$0")" && pwd)
ksft_skip=4
sysctl=/proc/sys/kernel/expsync
seconds=${SECONDS_PER_POLICY:-10}
cpu=${VMSTAT_CPU:-1}

echo "TAP version 13"
[ "$(id -u)" = 0 ] || { echo "1..0 # SKIP must run as root"; exit $ksft_skip; }
[ -w $sysctl/vmstat_drain ] || { echo "1..0 # SKIP no $sysctl/vmstat_drain"; exit $ksft_skip; }
grep -qw "nohz_full=$cpu" /proc/cmdline ||
	{ echo "1..0 # SKIP needs a boot with nohz_full=$cpu isolcpus=$cpu"; exit $ksft_skip; }
command -v perf >/dev/null || { echo "1..0 # SKIP no perf"; exit $ksft_skip; }

orig_policy=$(cat $sysctl/vmstat_drain) orig_cpus=$(cat $sysctl/vmstat_drain_cpus)
echo "1..2"
fail=0 n=0
for policy in user-return periodic; do
	n=$((n + 1))
	echo "$policy" > $sysctl/vmstat_drain
	echo "$cpu" > $sysctl/vmstat_drain_cpus
	out=$(mktemp)
	perf stat -x, -o "$out" -C $cpu -e workqueue:workqueue_execute_start \
		--filter 'function.function == vmstat_update' -- \
		"$here/vmstat_isolation" $cpu "$seconds" > "$out.load" 2>/dev/null
	work=$(awk -F, '$3 == "workqueue:workqueue_execute_start" { print $1 }' "$out")
	read -r _ samples _ nonzero _ max _ rounds < "$out.load"
	rm -f "$out" "$out.load"
	echo "# vmstat_drain=$policy, ${seconds}s on CPU $cpu: $rounds rounds," \
		"vmstat_update on CPU $cpu: ${work:-?}, samples $samples," \
		"with stale diffs $nonzero (max $max)"
	if [ "$policy" = user-return ]; then
		ok=$([ "${work:-1}" = 0 ] && [ "${samples:-0}" -ge 50 ] &&
			[ "$nonzero" = 0 ] && echo 1)
		what="no vmstat work on CPU $cpu, counters exact in user mode"
	else
		ok=$([ "${samples:-0}" -ge 50 ] &&
			{ [ "$nonzero" -gt 0 ] || [ "${work:-0}" -gt 0 ]; } && echo 1)
		what="6.12 behaviour visible (stale diffs or vmstat work)"
	fi
	if [ "$ok" = 1 ]; then
		echo "ok $n vmstat_drain=$policy: $what"
	else
		echo "not ok $n vmstat_drain=$policy: $what"
		fail=1
	fi
done
echo "$orig_cpus" > $sysctl/vmstat_drain_cpus 2>/dev/null
echo "$orig_policy" > $sysctl/vmstat_drain
exit $fail
