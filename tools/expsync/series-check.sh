#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check's "series" section: the postable series (make patches,
# build/patches/) bisects.  On a git worktree of the pristine base
# (build/series-work, O=build/obj-series), for each patch in turn:
#  - it applies with git am;
#  - checkpatch.pl --strict is clean on it;
#  - the prefix ending with it compiles every directory that holds a C
#    file the series touches, or a file including a header it touches
#    (the test kernel's configuration, regenerated when a Kconfig file
#    changes; incremental, ccache);
# and at the end the same objects compile with CONFIG_EXPSYNC=n.
# Prints one "STATUS|label|detail" line per check.
# build/linux is never touched.  SERIES_PATCHES=DIR checks the series
# in DIR instead of build/patches (make check's negative control).
set -uo pipefail
. "$(dirname "$0")/lib.sh"
top=$EXPSYNC_TOP
cd "$top"
src=$top/build/linux
out=${SERIES_PATCHES:-$top/build/patches}
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

rm -rf "$obj"
worktree "$work" base || { echo "FAIL|series: no worktree|"; exit 1; }

# The objects the whole series changes or adds: what the prefixes
# compile.  A C file the test kernel does not build on its own is part of
# the one in its directory that #includes it (kernel/sched/membarrier.c
# of build_utility.c).
objects_all=$(for c in $(cat "$out"/0*.patch | sed -n 's|^+++ b/\(.*\.c\)$|\1|p' |
		grep -Ev '^(tools|Documentation|scripts)/' | sort -u); do
	if [ -f "$top/build/obj-test/${c%.c}.o" ]; then
		echo "${c%.c}.o"
	else
		grep -l "^#include \"$(basename "$c")\"" "$src/$(dirname "$c")"/*.c 2>/dev/null |
			sed "s|^$src/||; s|\.c\$|.o|"
	fi
done | sort -u)
# A header the series changes is compiled through up to 3 objects of the
# test kernel that include it (their .cmd dependency lists say which).
objects_all+=$'\n'$(for h in $(cat "$out"/0*.patch | sed -n 's|^+++ b/\(include/.*\.h\)$|\1|p' | sort -u); do
	grep -rl --include='.*.o.cmd' -F "/$h" "$top/build/obj-test" 2>/dev/null | grep -v '/scripts/' |
		head -n 3 | sed "s|^$top/build/obj-test/||; s|/\.\([^/]*\)\.cmd\$|/\1|"
done | sort -u)
objects_all=$(sort -u <<<"$objects_all" | grep -v '^$')

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

# compile LABEL: every directory that holds an object of objects_all and
# exists by now, whole (a Makefile line naming a file a later patch adds
# fails here); incremental from one prefix to the next.
compile() {
	local d dirs=() bad=

	for d in $(sed 's|/[^/]*$|/|' <<<"$objects_all" | sort -u); do
		[ -d "$work/$d" ] && dirs+=("$d")
	done
	for d in "${dirs[@]}"; do
		make -C "$work" O="$obj" CC="ccache gcc" -s -j"$(nproc)" "$d" >> "$log" 2>&1 || bad+=" $d"
	done
	if [ -z "$bad" ]; then
		result PASS "series: $1 compiles" "${dirs[*]}"
	else
		result FAIL "series: $1 compiles" "not:$bad ($log)"
	fi
}

configure configs/base.config configs/test.config ||
	{ result FAIL "series: configure the base" "$log"; exit 1; }
for p in "$out"/0*.patch; do
	name=$(basename "$p" .patch)
	[ "$name" = 0000-cover-letter ] && continue
	if ! git -C "$work" "${git_id[@]}" am -q --keep-cr "$p" >> "$log" 2>&1; then
		result FAIL "series: $name applies" "$log"
		exit 1
	fi
	result PASS "series: $name applies"
	if (cd "$work" && scripts/checkpatch.pl --strict -q --ignore "$(checkpatch_ignores "$p")" \
		"$p") >> "$log" 2>&1; then
		result PASS "series: $name checkpatch --strict"
	else
		result FAIL "series: $name checkpatch --strict" "$log"
	fi
	if grep -q '^+++ b/.*Kconfig' "$p"; then
		configure configs/base.config configs/test.config ||
			{ result FAIL "series: $name configures" "$log"; continue; }
	fi
	compile "$name"
done

configure configs/base.config configs/test.config configs/noexpsync.config ||
	{ result FAIL "series: configure CONFIG_EXPSYNC=n" "$log"; exit 1; }
grep -q '^# CONFIG_EXPSYNC is not set' "$obj/.config" ||
	result FAIL "series: CONFIG_EXPSYNC=n is not what configs/noexpsync.config gave"
# kernel/expsync/ is not built at all with CONFIG_EXPSYNC=n.
objects_all=$(grep -v '^kernel/expsync/' <<<"$objects_all")
compile "the series with CONFIG_EXPSYNC=n"
