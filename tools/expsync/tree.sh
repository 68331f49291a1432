#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tree.sh SRC TESTED_SUBLEVEL
#
# Make SRC the pristine Debian linux-source-6.12 tree (a git repository
# whose tag "base" is the untouched tarball) with patches/series applied
# by "git am" (tag "series"), new files included.  The series is applied
# again only when patches/ changed, so make and ccache rebuild little;
# never over work in SRC that patches/ does not hold.
set -euo pipefail

src=$1 tested=$2
top=$(pwd)
tarball=/usr/src/linux-source-6.12.tar.xz
git_id=(-c user.name=expsync -c user.email=expsync@localhost
	-c commit.gpgsign=false -c core.autocrlf=false)

if [ ! -e "$src/.git" ]; then
	echo "tree: extracting $tarball"
	rm -rf "$src" "$src.tmp"
	mkdir -p "$src.tmp"
	tar -C "$src.tmp" -xf "$tarball"
	mv "$src.tmp"/linux-source-6.12 "$src"
	rmdir "$src.tmp"
	git -C "$src" init -q
	git -C "$src" "${git_id[@]}" add -A -f .
	git -C "$src" "${git_id[@]}" commit -q -m "linux-source-6.12 (pristine)"
	git -C "$src" tag base
fi

sublevel=$(sed -n 's/^SUBLEVEL = //p' "$src/Makefile")
if [ "$sublevel" != "$tested" ]; then
	echo "tree: WARNING: base is 6.12.$sublevel; the series was last tested on 6.12.$tested" >&2
fi

want=$("$(dirname "$0")/export-patches.sh" --hash)
[ "$want" != "$(git -C "$src" config --get expsync.series || true)" ] || exit 0

# Commits made after the series was applied or exported, and edits to
# tracked files (new files are tracked too), are work patches/ lacks.
ahead=$(git -C "$src" rev-list --count series..HEAD 2>/dev/null || echo 0)
dirty=$(git -C "$src" status --porcelain --untracked-files=no)
if [ "${DISCARD:-}" != 1 ] && { [ "$ahead" != 0 ] || [ -n "$dirty" ]; }; then
	echo "tree: $src holds work that patches/ does not:" >&2
	[ "$ahead" = 0 ] || git -C "$src" log --oneline series..HEAD >&2
	[ -z "$dirty" ] || echo "$dirty" >&2
	echo "tree: commit it and run 'make export-patches', or discard it with 'make tree DISCARD=1'" >&2
	exit 1
fi
echo "tree: applying patches/series"
git -C "$src" am --abort >/dev/null 2>&1 || true
git -C "$src" reset -q --hard base
git -C "$src" clean -q -fdx
while read -r p; do
	[ -n "$p" ] || continue
	if ! git -C "$src" "${git_id[@]}" am -q --keep-cr "$top/patches/$p" 2>"$src/.am-err"; then
		echo "tree: patch does not apply: patches/$p" >&2
		cat "$src/.am-err" >&2
		git -C "$src" am --abort >/dev/null 2>&1 || true
		exit 1
	fi
done < patches/series
git -C "$src" tag -f series >/dev/null
git -C "$src" config expsync.series "$want"
