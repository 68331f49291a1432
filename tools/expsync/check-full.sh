#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check-full: make check, then the test kernel built with KASAN
# (configs/kasan.config) runs the sections that stress memory: the
# membarrier tests, the table_free stress and the trinity + CPU-hotplug
# loop.  Not part of CI: the KASAN kernel adds a cold build of ~30 min
# and its boots run slower, which does not fit CI's 90 minutes.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
top=$EXPSYNC_TOP
cd "$top"
KASAN_SECTIONS=${KASAN_SECTIONS:-membarrier table_free stress}

ONLY="${ONLY:-}" tools/expsync/check.sh
rc=$?

echo
echo "== check-full: build the KASAN test kernel (configs/base + test + kasan)"
if ! make -s kernel CONFIG=kasan > build/check-kasan.build.log 2>&1; then
	tail -n 40 build/check-kasan.build.log
	result FAIL "build: KASAN test kernel" build/check-kasan.build.log
	exit 1
fi
grep -qx CONFIG_KASAN=y build/obj-kasan/.config ||
	{ result FAIL "build: CONFIG_KASAN is not set in build/obj-kasan"; exit 1; }
result PASS "build: KASAN test kernel"
# A KASAN report is a splat: vm-run.sh fails the boot on "KASAN:".
# KASAN runs these tests several times slower: trinity finished no
# round of 5000 syscalls in 60 s, and 5000 syscalls in 240 s.  So their
# run times and time-outs scale by 4.
CHECK_TIME_SCALE=${KASAN_TIME_SCALE:-4} \
CHECK_KERNEL_OBJ=$top/build/obj-kasan CHECK_OUT=$top/build/check-kasan \
	CHECK_VM_PREFIX=kasan ONLY="$KASAN_SECTIONS" tools/expsync/check.sh || rc=1
exit $rc
