#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs inside a guest of make check's plan (tools/expsync/check-plan):
#   collection-check.sh LOG TEST...
# LOG is what "run_kselftest.sh -c expsync" printed in a boot without
# nohz_full.  Prints TAP: no test of the collection failed, and each TEST
# (one that needs a nohz_full CPU) was a skip whose reason names
# nohz_full, as anyone's CI running the collection would see them.  The
# collection's own result lines are printed as "#|" lines, which make
# check's TAP reader keeps out of the verdict: here a skip is expected.
log=$1
shift
results=$(grep -E '^(not )?ok [0-9]+ selftests: expsync: ' "$log")
sed 's/^/#| /' <<<"$results"
echo "TAP version 13"
echo "1..$(($# + 1))"
failed=$(grep '^not ok' <<<"$results" | sed 's/.*selftests: expsync: //' | tr '\n' ' ')
n=$(grep -c . <<<"$results")
if [ "$n" -gt 0 ] && [ -z "$failed" ]; then
	echo "ok 1 run_kselftest.sh -c expsync without nohz_full: $n tests, none failed"
else
	echo "not ok 1 run_kselftest.sh -c expsync without nohz_full: $n tests, failed: ${failed:-no result}"
fi
i=1
for t in "$@"; do
	i=$((i + 1))
	line=$(grep -E "^(not )?ok [0-9]+ selftests: expsync: $t( |$)" <<<"$results")
	# The reason is the test's own SKIP line (expsync_lib.sh skip),
	# between run_kselftest.sh's "# selftests: expsync: TEST" and its result.
	why=$(awk -v t="$t" '$0 == "# selftests: expsync: " t { on = 1; next }
		on && /^(not )?ok [0-9]+ selftests: expsync: / { exit }
		on && /SKIP/ { sub(/^(# )+/, ""); print; exit }' "$log")
	if [[ "$line" == *"# SKIP"* ]] && [[ "$why" == *nohz_full* ]]; then
		# tap.sh reads "#" in a result line as a directive.
		echo "ok $i $t skips without nohz_full (${why//#/-})"
	else
		echo "not ok $i $t skips without nohz_full: ${line:-no result}; reason: ${why:-none}"
	fi
done
