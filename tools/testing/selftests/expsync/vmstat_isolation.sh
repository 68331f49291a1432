#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vmstat_drain isolation, perf-based.  make check runs it in two boots:
# CPU 1 isolated (nohz_full=1 isolcpus=1), and CPU 1 in the drain set but
# not isolated.  For each policy, with CPU 1 as the set, a
# counter-changing load runs on CPU 1 for $SECONDS s while
#  - perf stat -C 1 counts vmstat_update work items executed on CPU 1
#    (workqueue:workqueue_execute_start, filtered on the function), and
#  - vmstat_isolation samples CPU 1's differentials from CPU 0 whenever
#    the load is in user mode.
# user-return: every sample 0, and the folds were done on the way back
# to user mode (vmstat_fold_user_return grew); on an isolated CPU no
# vmstat work item, on one that is not isolated some (6.12's shepherd
# still visits it, for its pageset duties).
# periodic (6.12): on an isolated CPU, stale differentials or work items;
# on a CPU that is not isolated, vmstat_update work items (6.12's
# shepherd visits it).  Otherwise the test could not tell the policies
# apart.
# Then CPU 1 joins and leaves the set while it runs user code: once
# while it only spins (no work on CPU 1; a drain gives up within its
# bound or finds it folded; after one syscall it is exact), and every
# ~200 ms under the load (no stale sample once it has returned to user
# mode in the set; no fold work item on CPU 1).  Last, 20 drains while a
# SCHED_FIFO load runs on CPU 1 with RT throttling off: each succeeds
# within the bound, and no fold work runs on CPU 1.
here=$(cd "$(dirname "$0")" && pwd)
sysctl=/proc/sys/kernel/expsync
seconds=${SECONDS_PER_POLICY:-10}
cpu=${VMSTAT_CPU:-1}

echo "TAP version 13"
# make check requires this test: a missing precondition is a failure.
fatal() { echo "1..1"; echo "not ok 1 $*"; exit 1; }
[ "$(id -u)" = 0 ] || fatal "must run as root"
[ -w $sysctl/vmstat_drain ] || fatal "no $sysctl/vmstat_drain"
command -v perf >/dev/null || fatal "no perf in the guest"
[ -d /sys/devices/system/cpu/cpu$cpu ] || fatal "no CPU $cpu"
stat_of() { awk -v k="$1" '$1 == k { print $2 }' /sys/kernel/debug/expsync/stats; }
# Isolated for the shepherd: nohz_full or isolcpus (6.12's cpu_is_isolated()).
isolated=0
for l in /sys/devices/system/cpu/nohz_full /sys/devices/system/cpu/isolated; do
	python3 -c 'import sys
def cpus(t):
    s = set()
    for r in filter(None, t.strip().split(",")):
        a, _, b = r.partition("-")
        s.update(range(int(a), int(b or a) + 1))
    return s
sys.exit(0 if int(sys.argv[2]) in cpus(open(sys.argv[1]).read()) else 1)' "$l" "$cpu" 2>/dev/null &&
		isolated=1
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
# perf stat -C $cpu counts of vmstat work and of expsync's fold work.
count_work() {
	local out
	out=$(mktemp)
	perf stat -x, -o "$out" -C $cpu \
		-e workqueue:workqueue_execute_start --filter 'function.function == vmstat_update' \
		-e workqueue:workqueue_execute_start \
		--filter 'function.function == expsync_vmstat_fold_work' -- "$@" > "$out.load"
	work=$(awk -F, '$3 == "workqueue:workqueue_execute_start" { print $1 }' "$out" | head -1)
	folds=$(awk -F, '$3 == "workqueue:workqueue_execute_start" { print $1 }' "$out" | sed -n 2p)
	load=$(cat "$out.load")
	rm -f "$out" "$out.load"
}
echo "1..5"
fail=0 n=0
for policy in user-return periodic; do
	n=$((n + 1))
	echo "$policy" > $sysctl/vmstat_drain
	echo "$cpu" > $sysctl/vmstat_drain_cpus
	ur0=$(stat_of vmstat_fold_user_return)
	out=$(mktemp)
	perf stat -x, -o "$out" -C $cpu -e workqueue:workqueue_execute_start \
		--filter 'function.function == vmstat_update' -- \
		"$here/vmstat_isolation" $cpu "$seconds" 60 > "$out.load" 2>/dev/null
	work=$(awk -F, '$3 == "workqueue:workqueue_execute_start" { print $1 }' "$out")
	read -r _ samples _ nonzero _ max _ rounds < "$out.load"
	rm -f "$out" "$out.load"
	ur=$(( $(stat_of vmstat_fold_user_return) - ur0 ))
	echo "# vmstat_drain=$policy, ${seconds}s on CPU $cpu: $rounds rounds," \
		"vmstat_update on CPU $cpu: ${work:-?}, samples $samples," \
		"with stale diffs ${nonzero:-?} (max ${max:-?}), folds on return to user $ur"
	if [ "$policy" = user-return ] && [ $isolated = 1 ]; then
		ok=$([ "${work:-1}" = 0 ] && [ "${samples:-0}" -ge 50 ] &&
			[ "${nonzero:-1}" = 0 ] && [ "$ur" -gt 0 ] && echo 1)
		what="no vmstat work on CPU $cpu, counters exact in user mode,"
		what+=" folded on return to user"
	elif [ "$policy" = user-return ]; then
		ok=$([ "${work:-0}" -gt 0 ] && [ "${samples:-0}" -ge 50 ] &&
			[ "${nonzero:-1}" = 0 ] && [ "$ur" -gt 0 ] && echo 1)
		what="6.12's vmstat work kept on CPU $cpu (not isolated), counters exact"
		what+=" in user mode, folded on return to user"
	elif [ $isolated = 1 ]; then
		ok=$([ "${samples:-0}" -ge 50 ] &&
			{ [ "${nonzero:-0}" -gt 0 ] || [ "${work:-0}" -gt 0 ]; } && echo 1)
		what="6.12 behaviour visible (stale diffs or vmstat work)"
	else
		ok=$([ "${samples:-0}" -ge 50 ] && [ "${work:-0}" -gt 0 ] && echo 1)
		what="6.12 behaviour visible (the shepherd queues vmstat work on CPU $cpu)"
	fi
	if [ "$ok" = 1 ]; then
		echo "ok $n vmstat_drain=$policy: $what"
	else
		echo "not ok $n vmstat_drain=$policy: $what"
		fail=1
	fi
done

# 3: join and leave while CPU 1 only spins in user mode.  6.12 would
# leave its differentials: make sure the shepherd does not come either
# (its last 1 s round passes during the sleep).  The drain finds CPU 1
# folded (an interrupt took it through the kernel: always so when it
# has a tick) or gives up with EAGAIN (11) within its 1 s bound, the
# differentials still there: it must not interrupt CPU 1 to fold them.
echo 60 > /proc/sys/vm/stat_interval
sleep 2.5
count_work "$here/vmstat_isolation" join $cpu
echo "$orig_interval" > /proc/sys/vm/stat_interval
read -r _ before _ joined _ drc _ dms _ drained _ poked _ drc2 _ left _ in_user _ tries <<< "$load"
echo "# join/leave while CPU $cpu spins in user mode: diffs before ${before:-?}," \
	"after join ${joined:-?}; drain ${drc:-?} in ${dms:-?} ms leaves ${drained:-?};" \
	"after one syscall ${poked:-?}, drain ${drc2:-?}; after leave ${left:-?};" \
	"fold work items on CPU $cpu ${folds:-?}, vmstat_update ${work:-?}; children ${tries:-?}"
first=0
{ [ "$drc" = 0 ] && [ "$drained" = 0 ]; } ||
	{ [ "$drc" = 11 ] && [ "${drained:-0}" -gt 0 ] && [ "${dms:-9999}" -le 2500 ]; } && first=1
if [ "${before:-0}" -gt 0 ] && [ $first = 1 ] && [ "$poked" = 0 ] && [ "$drc2" = 0 ] &&
   [ "$left" = 0 ] && [ "$in_user" = 1 ] && [ "$folds" = 0 ] && [ "$work" = 0 ]; then
	echo "ok 3 join, drain, leave in user mode: no work on the CPU, exact after a syscall"
else
	echo "not ok 3 join, drain, leave in user mode: no work on the CPU, exact after a syscall"
	fail=1
fi

# 4: join and leave every ~200 ms under the load.
count_work "$here/vmstat_isolation" flip $cpu "$seconds" 60
read -r _ flips _ samples _ nonzero _ max <<< "$load"
echo "# join/leave every ~200 ms for ${seconds}s under load: $flips flips," \
	"samples in the set ${samples:-?}, with stale diffs ${nonzero:-?} (max ${max:-?})," \
	"fold work items on CPU $cpu ${folds:-?}"
if [ "${flips:-0}" -ge 5 ] && [ "${samples:-0}" -ge 50 ] && [ "$nonzero" = 0 ] &&
   [ "$folds" = 0 ]; then
	echo "ok 4 join and leave under load: counters exact in the set, no fold work"
else
	echo "not ok 4 join and leave under load: counters exact in the set, no fold work"
	fail=1
fi

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
	echo "ok 5 drains beside a SCHED_FIFO load: bounded, exact, no work on CPU $cpu"
else
	echo "not ok 5 drains beside a SCHED_FIFO load: bounded, exact, no work on CPU $cpu"
	fail=1
fi
exit $fail
