#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Where does each way of freeing page tables spend its instructions?
# Run in the bench guest under -icount (make vm CONFIG=bench ICOUNT=1
# SMP=4 CMD=tools/expsync/profile-table-free.sh): for each table_free
# mode, perf record samples every CPU on cpu-clock (under -icount a
# sample per fixed count of guest instructions) while the munmap loop
# runs, and perf report lists the kernel functions with the most
# samples, all CPUs (RCU callbacks and softirqs included) and the
# benchmark's own.  Prints "mode function samples" lines.
. "$(dirname "$0")/lib.sh"
bench=$(expsync_ksft_dir)/table_free_bench
sysctl=/proc/sys/kernel/expsync
rounds=${ROUNDS:-4000}
tmp=$(mktemp -d)
for spec in immediate:percpu rcu:percpu rcu:gather; do
	IFS=: read -r mode batch <<<"$spec"
	echo "$mode" > $sysctl/table_free && echo "$batch" > $sysctl/table_free_rcu_batch || exit 1
	perf record -q -a -F 20000 -e cpu-clock -o "$tmp/p" -- \
		sh -c '"$0" munmap "$1" > /dev/null; sleep 0.1' "$bench" "$rounds" 2>/dev/null
	echo "== $mode+$batch: samples per kernel symbol, all CPUs but idle (top 25)"
	perf report -i "$tmp/p" --stdio --comms table_free_benc,ksoftirqd/0,ksoftirqd/1,ksoftirqd/2,rcu_preempt,rcuog/0,rcuop/0 \
		--sort sym -F overhead,sample,sym 2>/dev/null |
		grep -v '^#' | grep '\[k\]' | sort -k2 -rn | head -n 25
	echo "== $mode+$batch: by command (who is charged)"
	perf report -i "$tmp/p" --stdio --sort comm -F overhead,sample,comm 2>/dev/null |
		grep -v '^#' | grep . | head -n 8
done
rm -rf "$tmp"
