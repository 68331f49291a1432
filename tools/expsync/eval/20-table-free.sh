#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# table_free: the seed's malloc1 reproducer and a munmap loop under each
# way of freeing page tables.  Timing: perf stat -r 5 -e task-clock of
# the benchmark alone (guest clock; -icount under make run), and the
# busy time of all CPUs from /proc/stat over the run, which also counts
# RCU callbacks, softirqs and kthreads that task-clock charges to nobody.
# Counts: perf stat -a of expsync:expsync_table_free_rcu (one event per
# call_rcu() of page tables, timer flushes included), and the expsync
# counters for tables per call_rcu().  Each figure is a mean over $reps
# runs with its standard deviation, minus the same measure of the same
# command with 0 rounds, which removes the exits of the benchmark, the
# shell and perf themselves.
. "$(dirname "$0")/../lib.sh"
bench=$(expsync_ksft_dir)/table_free_bench
sysctl=/proc/sys/kernel/expsync
stats=/sys/kernel/debug/expsync/stats
reps=${TF_REPS:-5}

echo "== table_free: page-table freeing (kernel.expsync.table_free)"
if [ ! -w $sysctl/table_free ] || [ ! -x "$bench" ]; then
	echo "  MISSING: no $sysctl/table_free or no table_free_bench"
	exit 1
fi
fail=0
stat() { awk -v k="$1" '$1 == k { print $2 }' $stats; }

# One run: "task_clock_ms busy_ms call_rcu_events" of BENCH-ARGS.
run_once() {
	local out b0 b1 ev ms
	out=$(mktemp)
	b0=$(busy_ms)
	perf stat -a -x, -o "$out.all" -e expsync:expsync_table_free_rcu -- \
		sh -c 'perf stat -x, -o "$0" -e task-clock -- "$@" >/dev/null; sleep 0.05' \
		"$out" "$bench" "$@" 2>/dev/null
	b1=$(busy_ms)
	ms=$(perf_value "$out" task-clock)
	ev=$(perf_value "$out.all" expsync:expsync_table_free_rcu)
	rm -f "$out" "$out.all"
	[ -n "$ms" ] && [ -n "$ev" ] && echo "$ms $((b1 - b0)) $ev"
}

# All CPUs' busy time so far, in ms (/proc/stat: all but idle and iowait).
busy_ms() {
	awk -v hz="$(getconf CLK_TCK)" '$1 == "cpu" {
		printf "%d\n", ($2 + $3 + $4 + $7 + $8 + $9) * 1000 / hz }' /proc/stat
}

# measure LABEL TABLE_FREE RCU_BATCH ROUNDS BENCH-ARGS (ROUNDS goes last)
measure() {
	local label=$1 mode=$2 batching=$3 rounds=$4 runs zero t0 b0 i0 t1 b1 i1 t2 b2 i2 munmaps
	local ms msd busy bsd ev esd zms zbusy zev
	shift 4
	echo "$mode" > $sysctl/table_free || return 1
	echo "$batching" > $sysctl/table_free_rcu_batch || return 1
	t0=$(stat table_free_rcu) b0=$(stat table_free_rcu_batches) i0=$(stat table_free_immediate)
	runs=$(for i in $(seq "$reps"); do run_once "$@" "$rounds"; done)
	munmaps=$("$bench" "$@" "$rounds" | awk '{ print $2 }')
	# The counters over the zero-round runs: what exits alone free.
	t1=$(stat table_free_rcu) b1=$(stat table_free_rcu_batches) i1=$(stat table_free_immediate)
	zero=$(for i in $(seq "$reps"); do run_once "$@" 0; done)
	t2=$(stat table_free_rcu) b2=$(stat table_free_rcu_batches) i2=$(stat table_free_immediate)
	# A figure that did not come out fails the evaluation (perf printing
	# nothing must not read as 0).
	if [ "$(grep -c . <<<"$runs")" != "$reps" ] || [ "$(grep -c . <<<"$zero")" != "$reps" ] ||
	   [ -z "$munmaps" ] || [ "$munmaps" = 0 ]; then
		printf '  %-22s MISSING (runs "%s", zero-round runs "%s", munmaps "%s")\n' \
			"$label" "$runs" "$zero" "$munmaps"
		return 1
	fi
	read -r ms msd < <(mean_sd 1 <<<"$runs")
	read -r busy bsd < <(mean_sd 2 <<<"$runs")
	read -r ev esd < <(mean_sd 3 <<<"$runs")
	read -r zms _ < <(mean_sd 1 <<<"$zero")
	read -r zbusy _ < <(mean_sd 2 <<<"$zero")
	read -r zev _ < <(mean_sd 3 <<<"$zero")
	# The expsync counters: t0..t1 covers the reps runs and the munmaps
	# run, t1..t2 the reps zero-round runs (exits only), subtracted per run.
	awk -v l="$label" -v ms="$ms" -v msd="$msd" -v zms="$zms" -v busy="$busy" \
		-v bsd="$bsd" -v zbusy="$zbusy" -v ev="$ev" -v esd="$esd" -v zev="$zev" \
		-v m="$munmaps" -v n=$((reps + 1)) -v r="$reps" \
		-v t=$((t1 - t0)) -v b=$((b1 - b0)) -v i=$((i1 - i0)) \
		-v zt=$((t2 - t1)) -v zb=$((b2 - b1)) -v zi=$((i2 - i1)) \
		'BEGIN { t -= zt * n / r; b -= zb * n / r; i -= zi * n / r
			 printf "  %-22s %9.1f %6.1f %9.1f %6.1f %9.1f %6.1f %9.1f %10.2f\n", l,
			 ms - zms, msd, busy - zbusy, bsd, (ev - zev) * 1000 / m, esd * 1000 / m,
			 (b > 0 ? t / b : 0), i / (m * n) }'
}

header() {
	echo "  $1"
	printf '  %-22s %9s %6s %9s %6s %9s %6s %9s %10s\n' mode "task ms" sd \
		"busy ms" sd "rcu/1000" sd tables/rcu immediate/op
}
orig_mode=$(cat $sysctl/table_free) orig_batch=$(cat $sysctl/table_free_rcu_batch)
rounds=${TF_ROUNDS:-4000}
header "malloc1, 1 thread x $rounds rounds of malloc(128 MB)/free(), $reps runs"
measure "immediate" immediate percpu "$rounds" malloc 1 || fail=1
measure "rcu, percpu batches" rcu percpu "$rounds" malloc 1 || fail=1
measure "rcu, per gather (6.12)" rcu gather "$rounds" malloc 1 || fail=1
# Threads sharing an mm: every munmap flushes the other vCPUs by IPI,
# and under -icount each IPI waits a round-robin slice: fewer rounds.
threads=$(nproc --all)
trounds=$((rounds / 40 / threads))
header "malloc1, $threads threads x $trounds rounds (threads share one mm)"
measure "immediate" immediate percpu $trounds malloc "$threads" || fail=1
measure "rcu, percpu batches" rcu percpu $trounds malloc "$threads" || fail=1
measure "rcu, per gather (6.12)" rcu gather $trounds malloc "$threads" || fail=1
header "munmap loop, 1 thread x $rounds rounds of mmap(4 MB)/touch 2 pages/munmap"
measure "immediate" immediate percpu "$rounds" munmap || fail=1
measure "rcu, percpu batches" rcu percpu "$rounds" munmap || fail=1
measure "rcu, per gather (6.12)" rcu gather "$rounds" munmap || fail=1
echo "$orig_mode" > $sysctl/table_free
echo "$orig_batch" > $sysctl/table_free_rcu_batch
cat <<'NOTE'
  Each figure is the mean over the runs, minus the same command run with
  0 rounds, and sd its standard deviation over the runs.  task ms is the
  benchmark's CPU time (perf stat -e task-clock); busy ms is all CPUs'
  busy time over the run (/proc/stat), which also holds the RCU callbacks
  that free the tables.  Under -icount both count guest instructions: the
  work each mode adds, not cache or wake-up effects of real hardware.
  rcu/1000 counts expsync:expsync_table_free_rcu events (perf stat -a)
  per 1000 munmaps; tables/rcu is tables per call_rcu(); immediate/op is
  tables freed right after the flush per munmap.
NOTE
exit $fail
