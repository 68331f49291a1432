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
#  - busy_ms: the busy time of all CPUs over the run, which also holds
#    the RCU callbacks, softirqs and kthreads that task-clock charges to
#    nobody: the CPUs' time ($EPOCHREALTIME, us) minus their idle and
#    iowait time from /proc/stat (the kernel's own idle accounting,
#    exact but for its 10 ms unit; /proc/stat's user and system time
#    are 4 ms tick samples on CPUs 0-2, which miss or double short
#    bursts).  Under -icount a vCPU's busy time also holds the
#    instructions other vCPUs run while it waits its round-robin turn,
#    so this figure varies from run to run far more than task_ms;
#  - rcu_per_1000: every call_rcu() in the system (rcu:rcu_callback,
#    counted on every CPU by tpcount -a: perf stat's counting without
#    its 4 s start-up under TCG) per 1000 munmaps;
# and, on expsync under rcu, tables per call_rcu() of page tables from
# the expsync counters (6.12 has no such counter).
. "$(dirname "$0")/../lib.sh"
bench=$(expsync_ksft_dir)/table_free_bench
sysctl=/proc/sys/kernel/expsync
stats=/sys/kernel/debug/expsync/stats
reps=$(eval_reps tf_munmap_rcu_per_1000)
# The figures timed system-wide vary most (busy_ms): twice the runs.
treps=$((reps * 2))
# Rounds: a run of the single-threaded loops must be long against the
# 10 ms resolution of /proc/stat.  With threads sharing the mm, every
# munmap IPIs the other vCPUs, which under -icount wait their
# round-robin turn (several ms each): far fewer rounds.
if [ -n "${QUICK:-}" ]; then
	rounds=4000 mrounds=2000 t2rounds=25 t4rounds=12
else
	rounds=10000 mrounds=5000 t2rounds=60 t4rounds=30
fi

echo "== table_free ($reps runs per figure, $treps for the timed ones; each minus as many runs with 0 rounds)"
if [ ! -x "$bench" ] || [ ! -d /sys/kernel/tracing/events/rcu/rcu_callback ]; then
	echo "  MISSING: needs table_free_bench and the rcu:rcu_callback tracepoint"
	exit 1
fi
fail=0
stat() {	# stat NAME: an expsync counter (nothing on 6.12), builtins only
	local k v
	[ -r $stats ] || return 0
	while read -r k v; do [ "$k" = "$1" ] && echo "$v"; done < $stats
}

# All CPUs' busy time so far, in ms: the online CPUs' time since the
# epoch less their idle and iowait time (/proc/stat's "cpu" line sums
# every CPU's before it rounds to clock ticks).
hz=$(getconf CLK_TCK)
ncpus=$(getconf _NPROCESSORS_ONLN)	# nproc counts only the CPUs this task may use
busy_ms() {
	local i w t=${EPOCHREALTIME/./}
	read -r _ _ _ _ i w _ < /proc/stat
	echo $((ncpus * t / 1000 - (i + w) * 1000 / hz))
}

# One run: "task_ms busy_ms call_rcu_events munmaps tables batches" of
# BENCH-ARGS (the last two: expsync's counters of tables handed to RCU
# and of the call_rcu() calls that took them; 0 on 6.12).
# Shell builtins only, besides the two programs: under QEMU TCG every
# exec costs about 0.3 s of guest time.
tmpf=/tmp/tf_eval.$$
run_once() {
	local b0 b1 ev m ms res t0 t1 c0 c1
	t0=$(stat table_free_rcu) c0=$(stat table_free_rcu_batches)
	b0=$(busy_ms)
	# $(...) waits for tpcount, which writes $tmpf after the bench exits.
	res=$("$(dirname "$bench")/tpcount" -a -o $tmpf -e rcu:rcu_callback -- "$bench" "$@")
	b1=$(busy_ms)
	t1=$(stat table_free_rcu) c1=$(stat table_free_rcu_batches)
	read -r _ m _ ms <<<"$res"
	read -r ev _ < $tmpf
	rm -f $tmpf
	[ -n "$ms" ] && [ -n "$ev" ] &&
		echo "$ms $((b1 - b0)) $ev $m $((${t1:-0} - ${t0:-0})) $((${c1:-0} - ${c0:-0}))"
}

# measure FIGURE VARIANT ROUNDS BENCH-ARGS (ROUNDS goes last)
measure() {
	local fig=$1 v=$2 rounds=$3 runs zero rc=0 times=1
	shift 3
	# With threads sharing the mm, a run's time is the vCPUs' round-robin
	# waits for the flush IPIs, not work: only its counts are figures.
	local n=$treps
	[ "$1" = malloc ] && [ "$2" != 1 ] && times= n=$reps
	runs=$(for i in $(seq "$n"); do run_once "$@" "$rounds"; done)
	zero=$(for i in $(seq "$n"); do run_once "$@" 0; done)
	if [ "$(grep -c . <<<"$runs")" != "$n" ] || [ "$(grep -c . <<<"$zero")" != "$n" ]; then
		echo "  $fig $v: MISSING (runs '$runs', zero-round runs '$zero')"
		return 1
	fi
	# Each run minus the mean of the zero-round runs, in one awk.
	# Tables per call_rcu() of page tables: expsync's counters over the
	# run, under rcu only (the run's exit frees a few tables too).
	awk -v f="tf_$fig" -v v="$v" -v r="$n" -v times="$times" '
		NR <= r { ms[NR] = $1; busy[NR] = $2; ev[NR] = $3; m[NR] = $4
			  t[NR] = $5; b[NR] = $6; next }
		{ zms += $1 / r; zbusy += $2 / r; zev += $3 / r }
		END {
			for (i = 1; i <= r; i++) {
				if (m[i] <= 0) { print "  no munmaps in " f; exit 1 }
				if (times) {
					printf "@R %s_task_ms %s %.3f\n", f, v, ms[i] - zms
					printf "@R %s_busy_ms %s %.1f\n", f, v, busy[i] - zbusy
				}
				printf "@R %s_rcu_per_1000 %s %.2f\n", f, v, (ev[i] - zev) * 1000 / m[i]
				if (v ~ /^rcu/ && b[i] > 0)
					printf "@R %s_tables_per_rcu %s %.2f\n", f, v, t[i] / b[i]
			}
		}' <<<"$runs"$'\n'"$zero" || rc=1
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
	wants "tf_${fig}_rcu_per_1000" || continue
	for spec in $variants; do
		IFS=: read -r v mode batch <<<"$spec"
		if [ -n "$mode" ]; then
			echo "$mode" > $sysctl/table_free && echo "$batch" > $sysctl/table_free_rcu_batch ||
				{ echo "  cannot set table_free=$mode table_free_rcu_batch=$batch"; fail=1; }
		fi
		# shellcheck disable=SC2086 # args are words
		measure "$fig" "$v" "$r" $args || fail=1
	done
	eval_step "$fig"
done
if expsync_kernel; then
	echo "$orig_mode" > $sysctl/table_free
	echo "$orig_batch" > $sysctl/table_free_rcu_batch
fi
exit $fail
