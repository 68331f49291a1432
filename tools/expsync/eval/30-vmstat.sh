#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vmstat_drain, on either kernel (make run boots both with the last CPU
# nohz_full and isolated): per run (lib.sh record),
#  - the cost of a null system call (getppid) and of a page's
#    mmap+touch+munmap on the isolated CPU, in guest ns (instructions
#    under -icount): vmstat_isolation cost; variants periodic,
#    user-return, direct (the set: the isolated CPU), "6.12" on =n;
#  - on expsync only, in one window per policy, the share of samples (taken from CPU 0 while the
#    isolated CPU runs a counter-changing load and spins in user mode)
#    that found its differentials not folded, and vmstat_update work
#    items on it (perf stat -C, workqueue:workqueue_execute_start):
#    vmstat_isolation.sh.  6.12 does not export a CPU's differentials;
#    its behaviour is the periodic policy's, whose code path it is.
# The isolation ledger, which counts every interruption on both
# kernels, runs in boots of its own (make run, tools/expsync/run.sh).
. "$(dirname "$0")/../lib.sh"
dir=$(expsync_ksft_dir)
sysctl=/proc/sys/kernel/expsync
cpu=$(($(nproc --all) - 1))
reps=$(eval_reps vm_getppid_ns)
n=${VMSTAT_COST_N:-5000}

echo "== vmstat_drain on isolated CPU $cpu ($reps runs per figure)"
if [ ! -x "$dir/vmstat_isolation" ] || ! grep -qw "nohz_full=$cpu" /proc/cmdline; then
	echo "  MISSING: needs vmstat_isolation and a boot with nohz_full=$cpu"
	exit 1
fi
fail=0
if expsync_kernel; then
	orig_policy=$(cat $sysctl/vmstat_drain) orig_cpus=$(cat $sysctl/vmstat_drain_cpus)
	echo "$cpu" > $sysctl/vmstat_drain_cpus || fail=1
	variants="periodic user-return direct"
else
	variants=6.12
fi
for v in $variants; do
	wants vm_getppid_ns || break
	[ "$v" = 6.12 ] || echo "$v" > $sysctl/vmstat_drain || { echo "  cannot set $v"; fail=1; }
	for i in $(seq "$reps"); do
		read -r _ g _ p < <("$dir/vmstat_isolation" cost "$cpu" "$n")
		record vm_getppid_ns "$v" "$g" || fail=1
		record vm_page_cycle_ns "$v" "$p" || fail=1
	done
done
eval_step cost

# One window per policy: under TCG a window costs minutes of host time.
if expsync_kernel && wants vm_stale_share; then
	for i in 1; do
		out=$(VMSTAT_CPU=$cpu SECONDS_PER_POLICY=${VMSTAT_SECONDS:-6} VMSTAT_POLICIES_ONLY=1 \
			"$dir/vmstat_isolation.sh" | grep '^# vmstat_drain=')
		for v in periodic user-return direct; do
			line=$(grep "^# vmstat_drain=$v," <<<"$out")
			work=$(sed -n 's/.*vmstat_update on CPU [0-9]*: \([0-9]*\),.*/\1/p' <<<"$line")
			stale=$(sed -n 's/.* samples \([0-9]*\), with stale diffs \([0-9]*\) .*/\2 \1/p' \
				<<<"$line" | awk '$2 > 0 { print $1 / $2 }')
			record vm_stale_share "$v" "$stale" || fail=1
			record vm_update_work "$v" "$work" || fail=1
		done
	done
	echo "$orig_cpus" > $sysctl/vmstat_drain_cpus 2>/dev/null
	echo "$orig_policy" > $sysctl/vmstat_drain
	eval_step windows
fi
exit $fail
