#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# export-patches.sh SRC: regenerate patches/ and patches/series from the
# commits between the pristine base and HEAD of SRC, and copy the files
# the series adds back to their in-tree paths here, where they are read
# and checked.  Run from the repository's top.
# export-patches.sh --hash: the fingerprint of patches/ that tree.sh
# records for the series it applied.
set -euo pipefail

hash() {
	cat patches/series $(sed -n 's|^\(..*\)$|patches/\1|p' patches/series) |
		sha1sum | cut -d' ' -f1
}
[ "${1:-}" != --hash ] || { hash; exit 0; }

src=$1
if [ -n "$(git -C "$src" status --porcelain --untracked-files=no)" ]; then
	echo "export-patches: $src has uncommitted changes to tracked files" >&2
	exit 1
fi
rm -f patches/*.patch
git -C "$src" format-patch -q --no-signature --zero-commit -o "$(pwd)/patches" base..HEAD
(cd patches && ls -1 ./*.patch | sed 's|^\./||') > patches/series
# A new file the series no longer adds goes from here too.
added=$(git -C "$src" diff --name-only --diff-filter=A base HEAD)
for f in $(git ls-files kernel mm arch include Documentation tools/testing); do
	git -C "$src" cat-file -e "base:$f" 2>/dev/null || grep -qxF "$f" <<<"$added" ||
		{ echo "export-patches: removing $f, which the series no longer adds"; git rm -q "$f"; }
done
# shellcheck disable=SC2086 # one word per file
[ -z "$added" ] || git -C "$src" archive HEAD $added | tar -xf -
git -C "$src" tag -f series >/dev/null
git -C "$src" config expsync.series "$(hash)"
cat patches/series
