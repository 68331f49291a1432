#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs inside a guest of make check's plan (tools/expsync/check-plan):
#   boot-check.sh [KNOB=WORD]... [--warn TEXT]... [--no-warn]
#                 [--no-expsync] [--version TEXT]
# and prints TAP, one result per check: kernel.expsync.KNOB reads WORD;
# TEXT appears in the kernel log; (--no-warn) expsync printed nothing;
# (--no-expsync) the kernel has no expsync interface at all, no sysctl
# directory, no debugfs directory, no tracepoint; (--version) TEXT is in
# the running kernel's version string.
n=0 out=
ok() { n=$((n + 1)); out+="ok $n $1"$'\n'; }
not_ok() { n=$((n + 1)); out+="# $2"$'\n'"not ok $n $1"$'\n'; }
expsync=1
while [ $# -gt 0 ]; do
	case "$1" in
	--warn)
		if dmesg | grep -qF -- "$2"; then ok "warns: $2"
		else not_ok "warns: $2" "missing from dmesg"; fi
		shift 2 ;;
	--no-warn)
		msgs=$(dmesg | grep -E '^\[[^]]*\] expsync')
		if [ -z "$msgs" ]; then ok "expsync warns nothing"
		else not_ok "expsync warns nothing" "$(head -c 300 <<<"$msgs")"; fi
		shift ;;
	--no-expsync)
		expsync=0
		for p in /proc/sys/kernel/expsync /sys/kernel/debug/expsync \
			 /sys/kernel/tracing/events/expsync; do
			if [ -e "$p" ]; then not_ok "no $p" "it exists"
			else ok "no $p"; fi
		done
		shift ;;
	--version)
		if grep -qF -- "$2" /proc/version; then ok "kernel version has $2"
		else not_ok "kernel version has $2" "$(cat /proc/version)"; fi
		shift 2 ;;
	*=*)
		knob=${1%%=*} word=${1#*=}
		got=$(cat "/proc/sys/kernel/expsync/$knob" 2>&1)
		if [ "$got" = "$word" ]; then ok "kernel.expsync.$knob = $word"
		else not_ok "kernel.expsync.$knob = $word" "reads '$got'"; fi
		shift ;;
	*)
		not_ok "boot-check argument '$1'" "unknown argument"
		shift ;;
	esac
done
if [ $expsync = 1 ]; then
	if [ -d /proc/sys/kernel/expsync ]; then ok "/proc/sys/kernel/expsync exists"
	else not_ok "/proc/sys/kernel/expsync exists" "missing"; fi
fi
echo "1..$n"
printf '%s' "$out"
