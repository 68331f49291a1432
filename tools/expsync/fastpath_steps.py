# SPDX-License-Identifier: GPL-2.0
#
# Sourced by gdb attached to QEMU's gdbstub (see fastpath-steps.sh): steps
# through real calls of the vmstat counter functions on one vCPU, from
# entry to return, and prints per call one JSON line: the function, how
# many instructions ran, and how many of them were the primitives seed
# 004 priced (locked cmpxchg and other locked read-modify-writes,
# cmpxchg without lock, IRQ off/on, preemption off/on).  QEMU steps with
# IRQs and timers masked, so what is counted is the call itself.
#
# Environment: FASTPATH_CPU (the vCPU), FASTPATH_FUNCS, FASTPATH_SAMPLES
# (calls per function), FASTPATH_VARIANT, FASTPATH_OUT (appended to),
# FASTPATH_ATTACHED (a file created once the breakpoints are set).
# A function's breakpoint goes once it has its calls; sampling ends when
# the guest calls sync(2), which ends its window.
import json
import os
import re

try:
    import gdb
except ImportError:     # report_test.py tests kind() without gdb
    gdb = None

MAX_STEPS = 20000


def addr(expr):
    return int(gdb.parse_and_eval("(unsigned long)(%s)" % expr))


def sym(name):
    try:
        return addr("&'%s'" % name)
    except gdb.error:
        return None


# The preempt count is a per-CPU int, pcpu_hot.preempt_count in 6.12
# (arch/x86/include/asm/current.h: after the current task pointer),
# __preempt_count in later kernels; gdb names its %gs-relative address.
PREEMPT_RE = re.compile(r"<(__preempt_count|pcpu_hot\+(0x)?8)>")


KINDS = ("lock_cmpxchg", "lock_rmw", "cmpxchg", "cli", "sti", "popf", "preempt")


def kind(asm):
    """The seed-004 primitive ASM is (one of KINDS), or None."""
    words = asm.split()
    op = words[0] if words else ""
    if op == "lock":
        return "lock_cmpxchg" if words[1:2] and words[1].startswith("cmpxchg") else "lock_rmw"
    if op.startswith("xchg") and "(" in asm:
        return "lock_rmw"
    if op.startswith("cmpxchg"):
        return "cmpxchg"
    if op in ("cli", "sti"):
        return op
    if op.startswith("popf"):
        return "popf"
    if "%gs:" in asm and op.startswith(("inc", "dec", "add", "sub")) and \
            PREEMPT_RE.search(asm):
        return "preempt"
    return None


def step_out(arch):
    """Step the stopped call to its return; its instructions' texts."""
    sp0 = addr("$sp")
    ret = addr("*(unsigned long *)$sp")
    insns = []
    while len(insns) < MAX_STEPS:
        pc = addr("$pc")
        if pc == ret and addr("$sp") > sp0:
            return insns
        insns.append(arch.disassemble(pc)[0]["asm"])
        gdb.execute("stepi", to_string=True)
    raise gdb.GdbError("no return after %d instructions" % MAX_STEPS)


def main():
    cpu = int(os.environ["FASTPATH_CPU"])
    samples = int(os.environ.get("FASTPATH_SAMPLES", "20"))

    class OnCpu(gdb.Breakpoint):
        """Stops only on the measured vCPU (gdb thread cpu + 1)."""

        def stop(self):
            return gdb.selected_thread().num == cpu + 1

    gdb.execute("set pagination off")
    gdb.execute("set confirm off")
    gdb.execute("set scheduler-locking step")
    bps = {}
    for fn in os.environ["FASTPATH_FUNCS"].split():
        a = sym(fn)
        if a is not None:
            bps[a] = (fn, OnCpu("*%#x" % a, internal=True))
    marker = sym("__x64_sys_sync")
    if marker is None:
        raise gdb.GdbError("no __x64_sys_sync to end the window")
    gdb.Breakpoint("*%#x" % marker, internal=True)
    open(os.environ["FASTPATH_ATTACHED"], "w").close()
    got = {}
    out = open(os.environ["FASTPATH_OUT"], "a")
    while True:
        gdb.execute("continue", to_string=True)
        pc = addr("$pc")
        if pc == marker:
            break
        if pc not in bps:
            continue
        fn, bp = bps[pc]
        insns = step_out(gdb.selected_frame().architecture())
        rec = {"variant": os.environ["FASTPATH_VARIANT"], "fn": fn, "insns": len(insns)}
        for k in KINDS:
            rec[k] = 0
        for asm in insns:
            k = kind(asm)
            if k:
                rec[k] += 1
        rec["asm"] = insns
        out.write(json.dumps(rec) + "\n")
        out.flush()
        got[fn] = got.get(fn, 0) + 1
        if got[fn] >= samples:
            bp.delete()
            del bps[pc]
    for fn, bp in bps.values():
        bp.delete()
    out.close()


if gdb:
    main()
