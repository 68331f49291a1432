#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make mutants [MUTANTS='NN ...']: apply each deliberate breakage of
# tools/expsync/mutants/*.patch to a scratch tree (build/mutant/linux, a
# worktree of the series, never build/linux), rebuild there incrementally
# the kernel its section boots (build/mutant/obj-test, or obj-rt for the
# rt section: "Tier: full", the PREEMPT_RT build; ccache; "Kernel: test"
# for a section of host steps that reads the built kernel and the tree,
# as fastpath does through CHECK_KERNEL_OBJ and CHECK_KERNEL_SRC), run the make
# check section the mutant names ("Section:" in its header) against that
# kernel, with only the kselftests its "Killed-by:" names, and print
#   mutant NAME: killed by TEST         (TEST, a test its "Killed-by:"
#                                        header names, failed)
#   mutant NAME: NOT KILLED BY ..., only by TEST
#                                       (another test saw it: the named
#                                        test has a hole)
#   mutant NAME: SURVIVED               (the section passed)
# then the counts; exits non-zero unless every mutant was killed by its
# named test.  Logs: build/mutant/NAME/.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
top=$EXPSYNC_TOP
cd "$top"
B=$top/build
msrc=$B/mutant/linux
t0=$(date +%s)

# The tests and the unmutated kernel first: the sections boot
# build/obj-test's kselftests.
make -s kernel selftests CONFIG=test > "$B/mutant-prepare.log" 2>&1 ||
	{ tail -n 30 "$B/mutant-prepare.log"; echo "make mutants: the test kernel does not build"; exit 1; }

# A file left mutated by an interrupted run is rewritten, with a new
# mtime, so that the incremental build recompiles it.
worktree "$msrc" series || { echo "make mutants: no worktree at $msrc"; exit 1; }
# kmake KERNEL ARGS: make in the scratch tree, objects in the mutant's
# object directory for KERNEL (test, or rt: the configuration the
# section's rows boot), configured as build/obj-KERNEL.
kmake() {
	local k=$1 o=$B/mutant/obj-$1
	shift
	if [ ! -f "$o/.config" ] || ! cmp -s "$B/obj-$k/.config" "$o/.config"; then
		mkdir -p "$o"
		cp "$B/obj-$k/.config" "$o/.config"
	fi
	make -C "$msrc" O="$o" CC="ccache gcc" -j"$(nproc)" -s "$@"
}
# section_kernel SECTION TIER: the kernel the section's rows of TIER (and
# the tiers below) boot: test, or rt (the plan's kernel column, as
# make check LIST=1 prints it).  Rows of other kernels (the ledger's
# CONFIG_EXPSYNC=n side) boot unmutated.
section_kernel() {
	TIER=$2 ONLY=$1 LIST=1 tools/expsync/check.sh | awk '$3 == "test" || $3 == "rt" { print $3; exit }'
}

killed=0 survived=0 other=0 broken=0
for p in tools/expsync/mutants/*.patch; do
	id=$(basename "$p" .patch)
	if [ -n "${MUTANTS:-}" ] && [[ " $MUTANTS " != *" ${id%%-*} "* ]]; then
		continue
	fi
	name=$(sed -n 's/^Mutant: //p' "$p")
	section=$(sed -n 's/^Section: //p' "$p")
	# The tier of the test that must catch it (Tier: full, or check).
	mtier=$(sed -n 's/^Tier: //p' "$p")
	killedby=$(sed -n 's/^Killed-by: //p' "$p")
	log=$B/mutant/$id
	rm -rf "$log"; mkdir -p "$log"
	t1=$(date +%s)
	kernel=$(sed -n 's/^Kernel: //p' "$p")
	[ -n "$kernel" ] || kernel=$(section_kernel "$section" "${mtier:-check}")
	# patch(1), not git apply: some mutants apply with fuzz.  Hunks of a
	# patch that half applies go with the restore below.
	if ! patch -d "$msrc" -p1 -s --forward --no-backup-if-mismatch < "$p" > "$log/apply.log" 2>&1; then
		echo "mutant $name: does not apply ($(head -n1 "$log/apply.log"))"
		broken=$((broken + 1))
	elif [ "$kernel" != test ] && [ "$kernel" != rt ]; then
		echo "mutant $name: section $section boots no test or rt kernel ('$kernel')"
		broken=$((broken + 1))
	elif [ "$kernel" = rt ] && ! make -s kernel CONFIG=rt > "$log/build-rt.log" 2>&1; then
		echo "mutant $name: the rt kernel does not build (see $log/build-rt.log)"
		broken=$((broken + 1))
	elif ! kmake "$kernel" bzImage > "$log/build.log" 2>&1; then
		echo "mutant $name: does not build (see $log/build.log)"
		broken=$((broken + 1))
	else
		# Only the kselftests it names run in the row ("expsync: x.sh"
		# is the selection expsync:x.sh); KUnit and boot checks run
		# anyway.
		tests=$(tr ',' '\n' <<< "$killedby" | sed -n 's/^ *expsync: *\([^ ]*\) *$/expsync:\1/p' | xargs)
		CHECK_TESTS=$tests CHECK_KERNEL_SRC=$msrc \
		CHECK_KERNEL=$kernel CHECK_KERNEL_OBJ=$B/mutant/obj-$kernel CHECK_OUT=$log/check CHECK_VM_PREFIX=mutant CHECK_FAIL_FAST=1 \
			TIER=${mtier:-check} ONLY=$section tools/expsync/check.sh > "$log/check.log" 2>&1
		rc=$?
		first=$(grep -m1 '^FAIL' "$log/check.log" | sed -E 's/^FAIL +//')
		# The kill must come from the test the mutant names (Killed-by:,
		# a comma-separated list of test names): a FAIL line of the
		# row whose test name holds one of them.
		named=$(grep '^FAIL' "$log/check.log" | sed -E 's/^FAIL +//; s/  \(.*//' |
			awk -v want="$killedby" 'BEGIN { n = split(want, w, / *, */) }
				{ for (i = 1; i <= n; i++) if (w[i] != "" && index($0, w[i])) { print; exit } }')
		# A test that ran out of time is not the same evidence as an
		# assertion that failed: say so.
		grep -qs 'TIMEOUT' "$log"/check/*.log && first+=" (a test TIMED OUT)"
		if [ -z "$killedby" ]; then
			echo "mutant $name: no Killed-by: header"
			broken=$((broken + 1))
		elif [ $rc -ne 0 ] && [ -n "$named" ]; then
			echo "mutant $name: killed by $named  [$section, $(($(date +%s) - t1))s]"
			killed=$((killed + 1))
		elif [[ "$first" == "vm: "* ]]; then
			# QEMU or the guest died before the tests reported (QEMU
			# 7.2 aborted in msix_table_mmio_write on one mutant's
			# kernel): no verdict either way.
			echo "mutant $name: NOT EVALUATED, $first  [$section, see $log/check.log]"
			broken=$((broken + 1))
		elif [ $rc -ne 0 ] && [ -n "$first" ]; then
			# Caught, but not by the test that owns the promise: the
			# named test has a hole.
			echo "mutant $name: NOT KILLED BY '$killedby', only by $first  [$section, see $log/check.log]"
			other=$((other + 1))
		else
			echo "mutant $name: SURVIVED  [$section, $(($(date +%s) - t1))s, see $log/check.log]"
			survived=$((survived + 1))
		fi
	fi
	# Unmutated again for the next mutant: git rewrites the mutated files.
	worktree "$msrc" series || { echo "make mutants: cannot restore $msrc"; exit 1; }
done
echo "make mutants: $(($(date +%s) - t0))s"
echo "$killed killed by their named test, $other only by another, $survived survived$([ $broken -eq 0 ] || echo ", $broken did not apply, build or boot")"
[ $survived -eq 0 ] && [ $other -eq 0 ] && [ $broken -eq 0 ]
