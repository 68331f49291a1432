#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vm-run.sh --kernel IMG [--smp N] [--append ARGS] [--icount 1]
#           [--tcg-threads single] [--timeout S] [--name NAME]
#           [--gdb SOCKET] -- CMD
#
# Boot IMG under qemu-system-x86_64 (TCG) with the host root read-only
# over virtio-9p and this repository read-write at the same path; run
# CMD as root in the repository; print its output; exit with its status.
# The kernel console goes to build/vm/NAME/console.log.  The run fails
# if the guest hangs past the timeout, or if the console shows a kernel
# splat even when CMD succeeded.  --gdb opens QEMU's gdbstub on
# the Unix socket SOCKET (one gdb thread per vCPU, CPU n is thread n + 1).
set -uo pipefail

. "$(dirname "$0")/lib.sh"
top=$EXPSYNC_TOP
kernel= smp=2 append= icount= threads= timeout=600 name= gdb=
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) kernel=$2; shift 2 ;;
	--smp) smp=$2; shift 2 ;;
	--append) append=$2; shift 2 ;;
	--icount) icount=$2; shift 2 ;;
	--tcg-threads) threads=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--name) name=$2; shift 2 ;;
	--gdb) gdb=$2; shift 2 ;;
	--) shift; break ;;
	*) echo "vm: unknown option $1" >&2; exit 2 ;;
	esac
done
cmd=$*
[ -n "$cmd" ] || { echo "vm: no command given (CMD='...')" >&2; exit 2; }
[ -f "$kernel" ] || { echo "vm: no kernel at $kernel; run 'make kernel' first" >&2; exit 2; }

name=${name:-run-$$}
run=$top/build/vm/$name
rm -rf "$run"
mkdir -p "$run"
printf '%s\n' "$cmd" > "$run/cmd.sh"

# All vCPUs on one host thread with "single", as -icount has them too:
# see tools/expsync/tcg-text-poke.sh for what multi-threaded TCG does to
# text_poke_bp() on a JUMP_LABEL kernel.
case "$threads" in
'') accel=tcg ;;
single|multi) accel=tcg,thread=$threads ;;
*) echo "vm: --tcg-threads takes single or multi, not '$threads'" >&2; exit 2 ;;
esac
qemu_args=(-machine q35 -accel "$accel" -cpu max -smp "$smp" -m 2G
	-nodefaults -display none -no-reboot
	-serial "file:$run/console.log" -serial stdio
	-kernel "$kernel"
	-fsdev local,id=root,path=/,security_model=none,readonly=on,multidevs=remap
	-device virtio-9p-pci,fsdev=root,mount_tag=/dev/root
	-fsdev "local,id=repo,path=$top,security_model=none,multidevs=remap"
	-device virtio-9p-pci,fsdev=repo,mount_tag=repo)
[ "$icount" = 1 ] && qemu_args+=(-icount shift=0,sleep=off)
[ -z "$gdb" ] || qemu_args+=(-gdb "unix:$gdb,server=on,wait=off")

boot="console=ttyS0 root=/dev/root rootfstype=9p"
boot+=" rootflags=trans=virtio,version=9p2000.L,access=any,msize=512000"
boot+=" ro panic=-1 $append init=$top/tools/expsync/vm-init.sh -- $top $run"

timeout -k 10 "$timeout" qemu-system-x86_64 "${qemu_args[@]}" -append "$boot" </dev/null
qrc=$?
if [ $qrc -eq 124 ] || [ $qrc -eq 137 ]; then
	echo "vm: TIMEOUT: guest killed after ${timeout}s; console log: $run/console.log" >&2
	exit 124
fi
if [ ! -f "$run/rc" ]; then
	echo "vm: guest stopped before the command finished (qemu status $qrc); console log: $run/console.log" >&2
	tail -n 20 "$run/console.log" >&2
	exit 125
fi
rc=$(cat "$run/rc")

splat="($SPLAT_RE|Call Trace:)"
if grep -Eq "$splat" "$run/console.log"; then
	echo "vm: kernel splat in the console; console log: $run/console.log" >&2
	grep -E -m 5 -A 20 "$splat" "$run/console.log" >&2
	[ "$rc" -eq 0 ] && rc=126
fi
exit "$rc"
