#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs inside a guest of the boot matrix:
#   boot-check.sh [KNOB=WORD]... [--warn TEXT]... [--no-warn]
#                 [--ksft RUN_KSELFTEST_ARGS]
# checks that each kernel.expsync.KNOB reads WORD, that every TEXT
# appears in the kernel log, or (--no-warn) that expsync warned nothing,
# and runs the given kselftests, failing if any of them fails or skips.
. "$(dirname "$0")/lib.sh"
top=$EXPSYNC_TOP
fail=0
for arg in "$@"; do
	if [ "${want_warn:-0}" = 1 ]; then
		want_warn=0
		if dmesg | grep -qF -- "$arg"; then
			echo "warned: $arg"
		else
			echo "missing warning: $arg"; fail=1
		fi
		continue
	fi
	if [ "${want_ksft:-0}" = 1 ]; then
		want_ksft=0
		# shellcheck disable=SC2086 # the argument is a list of options
		out=$("$top"/build/obj-test/kselftest/kselftest_install/run_kselftest.sh $arg 2>&1)
		echo "$out" | grep -E '^(not )?ok [0-9]+ selftests'
		# A skipped test did not run: that is a failure here too.
		echo "$out" | grep -Eq '^(not ok|ok [0-9]+ .*# SKIP)' && fail=1
		echo "$out" | grep -q '^ok' || fail=1
		plan=$(echo "$out" | awk -F. '/^1\.\.[0-9]+$/ { n += $3 } END { print n + 0 }')
		[ "${plan:-x}" = "$(echo "$out" | grep -Ec '^(not )?ok [0-9]+ selftests')" ] ||
			{ echo "kselftest plan 1..${plan:-?} does not match the results"; fail=1; }
		continue
	fi
	case "$arg" in
	--ksft) want_ksft=1 ;;
	--warn) want_warn=1 ;;
	--no-warn)
		if dmesg | grep -Eq '^\[[^]]*\] expsync'; then
			echo "unexpected expsync message:"; dmesg | grep -E '^\[[^]]*\] expsync'
			fail=1
		fi ;;
	*=*)
		knob=${arg%%=*} word=${arg#*=}
		got=$(cat "/proc/sys/kernel/expsync/$knob" 2>&1)
		if [ "$got" != "$word" ]; then
			echo "kernel.expsync.$knob is '$got', expected '$word'"; fail=1
		else
			echo "kernel.expsync.$knob = $got"
		fi ;;
	*)
		echo "boot-check: unknown argument $arg"; fail=1 ;;
	esac
done
[ -d /proc/sys/kernel/expsync ] || { echo "no /proc/sys/kernel/expsync"; fail=1; }
exit $fail
