#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Concurrent expedited membarrier() callers share IPI rounds
# (kernel.expsync.membarrier_coalesce), and every call is still served
# by a round that began after it entered.  Evidence from the kernel's
# own tracepoints, not from expsync's.
#
# membarrier_bench 4 CALLS CMD 3: three threads on CPUs 0-2 each call
# membarrier(CMD) CALLS times at once, a fourth spins on CPU 3.
#
# 1. IPI rounds per call, for membarrier_coalesce = off and on: the
#    ipi:ipi_send_cpu and ipi:ipi_send_cpumask events that target CPU 3
#    (its spinner runs the mm, so every round IPIs it; little else
#    does), over the calls made while all three callers call
#    (MEMBARRIER_BENCH_OVERLAP=1: they stop when the first is done; a
#    leader returns at once while its riders must be woken, so the
#    leader finishes first and the others would end alone).
#    off: one round per call, so 0.95 .. 1.10 per call (measured
#    1.007).  on: at least 1/3, since a round serves each caller at most
#    once, at least MEMBARRIER_COALESCE_MIN per mille (default 334) and
#    at most MEMBARRIER_COALESCE_MAX (default 950).
#    Traced round by round (expsync_membarrier_call) under QEMU -icount,
#    where the vCPUs take turns, each round serves 2 calls on average (a
#    leader alone, then it with both riders, or it with one rider while
#    the other rider sleeps through the round): 0.5 per call; run there,
#    MEMBARRIER_COALESCE_MIN=400 MEMBARRIER_COALESCE_MAX=600 hold it to
#    the guide's "one round per two calls, not one per three".  With 4 vCPUs
#    on 2 host cores and no -icount, a woken rider waits for a host
#    core while the leader calls on: runs of tens of rounds with one
#    call each, 0.82 .. 0.91 per call, hence the default bound of 0.95
#    for a run of the whole test there.
#    MEMBARRIER_COALESCE_PARTS=rounds runs only this part, =delivery
#    only 2 and 3 (the rounds counted under -icount, the delivery
#    without it, where 0.95 leaves too little margin: runs reach 0.91),
#    default all.
# 2. Delivery under coalescing, for each command (on): ftrace with the
#    "global" clock (monotonic across CPUs) records raw_syscalls
#    sys_enter/sys_exit of membarrier and csd:csd_function_entry of the
#    handler on CPU 3, and sched:sched_switch on CPU 3.  A round rightly
#    skips CPU 3 while it runs no thread of the process (the spinner
#    preempted), so a call is excused when CPU 3 ran another task at
#    some moment of it (from 20 us before the switch away, since
#    rq->curr changes just before the tracepoint).  Every other call
#    must see the handler run on CPU 3 between its entry and its exit:
#    none may be uncovered.  At most half the calls may be excused, or
#    the run proves too little.  "mixed" runs the three private kinds at
#    once in one process, one caller each: a call is covered only by
#    its own kind's handler, since a plain round neither syncs cores nor
#    restarts rseq.  (Without the excuse, a host busy with other
#    guests leaves tens of calls of 900 uncovered with no kernel at fault.)
#    Each call is served once by the tracepoint too: one
#    expsync:expsync_membarrier_call event names its op, with a round
#    number (all rounds are numbered with the knob on; the flipping run
#    may have unnumbered ones).
#    "rseq_cpu" (MEMBARRIER_CMD_FLAG_CPU, CPU 3) shares no round: CPU 3
#    runs ipi_rseq once per call, less at most the excused calls, and
#    no expsync_membarrier_call event (a round's) names a call.
#    Then once more for private while another process flips the knob
#    off and on without pause (at least 20 writes during the run): no
#    call uncovered, none left asleep (a run that outlasts 600 s fails).
# 3. The store-buffering litmus (membarrier_litmus_test) with two hammer
#    threads of the same process calling the same command throughout
#    (HAMMERS=2, ITERS=LITMUS_ITERS, default 5000), on: no forbidden
#    outcome, no error.
here=$(cd "$(dirname "$0")" && pwd)
sysctl=/proc/sys/kernel/expsync/membarrier_coalesce
calls=${CALLS:-300}
tr=/sys/kernel/tracing
nr_membarrier=324	# x86_64
# Each command's number (uapi linux/membarrier.h) as sys_enter prints
# it, in hex, and the IPI handler of its rounds.  "mixed" runs the three
# private kinds at once in one process: each call wants its own kind's.
# The op its expsync_membarrier_call events name is third.
declare -A kinds=([private]="8:ipi_mb:private_expedited" [global]="2:ipi_mb:global_expedited"
		  [sync_core]="20:ipi_sync_core:private_expedited_sync_core"
		  [rseq]="80:ipi_rseq:private_expedited_rseq"
		  [rseq_cpu]="80:ipi_rseq:private_expedited_rseq")
kinds[mixed]="${kinds[private]} ${kinds[sync_core]} ${kinds[rseq]}"
cmds="private global sync_core rseq mixed"

echo "TAP version 13"
. "$(dirname "$0")/expsync_lib.sh"
# A missing precondition is a skip (exit 4).
[ "$(id -u)" = 0 ] || skip "must run as root"
[ -w $sysctl ] || skip "no $sysctl"
command -v perf >/dev/null || skip "no perf in the guest"
[ "$(nproc)" -ge 4 ] || skip "needs 4 CPUs, has $(nproc)"
[ "$(uname -m)" = x86_64 ] || skip "the membarrier syscall number is x86_64's"
[ -d $tr/events/csd ] || skip "no $tr"
fatal() { echo "not ok $*"; exit 1; }
parts=${MEMBARRIER_COALESCE_PARTS:-all}
max=${MEMBARRIER_COALESCE_MAX:-950}
min=${MEMBARRIER_COALESCE_MIN:-334}
case $parts in
rounds) echo "1..2" ;;
delivery) echo "1..$((3 + $(wc -w <<<"$cmds")))" ;;
*) echo "1..$((5 + $(wc -w <<<"$cmds")))" ;;
esac
[[ $parts =~ ^(all|rounds|delivery)$ ]] ||
	fatal "1 MEMBARRIER_COALESCE_PARTS must be all, rounds or delivery"
[[ $max =~ ^[0-9]+$ ]] && [ "$max" -ge 334 ] && [ "$max" -le 1000 ] ||
	fatal "1 MEMBARRIER_COALESCE_MAX must be 334 .. 1000 (per mille)"
[[ $min =~ ^[0-9]+$ ]] && [ "$min" -ge 334 ] && [ "$min" -le "$max" ] ||
	fatal "1 MEMBARRIER_COALESCE_MIN must be 334 .. MEMBARRIER_COALESCE_MAX (per mille)"
orig=$(cat $sysctl)
fail=0 n=0

# sends -> "IPIs ns_per_call": IPI sends to CPU 3 during one run
sends() {
	local out ns
	out=$(mktemp)
	# perf 6.1's libtraceevent cannot parse ipi_send_cpumask's format
	# and says so on stderr; the counts are not affected.
	ns=$(MEMBARRIER_BENCH_OVERLAP=1 perf stat -a -x, -o "$out" \
		-e ipi:ipi_send_cpu --filter 'cpu == 3' \
		-e ipi:ipi_send_cpumask --filter 'cpumask & CPUS{3}' -- \
		"$here/membarrier_bench" 4 "$calls" private 3 \
		2> >(grep -v -e '^libtraceevent' -e '__get_cpumask' >&2) |
		awk '$9 == "calls" { print $2, $10 }') || { rm -f "$out"; return 1; }
	[ -n "$ns" ] || { rm -f "$out"; return 1; }
	awk -F, -v ns="$ns" '$3 ~ /^ipi:/ { s += $1 } END { print s + 0, ns }' "$out"
	rm -f "$out"
}

for mode in $([ "$parts" = delivery ] || echo off on); do
	n=$((n + 1))
	echo $mode > $sysctl || fatal "$n cannot set membarrier_coalesce=$mode"
	read -r s ns total < <(sends) || fatal "$n perf stat of membarrier_bench failed"
	[ -n "$total" ] && [ "$total" -ge "$calls" ] ||
		fatal "$n perf stat of membarrier_bench failed (calls: '$total')"
	if [ $mode = off ]; then
		lo=$((total * 95 / 100)) hi=$((total * 110 / 100))
	else
		lo=$((total * min / 1000)) hi=$((total * max / 1000))
	fi
	echo "# membarrier_coalesce=$mode: $s IPIs to CPU 3 for $total calls" \
		"($(awk -v s="$s" -v t=$total 'BEGIN { printf "%.3f", s / t }') per call)," \
		"band $lo..$hi; $ns ns per call of each caller"
	if [ "$s" -ge $lo ] && [ "$s" -le $hi ]; then
		echo "ok $n membarrier_coalesce=$mode: 3 concurrent callers, $s IPI rounds" \
			"for $total calls"
	else
		echo "not ok $n membarrier_coalesce=$mode: $s IPI rounds for $total calls," \
			"want $lo..$hi"
		fail=1
	fi
done

if [ "$parts" = rounds ]; then
	echo "$orig" > $sysctl
	exit $fail
fi

# window CMD: trace one run, print "calls uncovered excused handlers
# served unnumbered" (handlers: every run of CMD's handlers on CPU 3;
# served: expsync_membarrier_call events naming CMD's ops, unnumbered:
# those of them with round 0)
window() {
	local f="" k h log
	for k in ${kinds[$1]}; do
		h=${k#*:}
		f="${f:+$f || }func.function == ${h%%:*}"
	done
	log=$(mktemp)
	# A caller stranded asleep would hang the run: it fails instead.
	trace_run "$log" "raw_syscalls/sys_enter:id == $nr_membarrier" \
		"raw_syscalls/sys_exit:id == $nr_membarrier" "csd/csd_function_entry:$f" \
		sched/sched_switch expsync/expsync_membarrier_call -- \
		"$here/membarrier_bench" 4 "$calls" "$1" 3 ||
		{ rm -f "$log"; return 1; }
	# Lines: "comm-PID [CPU] flags TS: event: ...".  A call is the
	# sys_enter .. sys_exit of one PID; covered when a line of its
	# command's handler on CPU 3 lies within it, excused when it
	# overlaps a time CPU 3 ran a task other than membarrier_bench's
	# (its comm, as the trace cuts it).  Lost events would hide
	# handlers: fail.
	awk -v kinds="${kinds[$1]}" '
		# Numeric from the start: an unset nc indexes "" first.
		BEGIN {
			nc = nh = no = 0; out = 1; os[0] = 0
			n = split(kinds, kv, " ")
			for (i = 1; i <= n; i++) {
				split(kv[i], p, ":")
				want["(" p[1] ","] = p[2]
				ops["op=" p[3]] = 1
			}
		}
		/LOST/ { lost = 1 }
		/^#/ { next }
		{
			if (!match($0, /\[[0-9]+\]/))
				next
			cpu = substr($0, RSTART + 1, RLENGTH - 2) + 0
			if (!match($0, /[0-9]+\.[0-9]+: /))
				next
			ts = substr($0, RSTART, RLENGTH - 2) + 0
			if (!match($0, /-[0-9]+ +\[/))
				next
			pid = substr($0, RSTART + 1, RLENGTH - 1) + 0
		}
		# The commands only: not the registrations.
		/ sys_enter: / {
			enter[pid] = ts
			open[pid] = ""
			if (match($0, /\([0-9a-f]+,/))
				open[pid] = want[substr($0, RSTART, RLENGTH)]
			next
		}
		/ expsync_membarrier_call: / {
			if (match($0, /op=[a-z_]+ round=[0-9]+/)) {
				split(substr($0, RSTART, RLENGTH), q, " ")
				if (q[1] in ops) { served++; unnumbered += q[2] == "round=0" }
			}
			next
		}
		/ csd_function_entry: / {
			if (cpu == 3 && match($0, /func=[a-z_]+/)) {
				hf[nh] = substr($0, RSTART + 5, RLENGTH - 5)
				h[nh++] = ts
			}
			next
		}
		# CPU 3 runs no thread of the process from before the first
		# switch to one (the bench starts after tracing does).
		/ sched_switch: / {
			if (cpu != 3 || !match($0, /next_comm=[^ ]+/))
				next
			mine = substr($0, RSTART + 10, RLENGTH - 10) == "membarrier_benc"
			if (mine && out) { oe[no++] = ts; out = 0 }
			if (!mine && !out) { os[no] = ts - 0.00002; out = 1 }
			next
		}
		/ sys_exit: / {
			if (open[pid] == "")
				next
			w[nc] = open[pid]; open[pid] = ""
			e[nc] = enter[pid]; x[nc] = ts; nc++
		}
		END {
			if (lost) { print -1, -1, -1, -1, -1, -1; exit }
			if (out) oe[no++] = 1e12
			for (i = 0; i < nc; i++) {
				ok = 0
				for (k = 0; k < nh && !ok; k++)
					ok = h[k] >= e[i] && h[k] <= x[i] && hf[k] == w[i]
				for (k = 0; k < no && !ok; k++)
					if (os[k] < x[i] && oe[k] > e[i]) { ok = 1; excused++ }
				bad += !ok
			}
			print nc, bad + 0, excused + 0, nh, served + 0, unnumbered + 0
		}' "$log"
	rm -f "$log"
}

echo on > $sysctl || fatal "$((n + 1)) cannot set membarrier_coalesce=on"
for cmd in $cmds; do
	n=$((n + 1))
	read -r nc bad excused _ served unnumbered < <(window "$cmd") ||
		fatal "$n tracing membarrier_bench $cmd failed"
	echo "# $cmd, membarrier_coalesce=on: $nc calls traced, $excused excused" \
		"(CPU 3 ran another task during them), $bad others without" \
		"their command's handler on CPU 3 inside; expsync_membarrier_call:" \
		"$served naming its op, $unnumbered of them with round 0"
	if [ "$nc" = $((3 * calls)) ] && [ "$bad" = 0 ] && [ $((2 * excused)) -le "$nc" ] &&
	   [ "$served" = "$nc" ] && [ "$unnumbered" = 0 ]; then
		echo "ok $n $cmd: every call served by a round that began after it"
	else
		echo "not ok $n $cmd: $nc calls traced (want $((3 * calls))), $bad uncovered," \
			"$excused excused (at most half), $served calls served by the" \
			"tracepoint (want all), $unnumbered with round 0 (want none)"
		fail=1
	fi
done
# The same with the knob flipped off and on without pause throughout: a
# call that read "on" may meet a round led under "off", and the other
# way round.  Each must still be served by a round that began after it,
# and none may be left asleep.
n=$((n + 1))
flips=$(mktemp)
(
	i=0
	trap 'echo $i > "$flips"; exit 0' TERM
	while :; do
		echo off > $sysctl && echo on > $sysctl && i=$((i + 2))
	done
) &
flipper=$!
read -r nc bad excused _ served _ < <(window private) || nc=
kill -TERM $flipper
wait $flipper
nflips=$(cat "$flips")
rm -f "$flips"
echo on > $sysctl || fatal "$n cannot set membarrier_coalesce=on"
echo "# private, membarrier_coalesce flipped $nflips times meanwhile: ${nc:-no} calls" \
	"traced, $excused excused, $bad others without ipi_mb on CPU 3 inside"
if [ -n "$nc" ] && [ "$nc" = $((3 * calls)) ] && [ "$bad" = 0 ] && [ "$served" = "$nc" ] &&
   [ $((2 * excused)) -le "$nc" ] && [ "${nflips:-0}" -ge 20 ]; then
	echo "ok $n private, knob flipped throughout: every call served by a round that" \
		"began after it"
else
	echo "not ok $n private, knob flipped throughout: $nc calls traced (want" \
		"$((3 * calls))), $bad uncovered, $excused excused, $nflips flips (want >= 20)," \
		"$served served by the tracepoint"
	fail=1
fi
# MEMBARRIER_CMD_FLAG_CPU takes no round, so none is shared: each of
# the three callers' calls interrupts CPU 3 itself, while CPU 3 runs
# the process.  ipi_rseq runs on CPU 3 once per call, but for calls that
# found another task there (at most the excused ones).  Were they to
# share rounds as the other commands' calls do here (0.82 .. 0.91
# rounds per call), CPU 3 would run fewer handlers than that.
n=$((n + 1))
read -r nc bad excused nh served _ < <(window rseq_cpu) ||
	fatal "$n tracing membarrier_bench rseq_cpu failed"
echo "# rseq with FLAG_CPU 3, membarrier_coalesce=on: $nc calls traced, $nh ipi_rseq" \
	"on CPU 3, $excused calls excused (CPU 3 ran another task during them);" \
	"$served expsync_membarrier_call events (a round's)"
if [ "$nc" = $((3 * calls)) ] && [ "$bad" = 0 ] && [ $((2 * excused)) -le "$nc" ] &&
   [ "$nh" -le "$nc" ] && [ "$nh" -ge $((nc - excused)) ] && [ "$served" = 0 ]; then
	echo "ok $n rseq with FLAG_CPU: no round shared, one IPI to CPU 3 per call"
else
	echo "not ok $n rseq with FLAG_CPU: $nh ipi_rseq on CPU 3 for $nc calls" \
		"(want $((3 * calls))), $excused excused (want $((nc - excused)) .. $nc runs)," \
		"$bad uncovered, $served round events (want none)"
	fail=1
fi
n=$((n + 1))
log=$(mktemp)
if HAMMERS=2 ITERS=${LITMUS_ITERS:-5000} "$here/membarrier_litmus_test" > "$log" 2>&1; then
	grep 'hammer' "$log" | sed 's/^/# /'
	echo "ok $n litmus with two hammer threads, membarrier_coalesce=on"
else
	sed 's/^/# /' "$log" | tail -n 20
	echo "not ok $n litmus with two hammer threads, membarrier_coalesce=on"
	fail=1
fi
rm -f "$log"
echo "$orig" > $sysctl
exit $fail
