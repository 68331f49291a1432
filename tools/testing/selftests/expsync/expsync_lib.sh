# SPDX-License-Identifier: GPL-2.0
#
# Helpers of the expsync shell selftests; source it.  Their TAP comes
# from the kselftest's own ktap_helpers.sh where it can.
. "$(dirname "${BASH_SOURCE[0]}")/../kselftest/ktap_helpers.sh"

# skip REASON: a missing precondition (not root, no nohz_full CPU, no
# perf, a kernel option off): the whole test is skipped, exit 4.
skip() {
	ktap_skip_all "$*"
	exit "$KSFT_SKIP"
}

# verdict DESC PROBLEMS: "ok N DESC" when PROBLEMS is empty, else
# "not ok N DESC: PROBLEMS"; ktap_finished then exits 0 only when every
# test of the plan (ktap_set_plan) passed.
verdict() {
	if [ -z "$2" ]; then
		ktap_test_pass "$1"
	else
		ktap_test_fail "$1: $2"
	fi
}

# trace_run LOG EVENT[:FILTER]... -- CMD...: run CMD (under timeout 600,
# its output dropped) with the ftrace EVENTs (as under events/, e.g.
# csd/csd_queue_cpu) enabled, each with its FILTER, on the "global" clock
# (monotonic across CPUs), and leave their trace in LOG.  Returns CMD's
# status: a caller left asleep fails rather than hangs the test.
trace_run() {
	local log=$1 tr=/sys/kernel/tracing e rc
	local -a evs=()

	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		evs+=("$1")
		shift
	done
	shift
	echo 0 > $tr/tracing_on
	echo global > $tr/trace_clock
	echo > $tr/trace
	for e in "${evs[@]}"; do
		[ "${e#*:}" = "$e" ] || echo "${e#*:}" > "$tr/events/${e%%:*}/filter"
		echo 1 > "$tr/events/${e%%:*}/enable"
	done
	echo 1 > $tr/tracing_on
	timeout 600 "$@" > /dev/null
	rc=$?
	echo 0 > $tr/tracing_on
	for e in "${evs[@]}"; do
		echo 0 > "$tr/events/${e%%:*}/enable"
		echo 0 > "$tr/events/${e%%:*}/filter"
	done
	# Before the clock goes back: a change of clock empties the buffer.
	cat $tr/trace > "$log"
	echo > $tr/trace
	echo local > $tr/trace_clock
	return $rc
}

# thresholds_of CPU: "zone=threshold ..." of CPU in every zone of
# /proc/zoneinfo (its "vm stats threshold").
thresholds_of() {
	awk -v c="$1" '/^Node/ { z = $4 } $1 == "cpu:" { cpu = $2 }
		/vm stats threshold:/ && cpu == c { printf "%s%s=%s", n++ ? " " : "", z, $4 }' \
		/proc/zoneinfo
}

# cpu_in_list LIST CPU: true when CPU is in the cpulist LIST ("0,2-3").
cpu_in_list() {
	local r a b
	IFS=, read -ra ranges <<<"$1"
	for r in "${ranges[@]}"; do
		# No list at all reads "(null)" in /sys/devices/system/cpu/nohz_full.
		[[ $r =~ ^[0-9]+(-[0-9]+)?$ ]] || continue
		a=${r%-*} b=${r#*-}
		[ "$2" -ge "$a" ] && [ "$2" -le "$b" ] && return 0
	done
	return 1
}
