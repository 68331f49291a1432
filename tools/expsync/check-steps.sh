#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check-steps.sh STEP: the host steps of make check's plan
# (tools/expsync/check-plan) that are more than one command.  Each
# prints one "STATUS|name|detail" line per result; OUT is the check's
# log directory.
#   harness   make vm CMD='...' hands the guest its command verbatim
#   patches   make patches: the postable series reproduces the tree
#   series    each patch applies, passes checkpatch --strict and its
#             prefix compiles; a broken series must fail that check
#   fastpath  the vmstat counter functions, in source and in machine
#             code against the CONFIG_EXPSYNC=n kernel
#   tree-guard  make tree refuses to throw away commits or edits that
#             patches/ does not hold; the edit loop updates patches/ and
#             the new files here
set -uo pipefail
. "$(dirname "$0")/lib.sh"
top=$EXPSYNC_TOP
cd "$top"
out=${OUT:-$top/build/check}
mkdir -p "$out"

# tap_reader: tap.sh on made-up logs: a skip, a failure with its
# failed cases, a plan that does not match, and no result at all.
tap_reader() {
	local t want got
	t=$(mktemp -d)
	printf '%s\n' 'TAP version 13' '1..3' '# selftests: expsync: a' '# ok 1 x' \
		'ok 1 selftests: expsync: a' '# selftests: expsync: b' '# # SKIP no nohz_full CPU' \
		'ok 2 selftests: expsync: b # SKIP' '# selftests: expsync: c' '# not ok 2 y' \
		'not ok 3 selftests: expsync: c # exit=1' > "$t/1"
	want='PASS|expsync: a|;SKIP|expsync: b|no nohz_full CPU;FAIL|expsync: c|not ok 2 y;'
	got=$(tools/expsync/tap.sh "$t/1" | tr '\n' ';')
	[ "$got" = "$want" ] && echo "PASS|harness: tap.sh reads pass, skip and fail|" ||
		echo "FAIL|harness: tap.sh reads pass, skip and fail|got '$got'"
	printf '%s\n' '1..2' 'ok 1 a' > "$t/2"
	tools/expsync/tap.sh "$t/2" | grep -q '^FAIL|TAP plan 1..2 but 1 results' &&
		echo "PASS|harness: tap.sh fails a plan the results do not match|" ||
		echo "FAIL|harness: tap.sh fails a plan the results do not match|"
	printf '%s\n' '1..1' '# selftests: expsync: d' '# ok 1 x' '# ok 2 y # SKIP no THP' \
		'ok 1 selftests: expsync: d' > "$t/4"
	[ "$(tools/expsync/tap.sh "$t/4")" = 'SKIP|expsync: d|subtest skipped: y # SKIP no THP' ] &&
		echo "PASS|harness: tap.sh reads a passed test with a skipped subtest as a skip|" ||
		echo "FAIL|harness: tap.sh reads a passed test with a skipped subtest as a skip|"
	echo 'no TAP here' > "$t/3"
	tools/expsync/tap.sh "$t/3" | grep -q '^FAIL|no TAP results' &&
		echo "PASS|harness: tap.sh fails a log without results|" ||
		echo "FAIL|harness: tap.sh fails a log without results|"
	rm -rf "$t"
}

harness() {
	tap_reader
	# $, quotes, backslashes, a command substitution and a 5000-byte
	# word, which make or the recipe's shell used to expand or drop.
	local long cmd expect got
	long=$(head -c 5000 /dev/zero | tr '\0' y)
	cmd='for m in a b; do printf "<%s>" "$m"; done; printf "%s|" '
	cmd+="'q\"\\x \$HOME' \"\$(echo sub)\"; x=$long; echo \"\${#x}\""
	expect='<a><b>q"\x $HOME|sub|5000'
	got=$(make -s vm KIMAGE="${CHECK_KERNEL_OBJ:-$top/build/obj-test}/arch/x86/boot/bzImage" \
		CMD="$cmd" APPEND='kunit.enable=0' TIMEOUT=300 2>&1 | tr -d '\r')
	if [ "$(tail -n 1 <<<"$got")" = "$expect" ]; then
		echo "PASS|harness: make vm CMD verbatim|got $expect"
	else
		echo "FAIL|harness: make vm CMD verbatim|want '$expect', got '$(tail -n 1 <<<"$got" | cut -c1-80)'"
	fi
}

patches() {
	if make -s patches > "$out/patches.log" 2>&1; then
		echo "PASS|series: make patches|$(grep -m1 'git am on the base' "$out/patches.log" | cut -c1-100)"
	else
		tail -n 20 "$out/patches.log"
		echo "FAIL|series: make patches|$out/patches.log"
	fi
}

series() {
	local neg p2 n1 n2 nl=$out/series-negative.log nb=$out/series-negative-build.log
	[ -f build/patches/0001-*.patch ] 2>/dev/null || patches
	SERIES_LOG=$out/series-build.log tools/expsync/series-check.sh
	# Negative control: patches 1 and 2, with include/linux/expsync_knob.h
	# (an API core.c uses) dropped from patch 2 and a new file with a
	# trailing blank added to it.  The check must say that patch 2 fails
	# checkpatch and does not compile.
	neg=$(mktemp -d)
	p2=$(ls build/patches/0002-*.patch)
	cp build/patches/0001-*.patch "$neg/"
	{ awk '/^diff --git / { drop = $3 == "a/include/linux/expsync_knob.h" } !drop' "$p2"
	  printf '%s\n' 'diff --git a/kernel/expsync/negative b/kernel/expsync/negative' \
		'new file mode 100644' '--- /dev/null' '+++ b/kernel/expsync/negative' \
		'@@ -0,0 +1 @@' '+negative control   '; } > "$neg/${p2##*/}"
	SERIES_PATCHES=$neg SERIES_LOG=$nb tools/expsync/series-check.sh > "$nl" 2>&1
	n1=$(basename "$(ls "$neg"/0001-*.patch)" .patch)
	n2=$(basename "$p2" .patch)
	if grep -q "^PASS|series: $n1 checkpatch --strict|" "$nl" &&
	   grep -q "^PASS|series: $n1 compiles|" "$nl" &&
	   grep -q "^PASS|series: $n2 applies|" "$nl" &&
	   grep -q "^FAIL|series: $n2 checkpatch --strict|" "$nl" &&
	   grep -q "^FAIL|series: $n2 compiles|" "$nl" &&
	   grep -q "ERROR: trailing whitespace" "$nb" &&
	   grep -q "linux/expsync_knob.h: No such file" "$nb"; then
		echo "PASS|series: a broken patch 2 (an API header dropped, trailing blanks) fails|checkpatch and compile"
	else
		echo "FAIL|series: a broken patch 2 (an API header dropped, trailing blanks) fails|$nl"
	fi
	rm -rf "$neg"
}

fastpath() {
	# The machine code against the CONFIG_EXPSYNC=n kernel of the same
	# config (built already by the plan's noexpsync row).  make mutants
	# gives its scratch tree (CHECK_KERNEL_SRC) and kernel
	# (CHECK_KERNEL_OBJ).
	local vml=()
	if make -s kernel CONFIG=noexpsync > "$out/build-noexpsync-fastpath.log" 2>&1; then
		vml=(build/obj-noexpsync/vmlinux "${CHECK_KERNEL_OBJ:-build/obj-test}/vmlinux")
	else
		echo "FAIL|build: CONFIG_EXPSYNC=n, for the machine code|$out/build-noexpsync-fastpath.log"
	fi
	tools/expsync/fastpath-check.sh "${CHECK_KERNEL_SRC:-build/linux}" "${vml[@]}"
}

tree_guard() {
	# A git worktree of build/linux at the applied series, and a
	# patches/series that differs from it, so that tree.sh would
	# re-apply: with an edit to an upstream file, to a new file, then
	# with a commit, it must refuse and leave them in place.
	local wt top2 head rc f
	wt=$(mktemp -d) top2=$(mktemp -d)
	worktree "$wt" series || {
		echo "FAIL|tree: refuses to discard work|cannot make a worktree of build/linux"; return; }
	mkdir -p "$top2/patches"; : > "$top2/patches/series"
	for f in mm/vmstat.c kernel/expsync/core.c; do
		git -C "$wt" checkout -q -- .
		echo "/* unexported */" >> "$wt/$f"
		(cd "$top2" && "$top/tools/expsync/tree.sh" "$wt" 118) >> "$out/tree-guard.log" 2>&1
		rc=$?
		if [ $rc -ne 0 ] && grep -q 'make export-patches' "$out/tree-guard.log" &&
		   grep -q unexported "$wt/$f"; then
			echo "PASS|tree: refuses to discard an edit to $f|"
		else
			echo "FAIL|tree: refuses to discard an edit to $f|status $rc, $out/tree-guard.log"
		fi
	done
	git -C "$wt" -c user.name=t -c user.email=t@localhost commit -q -a -m unexported
	head=$(git -C "$wt" rev-parse HEAD)
	(cd "$top2" && "$top/tools/expsync/tree.sh" "$wt" 118) >> "$out/tree-guard.log" 2>&1
	rc=$?
	if [ $rc -ne 0 ] && [ "$(git -C "$wt" rev-parse HEAD)" = "$head" ]; then
		echo "PASS|tree: refuses to discard a commit not exported|"
	else
		echo "FAIL|tree: refuses to discard a commit not exported|status $rc, $out/tree-guard.log"
	fi
	git -C build/linux worktree remove --force "$wt"
	rm -rf "$top2"
	edit_loop
}

# edit_loop: the README's loop on a small tree: a fixup of the commit
# that adds a new file, rebase --autosquash, export-patches; the patch
# and the file at its in-tree path here both carry the edit.
edit_loop() {
	local src top2 g=(-c user.name=t -c user.email=t@localhost) n
	src=$(mktemp -d) top2=$(mktemp -d)
	git -C "$src" init -q && git -C "$top2" init -q && mkdir "$top2/patches"
	echo base > "$src/README" && git -C "$src" add README &&
		git -C "$src" "${g[@]}" commit -q -m base && git -C "$src" tag base
	mkdir -p "$src/kernel" && echo one > "$src/kernel/new.c" && git -C "$src" add kernel &&
		git -C "$src" "${g[@]}" commit -q -m "kernel: add new.c" &&
		git -C "$src" "${g[@]}" commit -q --allow-empty -m "kernel: a later change"
	echo two > "$src/kernel/new.c"
	git -C "$src" "${g[@]}" commit -q -a --fixup=HEAD~1 &&
		GIT_SEQUENCE_EDITOR=true git -C "$src" "${g[@]}" rebase -q -i --autosquash base &&
		(cd "$top2" && "$top/tools/expsync/export-patches.sh" "$src") >> "$out/tree-guard.log" 2>&1
	n=$(wc -l < "$top2/patches/series" 2>/dev/null)
	if [ "$(cat "$top2/kernel/new.c" 2>/dev/null)" = two ] && [ "$n" = 2 ] &&
	   grep -qx '+two' "$top2/patches/0001-kernel-add-new.c.patch"; then
		echo "PASS|tree: fixup, autosquash and export-patches update the patch and the new file here|"
	else
		echo "FAIL|tree: fixup, autosquash and export-patches update the patch and the new file here|$n patches, $out/tree-guard.log"
	fi
	rm -rf "$src" "$top2"
}

case "${1:-}" in
harness|patches|series|fastpath) "$1" ;;
tree-guard) tree_guard ;;
*) echo "check-steps.sh: unknown step '${1:-}'" >&2; exit 2 ;;
esac
