#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make run [QUICK=1]: expsync against 6.12, side by side, in one run.
#
# Builds (or reuses) the bench kernel and the same configuration with
# CONFIG_EXPSYNC=n (build/obj-bench-noexpsync: 6.12, plus the series' first
# patch, the membarrier -ENOMEM fix).  First, alone on the host, the
# isolation ledger (isolation_ledger.sh, then rtla) on both kernels side
# by side, in guests with 3 vCPUs, CPU 2 isolated, as make check runs it
# (interrupt counts: no -icount).  Then the guest jobs, two at a time,
# each on one kernel:
#  - the evaluation (tools/expsync/eval/*.sh) in a guest with 4 vCPUs,
#    CPU 3 nohz_full and isolated, under -icount shift=0,sleep=off;
#  - stress-ng --membarrier in a guest with 4 vCPUs, none isolated (its
#    stressor needs MEMBARRIER_CMD_GLOBAL, which nohz_full turns off),
#    under -icount;
#  - the scaling curves ("eval/10-membarrier.sh scaling") in a guest
#    with 8 vCPUs, none isolated, under -icount (not under QUICK=1);
#  - the counter functions stepped by gdb (fastpath-steps.sh);
#  - membarrier under fault injection (eval/nomem.sh) in test-
#    configuration boots, expsync's and 6.12's membarrier.c with
#    CONFIG_EXPSYNC=n (build-612-membarrier.sh);
# and on the host the vmstat fast path's machine code (fastpath-check.sh).
# Every guest gets the same vCPUs and boot parameters apart from the
# kernel.  tools/expsync/report.py turns the raw records into
# build/report/{summary.txt,report.md,index.html,results.json} and exits
# non-zero, naming it, when any figure is missing.  QUICK=1: fewer runs
# and shorter ones, for a first look; NO_PERF=1: perf unrunnable in the
# evaluation guests (make run must fail and name what is missing).
set -uo pipefail
. "$(dirname "$0")/lib.sh"
top=$EXPSYNC_TOP
cd "$top"
out=build/report
rm -rf "$out"
mkdir -p "$out"
t_all=$(date +%s)
phase() {	# phase NAME: the time of the phase before, then NAME
	local t
	t=$(date +%s)
	[ -z "${phase_name:-}" ] || echo "   ($phase_name: $((t - phase_t0)) s)" | tee -a "$out/phases.txt"
	phase_name=$1 phase_t0=$t
	[ -z "$1" ] || echo "== $1"
}
die() { echo "make run: $*" >&2; exit 1; }

phase "build: the bench kernel, its CONFIG_EXPSYNC=n twin (6.12) and, but for QUICK=1, the no-ENOMEM figure's two"
for c in bench bench-noexpsync; do
	make -s kernel CONFIG=$c > "$out/build-$c.log" 2>&1 ||
		{ tail -n 30 "$out/build-$c.log"; die "the $c kernel did not build"; }
done
make -s selftests CONFIG=bench > "$out/selftests-build.log" 2>&1 ||
	{ tail -n 30 "$out/selftests-build.log"; die "the selftests did not build"; }
ksft=$top/build/obj-bench/kselftest/kselftest_install
[ -x "$ksft/expsync/membarrier_bench" ] || die "no kselftests in $ksft"
# The no-ENOMEM figure needs fault injection, which the bench kernels
# leave out: the test kernel, and the noexpsync test kernel with 6.12's
# membarrier.c (build-612-membarrier.sh).  Not under QUICK=1.
if [ -z "${QUICK:-}" ]; then
	make -s kernel CONFIG=test > "$out/build-test.log" 2>&1 ||
		{ tail -n 30 "$out/build-test.log"; die "the test kernel did not build"; }
	make -s kernel-612-membarrier > "$out/build-612-membarrier.log" 2>&1 ||
		{ tail -n 30 "$out/build-612-membarrier.log"; die "the 6.12-membarrier kernel did not build"; }
fi

# The runs of each figure: report.py's, one place (lib.sh eval_reps).
fr=$(python3 tools/expsync/report.py runs) || die "report.py runs failed"
runs="FIGURE_RUNS='$fr'"
quick=
ledger=1
if [ -n "${QUICK:-}" ]; then
	# The figures QUICK=1 measures: report.py's QUICK set, one place.
	qf=$(python3 tools/expsync/report.py quick-figures) || die "report.py quick-figures failed"
	quick="QUICK=1 QUICK_FIGURES='$qf'"
	[[ " $qf" == *" ledger_"* ]] || ledger=
fi
# eval_on KERNEL-DIR LOG [SCRIPTS]: the evaluation (or only the eval
# scripts numbered SCRIPTS) on one kernel.
eval_on() {
	tools/expsync/vm-run.sh --kernel "build/obj-$1/arch/x86/boot/bzImage" \
		--name "report-$1${3:+-${3// /}}" --smp 4 --icount 1 --timeout 3000 \
		--append "nohz_full=3 isolcpus=nohz,domain,3" \
		-- "$runs $quick NO_PERF='${NO_PERF:-}' EVAL_ONLY='${3:-}'" \
		"tools/expsync/eval/report.sh" > "$2" 2>&1
}
# ledger KERNEL-DIR LOG: the isolation ledger on one kernel, then rtla
# osnoise on its isolated CPU (40-programs.sh; not under -icount, so
# with the tracepoints held from boot: lib.sh hold_static_calls).
ledger_on() {
	local secs=15
	tools/expsync/vm-run.sh --kernel "build/obj-$1/arch/x86/boot/bzImage" \
		--name "ledger-$1" --smp 3 --timeout 1800 \
		--append "nohz_full=2 isolcpus=nohz,domain,2 $(hold_boot_args "build/obj-$1/.config")" \
		-- "${NO_PERF:+mount --bind /dev/null \$(command -v perf);}" \
		". $top/tools/expsync/lib.sh; hold_static_calls || exit 1;" \
		"LEDGER_SECONDS=$secs LEDGER_REPEAT=1" \
		"LEDGER_CONFIGS='rcu:user-return immediate:direct auto:periodic'" \
		"$ksft/expsync/isolation_ledger.sh;" \
		"$runs PROGRAMS_PART=rtla $top/tools/expsync/eval/40-programs.sh ||" \
		"echo 'FAILED: 40-programs.sh PROGRAMS_PART=rtla'" > "$2" 2>&1
}
# programs_on KERNEL-DIR LOG: stress-ng --membarrier (40-programs.sh),
# in a boot without nohz_full, where its stressor runs at all.
programs_on() {
	tools/expsync/vm-run.sh --kernel "build/obj-$1/arch/x86/boot/bzImage" \
		--name "programs-$1" --smp 4 --icount 1 --timeout 1800 \
		-- "$runs PROGRAMS_PART=membarrier $top/tools/expsync/eval/40-programs.sh" > "$2" 2>&1
}
# scaling_on KERNEL-DIR LOG: seed 000's table and coalescing as callers
# grow ("eval/10-membarrier.sh scaling"), 8 vCPUs, none isolated,
# under -icount.
scaling_on() {
	tools/expsync/vm-run.sh --kernel "build/obj-$1/arch/x86/boot/bzImage" \
		--name "scaling-$1" --smp 8 --icount 1 --timeout 2400 \
		-- "$runs $top/tools/expsync/eval/10-membarrier.sh scaling" > "$2" 2>&1
}
# fastpath_on KERNEL LOG: the counter functions' calls stepped by gdb.
fastpath_on() {
	tools/expsync/fastpath-steps.sh "obj-$1" "$1" "$out/fastpath-$1.jsonl" > "$2" 2>&1
}
# nomem_on KERNEL LOG: the no-ENOMEM figure (eval/nomem.sh) on the test
# kernel ("test") or the noexpsync one with 6.12's membarrier.c ("612").
# 6.12's failed allocations each dump the stack (DEBUG_PER_CPU_MAPS:
# "alloc_cpumask_var: failed!"), which vm-run.sh reports as a splat
# (status 126): accepted there when every stack trace is one of those
# and the console shows no other splat.
nomem_on() {
	local k=build/obj-test/arch/x86/boot/bzImage st con=build/vm/nomem-$1/console.log
	[ "$1" = 612 ] && k=build/nomem612/obj/arch/x86/boot/bzImage
	tools/expsync/vm-run.sh --kernel "$k" --name "nomem-$1" --smp 2 --timeout 1200 \
		--append "kunit.enable=0" -- "$top/tools/expsync/eval/nomem.sh" > "$2" 2>&1
	st=$?
	if [ "$1" = 612 ] && [ $st = 126 ] &&
	   [ "$(grep -c 'Call Trace:' "$con")" = "$(grep -c 'alloc_cpumask_var: failed!' "$con")" ] &&
	   ! grep -Eq "$SPLAT_RE" "$con"; then
		echo "(the stack dumps in $con are 6.12's failed cpumask allocations)" >> "$2"
		st=0
	fi
	return $st
}
rc=0
# side_by_side FN PREFIX: FN KERNEL build/report/PREFIX-KERNEL.log for
# bench-noexpsync and bench at once, one host core each, and nothing
# else beside them: the ledger's counts (no -icount) are then of the
# same work in the same window on both.
side_by_side() {
	local pids=() i k=(bench-noexpsync bench)
	for i in 0 1; do
		"$1" "${k[$i]}" "$out/$2-${k[$i]}.log" & pids+=($!)
	done
	for i in 0 1; do
		wait "${pids[$i]}" || { echo "   $1 ${k[$i]} failed (status $?)"; rc=1; }
	done
}
# What each guest job measures, for the lines make run prints.
declare -A what=([eval_on]="evaluation (4 vCPUs, CPU 3 isolated, -icount)"
	[programs_on]="stress-ng --membarrier (4 vCPUs, no nohz_full, -icount)"
	[scaling_on]="scaling curves (8 vCPUs, -icount)"
	[fastpath_on]="counter functions stepped by gdb (4 vCPUs, CPU 3 isolated)"
	[nomem_on]="membarrier under fault injection (test configuration, 2 vCPUs)")
# job "LOG|FN|KERNEL|PARTS": FN KERNEL build/report/LOG.log [PARTS], timed;
# its status in build/report/jobs/LOG.
job() {
	local log fn k parts t0 st
	IFS='|' read -r log fn k parts <<<"$1"
	t0=$(date +%s)
	"$fn" "$k" "$out/$log.log" ${parts:+"$parts"}
	st=$?
	echo "   ($log, ${what[$fn]}${parts:+, parts $parts}: $(($(date +%s) - t0)) s$(
		[ $st = 0 ] || echo ", FAILED with status $st"))" | tee -a "$out/phases.txt"
	echo $st > "$out/jobs/$log"
}
# pool JOB...: the jobs, two at a time (the host's two cores), in the
# order given, longest first (the times make run prints).  Under
# -icount a figure counts guest instructions, whatever runs beside it.
pool() {
	local j f
	rm -rf "$out/jobs"
	mkdir -p "$out/jobs"
	for j in "$@"; do
		while [ "$(jobs -rp | wc -l)" -ge 2 ]; do wait -n; done
		job "$j" &
	done
	wait
	for f in "$out"/jobs/*; do
		[ "$(cat "$f")" = 0 ] || rc=1
	done
}
if [ -n "$ledger" ]; then
	phase "isolation ledger on obj-bench-noexpsync and obj-bench, side by side (3 vCPUs, CPU 2 isolated)"
	side_by_side ledger_on ledger
	python3 tools/expsync/ledger.py "$out/ledger-bench-noexpsync.log" "$out/ledger-bench.log" \
		> "$out/ledger.txt" 2>&1 || rc=1
fi
jobs_=()
if [ -n "$quick" ]; then
	# QUICK=1 measures no programs: one boot per kernel.
	jobs_+=("guest-bench-noexpsync|eval_on|bench-noexpsync|" "guest-bench|eval_on|bench|")
else
	# expsync runs every variant, 6.12 one: expsync's evaluation is
	# split over three boots.
	jobs_+=("guest-bench.b|eval_on|bench|20 30"
		"scaling-bench|scaling_on|bench|" "scaling-bench-noexpsync|scaling_on|bench-noexpsync|"
		"guest-bench.a|eval_on|bench|10" "guest-bench-noexpsync|eval_on|bench-noexpsync|"
		"guest-bench.c|eval_on|bench|40"
		"nomem-612|nomem_on|612|" "nomem-test|nomem_on|test|"
		"fastpath-steps-bench|fastpath_on|bench|"
		"fastpath-steps-bench-noexpsync|fastpath_on|bench-noexpsync|"
		"programs-bench|programs_on|bench|"
		"programs-bench-noexpsync|programs_on|bench-noexpsync|")
fi
phase "guest jobs, two at a time on the two host cores"
pool "${jobs_[@]}"
if [ -z "$quick" ]; then
	cat "$out"/guest-bench.[abc].log > "$out/guest-bench.log"
fi
for l in guest-bench-noexpsync guest-bench programs-bench-noexpsync programs-bench \
	 scaling-bench-noexpsync scaling-bench; do
	[ -f "$out/$l.log" ] || continue
	grep -E '^ *(MISSING|FAILED)' "$out/$l.log"
	grep '^@T' "$out/$l.log" | awk -v k="$l" '{ printf "   %s %s: %d s of guest time\n", k, $2, $3 }'
done
phase "vmstat fast path: machine code of the counter functions, expsync against 6.12"
tools/expsync/fastpath-check.sh build/linux build/obj-bench-noexpsync/vmlinux \
	build/obj-bench/vmlinux > "$out/fastpath.txt" 2>&1 || rc=1
phase "report"
phase ""
python3 tools/expsync/report.py "$out" || rc=1
echo "make run: $([ $rc = 0 ] && echo ok || echo FAILED); $(($(date +%s) - t_all)) s;" \
	"report in $out/ (summary.txt, report.md, index.html, results.json)"
exit $rc
