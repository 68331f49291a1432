#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# membarrier delivers its IPIs: counted on the receiving CPUs by the
# kernel's own interrupt tracepoints, independently of expsync.
#
# For each expedited command (private, global, sync_core, rseq) and each
# strategy (kernel.expsync.membarrier_ipi = many, single), membarrier_bench
# pins one thread to every CPU, spins on CPUs 1..N-1 and calls membarrier
# CALLS times from CPU 0, while
#   perf stat -a -A -e irq_vectors:call_function_entry,
#                      irq_vectors:call_function_single_entry
# counts, per CPU, the function-call interrupts that CPU took.  Every call
# must reach every target CPU once, through the strategy's vector:
#   many:   CALL_FUNCTION_VECTOR        (one IPI to the whole mask)
#   single: CALL_FUNCTION_SINGLE_VECTOR (one IPI per target CPU)
# so on each target the strategy's vector counts CALLS and the other one
# about nothing.  Other interrupts of the same vectors (perf enabling and
# disabling its counters, the exit of the process) are measured by the
# same command with 0 calls just before: the band on each count is
# +-(2 * that baseline's largest per-CPU count + 2), two-sided.
# Needs 3 CPUs: with one target, smp_call_function_many() sends a
# single-CPU IPI too.
here=$(cd "$(dirname "$0")" && pwd)
sysctl=/proc/sys/kernel/expsync/membarrier_ipi
calls=${CALLS:-200}
ncpus=$(nproc)
events=irq_vectors:call_function_entry,irq_vectors:call_function_single_entry
cmds="private global sync_core rseq"

echo "TAP version 13"
# Every precondition is a failure, not a skip: make check requires this test.
fatal() { echo "1..1"; echo "not ok 1 $*"; exit 1; }
[ "$(id -u)" = 0 ] || fatal "must run as root"
[ -w $sysctl ] || fatal "no $sysctl"
command -v perf >/dev/null || fatal "no perf in the guest"
[ "$ncpus" -ge 3 ] || fatal "needs 3 CPUs, has $ncpus"
orig=$(cat $sysctl)

# count CMD CALLS -> per CPU "cpu fn single", one line each
count() {
	local out
	out=$(mktemp)
	if ! perf stat -a -A -x, -o "$out" -e "$events" -- \
		"$here/membarrier_bench" "$ncpus" "$2" "$1" > /dev/null; then
		rm -f "$out"
		return 1
	fi
	awk -F, '
		$1 ~ /^CPU[0-9]+$/ && $2 ~ /^[0-9]+$/ {
			c = substr($1, 4)
			if ($4 == "irq_vectors:call_function_entry") fn[c] = $2
			if ($4 == "irq_vectors:call_function_single_entry") sg[c] = $2
			seen[c] = 1
		}
		END { for (c in seen) print c, fn[c] + 0, sg[c] + 0 }' "$out" | sort -n
	rm -f "$out"
}

echo "1..$((2 * $(wc -w <<<"$cmds")))"
fail=0 n=0
declare -A slack
for cmd in $cmds; do
	base=$(count "$cmd" 0) || fatal "perf stat of membarrier_bench $cmd failed"
	[ "$(wc -l <<<"$base")" -eq "$ncpus" ] ||
		fatal "perf stat -A gave $(wc -l <<<"$base") CPUs, want $ncpus"
	noise=$(awk '{ m = $2 > m ? $2 : m; m = $3 > m ? $3 : m } END { print m + 0 }' <<<"$base")
	slack[$cmd]=$((2 * noise + 2))
	echo "# $cmd: baseline (0 calls), largest count on one CPU $noise, band +-${slack[$cmd]}"
done
for strategy in many single; do
	echo "$strategy" > $sysctl || fatal "cannot set membarrier_ipi=$strategy"
	for cmd in $cmds; do
		n=$((n + 1))
		s=${slack[$cmd]}
		got=$(count "$cmd" "$calls")
		bad=$(awk -v n="$calls" -v s="$s" -v strat="$strategy" -v nt=$((ncpus - 1)) '
			$1 == 0 { next }	# the caller: no IPI to itself
			{
				want = strat == "many" ? $2 : $3
				other = strat == "many" ? $3 : $2
				if (want < n - s || want > n + s || other > s)
					printf " cpu%d:fn=%d,single=%d", $1, $2, $3
				t++
			}
			END { if (t != nt) printf " targets=%d", t }' <<<"$got")
		echo "# membarrier_ipi=$strategy $cmd, $calls calls, per target CPU" \
			"(call_function, call_function_single):" \
			"$(awk '$1 != 0 { printf " cpu%d=%d,%d", $1, $2, $3 }' <<<"$got")"
		if [ -n "$got" ] && [ -z "$bad" ]; then
			echo "ok $n membarrier_ipi=$strategy $cmd: each target took $calls IPIs (+-$s)"
		else
			echo "not ok $n membarrier_ipi=$strategy $cmd: delivery off:${bad:- no counts}"
			fail=1
		fi
	done
done
echo "$orig" > $sysctl
exit $fail
