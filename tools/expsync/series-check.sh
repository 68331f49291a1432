#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check's "series" section: the postable series (make patches,
# build/patches/) bisects.  On a git worktree of the pristine base
# (build/series-work, O=build/obj-series), for each patch in turn:
#  - it applies with git am;
#  - checkpatch.pl --strict is clean on it;
#  - the prefix ending with it compiles every object the series touches
#    that exists by then (the test kernel's configuration, regenerated
#    when a Kconfig file changes; incremental, ccache);
# and at the end the same objects compile with CONFIG_EXPSYNC=n.
# Prints one "STATUS|label|detail" line per check.
# build/linux is never touched.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
top=$EXPSYNC_TOP
cd "$top"
src=$top/build/linux
out=$top/build/patches
work=$top/build/series-work
obj=$top/build/obj-series
log=${SERIES_LOG:-$top/build/series.log}
export PATH=/usr/bin:$PATH	# checkpatch's SPDX check wants Debian's python3
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache} CCACHE_BASEDIR=$top/build CCACHE_NOHASHDIR=1
git_id=(-c user.name="expsync developers" -c user.email=expsync@localhost
	-c commit.gpgsign=false -c core.autocrlf=false)
: > "$log"

ls "$out"/0001-*.patch > /dev/null 2>&1 ||
	{ echo "FAIL|series: no build/patches/ (make patches failed)|"; exit 1; }

rm -rf "$work" "$obj"
git -C "$src" worktree prune
git -C "$src" worktree add -q --detach "$work" base || { echo "FAIL|series: no worktree|"; exit 1; }
trap 'git -C "$src" worktree remove --force "$work" 2>/dev/null' EXIT

# The C files the whole series changes or adds: what the prefixes compile.
objects_all=$(cat "$out"/0*.patch | sed -n 's|^+++ b/\(.*\)\.c$|\1.o|p' |
	grep -Ev '^(tools|Documentation|scripts)/' | sort -u)

# One "STATUS|label|detail" line per check, as static-checks.sh prints.
result() { echo "$1|$2|${3:-}"; }

# tinyconfig + the fragments, as config.sh, but without its check that
# every symbol made it: the prefixes before the Kconfig patch lack them.
configure() {	# configure FRAGMENT...
	local f abs=()

	for f in "$@"; do abs+=("$top/$f"); done
	mkdir -p "$obj"
	{ make -C "$work" O="$obj" -s tinyconfig &&
	  (cd "$work" && scripts/kconfig/merge_config.sh -m -O "$obj" "$obj/.config" "${abs[@]}") &&
	  make -C "$work" O="$obj" -s olddefconfig &&
	  make -C "$work" O="$obj" CC="ccache gcc" -s -j"$(nproc)" prepare; } >> "$log" 2>&1
}

compile() {	# compile LABEL: the objects of objects_all that exist now
	local o objs=() bad=
	for o in $objects_all; do
		[ -f "$work/${o%.o}.c" ] && objs+=("$o")
	done
	[ ${#objs[@]} -gt 0 ] || { result PASS "series: $1 compiles (nothing to compile yet)"; return; }
	for o in "${objs[@]}"; do
		make -C "$work" O="$obj" CC="ccache gcc" -s "$o" >> "$log" 2>&1 || bad+=" $o"
	done
	if [ -z "$bad" ]; then
		result PASS "series: $1 compiles" "${#objs[@]} objects"
	else
		result FAIL "series: $1 compiles" "not:$bad (build/series.log)"
	fi
}

configure configs/base.config configs/test.config ||
	{ result FAIL "series: configure the base" "build/series.log"; exit 1; }
for p in "$out"/0*.patch; do
	name=$(basename "$p" .patch)
	[ "$name" = 0000-cover-letter ] && continue
	if ! git -C "$work" "${git_id[@]}" am -q --keep-cr "$p" >> "$log" 2>&1; then
		result FAIL "series: $name applies" "build/series.log"
		exit 1
	fi
	result PASS "series: $name applies"
	# The EM()/EMe() lists are checked as static-checks.sh explains;
	# MAINTAINERS comes with the documentation patch.
	ignore=UNKNOWN_COMMIT_ID,FILE_PATH_CHANGES
	grep -q '^+++ b/include/linux/expsync.h' "$p" &&
		ignore+=,COMPLEX_MACRO,MACRO_ARG_REUSE,MACRO_ARG_UNUSED,SPACING
	grep -q '^+++ b/include/trace/events/' "$p" &&
		ignore+=,PARENTHESIS_ALIGNMENT,OPEN_ENDED_LINE,MACRO_ARG_UNUSED,TRAILING_SEMICOLON
	if (cd "$work" && scripts/checkpatch.pl --strict -q --ignore "$ignore" "$p") >> "$log" 2>&1; then
		result PASS "series: $name checkpatch --strict"
	else
		result FAIL "series: $name checkpatch --strict" "build/series.log"
	fi
	if grep -q '^+++ b/.*Kconfig' "$p"; then
		configure configs/base.config configs/test.config ||
			{ result FAIL "series: $name configures" "build/series.log"; continue; }
	fi
	compile "$name"
done

configure configs/base.config configs/test.config configs/noexpsync.config ||
	{ result FAIL "series: configure CONFIG_EXPSYNC=n" "build/series.log"; exit 1; }
grep -q '^# CONFIG_EXPSYNC is not set' "$obj/.config" ||
	result FAIL "series: CONFIG_EXPSYNC=n is not what configs/noexpsync.config gave"
compile "the series with CONFIG_EXPSYNC=n"
