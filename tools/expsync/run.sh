#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make run [QUICK=1]: expsync against 6.12, side by side, in one run.
#
# Builds (or reuses) the bench kernel and the same configuration with
# CONFIG_EXPSYNC=n (build/obj-bench-noexpsync: 6.12, plus the series' first
# patch, the membarrier -ENOMEM fix), then, on each kernel:
#  - the evaluation (tools/expsync/eval/*.sh) in a guest with 4 vCPUs,
#    CPU 3 nohz_full and isolated, under -icount shift=0,sleep=off;
#  - the isolation ledger (isolation_ledger.sh) in a guest with 3 vCPUs,
#    CPU 2 isolated, as make check runs it (interrupt counts: no -icount);
#  - stress-ng --membarrier in a guest with 4 vCPUs, none isolated (its
#    stressor needs MEMBARRIER_CMD_GLOBAL, which nohz_full turns off),
#    under -icount;
#  - the scaling curves (eval/scaling.sh) in a guest with 8 vCPUs, none
#    isolated, under -icount (not under QUICK=1);
# then membarrier under fault injection (eval/nomem.sh) in two test-
# configuration boots, expsync's and 6.12's membarrier.c with
# CONFIG_EXPSYNC=n (build-612-membarrier.sh), and on the host the vmstat
# fast path's machine code (fastpath-check.sh).
# Every guest gets the same vCPUs and boot parameters apart from the
# kernel.  tools/expsync/report.py turns the raw records into
# build/report/{summary.txt,report.md,index.html,results.json} and exits
# non-zero, naming it, when any figure is missing.  QUICK=1: fewer runs
# and shorter ones, for a first look; NO_PERF=1: perf unrunnable in the
# evaluation guests (make run must fail and name what is missing);
# EVAL_ONLY='10 20': only those eval scripts, no ledger (a partial run,
# which fails for the figures it leaves out).
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

phase "build: the bench kernel, its CONFIG_EXPSYNC=n twin (6.12) and, but for QUICK=1 or EVAL_ONLY, the no-ENOMEM figure's two"
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
# membarrier.c (build-612-membarrier.sh).  Not under QUICK=1 or EVAL_ONLY.
nomem=
if [ -z "${QUICK:-}" ] && [ -z "${EVAL_ONLY:-}" ]; then
	nomem=1
	make -s kernel CONFIG=test > "$out/build-test.log" 2>&1 ||
		{ tail -n 30 "$out/build-test.log"; die "the test kernel did not build"; }
	make -s kernel-612-membarrier > "$out/build-612-membarrier.log" 2>&1 ||
		{ tail -n 30 "$out/build-612-membarrier.log"; die "the 6.12-membarrier kernel did not build"; }
fi

quick=
ledger=1
if [ -n "${QUICK:-}" ]; then
	# The figures QUICK=1 measures: report.py's QUICK set, one place.
	qf=$(python3 tools/expsync/report.py quick-figures) || die "report.py quick-figures failed"
	quick="QUICK=1 QUICK_FIGURES='$qf'"
	[[ " $qf" == *" ledger_"* ]] || ledger=
fi
# eval_on KERNEL-DIR LOG [SCRIPTS]: the evaluation (or only the eval
# scripts numbered SCRIPTS, within EVAL_ONLY) on one kernel.
eval_on() {
	local only=${3:-${EVAL_ONLY:-}} n
	if [ -n "${3:-}" ] && [ -n "${EVAL_ONLY:-}" ]; then
		only=
		for n in $3; do [[ " $EVAL_ONLY " != *" $n "* ]] || only+=" $n"; done
		[ -n "$only" ] || { : > "$2"; return 0; }
	fi
	tools/expsync/vm-run.sh --kernel "build/obj-$1/arch/x86/boot/bzImage" \
		--name "report-$1${3:+-${3// /}}" --smp 4 --icount 1 --timeout 3000 \
		--append "nohz_full=3 isolcpus=nohz,domain,3" \
		-- "$quick NO_PERF='${NO_PERF:-}' EVAL_ONLY='$only'" \
		"tools/expsync/eval/report.sh" > "$2" 2>&1
}
# ledger KERNEL-DIR LOG: the isolation ledger on one kernel, then rtla
# osnoise on its isolated CPU (40-programs.sh; not under -icount).
ledger_on() {
	local secs=15
	tools/expsync/vm-run.sh --kernel "build/obj-$1/arch/x86/boot/bzImage" \
		--name "ledger-$1" --smp 3 --timeout 1800 \
		--append "nohz_full=2 isolcpus=nohz,domain,2" \
		-- "${NO_PERF:+mount --bind /dev/null \$(command -v perf);}" \
		". $top/tools/expsync/lib.sh; pin_tracepoints;" \
		"LEDGER_SECONDS=$secs LEDGER_REPEAT=1" \
		"LEDGER_CONFIGS='rcu:user-return immediate:direct auto:periodic'" \
		"$ksft/expsync/isolation_ledger.sh;" \
		"PROGRAMS_PART=rtla $top/tools/expsync/eval/40-programs.sh ||" \
		"echo 'FAILED: 40-programs.sh PROGRAMS_PART=rtla'" > "$2" 2>&1
}
# programs_on KERNEL-DIR LOG: stress-ng --membarrier (40-programs.sh),
# in a boot without nohz_full, where its stressor runs at all.
programs_on() {
	tools/expsync/vm-run.sh --kernel "build/obj-$1/arch/x86/boot/bzImage" \
		--name "programs-$1" --smp 4 --icount 1 --timeout 1800 \
		-- "PROGRAMS_PART=membarrier $top/tools/expsync/eval/40-programs.sh" > "$2" 2>&1
}
# scaling_on KERNEL-DIR LOG [VARIANTS]: seed 000's table and coalescing
# as callers grow (eval/scaling.sh; only expsync's VARIANTS if given),
# 8 vCPUs, none isolated, under -icount.
scaling_on() {
	tools/expsync/vm-run.sh --kernel "build/obj-$1/arch/x86/boot/bzImage" \
		--name "scaling-$1${3:+-${3// /}}" --smp 8 --icount 1 --timeout 2400 \
		-- "SCALE_VARIANTS='${3:-}' $top/tools/expsync/eval/scaling.sh" > "$2" 2>&1
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
# side_by_side FN PREFIX [KERNELS]: FN KERNEL build/report/PREFIX-KERNEL.log
# for both kernels (bench-noexpsync and bench, or the two KERNELS) at once, one
# host core each: under -icount a guest's figures count its
# instructions, whatever the host does, and the ledger's counts are of
# the same work in the same window on both.
side_by_side() {
	local pids=() i k=(${3:-bench-noexpsync bench})
	for i in 0 1; do
		"$1" "${k[$i]}" "$out/$2-${k[$i]}.log" & pids+=($!)
	done
	for i in 0 1; do
		wait "${pids[$i]}" || { echo "   $1 ${k[$i]} failed (status $?)"; rc=1; }
	done
}
# three_boots FN PREFIX PARTS_A PARTS_B: FN's work in three boots on the
# two host cores.  expsync runs every variant, 6.12 one, so expsync's
# work is split to even the load (under -icount a figure counts guest
# instructions, whatever the host does; make run prints the guest
# seconds of each part, "@T"): core 1 boots expsync for PARTS_A, core 2
# boots 6.12, then expsync for PARTS_B.  PREFIX-bench.log gets both.
three_boots() {
	local fn=$1 p=$2 pid_a st=0

	"$fn" bench "$out/$p-bench.a.log" "$3" & pid_a=$!
	"$fn" bench-noexpsync "$out/$p-bench-noexpsync.log" ||
		{ echo "   $fn bench-noexpsync failed (status $?)"; st=1; }
	"$fn" bench "$out/$p-bench.b.log" "$4" ||
		{ echo "   $fn bench ($4) failed (status $?)"; st=1; }
	wait $pid_a || { echo "   $fn bench ($3) failed (status $?)"; st=1; }
	cat "$out/$p-bench.a.log" "$out/$p-bench.b.log" > "$out/$p-bench.log"
	return $st
}
phase "evaluation on obj-bench-noexpsync and obj-bench, side by side (4 vCPUs, CPU 3 isolated, -icount shift=0)"
if [ -n "$quick" ]; then
	# QUICK=1 measures no programs: one boot per kernel, one core each.
	side_by_side eval_on guest
else
	# About even in guest seconds (the "@T" lines below): expsync's
	# membarrier and programs against 6.12's four scripts, then
	# expsync's table_free and vmstat.
	three_boots eval_on guest "10 40" "20 30" || rc=1
fi
for k in bench-noexpsync bench; do
	grep -E '^ *(MISSING|FAILED)' "$out/guest-$k.log"
	grep '^@T' "$out/guest-$k.log" | awk -v k=$k '{ printf "   %s %s: %d s of guest time\n", k, $2, $3 }'
done
if [ -n "$ledger" ] && [ -z "${EVAL_ONLY:-}" ]; then
	phase "isolation ledger on obj-bench-noexpsync and obj-bench, side by side (3 vCPUs, CPU 2 isolated)"
	side_by_side ledger_on ledger
	python3 tools/expsync/ledger.py "$out/ledger-bench-noexpsync.log" "$out/ledger-bench.log" \
		> "$out/ledger.txt" 2>&1 || rc=1
fi
if [ -z "$quick" ] && { [ -z "${EVAL_ONLY:-}" ] || [[ " $EVAL_ONLY " == *" 40 "* ]]; }; then
	phase "stress-ng --membarrier on obj-bench-noexpsync and obj-bench, side by side (4 vCPUs, no nohz_full, -icount shift=0)"
	side_by_side programs_on programs
	for k in bench-noexpsync bench; do
		grep -E '^ *(MISSING|FAILED)' "$out/programs-$k.log"
	done
fi
if [ -z "$quick" ] && [ -z "${EVAL_ONLY:-}" ]; then
	phase "scaling curves on obj-bench-noexpsync and obj-bench, side by side (8 vCPUs, -icount shift=0)"
	# About even in guest seconds: expsync's many, single and off
	# against 6.12's, then expsync's on.
	three_boots scaling_on scaling "many single off" on || rc=1
	for k in bench-noexpsync bench; do
		grep -E '^ *(MISSING|FAILED)' "$out/scaling-$k.log"
		grep '^@T' "$out/scaling-$k.log" |
			awk -v k=$k '{ printf "   %s %s: %d s of guest time\n", k, $2, $3 }'
	done
fi
if [ -z "$quick" ] && [ -z "${EVAL_ONLY:-}" ]; then
	phase "vmstat fast path: gdb steps through the counter functions' calls on obj-bench-noexpsync and obj-bench, side by side (4 vCPUs, CPU 3 isolated)"
	side_by_side fastpath_on fastpath-steps
fi
if [ -n "$nomem" ]; then
	phase "membarrier under fault injection on the test kernel and the noexpsync one with 6.12's membarrier.c, side by side (2 vCPUs)"
	side_by_side nomem_on nomem "612 test"
fi
if [ -z "${EVAL_ONLY:-}" ]; then
	phase "vmstat fast path: machine code of the counter functions, expsync against 6.12"
	tools/expsync/fastpath-check.sh build/linux build/obj-bench-noexpsync/vmlinux \
		build/obj-bench/vmlinux > "$out/fastpath.txt" 2>&1 || rc=1
fi
phase "report"
phase ""
python3 tools/expsync/report.py "$out" || rc=1
echo "make run: $([ $rc = 0 ] && echo ok || echo FAILED); $(($(date +%s) - t_all)) s;" \
	"report in $out/ (summary.txt, report.md, index.html, results.json)"
exit $rc
