#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Page-table freeing leaves isolated CPUs alone.  Run it in a boot with
# CPU 1 isolated (nohz_full=1 isolcpus=1); counts come from
# kernel tracepoints (timer:*, csd:*), not from expsync's own.
#
# 1. Per-CPU RCU batching arms no timer on a nohz_full CPU.  Under
#    table_free=rcu, table_free_rcu_batch=percpu, a task maps, touches
#    and unmaps 4 MB $ROUNDS times, 50 ms apart, first on housekeeping
#    CPU 0, then on CPU 1.  perf stat -C counts on that CPU the expiries
#    of tlb_table_pcp_timer (timer:timer_expire_entry) and the batches
#    handed to RCU (expsync:expsync_table_free_rcu).  On CPU 0 the
#    bursts leave small batches whose bound timer fires: at least
#    $ROUNDS/2 expiries, and at most one per 10 ms of the run, which
#    shows the count sees the timer.  On CPU 1: no expiry, and at least
#    $ROUNDS batches handed to RCU there (the load did free tables on
#    it).  6.12 hands each gather to call_rcu(), which on a nohz_full
#    (rcu_nocbs) CPU interrupts nothing.
# 2. tlb_remove_table_sync_one() IPIs nobody where the TLB flushes are
#    IPIs, which is where table_free=immediate is accepted (as here,
#    under QEMU TCG): the flush already waited for the lockless walkers.
#    Under table_free=rcu, with fail_page_alloc failing the batch page
#    (GFP_NOWAIT) of the task, each table is freed alone after the sync
#    (the table_free_alone counter shows the path ran); perf counts
#    csd:csd_function_entry of tlb_remove_table_smp_sync on every CPU:
#    0 there, and at least one where "immediate" is refused (a
#    paravirt flush: the sync must still IPI).  With
#    CONFIG_EXPSYNC_TABLE_FREE the series selects
#    MMU_GATHER_RCU_TABLE_FREE, which would otherwise turn that sync from
#    empty into a broadcast on kernels without PARAVIRT.
# 3. Where the sync must IPI (a paravirt flush; here forced with
#    /sys/kernel/debug/expsync/table_sync_ipi, as TCG has none), it
#    spares a CPU running user code.  A process on CPU $hk collapses
#    huge pages (MADV_COLLAPSE: each collapse ends in the sync) for
#    COLLAPSE_SECONDS (default 8); perf counts csd:csd_function_entry of
#    tlb_remove_table_smp_sync on each CPU.  CPU $hk runs it for each
#    sync (its own call); CPU $iso:
#    a) idle: it gets the IPI of every sync, as 6.12 sends it: at least
#       9 in 10 of CPU $hk's count, and at least 5;
#    b) running a SCHED_FIFO spinner that makes no system call (RT
#       throttling off), while CPU $hk counts at least 5: none, but for
#       a sync that finds CPU $iso in the kernel for another interrupt
#       (the residual tick, perf's own IPIs, a device interrupt), which
#       6.12 would send as well.  So at most one per such entry that
#       perf counts on CPU $iso in the window, and at most 1 in 10.
#       (8 s of collapses: about 130 syncs and 30 such entries, each of
#       them some tens of microseconds in the kernel.)
#    Bad words written to table_sync_ipi are refused and change nothing.
#    Writing 0 then goes back to the choice made at boot: it reads as
#    before and test 2's count comes out the same again.
# 4. What table_free does, seen by the page allocator's own tracepoints
#    rather than expsync's counters: a task on CPU $hk maps, touches
#    once per 2 MB and unmaps 4 MB $FREE_ROUNDS times (default 400;
#    about two page tables freed each).  perf stat -a counts
#    kmem:mm_page_free (every page freed) and kmem:mm_page_free_batched
#    (the pages freed together after a gather's flush), until 1 s after
#    the last munmap so that RCU callbacks have run.  Under "rcu" the
#    tables are freed one by one from the RCU callback, under
#    "immediate" with the gathered pages: going from rcu to immediate
#    must move at least one free per munmap from unbatched to batched.
#    The rest of the system frees about a thousand pages unbatched in
#    each run (the commands' exec and exit among them); 200 munmaps
#    moved 486 frees each way.
# 5. The same count under table_free=auto: with native TLB flushes (no
#    paravirt flush here) auto must free as immediate does.
here=$(cd "$(dirname "$0")" && pwd)
sysctl=/proc/sys/kernel/expsync
fi_dir=/sys/kernel/debug/fail_page_alloc
rounds=${ROUNDS:-20}
iso=${ISOLATED_CPU:-1}
hk=0

echo "TAP version 13"
fatal() {
	echo "1..5"
	echo "not ok 1 $*"
	echo "not ok 2 # not run"
	echo "not ok 3 # not run"
	echo "not ok 4 # not run"
	echo "not ok 5 # not run"
	exit 1
}
. "$(dirname "$0")/expsync_lib.sh"
# A missing precondition is a skip (exit 4).
[ "$(id -u)" = 0 ] || skip "must run as root"
[ -w $sysctl/table_free ] && [ -w $sysctl/table_free_rcu_batch ] ||
	skip "no $sysctl/table_free or table_free_rcu_batch"
command -v perf >/dev/null || skip "no perf in the guest"
[ -x "$here/table_free_bench" ] || fatal "no table_free_bench"
[ -x "$here/isolation_ledger" ] || fatal "no isolation_ledger"
sync_ipi=/sys/kernel/debug/expsync/table_sync_ipi
[ -w $sync_ipi ] || skip "no $sync_ipi"
[ -d $fi_dir ] || skip "no $fi_dir (CONFIG_FAIL_PAGE_ALLOC, FAULT_INJECTION_DEBUG_FS)"
cpu_in_list "$(cat /sys/devices/system/cpu/nohz_full 2>/dev/null)" "$iso" ||
	skip "CPU $iso is not nohz_full (nohz_full: $(cat /sys/devices/system/cpu/nohz_full))"
stat_of() { awk -v k="$1" '$1 == k { print $2 }' /sys/kernel/debug/expsync/stats; }

orig_mode=$(cat $sysctl/table_free) orig_batch=$(cat $sysctl/table_free_rcu_batch)
orig_sync_ipi=$(cat $sync_ipi) orig_rt=$(cat /proc/sys/kernel/sched_rt_runtime_us)
fi_orig=()
for f in probability interval times task-filter ignore-gfp-wait ignore-gfp-highmem min-order; do
	fi_orig+=("$f=$(cat $fi_dir/$f)")
done
restore() {
	local kv
	echo 0 > $fi_dir/probability
	for kv in "${fi_orig[@]}"; do echo "${kv#*=}" > "$fi_dir/${kv%%=*}"; done
	echo "$orig_batch" > $sysctl/table_free_rcu_batch
	echo "$orig_mode" > $sysctl/table_free
	echo "$orig_sync_ipi" > $sync_ipi
	echo "$orig_rt" > /proc/sys/kernel/sched_rt_runtime_us
	[ -z "${spid:-}" ] || kill "$spid" 2>/dev/null
}
trap restore EXIT
echo rcu > $sysctl/table_free && echo percpu > $sysctl/table_free_rcu_batch ||
	fatal "cannot set table_free=rcu, table_free_rcu_batch=percpu"

echo "1..5"
fail=0

# On CPU $1, while the load runs there: "EXPIRIES BATCHES MS", the
# tlb_table_pcp_timer expiries and the batches handed to RCU (perf stat
# -C $1), and how long the run took.  The sleep lets the last burst's
# 10 ms timer fire.
pcp_timers() {
	local out t0 t1
	out=$(mktemp)
	t0=$(date +%s%N)
	perf stat -x, -o "$out" -C "$1" -e timer:timer_expire_entry \
		--filter 'function.function == tlb_table_pcp_timer' \
		-e expsync:expsync_table_free_rcu -- \
		sh -c "taskset -c $1 $here/table_free_bench munmap $rounds 50 >/dev/null &&
			sleep 0.2" ||
		{ rm -f "$out"; echo "none none 0"; return; }
	t1=$(date +%s%N)
	awk -F, -v ms=$(((t1 - t0) / 1000000)) '
		$3 == "timer:timer_expire_entry" { e = $1 }
		$3 == "expsync:expsync_table_free_rcu" { b = $1 }
		END { print (e == "" ? "none" : e), (b == "" ? "none" : b), ms }' "$out"
	rm -f "$out"
}
read -r hk_timers hk_batches hk_ms < <(pcp_timers $hk)
read -r iso_timers iso_batches iso_ms < <(pcp_timers $iso)
echo "# $rounds unmap bursts: tlb_table_pcp_timer expiries, batches to RCU:" \
	"housekeeping CPU $hk: $hk_timers, $hk_batches in $hk_ms ms;" \
	"nohz_full CPU $iso: $iso_timers, $iso_batches in $iso_ms ms"
if [ "$hk_timers" != none ] && [ "$iso_batches" != none ] && [ "$iso_timers" = 0 ] &&
   [ "$iso_batches" -ge "$rounds" ] && [ "$hk_timers" -ge $((rounds / 2)) ] &&
   [ "$hk_timers" -le $((hk_ms / 10 + 2)) ]; then
	echo "ok 1 per-CPU RCU batching arms no timer on nohz_full CPU $iso"
else
	echo "not ok 1 per-CPU RCU batching: expected on CPU $iso 0 timers and >= $rounds" \
		"batches, on CPU $hk $((rounds / 2))..$((hk_ms / 10 + 2)) timers"
	fail=1
fi

# Where "immediate" is refused, a TLB flush may skip a CPU: the sync
# must IPI.
if echo immediate > $sysctl/table_free 2>/dev/null; then
	flush_ipis=1
else
	flush_ipis=0
fi
echo rcu > $sysctl/table_free

# Fail every non-sleeping page allocation of the load (the batch page of
# tlb_remove_table() is GFP_NOWAIT); page faults sleep and are spared.
echo 0 > $fi_dir/probability
echo Y > $fi_dir/task-filter
echo Y > $fi_dir/ignore-gfp-wait
echo N > $fi_dir/ignore-gfp-highmem
echo 0 > $fi_dir/min-order
echo 1 > $fi_dir/interval
echo -1 > $fi_dir/times
# syncs_alone: "RC ALONE IPIS" of $rounds unmaps with the batch page
# failing: the bench's exit status, the tables freed alone and the
# tlb_remove_table_smp_sync calls on all CPUs.
syncs_alone() {
	local out before rc alone
	out=$(mktemp)
	echo 100 > $fi_dir/probability
	before=$(stat_of table_free_alone)
	perf stat -x, -o "$out" -a -e csd:csd_function_entry \
		--filter 'func.function == tlb_remove_table_smp_sync' -- \
		taskset -c $hk "$here/table_free_bench" munmap-failing "$rounds" >/dev/null
	rc=$?
	echo 0 > $fi_dir/probability
	alone=$(( $(stat_of table_free_alone) - before ))
	echo $rc $alone "$(awk -F, '$3 == "csd:csd_function_entry" { print $1 }' "$out")"
	rm -f "$out"
}
# syncs_as_boot RC ALONE IPIS: syncs_alone's line shows the run freed
# each table alone, and sent sync IPIs exactly where a flush may skip a
# CPU.
syncs_as_boot() {
	[ "$1" = 0 ] && [ "$2" -ge "$rounds" ] && [ -n "$3" ] &&
		{ { [ $flush_ipis = 1 ] && [ "$3" = 0 ]; } ||
		  { [ $flush_ipis = 0 ] && [ "$3" -gt 0 ]; }; }
}
read -r rc alone ipis < <(syncs_alone)
echo "# $rounds unmaps (exit $rc), batch pages failed: $alone tables freed alone," \
	"$ipis tlb_remove_table_smp_sync calls on all CPUs; flushes are IPIs: $flush_ipis"
want_ipis=0
[ $flush_ipis = 1 ] || want_ipis='> 0'
if syncs_as_boot "$rc" "$alone" "$ipis"; then
	echo "ok 2 table sync IPIs only where a flush may skip a CPU"
else
	echo "not ok 2 table sync: expected >= $rounds tables freed alone and $want_ipis sync IPIs"
	fail=1
fi

# syncs_while_collapsing: "HK ISO ENTRIES COLLAPSES": the
# tlb_remove_table_smp_sync calls on CPU $hk and on CPU $iso while CPU $hk
# collapses huge pages, and CPU $iso's other kernel entries in that time
# (its other csd functions, timer, reschedule, irq_work and device
# interrupts).
syncs_while_collapsing() {
	local out churn
	out=$(mktemp) churn=$(mktemp)
	perf stat -x, -o "$out" -a -A -e csd:csd_function_entry \
		--filter 'func.function == tlb_remove_table_smp_sync' \
		-e csd:csd_function_entry -e irq_vectors:local_timer_entry \
		-e irq_vectors:reschedule_entry -e irq_vectors:irq_work_entry \
		-e irq:irq_handler_entry -- \
		"$here/isolation_ledger" churn $hk $hk "${COLLAPSE_SECONDS:-8}" > "$churn"
	awk -F, -v hk="CPU$hk" -v iso="CPU$iso" -v c="$(awk '{ print $2 }' "$churn")" '
		$4 == "csd:csd_function_entry" && $1 == hk && h == "" { h = $2; next }
		$4 == "csd:csd_function_entry" && $1 == iso && i == "" { i = $2; next }
		$1 == iso && $2 ~ /^[0-9]+$/ { e += $2 }
		$4 == "csd:csd_function_entry" && $1 == iso { e -= i }
		END { print (h == "" ? "none" : h), (i == "" ? "none" : i), e + 0,
		      (c == "" ? 0 : c) }' "$out"
	rm -f "$out" "$churn"
}
for w in 2 -1 yes ""; do
	if echo "$w" > $sync_ipi 2>/dev/null || [ "$(cat $sync_ipi)" != "$orig_sync_ipi" ]; then
		echo "not ok 3 $sync_ipi: '$w' accepted or the value changed"
		exit 1
	fi
done
if ! echo 1 > $sync_ipi || [ "$(cat $sync_ipi)" != 1 ]; then
	echo "not ok 3 cannot set $sync_ipi to 1"
	exit 1
fi
read -r idle_hk idle_iso _ idle_c < <(syncs_while_collapsing)
echo -1 > /proc/sys/kernel/sched_rt_runtime_us
"$here/isolation_ledger" spin-only $iso & spid=$!
sleep 1
read -r user_hk user_iso user_entries user_c < <(syncs_while_collapsing)
kill $spid; wait $spid 2>/dev/null; spid=
echo "$orig_rt" > /proc/sys/kernel/sched_rt_runtime_us
# Writing 0 goes back to the boot's choice: test 2's count again.
echo 0 > $sync_ipi
read -r back_rc back_alone back_ipis < <(syncs_alone)
back_read=$(cat $sync_ipi)
echo "$orig_sync_ipi" > $sync_ipi
echo "# table_sync_ipi=0 again (reads $back_read): $back_alone tables freed alone," \
	"$back_ipis tlb_remove_table_smp_sync calls (test 2: $ipis)"
echo "# table_sync_ipi=1, tlb_remove_table_smp_sync on CPU $hk and CPU $iso:" \
	"CPU $iso idle: $idle_hk, $idle_iso ($idle_c collapses);" \
	"CPU $iso spinning in user mode: $user_hk, $user_iso ($user_c collapses," \
	"$user_entries other kernel entries on CPU $iso)"
if [ "$idle_hk" != none ] && [ "$idle_iso" != none ] && [ "$idle_hk" -ge 5 ] &&
   [ $((idle_iso * 10)) -ge $((idle_hk * 9)) ] &&
   [ "$user_hk" != none ] && [ "$user_hk" -ge 5 ] && [ "$user_iso" != none ] &&
   [ "$user_iso" -le "$user_entries" ] && [ $((user_iso * 10)) -le "$user_hk" ] &&
   [ "$back_read" = "$orig_sync_ipi" ] && syncs_as_boot "$back_rc" "$back_alone" "$back_ipis"; then
	echo "ok 3 table sync IPIs spare a CPU running user code; 0 restores the boot's choice"
else
	echo "not ok 3 table sync: CPU $iso got $idle_iso of $idle_hk syncs idle (want >= 9/10)," \
		"$user_iso of $user_hk spinning in user mode (want <= 1/10 and <=" \
		"$user_entries, its other kernel entries); after writing 0: reads $back_read" \
		"(want $orig_sync_ipi), $back_ipis sync IPIs for $back_alone tables freed alone" \
		"(want as test 2)"
	fail=1
fi

# free_path MODE: "unbatched batched munmaps" for $FREE_ROUNDS munmaps
# under table_free=MODE.
free_rounds=${FREE_ROUNDS:-400}
free_path() {
	local out all batched load
	echo "$1" > $sysctl/table_free || return 1
	out=$(mktemp)
	perf stat -a -x, -o "$out" -e kmem:mm_page_free -e kmem:mm_page_free_batched -- \
		sh -c "taskset -c $hk '$here/table_free_bench' munmap $free_rounds; sleep 1" \
		> "$out.load"
	all=$(awk -F, '$3 == "kmem:mm_page_free" { print $1 }' "$out")
	batched=$(awk -F, '$3 == "kmem:mm_page_free_batched" { print $1 }' "$out")
	read -r _ load _ < "$out.load"
	rm -f "$out" "$out.load"
	echo "$((all - batched)) $batched $load"
}
read -r rcu_single rcu_batched rcu_n < <(free_path rcu)
read -r imm_single imm_batched imm_n < <(free_path immediate)
read -r auto_single auto_batched auto_n < <(free_path auto)
echo "$orig_mode" > $sysctl/table_free
echo "# page frees for $free_rounds munmaps: rcu $rcu_single unbatched, $rcu_batched batched;" \
	"immediate $imm_single unbatched, $imm_batched batched"
if [ "${rcu_n:-0}" = "$free_rounds" ] && [ "${imm_n:-0}" = "$free_rounds" ] &&
   [ $((rcu_single - imm_single)) -ge "$free_rounds" ] &&
   [ $((imm_batched - rcu_batched)) -ge "$free_rounds" ]; then
	echo "ok 4 table_free: rcu frees tables one by one after a grace period," \
		"immediate with the gathered pages"
else
	echo "not ok 4 table_free: expected immediate to free >= $free_rounds fewer pages" \
		"unbatched and as many more batched than rcu"
	fail=1
fi
echo "# auto: $auto_single unbatched, $auto_batched batched"
if [ "${auto_n:-0}" = "$free_rounds" ] &&
   [ $((rcu_single - auto_single)) -ge "$free_rounds" ] &&
   [ $((auto_batched - rcu_batched)) -ge "$free_rounds" ]; then
	echo "ok 5 table_free: auto frees as immediate where TLB flushes are native"
else
	echo "not ok 5 table_free: expected auto to free >= $free_rounds fewer pages" \
		"unbatched and as many more batched than rcu, as immediate does"
	fail=1
fi
exit $fail
