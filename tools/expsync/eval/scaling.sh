#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The scaling curves, in a guest of 8 vCPUs, none isolated, under
# -icount (make run boots it on both kernels; not under QUICK=1).
# Records as the eval scripts do ("@R FIGURE VARIANT VALUE", one per run).
#  - seed 000's table: membarrier_perf.sh T CALLS for T = 2..8 threads of
#    one process on CPUs 0..T-1, thread 0 calling PRIVATE_EXPEDITED, the
#    others spinning (1..7 targets): IPI sends per 1000 calls
#    (mb_scale_sends_tN) and guest ns per call (mb_scale_ns_tN);
#    variants many, single;
#  - coalescing as callers grow: membarrier_bench 8 CALLS private K for
#    K = 1..7 callers among the 8 threads: runs of the command's IPI
#    handler per 1000 calls (mb_scale_rounds_cK) and calls per second
#    (mb_scale_cps_cK); variant on, against 6.12 (off is 6.12's path,
#    judged at 3 callers by eval/10-membarrier.sh).
# Runs per figure: report.py's (lib.sh eval_reps).
. "$(dirname "$0")/../lib.sh"
dir=$(expsync_ksft_dir)
sysctl=/proc/sys/kernel/expsync
calls=${SCALE_CALLS:-20}
ccalls=${SCALE_CCALLS:-20}

echo "== scaling"
if [ ! -x "$dir/membarrier_bench" ] || [ "$(nproc --all)" -lt 8 ]; then
	echo "  MISSING: needs membarrier_bench and 8 CPUs"
	exit 1
fi
fail=0
orig_ipi=$(cat $sysctl/membarrier_ipi 2>/dev/null)
orig_coalesce=$(cat $sysctl/membarrier_coalesce 2>/dev/null)

for v in $(variants many single); do
	set_knob membarrier_ipi "$v" || { echo "  cannot set membarrier_ipi=$v"; fail=1; }
	for t in 2 3 4 5 6 7 8; do
		for i in $(seq "$(eval_reps "mb_scale_ns_t$((t - 1))")"); do
			read -r ns m c _ < <("$dir/membarrier_perf.sh" "$t" "$calls")
			record "mb_scale_sends_t$((t - 1))" "$v" "${m:+$((m + c))}" || fail=1
			record "mb_scale_ns_t$((t - 1))" "$v" "$ns" || fail=1
		done
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
