#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# membarrier delivers its IPIs: counted on the receiving CPUs by the
# kernel's own tracepoints, independently of expsync.
#
# For each expedited command (private, global, sync_core, rseq) and each
# strategy (kernel.expsync.membarrier_ipi = many, single), membarrier_bench
# pins one thread to every CPU, spins on CPUs 1..N-1 and calls membarrier
# CALLS times from CPU 0, while perf stat -a -A counts, per CPU:
#  - csd:csd_function_entry filtered on the command's IPI handler
#    (ipi_mb, ipi_sync_core, ipi_rseq): the handler ran there.  Nothing
#    else runs these handlers, so on every target it is at most CALLS,
#    and at least CALLS - CALLS/50 - 2: membarrier rightly skips a CPU
#    whose spinner was preempted at that moment (its context switch
#    is the barrier), which happens a few times a run;
#  - irq_vectors:call_function_entry and call_function_single_entry: the
#    interrupt that brought it.  "many" sends one IPI to the whole mask
#    (CALL_FUNCTION_VECTOR), "single" one IPI per target CPU
#    (CALL_FUNCTION_SINGLE_VECTOR).  Other interrupts share these vectors:
#    remote wake-ups queue on call_function_single (0-call baselines here
#    gave 3 to 50 a CPU, varying run to run), perf and the exit add a few
#    on call_function.  So the strategy's vector must count between the
#    handler count - 2 (no IPI is sent when a function call is already
#    queued on the target) and the handler count + S, and under "single"
#    call_function at most S, where S is twice that vector's largest
#    count over the 0-call baselines of all commands on all targets, + 2.
# expsync's own counters (debugfs stats) must agree: each call counts
# once in membarrier_ipi_many or membarrier_ipi_single, by the strategy
# (the registration may add one), never in the other.  So must its
# tracepoint: expsync:expsync_membarrier_ipi events with the command's
# op, the strategy and nr_cpus = N-1 (every spinner targeted, and the
# caller's CPU too for sync_core; a call that finds one preempted has
# fewer) number within the handler band.
# Then, under each strategy, rseq with MEMBARRIER_CMD_FLAG_CPU naming the
# last CPU: ipi_rseq runs there within the same band, by a single-CPU IPI
# whatever the strategy, and on no other target.
# Last, under each strategy, 5 registrations (membarrier_bench with 0
# calls): each ipi_sync_rq_state on a target must have come by the
# strategy's vector, the one traced on that CPU just before it (tracefs:
# csd:csd_function_entry, irq_vectors:call_function*_entry), at most one
# by the other (a csd queued behind another IPI runs in that IPI's
# handler).
# Needs 3 CPUs: with one target, smp_call_function_many() sends a
# single-CPU IPI too.
here=$(cd "$(dirname "$0")" && pwd)
sysctl=/proc/sys/kernel/expsync/membarrier_ipi
calls=${CALLS:-200}
ncpus=$(nproc)
cmds="private global sync_core rseq"
declare -A handler=([private]=ipi_mb [global]=ipi_mb [sync_core]=ipi_sync_core [rseq]=ipi_rseq
	[rseq_cpu]=ipi_rseq)
# The op each command's expsync_membarrier_ipi event names.
declare -A op=([private]=private_expedited [global]=global_expedited
	[sync_core]=private_expedited_sync_core [rseq]=private_expedited_rseq)

. "$(dirname "$0")/expsync_lib.sh"
ktap_print_header
fatal() { echo "1..1"; echo "not ok 1 $*"; exit 1; }
# A missing precondition is a skip (exit 4).
[ "$(id -u)" = 0 ] || skip "must run as root"
[ -w $sysctl ] || skip "no $sysctl"
command -v perf >/dev/null || skip "no perf in the guest"
[ "$ncpus" -ge 3 ] || skip "needs 3 CPUs, has $ncpus"
stats=/sys/kernel/debug/expsync/stats
[ -r $stats ] || skip "no $stats (debugfs)"
stat_of() { awk -v k="$1" '$1 == k { print $2 }' $stats; }
orig=$(cat $sysctl)

# sym EVENT NAME: the number the expsync EVENT records for NAME (an op
# or a strategy), from its format file's __print_symbolic() table.
sym() {
	grep -o "{ [0-9]*, \"$2\" }" "/sys/kernel/tracing/events/expsync/$1/format" |
		head -n 1 | tr -dc 0-9
}

# count CMD CALLS [FILTER] -> per CPU "cpu handler fn single ev", one line
# each; ev: expsync_membarrier_ipi events that match FILTER (0 without)
count() {
	local out
	local -a ev=()

	[ -z "$3" ] || ev=(-e expsync:expsync_membarrier_ipi --filter "$3")
	out=$(mktemp)
	if ! perf stat -a -A -x, -o "$out" -e irq_vectors:call_function_entry \
		-e irq_vectors:call_function_single_entry \
		-e csd:csd_function_entry --filter "func.function == ${handler[$1]}" "${ev[@]}" -- \
		"$here/membarrier_bench" "$ncpus" "$2" "$1" > /dev/null; then
		rm -f "$out"
		return 1
	fi
	awk -F, '
		$1 ~ /^CPU[0-9]+$/ && $2 ~ /^[0-9]+$/ {
			c = substr($1, 4)
			if ($4 == "csd:csd_function_entry") h[c] = $2
			if ($4 == "irq_vectors:call_function_entry") fn[c] = $2
			if ($4 == "irq_vectors:call_function_single_entry") sg[c] = $2
			if ($4 == "expsync:expsync_membarrier_ipi") ev[c] = $2
			seen[c] = 1
		}
		END { for (c in seen) print c, h[c] + 0, fn[c] + 0, sg[c] + 0, ev[c] + 0 }' "$out" |
		sort -n
	rm -f "$out"
}

# reg_paths: after 5 registrations, "runs many single" over the target
# CPUs: the ipi_sync_rq_state runs, and how many followed a
# call_function, a call_function_single entry on their CPU.
tr=/sys/kernel/tracing
reg_events="csd/csd_function_entry irq_vectors/call_function_entry
	irq_vectors/call_function_single_entry"
reg_paths() {
	local e i rc=0
	echo 0 > $tr/tracing_on && echo > $tr/trace || return 1
	echo "func.function == ipi_sync_rq_state" > $tr/events/csd/csd_function_entry/filter ||
		return 1
	for e in $reg_events; do echo 1 > $tr/events/$e/enable || return 1; done
	echo 1 > $tr/tracing_on
	for i in 1 2 3 4 5; do
		"$here/membarrier_bench" "$ncpus" 0 private > /dev/null || rc=1
	done
	echo 0 > $tr/tracing_on
	for e in $reg_events; do echo 0 > $tr/events/$e/enable; done
	echo 0 > $tr/events/csd/csd_function_entry/filter
	[ $rc = 0 ] || return 1
	awk '/^#/ { next }
		{
			for (i = 1; i <= NF; i++)
				if ($i ~ /^\[[0-9]+\]$/) c = substr($i, 2, length($i) - 2) + 0
			if (c == 0) next	# the caller runs it locally
		}
		/ call_function_entry:/ { v[c] = "many" }
		/ call_function_single_entry:/ { v[c] = "single" }
		/ csd_function_entry:/ { runs++; by[v[c]]++ }
		END { print runs + 0, by["many"] + 0, by["single"] + 0 }' $tr/trace
}

# per_cpu: the counts of the target CPUs on one line
per_cpu() { awk '$1 != 0 { printf " cpu%d=%d,%d,%d", $1, $2, $3, $4 }'; }

# max COLUMN: the largest count of that column over the target CPUs (lines
# of CPU 0, the caller, left out)
max() { awk -v k="$1" '$1 != 0 && $k > m { m = $k } END { print m + 0 }'; }

ktap_set_plan $((2 * $(wc -w <<<"$cmds") + 4))
bases=
for cmd in $cmds; do
	base=$(count "$cmd" 0) || fatal "perf stat of membarrier_bench $cmd failed"
	[ "$(wc -l <<<"$base")" -eq "$ncpus" ] ||
		fatal "perf stat -A gave $(wc -l <<<"$base") CPUs, want $ncpus"
	[ "$(max 2 <<<"$base")" = 0 ] || fatal "${handler[$cmd]} ran with 0 calls: $base"
	bases+="$base"$'\n'
	echo "# $cmd: 0-call baseline on the targets (${handler[$cmd]}, call_function," \
		"call_function_single):$(per_cpu <<<"$base")"
done
sf=$((2 * $(max 3 <<<"$bases") + 2))
ss=$((2 * $(max 4 <<<"$bases") + 2))
hlo=$((calls - calls / 50 - 2))
echo "# bands: handler $hlo..$calls; vector: handler-2 .. handler+$sf (call_function)" \
	"or +$ss (call_function_single); call_function under single <= $sf"
for strategy in many single; do
	echo "$strategy" > $sysctl || fatal "cannot set membarrier_ipi=$strategy"
	strategy_nr=$(sym expsync_membarrier_ipi $strategy)
	for cmd in $cmds; do
		m0=$(stat_of membarrier_ipi_many) s0=$(stat_of membarrier_ipi_single)
		f="op == $(sym expsync_membarrier_ipi "${op[$cmd]}") && strategy == $strategy_nr"
		# sync_core's rounds run on the caller's CPU too.
		nt=$((ncpus - 1))
		[ $cmd != sync_core ] || nt=$ncpus
		got=$(count "$cmd" "$calls" "$f && nr_cpus == $nt")
		evs=$(awk '{ s += $5 } END { print s + 0 }' <<<"$got")
		dm=$(($(stat_of membarrier_ipi_many) - m0))
		ds=$(($(stat_of membarrier_ipi_single) - s0))
		if [ $strategy = many ]; then mine=$dm other=$ds; else mine=$ds other=$dm; fi
		bad=$(awk -v n="$calls" -v hlo=$hlo -v sf=$sf -v ss=$ss -v strat=$strategy \
			-v nt=$((ncpus - 1)) '
			$1 == 0 { next }	# the caller: no IPI to itself
			{
				h = $2
				v = strat == "many" ? $3 : $4
				s = strat == "many" ? sf : ss
				if (h < hlo || h > n || v < h - 2 || v > h + s ||
				    (strat == "single" && $3 > sf))
					printf " cpu%d=%d,%d,%d", $1, $2, $3, $4
				t++
			}
			END { if (t != nt) printf " targets=%d", t }' <<<"$got")
		[ "$mine" -ge "$calls" ] && [ "$mine" -le $((calls + 2)) ] && [ "$other" = 0 ] ||
			bad+=" counters: membarrier_ipi_many +$dm, membarrier_ipi_single +$ds"
		[ "$evs" -ge $hlo ] && [ "$evs" -le "$calls" ] ||
			bad+=" $evs expsync_membarrier_ipi events with $f && nr_cpus == $nt"
		echo "# membarrier_ipi=$strategy $cmd, $calls calls, per target CPU" \
			"(${handler[$cmd]}, call_function, call_function_single):" \
			"$(per_cpu <<<"$got"); counters: many +$dm, single +$ds;" \
			"$evs expsync_membarrier_ipi events naming it"
		what="membarrier_ipi=$strategy $cmd: ${handler[$cmd]} ran on each target"
		[ -n "$got" ] || bad="no counts"
		verdict "$what once a call, by the strategy's vector, counter and tracepoint" "$bad"
	done
	got=$(count rseq_cpu "$calls")
	bad=$(awk -v n="$calls" -v hlo=$hlo -v ss=$ss -v last=$((ncpus - 1)) '
		$1 == 0 { next }
		$1 == last && ($2 < hlo || $2 > n || $4 < $2 - 2 || $4 > $2 + ss) ||
		$1 != last && $2 != 0 { printf " cpu%d=%d,%d,%d", $1, $2, $3, $4 }
		$1 == last { seen = 1 }
		END { if (!seen) printf " cpu%d=no counts", last }' <<<"$got")
	echo "# membarrier_ipi=$strategy rseq FLAG_CPU to CPU $((ncpus - 1)), $calls calls:" \
		"$(per_cpu <<<"$got")"
	what="membarrier_ipi=$strategy rseq FLAG_CPU: ipi_rseq ran on CPU $((ncpus - 1))"
	verdict "$what once a call by a single-CPU IPI, on no other CPU" "$bad"
	read -r runs vmany vsingle < <(reg_paths) || runs=
	mine=$vmany other=$vsingle
	[ $strategy = many ] || mine=$vsingle other=$vmany
	echo "# membarrier_ipi=$strategy, 5 registrations: ipi_sync_rq_state ran ${runs:-?}" \
		"times on the targets, ${vmany:-?} after call_function, ${vsingle:-?} after" \
		"call_function_single"
	bad="want each ipi_sync_rq_state by the strategy's vector (at most 1 other)"
	[ -n "$runs" ] && [ "$runs" -ge $((5 * (ncpus - 1) - 2)) ] &&
		[ "$mine" -ge $((runs - 1)) ] && [ "$other" -le 1 ] && bad=
	verdict "membarrier_ipi=$strategy registration: its IPIs go by the strategy" "$bad"
done
echo "$orig" > $sysctl
ktap_finished
