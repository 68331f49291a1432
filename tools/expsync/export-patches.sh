#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# export-patches.sh SRC
#
# Regenerate patches/ and patches/series from the commits between the
# pristine base and HEAD of the tree in SRC.  Edit an upstream file in
# build/linux, commit it (or "git rebase -i base" to amend a patch),
# then run "make export-patches".
set -euo pipefail

src=$1
top=$(pwd)
if [ -n "$(git -C "$src" status --porcelain --untracked-files=no)" ]; then
	echo "export-patches: $src has uncommitted changes to tracked files" >&2
	exit 1
fi
rm -f patches/*.patch
git -C "$src" format-patch -q --no-signature --zero-commit \
	-o "$top/patches" base..HEAD
(cd patches && ls -1 ./*.patch | sed 's|^\./||') > patches/series
git -C "$src" tag -f series >/dev/null
want=$(cat patches/series $(sed -n 's|^\(..*\)$|patches/\1|p' patches/series) |
	sha1sum | cut -d' ' -f1)
git -C "$src" config expsync.series "$want"
cat patches/series
