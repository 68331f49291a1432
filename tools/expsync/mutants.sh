#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make mutants [MUTANTS='NN ...']: apply each deliberate breakage of
# tools/expsync/mutants/*.patch to a scratch copy of the tree
# (build/mutant/linux, never build/linux), rebuild the test kernel there
# incrementally (build/mutant/obj-test, ccache), run the make check
# section the mutant names ("Section:" in its header) against that
# kernel, and print
#   mutant NAME: killed by TEST      (the section failed, TEST = its first FAIL)
#   mutant NAME: SURVIVED            (the section passed: a hole in the tests)
# then "M killed, S survived"; exits non-zero when one survived or one
# did not build.  Logs: build/mutant/NAME/.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
top=$EXPSYNC_TOP
cd "$top"
B=$top/build
msrc=$B/mutant/linux
mobj=$B/mutant/obj-test
t0=$(date +%s)

# The tests and the unmutated kernel first: the sections boot
# build/obj-test's kselftests.
make -s kernel selftests CONFIG=test > "$B/mutant-prepare.log" 2>&1 ||
	{ tail -n 30 "$B/mutant-prepare.log"; echo "make mutants: the test kernel does not build"; exit 1; }

mkdir -p "$B/mutant"
# Not -t: a file that differs (say, left mutated by an interrupted run)
# gets a new mtime, so that the incremental build recompiles it.
rsync -rlpD --checksum --delete --exclude=.git "$B/linux/" "$msrc/"
mkdir -p "$mobj"
cp "$B/obj-test/.config" "$mobj/.config"
kmake() { make -C "$msrc" O="$mobj" CC="ccache gcc" -j"$(nproc)" -s "$@"; }

killed=0 survived=0 broken=0
for p in tools/expsync/mutants/*.patch; do
	id=$(basename "$p" .patch)
	if [ -n "${MUTANTS:-}" ] && [[ " $MUTANTS " != *" ${id%%-*} "* ]]; then
		continue
	fi
	name=$(sed -n 's/^Mutant: //p' "$p")
	section=$(sed -n 's/^Section: //p' "$p")
	# The tier of the test that must catch it (Tier: full, or check).
	mtier=$(sed -n 's/^Tier: //p' "$p")
	log=$B/mutant/$id
	rm -rf "$log"; mkdir -p "$log"
	t1=$(date +%s)
	# patch(1), not git apply: the scratch tree lies inside this repository.
	if ! patch -d "$msrc" -p1 -s --forward --no-backup-if-mismatch < "$p" > "$log/apply.log" 2>&1; then
		echo "mutant $name: does not apply ($(head -n1 "$log/apply.log"))"
		broken=$((broken + 1)); continue
	fi
	if ! kmake bzImage > "$log/build.log" 2>&1; then
		echo "mutant $name: does not build (see $log/build.log)"
		broken=$((broken + 1))
	else
		CHECK_KERNEL_OBJ=$mobj CHECK_OUT=$log/check CHECK_VM_PREFIX=mutant CHECK_FAIL_FAST=1 \
			TIER=${mtier:-check} ONLY=$section tools/expsync/check.sh > "$log/check.log" 2>&1
		rc=$?
		first=$(grep -m1 '^FAIL' "$log/check.log" | sed -E 's/^FAIL +//')
		# A test that ran out of time is not the same evidence as an
		# assertion that failed: say so.
		grep -qs 'TIMEOUT' "$log"/check/*.log && first+=" (a test TIMED OUT)"
		if [[ "$first" == "vm: "* ]]; then
			# QEMU or the guest died before the tests reported (QEMU
			# 7.2 aborted in msix_table_mmio_write on one mutant's
			# kernel): no verdict either way.
			echo "mutant $name: NOT EVALUATED, $first  [$section, see $log/check.log]"
			broken=$((broken + 1))
		elif [ $rc -ne 0 ] && [ -n "$first" ]; then
			echo "mutant $name: killed by $first  [$section, $(($(date +%s) - t1))s]"
			killed=$((killed + 1))
		else
			echo "mutant $name: SURVIVED  [$section, $(($(date +%s) - t1))s, see $log/check.log]"
			survived=$((survived + 1))
		fi
	fi
	patch -d "$msrc" -p1 -s -R --no-backup-if-mismatch < "$p" ||
		{ echo "make mutants: cannot revert $name; rebuilding the scratch tree"
		  rsync -rlpD --checksum --delete --exclude=.git "$B/linux/" "$msrc/"; }
done
# Leave the scratch kernel unmutated for the next run's incremental build.
echo "make mutants: $(($(date +%s) - t0))s"
echo "$killed killed, $survived survived$([ $broken -eq 0 ] || echo ", $broken did not apply, build or boot")"
[ $survived -eq 0 ] && [ $broken -eq 0 ]
