#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# membarrier, on either kernel (make run boots both): every figure is a
# record per run (lib.sh record), variant "6.12" on CONFIG_EXPSYNC=n.
#  - strategy: membarrier_perf.sh, T threads of one process on CPUs
#    0..T-1, thread 0 calling PRIVATE_EXPEDITED, the others spinning
#    (T-1 targets): IPI sends per call (ipi:ipi_send_cpumask +
#    ipi:ipi_send_cpu, minus a 0-call run) and ns per call; variants
#    many, single;
#  - coalescing: membarrier_bench 3 CALLS private C, three threads of
#    one process on CPUs 0-2, C of them calling at once and the others
#    spinning (each thread is a target of the others' rounds): calls
#    per second, p99 and worst latency of a call, and the runs of the
#    command's IPI handler (csd:csd_function_entry, func ipi_mb: one per
#    target CPU a round reached) per call; variants off, on;
#  - another process (one thread on CPU 2 calling GLOBAL_EXPEDITED: no
#    other CPU runs a registered process, so it sends no IPI, but it
#    takes the IPI mutex) timed alone and beside an unprivileged hammer
#    (user nobody, PRIVATE_EXPEDITED: a caller on CPU 0, a spinner on
#    CPU 1): ns per call and p99; variants off, on.
# "10-membarrier.sh scaling", in a guest of 8 vCPUs, none isolated (make
# run; not under QUICK=1), the curves instead:
#  - seed 000's table: the strategy's figures for T = 2..8 threads (1..7
#    targets): sends per 1000 calls (mb_scale_sends_tN) and ns per call
#    (mb_scale_ns_tN); variants many, single;
#  - coalescing as callers grow: membarrier_bench 8 CALLS private K for
#    K = 1..7 callers among the 8 threads: handler runs per 1000 calls
#    (mb_scale_rounds_cK) and calls per second (mb_scale_cps_cK); variant
#    on, against 6.12 (off is 6.12's path, judged at 3 callers above).
# The isolated CPU 3 takes no part: under -icount a spinning vCPU with
# no tick keeps the host thread until QEMU's 100 ms round-robin kick,
# so every IPI to it would cost most of that (1.5 s per call, measured).
. "$(dirname "$0")/../lib.sh"
dir=$(expsync_ksft_dir)
sysctl=/proc/sys/kernel/expsync
calls=${MB_CALLS:-100}
# 40 calls per caller under QUICK=1 too: with 20, the calls made while
# one caller has not started yet or is done already, which share no
# round, weigh twice as much, and on's gain over off reads lower.
ccalls=40
# The other process's calls take about 1 us alone: enough of them to span
# many round-robin turns of the hammer's vCPUs.
vcalls=$([ -n "${QUICK:-}" ] && echo 500 || echo 2000)

if [ "${1:-}" = scaling ]; then
	cpus=8
	echo "== membarrier scaling (runs per point: $(eval_reps mb_scale_ns_t1))"
else
	cpus=3
	echo "== membarrier (runs per figure: strategy $(eval_reps mb_ipi_t3), the rest $(eval_reps mb_coalesce_c3_cps))"
fi
if [ ! -x "$dir/membarrier_bench" ] || [ "$(nproc --all)" -lt $cpus ]; then
	echo "  MISSING: needs membarrier_bench and $cpus CPUs"
	exit 1
fi
fail=0
orig_ipi=$(cat $sysctl/membarrier_ipi 2>/dev/null)
orig_coalesce=$(cat $sysctl/membarrier_coalesce 2>/dev/null)

# strategy_runs VARIANT T SENDS_FIGURE NS_FIGURE: membarrier_perf.sh T,
# its runs recorded as IPI sends per 1000 calls and ns per call.
strategy_runs() {
	local i ns m c
	for i in $(seq "$(eval_reps "$3")"); do
		read -r ns m c _ < <("$dir/membarrier_perf.sh" "$2" "$calls")
		record "$3" "$1" "${m:+$((m + c))}" || fail=1
		record "$4" "$1" "$ns" || fail=1
	done
}

if [ "${1:-}" = scaling ]; then
	calls=${SCALE_CALLS:-20} ccalls=${SCALE_CCALLS:-20}
	for v in $(variants many single); do
		set_knob membarrier_ipi "$v" || { echo "  cannot set membarrier_ipi=$v"; fail=1; }
		for t in 2 3 4 5 6 7 8; do
			strategy_runs "$v" "$t" "mb_scale_sends_t$((t - 1))" "mb_scale_ns_t$((t - 1))"
		done
		eval_step "strategy-$v"
	done
	set_knob membarrier_ipi "$orig_ipi"
	for v in $(variants on); do
		set_knob membarrier_coalesce "$v" || { echo "  cannot set membarrier_coalesce=$v"; fail=1; }
		for k in 1 2 3 4 5 6 7; do
			for i in $(seq "$(eval_reps "mb_scale_rounds_c$k")"); do
				read -r n _ _ _ cps _ < <(handler_runs \
					"$dir/membarrier_bench" 8 "$ccalls" private "$k")
				record "mb_scale_rounds_c$k" "$v" "${n:+$((n * 1000 / (k * ccalls)))}" || fail=1
				record "mb_scale_cps_c$k" "$v" "$cps" || fail=1
			done
		done
		eval_step "coalesce-$v"
	done
	set_knob membarrier_coalesce "$orig_coalesce"
	exit $fail
fi

# With 2 threads, CPU 2 would idle and the tick's idle-balance kicks to
# it (smp_call_function_single_async(), a few hundred per 1000 calls,
# varying) would count as sends: another process spins there.
for v in $(variants many single); do
	set_knob membarrier_ipi "$v" || { echo "  cannot set membarrier_ipi=$v"; fail=1; }
	for t in 2 3; do
		wants "mb_ipi_t$t" || continue
		bp=
		if [ "$t" = 2 ]; then
			taskset -c 2 sh -c 'while :; do :; done' & bp=$!
		fi
		strategy_runs "$v" "$t" "mb_ipi_t$t" "mb_ns_t$t"
		[ -z "$bp" ] || { kill "$bp"; wait "$bp" 2>/dev/null; }
	done
done
set_knob membarrier_ipi "$orig_ipi"
eval_step strategy

for v in $(variants off on); do
	set_knob membarrier_coalesce "$v" || { echo "  cannot set membarrier_coalesce=$v"; fail=1; }
	for c in 1 2 3; do
		wants "mb_coalesce_c${c}_cps" || continue
		for i in $(seq "$(eval_reps "mb_coalesce_c${c}_cps")"); do
			read -r ipis _ _ _ cps _ p99 _ max < <(handler_runs \
				"$dir/membarrier_bench" 3 "$ccalls" private "$c")
			record "mb_coalesce_c${c}_cps" "$v" "$cps" || fail=1
			record "mb_coalesce_c${c}_p99_ns" "$v" "$p99" || fail=1
			record "mb_coalesce_c${c}_max_ns" "$v" "$max" || fail=1
			record "mb_coalesce_c${c}_rounds" "$v" \
				"${ipis:+$((ipis * 1000 / (c * ccalls)))}" || fail=1
		done
	done
	eval_step "coalesce-$v"
	# The victim alone, then beside the unprivileged hammer.
	for hammer in alone hammer; do
		wants "mb_victim_${hammer}_ns" || continue
		for i in $(seq "$(eval_reps "mb_victim_${hammer}_ns")"); do
			hp=
			if [ $hammer = hammer ]; then
				setpriv --reuid=65534 --regid=65534 --clear-groups \
					"$dir/membarrier_bench" 2 100000000 private 1 0,1 \
					> /dev/null 2>&1 &
				hp=$!
				sleep 0.2
			fi
			read -r _ ns _ _ _ p99 _ < <("$dir/membarrier_bench" 1 "$vcalls" global 1 2)
			if [ -n "$hp" ]; then
				# The hammer must still be hammering, or the figure is not one.
				kill -0 "$hp" 2>/dev/null || ns=
				kill "$hp"; wait "$hp" 2>/dev/null
			fi
			record "mb_victim_${hammer}_ns" "$v" "$ns" || fail=1
			record "mb_victim_${hammer}_p99_ns" "$v" "$p99" || fail=1
		done
	done
	eval_step "victim-$v"
done
set_knob membarrier_coalesce "$orig_coalesce"
exit $fail
