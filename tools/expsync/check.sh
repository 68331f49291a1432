#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: build the test kernel and run every test, printing one
# PASS/FAIL/SKIP line per result and "N passed, N failed, N skipped".
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
out=$top/build/check
rm -rf "$out"
mkdir -p "$out"
passed=0 failed=0 skipped=0
t0=$(date +%s)

result() {	# result STATUS NAME [DETAIL]
	case "$1" in
	PASS) passed=$((passed + 1)) ;;
	FAIL) failed=$((failed + 1)) ;;
	SKIP) skipped=$((skipped + 1)) ;;
	esac
	printf '%-4s  %s%s\n' "$1" "$2" "${3:+  ($3)}"
}

step() { printf '\n== %s  [%ds]\n' "$*" $(($(date +%s) - t0)); }

finish() {
	printf '\nmake check: %ds; logs under %s\n' $(($(date +%s) - t0)) "$out"
	echo "$passed passed, $failed failed, $skipped skipped"
	[ "$failed" -eq 0 ]
	exit
}

vm() {		# vm NAME [vm-run.sh options] -- CMD
	local name=$1; shift
	tools/expsync/vm-run.sh --kernel "$top/build/obj-${VMCONFIG:-test}/arch/x86/boot/bzImage" \
		--name "check-$name" "$@"
}

# --- Build -------------------------------------------------------------------
step "build the test kernel"
if make -s kernel CONFIG=test > "$out/build-test.log" 2>&1; then
	result PASS "build: test kernel"
else
	tail -n 40 "$out/build-test.log"
	result FAIL "build: test kernel" "$out/build-test.log"
	finish
fi
if make -s selftests CONFIG=test > "$out/selftests-build.log" 2>&1; then
	result PASS "build: kselftests (expsync membarrier rseq)"
else
	tail -n 40 "$out/selftests-build.log"
	result FAIL "build: kselftests" "$out/selftests-build.log"
fi

# --- Static checks -------------------------------------------------------------
step "checkpatch --strict, W=1"
tools/expsync/static-checks.sh > "$out/static.log" 2>&1
while IFS='|' read -r st name detail; do
	result "$st" "$name" "$detail"
done < <(grep -E '^(PASS|FAIL|SKIP)\|' "$out/static.log")

# --- Boot 1: KUnit + kselftests -----------------------------------------------
step "boot: KUnit and kselftests (SMP=4)"
ksft=$top/build/obj-test/kselftest/kselftest_install
vm main --smp 4 --timeout 2400 -- \
	"$ksft/run_kselftest.sh -c expsync -c membarrier $(tools/expsync/rseq-tests.sh)" \
	> "$out/kselftest.log" 2>&1
vmrc=$?
cp build/vm/check-main/console.log "$out/console-main.log" 2>/dev/null
[ $vmrc -eq 124 ] || [ $vmrc -eq 125 ] || [ $vmrc -eq 126 ] &&
	{ tail -n 30 "$out/kselftest.log"; result FAIL "vm: main boot" "status $vmrc, $out/console-main.log"; }

# KUnit: KTAP in the console, one line per test case.
nkunit=0
while read -r st name; do
	nkunit=$((nkunit + 1))
	result "$st" "kunit: $name"
done < <(tools/expsync/ktap.sh "$out/console-main.log")
[ $nkunit -gt 0 ] || result FAIL "kunit: no KTAP results in the console"

# kselftest: the top-level TAP lines of run_kselftest.sh, with the
# reason of a skip (the "# SKIP ..." plan line of that test).
ksft_results() {	# ksft_results LOG [LABEL]
	local log=$1 label=${2:+ ($2)} n=0 line name why
	while IFS= read -r line; do
		n=$((n + 1))
		name=$(sed -E 's/^(not )?ok [0-9]+ selftests: //; s/ # .*//' <<<"$line")
		case "$line" in
		*"# SKIP"*)
			why=$(awk -v t="# selftests: ${name}" '$0 == t { on = 1; next }
				on && /SKIP/ { sub(/.*SKIP */, ""); print; exit }' "$log")
			result SKIP "kselftest: $name$label" "${why:-no reason given}" ;;
		not\ ok*) result FAIL "kselftest: $name$label" "$log" ;;
		ok*) result PASS "kselftest: $name$label" ;;
		esac
	done < <(grep -E '^(not )?ok [0-9]+ selftests: ' "$log")
	[ $n -gt 0 ] || { tail -n 20 "$log"; result FAIL "kselftest: no results$label"; }
}
ksft_results "$out/kselftest.log"

# --- vmstat isolation: CPU 1 isolated, nohz_full ------------------------------
step "boot: vmstat isolation (SMP=2, nohz_full=1 isolcpus=1)"
vm vmstat --smp 2 --timeout 900 \
	--append "kunit.enable=0 nohz_full=1 isolcpus=1 expsync.vmstat_drain=user-return" -- \
	"$ksft/run_kselftest.sh -t expsync:vmstat_isolation.sh -t expsync:vmstat_sysctl.sh" \
	> "$out/vmstat.log" 2>&1
vmrc=$?
[ $vmrc -eq 124 ] || [ $vmrc -eq 125 ] || [ $vmrc -eq 126 ] &&
	{ tail -n 30 "$out/vmstat.log"; result FAIL "vm: vmstat boot" "status $vmrc"; }
grep -E '^# # (vmstat_drain|cpus|skipped|sum|ns)' "$out/vmstat.log" | sed 's/^/      /'
ksft_results "$out/vmstat.log" "nohz_full=1"

# --- Boot matrix ---------------------------------------------------------------
step "boot matrix"
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

# --- CONFIG_EXPSYNC=n ------------------------------------------------------------
step "CONFIG_EXPSYNC=n: build and boot"
if make -s kernel CONFIG=noexpsync > "$out/build-noexpsync.log" 2>&1; then
	result PASS "build: CONFIG_EXPSYNC=n"
	if VMCONFIG=noexpsync vm noexpsync --smp 2 --timeout 600 --append "kunit.enable=0" -- \
		"! test -e /proc/sys/kernel/expsync && ! test -e /sys/kernel/debug/expsync && ! grep -q expsync /sys/kernel/tracing/available_events && $ksft/run_kselftest.sh -c membarrier" \
		> "$out/noexpsync.log" 2>&1; then
		result PASS "boot: CONFIG_EXPSYNC=n has no expsync interface, membarrier selftests pass"
	else
		tail -n 20 "$out/noexpsync.log"
		result FAIL "boot: CONFIG_EXPSYNC=n" "$out/noexpsync.log"
	fi
	# The no-ENOMEM test must catch 6.12's behaviour, or it proves nothing.
	# 6.12 with DEBUG_PER_CPU_MAPS dumps a stack at each failed
	# alloc_cpumask_var(): those, and only those, are expected here.
	VMCONFIG=noexpsync vm noexpsync-nomem --smp 2 --timeout 600 --append "kunit.enable=0" -- \
		"NOMEM_ITERS=10 NOMEM_GLOBAL_ITERS=1 $ksft/expsync/membarrier_nomem_test" \
		> "$out/noexpsync-nomem.log" 2>&1
	con=build/vm/check-noexpsync-nomem/console.log
	if grep -q "^not ok.*Cannot allocate memory" "$out/noexpsync-nomem.log" &&
	   [ "$(grep -c 'Call Trace' $con)" = "$(grep -c 'alloc_cpumask_var: failed' $con)" ]; then
		result PASS "membarrier_nomem_test fails with ENOMEM on base 6.12 (CPUMASK_OFFSTACK=y)"
	else
		grep -E "^(not )?ok" "$out/noexpsync-nomem.log" | tail -n 25
		result FAIL "membarrier_nomem_test did not see 6.12's ENOMEM" "$out/noexpsync-nomem.log"
	fi
else
	tail -n 40 "$out/build-noexpsync.log"
	result FAIL "build: CONFIG_EXPSYNC=n" "$out/build-noexpsync.log"
fi

# --- The vmstat counter fast path is not touched ------------------------------
step "vmstat counter fast path"
while IFS='|' read -r st name detail; do
	result "$st" "$name" "$detail"
done < <(tools/expsync/fastpath-check.sh build/linux 2>&1 | tee "$out/fastpath.log" |
	 grep -E '^(PASS|FAIL|SKIP)\|')

finish
