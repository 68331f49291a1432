#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fastpath-guest.sh DIR CPU: the guest half of fastpath-steps.sh.  For
# each vmstat_drain policy (on expsync, with CPU the set; "6.12" on =n),
# named first in DIR/variants, runs "vmstat_isolation pages CPU", says
# DIR/ready-VARIANT, waits for the host's DIR/attached-VARIANT (gdb has
# its breakpoints), lets the
# loop run WINDOW seconds, stops it and calls sync(2), which ends the
# host's sampling; then waits for DIR/done-VARIANT.
. "$(dirname "$0")/../lib.sh"
dir=$1 cpu=$2
sysctl=/proc/sys/kernel/expsync
bin=$(expsync_ksft_dir)/vmstat_isolation
[ -x "$bin" ] || { echo "FAILED: no $bin"; exit 1; }

# wait_for FILE: up to 600 s of guest time, polled every 100 ms
wait_for() {
	local i
	for ((i = 0; i < 6000; i++)); do
		[ -e "$1" ] && return 0
		sleep 0.1
	done
	echo "FAILED: no $1"
	return 1
}

variants=6.12
if expsync_kernel; then
	echo "$cpu" > $sysctl/vmstat_drain_cpus || exit 1
	variants="periodic user-return direct"
fi
echo $variants > "$dir/variants"
for v in $variants; do
	[ "$v" = 6.12 ] || echo "$v" > $sysctl/vmstat_drain || exit 1
	"$bin" pages "$cpu" & pid=$!
	touch "$dir/ready-$v"
	wait_for "$dir/attached-$v" || exit 1
	sleep "${WINDOW:-2}"
	kill "$pid"
	wait "$pid" 2>/dev/null
	sync
	wait_for "$dir/done-$v" || exit 1
	echo "fastpath: $v sampled"
done
