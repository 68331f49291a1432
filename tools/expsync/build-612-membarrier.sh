#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build-612-membarrier.sh: the 6.12 kernel of make run's no-ENOMEM
# figure, in build/nomem612/.
#
# Every make run kernel carries the series' first patch (membarrier's
# static IPI mask, not under CONFIG_EXPSYNC: it is a fix), so none of
# them shows 6.12's -ENOMEM.  This one is the noexpsync test kernel
# (fault injection, CPUMASK_OFFSTACK) with kernel/sched/membarrier.c as
# in 6.12, built in a worktree of the series.  With CONFIG_EXPSYNC=n
# every other patched file builds as 6.12 does.  The worktree sits at
# build/nomem612/linux and builds into build/nomem612/obj, so that
# ccache (CCACHE_BASEDIR=build) sees the same relative paths as
# build/linux into build/obj-noexpsync: only the files that differ
# compile.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$EXPSYNC_TOP"
src=build/nomem612/linux obj=build/nomem612/obj
worktree "$src" series
git -C "$src" checkout -q base -- kernel/sched/membarrier.c
frags=(configs/base.config configs/test.config configs/noexpsync.config)
mkdir -p "$obj"
if [ ! -f "$obj/.config" ] || [ -n "$(find "${frags[@]}" -newer "$obj/.config")" ]; then
	tools/expsync/config.sh "$src" "$obj" "${frags[@]}"
fi
make -C "$src" O="$(pwd)/$obj" CC="ccache gcc" -j"$(nproc)" -s bzImage
echo "kernel: $obj/arch/x86/boot/bzImage (CONFIG_EXPSYNC=n, 6.12's membarrier.c)"
