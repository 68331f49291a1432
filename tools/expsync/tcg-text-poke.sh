#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# [TCG_THREADS=single] tcg-text-poke.sh KERNEL-DIR [ROUNDS] [hold]
#
# Reproduces, on any x86 kernel built with JUMP_LABEL (the bench kernels,
# build/obj-bench-noexpsync being 6.12 itself), an int3 oops of QEMU 7.2's
# multi-threaded TCG: "Oops: int3" at __sysvec_call_function_single+0xa,
# the code bytes there already showing the patched jump.  A guest with 3
# vCPUs runs an munmap hammer on CPUs 1 and 2 (call-function IPIs without
# pause) while CPU 0 starts perf stat on irq_vectors:call_function_*_entry
# ROUNDS times (default 300): each start and exit patches the static key
# of the tracepoint inside the IPI handler with text_poke_bp().  No
# expsync code or knob takes part.  A vCPU can run the site's temporary
# int3 after the patching is over, when the kernel's int3 handler no
# longer knows it.
#
# With "hold", the guest boots with hold_boot_args and runs
# hold_static_calls (lib.sh), as every make check boot and make run's
# ledger boots do: the tracepoints have two probes from boot, so that
# perf adds and removes a third one and patches nothing.
# TCG_THREADS=single runs the vCPUs on one host thread (vm-run.sh
# --tcg-threads), as -icount does.  Prints the round the oops came in,
# or that all rounds passed.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
. tools/expsync/lib.sh
obj=${1:?usage: tcg-text-poke.sh KERNEL-DIR [ROUNDS] [hold]}
rounds=${2:-300} mode=${3:-} setup= args=
case $mode in
'') ;;
hold) setup=hold_static_calls args=$(hold_boot_args "$obj/.config") ;;
*) echo "tcg-text-poke: the third argument is 'hold' or nothing" >&2; exit 2 ;;
esac
out=build/tcg-text-poke
mkdir -p $out
# Built aside and renamed: two runs at once never see a half-written file.
gcc -O2 -Wall -pthread -o $out/hammer.$$ tools/expsync/tcg-text-poke/hammer.c &&
	mv $out/hammer.$$ $out/hammer || exit 1
events="-e irq_vectors:call_function_single_entry -e irq_vectors:call_function_entry"
name=tcg-text-poke-$(basename "$obj")${mode:+-$mode}${TCG_THREADS:+-$TCG_THREADS}
tools/expsync/vm-run.sh --kernel "$obj/arch/x86/boot/bzImage" --name "$name" \
	${TCG_THREADS:+--tcg-threads $TCG_THREADS} --smp 3 \
	--timeout $((60 + rounds * 10)) --append "kunit.enable=0 $args" -- \
	"${setup:+. tools/expsync/lib.sh; $setup || exit 1;}" \
	"$out/hammer 1 2 & for i in \$(seq $rounds); do echo \"tcg-text-poke: round \$i\" > /dev/kmsg;" \
	"taskset -c 0 perf stat -a $events -- sleep 0.02 > /dev/null 2>&1; done;" \
	"echo tcg-text-poke: $rounds rounds done" > "$out/$name.log" 2>&1
rc=$?
console=build/vm/$name/console.log
last=$(grep -o 'tcg-text-poke: round [0-9]*' "$console" | tail -n 1)
if grep -q 'Oops: int3' "$console"; then
	echo "$name: int3 oops after ${last#*: } of $rounds: $(grep -m1 'RIP:' "$console" | sed 's/.*RIP: //')"
	exit 1
fi
[ $rc = 0 ] || { echo "$name: guest failed ($rc), see $console"; exit 1; }
echo "$name: $rounds rounds, no oops"
