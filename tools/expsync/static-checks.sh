#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# static-checks.sh [new|base]: static checks on the series, one
# "STATUS|name|detail" line per result.
#  new (make check):
#  - scripts/checkpatch.pl --strict on every patch, new files included
#  - scripts/kernel-doc -none -Wall on every new C file and header
#  - W=1 build of the new C files: no warnings
#  base (make check-full):
#  - W=1 build of the upstream C files the series touches: no warning
#    the pristine file does not have.  The pristine files are built in a
#    git worktree of the base (build/static/base,
#    O=build/static/obj-base): build/linux is never edited.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
top=$EXPSYNC_TOP
src=$top/build/linux
obj=$top/build/obj-test
cd "$top"
what=${1:-new}
case $what in new|base) ;; *) echo "static-checks.sh: new or base, not '$what'" >&2; exit 2 ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# checkpatch's SPDX check runs python3 with ply: Debian's, not a pyenv one.
export PATH=/usr/bin:$PATH

w1() { rm -f "$obj/$1"; make -C "$src" O="$obj" CC="ccache gcc" W=1 "$1" 2>&1; }
new_checks() {
	# Each patch adds its files to MAINTAINERS and documents its boot
	# parameters: FILE_PATH_CHANGES and UNDOCUMENTED_SETUP stay on.
	for p in $(cat patches/series); do
		if (cd "$src" && scripts/checkpatch.pl --strict -q \
			--ignore "$(checkpatch_ignores "$top/patches/$p")" "$top/patches/$p") \
			> "$tmp/cp.log" 2>&1; then
			echo "PASS|checkpatch: patches/$p|"
		else
			cat "$tmp/cp.log"
			echo "FAIL|checkpatch: patches/$p|see static.log in the check logs"
		fi
	done

	# The patches hold the new files whole: kernel-doc on those in C.
	for f in $(git ls-files kernel mm arch include); do
		case "$f" in *.c|*.h) ;; *) continue ;; esac
		if (cd "$src" && scripts/kernel-doc -none -Wall "$f") \
			> "$tmp/kd.log" 2>&1 && ! [ -s "$tmp/kd.log" ]; then
			echo "PASS|kernel-doc: $f|"
		else
			cat "$tmp/kd.log"
			echo "FAIL|kernel-doc: $f|see static.log in the check logs"
		fi
	done

	# W=1 over the new code: no warnings at all.
	# Each object is compiled again (rm first): an object that is up to date
	# prints no warnings, which in a tree built before would hide them here
	# and, in the base, make every warning look new.
	for o in $(git ls-files 'kernel/*.c' 'mm/*.c' 'arch/*.c' | grep -v kunit | sed 's/\.c$/.o/'); do
		log=$(w1 "$o")
		if grep -q "warning:" <<<"$log" || ! [ -f "$obj/$o" ]; then
			echo "$log"
			echo "FAIL|W=1: $o|warnings"
		else
			echo "PASS|W=1: $o|"
		fi
	done
}

base_checks() {
	# W=1 over the upstream files the series touches: no warning the
	# pristine file does not have (several have kernel-doc warnings of
	# their own).  Files kbuild does not compile alone (membarrier.c is
	# #included by build_utility.c) are checked through their includer.
	norm() { grep "warning:" | sed -E 's/^[^ ]*:[0-9]+(:[0-9]+)?: //' | sort; }
	base_src=$top/build/static/base
	base_obj=$top/build/static/obj-base
	worktree "$base_src" base || { echo "FAIL|W=1: no worktree of the base|"; return; }
	mkdir -p "$base_obj"
	cp "$obj/.config" "$base_obj/.config"
	if ! make -C "$base_src" O="$base_obj" CC="ccache gcc" -s olddefconfig prepare \
		> "$tmp/base-prepare.log" 2>&1; then
		cat "$tmp/base-prepare.log"
		echo "FAIL|W=1: the pristine base tree does not prepare|see static.log"
		return
	fi
	for c in $(sed -n 's|^+++ b/\(.*\.c\)$|\1|p' patches/*.patch | sort -u); do
		o=${c%.c}.o
		[ -f "$obj/$o" ] && git -C "$src" cat-file -e "base:$c" 2>/dev/null || continue
		rm -f "$base_obj/$o"
		make -C "$base_src" O="$base_obj" CC="ccache gcc" W=1 "$o" 2>&1 | norm > "$tmp/base.w"
		w1 "$o" | norm > "$tmp/new.w"
		added=$(comm -13 "$tmp/base.w" "$tmp/new.w")
		if [ -n "$added" ]; then
			echo "$added"
			echo "FAIL|W=1: $o|new warnings"
		else
			echo "PASS|W=1: $o|no new warnings ($(wc -l < "$tmp/base.w") in base)"
		fi
	done
}

"${what}_checks"
exit 0
