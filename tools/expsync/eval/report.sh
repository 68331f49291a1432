#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The evaluation report, run inside the bench guest by "make run".
# Each policy's evaluation is a script eval/<policy>.sh that prints its
# own section; this prints the common header, the effective policies
# and the counters.
set -uo pipefail
here=$(dirname "$0")

echo "expsync evaluation report"
echo "kernel: $(uname -r), $(nproc --all) vCPUs, QEMU TCG (no KVM, no PMU)"
echo "command line: $(cat /proc/cmdline | sed 's/ init=.*//')"
echo
echo "== effective policies (/sys/kernel/debug/expsync/knobs, [current])"
# debugfs files have size 0: read, do not test -s.
sed 's/^/  /' /sys/kernel/debug/expsync/knobs 2>/dev/null || echo "  (no expsync debugfs)"
rc=0
for s in "$here"/[0-9]*-*.sh; do
	[ -e "$s" ] || continue
	echo
	"$s" || { st=$?; echo "  $(basename "$s") FAILED (status $st)"; rc=1; }
done
echo
echo "== counters after the evaluation (/sys/kernel/debug/expsync/stats)"
sed 's/^/  /' /sys/kernel/debug/expsync/stats
exit $rc
