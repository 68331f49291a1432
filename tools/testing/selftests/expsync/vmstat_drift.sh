#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Counters never drift.  Under each vmstat_drain policy, with CPU 1
# (VMSTAT_CPU) as the set, "vmstat_isolation drift" runs a net-zero
# load on that nohz_full CPU: a 64-page shared memfd mapped, touched
# and unmapped (nr_mapped, which rmap updates with the non-atomic
# __mod_*() and IRQs on) beside a thread sleeping 1 ms at a time, so
# that the CPU's tick stops and starts all the time, from irq_exit()
# too.  After a drain, nr_mapped must read exactly what it read before.
# periodic is the control: 6.12 never folds from irq_exit() there.
# A fold that lands inside an interrupted update loses or gains pages
# for good.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/expsync_lib.sh"
sysctl=/proc/sys/kernel/expsync
cpu=${VMSTAT_CPU:-1}
seconds=${DRIFT_SECONDS:-10}

ktap_print_header
# A missing precondition is a skip (exit 4).
[ "$(id -u)" = 0 ] || skip "must run as root"
[ -w $sysctl/vmstat_drain ] || skip "no $sysctl/vmstat_drain"
cpu_in_list "$(cat /sys/devices/system/cpu/nohz_full 2>/dev/null)" "$cpu" ||
	skip "CPU $cpu is not nohz_full: its tick does not stop from irq_exit()"
policies="periodic user-return direct"
ktap_set_plan 3

orig_policy=$(cat $sysctl/vmstat_drain) orig_cpus=$(cat $sysctl/vmstat_drain_cpus)
restore() {
	echo "$orig_cpus" > $sysctl/vmstat_drain_cpus
	echo "$orig_policy" > $sysctl/vmstat_drain
}
trap restore EXIT
echo "$cpu" > $sysctl/vmstat_drain_cpus || ktap_exit_fail_msg "cannot set vmstat_drain_cpus=$cpu"

for p in $policies; do
	echo "$p" > $sysctl/vmstat_drain || ktap_exit_fail_msg "cannot set vmstat_drain=$p"
	out=$("$here/vmstat_isolation" drift "$cpu" "$seconds")
	ktap_print_msg "vmstat_drain=$p: $out"
	read -r _ before _ after _ rounds _ _ _ rc <<<"$out"
	what="vmstat_drain=$p: nr_mapped exact after $rounds map/unmap rounds beside a 1 ms sleeper"
	if [ -n "$before" ] && [ "$before" = "$after" ] && [ "$rc" = 0 ] &&
	   [ "${rounds:-0}" -gt 0 ]; then
		ktap_test_pass "$what"
	else
		ktap_test_fail "$what (before ${before:-?}, after ${after:-?}, drain ${rc:-?})"
	fi
done
ktap_finished
