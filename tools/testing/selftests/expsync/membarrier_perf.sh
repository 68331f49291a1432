#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# membarrier_perf.sh THREADS CALLS [private|global]
#
# Runs membarrier_bench under perf stat, counting the ipi:* and expsync:*
# tracepoints, and prints one line:
#   ns_per_call ipi_mask_per_call ipi_cpu_per_call expsync_per_call
# IPIs are counted for the benchmark's own threads, minus a baseline run
# with 0 calls (thread start-up and exit send a few IPIs of their own).
# On a kernel without expsync (CONFIG_EXPSYNC=n: 6.12) the last column
# is "-": there is no expsync tracepoint to count.
here=$(cd "$(dirname "$0")" && pwd)
threads=$1 calls=$2 cmd=${3:-private}
events=ipi:ipi_send_cpumask,ipi:ipi_send_cpu
[ -d /proc/sys/kernel/expsync ] && events+=,expsync:expsync_membarrier_ipi

count() {	# count CALLS -> "ns mask cpu expsync"
	local out ns
	out=$(mktemp)
	# perf 6.1's libtraceevent cannot parse ipi_send_cpumask's format
	# and says so on stderr; the counts in $out are not affected.
	ns=$(perf stat -x, -o "$out" -e "$events" -- \
		"$here/membarrier_bench" "$threads" "$1" "$cmd" \
		2> >(grep -v -e '^libtraceevent' -e '__get_cpumask' >&2) |
		awk '{print $2}')
	[ -n "$ns" ] || { rm -f "$out"; return 1; }
	echo "$ns $(awk -F, '
		$3 == "ipi:ipi_send_cpumask" { m = $1 }
		$3 == "ipi:ipi_send_cpu" { c = $1 }
		$3 == "expsync:expsync_membarrier_ipi" { e = $1 }
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
