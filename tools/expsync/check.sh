#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: build the test kernel and run every test, printing one
# PASS/FAIL/SKIP line per result and "N passed, N failed, N skipped".
#
# ONLY='section ...' runs only those sections (see SECTIONS below and
# README.md).  For make mutants: CHECK_KERNEL_OBJ names the object
# directory of an already built test kernel to boot instead of building
# build/obj-test (the kselftests, built beforehand, still come from
# build/obj-test), and
# CHECK_OUT / CHECK_VM_PREFIX keep the logs and VM runs apart.
set -uo pipefail

. "$(dirname "$0")/lib.sh"
top=$EXPSYNC_TOP
cd "$top"
SECTIONS="harness static series kunit membarrier sysctl table_free rseq vmstat stress matrix noexpsync ledger rt fastpath report"
only=${ONLY:-$SECTIONS}
for s in $only; do
	[[ " $SECTIONS " == *" $s "* ]] ||
		{ echo "make check: unknown section '$s'; sections: $SECTIONS" >&2; exit 2; }
done
want() { [[ " $only " == *" $1 "* ]]; }
kobj=${CHECK_KERNEL_OBJ:-$top/build/obj-test}
# CHECK_TIME_SCALE (default 1): make check-full's KASAN kernel runs the
# same tests several times slower.  The tests' run times (through
# EXPSYNC_TIME_SCALE in the guest), kselftest's 900 s per test and the
# VM time-outs scale by it.
scale=${CHECK_TIME_SCALE:-1}
[[ $scale =~ ^[1-9]$ ]] ||
	{ echo "make check: CHECK_TIME_SCALE=$scale: not a number from 1 to 9" >&2; exit 2; }
vmprefix=${CHECK_VM_PREFIX:-check}
out=${CHECK_OUT:-$top/build/check}
rm -rf "$out"
mkdir -p "$out"
passed=0 failed=0 skipped=0
t0=$(date +%s)

step() { printf '\n== %s  [%ds]\n' "$*" $(($(date +%s) - t0)); }

# A phase that reports nothing is a failure: count_from NAME before the
# phase, and no_results NAME after it.
declare -A mark
count_from() { mark[$1]=$((passed + failed + skipped)); }
no_results() {
	[ $((passed + failed + skipped)) -gt "${mark[$1]}" ] ||
		result FAIL "$1: the phase reported no result" "${2:-}"
}

finish() {
	printf '\nmake check: %ds; logs under %s\n' $(($(date +%s) - t0)) "$out"
	echo "$passed passed, $failed failed, $skipped skipped"
	[ "$failed" -eq 0 ]
	exit
}

vm() {		# vm NAME [vm-run.sh options] -- CMD
	local name=$1; shift
	local obj=$kobj
	[ -n "${VMCONFIG:-}" ] && obj=$top/build/obj-$VMCONFIG
	tools/expsync/vm-run.sh --kernel "$obj/arch/x86/boot/bzImage" \
		--name "$vmprefix-$name" "$@"
}

# vm_status STATUS LABEL LOG [DETAIL]: a guest that timed out (124), died
# (125) or splatted (126) is a FAIL of its own, whatever its tests said.
vm_status() {
	case $1 in 124|125|126)
		tail -n 30 "$3"
		result FAIL "vm: $2" "status $1${4:+, $4}" ;;
	esac
}

# --- Build -------------------------------------------------------------------
step "build the test kernel"
if [ -n "${CHECK_KERNEL_OBJ:-}" ]; then
	[ -f "$kobj/arch/x86/boot/bzImage" ] &&
		result PASS "build: test kernel given" "$kobj" ||
		{ result FAIL "build: no kernel in $kobj"; finish; }
elif make -s kernel CONFIG=test > "$out/build-test.log" 2>&1; then
	result PASS "build: test kernel"
else
	tail -n 40 "$out/build-test.log"
	result FAIL "build: test kernel" "$out/build-test.log"
	finish
fi
if [ -n "${CHECK_KERNEL_OBJ:-}" ]; then
	# make mutants built them; rebuilding would rewrite the installed
	# tests under a guest that may be running them.
	result PASS "build: kselftests given" "$top/build/obj-test/kselftest"
elif make -s selftests CONFIG=test > "$out/selftests-build.log" 2>&1; then
	result PASS "build: kselftests (expsync membarrier rseq)"
else
	tail -n 40 "$out/selftests-build.log"
	result FAIL "build: kselftests" "$out/selftests-build.log"
fi

# --- The harness: make vm passes CMD to the guest verbatim ------------------
if want harness; then
	step "harness: make vm CMD='...' reaches the guest verbatim"
	count_from harness
	# $, quotes, backslashes, a command substitution and a 5000-byte
	# word, which make or the recipe's shell used to expand or drop.
	long=$(head -c 5000 /dev/zero | tr '\0' y)
	cmd='for m in a b; do printf "<%s>" "$m"; done; printf "%s|" '
	cmd+="'q\"\\x \$HOME' \"\$(echo sub)\"; x=$long; echo \"\${#x}\""
	expect='<a><b>q"\x $HOME|sub|5000'
	got=$(make -s vm KIMAGE="$kobj/arch/x86/boot/bzImage" CMD="$cmd" \
		APPEND='kunit.enable=0' TIMEOUT=300 2>&1 | tr -d '\r')
	if [ "$(tail -n 1 <<<"$got")" = "$expect" ]; then
		result PASS "harness: make vm CMD verbatim" "got $expect"
	else
		result FAIL "harness: make vm CMD verbatim" \
			"want '$expect', got '$(tail -n 1 <<<"$got" | cut -c1-80)'"
	fi
	no_results harness
fi

# --- Static checks -------------------------------------------------------------
if want static; then
	step "static: checkpatch --strict, kernel-doc, W=1"
	count_from static
	tools/expsync/static-checks.sh > "$out/static.log" 2>&1
	while IFS='|' read -r st name detail; do
		result "$st" "$name" "$detail"
	done < <(grep -E '^(PASS|FAIL|SKIP)\|' "$out/static.log")
	no_results static "$out/static.log"
fi

# --- The series: make patches, then each prefix applies and compiles --------
if want series; then
	step "series: make patches; each patch applies, passes checkpatch, compiles"
	count_from series
	if make -s patches > "$out/patches.log" 2>&1; then
		result PASS "series: make patches" "$(grep -m1 'git am on the base' "$out/patches.log" | cut -c1-100)"
	else
		tail -n 20 "$out/patches.log"
		result FAIL "series: make patches" "$out/patches.log"
	fi
	SERIES_LOG=$out/series-build.log tools/expsync/series-check.sh > "$out/series.log" 2>&1
	while IFS='|' read -r st name detail; do
		result "$st" "$name" "$detail"
	done < <(grep -E '^(PASS|FAIL|SKIP)\|' "$out/series.log")
	no_results series "$out/series.log"
	# Negative control: patches 1 and 2, with include/linux/expsync_knob.h
	# (an API core.c uses) dropped from patch 2 and a line with trailing
	# blanks added to it.  The check must say that patch 2 fails
	# checkpatch and does not compile.
	neg=$(mktemp -d)
	if tools/expsync/series-break.py "$top/build/patches" "$neg" >> "$out/series-negative.log" 2>&1; then
		SERIES_PATCHES=$neg SERIES_LOG=$out/series-negative-build.log \
			tools/expsync/series-check.sh >> "$out/series-negative.log" 2>&1
		n1=$(basename "$(ls "$neg"/0001-*.patch)" .patch)
		n2=$(basename "$(ls "$neg"/0002-*.patch)" .patch)
		nl=$out/series-negative.log nb=$out/series-negative-build.log
		# Patch 1 passes, patch 2 fails for the two reasons planted.
		grep -q "^PASS|series: $n1 checkpatch --strict|" "$nl" &&
		grep -q "^PASS|series: $n1 compiles|" "$nl" &&
		grep -q "^PASS|series: $n2 applies|" "$nl" &&
		grep -q "^FAIL|series: $n2 checkpatch --strict|" "$nl" &&
		grep -q "^FAIL|series: $n2 compiles|" "$nl" &&
		grep -q "ERROR: trailing whitespace" "$nb" &&
		grep -q "linux/expsync_knob.h: No such file" "$nb" &&
			result PASS "series: a broken patch 2 (an API header dropped, trailing blanks) fails" \
				"checkpatch and compile" ||
			result FAIL "series: a broken patch 2 (an API header dropped, trailing blanks) fails" \
				"$out/series-negative.log"
	else
		result FAIL "series: negative control, cannot break the series" "$out/series-negative.log"
	fi
	rm -rf "$neg"
fi

# --- Boot 1: KUnit and the kselftests of the selected sections ---------------
ksft=$top/build/obj-test/kselftest/kselftest_install
# run_kselftest.sh, with the time scale; the expsync tests' time-out
# (their settings file) scales too.
ksft_run="EXPSYNC_TIME_SCALE=$scale $ksft/run_kselftest.sh"
ksft_timeout=$(sed -n 's/^timeout=//p' tools/testing/selftests/expsync/settings)
[ "$scale" -gt 1 ] && ksft_run+=" -o $((ksft_timeout * scale))"

# ksft_section LOG NAME: the lines of test NAME in LOG, from its
# "# selftests: NAME" header through its result line.
ksft_section() {
	awk -v t="# selftests: $2" '$0 == t { on = 1; next }
		on { print } on && /^(not )?ok [0-9]+ selftests: / { exit }' "$1"
}

# kselftest: the top-level TAP lines of run_kselftest.sh, checked against
# its plan.  Every test here is one an issue requires: its SKIP is a
# FAIL, with the reason it gave (the "# SKIP ..." line of that test).
ksft_results() {	# ksft_results LOG [LABEL]
	local log=$1 label=${2:+ ($2)} n=0 plan line name why
	# run_kselftest.sh prints one plan per collection (-c, or the
	# collections of the -t tests): their sum.
	plan=$(awk -F. '/^1\.\.[0-9]+$/ { n += $3; seen = 1 } END { if (seen) print n }' "$log")
	while IFS= read -r line; do
		n=$((n + 1))
		name=$(sed -E 's/^(not )?ok [0-9]+ selftests: //; s/ # .*//' <<<"$line")
		case "$line" in
		*"# SKIP"*)
			why=$(ksft_section "$log" "$name" |
				awk '/SKIP/ { sub(/.*SKIP */, ""); print; exit }')
			result FAIL "kselftest: $name$label" "skipped, and it must run: ${why:-no reason given}" ;;
		not\ ok*)
			# The test's own failed cases, so that CI's output names them.
			ksft_section "$log" "$name" | sed -n 's/^# not ok /      &/p'
			result FAIL "kselftest: $name$label" "$log" ;;
		ok*) result PASS "kselftest: $name$label" ;;
		esac
	done < <(grep -E '^(not )?ok [0-9]+ selftests: ' "$log")
	[ $n -gt 0 ] || { tail -n 20 "$log"; result FAIL "kselftest: no results$label" "$log"; }
	[ -n "$plan" ] && [ "$plan" -eq "$n" ] ||
		result FAIL "kselftest: plan 1..${plan:-?} but $n results$label" "$log"
}

# kunit_results CONSOLE [LABEL]: KUnit's KTAP in a console log, one
# result per test case, each suite's plan checked (ktap.sh prints a FAIL
# line otherwise); no KTAP at all is a FAIL.
kunit_results() {
	local label=${2:+ ($2)} n=0 st name
	while read -r st name; do
		n=$((n + 1))
		result "$st" "kunit: $name$label"
	done < <(tools/expsync/ktap.sh "$1")
	[ $n -gt 0 ] || result FAIL "kunit: no KTAP results in the console$label" "$1"
}

# The kselftests of each section that boot 1 runs.
declare -A ksft_of=(
	[membarrier]="-t expsync:membarrier_delivery.sh -t expsync:membarrier_coalesce.sh -t expsync:membarrier_litmus_test -t expsync:membarrier_nomem_test -t expsync:rseq_membarrier.sh -c membarrier"
	[sysctl]="-t expsync:expsync_sysctl_test"
	[table_free]="-t expsync:table_free_stress"
	[rseq]="$(tools/expsync/rseq-tests.sh)"
)
tests=
for s in membarrier sysctl table_free rseq; do
	want $s && tests+=" ${ksft_of[$s]}"
done
if want kunit || [ -n "$tests" ]; then
	step "boot: $(want kunit && echo "KUnit, ")kselftests of:$(for s in membarrier sysctl table_free rseq; do want $s && printf ' %s' $s; done) (SMP=4)"
	count_from boot1
	kparam=; want kunit || kparam=kunit.enable=0
	# membarrier_coalesce.sh's IPI rounds per call are counted in the
	# -icount boot below; here, with 4 vCPUs on 2 host cores, only its
	# delivery tests run.
	pre="export MEMBARRIER_COALESCE_PARTS=delivery"$'\n'
	cmd=${pre}true
	[ -n "$tests" ] && cmd="$pre$ksft_run$tests"
	if [ -n "$tests" ] && [ -n "${CHECK_FAIL_FAST:-}" ]; then
		# make mutants: one test at a time, stop after the first that
		# fails (its verdict is all a mutant needs).
		cmd="${pre}r() { local l; l=\$(mktemp); $ksft_run \"\$@\" > \$l 2>&1; cat \$l; ! grep -q '^not ok' \$l; }"
		cmd+=$'\n'"true$(sed -E 's/ -([tc]) / \&\& r -\1 /g' <<<"$tests")"
	fi
	# About 25 min alone on 2 host cores; the rseq selftests take twice
	# as long when the host is shared.  A hang still ends here.
	vm main --smp 4 --timeout $((3600 * scale)) --append "$kparam" -- "$cmd" > "$out/kselftest.log" 2>&1
	vmrc=$?
	cp "build/vm/$vmprefix-main/console.log" "$out/console-main.log" 2>/dev/null
	vm_status $vmrc "main boot" "$out/kselftest.log" "$out/console-main.log"
	want kunit && kunit_results "$out/console-main.log"
	[ -n "$tests" ] && ksft_results "$out/kselftest.log"
	no_results boot1
fi

# --- membarrier coalescing under -icount ----------------------------------------
# The vCPUs take turns there, so the bound of issue 12 holds: at most 0.6
# IPI rounds per call with three callers (boot 1, 4 vCPUs on 2 host
# cores, measured 0.85 .. 0.91 and runs only the delivery part: see
# membarrier_coalesce.sh).
if want membarrier; then
	step "boot: membarrier coalescing under -icount, at most 0.6 rounds per call (SMP=4)"
	count_from coalesce
	vm coalesce --smp 4 --icount 1 --timeout $((900 * scale)) --append "kunit.enable=0" -- \
		"MEMBARRIER_COALESCE_PARTS=rounds MEMBARRIER_COALESCE_MAX=600 $ksft_run -t expsync:membarrier_coalesce.sh" \
		> "$out/coalesce-icount.log" 2>&1
	vm_status $? "coalescing boot" "$out/coalesce-icount.log"
	grep -E '^# # membarrier_coalesce=' "$out/coalesce-icount.log" | sed 's/^/      /'
	ksft_results "$out/coalesce-icount.log" "-icount"
	no_results coalesce
fi

# --- vmstat: the drain set isolated, and not isolated -------------------------
if want vmstat; then
	step "boot: vmstat and table freeing, CPU 1 isolated (SMP=2, nohz_full=1 isolcpus=1)"
	count_from vmstat
	vm vmstat --smp 2 --timeout $((900 * scale)) \
		--append "kunit.enable=0 nohz_full=1 isolcpus=1 expsync.vmstat_drain=user-return" -- \
		"$ksft_run -t expsync:vmstat_isolation.sh -t expsync:vmstat_sysctl.sh -t expsync:table_free_isolation.sh" \
		> "$out/vmstat.log" 2>&1
	vm_status $? "vmstat boot" "$out/vmstat.log"
	grep -E '^# # (vmstat_drain|join|direct|cpus|skipped|sum|ns|table_sync_ipi|[0-9]+ (of|drains|unmap|vm\.stat_refresh))' "$out/vmstat.log" | sed 's/^/      /'
	ksft_results "$out/vmstat.log" "nohz_full=1"

	# CPU 1 in the set but not isolated: 6.12's shepherd visits it, so
	# user-return must be what keeps vmstat work off it.
	if [ -n "${CHECK_FAIL_FAST:-}" ] && [ "$failed" -gt 0 ]; then
		finish
	fi
	step "boot: vmstat, CPU 1 in the set, not isolated (SMP=2)"
	vm vmstat-noisol --smp 2 --timeout $((900 * scale)) \
		--append "kunit.enable=0 expsync.vmstat_drain=user-return expsync.vmstat_drain_cpus=1" -- \
		"SECONDS_PER_POLICY=20 $ksft_run -t expsync:vmstat_isolation.sh" \
		> "$out/vmstat-noisol.log" 2>&1
	vm_status $? "vmstat-noisol boot" "$out/vmstat-noisol.log"
	grep -E '^# # (vmstat_drain|join)' "$out/vmstat-noisol.log" | sed 's/^/      /'
	ksft_results "$out/vmstat-noisol.log" "not isolated"
	no_results vmstat
fi

# --- Hostile input and faults: trinity, knob flipping, CPU hotplug -----------
if want stress; then
	step "boot: trinity while every knob flips, CPU hotplug under load (SMP=2)"
	count_from stress
	vm stress --smp 2 --timeout $((900 * scale)) --append "kunit.enable=0" -- \
		"$ksft_run -t expsync:stress_fuzz_hotplug.sh" > "$out/stress.log" 2>&1
	vm_status $? "stress boot" "$out/stress.log"
	grep -E '^# (ok|not ok) ' "$out/stress.log" | sed 's/^# /      /'
	ksft_results "$out/stress.log"
	no_results stress
fi

# --- Boot matrix ---------------------------------------------------------------
if want matrix; then
	step "boot matrix"
	count_from matrix
	while IFS='|' read -r name append expect; do
		[ -n "$name" ] && [ "${name#\#}" = "$name" ] || continue
		if vm "matrix-$name" --smp 2 --timeout 600 --append "kunit.enable=0 $append" -- \
			"tools/expsync/boot-check.sh $expect" > "$out/matrix-$name.log" 2>&1; then
			result PASS "boot: $name" "$append"
		else
			sed 's/^/    /' "$out/matrix-$name.log" | tail -n 20
			result FAIL "boot: $name" "$append"
		fi
	done < tools/expsync/boot-matrix
	no_results matrix
fi

# --- CONFIG_EXPSYNC=n ------------------------------------------------------------
if want noexpsync; then
	step "CONFIG_EXPSYNC=n: build and boot"
	count_from noexpsync
	if make -s kernel CONFIG=noexpsync > "$out/build-noexpsync.log" 2>&1; then
		result PASS "build: CONFIG_EXPSYNC=n"
		VMCONFIG=noexpsync vm noexpsync --smp 2 --timeout 600 --append "kunit.enable=0" -- \
			"! test -e /proc/sys/kernel/expsync && ! test -e /sys/kernel/debug/expsync && ! grep -q expsync /sys/kernel/tracing/available_events && echo no-expsync-interface && $ksft/run_kselftest.sh -c membarrier" \
			> "$out/noexpsync.log" 2>&1
		if grep -q '^no-expsync-interface$' "$out/noexpsync.log"; then
			result PASS "boot: CONFIG_EXPSYNC=n has no expsync interface"
		else
			tail -n 20 "$out/noexpsync.log"
			result FAIL "boot: CONFIG_EXPSYNC=n has no expsync interface" "$out/noexpsync.log"
		fi
		# The membarrier selftests' own verdicts (run_kselftest.sh
		# exits 0 whatever they say).
		ksft_results "$out/noexpsync.log" "CONFIG_EXPSYNC=n"
		# The no-ENOMEM fix (the series' first patch) does not depend
		# on expsync: the =n kernel must not fail with ENOMEM either.
		# That the test sees 6.12's ENOMEM is mutant 15's job.
		VMCONFIG=noexpsync vm noexpsync-nomem --smp 2 --timeout 600 --append "kunit.enable=0" -- \
			"NOMEM_ITERS=100 NOMEM_GLOBAL_ITERS=10 $ksft/run_kselftest.sh -t expsync:membarrier_nomem_test" \
			> "$out/noexpsync-nomem.log" 2>&1
		vm_status $? "noexpsync-nomem boot" "$out/noexpsync-nomem.log"
		ksft_results "$out/noexpsync-nomem.log" "CONFIG_EXPSYNC=n, no-ENOMEM"
	else
		tail -n 40 "$out/build-noexpsync.log"
		result FAIL "build: CONFIG_EXPSYNC=n" "$out/build-noexpsync.log"
	fi
	no_results noexpsync
fi

# --- The isolation ledger: expsync against CONFIG_EXPSYNC=n on the same work --
if want ledger; then
	step "ledger: interruptions of isolated CPU 2, CONFIG_EXPSYNC=n and expsync (SMP=3)"
	count_from ledger
	iso="kunit.enable=0 nohz_full=2 isolcpus=nohz,domain,2"
	ledger="$ksft_run -t expsync:isolation_ledger.sh"
	if make -s kernel CONFIG=noexpsync > "$out/build-noexpsync.log" 2>&1; then
		VMCONFIG=noexpsync vm ledger-base --smp 3 --timeout $((900 * scale)) \
			--append "$iso" -- "$ledger" > "$out/ledger-base.log" 2>&1
		vm_status $? "ledger boot, CONFIG_EXPSYNC=n" "$out/ledger-base.log"
		ksft_results "$out/ledger-base.log" "CONFIG_EXPSYNC=n"
	else
		tail -n 40 "$out/build-noexpsync.log"
		result FAIL "build: CONFIG_EXPSYNC=n" "$out/build-noexpsync.log"
	fi
	vm ledger --smp 3 --timeout $((900 * scale)) --append "$iso" -- "$ledger" \
		> "$out/ledger.log" 2>&1
	vm_status $? "ledger boot" "$out/ledger.log"
	ksft_results "$out/ledger.log" "expsync"
	python3 tools/expsync/ledger.py "$out/ledger-base.log" "$out/ledger.log" \
		> "$out/ledger.txt" 2>&1
	grep -v '|' "$out/ledger.txt" | sed 's/^/    /'
	while IFS='|' read -r st name detail; do
		result "$st" "$name" "$detail"
	done < <(grep -E '^(PASS|FAIL)\|' "$out/ledger.txt")
	no_results ledger
fi

# --- PREEMPT_RT: the test kernel builds, its KUnit suites and two tests pass --
if want rt; then
	step "rt: the test kernel on PREEMPT_RT: build, KUnit, sysctl and table_free tests (SMP=2)"
	count_from rt
	if make -s kernel CONFIG=rt > "$out/build-rt.log" 2>&1; then
		result PASS "build: PREEMPT_RT test kernel"
		VMCONFIG=rt vm rt --smp 2 --timeout $((900 * scale)) -- \
			"$ksft_run -t expsync:expsync_sysctl_test -t expsync:table_free_stress" \
			> "$out/rt.log" 2>&1
		vmrc=$?
		cp "build/vm/$vmprefix-rt/console.log" "$out/console-rt.log" 2>/dev/null
		vm_status $vmrc "PREEMPT_RT boot" "$out/rt.log" "$out/console-rt.log"
		grep -q 'PREEMPT_RT' "$out/console-rt.log" ||
			result FAIL "rt: the kernel booted is not PREEMPT_RT" "$out/console-rt.log"
		kunit_results "$out/console-rt.log" "PREEMPT_RT"
		ksft_results "$out/rt.log" "PREEMPT_RT"
	else
		tail -n 40 "$out/build-rt.log"
		result FAIL "build: PREEMPT_RT test kernel" "$out/build-rt.log"
	fi
	no_results rt
fi

# --- The vmstat counter fast path is not touched ------------------------------
if want fastpath; then
	step "fastpath: vmstat counter functions, source and machine code"
	count_from fastpath
	# The machine code against the CONFIG_EXPSYNC=n kernel of the same
	# config (up to date already when the noexpsync section ran).
	vml=()
	if make -s kernel CONFIG=noexpsync > "$out/build-noexpsync-fastpath.log" 2>&1; then
		vml=(build/obj-noexpsync/vmlinux "$kobj/vmlinux")
	else
		result FAIL "build: CONFIG_EXPSYNC=n, for the machine code" \
			"$out/build-noexpsync-fastpath.log"
	fi
	while IFS='|' read -r st name detail; do
		result "$st" "$name" "$detail"
	done < <(tools/expsync/fastpath-check.sh build/linux "${vml[@]}" 2>&1 |
		 tee "$out/fastpath.log" | grep -E '^(PASS|FAIL|SKIP)\|')
	no_results fastpath "$out/fastpath.log"
fi

# make run's report generator on made-up logs: a missing figure, a guest
# without perf and a failed claim must fail it (tools/expsync/report-test.sh).
if want report; then
	step "report: make run's report generator"
	count_from report
	while IFS='|' read -r st name detail; do
		result "$st" "$name" "$detail"
	done < <(tools/expsync/report-test.sh 2>&1 | tee "$out/report.log" |
		 grep -E '^(PASS|FAIL|SKIP)\|')
	no_results report "$out/report.log"
fi

finish
