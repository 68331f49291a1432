#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Hostile input and faults against every expsync knob at once:
#  1. trinity fuzzes membarrier, mmap, munmap, madvise and mprotect for
#     FUZZ_SECONDS (default 60 x EXPSYNC_TIME_SCALE; longer until it ran
#     5000 syscalls) while a flipper writes every word of
#     every kernel.expsync knob, in a loop;
#  2. CPU hotplug: CPU 1 goes offline and online HOTPLUG_ROUNDS times
#     (default 20) while a munmap load frees page tables (table_free=rcu,
#     per-CPU batches pending) and CPU 1 is in the vmstat_drain set under
#     user-return.
# Then: no page-table batch is left waiting, a vmstat_drain_now leaves
# no CPU with differentials, and no counter of the stats file went down
# in samples taken every 0.1 s through 1 and 2 (the gauge
# table_free_waiting excepted): a counter summed over the online CPUs
# only would drop as CPU 1 goes offline.  A kernel splat (lockdep, KASAN,
# DEBUG_VM, ...) fails the VM run that runs this.
here=$(cd "$(dirname "$0")" && pwd)
sysctl=/proc/sys/kernel/expsync
stats=/sys/kernel/debug/expsync/stats
rounds=${HOTPLUG_ROUNDS:-20}
online=/sys/devices/system/cpu/cpu1/online

echo "TAP version 13"
fatal() { echo "1..1"; echo "not ok 1 $*"; exit 1; }
scale=${EXPSYNC_TIME_SCALE:-1}
[[ $scale =~ ^[1-9][0-9]?$|^100$ ]] || fatal "EXPSYNC_TIME_SCALE=$scale: not a number from 1 to 100"
fuzz=${FUZZ_SECONDS:-$((60 * scale))}
. "$(dirname "$0")/expsync_lib.sh"
# A missing precondition is a skip (exit 4).
[ "$(id -u)" = 0 ] || skip "must run as root"
[ -d $sysctl ] || skip "no $sysctl"
command -v trinity >/dev/null || skip "no trinity in the guest (Debian package trinity)"
[ -w $online ] || skip "CPU 1 cannot be offlined (no $online)"
stat_of() { awk -v k="$1" '$1 == k { print $2 }' $stats; }
echo "1..5"
fail=0

# Every word of every word knob, from the kernel's own table.
declare -A saved
words=()
while read -r name rest; do
	name=${name%:}
	case "$rest" in "<"*) continue ;; esac
	saved[$name]=$(cat $sysctl/$name)
	for w in $rest; do
		w=${w#[}; w=${w%]}
		words+=("$name=$w")
	done
done < /sys/kernel/debug/expsync/knobs

flipper() {
	local i=0 kw
	while :; do
		kw=${words[$((i % ${#words[@]}))]}
		echo "${kw#*=}" > "$sysctl/${kw%%=*}" 2>/dev/null
		[ $((i % 7)) = 0 ] && echo "0-1" > $sysctl/vmstat_drain_cpus 2>/dev/null
		[ $((i % 11)) = 0 ] && echo 1 > $sysctl/vmstat_drain_now 2>/dev/null
		[ $((i % 13)) = 0 ] && echo 1 > $sysctl/vmstat_drain_cpus 2>/dev/null
		i=$((i + 1))
		sleep 0.01
	done
}

restore() {
	local k
	for k in "${!saved[@]}"; do
		echo "${saved[$k]}" > "$sysctl/$k"
	done
}

# 1. trinity + the flipper.  trinity drops to nobody (-X: the syscalls
# fuzzed need no privilege, and it skips its as-root countdown) and runs
# in rounds of 5000 syscalls for FUZZ seconds, and on until a round
# finished (min_calls), up to 4 times as long: a loaded host slows
# trinity down (one fresh-clone run finished no round in 60 s).
# Smaller rounds do not help: each start of trinity costs about 25 s
# here (1000-syscall rounds took 206 s for 5000 syscalls).  A round that
# ends early (trinity itself can die of a fuzzed munmap of its own
# memory) is counted and the next one starts: the kernel's verdict is
# the taint flags and the console, which the VM run checks for splats.
min_calls=5000
samples=$(mktemp)
while cat $stats && echo --; do sleep 0.1; done > "$samples" 2>/dev/null & spid=$!
dir=$(mktemp -d)
chmod 777 "$dir"
flipper & fpid=$!
start=$(date +%s)
end=$((start + fuzz)) hard_end=$((start + 4 * fuzz))
calls=0 runs=0 crashes=0
while now=$(date +%s); [ "$now" -lt $end ] ||
	{ [ $calls -lt $min_calls ] && [ "$now" -lt $hard_end ]; }; do
	(cd "$dir" && timeout -k 5 $((hard_end - now + 1)) \
		trinity -X -q -l off -C 4 -N 5000 \
		-c membarrier -c mmap -c munmap -c madvise -c mprotect) > "$dir/trinity.log" 2>&1
	trc=$?
	runs=$((runs + 1))
	n=$(sed -n 's/.*Ran \([0-9]*\) syscalls.*/\1/p' "$dir/trinity.log" | tail -n1)
	calls=$((calls + ${n:-0}))
	case $trc in
	0|124) ;;
	*) crashes=$((crashes + 1)); tail -n 2 "$dir/trinity.log" | sed 's/^/# /' ;;
	esac
done
kill $fpid; wait $fpid 2>/dev/null
restore
tainted=$(cat /proc/sys/kernel/tainted)
took=$(($(date +%s) - start))
echo "# trinity: ${took}s, $runs rounds, $calls syscalls in finished rounds," \
	"$crashes rounds ended early"
if [ "$calls" -ge $min_calls ] && [ "$tainted" = 0 ]; then
	echo "ok 1 trinity ${took}s ($calls syscalls) on membarrier/mmap/munmap/madvise/mprotect" \
		"while ${#words[@]} knob words flipped: kernel not tainted"
else
	echo "not ok 1 trinity run ($calls of $min_calls syscalls in finished rounds" \
		"in ${took}s, tainted $tainted)"
	fail=1
fi
rm -rf "$dir"

# 2. hotplug under page-table freeing and an active vmstat set.
echo rcu > $sysctl/table_free
echo percpu > $sysctl/table_free_rcu_batch
echo 1 > $sysctl/vmstat_drain_cpus
echo user-return > $sysctl/vmstat_drain
taskset -c 1 "$here/table_free_bench" munmap 1000000 > /dev/null 2>&1 & lpid=$!
ok=1
for i in $(seq 1 "$rounds"); do
	sleep 0.1
	echo 0 > $online || ok=0
	sleep 0.05
	echo 1 > $online || ok=0
done
kill $lpid; wait $lpid 2>/dev/null
[ $ok = 1 ] && echo "ok 2 CPU 1 offline/online x$rounds under munmap and user-return" ||
	{ echo "not ok 2 CPU 1 offline/online x$rounds failed"; fail=1; }
kill $spid; wait $spid 2>/dev/null

# 3. No table lost: every table handed to the batches was freed.
waiting=
for i in $(seq 1 100); do
	waiting=$(stat_of table_free_waiting)
	[ "$waiting" = 0 ] && break
	sleep 0.02
done
[ "$waiting" = 0 ] && echo "ok 3 no page-table page left waiting after hotplug" ||
	{ echo "not ok 3 $waiting page-table pages still waiting 2 s after the load"; fail=1; }

# 4. No stale counters: drains leave every CPU's differentials at 0.
# The probe checks every CPU right after the drain's last fold, so this
# shell and its children keep off CPU 1: a grep exiting there holds
# differentials at that instant.  Other work after a fold still can, so
# each drain is exact with some probability p: as in vmstat_sysctl.sh,
# at least 3 of 20 drains must be exact (fails with probability 0.0002
# when p >= 0.5; passes with probability 0.075 when p = 0.05).
taskset -pc 0 $$ > /dev/null
exact=0
for i in $(seq 1 20); do
	echo 1 > $sysctl/vmstat_drain_now; rc=$?
	last=$(tr '\n' ' ' < /sys/kernel/debug/expsync/vmstat_last_drain)
	[[ " $last" = *" cpus_with_diffs 0 "* ]] && exact=$((exact + 1))
	echo "# drain $i: exit $rc; $last; $(tr '\n' ',' < /sys/kernel/debug/expsync/vmstat_diffs)"
done
if [ $exact -ge 3 ]; then
	echo "ok 4 counters exact after $exact of 20 drains (at least 3)"
else
	echo "not ok 4 counters exact after only $exact of 20 drains (at least 3): $last"
	fail=1
fi

# 5. Counters only grow.  A sample counts once its "--" is read: the
# last one may have been cut short by the kill.  Under trinity a sample
# can take a second or more, so at least 10 are asked for.
read -r nsamples drops < <(awk '
	/^--$/ {
		for (k in cur) {
			if ((k in v) && cur[k] < v[k])
				d = d sprintf(" %s %s->%s", k, v[k], cur[k])
			v[k] = cur[k]
		}
		delete cur
		n++
		next
	}
	$1 != "table_free_waiting" && $2 ~ /^-?[0-9]+$/ { cur[$1] = $2 + 0 }
	END { print n + 0, d }' "$samples")
rm -f "$samples"
if [ "$nsamples" -ge 10 ] && [ -z "$drops" ]; then
	echo "ok 5 no counter went down in $nsamples samples through fuzzing and hotplug"
else
	echo "not ok 5 counters went down:${drops:- none}, in $nsamples samples (want >= 10)"
	fail=1
fi
restore
exit $fail
