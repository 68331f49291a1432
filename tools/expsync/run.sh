#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make run: build the bench kernel, boot it and print the evaluation
# report, also written to build/report/report.txt.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
top=$EXPSYNC_TOP
cd "$top"
mkdir -p build/report
t0=$(date +%s)

echo "== building the bench kernel (configs/base.config + bench.config)"
if ! make -s kernel CONFIG=bench > build/report/build-bench.log 2>&1; then
	tail -n 40 build/report/build-bench.log
	echo "make run: the bench kernel did not build" >&2
	exit 1
fi
make -s selftests CONFIG=bench > build/report/selftests-build.log 2>&1 || {
	tail -n 40 build/report/selftests-build.log; exit 1; }

# -icount: guest time counts instructions, so timings are comparable.
# The last CPU is isolated for the vmstat_drain evaluation.
smp=${SMP:-4}
echo "== booting it (QEMU TCG -icount shift=0, SMP=$smp, CPU $((smp - 1)) isolated) and evaluating"
tools/expsync/vm-run.sh --kernel build/obj-bench/arch/x86/boot/bzImage \
	--name report --smp "$smp" --icount 1 --timeout 3000 \
	--append "nohz_full=$((smp - 1)) isolcpus=$((smp - 1))" \
	-- "tools/expsync/eval/report.sh" | tee build/report/report.txt
rc=${PIPESTATUS[0]}
echo "make run: ${rc/#0/ok}; $(($(date +%s) - t0))s; report in build/report/report.txt"
exit "$rc"
