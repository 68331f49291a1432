#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# membarrier under fault injection, in its own boot (make run's nomem
# phase: the bench kernels have no fault injection).  Runs the
# no-ENOMEM test (membarrier_nomem_test: every registration and
# NOMEM_ITERS calls of every command by a thread whose slab and page
# allocations all fail) NOMEM_RUNS times and records per run
# mb_nomem_fail: the test's failed cases ("not ok": a registration, or
# a command whose calls returned an error), of 16 with one IPI strategy
# and 21 with expsync's two.  Failures must be ENOMEM (the test prints
# "Cannot allocate memory"): any other error is reported as FAILED.
# Variant "6.12" on CONFIG_EXPSYNC=n (make run boots the noexpsync test
# kernel with kernel/sched/membarrier.c as in 6.12, which allocates its
# IPI mask), "expsync" on the expsync test kernel.
. "$(dirname "$0")/../lib.sh"
ksft=$(expsync_ksft_dir)
test=$ksft/membarrier_nomem_test
v=$(expsync_kernel && echo expsync || echo 6.12)
runs=${NOMEM_RUNS:-5}

echo "== membarrier under fault injection ($runs runs, variant $v)"
if [ ! -x "$test" ] || [ ! -d /sys/kernel/debug/failslab ]; then
	echo "  MISSING: needs membarrier_nomem_test and failslab in debugfs"
	exit 1
fi
log=/tmp/nomem.$$
fail=0
for i in $(seq "$runs"); do
	NOMEM_ITERS=${NOMEM_ITERS:-100} NOMEM_GLOBAL_ITERS=${NOMEM_GLOBAL_ITERS:-10} \
		"$test" > $log 2>&1
	# The test proves injection live first ("ok 1 fault injection ...");
	# without that line the count is no figure.
	if ! grep -q '^ok 1 fault injection fails' $log; then
		echo "  MISSING: fault injection not live in run $i:"
		sed 's/^/    /' $log
		fail=1
		continue
	fi
	grep -E '^(not ok|# .*Cannot allocate memory)' $log | sed 's/^/  /'
	n=$(grep -c '^not ok' $log)
	if [ "$n" -gt 0 ] && ! grep -q 'Cannot allocate memory' $log; then
		echo "  FAILED: run $i failed $n cases, none with ENOMEM"
		fail=1
	fi
	record mb_nomem_fail "$v" "$n" || fail=1
done
rm -f $log
exit $fail
