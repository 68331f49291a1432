# SPDX-License-Identifier: GPL-2.0
#
# Helpers shared by the host harness (tools/expsync/*.sh) and the
# evaluation scripts that run in the guest (tools/expsync/eval/*.sh,
# where the repository is mounted at the same path).  Source it.

# The repository's top directory.
EXPSYNC_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

# The installed expsync kselftests of whichever kernel was built.
expsync_ksft_dir() {
	ls -d "$EXPSYNC_TOP"/build/obj-*/kselftest/kselftest_install/expsync 2>/dev/null |
		head -n 1
}

# The tracepoints that the tests and make run's guests enable, count or
# trace (tools/testing/selftests/expsync, the isolation ledger, and
# what rtla osnoise hooks: kernel/trace/trace_osnoise.c,
# arch/x86/kernel/trace.c), as tracefs event systems or SYSTEM/EVENT.
HELD_TRACEPOINTS=(ipi irq_vectors csd workqueue timer irq expsync osnoise
	sched/sched_switch sched/sched_migrate_task raw_syscalls
	kmem/mm_page_free kmem/mm_page_free_batched)
# The systems of HELD_TRACEPOINTS that a kernel has only with an option,
# and are left out of a kernel built without it.
declare -gA HELD_IF=([expsync]=CONFIG_EXPSYNC [osnoise]=CONFIG_OSNOISE_TRACER)
# The tracefs instances whose events hold the probes.
HOLD_INSTANCES=(expsync-hold1 expsync-hold2)

# hold_static_calls: check that every tracepoint of HELD_TRACEPOINTS
# has two probes for the rest of the boot, the ftrace events of two
# tracefs instances whose buffers stay off, given at boot by
# hold_boot_args.  A tracepoint's call sites are a static call (and,
# with JUMP_LABEL, a static key), patched with text_poke_bp() when its
# probes go from 0 to 1 to 2 and back (tracepoint_add_func(),
# tracepoint_remove_func()); from 2 up, probes come and go without
# patching.  QEMU 7.2's multi-threaded TCG can run a site's temporary
# int3 after the patching is over (tools/expsync/tcg-text-poke.sh
# reproduces it on the CONFIG_EXPSYNC=n kernel): an int3 oops wherever
# a test or perf starts tracing under load.  Given at boot, the probes
# come in trace_init(), while one CPU runs: nothing to race.  Only
# raw_syscalls is enabled here, since syscall_regfunc() must flag pid 1
# (see hold_boot_args).
hold_static_calls() {
	local t=/sys/kernel/tracing i e f
	local evs=()
	[ -d $t/events ] || { echo "FAILED: hold_static_calls: no $t"; return 1; }
	for e in "${HELD_TRACEPOINTS[@]}"; do
		if [ -d "$t/events/$e" ]; then
			evs+=("$e")
		elif [ -z "${HELD_IF[$e]:-}" ]; then
			echo "FAILED: hold_static_calls: no event $e"
			return 1
		fi
	done
	for i in "${HOLD_INSTANCES[@]}"; do
		mkdir -p $t/instances/$i &&
			echo 0 > $t/instances/$i/tracing_on &&
			echo 4 > $t/instances/$i/buffer_size_kb ||
			{ echo "FAILED: hold_static_calls: instance $i"; return 1; }
		for e in "${evs[@]}"; do
			f=$t/instances/$i/events/$e/enable
			if [ "$e" != raw_syscalls ] && [ "$(cat "$f" 2> /dev/null)" != 1 ]; then
				echo "FAILED: hold_static_calls: $f not enabled at boot (hold_boot_args)"
				return 1
			fi
			echo 1 > "$f" ||
				{ echo "FAILED: hold_static_calls: cannot enable $f"; return 1; }
		done
	done
}

# hold_boot_args KCONFIG: the kernel parameters that give
# hold_static_calls' instances their events at boot, in trace_init(),
# before any other CPU runs, for the kernel configured by the .config
# file KCONFIG.  raw_syscalls is left to run time: its regfunc flags
# only the tasks that exist when its first probe comes, and pid 1 does
# not exist yet, so no syscall would ever be traced.
hold_boot_args() {
	local e evs=() i out=
	for e in "${HELD_TRACEPOINTS[@]}"; do
		[ "$e" != raw_syscalls ] || continue
		[ -z "${HELD_IF[$e]:-}" ] || grep -q "^${HELD_IF[$e]}=y" "$1" || continue
		case $e in */*) evs+=("${e/\//:}") ;; *) evs+=("$e:*") ;; esac
	done
	for i in "${HOLD_INSTANCES[@]}"; do
		out+="trace_instance=$i^traceoff$(printf ',%s' "${evs[@]}") "
	done
	echo "${out% }"
}

# hold_check: a TAP test of hold_static_calls.  Counts text_poke_sync()'s
# do_sync_core calls (csd:csd_function_entry, itself held) while the
# top-level sched_switch event, held, and sched_wakeup, not held, are
# each turned on and off 5 times: the first must patch nothing, the
# second, the control, must patch (0->1->0 probes, a static call update
# each way).
hold_check() {
	local t=/sys/kernel/tracing ev n held=- control=-
	local ok="not ok"
	echo "TAP version 13"
	echo "1..1"
	echo 0 > $t/tracing_on
	echo 'func.function == do_sync_core' > $t/events/csd/csd_function_entry/filter &&
		echo 1 > $t/events/csd/csd_function_entry/enable || {
		echo "not ok 1 hold_static_calls: cannot trace do_sync_core"
		return 0
	}
	for ev in sched_switch sched_wakeup; do
		echo > $t/trace
		echo 1 > $t/tracing_on
		for n in 1 2 3 4 5; do
			echo 1 > $t/events/sched/$ev/enable
			echo 0 > $t/events/sched/$ev/enable
		done
		echo 0 > $t/tracing_on
		n=$(grep -c 'csd_function_entry:' $t/trace)
		[ $ev = sched_switch ] && held=$n || control=$n
	done
	echo 0 > $t/events/csd/csd_function_entry/enable
	echo 0 > $t/events/csd/csd_function_entry/filter
	echo > $t/trace
	echo "# do_sync_core calls while turning on and off 5 times: sched_switch" \
		"(held) $held, sched_wakeup (not held) $control"
	[ "$held" = 0 ] && [ "$control" -gt 0 ] && ok=ok
	echo "$ok 1 hold_static_calls: a held tracepoint's events come and go without patching code"
}

# checkpatch_ignores PATCH: the --ignore list of checkpatch --strict for
# PATCH.  The tree has no upstream history for a Fixes: tag to name.
# TRACE_EVENT() has its own layout, which --strict always flags; the
# EM()/EMe() lists that name each enum once expand to the enum, the word
# tables, TRACE_DEFINE_ENUM() and __print_symbolic(), as in
# include/trace/events/migrate.h, which checkpatch flags the same way.
checkpatch_ignores() {
	local ignore=UNKNOWN_COMMIT_ID
	grep -q '^+++ b/include/linux/expsync.h' "$1" &&
		ignore+=,COMPLEX_MACRO,MACRO_ARG_REUSE,MACRO_ARG_UNUSED,BRACKET_SPACE
	grep -q '^+++ b/include/trace/events/' "$1" &&
		ignore+=,PARENTHESIS_ALIGNMENT,OPEN_ENDED_LINE,MACRO_ARG_UNUSED,TRAILING_SEMICOLON
	echo "$ignore"
}

# worktree DIR REV: DIR, a git worktree of build/linux at REV (left
# clean, any git am aborted).  Every scratch tree is one: the static
# base, the series check, the mutants' and the 6.12 membarrier kernel's.
# Made once, then moved: git rewrites only the files that differ, so an
# object directory beside DIR rebuilds little.
worktree() {
	local dir src=$EXPSYNC_TOP/build/linux
	dir=$(realpath -m "$1")
	git -C "$src" worktree prune
	# build/ lies inside this repository: a DIR that is not a worktree
	# of its own would answer for this one.
	if [ "$(git -C "$dir" rev-parse --show-toplevel 2>/dev/null)" != "$dir" ]; then
		rm -rf "$dir"
		mkdir -p "$(dirname "$dir")"
		git -C "$src" worktree add -q --detach "$dir" "$2" || return
	fi
	git -C "$dir" am --abort > /dev/null 2>&1 || true
	git -C "$dir" checkout -q -f --detach "$2" && git -C "$dir" clean -q -fdx
}

# series_added SRC: the files that the series in the tree SRC adds to its base.
series_added() { git -C "$1" diff --name-only --diff-filter=A base HEAD; }

# not_in_series SRC ADDED: the new files of the repository here (tracked
# under the kernel tree's directories, absent from SRC's base) that ADDED
# does not list.
not_in_series() {
	local f
	for f in $(git ls-files kernel mm arch include Documentation tools/testing); do
		git -C "$1" cat-file -e "base:$f" 2>/dev/null || grep -qxF "$f" <<<"$2" || echo "$f"
	done
}

# result STATUS NAME [DETAIL]: one make check result line, counted in
# $passed, $failed and $skipped.
passed=${passed:-0} failed=${failed:-0} skipped=${skipped:-0}
result() {
	case "$1" in
	PASS) passed=$((passed + 1)) ;;
	FAIL) failed=$((failed + 1)) ;;
	SKIP) skipped=$((skipped + 1)) ;;
	esac
	printf '%-4s  %s%s\n' "$1" "$2" "${3:+  ($3)}"
}

# The evaluation's raw records (make run, tools/expsync/report.py): one
# line "@R FIGURE VARIANT VALUE" per run of a measure.  VARIANT is the
# policy measured, or "6.12" on the CONFIG_EXPSYNC=n kernel.
record() {
	case "$3" in
	'' | *[!0-9.e+-]*) echo "  (no value for $1 $2: '$3')" >&2; return 1 ;;
	esac
	echo "@R $1 $2 $3"
}

# The console lines vm-run.sh takes for a kernel splat, besides any
# "Call Trace:" (run.sh's nomem phase tells 6.12's expected stack dumps
# from these).
SPLAT_RE='BUG:|WARNING:|Oops|Kernel panic|general protection fault|possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU usage|KASAN:|UBSAN:|sleeping function called from invalid context|INFO: task .* blocked'

# True on the expsync kernel, false on the CONFIG_EXPSYNC=n one (6.12).
expsync_kernel() { [ -d /proc/sys/kernel/expsync ]; }

# eval_reps FIGURE: the runs of FIGURE: 3 with QUICK=1 (a first look),
# else report.py's (run.sh passes "report.py runs" as FIGURE_RUNS), 5
# when a script runs alone; 0, said on stderr, for a figure not there.
eval_reps() {
	local r

	[ -z "${QUICK:-}" ] || { echo 3; return; }
	[ -n "${FIGURE_RUNS:-}" ] || { echo 5; return; }
	for r in $FIGURE_RUNS; do
		[ "${r%:*}" != "$1" ] || { echo "${r##*:}"; return; }
	done
	echo "eval_reps: no figure $1 in report.py's" >&2
	echo 0
}

# wants FIGURE: true when this run measures FIGURE: always, or with
# QUICK=1 when it is in QUICK_FIGURES (report.py's QUICK set, which
# run.sh passes to the guest; report.py says the others were not measured).
wants() { [ -z "${QUICK:-}" ] || [[ " ${QUICK_FIGURES:-} " == *" $1 "* ]]; }

# eval_step NAME: "@T SCRIPT:NAME S", the guest seconds since the
# script's start or its step before (make run prints them: what each
# part of the evaluation costs).  Builtins only: $SECONDS.
eval_step() {
	echo "@T $(basename "$0"):$1 $((SECONDS - ${eval_step_t:-0}))"
	eval_step_t=$SECONDS
}

# The membarrier eval scripts' helpers.  set_knob KNOB WORD: on expsync
# only (6.12 has one behaviour).
set_knob() { ! expsync_kernel || echo "$2" > "/proc/sys/kernel/expsync/$1"; }

variants() {	# variants WORD...: the words on expsync, 6.12 on =n
	if expsync_kernel; then echo "$@"; else echo 6.12; fi
}

# handler_runs CMD... -> "ipi_mb-runs bench-output" of one run ($dir: the
# kselftests, expsync_ksft_dir(), as each eval script sets it)
handler_runs() {
	local res n
	res=$("$dir/tpcount" -a -o /tmp/mb_eval.$$ \
		-e 'csd:csd_function_entry/func.function == ipi_mb' -- "$@")
	read -r n _ < /tmp/mb_eval.$$
	rm -f /tmp/mb_eval.$$
	[ -n "$res" ] && [ -n "$n" ] && echo "$n $res"
}
