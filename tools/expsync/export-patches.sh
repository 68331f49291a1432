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
. "$(dirname "$0")/lib.sh"

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
# A new file the series no longer adds goes from here too, unless it
# holds changes git has not committed: then nothing is exported.
added=$(series_added "$src")
stray=$(not_in_series "$src" "$added")
# shellcheck disable=SC2086 # one word per file
if [ -n "$stray" ] && ! git rm -q -n -- $stray > /dev/null; then
	echo "export-patches: new files here that the series does not add hold uncommitted" \
		"changes; commit or drop them first" >&2
	exit 1
fi
rm -f patches/*.patch
git -C "$src" format-patch -q --no-signature --zero-commit -o "$(pwd)/patches" base..HEAD
(cd patches && ls -1 ./*.patch | sed 's|^\./||') > patches/series
for f in $stray; do
	echo "export-patches: removing $f, which the series no longer adds"
	git rm -q "$f"
done
# shellcheck disable=SC2086 # one word per file
[ -z "$added" ] || git -C "$src" archive HEAD $added | tar -xf -
git -C "$src" tag -f series >/dev/null
git -C "$src" config expsync.series "$(hash)"
cat patches/series
