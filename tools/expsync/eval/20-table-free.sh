#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# table_free: the seed's malloc1 reproducer and a munmap loop under each
# way of freeing page tables.  Timing: perf stat -r 5 -e task-clock of
# the benchmark alone (guest clock; -icount under make run).  Counts:
# perf stat -a -r 5 of expsync:expsync_table_free_rcu (one event per
# call_rcu() of page tables, timer flushes included), and the expsync
# counters for tables per call_rcu().
top=$(cd "$(dirname "$0")/../../.." && pwd)
bench=$(ls "$top"/build/obj-*/kselftest/kselftest_install/expsync/table_free_bench 2>/dev/null | head -1)
sysctl=/proc/sys/kernel/expsync
stats=/sys/kernel/debug/expsync/stats
reps=${TF_REPS:-3}

echo "== table_free: page-table freeing (kernel.expsync.table_free)"
if [ ! -w $sysctl/table_free ] || [ -z "$bench" ]; then
	echo "  MISSING: no $sysctl/table_free or no table_free_bench"
	exit 1
fi
fail=0
stat() { awk -v k="$1" '$1 == k { print $2 }' $stats; }

# measure LABEL TABLE_FREE RCU_BATCH BENCH-ARGS...
measure() {
	local label=$1 mode=$2 batching=$3 out t0 r0 b0 i0 calls ms sd munmaps
	shift 3
	echo "$mode" > $sysctl/table_free || return 1
	echo "$batching" > $sysctl/table_free_rcu_batch || return 1
	out=$(mktemp)
	perf stat -x, -r "$reps" -o "$out" -e task-clock -- "$bench" "$@" >/dev/null
	ms=$(awk -F, '$3 == "task-clock" { print $1 }' "$out")
	sd=$(awk -F, '$3 == "task-clock" { print $4 }' "$out")
	t0=$(stat table_free_rcu) b0=$(stat table_free_rcu_batches) i0=$(stat table_free_immediate)
	perf stat -a -x, -r "$reps" -o "$out" -e expsync:expsync_table_free_rcu -- \
		sh -c "'$bench' $* >/dev/null; sleep 0.05" 2>/dev/null
	calls=$(awk -F, '$3 == "expsync:expsync_table_free_rcu" { print $1 }' "$out")
	rm -f "$out"
	munmaps=$("$bench" "$@" | awk '{ print $2 }')
	sleep 0.05
	# A figure that did not come out fails the evaluation (perf printing
	# nothing must not read as 0).
	if [ -z "$ms" ] || [ -z "$calls" ] || [ -z "$munmaps" ] || [ "$munmaps" = 0 ]; then
		printf '  %-22s MISSING (task-clock "%s", events "%s", munmaps "%s")\n' \
			"$label" "$ms" "$calls" "$munmaps"
		return 1
	fi
	# The last run above was extra, outside perf: counters cover reps + 1 runs.
	awk -v l="$label" -v ms="$ms" -v sd="$sd" -v c="$calls" -v m="$munmaps" \
		-v t=$(($(stat table_free_rcu) - t0)) -v b=$(($(stat table_free_rcu_batches) - b0)) \
		-v i=$(($(stat table_free_immediate) - i0)) -v n=$((reps + 1)) \
		'BEGIN { printf "  %-22s %10.1f %6s %14.1f %12.1f %12.2f\n", l, ms, sd,
			 c * 1000 / m, b ? t / b : 0, i / (m * n) }'
}

header() {
	echo "  $1"
	printf '  %-22s %10s %6s %14s %12s %12s\n' mode "task-clock" "+-" \
		"call_rcu/1000" tables/rcu immediate/op
}
orig_mode=$(cat $sysctl/table_free) orig_batch=$(cat $sysctl/table_free_rcu_batch)
rounds=${TF_ROUNDS:-4000}
header "malloc1, 1 thread x $rounds rounds of malloc(128 MB)/free(), perf stat -r $reps"
measure "immediate" immediate percpu malloc 1 "$rounds" || fail=1
measure "rcu, percpu batches" rcu percpu malloc 1 "$rounds" || fail=1
measure "rcu, per gather (6.12)" rcu gather malloc 1 "$rounds" || fail=1
# Threads sharing an mm: every munmap flushes the other vCPUs by IPI,
# and under -icount each IPI waits a round-robin slice: fewer rounds.
threads=$(nproc --all)
trounds=$((rounds / 40 / threads))
header "malloc1, $threads threads x $trounds rounds (threads share one mm)"
measure "immediate" immediate percpu malloc "$threads" $trounds || fail=1
measure "rcu, percpu batches" rcu percpu malloc "$threads" $trounds || fail=1
measure "rcu, per gather (6.12)" rcu gather malloc "$threads" $trounds || fail=1
header "munmap loop, 1 thread x $rounds rounds of mmap(4 MB)/touch 2 pages/munmap"
measure "immediate" immediate percpu munmap "$rounds" || fail=1
measure "rcu, percpu batches" rcu percpu munmap "$rounds" || fail=1
measure "rcu, per gather (6.12)" rcu gather munmap "$rounds" || fail=1
echo "$orig_mode" > $sysctl/table_free
echo "$orig_batch" > $sysctl/table_free_rcu_batch
cat <<'NOTE'
  task-clock is the benchmark's CPU time in ms (mean of the runs, +- its
  stddev); under -icount it counts guest instructions, so it shows the
  work each mode adds (call_rcu(), callback processing) but not cache or
  RCU-kthread wake-up effects of real hardware.  call_rcu/1000 counts
  expsync:expsync_table_free_rcu events per 1000 munmaps; tables/rcu is
  tables per call_rcu(); immediate/op is tables freed right after the
  flush per munmap.
NOTE
exit $fail
