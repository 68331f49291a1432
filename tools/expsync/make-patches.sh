#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make patches: write the postable series to build/patches/: a cover
# letter (subject and text from patches/cover-letter) and patches/series
# with the poster's From: and Signed-off-by:.  Then check that "git am"
# of it onto the pristine base, in a git worktree of build/linux,
# reproduces build/linux's commits, and that the new files here are the
# series' own.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
top=$EXPSYNC_TOP
cd "$top"
src=$top/build/linux
out=$top/build/patches
work=$top/build/patches-work
git_id=(-c user.name="expsync developers" -c user.email=expsync@localhost
	-c commit.gpgsign=false -c core.autocrlf=false)
die() { echo "make patches: $*" >&2; exit 1; }

[ -d "$src/.git" ] || die "no $src; run make tree first"
[ -z "$(git -C "$src" status --porcelain --untracked-files=no)" ] ||
	die "$src has uncommitted changes: commit them and run make export-patches"
[ "$(git -C "$src" rev-parse series)" = "$(git -C "$src" rev-parse HEAD)" ] ||
	die "$src has commits that patches/ does not hold: run make export-patches"

rm -rf "$out"
mkdir -p "$out"
git -C "$src" "${git_id[@]}" format-patch -q --cover-letter --no-signature --zero-commit \
	-o "$out" base..HEAD
# Who posts it: EXPSYNC_AUTHOR="Name <email>", else the git identity of
# this repository, else the project's own.
author=${EXPSYNC_AUTHOR:-}
if [ -z "$author" ] && name=$(git config user.name) && mail=$(git config user.email); then
	author="$name <$mail>"
fi
python3 - "$author" patches/cover-letter "$out"/*.patch <<'PY'
import sys
author, blurb, paths = sys.argv[1], sys.argv[2], sys.argv[3:]
subject, body = open(blurb).read().split("\n", 1)
project = "expsync developers <expsync@localhost>"
for path in paths:
    text = open(path).read()
    text = text.replace("*** SUBJECT HERE ***", subject)
    text = text.replace("*** BLURB HERE ***", body.strip("\n"))
    if author and author != project:
        text = text.replace("\nFrom: " + project + "\n", "\nFrom: " + author + "\n", 1)
        text = text.replace("\nSigned-off-by: " + project + "\n",
                            "\nSigned-off-by: " + author + "\n")
    open(path, "w").write(text)
PY

# The series alone, on the base, gives build/linux's tree, and the new
# files here are its own.
worktree "$work" base || die "no worktree of build/linux at $work"
for p in "$out"/0*.patch; do
	[ "$p" = "$out/0000-cover-letter.patch" ] && continue
	git -C "$work" "${git_id[@]}" am -q --keep-cr "$p" || die "$(basename "$p") does not apply on the base"
done
[ "$(git -C "$work" rev-parse 'HEAD^{tree}')" = "$(git -C "$src" rev-parse 'HEAD^{tree}')" ] ||
	die "git am of build/patches does not reproduce build/linux:"$'\n'"$(
		git -C "$src" diff --stat "$(git -C "$work" rev-parse HEAD)" HEAD | tail -n 20)"
added=$(series_added "$src")
for f in $added; do
	git -C "$work" show "HEAD:$f" | cmp -s - "$f" ||
		die "$f differs from the series' copy: edit it in build/linux, then make export-patches"
done
stray=$(not_in_series "$src" "$added")
[ -z "$stray" ] || die "new files here that the series does not add:"$'\n'"$stray"
echo "make patches: $(ls "$out" | wc -l) files in build/patches/;" \
	"git am on the base reproduces build/linux ($(git -C "$src" diff --name-only base HEAD | wc -l)" \
	"files, $(wc -w <<<"$added") new)"
ls "$out"
