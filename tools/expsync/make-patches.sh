#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make patches: write the postable series to build/patches/:
# 0000-cover-letter.patch (subject and text from patches/cover-letter)
# and one patch per entry of patches/series, each carrying the new files
# that patches/manifest assigns to it.  Then check that "git am" of the
# series onto the pristine base reproduces, byte for byte, the tree that
# make builds (build/linux: the series applied plus the overlay).
#
# Works in git worktrees of build/linux (build/patches-work/{build,verify});
# build/linux itself is not touched.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
top=$EXPSYNC_TOP
cd "$top"
src=$top/build/linux
out=$top/build/patches
work=$top/build/patches-work
manifest=patches/manifest
git_id=(-c user.name="expsync developers" -c user.email=expsync@localhost
	-c commit.gpgsign=false -c core.autocrlf=false)
die() { echo "make patches: $*" >&2; exit 1; }

[ -d "$src/.git" ] || die "no $src; run make tree first"

# The new files: overlay files the base does not have.  An overlay file
# that the base has must be identical (upstream files change by patch).
new=$(mktemp) assigned=$(mktemp)
trap 'rm -f "$new" "$assigned"' EXIT
# shellcheck disable=SC2086 # a list of directories
for f in $(git ls-files $OVERLAY_DIRS); do
	if git -C "$src" cat-file -e "base:$f" 2>/dev/null; then
		git -C "$src" show "base:$f" | cmp -s - "$f" ||
			die "$f differs from the base's: change it by a patch, not the overlay"
	else
		echo "$f"
	fi
done | sort > "$new"

# Every new file in exactly one patch of the series, and nothing else.
grep -Ev '^(#|$)' "$manifest" | awk '{ print $1 }' | sort > "$assigned"
dup=$(uniq -d "$assigned")
[ -z "$dup" ] || die "assigned more than once in $manifest: $dup"
missing=$(comm -23 "$new" "$assigned")
[ -z "$missing" ] || die "new files that $manifest does not assign to a patch:"$'\n'"$missing"
extra=$(comm -13 "$new" "$assigned")
[ -z "$extra" ] || die "$manifest names files that are not new overlay files:"$'\n'"$extra"
for p in $(grep -Ev '^(#|$)' "$manifest" | awk '{ print $2 }' | sort -u); do
	grep -qxF "$p" patches/series || die "$manifest names $p, which is not in patches/series"
done

# A fresh worktree of the base.
fresh() {
	rm -rf "$1"
	git -C "$src" worktree prune
	git -C "$src" worktree add -q --detach "$1" base
}

fresh "$work/build"
while read -r p; do
	[ -n "$p" ] || continue
	git -C "$work/build" "${git_id[@]}" am -q --keep-cr "$top/patches/$p" ||
		die "patches/$p does not apply"
	files=$(awk -v p="$p" '$2 == p { print $1 }' "$manifest")
	[ -n "$files" ] || continue
	for f in $files; do
		mkdir -p "$work/build/$(dirname "$f")"
		cp "$f" "$work/build/$f"
	done
	# Debian's top-level .gitignore ignores everything: add with -f.
	# shellcheck disable=SC2086 # one word per file
	git -C "$work/build" add -f -- $files
	git -C "$work/build" "${git_id[@]}" commit -q --amend --no-edit
done < patches/series

rm -rf "$out"
git -C "$work/build" "${git_id[@]}" format-patch -q --cover-letter --no-signature --zero-commit \
	-o "$out" base..HEAD
subject=$(head -n 1 patches/cover-letter)
python3 - "$out/0000-cover-letter.patch" "$subject" patches/cover-letter <<'PY'
import sys
path, subject, blurb = sys.argv[1], sys.argv[2], sys.argv[3]
text = open(path).read()
body = open(blurb).read().split("\n", 1)[1].strip("\n")
text = text.replace("*** SUBJECT HERE ***", subject).replace("*** BLURB HERE ***", body)
open(path, "w").write(text)
PY

# Who posts it: EXPSYNC_AUTHOR="Name <email>", else the git identity of
# this repository, else the project's own.  It becomes each patch's From:
# and Signed-off-by:, which the commits in build/linux carry as the
# project's.
author=${EXPSYNC_AUTHOR:-}
if [ -z "$author" ] && name=$(git config user.name) && mail=$(git config user.email); then
	author="$name <$mail>"
fi
python3 - "$author" "$out"/*.patch <<'PY'
import sys
author, paths = sys.argv[1], sys.argv[2:]
project = "expsync developers <expsync@localhost>"
if author and author != project:
    for path in paths:
        text = open(path).read()
        text = text.replace("\nFrom: " + project + "\n", "\nFrom: " + author + "\n", 1)
        text = text.replace("\nSigned-off-by: " + project + "\n", "\nSigned-off-by: " + author + "\n")
        open(path, "w").write(text)
PY

# The check: the series alone, on the base, gives build/linux's tree.
fresh "$work/verify"
for p in $(ls "$out"/*.patch | grep -v /0000-cover-letter.patch); do
	git -C "$work/verify" "${git_id[@]}" am -q --keep-cr "$p" ||
		die "$(basename "$p") does not apply on the base"
done
got=$(git -C "$work/verify" ls-files | sort)
want=$( { git -C "$src" ls-files; cat "$new"; } | sort -u)
[ "$got" = "$want" ] ||
	die "the series' files differ from build/linux's:"$'\n'"$(diff <(echo "$want") <(echo "$got") | head -n 20)"
bad=0
while IFS= read -r f; do
	cmp -s "$work/verify/$f" "$src/$f" || { echo "differs: $f" >&2; bad=1; }
done < <(git -C "$work/verify" diff --name-only base HEAD)
[ $bad = 0 ] || die "git am of build/patches does not reproduce build/linux"
git -C "$src" worktree remove --force "$work/verify"
git -C "$src" worktree remove --force "$work/build"
echo "make patches: $(ls "$out" | wc -l) files in build/patches/;" \
	"git am on the base reproduces build/linux ($(git -C "$src" diff --name-only base HEAD | wc -l)" \
	"changed and $(wc -l < "$new") new files)"
ls "$out"
