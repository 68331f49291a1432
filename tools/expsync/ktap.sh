#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ktap.sh CONSOLE_LOG: print "PASS|FAIL|SKIP suite.case" for every KUnit
# test case whose KTAP result is in the kernel console log, and a FAIL
# line for each suite whose plan ("1..N") does not match the results
# seen, or for a top-level plan that does not match the suites seen.
sed -E 's/\r$//; s/^\[ *[0-9]+\.[0-9]+\] //' "$1" | awk '
	function close_suite() {
		if (suite != "" && plan != "" && cases != plan)
			print "FAIL", suite ".plan (1.." plan " but " cases " results)"
		suite = ""; plan = ""; cases = 0
	}
	/^1\.\.[0-9]+$/ { top = substr($0, 4); next }
	/^    # Subtest: / { close_suite(); suite = $3; next }
	/^    1\.\.[0-9]+$/ { plan = substr($0, 8); next }
	/^        (not )?ok [0-9]+ / { next }	# parameterized sub-cases
	/^    (not )?ok [0-9]+ / {
		line = $0; sub(/^    /, "", line)
		st = (line ~ /^not ok/) ? "FAIL" : "PASS"
		if (line ~ /# SKIP/) st = "SKIP"
		sub(/^(not )?ok [0-9]+ /, "", line); sub(/ #.*/, "", line)
		print st, suite "." line
		cases++
		next
	}
	/^(not )?ok [0-9]+ / { close_suite(); suites++ }
	END {
		close_suite()
		if (top != "" && suites != top)
			print "FAIL", "kunit.plan (1.." top " suites but " suites + 0 " results)"
	}'
