#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check / make check-full: run the test plan, tools/expsync/check-plan,
# one row at a time, printing one PASS/FAIL line per result, the time of
# every build and row, and "N passed, N failed, N skipped".
#
#   TIER=check (make check) runs the check rows; TIER=full (make
#   check-full) runs every row.
#   ONLY='word ...' runs only the rows whose section or name is a word.
#   LIST=1 prints the plan, with each row's last measured time, and stops.
#
# For make mutants: CHECK_KERNEL_OBJ names the object directory of an
# already built kernel to boot instead of build/obj-test (or, with
# CHECK_KERNEL=rt, instead of build/obj-rt; the kselftests still come
# from build/obj-test); CHECK_OUT and
# CHECK_VM_PREFIX keep its logs and VM runs apart; CHECK_FAIL_FAST=1
# stops after the first row with a failure; CHECK_TESTS='coll:test ...'
# makes ksft run only those of a row's -t selections (and no -c).
#
# Every test here is one an issue requires: a skipped test is a FAIL,
# with its reason (verdict() below, the only place that says so).
# The whole script is one compound command, read before it runs: an
# edit of this file during a run does not change the run.
{
set -uo pipefail

. "$(dirname "$0")/lib.sh"
top=$EXPSYNC_TOP
cd "$top"
plan=tools/expsync/check-plan
tier=${TIER:-check}
case $tier in check|full) ;; *) echo "make check: TIER=$tier: check or full" >&2; exit 2 ;; esac
times=$top/build/check-times
out=${CHECK_OUT:-$top/build/check}
[ "$tier" = full ] && out=${CHECK_OUT:-$top/build/check-full}
vmprefix=${CHECK_VM_PREFIX:-check}
ksft=$top/build/obj-test/kselftest/kselftest_install

# plan_rows: every row of the plan, "tier|section|name|...", blanks
# around the fields trimmed, comments left out.
plan_rows() {
	sed -E 's/[[:space:]]*\|[[:space:]]*/|/g; s/^[[:space:]]+//; s/[[:space:]]+$//' "$plan" |
	awk -F'|' '!/^#/ && NF >= 9'
}

# rows: the rows of this tier (and ONLY).
rows() {
	plan_rows | awk -F'|' -v tier="$tier" -v only=" ${ONLY:-} " '
		tier == "check" && $1 != "check" { next }
		only != "  " {
			n = split($2, s, ","); hit = index(only, " " $3 " ")
			for (i = 1; i <= n; i++) if (index(only, " " s[i] " ")) hit = 1
			if (!hit) next
		}
		{ print }'
}

if [ -n "${ONLY:-}" ]; then
	for w in $ONLY; do
		plan_rows |
			awk -F'|' -v w="$w" '$3 == w || ("," $2 ",") ~ ("," w ",") { f = 1 } END { exit !f }' ||
			{ echo "make check: ONLY: no row or section '$w' in $plan" >&2; exit 2; }
	done
fi

[ -n "$(rows)" ] ||
	{ echo "make check: ONLY='$ONLY' selects no row of tier $tier (make check-full runs every tier)" >&2; exit 2; }

if [ -n "${LIST:-}" ]; then
	last() { awk -v n="$1" '$1 == n { s = $2 } END { if (s != "") print s "s" }' "$times" 2>/dev/null; }
	printf '%-5s %-22s %-10s %-4s %-6s %6s  %s\n' tier name kernel smp icount last run
	for k in $(rows | cut -d'|' -f4 | grep -vx -- - | awk '!seen[$0]++'); do
		last=$(last "build-$k")
		printf '%-5s %-22s %-10s %-4s %-6s %6s  %s\n' - "build-$k" "$k" - - "${last:--}" "make kernel CONFIG=$k"
	done
	while IFS='|' read -r t _ name kernel smp icount _ _ run; do
		last=$(last "$name")
		printf '%-5s %-22s %-10s %-4s %-6s %6s  %s\n' "$t" "$name" "$kernel" "$smp" \
			"$icount" "${last:--}" "$(cut -c1-60 <<<"$run")"
	done < <(rows)
	exit 0
fi

rm -rf "$out"
mkdir -p "$out"
passed=0 failed=0 skipped=0
t0=$(date +%s)
elapsed() { echo $(($(date +%s) - t0)); }

# verdict STATUS NAME DETAIL: a result line; a SKIP is a FAIL here.
verdict() {
	if [ "$1" = SKIP ]; then
		result FAIL "$2" "skipped, and it must run: ${3:-no reason given}"
	else
		result "$1" "$2" "$3"
	fi
}

# results LOG: the STATUS|name|detail lines in LOG, as verdicts.
results() {
	local st name detail
	while IFS='|' read -r st name detail; do
		verdict "$st" "$name" "$detail"
	done < <(grep -E '^(PASS|FAIL|SKIP)\|' "$1")
}

finish() {
	printf '\nmake check (TIER=%s): %ds; logs under %s\n' "$tier" "$(elapsed)" "$out"
	echo "$passed passed, $failed failed, $skipped skipped"
	[ "$failed" -eq 0 ]
	exit
}

# remember NAME SECONDS: the row's last measured time (make check LIST=1),
# but not of a mutant's run or of a run of some of a row's tests.
remember() {
	[ -z "${CHECK_KERNEL_OBJ:-}${CHECK_TESTS:-}" ] || return 0
	mkdir -p "$(dirname "$times")"
	{ grep -v "^$1 " "$times" 2>/dev/null; echo "$1 $2"; } > "$times.new"
	mv "$times.new" "$times"
}

# --- The kernels the rows boot, and the kselftests -----------------------------
given() {	# given KERNEL: true when make mutants built it (CHECK_KERNEL_OBJ)
	[ "$1" = "${CHECK_KERNEL:-test}" ] && [ -n "${CHECK_KERNEL_OBJ:-}" ]
}
kobj() {	# kobj KERNEL: its object directory
	if given "$1"; then
		echo "$CHECK_KERNEL_OBJ"
	else
		echo "$top/build/obj-$1"
	fi
}
declare -A built
build() {	# build KERNEL: build it once; false if it does not build
	local k=$1 t1
	[ -n "${built[$k]:-}" ] && { [ "${built[$k]}" = ok ]; return; }
	t1=$(date +%s)
	if given "$k"; then
		[ -f "$CHECK_KERNEL_OBJ/arch/x86/boot/bzImage" ]
	else
		printf '\n== build: %s kernel  [%ds]\n' "$k" "$(elapsed)"
		make -s kernel CONFIG="$k" > "$out/build-$k.log" 2>&1 ||
			{ tail -n 40 "$out/build-$k.log"; false; }
	fi
	if [ $? -eq 0 ]; then
		built[$k]=ok
		result PASS "build: $k kernel" "$(($(date +%s) - t1))s"
		remember "build-$k" $(($(date +%s) - t1))
	else
		built[$k]=fail
		result FAIL "build: $k kernel" "$out/build-$k.log"
	fi
	[ "${built[$k]}" = ok ]
}

build test || finish
if [ -n "${CHECK_KERNEL_OBJ:-}" ]; then
	# make mutants built them; rebuilding would rewrite the installed
	# tests under a guest that may be running them.
	result PASS "build: kselftests given" "$ksft"
else
	t1=$(date +%s)
	if make -s selftests CONFIG=test > "$out/selftests-build.log" 2>&1; then
		result PASS "build: kselftests (expsync membarrier rseq)" "$(($(date +%s) - t1))s"
	else
		tail -n 40 "$out/selftests-build.log"
		result FAIL "build: kselftests" "$out/selftests-build.log"
	fi
fi

# kunit_results BASE: KUnit's KTAP in BASE.console.log, read by the
# kernel's kunit.py, one result per case; no KTAP, a parse error or a
# plan that does not match is a FAIL.
kunit_results() {
	python3 build/linux/tools/testing/kunit/kunit.py parse --json="$1.kunit.json" \
		"$1.console.log" > "$1.kunit.log" 2>&1
	python3 -c 'import json, sys
def walk(t, name):
    for c in t.get("sub_groups", []):
        walk(c, name + "." + c["name"])
    for c in t.get("test_cases", []):
        st = {"PASS": "PASS", "SKIP": "SKIP"}.get(c["status"], "FAIL")
        print("%s|kunit: %s.%s|%s" % (st, name, c["name"], c["status"]))
r = json.load(open(sys.argv[1]))
if not r.get("sub_groups"):
    print("FAIL|kunit: no KTAP results in the console|")
for g in r.get("sub_groups", []):
    walk(g, g["name"])' "$1.kunit.json" > "$1.kunit.results" 2>&1 ||
		echo "FAIL|kunit: kunit.py parse|$1.kunit.log" >> "$1.kunit.results"
	grep -q 'Test(s) failed\|ERROR' "$1.kunit.log" &&
		echo "FAIL|kunit: kunit.py parse reports errors|$1.kunit.log" >> "$1.kunit.results"
	results "$1.kunit.results"
}

# --- One loop over the plan ------------------------------------------------------
# The guest's helpers: ksft runs kselftests, ksft_path one by its path,
# boot_check checks a boot; hold_static_calls (lib.sh) runs first.
# ksft runs its -t and -c selections one at a time, each followed by a
# "# time SELECTION Ns" line (where the minutes of a boot go); other
# options (-o N) apply to each.
prelude="ksft() {
	local o=() s=() a t only=' ${CHECK_TESTS:-} '
	while [ \$# -gt 0 ]; do
		case \$1 in -t|-c) s+=(\"\$1 \$2\") ;; *) o+=(\"\$1\" \"\$2\") ;; esac
		shift 2
	done
	for a in \"\${s[@]}\"; do
		[ \"\$only\" = '  ' ] || [[ \"\$only\" == *\" \${a#-t } \"* ]] || continue
		t=\$SECONDS
		$ksft/run_kselftest.sh \"\${o[@]}\" \$a
		echo \"# time \${a#* } \$((SECONDS - t))s\"
	done
}"$'\n'
prelude+="ksft_path() { local t=\$1; shift; $ksft/\$t \"\$@\"; }"$'\n'
prelude+="boot_check() { $top/tools/expsync/boot-check.sh \"\$@\"; }"$'\n'
# Before any test: no tracepoint's call sites get patched under load.
prelude+=". $top/tools/expsync/lib.sh; hold_static_calls || exit 1"$'\n'

while IFS='|' read -r rtier section name kernel smp icount timeout append run <&3; do
	printf '\n== %s: %s  [%ds]\n' "$rtier" "$name" "$(elapsed)"
	# The kernel's build first: a row's time is its own.
	kok=0
	[ "$kernel" = - ] || build "$kernel" || kok=1
	t1=$(date +%s)
	log=$out/$name.log
	mark=$((passed + failed + skipped))
	if [ "$kernel" = - ]; then
		# A host step: its STATUS|name|detail lines are its results,
		# and a step that exits non-zero (a crash) fails.
		OUT=$out bash -c "$run" > "$log" 2>&1
		rc=$?
		grep -vE '^(PASS|FAIL|SKIP)\|' "$log" | grep -E '^(FAIL|ERROR|WARNING)|^    ' | head -n 40
		results "$log"
		[ $rc -eq 0 ] || result FAIL "$name: exited with status $rc" "$log"
	elif [ $kok = 0 ]; then
		kunit=0
		[[ " $append " == *" kunit.enable=1 "* ]] && kunit=1 || append+=" kunit.enable=0"
		append+=" $(hold_boot_args "$(kobj "$kernel")/.config")"
		tools/expsync/vm-run.sh --kernel "$(kobj "$kernel")/arch/x86/boot/bzImage" \
			--name "$vmprefix-$name" --smp "$smp" --icount "$icount" \
			--timeout "$timeout" --append "$append" -- "$prelude$run" > "$log" 2>&1
		rc=$?
		console=$top/build/vm/$vmprefix-$name/console.log
		cp "$console" "$out/$name.console.log" 2>/dev/null
		# A guest that timed out (124), died (125) or splatted (126) is
		# a FAIL of its own, whatever its tests said.
		case $rc in 124|125|126)
			tail -n 30 "$log"
			result FAIL "vm: $name" "status $rc, $log" ;;
		esac
		[ $kunit = 1 ] && kunit_results "$out/$name"
		tools/expsync/tap.sh "$log" "$name" > "$out/$name.results"
		results "$out/$name.results"
	fi
	[ $((passed + failed + skipped)) -gt $mark ] ||
		result FAIL "$name: the row reported no result" "$log"
	s=$(($(date +%s) - t1))
	printf -- '-- %s: %ds\n' "$name" "$s"
	remember "$name" "$s"
	[ -n "${CHECK_FAIL_FAST:-}" ] && [ "$failed" -gt 0 ] && finish
done 3< <(rows)

finish
}
