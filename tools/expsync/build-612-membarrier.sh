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
# in 6.12 (git show base:...), built in a scratch copy of the tree.
# With CONFIG_EXPSYNC=n every other patched file builds as 6.12 does.
# The copy sits at build/nomem612/linux and builds into
# build/nomem612/obj, so that ccache (CCACHE_BASEDIR=build) sees the
# same relative paths as build/linux into build/obj-noexpsync: only the
# files that differ compile.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
src=build/nomem612/linux obj=build/nomem612/obj
mkdir -p "$src" "$obj"
# Not -t: a changed file gets a new mtime, so the build picks it up.
# membarrier.c is excluded (and so kept): it is 6.12's, written below.
rsync -rlpD --checksum --delete --exclude=.git --exclude=/kernel/sched/membarrier.c \
	build/linux/ "$src/"
git -C build/linux show base:kernel/sched/membarrier.c > "$obj/membarrier.c.612"
cmp -s "$obj/membarrier.c.612" "$src/kernel/sched/membarrier.c" ||
	cp "$obj/membarrier.c.612" "$src/kernel/sched/membarrier.c"
frags=(configs/base.config configs/test.config configs/noexpsync.config)
if [ ! -f "$obj/.config" ] || [ -n "$(find "${frags[@]}" -newer "$obj/.config")" ]; then
	tools/expsync/config.sh "$src" "$obj" "${frags[@]}"
fi
make -C "$src" O="$(pwd)/$obj" CC="ccache gcc" -j"$(nproc)" -s bzImage
echo "kernel: $obj/arch/x86/boot/bzImage (CONFIG_EXPSYNC=n, 6.12's membarrier.c)"
