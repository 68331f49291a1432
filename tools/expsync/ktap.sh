#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ktap.sh CONSOLE_LOG: print "PASS|FAIL|SKIP suite.case" for every KUnit
# test case whose KTAP result is in the kernel console log.
sed -E 's/^\[ *[0-9]+\.[0-9]+\] //' "$1" | awk '
	/^    # Subtest: / { suite = $3; next }
	/^        (not )?ok [0-9]+ / { next }	# parameterized sub-cases
	/^    (not )?ok [0-9]+ / {
		line = $0; sub(/^    /, "", line)
		st = (line ~ /^not ok/) ? "FAIL" : "PASS"
		if (line ~ /# SKIP/) st = "SKIP"
		sub(/^(not )?ok [0-9]+ /, "", line); sub(/ #.*/, "", line)
		print st, suite "." line
	}'
