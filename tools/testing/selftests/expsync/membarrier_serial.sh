#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# At most one expedited membarrier IPI round is in flight in the system,
# under every membarrier_ipi strategy and membarrier_coalesce value:
# rounds run one at a time under membarrier_ipi_mutex, which bounds what
# any number of callers can make the IPI'd CPUs do.  Evidence from the
# kernel's csd tracepoints, not from expsync's.
#
# For each strategy (many, single), coalescing (off, on) and command
# (global, private): membarrier_bench 4 CALLS CMD 3, three callers on
# CPUs 0-2 and a spinner on CPU 3, traced with ftrace's "global" clock
# (monotonic across CPUs): csd:csd_queue_cpu of ipi_mb (a caller queues
# a request to a target; the sending CPU is the caller's) and
# csd:csd_function_exit of ipi_mb (the target ran it; the caller's wait
# ends after it).  A request queued while a request of another sending
# CPU is still outstanding means two rounds in flight: there must be
# none.  Every round reaches the spinner, and a round serves each
# caller at most once, so a run has at least CALLS requests (3 CALLS
# calls); fewer, or lost events, prove nothing and fail.
here=$(cd "$(dirname "$0")" && pwd)
ks=/proc/sys/kernel/expsync
calls=${CALLS:-200}

. "$(dirname "$0")/expsync_lib.sh"
ktap_print_header
[ "$(id -u)" = 0 ] || skip "must run as root"
[ -w $ks/membarrier_ipi ] && [ -w $ks/membarrier_coalesce ] || skip "no $ks/membarrier_*"
[ "$(nproc)" -ge 4 ] || skip "needs 4 CPUs, has $(nproc)"
[ -d /sys/kernel/tracing/events/csd/csd_queue_cpu ] || skip "no csd tracepoints"
[[ $calls =~ ^[1-9][0-9]*$ ]] || { echo "CALLS must be a positive integer" >&2; exit 1; }
ktap_set_plan 8
orig_ipi=$(cat $ks/membarrier_ipi)
orig_coalesce=$(cat $ks/membarrier_coalesce)

# rounds CMD: trace one run; print "requests overlaps" or nothing.
rounds() {
	local log

	log=$(mktemp)
	trace_run "$log" "csd/csd_queue_cpu:func.function == ipi_mb" \
		"csd/csd_function_exit:func.function == ipi_mb" -- \
		"$here/membarrier_bench" 4 "$calls" "$1" 3 || { rm -f "$log"; return 1; }
	# Lines: "comm-PID [CPU] flags TS: event: ... csd=PTR".  A queued
	# request is outstanding, owned by the queueing CPU, until its
	# csd's exit; the same sender's requests of one round overlap by
	# design (IPI-to-many queues them all, then waits).
	awk '/LOST/ { lost = 1 }
		/^#/ || !match($0, /\[[0-9]+\]/) { next }
		{ cpu = substr($0, RSTART + 1, RLENGTH - 2) + 0 }
		!match($0, /csd=[0-9a-fx]+/) { next }
		{ csd = substr($0, RSTART + 4, RLENGTH - 4) }
		/ csd_queue_cpu: / {
			q++
			for (s in out)
				if (s != cpu && out[s] > 0) { bad++; break }
			out[cpu]++; owner[csd] = cpu
		}
		/ csd_function_exit: / && (csd in owner) { out[owner[csd]]--; delete owner[csd] }
		END { if (!lost) print q + 0, bad + 0 }' "$log"
	rm -f "$log"
}

for run in {many,single}:{off,on}:{global,private}; do
	IFS=: read -r ipi co cmd <<<"$run"
	desc="membarrier_ipi=$ipi membarrier_coalesce=$co, 3 callers of $cmd"
	if ! echo $ipi > $ks/membarrier_ipi || ! echo $co > $ks/membarrier_coalesce; then
		verdict "$desc" "cannot set the knobs"
		continue
	fi
	read -r q bad < <(rounds $cmd)
	ktap_print_msg "$desc: $q requests to targets queued, $bad while another" \
		"caller's were outstanding"
	if [ -z "$q" ]; then
		verdict "$desc" "the run or its trace failed (lost events?)"
	elif [ "$q" -lt "$calls" ]; then
		verdict "$desc" "$q requests for $((3 * calls)) calls, want $calls at least"
	elif [ "$bad" != 0 ]; then
		verdict "$desc" "$bad requests queued while another round was in flight"
	else
		verdict "$desc" ""
	fi
done
echo "$orig_ipi" > $ks/membarrier_ipi
echo "$orig_coalesce" > $ks/membarrier_coalesce
ktap_finished
