#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tap.sh LOG [LABEL]: the one reader of TAP in make check.  Prints one
# "STATUS|name|detail" line per top-level result of LOG (kselftest's
# run_kselftest.sh, boot-check.sh): PASS, FAIL, or SKIP with the reason
# the test gave (the first "SKIP" line of its own output; a test that
# passed with a skipped subtest is a SKIP too); then a FAIL
# line when the plans ("1..N", summed) do not match the results seen, or
# when there is no result at all.  Whether a SKIP fails is make check's
# rule (check.sh), not this reader's.  Nested output ("# ...") is the
# tests' own: their failed cases are printed as details of a FAIL.
log=$1 label=${2:+ ($2)}
tr -d '\r' < "$log" | awk -v label="$label" '
	function flush(   st, why) {
		if (name == "")
			return
		st = (line ~ /^not ok/) ? "FAIL" : "PASS"
		why = fails
		if (st == "FAIL" && why == "") why = substr(last, 1, 400)
		if (line ~ /# SKIP/) {
			st = "SKIP"
			why = skipwhy
			if (why == "") { why = line; sub(/.*# SKIP */, "", why) }
		} else if (st == "PASS" && subskip != "") {
			st = "SKIP"			# a subtest did not run
			why = "subtest skipped: " subskip
		}
		printf "%s|%s%s|%s\n", st, name, label, why
		name = ""
	}
	# Nested lines belong to the test whose result comes after them.
	/^#/ {
		last = $0; sub(/^(# )+/, "", last)
		if (skipwhy == "" && $0 ~ /SKIP/) {
			skipwhy = $0; sub(/.*SKIP[]:]* */, "", skipwhy)
		}
		if (subskip == "" && $0 ~ /^(# )+ok [0-9]+ .*# SKIP/) {
			subskip = $0; sub(/^(# )+ok [0-9]+ +/, "", subskip)
			subskip = substr(subskip, 1, 100)
		}
		if ($0 ~ /^(# )+not ok /) {
			f = $0; sub(/^(# )+/, "", f)
			fails = fails (fails == "" ? "" : "; ") substr(f, 1, 400)
		}
		next
	}
	/^1\.\.[0-9]+/ { split($0, p, /[. ]+/); plan += p[2]; plans++; next }
	/^(not )?ok [0-9]+/ {
		line = $0
		name = $0
		sub(/^(not )?ok [0-9]+ +(- +)?/, "", name)
		sub(/^selftests: /, "", name)
		sub(/ +# .*/, "", name)
		flush()
		results++
		skipwhy = ""; fails = ""; last = ""; subskip = ""
		next
	}
	END {
		if (results == 0)
			printf "FAIL|no TAP results%s|\n", label
		else if (plans == 0 || plan != results)
			printf "FAIL|TAP plan 1..%s but %d results%s|\n", \
				(plans ? plan : "?"), results, label
	}'
