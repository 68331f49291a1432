#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# PID 1 of an expsync test guest (see vm-run.sh).  The host root is
# mounted read-only; $1 is the repository (mounted read-write at the
# same path), $2 the run directory holding cmd.sh.  Runs cmd.sh as root
# in the repository with its output on ttyS1, records its exit status
# in $2/rc and resets the guest, which ends QEMU.
repo=$1
run=$2
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/tmp TERM=dumb LC_ALL=C.UTF-8
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mount -t tmpfs tmp /tmp
mount -t tmpfs run /run
mkdir -p /dev/shm /dev/pts
ln -sf /proc/self/fd /dev/fd
ln -sf /proc/self/fd/0 /dev/stdin
ln -sf /proc/self/fd/1 /dev/stdout
ln -sf /proc/self/fd/2 /dev/stderr
mount -t tmpfs shm /dev/shm
mount -t debugfs debugfs /sys/kernel/debug
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
# A repository under /tmp (or /run) is hidden by the tmpfs just mounted:
# make its mount point there.
mkdir -p "$repo" 2>/dev/null
mount -t 9p -o trans=virtio,version=9p2000.L,access=any,msize=512000 \
	repo "$repo"
stty -F /dev/ttyS1 raw -echo 2>/dev/null
cd "$repo" || exit 1
bash "$run/cmd.sh" </dev/null >/dev/ttyS1 2>&1
echo $? > "$run/rc"
sync
# Immediate reset, QEMU exits (-no-reboot).  Not a clean power-off: that
# shuts virtio-9p down while this script still pages in from it.
echo b > /proc/sysrq-trigger
