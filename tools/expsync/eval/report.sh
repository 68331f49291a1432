#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The evaluation, run inside a bench guest by "make run" on both kernels
# (CONFIG_EXPSYNC=n and expsync).  Each script eval/NN-name.sh measures
# one part and prints its raw records ("@R FIGURE VARIANT VALUE", one
# per run); tools/expsync/report.py on the host turns the records of
# both boots into the report.  EVAL_ONLY='10 20' runs only those scripts
# (make run splits the expsync kernel's evaluation over three boots).
set -uo pipefail
here=$(dirname "$0")
. "$here/../lib.sh"

echo "kernel: $(uname -r) $(uname -v), $(nproc --all) vCPUs, QEMU TCG (no KVM, no PMU)"
echo "command line: $(sed 's/ init=.*//' /proc/cmdline)"
if expsync_kernel; then
	echo "expsync policies at boot (/sys/kernel/debug/expsync/knobs, [current]):"
	sed 's/^/  /' /sys/kernel/debug/expsync/knobs
else
	echo "CONFIG_EXPSYNC=n: the 6.12 kernel"
fi
# make run NO_PERF=1: perf cannot run here (its file replaced by
# /dev/null, not executable), to show that make run then fails and says so.
[ -z "${NO_PERF:-}" ] || mount --bind /dev/null "$(command -v perf)"
# Run it: "command -v" still finds the /dev/null mounted over it.
perf --version > /dev/null 2>&1 ||
	echo "MISSING: no runnable perf in the guest; every figure counted by perf is missing"
rc=0
for s in "$here"/[0-9]*-*.sh; do
	n=$(basename "$s")
	[ -z "${EVAL_ONLY:-}" ] || [[ " $EVAL_ONLY " == *" ${n%%-*} "* ]] || continue
	t0=$(date +%s)
	"$s" || { echo "FAILED: $n (status $?)"; rc=1; }
	echo "@T $n $(($(date +%s) - t0))"
done
if expsync_kernel; then
	echo "expsync counters after the evaluation (/sys/kernel/debug/expsync/stats):"
	sed 's/^/  /' /sys/kernel/debug/expsync/stats
fi
exit $rc
