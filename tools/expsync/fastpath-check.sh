#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fastpath-check.sh SRC [VMLINUX_N VMLINUX_Y]
#
# The vmstat counter fast path must not get heavier: the series must not
# touch the counter update functions of mm/vmstat.c.  Each function's
# text in SRC (the patched tree, build/linux or a worktree of it) must
# equal its text in the pristine base (git tag "base").  Prints "PASS|fastpath: FN|..." or "FAIL|...".
#
# With two vmlinux files, the CONFIG_EXPSYNC=n kernel's and the expsync
# one's of the same config, each function's machine code must be the
# same in both, once addresses are taken out (rip-relative and per-CPU
# offsets, kernel addresses used as displacements, which -O2 emits for
# arrays such as node_data[] (-0x7....... is 0xffffffff8.......), branch
# and call targets, objdump's comments): the same instructions, so the
# same cost per update on a CPU outside the set, under every policy (the
# policies change data, not this code).  A function that one kernel
# inlined everywhere and the other did not is a FAIL; one that both
# inlined everywhere (mod_zone_state and mod_node_state at -O2) is
# compared inside its callers, which the list holds.
src=$1 vml_n=${2:-} vml_y=${3:-}
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

[ -n "$vml_n" ] || exit 0
# code VMLINUX FN: FN's instructions, addresses taken out.
code() {
	objdump -d --no-show-raw-insn "$1" --disassemble="$2" 2>/dev/null |
		sed -n "/^[0-9a-f]* <$2>:/,/^\$/p" |
		sed -E '1d; s/^ *[0-9a-f]+:[[:space:]]*//; s/#.*$//; s/<[^>]*>//g;
			s/[0-9a-f]{16}/ADDR/g; s/-?0x[0-9a-f]+\(%rip\)/OFF(%rip)/g;
			s/-0x7[0-9a-f]{7}\(/ADDR(/g;
			s/[[:space:]]+$//; /^$/d'
}
# has VMLINUX FN: FN is a function symbol of VMLINUX.
has() { nm "$1" 2>/dev/null | grep -Eq " [tT] $2\$"; }
seen=0
for fn in $fns; do
	a=$(code "$vml_n" "$fn")
	b=$(code "$vml_y" "$fn")
	[ -n "$a$b" ] && seen=$((seen + 1))
	if [ -z "$a" ] && [ -z "$b" ] && { has "$vml_n" "$fn" || has "$vml_y" "$fn"; }; then
		echo "FAIL|fastpath: $fn, machine code|a symbol, but objdump printed nothing for it"
	elif [ -z "$a" ] && [ -z "$b" ]; then
		echo "PASS|fastpath: $fn, machine code|inlined into its callers in both kernels, compared there"
	elif [ -z "$a" ] || [ -z "$b" ]; then
		echo "FAIL|fastpath: $fn, machine code|no symbol in ${a:+the expsync}${a:-the CONFIG_EXPSYNC=n} vmlinux"
	elif [ "$a" = "$b" ]; then
		echo "PASS|fastpath: $fn, machine code|$(grep -c . <<<"$a") instructions, the same as CONFIG_EXPSYNC=n"
	else
		diff <(echo "$a") <(echo "$b") | head -n 20
		echo "FAIL|fastpath: $fn, machine code|differs from CONFIG_EXPSYNC=n"
	fi
done
# A tool that prints nothing must not pass every function as inlined.
[ $seen -gt 0 ] ||
	echo "FAIL|fastpath: machine code|objdump disassembled none of the functions"
