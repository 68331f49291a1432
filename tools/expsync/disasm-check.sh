#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# disasm-check.sh BASE_VMLINUX VMLINUX
#
# The vmstat counter fast path must not get heavier: each function below
# must disassemble to the same instructions in VMLINUX (CONFIG_EXPSYNC=y,
# vmstat_drain built in) as in BASE_VMLINUX (the same config with
# CONFIG_EXPSYNC=n).  Addresses and branch/call targets are masked; the
# instruction sequence, operands and registers must match exactly.
# Prints "PASS|disasm: FN|N instructions" or "FAIL|...".
base=$1 new=$2
fns="__mod_zone_page_state __mod_node_page_state __inc_zone_state __dec_zone_state
__inc_node_state __dec_node_state __inc_zone_page_state __dec_zone_page_state
mod_zone_page_state mod_node_page_state inc_zone_page_state dec_zone_page_state
inc_node_page_state dec_node_page_state"

dis() {		# dis VMLINUX FN: the instructions, addresses masked
	objdump -d --no-show-raw-insn --disassemble="$2" "$1" |
		sed -n '/^[0-9a-f]* <'"$2"'>:$/,/^$/p' | tail -n +2 |
		sed -E 's/^ *[0-9a-f]+:\s*//; s/0x[0-9a-f]+/X/g; s/\b[0-9a-f]{8,}\b/X/g; s/<[^>]*>/<T>/g' |
		grep -v '^$'
}
for fn in $fns; do
	a=$(dis "$base" "$fn") b=$(dis "$new" "$fn")
	if [ -z "$a" ]; then
		echo "SKIP|disasm: $fn|not in the base vmlinux"
	elif [ "$a" = "$b" ]; then
		echo "PASS|disasm: $fn|$(wc -l <<<"$a") instructions, same as CONFIG_EXPSYNC=n"
	else
		diff <(echo "$a") <(echo "$b") | head -n 20
		echo "FAIL|disasm: $fn|differs from CONFIG_EXPSYNC=n"
	fi
done
