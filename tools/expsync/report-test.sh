#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check's "report" section: make run's report generator
# (tools/expsync/report.py) on made-up guest logs, no kernel needed.
# A complete set of records (each figure's runs, made up by
# report_test.py so that every claim holds) must give every output and
# exit 0; the same set with one figure's runs cut to 4, with a guest's
# "MISSING: no perf" line, with a failed ledger claim or with a false
# figure claim must exit 1 and name what failed; "compare" must pair
# the figures.  report_test.py's unit tests judge every claim on data
# where it holds and where it does not.
# Prints "STATUS|name|detail" lines.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# make_logs DIR [quick]: guest, ledger, claim and phase files with every
# figure, its runs each; with "quick", what make run QUICK=1 leaves: 3 runs
# of report.py's QUICK figures only, no ledger.
make_logs() {
	python3 "$here/report_test.py" make-logs "$1" ${2:+"$2"}
}

check() {	# check NAME COND DETAIL
	if eval "$2"; then echo "PASS|report: $1|$3"; else echo "FAIL|report: $1|$3"; fi
}

d=$tmp/full
make_logs "$d"
python3 "$here/report.py" "$d" > "$tmp/out" 2> "$tmp/err"; rc=$?
n=$(wc -l < "$d/summary.txt" 2>/dev/null || echo 0)
check "a complete set of figures gives every output" \
	'[ $rc = 0 ] && [ -s $d/report.md ] && [ -s $d/results.json ] && grep -q "data:image/png;base64" $d/index.html && [ "$n" -le 40 ] && [ "$n" -ge 20 ]' \
	"exit $rc, summary $n lines, $(grep -c '<img' "$d/index.html" 2>/dev/null) plots"
check "ratios are to 6.12, each headline's verdict beside it" \
	'grep -q "many 101.0±0.101 (1.00x)  single 202.0±0.202 (2.00x) => PASS" $d/summary.txt && [ "$(grep -c "=> PASS" $d/summary.txt)" -ge 12 ]' \
	"$(grep -m1 'strategy' "$d/summary.txt")"
check "the scaling curves stand beside seed 000's figures, with their plots" \
	'grep -q "^| 7 | .* | 3.067 | 9.836 |$" $d/report.md && grep -q "seed 000: many 0.19 us, single 1.31 us" $d/report.md && grep -q "alt=\"membarrier coalescing against callers\"" $d/index.html && grep -q "alt=\"membarrier cost against targets, beside seed 000\"" $d/index.html' \
	"$(grep -m1 'Cost of one more target' "$d/report.md" | cut -c1-160)"

# Each claim of every figure passes where it holds and fails where it
# does not (report_test.py's unit tests, on report.py's own list).
check "seed 004's costs stand beside the counter functions' instructions, judged" \
	'grep -q "^| __mod_node_page_state | direct | 3 | 25 / 25 / 25 | 0 | 2 | 0 | 0 | 0 | 0 | 0 | 20 |$" $d/report.md && grep -q "locked cmpxchg 12 cycles" $d/report.md && [ "$(grep -c "^- PASS fast path: " $d/report.md)" = 2 ]' \
	"$(grep -m1 '^| __mod_node_page_state | direct' "$d/report.md")"

d=$tmp/fastpath
make_logs "$d"
sed -i '/"variant": "direct"/s/"lock_rmw": 2/"lock_rmw": 0/' "$d/fastpath-bench.jsonl"
python3 "$here/report.py" "$d" > "$tmp/out" 2> "$tmp/err"; rc=$?
check "a direct counter update that holds it per CPU fails make run" \
	'[ $rc = 1 ] && grep -q "claim failed: fast path: under direct" $tmp/err' \
	"exit $rc: $(grep -m1 'fast path: under direct' "$d/summary.txt")"

python3 "$here/report_test.py" > "$tmp/unit" 2>&1; rc=$?
check "every figure's claim holds on data where it is true, fails where false" \
	'[ $rc = 0 ]' "exit $rc: $(tail -n 3 "$tmp/unit" | tr '\n' ' ')"

# A headline claim that is false fails make run, its verdict beside its
# figure in the summary, report.md and index.html: coalescing that
# shares no round (on's rounds are off's).
d=$tmp/noshare
make_logs "$d"
sed -i 's/^@R mb_coalesce_c3_rounds on /@R mb_coalesce_c3_rounds unused /' "$d/guest-bench.log"
grep '^@R mb_coalesce_c3_rounds off ' "$d/guest-bench.log" | sed 's/ off / on /' >> "$d/guest-bench.log"
python3 "$here/report.py" "$d" > "$tmp/out" 2> "$tmp/err"; rc=$?
check "a false headline claim fails make run and shows beside its figure" \
	'[ $rc = 1 ] && grep -q "claim failed: mb_coalesce_c3_rounds: on/off <= 0.67" $tmp/err && grep -q "handlers/1000 calls, 3.*=> FAIL (on/off <= 0.67)" $d/summary.txt && grep -q "| IPI handler runs per 1000 calls, 3 caller(s) | runs | on | 5 .*| FAIL (on/off <= 0.67) |" $d/report.md && grep -q "<td class=\"FAIL\">FAIL (on/off" $d/index.html' \
	"exit $rc: $(grep -m1 'handlers/1000 calls, 3' "$d/summary.txt")"

d=$tmp/short
make_logs "$d"
sed -i '0,/^@R tf_munmap_busy_ms rcu+percpu /{/^@R tf_munmap_busy_ms rcu+percpu /d}' \
	"$d/guest-bench.log"
python3 "$here/report.py" "$d" > "$tmp/out" 2> "$tmp/err"; rc=$?
check "a figure with 4 runs of 5 fails make run and is named" \
	'[ $rc = 1 ] && grep -q "tf_munmap_busy_ms \[rcu+percpu\]: 4 of 5 runs" $tmp/err' \
	"exit $rc: $(head -c 200 "$tmp/err")"

d=$tmp/noperf
make_logs "$d"
grep -v '^@R mb_' "$d/guest-bench-noexpsync.log" > "$tmp/g" && mv "$tmp/g" "$d/guest-bench-noexpsync.log"
echo "MISSING: no runnable perf in the guest; every figure counted by perf is missing" \
	>> "$d/guest-bench-noexpsync.log"
python3 "$here/report.py" "$d" > "$tmp/out" 2> "$tmp/err"; rc=$?
check "a guest without perf fails make run with its message" \
	'[ $rc = 1 ] && grep -q "no runnable perf in the guest" $tmp/err && grep -q "mb_ipi_t2 \[6.12\]: 0 of 3" $tmp/err && ! grep -q "^| IPI sends per call, 1 target(s) | sends | 6.12 | [1-9]" $d/report.md' \
	"exit $rc: $(head -c 200 "$tmp/err")"

d=$tmp/claim
make_logs "$d"
echo "FAIL|ledger: made up|over" >> "$d/ledger.txt"
python3 "$here/report.py" "$d" > "$tmp/out" 2> "$tmp/err"; rc=$?
check "a failed ledger claim fails make run" '[ $rc = 1 ] && grep -q "claim failed: ledger: made up" $tmp/err' \
	"exit $rc"

d=$tmp/nomem
make_logs "$d"
sed -i '0,/^@R mb_nomem_fail expsync 0/s//@R mb_nomem_fail expsync 1/' "$d/guest-bench.log"
python3 "$here/report.py" "$d" > "$tmp/out" 2> "$tmp/err"; rc=$?
check "one expsync command returning ENOMEM fails make run" \
	'[ $rc = 1 ] && grep -q "claim failed: no-ENOMEM" $tmp/err && grep -q "FAIL no-ENOMEM" $d/summary.txt' \
	"exit $rc: $(grep -m1 'no-ENOMEM' "$d/summary.txt")"

python3 "$here/report.py" compare "$tmp/full" "$tmp/claim" > "$tmp/cmp" 2>&1; rc=$?
check "compare pairs every figure of two results.json" \
	'[ $rc = 0 ] && [ "$(grep -c " 1.000$" $tmp/cmp)" -ge 100 ]' \
	"exit $rc, $(grep -c ' 1.000$' "$tmp/cmp") figures paired"

# QUICK=1: its subset at 3 runs passes and says what it did not measure;
# a figure of the subset with 2 runs fails and is named.
d=$tmp/quick
make_logs "$d" quick
QUICK=1 python3 "$here/report.py" "$d" > "$tmp/out" 2> "$tmp/err"; rc=$?
nq=$(python3 "$here/report.py" quick-figures | wc -w)
check "QUICK=1: its $nq figures at 3 runs pass, the others say they were not measured" \
	'[ $rc = 0 ] && [ "$nq" -ge 8 ] && grep -q "not measured by QUICK=1" $d/summary.txt && grep -q "not judged (not measured by QUICK=1)" $d/summary.txt && grep -q "| stress-ng --mmap | bogo-ops/s | all | 0 | not measured by QUICK=1 | | | | 6.12 | not judged |" $d/report.md && grep -q "data:image/png;base64" $d/index.html && ! grep -q "stress-ng --mmap.*[0-9]x" $d/summary.txt' \
	"exit $rc: $(head -c 200 "$tmp/err")"
d=$tmp/quickshort
make_logs "$d" quick
sed -i '0,/^@R mb_coalesce_c3_cps on /{/^@R mb_coalesce_c3_cps on /d}' "$d/guest-bench.log"
sed -i '0,/^@R mb_coalesce_c3_cps on /{/^@R mb_coalesce_c3_cps on /d}' "$d/guest-bench.log"
QUICK=1 python3 "$here/report.py" "$d" > "$tmp/out" 2> "$tmp/err"; rc=$?
check "QUICK=1: a figure of its subset with 1 run of 3 fails and is named" \
	'[ $rc = 1 ] && grep -q "mb_coalesce_c3_cps \[on\]: 1 of 3 runs" $tmp/err' \
	"exit $rc: $(head -c 200 "$tmp/err")"
