#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A fatal signal ends vmstat_drain_now's wait.
# Run it in a boot with CPU 1 isolated (nohz_full=1 isolcpus=1), where
# nothing else needs CPU 1.
#
# CPU 1, outside the user-return set, runs a SCHED_FIFO spinner with RT
# throttling off: the fold work a drain queues there runs only when
# 6.12's fair server lets CFS tasks run beside it, after about 950 ms of
# their starving (its 50 ms of each 1 s period, deferred), so the drain
# waits for it.  A drain writer is killed (SIGKILL) 300 ms after it
# starts.  The expsync:expsync_vmstat_drain_now event of that drain must
# show CPU 1 missed after less than 900 ms: an unkillable wait ends only
# when that work runs, CPU 1 folded, or at its 1 s bound.  A try whose
# drain ended before the kill (the spinner not yet running, say) proves
# nothing and is made again, up to $TRIES times (default 5); no
# conclusive try fails.
# Then the same drain is left to run while a vm.stat_refresh writer
# waits for the knobs' lock that it holds, and that writer is killed
# 300 ms into the drain: its sched_process_exit must come before the
# drain's event (traced under the lock), on the global clock.  A try
# whose drain ended less than 200 ms after the kill (its trace_marker)
# proves nothing (a writer takes about 20 ms to exit) and is made again,
# up to 2 * $TRIES times: the drain's wait is spread over 0 to 950 ms.
here=$(cd "$(dirname "$0")" && pwd)
sysctl=/proc/sys/kernel/expsync
tr=/sys/kernel/tracing
cpu=1
tries=${TRIES:-5}

. "$(dirname "$0")/expsync_lib.sh"
ktap_print_header
# A missing precondition is a skip (exit 4).
[ "$(id -u)" = 0 ] || skip "must run as root"
[ -w $sysctl/vmstat_drain_now ] || skip "no $sysctl/vmstat_drain_now"
[ -d $tr/events/expsync/expsync_vmstat_drain_now ] || skip "no expsync tracepoints"
# The spinner starves CPU $cpu's other tasks: only where it is isolated.
cpu_in_list "$(cat /sys/devices/system/cpu/nohz_full 2>/dev/null)" $cpu ||
	skip "CPU $cpu is not nohz_full"
[ -x "$here/isolation_ledger" ] || skip "no isolation_ledger"
ktap_set_plan 2

orig_policy=$(cat $sysctl/vmstat_drain) orig_cpus=$(cat $sysctl/vmstat_drain_cpus)
orig_rt=$(cat /proc/sys/kernel/sched_rt_runtime_us)
spid=
restore() {
	[ -z "$spid" ] || unspin
	echo 0 > $tr/events/expsync/expsync_vmstat_drain_now/enable
	echo 0 > $tr/events/sched/sched_process_exit/enable
	echo local > $tr/trace_clock
	echo "$orig_rt" > /proc/sys/kernel/sched_rt_runtime_us
	echo "$orig_cpus" > $sysctl/vmstat_drain_cpus
	echo "$orig_policy" > $sysctl/vmstat_drain
}
trap restore EXIT

# spin: policy user-return, CPU $cpu outside the set and taken by a
# SCHED_FIFO spinner, RT throttling off: a drain's fold work there waits
# for the fair server, and the drain for it.
spin() {
	echo > $sysctl/vmstat_drain_cpus
	echo user-return > $sysctl/vmstat_drain
	echo -1 > /proc/sys/kernel/sched_rt_runtime_us
	"$here/isolation_ledger" spin-only $cpu & spid=$!
	# Until it is SCHED_FIFO on CPU $cpu, and a little more.
	for _ in $(seq 50); do
		[ "$(ps -o cls=,psr= -p $spid | xargs)" = "FF $cpu" ] && break
		sleep 0.1
	done
	sleep 0.2
}

# unspin: the spinner ends, and the fold work it held off runs.
unspin() {
	kill $spid; wait $spid 2>/dev/null; spid=
}

# Traced on the global clock, one buffer for every CPU.  Events are
# enabled here, before any spinner: enabling one (or setting a filter)
# can wait for CPU 1.
echo global > $tr/trace_clock
echo 1 > $tr/events/expsync/expsync_vmstat_drain_now/enable
echo 1 > $tr/events/sched/sched_process_exit/enable

# drain_event: "missed ns TS" of the last drain traced.
drain_event() {
	awk '/ expsync_vmstat_drain_now: / && match($0, /missed=[0-9]+ ns=[0-9]+/) {
		split(substr($0, RSTART, RLENGTH), f, /[= ]/)
		match($0, /[0-9]+\.[0-9]+: /)
		last = f[2] " " f[4] " " substr($0, RSTART, RLENGTH - 2)
	} END { print last }' $tr/trace
}

result="no try was conclusive (every drain ended before the kill)"
for i in $(seq "$tries"); do
	spin
	echo > $tr/trace
	bash -c "echo 1 > $sysctl/vmstat_drain_now" 2>/dev/null & w=$!
	sleep 0.3
	kill -KILL $w; wait $w 2>/dev/null
	rc=$?
	read -r missed ns _ < <(drain_event)
	unspin
	echo "# try $i: drain writer killed: exit $rc, drain missed ${missed:-?} CPUs" \
		"after ${ns:-?} ns"
	[ "$rc" = 137 ] && [ "${missed:-0}" -ge 1 ] || continue
	result=
	[ "$ns" -lt 900000000 ] ||
		result="the killed drain waited $ns ns, to its bound"
	break
done
verdict "vmstat_drain_now: a fatal signal ends the drain's wait" "$result"

# ts_of PATTERN: the global-clock time stamp of the last event matching
# PATTERN in the trace, in ns.
ts_of() {
	awk -v pat="$1" '$0 ~ pat && match($0, /[0-9]+\.[0-9]+: /) {
		t = substr($0, RSTART, RLENGTH - 2)
	} END { if (t != "") { split(t, p, "."); printf "%d%09d\n", p[1], p[2] * 1000 } }' $tr/trace
}

result="no try was conclusive (every drain ended within 200 ms of the kill)"
for i in $(seq $((2 * tries))); do
	spin
	echo > $tr/trace
	bash -c "echo 1 > $sysctl/vmstat_drain_now" 2>/dev/null & d=$!
	sleep 0.1
	bash -c "echo 1 > /proc/sys/vm/stat_refresh" 2>/dev/null & w=$!
	sleep 0.2
	echo "kill $w" > $tr/trace_marker
	kill -KILL $w; wait $w 2>/dev/null
	rc=$?
	wait $d 2>/dev/null
	tkill=$(ts_of " kill $w\$") texit=$(ts_of " sched_process_exit: .*pid=$w ")
	tdrain=$(ts_of " expsync_vmstat_drain_now: ")
	unspin
	echo "# try $i: a vm.stat_refresh writer waiting for the lock the drain holds, killed:" \
		"exit $rc; on the global clock, the kill at ${tkill:-?} ns, its exit at" \
		"${texit:-?} ns, the drain's event at ${tdrain:-?} ns"
	[ "$rc" = 137 ] && [ -n "$tkill" ] && [ -n "$tdrain" ] &&
		[ $((tdrain - tkill)) -ge 200000000 ] || continue
	result=
	[ -n "$texit" ] && [ "$texit" -lt "$tdrain" ] ||
		result="the killed vm.stat_refresh writer exited after the drain released the lock"
	break
done
verdict "vm.stat_refresh: a fatal signal ends its wait for the knobs' lock" "$result"

ktap_finished
