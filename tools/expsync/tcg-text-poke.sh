#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tcg-text-poke.sh KERNEL-DIR [ROUNDS] [pin]
#
# Reproduces, on any x86 kernel built with JUMP_LABEL (the bench kernels,
# build/obj-bench-612 being 6.12 itself), the int3 oops that killed a
# make run ledger boot: "Oops: int3" at __sysvec_call_function_single+0xa,
# the code bytes there already showing the patched jump.  A guest with 3
# vCPUs runs an munmap hammer on CPUs 1 and 2 (call-function IPIs without
# pause) while CPU 0 starts perf stat on irq_vectors:call_function_*_entry
# ROUNDS times (default 300): each start and exit patches the static key
# of the tracepoint inside the IPI handler with text_poke_bp().  No
# expsync code or knob takes part.  QEMU 7.2's TCG can run a stale
# translation of the site with the temporary int3 after the patching is
# over, so the kernel's int3 handler no longer knows it.
#
# With "pin", the tracepoints are held enabled first (pin_tracepoints of
# lib.sh, as make run's guests do): the key is patched once, before the
# hammer starts.  Prints the round the oops came in, or that all passed.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
. tools/expsync/lib.sh
obj=${1:?usage: tcg-text-poke.sh KERNEL-DIR [ROUNDS] [pin]}
rounds=${2:-300} pin=${3:-}
out=build/tcg-text-poke
mkdir -p $out
# Built aside and renamed: two runs at once never see a half-written file.
gcc -O2 -Wall -pthread -o $out/hammer.$$ tools/expsync/tcg-text-poke/hammer.c &&
	mv $out/hammer.$$ $out/hammer || exit 1
name=tcg-text-poke-$(basename "$obj")${pin:+-pin}
tools/expsync/vm-run.sh --kernel "$obj/arch/x86/boot/bzImage" --name "$name" \
	--smp 3 --timeout $((60 + rounds * 10)) --append "kunit.enable=0" -- \
	"${pin:+. tools/expsync/lib.sh; pin_tracepoints || exit 1;}" \
	"$out/hammer 1 2 & for i in \$(seq $rounds); do echo \"tcg-text-poke: round \$i\" > /dev/kmsg;" \
	"taskset -c 0 perf stat -a -e irq_vectors:call_function_single_entry" \
	"-e irq_vectors:call_function_entry -- sleep 0.02 > /dev/null 2>&1; done;" \
	"kill %1; echo tcg-text-poke: $rounds rounds done" > "$out/$name.log" 2>&1
rc=$?
console=build/vm/$name/console.log
last=$(grep -o 'tcg-text-poke: round [0-9]*' "$console" | tail -n 1)
if grep -q 'Oops: int3' "$console"; then
	echo "$name: int3 oops after ${last#*: } of $rounds: $(grep -m1 'RIP:' "$console" | sed 's/.*RIP: //')"
	exit 1
fi
[ $rc = 0 ] || { echo "$name: guest failed ($rc), see $console"; exit 1; }
echo "$name: $rounds rounds, no oops"
