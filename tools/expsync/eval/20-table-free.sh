#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# table_free, on either kernel (make run boots both): seed 001's malloc1
# reproducer with 1, 2 and 4 threads and a munmap loop, under each way
# of freeing page tables (variants immediate, rcu+percpu, rcu+gather:
# 6.12's RCU path; "6.12" on CONFIG_EXPSYNC=n, where x86 without a
# paravirt flush frees them with the page batch).  Per run (lib.sh
# record), each minus the mean of the same command run with 0 rounds (the
# exits of the benchmark, the shell and the counter themselves):
#  - task_ms: the CPU time of the benchmark's threads over its work
#    (CLOCK_PROCESS_CPUTIME_ID, what task-clock counts; guest clock,
#    -icount under make run);
#  - busy_ms: the busy time of all CPUs from /proc/stat over the run,
#    which also holds the RCU callbacks, softirqs and kthreads that
#    task-clock charges to nobody;
#  - rcu_per_1000: every call_rcu() in the system (rcu:rcu_callback,
#    counted on every CPU by tpcount -a: perf stat's counting without
#    its 4 s start-up under TCG) per 1000 munmaps;
# and, on expsync under rcu, tables per call_rcu() of page tables from
# the expsync counters (6.12 has no such counter).
. "$(dirname "$0")/../lib.sh"
bench=$(expsync_ksft_dir)/table_free_bench
sysctl=/proc/sys/kernel/expsync
stats=/sys/kernel/debug/expsync/stats
reps=$(eval_reps)
# Rounds: a run of the single-threaded loops must be long against the
# 10 ms resolution of /proc/stat.  With threads sharing the mm, every
# munmap IPIs the other vCPUs, which under -icount wait their
# round-robin turn (several ms each): far fewer rounds.
if [ -n "${QUICK:-}" ]; then
	rounds=4000 mrounds=2000 t2rounds=25 t4rounds=12
else
	rounds=16000 mrounds=8000 t2rounds=100 t4rounds=50
fi

echo "== table_free ($reps runs per figure, minus $reps runs with 0 rounds)"
if [ ! -x "$bench" ] || [ ! -d /sys/kernel/tracing/events/rcu/rcu_callback ]; then
	echo "  MISSING: needs table_free_bench and the rcu:rcu_callback tracepoint"
	exit 1
fi
fail=0
stat() { awk -v k="$1" '$1 == k { print $2 }' $stats; }

# All CPUs' busy time so far, in ms (/proc/stat: all but idle and iowait).
busy_ms() {
	awk -v hz="$(getconf CLK_TCK)" '$1 == "cpu" {
		printf "%d\n", ($2 + $3 + $4 + $7 + $8 + $9) * 1000 / hz }' /proc/stat
}

# One run: "task_ms busy_ms call_rcu_events" of BENCH-ARGS.
run_once() {
	local out b0 b1 ev ms
	out=$(mktemp)
	b0=$(busy_ms)
	ms=$("$(dirname "$bench")/tpcount" -a -o "$out" -e rcu:rcu_callback -- "$bench" "$@" |
		awk '{ print $4 }')
	b1=$(busy_ms)
	ev=$(awk '$2 == "rcu:rcu_callback" { print $1 }' "$out")
	rm -f "$out"
	[ -n "$ms" ] && [ -n "$ev" ] && echo "$ms $((b1 - b0)) $ev"
}

# measure FIGURE VARIANT ROUNDS BENCH-ARGS (ROUNDS goes last)
measure() {
	local fig=$1 v=$2 rounds=$3 runs zero munmaps t0= b0 t1 b1 rc=0
	shift 3
	[ -n "$(stat table_free_rcu)" ] && t0=$(stat table_free_rcu) b0=$(stat table_free_rcu_batches)
	runs=$(for i in $(seq "$reps"); do run_once "$@" "$rounds"; done)
	[ -n "$(stat table_free_rcu)" ] && t1=$(stat table_free_rcu) b1=$(stat table_free_rcu_batches)
	zero=$(for i in $(seq "$reps"); do run_once "$@" 0; done)
	munmaps=$("$bench" "$@" "$rounds" | awk '{ print $2 }')
	if [ "$(grep -c . <<<"$runs")" != "$reps" ] || [ "$(grep -c . <<<"$zero")" != "$reps" ] ||
	   [ -z "$munmaps" ] || [ "$munmaps" = 0 ]; then
		echo "  $fig $v: MISSING (runs '$runs', zero-round runs '$zero', munmaps '$munmaps')"
		return 1
	fi
	read -r zms _ < <(mean_sd 1 <<<"$zero")
	read -r zbusy _ < <(mean_sd 2 <<<"$zero")
	read -r zev _ < <(mean_sd 3 <<<"$zero")
	while read -r ms busy ev; do
		record "tf_${fig}_task_ms" "$v" "$(awk -v a="$ms" -v z="$zms" 'BEGIN { print a - z }')" || rc=1
		record "tf_${fig}_busy_ms" "$v" "$(awk -v a="$busy" -v z="$zbusy" 'BEGIN { print a - z }')" ||
			rc=1
		record "tf_${fig}_rcu_per_1000" "$v" \
			"$(awk -v a="$ev" -v z="$zev" -v m="$munmaps" 'BEGIN { print (a - z) * 1000 / m }')" ||
			rc=1
	done <<<"$runs"
	# Tables per call_rcu() of page tables over the measured runs (the
	# zero-round runs' own few tables are left in: exits only).
	if [ -n "$t0" ] && [ "$((b1 - b0))" -gt 0 ]; then
		record "tf_${fig}_tables_per_rcu" "$v" \
			"$(awk -v t=$((t1 - t0)) -v b=$((b1 - b0)) 'BEGIN { print t / b }')" || rc=1
	fi
	return $rc
}

# variant NAME MODE BATCH: set the policy on expsync; on 6.12, NAME is 6.12.
if expsync_kernel; then
	orig_mode=$(cat $sysctl/table_free) orig_batch=$(cat $sysctl/table_free_rcu_batch)
	variants="immediate:immediate:percpu rcu+percpu:rcu:percpu rcu+gather:rcu:gather"
else
	variants="6.12::"
fi
for w in "malloc_t1 $rounds malloc 1" "malloc_t2 $t2rounds malloc 2" \
	 "malloc_t4 $t4rounds malloc 4" "munmap $mrounds munmap"; do
	read -r fig r args <<<"$w"
	for spec in $variants; do
		IFS=: read -r v mode batch <<<"$spec"
		if [ -n "$mode" ]; then
			echo "$mode" > $sysctl/table_free && echo "$batch" > $sysctl/table_free_rcu_batch ||
				{ echo "  cannot set table_free=$mode table_free_rcu_batch=$batch"; fail=1; }
		fi
		# shellcheck disable=SC2086 # args are words
		measure "$fig" "$v" "$r" $args || fail=1
	done
done
if expsync_kernel; then
	echo "$orig_mode" > $sysctl/table_free
	echo "$orig_batch" > $sysctl/table_free_rcu_batch
fi
exit $fail
