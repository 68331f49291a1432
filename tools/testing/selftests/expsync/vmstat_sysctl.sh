#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kernel.expsync.vmstat_drain_cpus: lists round-trip, bad lists get
# EINVAL and change nothing.
# kernel.expsync.vmstat_drain_now: bad writes are refused, reads are not
# allowed, and on a quiet system a drain leaves no CPU with differentials
# and every global zone counter equal to the sum over the zones
# (/sys/kernel/debug/expsync/vmstat_last_drain, computed by the kernel
# right after the folds).
ksft_skip=4
f=/proc/sys/kernel/expsync/vmstat_drain_now

# put FILE TEXT: one write() of exactly TEXT, even an empty one (a shell
# redirection writes nothing for ""); fails as the write fails.
put() {
	python3 -c 'import os, sys
fd = os.open(sys.argv[1], os.O_WRONLY)
os.write(fd, sys.argv[2].encode())' "$1" "$2" 2>/dev/null
}
last=/sys/kernel/debug/expsync/vmstat_last_drain

echo "TAP version 13"
[ "$(id -u)" = 0 ] || { echo "1..0 # SKIP must run as root"; exit $ksft_skip; }
[ -e $f ] || { echo "1..0 # SKIP no $f"; exit $ksft_skip; }
command -v python3 >/dev/null ||
	{ echo "1..0 # SKIP no python3 (for exact writes)"; exit $ksft_skip; }
echo "1..5"
fail=0

cpus=/proc/sys/kernel/expsync/vmstat_drain_cpus
orig=$(cat $cpus)
bad=0
for w in 0 0-1 "0,1" 1; do
	printf '%s\n' "$w" > $cpus || bad=1
	got=$(cat $cpus)
	want=$w; [ "$w" = "0,1" ] && want=0-1
	[ "$got" = "$want" ] || { echo "# wrote $w, read $got"; bad=1; }
done
[ $bad = 0 ] && echo "ok 1 vmstat_drain_cpus: lists round-trip" ||
	{ echo "not ok 1 vmstat_drain_cpus: lists round-trip"; fail=1; }
bad=0
long=$(printf '0,%.0s' $(seq 1 200))0
for w in "" "abc" "1-" "-1" "9999" "0-1,x" "0 1" "0-1 " "$long"; do
	if put $cpus "$w"; then
		echo "# '$w' was accepted"; bad=1
	fi
	[ "$(cat $cpus)" = 1 ] || { echo "# '$w' changed the value"; bad=1; }
done
[ $bad = 0 ] && echo "ok 2 vmstat_drain_cpus: bad lists get EINVAL, value unchanged" ||
	{ echo "not ok 2 vmstat_drain_cpus: bad lists get EINVAL, value unchanged"; fail=1; }
echo "${orig:-0}" > $cpus
[ -n "$orig" ] || echo "# (boot set was empty; left at 0)"

bad=0
for w in 0 2 11 "1x" " 1" "yes" ""; do
	if put $f "$w"; then
		echo "# write '$w' was accepted"; bad=1
	fi
done
if cat $f >/dev/null 2>&1; then echo "# $f is readable"; bad=1; fi
[ $bad = 0 ] && echo "ok 3 vmstat_drain_now: bad writes and reads are refused" ||
	{ echo "not ok 3 vmstat_drain_now: bad writes and reads are refused"; fail=1; }

ok=0
for try in 1 2 3 4 5; do
	sleep 0.2
	echo 1 > $f || break
	if grep -qx "cpus_with_diffs 0" $last && grep -qx "sum_mismatches 0" $last; then
		ok=1
		break
	fi
done
sed 's/^/# /' $last
[ $ok = 1 ] && echo "ok 4 a drain leaves every counter exact (try $try)" ||
	{ echo "not ok 4 a drain leaves every counter exact"; fail=1; }

echo 1 > $f && echo 1 > $f
ns=$(awk '$1 == "ns" { print $2 }' $last)
echo "ok 5 drain-now took ${ns} ns"
exit $fail
