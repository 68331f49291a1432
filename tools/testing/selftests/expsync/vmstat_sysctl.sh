#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kernel.expsync.vmstat_drain_cpus: lists round-trip, bad lists get
# EINVAL and change nothing.
# kernel.expsync.vmstat_drain_now: bad writes are refused, reads are not
# allowed, and on a quiet system a drain leaves no CPU with differentials
# and every global zone counter equal to the sum over the zones
# (/sys/kernel/debug/expsync/vmstat_last_drain, computed by the kernel
# right after the folds).
# The fold counters (vmstat_fold_<reason>, vmstat_items_folded) agree
# with the expsync_vmstat_fold tracepoint, reason by reason, over a load
# that folds for three reasons.
# With VMSTAT_SYSCTL_OFFLINE=1 (a boot where CPU 1 can go offline: not
# nohz_full, which refuses with EBUSY), vmstat_drain=direct: a CPU that
# joins the set while offline gets stat_threshold 0 in every zone when
# it comes online.
offline_test=${VMSTAT_SYSCTL_OFFLINE:-0}
f=/proc/sys/kernel/expsync/vmstat_drain_now

# put FILE TEXT: one write() of exactly TEXT, even an empty one (a shell
# redirection writes nothing for ""); fails as the write fails.
put() { "$(dirname "$0")/vmstat_isolation" put "$1" "$2" 2>/dev/null; }
last=/sys/kernel/debug/expsync/vmstat_last_drain

. "$(dirname "$0")/expsync_lib.sh"
echo "TAP version 13"
# A missing precondition is a skip (exit 4).
[ "$(id -u)" = 0 ] || skip "must run as root"
[ -e $f ] || skip "no $f"
[ -r $last ] || skip "no $last (CONFIG_EXPSYNC_VMSTAT_TEST)"
echo "1..$((6 + offline_test))"
fail=0

cpus=/proc/sys/kernel/expsync/vmstat_drain_cpus
orig=$(cat $cpus)
bad=0
# The limit is on the value: 4094 characters pass, with or without
# echo's newline; 4095 do not (test 2).
at_max=$(printf '0,%.0s' $(seq 1 2046))00
for w in "$at_max" "$at_max"$'\n'; do
	put $cpus "$w" && [ "$(cat $cpus)" = 0 ] ||
		{ echo "# a list of ${#w} bytes was refused or misread"; bad=1; }
done
for w in 0 "" 0-1 "0,1" 1; do
	printf '%s\n' "$w" > $cpus || bad=1
	got=$(cat $cpus)
	want=$w; [ "$w" = "0,1" ] && want=0-1
	[ "$got" = "$want" ] || { echo "# wrote $w, read $got"; bad=1; }
done
[ $bad = 0 ] && echo "ok 1 vmstat_drain_cpus: lists round-trip, empty and 4094-byte ones too" ||
	{ echo "not ok 1 vmstat_drain_cpus: lists round-trip, empty and 4094-byte ones too"
	  fail=1; }
bad=0
# A valid list, but longer than the limit (4094 characters with few CPUs).
for w in "abc" "1-" "-1" "9999" "0-1,x" "0 1" "0-1 " "${at_max}0"; do
	if put $cpus "$w"; then
		echo "# '$w' was accepted"; bad=1
	fi
	[ "$(cat $cpus)" = 1 ] || { echo "# '$w' changed the value"; bad=1; }
done
[ $bad = 0 ] && echo "ok 2 vmstat_drain_cpus: bad lists get EINVAL, value unchanged" ||
	{ echo "not ok 2 vmstat_drain_cpus: bad lists get EINVAL, value unchanged"; fail=1; }
printf '%s\n' "$orig" > $cpus

bad=0
for w in 0 2 11 "1x" " 1" "yes" ""; do
	if put $f "$w"; then
		echo "# write '$w' was accepted"; bad=1
	fi
done
if cat $f >/dev/null 2>&1; then echo "# $f is readable"; bad=1; fi
[ $bad = 0 ] && echo "ok 3 vmstat_drain_now: bad writes and reads are refused" ||
	{ echo "not ok 3 vmstat_drain_now: bad writes and reads are refused"; fail=1; }

# Each try first leaves differentials on every CPU (a shmem file written
# and removed from each CPU), then drains.  The in-kernel check runs
# right after the folds, but any CPU's work after its fold (timers,
# kworkers) may change a counter before it: a try is exact with some
# probability p, independently.  Measured under QEMU TCG, p was 0.6 to
# 1.  With 20 tries and at least 3 exact ones required, a drain with
# p >= 0.5 fails with probability 0.0002 (binomial), and a drain that
# leaves a CPU unfolded in 95% of tries (p = 0.05) passes with
# probability 0.075.  Every try must have had differentials to fold: a
# CPU that goes idle after its write folds them itself (the tick-stop
# fold), so a try dirties again, up to 5 times, until some are left;
# test 5 counts the fold work itself exactly.
ncpus=$(grep -c '^processor' /proc/cpuinfo)
dirty() {
	local c
	for c in $(seq 0 $((ncpus - 1))); do
		taskset -c "$c" dd if=/dev/zero of=/dev/shm/vmstat_sysctl.$c bs=64k count=4 \
			2>/dev/null
		rm -f /dev/shm/vmstat_sysctl.$c
	done
}
# This shell and its drains stay on CPU 0, so that no exiting grep or
# echo holds differentials on another CPU at the check.
taskset -pc 0 $$ > /dev/null
tries=20 exact=0 had=0
for try in $(seq 1 $tries); do
	for ((d = 0; d < 5; d++)); do
		dirty
		before=$(awk '$4 > 0 { n++ } END { print n + 0 }' \
			/sys/kernel/debug/expsync/vmstat_diffs)
		[ "${before:-0}" -gt 0 ] && break
	done
	[ "${before:-0}" -gt 0 ] && had=$((had + 1))
	echo 1 > $f || break
	grep -qx "cpus_with_diffs 0" $last && grep -qx "sum_mismatches 0" $last &&
		exact=$((exact + 1))
done
sed 's/^/# /' $last
echo "# $exact of $tries drains left every counter exact; $had of $tries had differentials before"
what="drains of real differentials leave every counter exact ($exact of $tries, at least 3)"
[ $exact -ge 3 ] && [ $had = $tries ] && echo "ok 4 $what" || { echo "not ok 4 $what"; fail=1; }

# Every drain folds on every online CPU it does not skip: count the fold
# work items executed, with the kernel's workqueue tracepoint, over 5
# drains, against the drains' own skip counter.  A CPU of the set that
# idles with no differential is skipped (work queued there would run
# when it wakes, maybe for its user task): with such a CPU, at least one
# of the 5 drains skips it.
stat_of() { awk -v k="$1" '$1 == k { print $2 }' /sys/kernel/debug/expsync/stats; }
if command -v perf >/dev/null; then
	policy=$(cat /proc/sys/kernel/expsync/vmstat_drain)
	set=$(cat $cpus)
	online=$(grep -c '^processor' /proc/cpuinfo)
	# With no CPU in the set, the last one spins: a busy CPU outside
	# the set, not this shell's, gets its fold as work too.
	spin=
	if [ "$online" -gt 1 ] && { [ "$policy" = periodic ] || [ -z "$set" ]; }; then
		taskset -c $((online - 1)) sh -c 'while :; do :; done' &
		spin=$!
	fi
	sk0=$(stat_of vmstat_drain_now_skipped)
	out=$(mktemp)
	perf stat -a -x, -o "$out" -e workqueue:workqueue_execute_start \
		--filter 'function.function == expsync_vmstat_fold_work' -- \
		sh -c "for i in 1 2 3 4 5; do echo 1 > $f; done"
	works=$(awk -F, '$3 == "workqueue:workqueue_execute_start" { print $1 }' "$out")
	rm -f "$out"
	skipped=$(( $(stat_of vmstat_drain_now_skipped) - sk0 ))
	[ -z "$spin" ] || { kill "$spin"; wait "$spin" 2>/dev/null; }
	ns=$(awk '$1 == "ns" { print $2 }' $last)
	echo "# 5 drains: ${works:-?} fold work items and $skipped skips on $online online CPUs" \
		"(vmstat_drain=$policy, set '$set'${spin:+, CPU $((online - 1)) busy});" \
		"last took ${ns} ns"
	# This shell runs on CPU 0: another CPU of the set idles.
	idle_set=0
	if [ "$policy" != periodic ] && [ -n "$set" ] && [ "$set" != 0 ]; then
		idle_set=1
	fi
	what="drain-now folds on every online CPU it does not skip"
	[ $idle_set = 1 ] && what+=", and skips the idle CPU of the set with nothing to fold"
	[ "${works:-x}" = $((5 * online - skipped)) ] &&
		{ [ $idle_set = 0 ] || [ "$skipped" -ge 1 ]; } &&
		echo "ok 5 $what" || { echo "not ok 5 $what"; fail=1; }
else
	echo "not ok 5 drain-now folds on every online CPU: no perf in the guest"; fail=1
fi

online1=/sys/devices/system/cpu/cpu1/online
policy=/proc/sys/kernel/expsync/vmstat_drain

# Folds for three reasons, with CPU 1 in the set under user-return: a
# task on CPU 1 that maps pages returns to user mode with differentials
# (user-return), CPU 0's vmstat_update folds its own (work; 3 s is three
# of its 1 s intervals), and drains fold everywhere (drain-now).  Where
# CPU 1 is not nohz_full, its tick runs while the task does and first
# stops when CPU 1 idles after the task's exit, which changed counters
# with no return to user mode: a fold there (idle) must be seen too.
# The counters' growth must equal what the tracepoint saw for each
# reason, and the items its items; each of those reasons must have been
# seen.  Other CPUs keep folding meanwhile, so each read of the counters
# is bracketed by trace markers: a fold traced inside a bracket may be on
# either side of the read, and the counts must lie between the folds
# surely between the reads and those possibly between them.
tr=/sys/kernel/tracing
tf=$tr/events/expsync/expsync_vmstat_fold
snap() {
	echo "$1" > $tr/trace_marker
	cat /sys/kernel/debug/expsync/stats
	echo "$2" > $tr/trace_marker
}
# counted BEFORE AFTER: growth of each fold counter between two snaps.
counted() {
	awk 'NR == FNR { a[$1] = $2; next } { d[$1] = $2 - a[$1] }
		END { printf "user_return=%d idle=%d work=%d drain_now=%d items=%d",
			d["vmstat_fold_user_return"], d["vmstat_fold_idle"],
			d["vmstat_fold_work"], d["vmstat_fold_drain_now"],
			d["vmstat_items_folded"] }' <(echo "$1") <(echo "$2")
}
if [ -d $tf ]; then
	orig_policy=$(cat $policy) orig_cpus=$(cat $cpus)
	echo 1 > $cpus && echo user-return > $policy
	# One clock for every CPU's events and the markers.
	echo global > $tr/trace_clock
	echo > $tr/trace
	echo 1 > $tf/enable
	s0=$(snap expsync_a expsync_b)
	taskset -c 1 dd if=/dev/zero of=/dev/shm/vmstat_sysctl.fold bs=64k count=16 2>/dev/null
	rm -f /dev/shm/vmstat_sysctl.fold
	dirty
	sleep 3
	for i in 1 2 3; do echo 1 > $f; done
	s1=$(snap expsync_c expsync_d)
	echo 0 > $tf/enable
	echo "$orig_cpus" > $cpus && echo "$orig_policy" > $policy
	got=$(counted "$s0" "$s1")
	# Per reason, "lo..hi" folds (and items) between the reads.
	seen=$(awk '/LOST/ { lost = 1 }
		/tracing_mark_write: expsync_[abcd]/ { m = substr($NF, 9); next }
		m != "" && m != "d" && / expsync_vmstat_fold: / &&
		match($0, /why=[a-z-]+ items=[0-9]+/) {
			split(substr($0, RSTART, RLENGTH), w, /[= ]/)
			gsub(/-/, "_", w[2])
			hi[w[2]]++; hi["items"] += w[4]
			if (m == "b") { lo[w[2]]++; lo["items"] += w[4] }
		}
		END {
			if (lost) exit 1
			n = split("user_return idle work drain_now items", r, " ")
			for (i = 1; i <= n; i++)
				printf "%s%s=%d..%d", (i > 1 ? " " : ""), r[i], lo[r[i]], hi[r[i]]
		}' $tr/trace) || seen="lost events"
	echo > $tr/trace
	echo local > $tr/trace_clock
	echo "# folds traced between the reads: $seen; counted: $got"
	must="user_return|work|drain_now"
	cpu_in_list "$(cat /sys/devices/system/cpu/nohz_full 2>/dev/null)" 1 || must+="|idle"
	ok=$([ "$seen" != "lost events" ] && awk -v s="$seen" -v g="$got" -v m="^($must)\$" 'BEGIN {
		n = split(g, gv, " "); split(s, sv, " ")
		for (i = 1; i <= n; i++) {
			split(gv[i], c, "="); split(sv[i], t, /[=.]+/)
			if (c[2] < t[2] || c[2] > t[3]) bad = 1
			if (c[1] ~ m && c[2] == 0) bad = 1
		}
		print bad ? 0 : 1 }')
	what="the fold counters agree with the tracepoint, reason by reason"
	if [ "$ok" = 1 ]; then
		echo "ok 6 $what"
	else
		echo "not ok 6 $what (and ${must//|/, } each seen)"
		fail=1
	fi
else
	echo "not ok 6 the fold counters agree with the tracepoint: no $tf"; fail=1
fi

if [ "$offline_test" = 1 ]; then
	orig_policy=$(cat $policy) orig_cpus=$(cat $cpus)
	echo periodic > $policy
	off=$(echo 0 2>&1 > $online1 && cat $online1)
	echo 1 > $cpus && echo direct > $policy
	echo 1 > $online1
	thr=$(thresholds_of 1) thr0=$(thresholds_of 0)
	echo "$orig_cpus" > $cpus && echo "$orig_policy" > $policy
	echo "# CPU 1 online=${off:-?} while it joined direct, then online: stat_threshold" \
		"of CPU 1: ${thr:-?}; of CPU 0: ${thr0:-?}"
	what="direct: CPU 1 joined offline, has stat_threshold 0 in every zone once online"
	if [ "$off" = 0 ] && [ -n "$thr" ] && ! grep -qv '=0$' <<<"${thr// /$'\n'}" &&
	   grep -qv '=0$' <<<"${thr0// /$'\n'}"; then
		echo "ok 7 $what"
	else
		echo "not ok 7 $what"
		fail=1
	fi
fi
exit $fail
