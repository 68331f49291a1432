#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The upstream rseq param_test membarrier tests, with repetition counts
# that finish under QEMU TCG:
#  -T r:    MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ (with FLAG_CPU) restarts
#           the rseq critical sections of a CPU, so that workers stop
#           writing to a per-CPU list the manager has retired: a
#           membarrier that does not restart them shows as a wrong sum
#           and param_test aborts;
#  -T b -M, -T m -M: per-CPU buffer push/pop and memcpy with release
#           ordering, the barrier-pairing variants of run_param_test.sh.
# REPS and THREADS scale them (defaults: 200 repetitions, 4 threads per
# CPU; run_param_test.sh uses 1000 and 6).
here=$(cd "$(dirname "$0")" && pwd)
pt=$here/../rseq/param_test
reps=${REPS:-200}
threads=$((${THREADS_PER_CPU:-4} * $(nproc)))

echo "TAP version 13"
echo "1..3"
[ -x "$pt" ] || { echo "not ok 1 no $pt"; exit 1; }
fail=0 n=0
log=$(mktemp)
for t in "-T r" "-T b -M" "-T m -M"; do
	n=$((n + 1))
	t0=$(date +%s%N)
	# shellcheck disable=SC2086 # $t is a list of options
	if LD_LIBRARY_PATH=$here/../rseq "$pt" $t -r "$reps" -t "$threads" \
		> "$log" 2>&1; then
		echo "ok $n param_test $t -r $reps -t $threads" \
			"($(( ($(date +%s%N) - t0) / 1000000 )) ms)"
	else
		sed 's/^/# /' "$log" | tail -n 5
		echo "not ok $n param_test $t -r $reps -t $threads"
		fail=1
	fi
done
rm -f "$log"
exit $fail
