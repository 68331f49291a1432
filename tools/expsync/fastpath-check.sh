#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fastpath-check.sh SRC
#
# The vmstat counter fast path must not get heavier: the series must not
# touch the counter update functions of mm/vmstat.c.  Each function's
# text in SRC (the patched tree) must equal its text in the pristine
# base (git tag "base").  Prints "PASS|fastpath: FN|..." or "FAIL|...".
#
# (A disassembly comparison of CONFIG_EXPSYNC=y against =n vmlinux was
# tried first: GCC inlines mod_node_state() and lays out blocks
# differently once mm/vmstat.c holds the expsync hooks elsewhere, so the
# binaries differ without any new instruction on the fast path.)
src=$1
fns="__mod_zone_page_state __mod_node_page_state __inc_zone_state __dec_zone_state
__inc_node_state __dec_node_state __inc_zone_page_state __dec_zone_page_state
__inc_node_page_state __dec_node_page_state mod_zone_state mod_node_state
mod_zone_page_state mod_node_page_state inc_zone_page_state dec_zone_page_state
inc_node_page_state dec_node_page_state inc_node_state"

body() {	# body FN < FILE: every definition of FN, from its line to "}"
	awk -v fn="$1" '
		!on && $0 ~ "^[a-z].*[ *]" fn "\\(" && $0 !~ ";$" { on = 1 }
		on { print }
		on && /^}/ { on = 0; print "--" }'
}
for fn in $fns; do
	a=$(git -C "$src" show base:mm/vmstat.c | body "$fn")
	b=$(body "$fn" < "$src/mm/vmstat.c")
	if [ -z "$a" ]; then
		echo "FAIL|fastpath: $fn|not found in base mm/vmstat.c"
	elif [ "$a" = "$b" ]; then
		echo "PASS|fastpath: $fn|$(grep -c . <<<"$a") lines, unchanged by the series"
	else
		diff <(echo "$a") <(echo "$b") | head -n 20
		echo "FAIL|fastpath: $fn|changed by the series"
	fi
done
