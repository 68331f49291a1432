#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The isolation ledger: every interruption of an isolated CPU, per
# cause, under a load that exercises all three policies.  Boot with at
# least 3 CPUs, the last one (LEDGER_CPU) nohz_full and isolated.
#
# For each window of LEDGER_SECONDS (default 15) s:
#  - a SCHED_FIFO task on the isolated CPU, RT throttling off, maps,
#    touches and unmaps 4 MB every 250 ms and spins in user mode, from
#    before the counting starts until after it ends;
#  - on CPUs 0 and 1, a process maps, touches, MADV_COLLAPSEs and unmaps
#    memory and calls membarrier, and leaves regions for khugepaged;
#  - every 2 s the counters are made exact: by vm.stat_refresh on
#    CONFIG_EXPSYNC=n (6.12's way), and on expsync alternately by
#    vm.stat_refresh and kernel.expsync.vmstat_drain_now;
#  - on expsync, every 3 s the isolated CPU leaves vmstat_drain_cpus and
#    joins it again;
# and perf stat -C counts, on the isolated CPU only, the kernel's own
# tracepoints: irq_vectors (local timer, call-function, call-function-
# single, reschedule, irq_work), workqueue_execute_start and timer
# expiries, while perf record keeps, for the "# who"
# line, the function of each call-function IPI (csd:csd_function_entry),
# work item and hrtimer run, and why the tick kept running (tick_stop
# failures, by dependency).
# Nothing forks during a window (bash's EPOCHREALTIME times the writes):
# a fork and exit frees a vmap'd stack, and vmalloc's lazy purge flushes
# the kernel TLB on every CPU.
#
# On CONFIG_EXPSYNC=n the window runs 3 times (its noise); on expsync
# once for each table_free mode (under vmstat_drain=user-return), and
# once under vmstat_drain=direct and once under periodic.  Each window
# prints a "# ledger" line (the counts) and a "# who" line, for a
# comparison of the two boots: no count of expsync may exceed 6.12's
# for the same cause.  Here each
# window must have counted, its loads must have run, and every expsync
# knob write must have returned within 2.5 s.
here=$(cd "$(dirname "$0")" && pwd)
sysctl=/proc/sys/kernel/expsync
window=${LEDGER_SECONDS:-15}
ncpus=$(nproc --all)
cpu=${LEDGER_CPU:-$((ncpus - 1))}
khp=/sys/kernel/mm/transparent_hugepage/khugepaged

. "$(dirname "$0")/expsync_lib.sh"
echo "TAP version 13"
fatal() { echo "1..1"; echo "not ok 1 $*"; exit 1; }
# A missing precondition is a skip (exit 4).
[ "$(id -u)" = 0 ] || skip "must run as root"
command -v perf >/dev/null || skip "no perf in the guest"
[ "$ncpus" -ge 3 ] || skip "needs 3 CPUs, has $ncpus"
cpu_in_list "$(cat /sys/devices/system/cpu/nohz_full)" "$cpu" || skip "CPU $cpu is not nohz_full"
cpu_in_list "$(cat /sys/devices/system/cpu/isolated)" "$cpu" || skip "CPU $cpu is not isolated"
[ -w $khp/scan_sleep_millisecs ] || skip "no THP (CONFIG_TRANSPARENT_HUGEPAGE)"

# LEDGER_CONFIGS: the expsync windows as "table_free:vmstat_drain"
# words; LEDGER_REPEAT: how many windows of each (on 6.12: 3 x that).
repeat=${LEDGER_REPEAT:-1}
[[ $repeat =~ ^[1-9][0-9]*$ ]] || fatal "LEDGER_REPEAT must be a positive number"
if [ -d $sysctl ]; then
	kernel=expsync
	configs=()
	for c in ${LEDGER_CONFIGS:-auto:user-return rcu:user-return immediate:user-return
				 auto:direct auto:periodic}; do
		for r in $(seq "$repeat"); do configs+=("${c/:/ }"); done
	done
	saved=()
	for k in table_free vmstat_drain vmstat_drain_cpus; do saved+=("$k=$(cat $sysctl/$k)"); done
else
	kernel=6.12
	configs=()
	for r in $(seq $((3 * repeat))); do configs+=("- -"); done
fi
orig_rt=$(cat /proc/sys/kernel/sched_rt_runtime_us)
orig_sleep=$(cat $khp/scan_sleep_millisecs)
tmp=$(mktemp -d)
restore() {
	echo "$orig_rt" > /proc/sys/kernel/sched_rt_runtime_us
	echo "$orig_sleep" > $khp/scan_sleep_millisecs
	for kv in "${saved[@]}"; do echo "${kv#*=}" > "$sysctl/${kv%%=*}"; done
	rm -rf "$tmp"
}
trap restore EXIT
echo -1 > /proc/sys/kernel/sched_rt_runtime_us
echo 100 > $khp/scan_sleep_millisecs

causes=(timer callfn callfn1 resched irqwork work timers hrtimers)
events=(irq_vectors:local_timer_entry irq_vectors:call_function_entry
	irq_vectors:call_function_single_entry irq_vectors:reschedule_entry
	irq_vectors:irq_work_entry workqueue:workqueue_execute_start
	timer:timer_expire_entry timer:hrtimer_expire_entry)
evargs=()
for e in "${events[@]}"; do evargs+=(-e "$e"); done

[ -n "${EPOCHREALTIME:-}" ] || skip "bash without EPOCHREALTIME"
# timed FILE TEXT: write TEXT, log "ms rc name" (rc 1 for a failed write).
timed() {
	local t0 t1 rc=0
	t0=${EPOCHREALTIME/[.,]/}
	echo "$2" > "$1" 2>/dev/null || rc=1
	t1=${EPOCHREALTIME/[.,]/}
	echo "$(((t1 - t0) / 1000)) $rc ${1##*/}" >> "$tmp/writes"
}
# Sleep without a fork: read with a time-out from a pipe nobody writes.
exec {never}<> <(:)
pause() { read -r -t "$1" -u $never; }
driver() {
	local i=0
	while [ ! -e "$tmp/stop" ]; do
		pause 1
		i=$((i + 1))
		# expsync: every other time vm.stat_refresh, 6.12's own way.
		if [ $((i % 2)) = 0 ]; then
			if [ $kernel = expsync ] && [ $((i % 4)) = 2 ]; then
				timed $sysctl/vmstat_drain_now 1
			else
				timed /proc/sys/vm/stat_refresh 1
			fi
		fi
		if [ $kernel = expsync ] && [ $((i % 3)) = 0 ]; then
			timed $sysctl/vmstat_drain_cpus ""
			timed $sysctl/vmstat_drain_cpus "$cpu"
		fi
	done
}

echo "1..${#configs[@]}"
fail=0 n=0
for c in "${configs[@]}"; do
	n=$((n + 1))
	read -r tf vd <<< "$c"
	if [ $kernel = expsync ]; then
		if ! { echo "$tf" > $sysctl/table_free && echo "$vd" > $sysctl/vmstat_drain &&
		       echo "$cpu" > $sysctl/vmstat_drain_cpus; }; then
			echo "not ok $n table_free=$tf vmstat_drain=$vd: cannot set"
			fail=1
			continue
		fi
		label="expsync:table_free=$tf,vmstat_drain=$vd"
		[ "$repeat" = 1 ] || label+=":run$n"
	else
		label="6.12:run$n"
	fi
	rm -f "$tmp/writes" "$tmp/stop"
	touch "$tmp/writes"
	thp0=$(awk '$1 == "thp_collapse_alloc" { print $2 }' /proc/vmstat)
	# The loads outlive both perf sessions (they stop on SIGTERM, once
	# the driver has stopped): an idle isolated CPU is not the load's.
	"$here/isolation_ledger" spin "$cpu" $((window + 60)) > "$tmp/spin" 2>&1 &
	spid=$!
	"$here/isolation_ledger" churn 0 1 $((window + 60)) > "$tmp/churn" 2>&1 &
	cpid=$!
	sleep 1
	# perf record reads every task's maps as it starts, which can hold
	# the spinner's mmap_lock for a moment (CPU 2 idle): let that pass
	# before the driver starts and the counting begins.
	perf record -q -C "$cpu" -o "$tmp/rec" -e csd:csd_function_entry \
		-e workqueue:workqueue_execute_start -e timer:hrtimer_expire_entry \
		-e timer:tick_stop -- sleep $((window + 3)) 2>/dev/null &
	rpid=$!
	sleep 2
	driver &
	dpid=$!
	# One count per window: perf stat -I would read the counters with
	# an IPI to the isolated CPU every interval (__perf_event_read).
	perf stat -C "$cpu" -x, -o "$tmp/perf" "${evargs[@]}" -- sleep "$window" 2>/dev/null
	wait $rpid
	touch "$tmp/stop"
	wait $dpid
	kill -TERM $spid $cpid
	wait $spid $cpid
	thp1=$(awk '$1 == "thp_collapse_alloc" { print $2 }' /proc/vmstat)
	counts="" ok=1
	for i in "${!events[@]}"; do
		v=$(awk -F, -v e="${events[$i]}" '$3 == e { print $1 }' "$tmp/perf")
		[[ $v =~ ^[0-9]+$ ]] || { ok=0; v=none; }
		counts+=" ${causes[$i]}=$v"
	done
	read -r _ rounds < "$tmp/spin"
	read -r _ collapses _ cfailed _ mbs < "$tmp/churn"
	nw=$(wc -l < "$tmp/writes")
	max_ms=$(sort -n "$tmp/writes" | tail -1 | cut -d' ' -f1)
	wfailed=$(awk '$2 == 1' "$tmp/writes" | wc -l)
	echo "# ledger $label$counts rounds=${rounds:-none} collapses=${collapses:-none}" \
		"collapse_failed=${cfailed:-none} khugepaged=$((thp1 - thp0))" \
		"membarriers=${mbs:-none} writes=$nw max_ms=${max_ms:-none} failed_writes=$wfailed"
	# Who: the functions behind the call-function IPIs and work items.
	who=$(perf script -i "$tmp/rec" -F event,trace 2>/dev/null |
		sed -nE 's/.*csd_function_entry: func=([^ ,]+).*/ipi:\1/p;
			 s/.*workqueue_execute_start: .* function ([^ ]+).*/work:\1/p;
			 s/.*hrtimer_expire_entry: .* function=([^ ]+).*/hrtimer:\1/p;
			 s/.*tick_stop: success=0 dependency=([^ ]+).*/tick_kept:\1/p' |
		sort | uniq -c | sort -rn | awk '{ printf " %s=%s", $2, $1 }')
	echo "# who $label${who:- none}"
	sort -k3 "$tmp/writes" | awk '{ if ($1 > m[$3]) m[$3] = $1 } END {
		for (k in m) printf "# slowest write %s: %d ms\n", k, m[k] }'
	[[ ${rounds:-0} =~ ^[0-9]+$ ]] && [ "${rounds:-0}" -gt 0 ] || ok=0
	[[ ${collapses:-0} =~ ^[0-9]+$ ]] && [ "${collapses:-0}" -gt 0 ] || ok=0
	[ "$nw" -ge $((window / 2 - 1)) ] || ok=0
	if [ $kernel = expsync ]; then
		[ "${max_ms:-9999}" -le 2500 ] || ok=0
	fi
	if [ $ok = 1 ]; then
		echo "ok $n $label: counted, loads ran, knob writes bounded"
	else
		echo "not ok $n $label: counted, loads ran, knob writes bounded"
		fail=1
	fi
done
exit $fail
