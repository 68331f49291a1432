#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vmstat_drain: per policy, on the isolated CPU (the last one; make run
# boots with nohz_full= and isolcpus= on it): vmstat_update work items
# and stale differentials while a counter-changing load runs
# (vmstat_isolation.sh, perf stat -C), the exit-to-user cost per syscall,
# and the latency of vmstat_drain_now.
. "$(dirname "$0")/../lib.sh"
dir=$(expsync_ksft_dir)
sysctl=/proc/sys/kernel/expsync
cpu=$(($(nproc --all) - 1))
n=${VMSTAT_COST_N:-5000}

echo "== vmstat_drain: vmstat folding on isolated CPU $cpu (kernel.expsync.vmstat_drain)"
if [ ! -w $sysctl/vmstat_drain ] || [ -z "$dir" ] || ! grep -qw "nohz_full=$cpu" /proc/cmdline; then
	echo "  MISSING: needs kernel.expsync.vmstat_drain and a boot with nohz_full=$cpu"
	exit 1
fi
fail=0
orig_policy=$(cat $sysctl/vmstat_drain) orig_cpus=$(cat $sysctl/vmstat_drain_cpus)
echo "$cpu" > $sysctl/vmstat_drain_cpus

echo "  isolation, 10 s of mmap/touch/munmap bursts + user-mode spins on CPU $cpu:"
iso=$(VMSTAT_CPU=$cpu SECONDS_PER_POLICY=${VMSTAT_SECONDS:-10} VMSTAT_POLICIES_ONLY=1 \
	"$dir/vmstat_isolation.sh" |
	sed -n 's/^# vmstat_drain/  vmstat_drain/p')
echo "$iso"
[ "$(grep -c . <<<"$iso")" -eq 3 ] || { echo "  MISSING: vmstat_isolation.sh gave no figures"; fail=1; }
echo "  (vmstat_update counted by perf stat -C $cpu -e workqueue:workqueue_execute_start"
echo "   --filter 'function.function == vmstat_update'; stale = samples, taken from"
echo "   CPU 0 while CPU $cpu spins in user mode, with non-zero differentials)"

reps=${VMSTAT_REPS:-5}
echo "  exit-to-user cost on CPU $cpu, $n calls per run, $reps runs: ns per call (guest"
echo "  clock), mean and sd over the runs; drain_now over 10 requests:"
printf '  %-12s %9s %6s %18s %6s %16s %6s\n' policy getppid sd mmap+touch+munmap sd \
	"drain_now ns" sd
for policy in periodic user-return direct; do
	echo "$policy" > $sysctl/vmstat_drain
	costs=$(for i in $(seq "$reps"); do "$dir/vmstat_isolation" cost "$cpu" "$n"; done)
	drains=$(for i in $(seq 10); do
		echo 1 > $sysctl/vmstat_drain_now &&
			awk '$1 == "ns" { print $2 }' /sys/kernel/debug/expsync/vmstat_last_drain
	done)
	if [ "$(grep -c '^getppid_ns' <<<"$costs")" != "$reps" ] ||
	   [ "$(grep -c . <<<"$drains")" != 10 ]; then
		printf '  %-12s MISSING (cost runs "%s", drains "%s")\n' "$policy" "$costs" "$drains"
		fail=1
		continue
	fi
	printf '  %-12s %9.0f %6.0f %18.0f %6.0f %16.0f %6.0f\n' "$policy" \
		$(mean_sd 2 <<<"$costs") $(mean_sd 4 <<<"$costs") $(mean_sd 1 <<<"$drains")
done
echo "  the counters' primitives, as in seed 004's table (/sys/kernel/debug/expsync/vmstat_primitives):"
sed 's/^/    /' /sys/kernel/debug/expsync/vmstat_primitives
echo "$orig_cpus" > $sysctl/vmstat_drain_cpus 2>/dev/null
echo "$orig_policy" > $sysctl/vmstat_drain
cat <<'NOTE'
  Under -icount a guest ns is one instruction: the getppid difference is
  the cost of the return-to-user check when there is nothing to fold (a
  scan of the CPU's differentials), the mmap+touch+munmap difference adds
  the fold itself.  Under periodic the check is a static-key NOP; under
  direct it is a per-CPU test that fails (nothing to scan), and each
  counter update of the isolated CPU goes to the global atomics instead.
NOTE
exit $fail
