#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# membarrier delivers its IPIs: counted on the receiving CPUs by the
# kernel's own tracepoints, independently of expsync.
#
# For each expedited command (private, global, sync_core, rseq) and each
# strategy (kernel.expsync.membarrier_ipi = many, single), membarrier_bench
# pins one thread to every CPU, spins on CPUs 1..N-1 and calls membarrier
# CALLS times from CPU 0, while:
#  - perf stat -a -A counts csd:csd_function_entry filtered on the
#    command's IPI handler (ipi_mb, ipi_sync_core, ipi_rseq) per CPU: the
#    handler ran there.  Nothing else runs these handlers, so on every
#    target it is at most CALLS, and at least CALLS - CALLS/50 - 2:
#    membarrier rightly skips a CPU whose spinner was preempted at that
#    moment (its context switch is the barrier), which happens a few
#    times a run;
#  - tracefs records the same csd_function_entry events and every
#    irq_vectors:call_function_entry and call_function_single_entry, so
#    each handler run is put down to the vector entered just before it on
#    its CPU: "many" sends one IPI to the whole mask (CALL_FUNCTION_VECTOR),
#    "single" one IPI per target CPU (CALL_FUNCTION_SINGLE_VECTOR).  The
#    traced runs must equal perf's count, and on each target all but 2
#    must have come by the strategy's vector, at most 2 by the other: a
#    csd queued while a remote wake-up's IPI is pending sends no IPI of
#    its own and runs in that one.  Wake-ups and perf enter the same
#    vectors 3 to 70 times a CPU a run, varying run to run, so the
#    attribution, not a count of the vectors, is what is checked.
# expsync's own counters (debugfs stats) must agree: each call counts
# once in membarrier_ipi_many or membarrier_ipi_single, by the strategy
# (the registration may add one), never in the other.  So must its
# tracepoint: expsync:expsync_membarrier_ipi events with the command's
# op, the strategy and nr_cpus = N-1 (every spinner targeted, and the
# caller's CPU too for sync_core; a call that finds one preempted has
# fewer) number within the handler band.
# Then, under each strategy, rseq with MEMBARRIER_CMD_FLAG_CPU naming the
# last CPU: ipi_rseq runs there within the same band, on no other CPU, and
# is sent by a single-CPU IPI whatever the strategy.  That is judged where
# the IPI is sent: csd:csd_queue_cpu records each csd queued for ipi_rseq,
# its target and its call site; every one must target the last CPU and
# come from the single-CPU path (its call site in smp_call_function_single
# or generic_exec_single, not in a caller of smp_call_function_many_cond),
# and each must run there once.  The
# receiving vector is printed but not judged: with one target, a csd
# that finds an IPI already on its way to the CPU runs in that one,
# whichever vector it came by.
# Last, under each strategy, 5 registrations (membarrier_bench with 0
# calls): each ipi_sync_rq_state on a target must have come by the
# strategy's vector, at most one by the other.
# Then the knob flips between many and single as fast as a shell on the
# caller's CPU writes it, while PRIVATE_EXPEDITED is called: each call
# must send by one strategy whole, the one its expsync_membarrier_ipi
# event names.  The caller's ipi_mb csds between two such events (they
# follow each call's sends) must all come from the single-CPU path or
# all from smp_call_function_many(), as csd_queue_cpu's call site
# shows, and number nr_cpus; both strategies must have been used.
# (The registration's event, with its own op, is not a call's.)
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

# traced FUNC CMD...: runs CMD while tracefs records FUNC's
# csd_queue_cpu and csd_function_entry and the entries of both
# call-function vectors (trace_run); then prints per CPU that FUNC ran on
# or was queued for "cpu runs many single queued by_single": its runs
# there, how many came right after a call_function, a
# call_function_single entry on that CPU, the csds queued for it, and
# how many of those the single-CPU path queued.
# single_path: csd_queue_cpu's call site (__smp_call_single_queue's
# caller) when the single-CPU path queued the csd, not
# smp_call_function_many_cond.
single_path=' callsite=(smp_call_function_single|generic_exec_single)[+]'
traced() {
	local func=$1 log rc=0

	shift
	log=$(mktemp)
	if trace_run "$log" "csd/csd_queue_cpu:func.function == $func" \
		"csd/csd_function_entry:func.function == $func" \
		irq_vectors/call_function_entry irq_vectors/call_function_single_entry -- "$@"; then
		awk -v single="$single_path" '/^#/ { next }
			{
				for (i = 1; i <= NF; i++)
					if ($i ~ /^\[[0-9]+\]$/)
						c = substr($i, 2, length($i) - 2) + 0
			}
			/ call_function_entry:/ { v[c] = "many" }
			/ call_function_single_entry:/ { v[c] = "single" }
			/ csd_function_entry:/ { runs[c]++; by[c, v[c]]++ }
			/ csd_queue_cpu:/ {
				for (i = 1; i <= NF; i++)
					if ($i ~ /^cpu=[0-9]+$/) t = substr($i, 5) + 0
				runs[t] += 0; queued[t]++
				if ($0 ~ single) by_single[t]++
			}
			END {
				for (c in runs)
					print c, runs[c], by[c, "many"] + 0, by[c, "single"] + 0,
						queued[c] + 0, by_single[c] + 0
			}' "$log" | sort -n
	else
		rc=1
	fi
	rm -f "$log"
	return $rc
}

# count CMD CALLS [FILTER] -> per CPU "cpu handler ev runs many single
# queued by_single", one line each: perf's count of the handler's runs, of
# the expsync_membarrier_ipi events that match FILTER (0 without), and
# traced()'s figures.
count() {
	local out att
	local -a ev=()

	[ -z "$3" ] || ev=(-e expsync:expsync_membarrier_ipi --filter "$3")
	out=$(mktemp) att=$(mktemp)
	if ! traced "${handler[$1]}" perf stat -a -A -x, -o "$out" \
		-e csd:csd_function_entry --filter "func.function == ${handler[$1]}" "${ev[@]}" -- \
		"$here/membarrier_bench" "$ncpus" "$2" "$1" > "$att"; then
		rm -f "$out" "$att"
		return 1
	fi
	awk -F'[, ]' '
		FILENAME != ARGV[1] { t[$1] = $2 " " $3 " " $4 " " $5 " " $6; next }
		$1 ~ /^CPU[0-9]+$/ && $2 ~ /^[0-9]+$/ {
			c = substr($1, 4)
			if ($4 == "csd:csd_function_entry") h[c] = $2
			if ($4 == "expsync:expsync_membarrier_ipi") ev[c] = $2
			seen[c] = 1
		}
		END {
			for (c in seen)
				print c, h[c] + 0, ev[c] + 0, (c in t) ? t[c] : "0 0 0 0 0"
		}' "$out" "$att" | sort -n
	rm -f "$out" "$att"
}

# per_cpu: the counts of the target CPUs on one line
per_cpu() { awk '$1 != 0 { printf " cpu%d=%d,%d,%d,%d", $1, $2, $4, $5, $6 }'; }

# reg_bench: 5 registrations, as one command (trace_run runs it under
# timeout)
reg_bench=(bash -c 'for i in 1 2 3 4 5; do "$0" "$1" 0 private || exit 1; done'
	"$here/membarrier_bench" "$ncpus")

ktap_set_plan $((2 * $(wc -w <<<"$cmds") + 5))
for cmd in $cmds; do
	base=$(count "$cmd" 0) || fatal "perf stat of membarrier_bench $cmd failed"
	[ "$(wc -l <<<"$base")" -eq "$ncpus" ] ||
		fatal "perf stat -A gave $(wc -l <<<"$base") CPUs, want $ncpus"
	awk '$2 || $4 { exit 1 }' <<<"$base" || fatal "${handler[$cmd]} ran with 0 calls: $base"
done
hlo=$((calls - calls / 50 - 2))
echo "# per target CPU: handler runs (perf), traced runs, by call_function," \
	"by call_function_single; band $hlo..$calls, at most 2 by the other vector"
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
		evs=$(awk '{ s += $3 } END { print s + 0 }' <<<"$got")
		dm=$(($(stat_of membarrier_ipi_many) - m0))
		ds=$(($(stat_of membarrier_ipi_single) - s0))
		if [ $strategy = many ]; then mine=$dm other=$ds; else mine=$ds other=$dm; fi
		bad=$(awk -v n="$calls" -v hlo=$hlo -v strat=$strategy -v nt=$((ncpus - 1)) '
			$1 == 0 { next }	# the caller: no IPI to itself
			{
				mine = strat == "many" ? $5 : $6
				other = strat == "many" ? $6 : $5
				if ($2 < hlo || $2 > n || $4 != $2 || mine < $2 - 2 || other > 2)
					printf " cpu%d=%d,%d,%d,%d", $1, $2, $4, $5, $6
				t++
			}
			END { if (t != nt) printf " targets=%d", t }' <<<"$got")
		[ "$mine" -ge "$calls" ] && [ "$mine" -le $((calls + 2)) ] && [ "$other" = 0 ] ||
			bad+=" counters: membarrier_ipi_many +$dm, membarrier_ipi_single +$ds"
		[ "$evs" -ge $hlo ] && [ "$evs" -le "$calls" ] ||
			bad+=" $evs expsync_membarrier_ipi events with $f && nr_cpus == $nt"
		echo "# membarrier_ipi=$strategy $cmd, $calls calls:$(per_cpu <<<"$got");" \
			"counters: many +$dm, single +$ds;" \
			"$evs expsync_membarrier_ipi events naming it"
		what="membarrier_ipi=$strategy $cmd: ${handler[$cmd]} ran on each target"
		[ -n "$got" ] || bad="no counts"
		verdict "$what once a call, by the strategy's vector, counter and tracepoint" "$bad"
	done
	got=$(count rseq_cpu "$calls")
	bad=$(awk -v n="$calls" -v hlo=$hlo -v last=$((ncpus - 1)) '
		$1 == last && ($2 < hlo || $2 > n || $4 != $2 || $7 != $2 || $8 != $7) ||
		$1 != last && ($2 != 0 || $7 != 0) {
			printf " cpu%d=%d,%d,%d,%d,%d,%d", $1, $2, $4, $5, $6, $7, $8
		}
		$1 == last { seen = 1 }
		END { if (!seen) printf " cpu%d=no counts", last }' <<<"$got")
	echo "# membarrier_ipi=$strategy rseq FLAG_CPU to CPU $((ncpus - 1)), $calls calls" \
		"(runs, traced, by call_function, by call_function_single, queued, queued by" \
		"the single-CPU path):" \
		"$(awk '{ printf " cpu%d=%d,%d,%d,%d,%d,%d", $1, $2, $4, $5, $6, $7, $8 }' \
			<<<"$got")"
	what="membarrier_ipi=$strategy rseq FLAG_CPU: ipi_rseq ran on CPU $((ncpus - 1))"
	verdict "$what once a call, queued by the single-CPU path, on no other CPU" "$bad"
	read -r runs vmany vsingle < <(traced ipi_sync_rq_state "${reg_bench[@]}" |
		awk '$1 != 0 { r += $2; m += $3; s += $4 }
			END { print r + 0, m + 0, s + 0 }') || runs=
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

# flip_calls: 5 x CALLS private calls beside a loop on CPU 0 that writes
# many and single to the knob in turn; prints "calls_many calls_single
# mixed flips" from the caller's csd_queue_cpu and expsync_membarrier_ipi
# events (CPU 0's, in the caller's order).
flip_calls() {
	local flipper log o rc=0

	log=$(mktemp) o=$(mktemp)
	taskset -c 0 bash -c "n=0; trap 'echo \$n > $o; exit' TERM
		while :; do echo many > $sysctl; echo single > $sysctl; n=\$((n + 2)); done" &
	flipper=$!
	# Until it flips (a bash start takes a while under TCG).
	for _ in $(seq 100); do
		[ "$(cat $sysctl)" = many ] && break
		sleep 0.05
	done
	trace_run "$log" "csd/csd_queue_cpu:func.function == ipi_mb" \
		expsync/expsync_membarrier_ipi -- \
		"$here/membarrier_bench" "$ncpus" $((5 * calls)) private || rc=1
	kill -TERM $flipper && wait $flipper
	[ $rc = 0 ] && awk -v flips="$(cat "$o")" -v single="$single_path" '
		/^#/ || !/\[000\]/ { next }
		/ csd_queue_cpu:/ {
			if ($0 ~ single) s++
			else m++
		}
		/ expsync_membarrier_ipi:/ && / op=private_expedited / {
			st = $0; sub(/.*strategy=/, "", st); sub(/ .*/, "", st)
			nr = $0; sub(/.*nr_cpus=/, "", nr); sub(/ .*/, "", nr)
			if (st == "single" && m == 0 && s == nr) cs++
			else if (st == "many" && s == 0 && m == nr) cm++
			else if (bad++ < 3)
				printf "# call %d: %s, nr_cpus=%d, %d csds by single, %d by many\n",
					cm + cs + bad, st, nr, s, m > "/dev/stderr"
			s = m = 0
		}
		END { print cm + 0, cs + 0, bad + 0, flips + 0 }' "$log"
	rm -f "$log" "$o"
	return $rc
}
read -r cm cs mixed flips < <(flip_calls) || cm=
echo "# $((5 * calls)) calls while the knob flipped ${flips:-?} times: ${cm:-?} sent by many," \
	"${cs:-?} by single, ${mixed:-?} by neither whole or not as their event says"
bad="want every call by one strategy whole, and both used"
[ -n "$cm" ] && [ "$mixed" = 0 ] && [ "$cm" -gt 0 ] && [ "$cs" -gt 0 ] &&
	[ $((cm + cs + mixed)) = $((5 * calls)) ] && bad=
verdict "membarrier_ipi flipping during calls: each call uses one strategy whole" "$bad"
echo "$orig" > $sysctl
ktap_finished
