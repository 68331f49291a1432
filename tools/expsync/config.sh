#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# config.sh SRC OBJ FRAGMENT...
#
# tinyconfig + the fragments, then check that every option a fragment
# asks for made it into .config (merge_config only warns).
set -euo pipefail

src=$1 obj=$2
shift 2
frags=("$@")
top=$(pwd)
mkdir -p "$obj"
obj=$(cd "$obj" && pwd)
abs=()
for f in "${frags[@]}"; do abs+=("$top/$f"); done

make -C "$src" O="$obj" -s tinyconfig >/dev/null
(cd "$src" && scripts/kconfig/merge_config.sh -m -O "$obj" "$obj/.config" "${abs[@]}" >/dev/null)
make -C "$src" O="$obj" -s olddefconfig >/dev/null

# The last fragment to name a symbol wins, as in merge_config.sh.
declare -A want
while IFS= read -r line; do
	case "$line" in
	CONFIG_*=*) want[${line%%=*}]=${line#*=} ;;
	esac
done < <(cat "${abs[@]}")

bad=0
for sym in "${!want[@]}"; do
	val=${want[$sym]}
	if [ "$val" = n ]; then
		grep -q "^$sym=" "$obj/.config" || continue
	else
		grep -qxF "$sym=$val" "$obj/.config" && continue
	fi
	echo "config: $sym=$val requested but not in $obj/.config" >&2
	bad=1
done
exit $bad
