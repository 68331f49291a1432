#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# membarrier_perf.sh THREADS CALLS [private|global]
#
# Runs membarrier_bench under tpcount (perf stat's counting without its
# start-up: see tpcount.c), counting the ipi:* tracepoints that carry a
# function (not the reschedule IPIs of wake-ups, traced with a NULL
# callback), but for those of remote wake-ups (ttwu_queue_wakelist) and
# of TLB flushes (on_each_cpu_cond_mask), whose number changes from run
# to run with the threads' start and exit, and expsync:*, and prints one
# line:
#   ns_per_call ipi_mask_per_1000_calls ipi_cpu_per_1000_calls expsync_per_1000_calls
# IPIs are counted for the benchmark's own threads, minus a baseline run
# with 0 calls (thread start-up and exit send a few IPIs of their own).
# On a kernel without expsync (CONFIG_EXPSYNC=n: 6.12) the last column
# is "-": there is no expsync tracepoint to count.  Shell builtins only,
# besides the two programs: under QEMU TCG every exec costs.
here=$(cd "$(dirname "$0")" && pwd)
threads=$1 calls=$2 cmd=${3:-private}
events=(-e 'ipi:ipi_send_cpumask/callback != 0 && callsite.function != on_each_cpu_cond_mask'
	-e 'ipi:ipi_send_cpu/callback != 0 && callsite.function != ttwu_queue_wakelist')
[ -d /proc/sys/kernel/expsync ] && events+=(-e expsync:expsync_membarrier_ipi)
out=/tmp/membarrier_perf.$$
trap 'rm -f $out' EXIT

count() {	# count CALLS -> "ns mask cpu expsync"
	local res ns m=0 c=0 e=- n name
	# $(...) waits for tpcount, which writes $out after the bench exits.
	res=$("$here/tpcount" -o $out "${events[@]}" -- \
		"$here/membarrier_bench" "$threads" "$1" "$cmd")
	read -r _ ns _ <<<"$res"
	[ -n "$ns" ] && [ -s $out ] || return 1
	while read -r n name; do
		case $name in
		ipi:ipi_send_cpumask) m=$n ;;
		ipi:ipi_send_cpu) c=$n ;;
		expsync:*) e=$n ;;
		esac
	done < $out
	echo "$ns $m $c $e"
}

base=$(count 0) || exit 1
run=$(count "$calls") || exit 1
read -r _ bm bc be <<<"$base"
read -r ns m c e <<<"$run"
[ "$e" = - ] || e=$(((e - be) * 1000 / calls))
echo "$ns $(((m - bm) * 1000 / calls)) $(((c - bc) * 1000 / calls)) $e"
