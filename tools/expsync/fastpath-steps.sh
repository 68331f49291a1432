#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fastpath-steps.sh OBJ NAME OUT
#
# The instructions that the vmstat counter functions execute per call,
# under each vmstat_drain policy, on the kernel built in OBJ: boots it
# (4 vCPUs, CPU 3 nohz_full and isolated) with QEMU's gdbstub open; the
# guest (eval/fastpath-guest.sh) runs a map-touch-unmap loop on CPU 3
# under one policy at a time, and for each gdb (fastpath_steps.py) steps
# through FASTPATH_SAMPLES real calls of each function on CPU 3, from
# entry to return, appending one JSON line per call to OUT.  The counts
# are exact: no timing, no sampling of time.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
top=$EXPSYNC_TOP
obj=$1 name=$2 out=$3
cpu=3
# The counter updates that the others (inc/dec, lruvec) end in.
funcs="__mod_zone_page_state __mod_node_page_state mod_zone_page_state mod_node_page_state"
vmlinux=$top/build/$obj/vmlinux
[ -f "$vmlinux" ] || { echo "fastpath-steps: no $vmlinux" >&2; exit 2; }
dir=$top/build/vm/fastpath-$name
rm -rf "$dir"
mkdir -p "$dir"
: > "$out"

tools/expsync/vm-run.sh --kernel "$top/build/$obj/arch/x86/boot/bzImage" \
	--name "fastpath-$name-vm" --smp 4 --timeout 1800 --gdb "$dir/gdb.sock" \
	--append "nokaslr nohz_full=$cpu isolcpus=nohz,domain,$cpu" \
	-- "tools/expsync/eval/fastpath-guest.sh $dir $cpu" > "$dir/guest.log" 2>&1 &
vm=$!

# wait_for FILE: until it exists or the guest has ended
wait_for() {
	while [ ! -e "$1" ]; do
		kill -0 $vm 2>/dev/null || return 1
		sleep 1
	done
}

rc=0
wait_for "$dir/variants" || rc=1
for v in $(cat "$dir/variants" 2>/dev/null); do
	wait_for "$dir/ready-$v" || { rc=1; break; }
	FASTPATH_CPU=$cpu FASTPATH_FUNCS="$funcs" FASTPATH_VARIANT=$v \
		FASTPATH_SAMPLES=${FASTPATH_SAMPLES:-20} FASTPATH_OUT=$out \
		FASTPATH_ATTACHED=$dir/attached-$v \
		timeout 900 gdb -q -batch -nx -ex "file $vmlinux" \
		-ex "target remote $dir/gdb.sock" \
		-ex "source $top/tools/expsync/fastpath_steps.py" \
		-ex detach > "$dir/gdb-$v.log" 2>&1 ||
		{ echo "fastpath-steps: gdb failed on $v, see $dir/gdb-$v.log" >&2; rc=1; }
	# The guest waits for both; after a failure, for nothing.
	touch "$dir/attached-$v" "$dir/done-$v"
done
wait $vm || { echo "fastpath-steps: the guest failed, see $dir/guest.log" >&2; rc=1; }
exit $rc
