#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# membarrier_perf.sh THREADS CALLS [private|global]
#
# Runs membarrier_bench under tpcount (perf stat's counting without its
# start-up: see tpcount.c), counting the ipi:* tracepoints that carry a
# function (not the reschedule IPIs of wake-ups, traced with a NULL
# callback) and expsync:*, and prints one line:
#   ns_per_call ipi_mask_per_call ipi_cpu_per_call expsync_per_call
# IPIs are counted for the benchmark's own threads, minus a baseline run
# with 0 calls (thread start-up and exit send a few IPIs of their own).
# On a kernel without expsync (CONFIG_EXPSYNC=n: 6.12) the last column
# is "-": there is no expsync tracepoint to count.
here=$(cd "$(dirname "$0")" && pwd)
threads=$1 calls=$2 cmd=${3:-private}
events=(-e 'ipi:ipi_send_cpumask/callback != 0' -e 'ipi:ipi_send_cpu/callback != 0')
[ -d /proc/sys/kernel/expsync ] && events+=(-e expsync:expsync_membarrier_ipi)

count() {	# count CALLS -> "ns mask cpu expsync"
	local out ns
	out=$(mktemp)
	ns=$("$here/tpcount" -o "$out" "${events[@]}" -- \
		"$here/membarrier_bench" "$threads" "$1" "$cmd" | awk '{print $2}')
	[ -n "$ns" ] && [ -s "$out" ] || { rm -f "$out"; return 1; }
	echo "$ns $(awk '
		$2 == "ipi:ipi_send_cpumask" { m = $1 }
		$2 == "ipi:ipi_send_cpu" { c = $1 }
		$2 == "expsync:expsync_membarrier_ipi" { e = $1 }
		END { print m + 0, c + 0, (e == "" ? "-" : e + 0) }' "$out")"
	rm -f "$out"
}

base=$(count 0) || exit 1
run=$(count "$calls") || exit 1
read -r _ bm bc be <<<"$base"
read -r ns m c e <<<"$run"
[ "$e" = - ] || e=$((e - be))
awk -v n="$calls" -v ns="$ns" -v m=$((m - bm)) -v c=$((c - bc)) -v e="$e" \
	'BEGIN { printf "%d %.2f %.2f %s\n", ns, m / n, c / n,
		 e == "-" ? "-" : sprintf("%.2f", e / n) }'
