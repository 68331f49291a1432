#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vmstat_drain isolation, perf-based, in a boot with CPU 1 isolated
# (nohz_full=1 isolcpus=1) or with CPU 1 in the drain set but not
# isolated.  For each policy, with CPU 1 as the set, a
# counter-changing load runs on CPU 1 for $SECONDS s while
#  - perf stat -C 1 counts vmstat_update work items executed on CPU 1
#    (workqueue:workqueue_execute_start, filtered on the function), and
#  - vmstat_isolation samples CPU 1's differentials from CPU 0 whenever
#    the load is in user mode.
# user-return: every sample 0, and the folds were done on the way back
# to user mode (vmstat_fold_user_return grew); on an isolated CPU no
# vmstat work item; one that is not isolated the shepherd still visits,
# for its pageset duties (vmstat_shepherd_skipped does not grow), and
# finds folded most of the time, so its vmstat_update items are few.
# direct: CPU 1's stat_threshold is 0 in /proc/zoneinfo, every sample
# is 0 at any time (in the load's syscalls too), at most the join's one
# fold on return to user mode; on an isolated CPU no vmstat work item;
# one that is not isolated the shepherd still visits for its pageset
# duties (vmstat_update runs there, vmstat_shepherd_skipped does not
# grow).
# periodic (6.12): on an isolated CPU, stale differentials or work items;
# on a CPU that is not isolated, vmstat_update work items (6.12's
# shepherd visits it).  Otherwise the test could not tell the policies
# apart.  Last of these (test 12, not under VMSTAT_POLICIES_ONLY): CPU 1
# joins the set under user-return and leaves it: 6.12's behaviour, as
# under periodic, and no fold on return to user mode anywhere.
# Then CPU 1 joins and leaves the set while it runs user code: once
# while it only spins (no work on CPU 1; a drain gives up within its
# bound or finds it folded, and a read of a knob meanwhile does not wait
# for it; after one syscall it is exact and a drain skips it, done
# without waiting), and every
# ~200 ms under the load (no stale sample once it has returned to user
# mode in the set; no fold work item on CPU 1).  Last, 20 drains while a
# SCHED_FIFO load runs on CPU 1 with RT throttling off: each succeeds
# within the bound, and no fold work runs on CPU 1.  The join/leave tests
# then run again, joining by direct.  Last, the race of mod_zone_state():
# a task moved between CPU 0 and CPU 1 every ~2 ms while it changes
# counters (under direct): a drain afterwards leaves the counters exact;
# and vm.stat_refresh beside the SCHED_FIFO load, under direct, runs no
# work on CPU 1 and returns within the bound; under periodic it runs its
# work on CPU 1 once a write, as 6.12 does.
here=$(cd "$(dirname "$0")" && pwd)
sysctl=/proc/sys/kernel/expsync
seconds=${SECONDS_PER_POLICY:-10}
cpu=${VMSTAT_CPU:-1}

. "$(dirname "$0")/expsync_lib.sh"
echo "TAP version 13"
fatal() { echo "1..1"; echo "not ok 1 $*"; exit 1; }
# A missing precondition is a skip (exit 4).
[ "$(id -u)" = 0 ] || skip "must run as root"
[ -w $sysctl/vmstat_drain ] || skip "no $sysctl/vmstat_drain"
command -v perf >/dev/null || skip "no perf in the guest"
[ -d /sys/devices/system/cpu/cpu$cpu ] || skip "no CPU $cpu"
stat_of() { awk -v k="$1" '$1 == k { print $2 }' /sys/kernel/debug/expsync/stats; }
# Isolated for the shepherd: nohz_full or isolcpus (6.12's cpu_is_isolated()).
isolated=0
for l in /sys/devices/system/cpu/nohz_full /sys/devices/system/cpu/isolated; do
	cpu_in_list "$(cat "$l" 2>/dev/null)" "$cpu" && isolated=1
done
if [ $isolated = 1 ]; then
	echo "# CPU $cpu is isolated (6.12's shepherd skips it)"
else
	echo "# CPU $cpu is not isolated (6.12's shepherd visits it)"
fi

orig_policy=$(cat $sysctl/vmstat_drain) orig_cpus=$(cat $sysctl/vmstat_drain_cpus)
orig_interval=$(cat /proc/sys/vm/stat_interval)
orig_rt=$(cat /proc/sys/kernel/sched_rt_runtime_us)
restore() {
	echo "$orig_rt" > /proc/sys/kernel/sched_rt_runtime_us
	echo "$orig_interval" > /proc/sys/vm/stat_interval
	echo "$orig_cpus" > $sysctl/vmstat_drain_cpus 2>/dev/null
	echo "$orig_policy" > $sysctl/vmstat_drain
}
trap restore EXIT
# perf stat -C $cpu counts of vmstat work, of expsync's fold work and of
# vm.stat_refresh's work.
count_work() {
	local out
	out=$(mktemp)
	perf stat -x, -o "$out" -C $cpu \
		-e workqueue:workqueue_execute_start --filter 'function.function == vmstat_update' \
		-e workqueue:workqueue_execute_start \
		--filter 'function.function == expsync_vmstat_fold_work' \
		-e workqueue:workqueue_execute_start \
		--filter 'function.function == refresh_vm_stats' -- "$@" > "$out.load"
	local n
	n=$(awk -F, '$3 == "workqueue:workqueue_execute_start" { print $1 }' "$out")
	work=$(sed -n 1p <<< "$n") folds=$(sed -n 2p <<< "$n") refreshes=$(sed -n 3p <<< "$n")
	load=$(cat "$out.load")
	rm -f "$out" "$out.load"
}
left=left
[ -z "${VMSTAT_POLICIES_ONLY:-}" ] || left=
echo "1..$([ -n "$left" ] && echo 12 || echo 3)"
fail=0
for policy in user-return direct $left periodic; do
	label=$policy
	case $policy in user-return) n=1 ;; direct) n=2 ;; periodic) n=3 ;; left) n=12 ;; esac
	echo "${policy/left/user-return}" > $sysctl/vmstat_drain
	echo "$cpu" > $sysctl/vmstat_drain_cpus
	if [ "$policy" = left ]; then
		label="user-return, CPU $cpu left the set"
		echo > $sysctl/vmstat_drain_cpus
	fi
	ur0=$(stat_of vmstat_fold_user_return) sk0=$(stat_of vmstat_shepherd_skipped)
	out=$(mktemp)
	any=; [ "$policy" = direct ] && any=1
	thr=$(thresholds_of $cpu) thr0=$(thresholds_of $((cpu ? 0 : 1)))
	perf stat -x, -o "$out" -C $cpu -e workqueue:workqueue_execute_start \
		--filter 'function.function == vmstat_update' -- \
		env VMSTAT_SAMPLE_ANY=$any "$here/vmstat_isolation" $cpu "$seconds" 60 \
		> "$out.load" 2>/dev/null
	work=$(awk -F, '$3 == "workqueue:workqueue_execute_start" { print $1 }' "$out")
	read -r _ samples _ nonzero _ max _ rounds < "$out.load"
	rm -f "$out" "$out.load"
	ur=$(( $(stat_of vmstat_fold_user_return) - ur0 ))
	sk=$(( $(stat_of vmstat_shepherd_skipped) - sk0 ))
	echo "# vmstat_drain=$label, ${seconds}s on CPU $cpu: $rounds rounds," \
		"vmstat_update on CPU $cpu: ${work:-?}, samples $samples," \
		"with stale diffs ${nonzero:-?} (max ${max:-?}), folds on return to user $ur," \
		"shepherd skips $sk;" \
		"stat_threshold of CPU $cpu: ${thr:-?}, of the other CPU: ${thr0:-?}"
	if [ "$policy" = direct ]; then
		# Every zone's threshold is 0 on CPU 1, none on the other CPU.
		zero=$(tr ' ' '\n' <<< "$thr" | grep -cv '=0$')
		zero0=$(tr ' ' '\n' <<< "$thr0" | grep -c '=0$')
		if [ $isolated = 1 ]; then
			duties=$([ "${work:-1}" = 0 ] && echo 1)
			what_duties="no vmstat work on CPU $cpu"
		else
			duties=$([ "$sk" = 0 ] && [ "${work:-0}" -gt 0 ] && echo 1)
			what_duties="vmstat_update still runs on CPU $cpu (not isolated)"
			what_duties+=" for its pagesets"
		fi
		ok=$([ -n "$thr" ] && [ "$zero" = 0 ] && [ "$zero0" = 0 ] &&
			[ "$duties" = 1 ] && [ "${samples:-0}" -ge 50 ] &&
			[ "${nonzero:-1}" = 0 ] && [ "$ur" -le 2 ] && echo 1)
		what="stat_threshold 0 on CPU $cpu only, no differential at any time,"
		what+=" $what_duties, at most the join's fold on return to user"
	elif [ "$policy" = user-return ] && [ $isolated = 1 ]; then
		ok=$([ "${work:-1}" = 0 ] && [ "${samples:-0}" -ge 50 ] &&
			[ "${nonzero:-1}" = 0 ] && [ "$ur" -gt 0 ] && echo 1)
		what="no vmstat work on CPU $cpu, counters exact in user mode,"
		what+=" folded on return to user"
	elif [ "$policy" = user-return ]; then
		# The shepherd still visits CPU 1 (6.12's pageset duties), but
		# finds it folded most of the time: vmstat_update is rare there.
		ok=$([ "$sk" = 0 ] && [ "${samples:-0}" -ge 50 ] &&
			[ "${nonzero:-1}" = 0 ] && [ "$ur" -gt 0 ] && echo 1)
		what="the shepherd still visits CPU $cpu (not isolated), counters exact"
		what+=" in user mode, folded on return to user"
	elif [ $isolated = 1 ]; then
		ok=$([ "${samples:-0}" -ge 50 ] &&
			{ [ "${nonzero:-0}" -gt 0 ] || [ "${work:-0}" -gt 0 ]; } && echo 1)
		what="6.12 behaviour visible (stale diffs or vmstat work)"
	else
		ok=$([ "${samples:-0}" -ge 50 ] && [ "${work:-0}" -gt 0 ] && echo 1)
		what="6.12 behaviour visible (the shepherd queues vmstat work on CPU $cpu)"
	fi
	if [ "$policy" = left ]; then
		[ "$ur" = 0 ] || ok=
		what+=", no fold on return to user"
	fi
	if [ "$ok" = 1 ]; then
		echo "ok $n vmstat_drain=$label: $what"
	else
		echo "not ok $n vmstat_drain=$label: $what"
		fail=1
	fi
done

# An evaluation that wants the per-policy figures only.
if [ -n "${VMSTAT_POLICIES_ONLY:-}" ]; then
	echo "# tests 4-9 not run: VMSTAT_POLICIES_ONLY is set"
	exit $fail
fi

# join_test N POLICY: join (by POLICY) and leave while CPU 1 only spins
# in user mode.  6.12 would leave its differentials: make sure the
# shepherd does not come either (its last 1 s round passes during the
# sleep).  The drain finds CPU 1 folded (an interrupt took it through the
# kernel: always so when it has a tick) or gives up with EAGAIN (11)
# within its 1 s bound, the differentials still there: it must not
# interrupt CPU 1 to fold them.  Under direct the join asks CPU 1 for a
# fold at its next return to user mode, which the poke provides.
join_test() {
	echo 60 > /proc/sys/vm/stat_interval
	sleep 2.5
	count_work env VMSTAT_JOIN_POLICY="$2" "$here/vmstat_isolation" join $cpu
	echo "$orig_interval" > /proc/sys/vm/stat_interval
	read -r _ before _ joined _ drc _ dms _ drained _ poked _ drc2 _ left _ in_user _ tries \
		_ rid _ skipped2 <<< "$load"
	echo "# join by $2/leave while CPU $cpu spins in user mode: diffs before ${before:-?}," \
		"after join ${joined:-?}; drain ${drc:-?} in ${dms:-?} ms leaves ${drained:-?};" \
		"after one syscall ${poked:-?}, drain ${drc2:-?} skipping ${skipped2:-?} CPU;" \
		"after leave ${left:-?};" \
		"fold work items on CPU $cpu ${folds:-?}, vmstat_update ${work:-?};" \
		"children ${tries:-?}; a read of vmstat_drain 100 ms into the drain" \
		"returned $(case ${rid:-?} in 1) echo during it ;; 0) echo after it ;;
			-1) echo "- (drain already over)" ;; *) echo "? ($rid)" ;; esac)"
	what="no work on the CPU, exact after a syscall"
	first=0
	# A drain that gives up took its 1 s bound: a read of a knob
	# meanwhile must not have waited for it (the knobs' lock).
	{ [ "$drc" = 0 ] && [ "$drained" = 0 ] && [ "${rid:-x}" != 0 ]; } ||
		{ [ "$drc" = 11 ] && [ "${drained:-0}" -gt 0 ] && [ "${dms:-9999}" -le 2500 ] &&
		  [ "$rid" = 1 ]; } &&
		first=1
	# After the syscall the drain is done without waiting: it skips CPU.
	if [ "${before:-0}" -gt 0 ] && [ $first = 1 ] && [ "$poked" = 0 ] && [ "$drc2" = 0 ] &&
	   [ "${skipped2:-0}" = 1 ] &&
	   [ "$left" = 0 ] && [ "$in_user" = 1 ] && [ "$folds" = 0 ] && [ "$work" = 0 ]; then
		echo "ok $1 join by $2, drain, leave in user mode: $what"
	else
		echo "not ok $1 join by $2, drain, leave in user mode: $what"
		fail=1
	fi
}

# flip_test N POLICY: join (by POLICY) and leave every ~200 ms under the load.
flip_test() {
	count_work env VMSTAT_JOIN_POLICY="$2" "$here/vmstat_isolation" flip $cpu "$seconds" 60
	read -r _ flips _ samples _ nonzero _ max <<< "$load"
	echo "# join by $2/leave every ~200 ms for ${seconds}s under load: $flips flips," \
		"samples in the set ${samples:-?}, with stale diffs ${nonzero:-?}" \
		"(max ${max:-?}), fold work items on CPU $cpu ${folds:-?}"
	what="counters exact in the set, no fold work"
	if [ "${flips:-0}" -ge 5 ] && [ "${samples:-0}" -ge 50 ] && [ "$nonzero" = 0 ] &&
	   [ "$folds" = 0 ]; then
		echo "ok $1 join by $2 and leave under load: $what"
	else
		echo "not ok $1 join by $2 and leave under load: $what"
		fail=1
	fi
}

join_test 4 user-return
flip_test 5 user-return

# 5: drains while a SCHED_FIFO load, RT throttling off, runs on CPU 1:
# none waits without bound, none runs work on CPU 1, all succeed (the
# load returns to user mode every few ms, folding on the way).
echo user-return > $sysctl/vmstat_drain
echo "$cpu" > $sysctl/vmstat_drain_cpus
echo -1 > /proc/sys/kernel/sched_rt_runtime_us
count_work "$here/vmstat_isolation" drain $cpu 20 fifo
echo "$orig_rt" > /proc/sys/kernel/sched_rt_runtime_us
read -r _ drains _ dfailed _ dmax _ drounds <<< "$load"
echo "# 20 drains, SCHED_FIFO load on CPU $cpu: ${drains:-?} done, ${dfailed:-?} failed," \
	"slowest ${dmax:-?} ms, ${drounds:-?} load rounds; fold work items on CPU $cpu" \
	"${folds:-?}, vmstat_update ${work:-?}"
# vmstat_update: none on an isolated CPU; the shepherd's, on one that is not.
if [ "$drains" = 20 ] && [ "$dfailed" = 0 ] && [ "${dmax:-9999}" -le 2500 ] &&
   [ "${drounds:-0}" -gt 0 ] && [ "$folds" = 0 ] && { [ "$work" = 0 ] || [ $isolated = 0 ]; }; then
	echo "ok 6 drains beside a SCHED_FIFO load: bounded, exact, no work on CPU $cpu"
else
	echo "not ok 6 drains beside a SCHED_FIFO load: bounded, exact, no work on CPU $cpu"
	fail=1
fi

join_test 7 direct
flip_test 8 direct

# 9: the race of mod_zone_state() under direct: whatever a task moved
# mid-update leaves on CPU 1, a drain afterwards leaves the counters
# exact (the drain probe's check, right after the folds).
echo direct > $sysctl/vmstat_drain
echo "$cpu" > $sysctl/vmstat_drain_cpus
load=$("$here/vmstat_isolation" migrate $cpu "$seconds")
read -r _ moves _ mrounds _ residue _ mrc _ mdiffs _ mbad <<< "$load"
echo "# direct, a task moved between CPUs every ~2 ms for ${seconds}s: ${moves:-?} moves," \
	"${mrounds:-?} rounds; left on CPU $cpu ${residue:-?}; drain ${mrc:-?}, then CPUs" \
	"with diffs ${mdiffs:-?}, sum mismatches ${mbad:-?}"
if [ "${moves:-0}" -ge 100 ] && [ "${mrounds:-0}" -gt 0 ] && [ "$mrc" = 0 ] &&
   [ "$mdiffs" = 0 ] && [ "$mbad" = 0 ]; then
	echo "ok 9 direct, a task moved mid-update: counters exact after a drain"
else
	echo "not ok 9 direct, a task moved mid-update: counters exact after a drain"
	fail=1
fi

what="bounded, no refresh or fold work on CPU $cpu"
[ $isolated = 1 ] && what+=", no vmstat_update there"
# 10: vm.stat_refresh beside the SCHED_FIFO load, under direct: it spares
# CPU 1 (6.12 runs refresh_vm_stats there and waits for it), and each
# write succeeds within the bound.  The shepherd's vmstat_update is
# counted against CPU 1 only where it is isolated: elsewhere it comes
# for the pagesets, as test 2 requires.
echo -1 > /proc/sys/kernel/sched_rt_runtime_us
count_work env VMSTAT_DRAIN_FILE=/proc/sys/vm/stat_refresh \
	"$here/vmstat_isolation" drain $cpu 20 fifo
echo "$orig_rt" > /proc/sys/kernel/sched_rt_runtime_us
read -r _ drains _ dfailed _ dmax _ drounds <<< "$load"
echo "# 20 vm.stat_refresh, direct, SCHED_FIFO load on CPU $cpu: ${drains:-?} done," \
	"${dfailed:-?} failed, slowest ${dmax:-?} ms, ${drounds:-?} load rounds; on CPU $cpu" \
	"refresh_vm_stats ${refreshes:-?}, fold work ${folds:-?}, vmstat_update ${work:-?}"
if [ "$drains" = 20 ] && [ "$dfailed" = 0 ] && [ "${dmax:-9999}" -le 2500 ] &&
   [ "${drounds:-0}" -gt 0 ] && [ "$refreshes" = 0 ] && [ "$folds" = 0 ] &&
   { [ $isolated = 0 ] || [ "$work" = 0 ]; }; then
	echo "ok 10 vm.stat_refresh under direct beside a SCHED_FIFO load: $what"
else
	echo "not ok 10 vm.stat_refresh under direct beside a SCHED_FIFO load: $what"
	fail=1
fi

# 11: under periodic, vm.stat_refresh is 6.12's: refresh_vm_stats runs
# on CPU 1 too, once a write (a normal load there, which the work can
# preempt).
echo periodic > $sysctl/vmstat_drain
count_work env VMSTAT_DRAIN_FILE=/proc/sys/vm/stat_refresh \
	"$here/vmstat_isolation" drain $cpu 5
read -r _ drains _ dfailed _ <<< "$load"
echo "# 5 vm.stat_refresh, periodic, load on CPU $cpu: ${drains:-?} done, ${dfailed:-?}" \
	"failed; on CPU $cpu refresh_vm_stats ${refreshes:-?}"
if [ "$drains" = 5 ] && [ "$dfailed" = 0 ] && [ "${refreshes:-0}" -ge 5 ]; then
	echo "ok 11 vm.stat_refresh under periodic runs refresh_vm_stats on CPU $cpu, as 6.12"
else
	echo "not ok 11 vm.stat_refresh under periodic: want refresh_vm_stats on CPU $cpu" \
		"once per write"
	fail=1
fi
exit $fail
