#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Real programs from Debian, on either kernel (make run boots both), per
# run (lib.sh record):
#  - stress-ng bogo-ops per second of guest time (its YAML
#    bogo-ops-per-second-real-time), on CPUs 0-2: --mmap and --vm
#    (variants: table_free immediate, rcu+percpu, rcu+gather), "6.12" on
#    the CONFIG_EXPSYNC=n kernel;
#  - with PROGRAMS_PART=membarrier (make run boots both kernels once
#    more for it, 4 vCPUs, -icount, no nohz_full): stress-ng
#    --membarrier on every CPU (variants: membarrier_coalesce off, on).
#    Its stressor needs MEMBARRIER_CMD_GLOBAL, which a nohz_full kernel
#    refuses, so in the other boots it would be skipped.  Each of its
#    loops calls GLOBAL (synchronize_rcu()) beside the expedited
#    commands, which expsync serves, so a grace period weighs in every
#    bogo-op;
#  - with PROGRAMS_PART=rtla (make run runs it in the ledger boots, 3
#    vCPUs, no -icount), rtla osnoise top on the isolated CPU, while
#    stress-ng --mmap runs on the others: its IRQ count and its total
#    noise in us (variant "expsync", the booted defaults, against
#    "6.12").  Not under -icount: there osnoise's sampling thread spins
#    through each period, and a 3 s run takes minutes of host time.
# Under -icount a guest second is 10^9 instructions of all vCPUs: the
# rates rank the kernels by the work they do per operation, not by real
# hardware's caches, interrupt latency or wake-ups.
. "$(dirname "$0")/../lib.sh"
sysctl=/proc/sys/kernel/expsync
secs=$([ -n "${QUICK:-}" ] && echo 2 || echo 3)
cpu=$(($(nproc --all) - 1))
housekeeping=0-$((cpu - 1))
part=${PROGRAMS_PART:-stress}
case $part in
stress | membarrier | rtla) ;;
*) echo "  FAILED: PROGRAMS_PART must be stress, membarrier or rtla, not '$part'"; exit 1 ;;
esac

echo "== real programs: ${part/stress/stress-ng}"
if ! command -v stress-ng >/dev/null || ! command -v rtla >/dev/null; then
	echo "  MISSING: needs stress-ng and rtla (tools/expsync/deps.sh installs them)"
	exit 1
fi
fail=0
yaml=$(mktemp)

# rate STRESSOR: bogo-ops per second of one stress-ng run.  --mmap and
# --vm get 4 MB per worker, not the default 256 MB: a bogo-op then maps,
# touches and unmaps 4 MB (two page tables) in milliseconds of guest
# time, so a run counts hundreds of them (with 256 MB, under 1 per
# second: 2 per run, and the run overshot its time-out by seconds to
# finish the last one).  --membarrier: one worker per CPU, any CPU.
rate() {
	local args=(--"$1" 2 --"$1"-bytes 4M --taskset "$housekeeping")

	[ "$1" != membarrier ] || args=(--membarrier "$(nproc --all)")
	rm -f "$yaml"
	stress-ng "${args[@]}" --timeout "${secs}s" \
		--metrics --yaml "$yaml" > /dev/null 2>&1 || return 1
	# A stressor that did no operation (skipped) gives no figure, not 0.
	awk '/^ *bogo-ops:/ { ops = $2 }
	     /bogo-ops-per-second-real-time:/ { if (ops > 0) print $2; exit }' "$yaml"
}

# stressor NAME KNOB WORD...: the rates under each word of KNOB, the
# words taken in turn within each run, so that a drift of the guest over
# the runs (its page cache, its slabs) weighs on every word alike.
stressor() {
	local name=$1 knob=$2 w v orig i
	shift 2
	wants "sng_${name}_ops" || return 0
	expsync_kernel || set -- 6.12
	orig=$(cat "$sysctl/$knob" 2>/dev/null)
	for i in $(seq "$(eval_reps "sng_${name}_ops")"); do
		for w in "$@"; do
			v=$w
			case "$w" in
			6.12) ;;
			rcu+*) echo rcu > $sysctl/table_free &&
			       echo "${w#rcu+}" > $sysctl/table_free_rcu_batch ;;
			*) echo "$w" > "$sysctl/$knob" ;;
			esac || { echo "  cannot set $knob=$w"; fail=1; }
			record "sng_${name}_ops" "$v" "$(rate "$name")" || fail=1
		done
	done
	[ -z "$orig" ] || echo "$orig" > "$sysctl/$knob"
}
if [ "$part" = stress ]; then
	orig_batch=$(cat $sysctl/table_free_rcu_batch 2>/dev/null)
	stressor mmap table_free immediate rcu+percpu rcu+gather
	eval_step stress-ng-mmap
	stressor vm table_free immediate rcu+percpu rcu+gather
	eval_step stress-ng-vm
	[ -z "$orig_batch" ] || echo "$orig_batch" > $sysctl/table_free_rcu_batch
	rm -f "$yaml"
	exit $fail
fi
if [ "$part" = membarrier ]; then
	stressor membarrier membarrier_coalesce off on
	eval_step stress-ng-membarrier
	rm -f "$yaml"
	exit $fail
fi

v=$(expsync_kernel && echo expsync || echo 6.12)
reps=$(eval_reps rtla_irq)
wants rtla_irq || reps=0
for i in $(seq "$reps"); do
	# The load runs until rtla is done (rtla's start-up alone takes
	# seconds of guest time under TCG), then is stopped.
	stress-ng --mmap 1 --taskset "$housekeeping" \
		--timeout 600s > /dev/null 2>&1 &
	load=$!
	sleep 1
	# The CPU's row: CPU Period Runtime Noise %Avail MaxNoise MaxSingle HW NMI IRQ ...
	# rtla's summary can lack the CPU's row: one more try, then no
	# figure.
	for try in 1 2; do
		rtla osnoise top -q -c "$cpu" -d "${secs}s" > "$yaml" 2>&1
		row=$(awk -v c="$cpu" '$1 == c && NF >= 12' "$yaml")
		[ -n "$row" ] && break
		sed 's/^/  rtla: /' "$yaml" | tail -n 5
	done
	kill -INT $load
	wait $load
	record rtla_irq "$v" "$(awk '{ print $10 }' <<<"$row")" || fail=1
	record rtla_noise_us "$v" "$(awk '{ print $4 }' <<<"$row")" || fail=1
done
eval_step rtla
rm -f "$yaml"
exit $fail
