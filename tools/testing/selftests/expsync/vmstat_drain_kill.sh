#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A fatal signal ends the waits of vmstat_drain_now and vm.stat_refresh.
# make check runs it with CPU 1 nohz_full, where a drain can wait.
#
# CPU 1 spins in user mode (SCHED_FIFO, no system call, RT throttling
# off) and then joins the user-return set: it has not folded since it
# joined, so a drain waits for its next return to user mode, up to the
# 1 s bound, holding the knobs' lock.
# 1. A drain writer is killed (SIGKILL) in its wait.  The
#    expsync:expsync_vmstat_drain_now event of that drain must show CPU
#    1 missed (the wait did not end by a fold) after less than 900 ms:
#    an unkillable wait ends only by a fold or by its 1 s bound.
# 2. While a drain waits, a vm.stat_refresh writer waits for the knobs'
#    lock; killed there, it must exit (sched:sched_process_exit)
#    before the drain ends (its expsync_vmstat_drain_now event).
# CPU 1's residual tick (1 Hz) may take it through the kernel early and
# end a drain before the kill: such a try proves nothing and is made
# again, up to $TRIES times (default 5); no conclusive try fails.
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
cpu_in_list "$(cat /sys/devices/system/cpu/nohz_full 2>/dev/null)" $cpu ||
	skip "CPU $cpu is not nohz_full"
[ -x "$here/isolation_ledger" ] || skip "no isolation_ledger"
ktap_set_plan 2

orig_policy=$(cat $sysctl/vmstat_drain) orig_cpus=$(cat $sysctl/vmstat_drain_cpus)
orig_rt=$(cat /proc/sys/kernel/sched_rt_runtime_us)
spid=
restore() {
	[ -z "$spid" ] || { kill $spid; wait $spid; } 2>/dev/null
	echo 0 > $tr/events/expsync/expsync_vmstat_drain_now/enable
	echo 0 > $tr/events/sched/sched_process_exit/enable
	echo local > $tr/trace_clock
	echo "$orig_rt" > /proc/sys/kernel/sched_rt_runtime_us
	echo "$orig_cpus" > $sysctl/vmstat_drain_cpus
	echo "$orig_policy" > $sysctl/vmstat_drain
}
trap restore EXIT

# spin_and_join: CPU $cpu spins in user mode, outside the set, then joins.
spin_and_join() {
	echo periodic > $sysctl/vmstat_drain
	echo $cpu > $sysctl/vmstat_drain_cpus
	echo -1 > /proc/sys/kernel/sched_rt_runtime_us
	"$here/isolation_ledger" spin-only $cpu & spid=$!
	sleep 0.5
	echo user-return > $sysctl/vmstat_drain
}

unspin() {
	kill $spid; wait $spid 2>/dev/null; spid=
	echo periodic > $sysctl/vmstat_drain
}

# await_wchan PID: wait (up to 3 s) until PID sleeps in expsync's or
# vmstat's code, its wchan (the scheduler's own functions skipped);
# prints the wchan seen last.
await_wchan() {
	local i wc=

	for i in $(seq 300); do
		wc=$(cat "/proc/$1/wchan" 2>/dev/null)
		[[ $wc =~ expsync|vmstat|refresh ]] && break
		sleep 0.01
	done
	echo "${wc:-gone}"
}

# Traced on the global clock, one buffer for every CPU.
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

# 1: the drain writer itself killed.
result="no try was conclusive (every drain ended by a fold before the kill)"
for i in $(seq "$tries"); do
	spin_and_join
	echo > $tr/trace
	bash -c "echo 1 > $sysctl/vmstat_drain_now" 2>/dev/null & w=$!
	wc=$(await_wchan $w)
	kill -KILL $w; wait $w 2>/dev/null
	rc=$?
	read -r missed ns _ < <(drain_event)
	unspin
	echo "# try $i: drain writer in $wc, killed: exit $rc, drain missed ${missed:-?}" \
		"CPUs after ${ns:-?} ns"
	[ "$rc" = 137 ] && [ "${missed:-0}" -ge 1 ] || continue
	result=
	[ "$ns" -lt 900000000 ] ||
		result="the killed drain waited $ns ns, to its bound"
	break
done
verdict "vmstat_drain_now: a fatal signal ends the drain's wait" "$result"

# 2: a vm.stat_refresh waiting behind that drain killed.
result="no try was conclusive (every drain ended before the kill)"
for i in $(seq "$tries"); do
	spin_and_join
	echo > $tr/trace
	bash -c "echo 1 > $sysctl/vmstat_drain_now" 2>/dev/null & w=$!
	wc=$(await_wchan $w)
	bash -c "echo 1 > /proc/sys/vm/stat_refresh" 2>/dev/null & r=$!
	rwc=$(await_wchan $r)
	echo expsync_kill > $tr/trace_marker
	kill -KILL $r; wait $r 2>/dev/null
	rrc=$?
	wait $w
	read -r _ _ dts < <(drain_event)
	unspin
	read -r kts xts < <(awk -v pid=$r '
		/tracing_mark_write: expsync_kill/ && match($0, /[0-9]+\.[0-9]+: /) {
			k = substr($0, RSTART, RLENGTH - 2)
		}
		/ sched_process_exit: / && $0 ~ ("pid=" pid " ") && match($0, /[0-9]+\.[0-9]+: /) {
			x = substr($0, RSTART, RLENGTH - 2)
		}
		END { print (k == "" ? "-" : k), (x == "" ? "-" : x) }' $tr/trace)
	echo "# try $i: drain writer in $wc, vm.stat_refresh in $rwc, killed: exit $rrc;" \
		"kill at ${kts:-?}, its exit at ${xts:-?}, drain over at ${dts:-?}"
	[ "$rrc" = 137 ] && [ -n "$dts" ] && [ "$kts" != - ] && [ "$xts" != - ] &&
		awk -v k="$kts" -v d="$dts" 'BEGIN { exit !(k + 0 < d + 0) }' || continue
	result=
	awk -v x="$xts" -v d="$dts" 'BEGIN { exit !(x + 0 < d + 0) }' ||
		result="the killed vm.stat_refresh exited only after the drain ended"
	break
done
verdict "vm.stat_refresh: a fatal signal ends its wait for the knobs' lock" "$result"
ktap_finished
