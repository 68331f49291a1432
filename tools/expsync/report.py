#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make run's report: expsync against 6.12, from the guests' records.

report.py DIR          DIR's logs (tools/expsync/run.sh; LOGS) make DIR/summary.txt
                       (at most 40 lines, printed), report.md, index.html (gnuplot
                       plots embedded) and results.json (every raw run).  Exits 1
                       naming what failed: a figure short of runs, a guest's
                       MISSING/FAILED line, a failed claim.
report.py compare A B  every figure and variant of both results.json: the two
                       means and B's ratio to A.
report.py runs         each figure's runs in a full run ("FIGURE:N ...").
report.py quick-figures  the figures QUICK=1 measures.
"""
import base64
import collections
import datetime
import itertools
import json
import math
import os
import pathlib
import re
import socket
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ledger  # noqa: E402  (tools/expsync/ledger.py)

CAUSES, LEDGER_WHAT = ledger.CAUSES, ledger.WHAT
# The ledger's expsync windows (run.sh LEDGER_CONFIGS), as variants.
LEDGER_VARIANTS = ["rcu/user-return", "immediate/direct", "auto/periodic"]
TF_MODES = ["immediate", "rcu+percpu", "rcu+gather"]
VMSTAT = ["periodic", "user-return", "direct"]
# What QUICK=1 measures, 3 runs each: a figure or two per claim of the
# summary.  run.sh hands it to the guests (lib.sh wants()); the others
# are reported as not measured, never as a number.
QUICK = {"mb_ipi_t3", "mb_ns_t3", "mb_coalesce_c3_cps", "mb_coalesce_c3_rounds",
         "mb_coalesce_c3_p99_ns", "mb_coalesce_c3_max_ns", "tf_munmap_task_ms",
         "tf_munmap_busy_ms", "tf_munmap_rcu_per_1000", "tf_munmap_tables_per_rcu",
         "vm_getppid_ns", "vm_page_cycle_ns"}
NOT_QUICK = "not measured by QUICK=1"
# "eval/10-membarrier.sh scaling": targets of a call, concurrent callers,
# runs per figure.
SCALE_TARGETS, SCALE_CALLERS, SCALE_RUNS = range(1, 8), range(1, 8), 3
# 3 runs for figures that spread by a percent or less, or that no claim
# judges: enough against bounds of 10%, and a run costs guest seconds.
FEW_RUNS, FULL_RUNS = 3, 5
# Seed 000 (8 cores, 10,000,000 calls per T): seconds of the whole run,
# IPI-to-many and single IPIs, for T = 1..7 target threads.
SEED000_MANY_S = [20.173, 20.506, 22.632, 24.759, 26.633, 29.654, 30.669]
SEED000_SINGLE_S = [18.801, 29.086, 46.841, 53.758, 70.856, 81.142, 98.362]
# Seed 004 (i7-11850H): cycles per operation, by fastpath_steps.py's kinds.
SEED004_CYCLES = [("lock_cmpxchg", "locked cmpxchg", 12), ("cmpxchg", "cmpxchg without lock", 3),
                  ("lock_rmw", "locked add return", 10), ("sti", "enabling interrupts (STI)", 4),
                  ("cli", "disabling interrupts (CLI)", 12),
                  ("preempt", "preemption off + on (a pair: 3 per op here)", 6)]
FASTPATH_VARIANTS = ["6.12", "periodic", "user-return", "direct"]
# The guests' logs, and whether each is the CONFIG_EXPSYNC=n kernel's
# (the only source of variant 6.12).  The ledger boots also run rtla;
# programs-*: stress-ng --membarrier without nohz_full; scaling-*: the
# 8-vCPU curves; nomem-*: the test kernels under fault injection.
LOGS = [("guest-bench-noexpsync.log", True), ("guest-bench.log", False),
        ("ledger-bench-noexpsync.log", True), ("ledger-bench.log", False),
        ("programs-bench-noexpsync.log", True), ("programs-bench.log", False),
        ("scaling-bench-noexpsync.log", True), ("scaling-bench.log", False),
        ("nomem-612.log", True), ("nomem-test.log", False)]


class Claim(collections.namedtuple("Claim", "variant op bound against why")):
    """VARIANT's mean over AGAINST's, judged on the ratio's 95% interval
    (ratio_interval()), so that the verdict fits the noise measured:
    "<=", ">=" R: the whole interval is at most (at least) R; "in" (LO, HI):
    it lies in [LO, HI]; "no_worse" T: fails when the whole interval is
    worse than 1 + T (1 - T for a higher-is-better figure), and says which
    regression the spread could show; "zero": every run of VARIANT is 0 and
    one of AGAINST (the control) is not."""

    def text(self):
        return {"<=": "{v}/{a} <= {b}", ">=": "{v}/{a} >= {b}",
                "in": "{v}/{a} in [{b[0]}, {b[1]}]", "zero": "{v} = 0, {a} > 0",
                "no_worse": "{v} no worse than {a} by over {b}"}[self.op].format(
                    v=self.variant, a=self.against, b=self.bound)

    def bounds(self, better):
        """The bounds the ratio is judged against: 1 + T (1 - T, higher is
        better) for no_worse."""
        if self.op == "no_worse":
            return [1 + self.bound if better == "lower" else 1 - self.bound]
        return list(self.bound) if self.op == "in" else [self.bound]


# Student's t, 97.5th percentile, by degrees of freedom (a df between
# two rows takes the smaller row's: the wider interval).
T975 = [(1, 12.706), (2, 4.303), (3, 3.182), (4, 2.776), (5, 2.571), (6, 2.447),
        (7, 2.365), (8, 2.306), (9, 2.262), (10, 2.228), (12, 2.179), (15, 2.131),
        (20, 2.086), (30, 2.042), (60, 2.000), (120, 1.980)]


def ratio_interval(xs, ys):
    """(low, ratio, high): mean(xs)/mean(ys) and its 95% interval, Welch's
    t on the ratio (relative variance: the sum of the two means';
    Welch-Satterthwaite df).  With 3 to 5 runs a kernel this is wider, and
    fairer, than a bootstrap of the runs.  None if mean(ys) is 0."""
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    if not my:
        return None
    r = mx / my
    parts = [statistics.variance(v) / len(v) / m ** 2 if len(v) > 1 and m else 0.0
             for v, m in ((xs, mx), (ys, my))]
    rel = sum(parts)
    if not rel:
        return (r, r, r)
    df = rel ** 2 / sum(p ** 2 / (len(v) - 1)
                        for p, v in zip(parts, (xs, ys)) if p and len(v) > 1)
    t = next((q for d, q in reversed(T975) if d <= df), T975[0][1]) if df < 1e6 else 1.960
    h = t * abs(r) * math.sqrt(rel)
    return (r - h, r, r + h)


def judge(f, c):
    """(STATUS, name, detail) of claim c of figure f; STATUS is PASS,
    FAIL or NOT-JUDGED (a figure QUICK=1 did not measure)."""
    name = "%s: %s" % (f["id"], c.text())
    if f["skipped"]:
        return ("NOT-JUDGED", name, NOT_QUICK)
    a, b = f["stats"].get(c.variant), f["stats"].get(c.against)
    if not a or not b:
        return ("FAIL", name, "no runs of %s" % (c.variant if not a else c.against))
    if c.op == "zero":
        ok = max(a["runs"]) == 0 and max(b["runs"]) > 0
        return ("PASS" if ok else "FAIL", name, "%s: %s runs %s, %s runs %s" % (
            c.why, c.variant, a["runs"], c.against, b["runs"]))
    iv = ratio_interval(a["runs"], b["runs"])
    if iv is None:
        return ("FAIL", name, "%s's mean is 0: no ratio" % c.against)
    (lo, r, hi), bd = iv, c.bounds(f["better"])
    ok = {"<=": hi <= bd[0], ">=": lo >= bd[0], "in": bd[0] <= lo and hi <= bd[-1],
          "no_worse": lo <= bd[0] if f["better"] == "lower" else hi >= bd[0]}[c.op]
    half = (hi - lo) / 2 / r * 100 if r else float("inf")
    sees = ("; shows a regression above %.0f%%" % (c.bound * 100 + half)
            if c.op == "no_worse" else "")
    return ("PASS" if ok else "FAIL", name, "%s: ratio %.3f, 95%% interval [%.3f, %.3f] "
            "over %d and %d runs (resolves +-%.1f%%%s)" % (
                c.why, r, lo, hi, a["n"], b["n"], half, sees))


def figures():
    """Every figure make run must produce, with its claims.  base: "6.12"
    when the CONFIG_EXPSYNC=n kernel measures it too, else the expsync
    variant that is 6.12's code path."""
    f = []

    def add(fid, title, unit, variants, base="6.12", runs=None, claims=()):
        """A figure of section sec (set before each part).  Rates and tables
        per call_rcu() are better higher, costs and counts lower."""
        better = "higher" if unit in ("calls/s", "bogo-ops/s", "tables") else "lower"
        f.append(dict(id=fid, section=sec, title=title, unit=unit, better=better,
                      variants=variants, base=base, runs=runs, quick=fid in QUICK,
                      claims=list(claims)))

    def keeps(variants, t, why):
        """Each variant no worse than 6.12 by over t."""
        return [Claim(v, "no_worse", t, "6.12", why % v) for v in variants]
    sec, ms, oo = "membarrier", ["many", "single"], ["off", "on"]
    for t in (2, 3):
        add("mb_ipi_t%d" % t, "IPI sends per 1000 calls, %d target(s)" % (t - 1), "sends", ms,
            runs=FEW_RUNS, claims=[
                Claim("many", "in", (0.9, 1.1), "6.12", "many sends what 6.12 sends (within 10%)")] +
            ([Claim("single", "in", (1.8, 2.2), "many",
                    "single sends one IPI per target: twice many's for 2 targets")] if t == 3 else []))
        # Not judged: a call waits for QEMU's round-robin to reach the
        # spinning targets (explained()); mb_victim_alone_ns judges the cost.
        add("mb_ns_t%d" % t, "time per call, %d target(s)" % (t - 1), "ns", ms, runs=FEW_RUNS)
    # Judged at 3 callers only: with 1 or 2 beside a spinning target,
    # calls per second follow QEMU's turns as mb_ns does.
    for c in (1, 2, 3):
        add("mb_coalesce_c%d_cps" % c, "calls per second, %d concurrent caller(s)" % c,
            "calls/s", oo, claims=[] if c < 3 else [
                Claim("off", "no_worse", 0.10, "6.12", "off is 6.12's path"),
                Claim("on", ">=", 1.2, "off",
                      "3 callers sharing rounds make at least 1.2x off's calls")])
        add("mb_coalesce_c%d_rounds" % c, "IPI handler runs per 1000 calls, %d caller(s)" % c,
            "runs", oo, claims=[] if c < 3 else [Claim(
                "on", "<=", 0.67, "off", "at most 2/k rounds per call at k = 3 callers")])
        add("mb_coalesce_c%d_p99_ns" % c, "p99 call latency, %d caller(s)" % c, "ns", oo,
            claims=[] if c < 3 else keeps(oo, 0.10, "%s's p99 is no worse than 6.12's"))
        add("mb_coalesce_c%d_max_ns" % c, "worst call latency, %d caller(s)" % c, "ns", oo)
    for h, what in (("alone", "alone"), ("hammer", "beside an unprivileged hammer")):
        add("mb_victim_%s_ns" % h, "another process's call, %s" % what, "ns", oo,
            claims=[] if h == "hammer" else [Claim(
                "off", "no_worse", 0.05, "6.12",
                "a GLOBAL_EXPEDITED call that IPIs no CPU costs what 6.12's does")])
        add("mb_victim_%s_p99_ns" % h, "another process's p99 latency, %s" % what, "ns", oo,
            claims=[] if h == "alone" else keeps(
                oo, 0.10, "a bystander's p99 under %s is no worse than 6.12's"))
    # Test kernels under fault injection (eval/nomem.sh): claims().
    add("mb_nomem_fail", "registrations and commands failing (ENOMEM) under fault injection, "
        "test kernels", "cases", ["expsync"])
    sec = "table_free"
    for w, what in (("malloc_t1", "malloc1, 1 thread"), ("malloc_t2", "malloc1, 2 threads"),
                    ("malloc_t4", "malloc1, 4 threads"), ("munmap", "munmap loop")):
        if w in ("malloc_t1", "munmap"):
            add("tf_%s_task_ms" % w, "%s: benchmark time" % what, "ms", TF_MODES,
                claims=keeps(["immediate"], 0.05, "%s is 6.12's free path"))
            add("tf_%s_busy_ms" % w, "%s: all CPUs' busy time" % what, "ms", TF_MODES,
                claims=[Claim("rcu+percpu", "no_worse", 0.05, "rcu+gather",
                              "per-CPU batching costs no more than gather")])
        judged = w in ("malloc_t4", "munmap")
        # Every call_rcu() in the system: the VMAs' own too.
        add("tf_%s_rcu_per_1000" % w, "%s: call_rcu() per 1000 munmaps" % what, "calls",
            TF_MODES, claims=[Claim("rcu+percpu", "no_worse", 0.01, "immediate",
                                    "percpu adds at most 1% to the call_rcu()s of immediate, "
                                    "which hands no table to RCU")] if judged else [])
        add("tf_%s_tables_per_rcu" % w, "%s: page tables per call_rcu() of tables" % what,
            "tables", ["rcu+percpu", "rcu+gather"], base="rcu+gather",
            claims=[Claim("rcu+percpu", ">=", 5.0, "rcu+gather",
                          "percpu hands RCU at least 5x gather's tables per call_rcu()")]
            if judged else [])
    sec = "vmstat"
    for fid, what, why in (("vm_getppid_ns", "null system call", "a null system call"),
                           ("vm_page_cycle_ns", "mmap+touch+munmap", "a page map cycle")):
        add(fid, what + " on the isolated CPU", "ns", VMSTAT, claims=[Claim(
            "direct", "no_worse", 0.02, "periodic", "direct costs %s what periodic does" % why)])
    # One window per policy: one costs minutes of host time under TCG.
    add("vm_stale_share", "samples with unfolded differentials", "share", VMSTAT,
        base="periodic", runs=1,
        claims=[Claim(v, "zero", None, "periodic",
                      "no stale sample under %s, where periodic has some" % v)
                for v in ("user-return", "direct")])
    add("vm_update_work", "vmstat_update work items on the isolated CPU", "items", VMSTAT,
        base="periodic", runs=1)
    # Beside ledger.py's own claims (ledger.txt): the causes 6.12 always
    # shows, per policy, against 6.12's windows.
    sec = "ledger"
    for c in CAUSES:
        add("ledger_%s" % c, LEDGER_WHAT[c] + " on the isolated CPU per window", "count",
            LEDGER_VARIANTS, claims=keeps(LEDGER_VARIANTS, 0.10, "%s interrupts the isolated "
                                          "CPU no more than 6.12")
            if c in ("timer", "callfn", "work") else [])
    sec = "programs"
    for prog in ("mmap", "vm"):
        add("sng_%s_ops" % prog, "stress-ng --%s" % prog, "bogo-ops/s", TF_MODES,
            runs=FEW_RUNS, claims=keeps(TF_MODES, 0.10, "stress-ng under %s keeps 6.12's rate"))
    add("sng_membarrier_ops", "stress-ng --membarrier (4 vCPUs, no nohz_full)", "bogo-ops/s",
        oo, claims=keeps(oo, 0.10, "stress-ng --membarrier under %s keeps 6.12's rate"))
    # In the ledger boots, without -icount (40-programs.sh).
    for fid, what, unit in (("rtla_irq", "IRQs", "IRQs"), ("rtla_noise_us", "noise", "us")):
        add(fid, "rtla osnoise: %s on the isolated CPU (ledger boot)" % what, unit,
            ["expsync"], runs=FEW_RUNS)
    # 8 vCPUs ("eval/10-membarrier.sh scaling").  The sends also count the
    # tick's idle-balance kicks, which vary: mb_ipi_t* judge the strategy.
    sec = "scaling"
    for n in SCALE_TARGETS:
        add("mb_scale_sends_t%d" % n, "IPI sends per 1000 calls, %d target(s), 8 vCPUs" % n,
            "sends", ms, runs=SCALE_RUNS)
        add("mb_scale_ns_t%d" % n, "time per call, %d target(s), 8 vCPUs" % n, "ns", ms,
            runs=SCALE_RUNS)
    for k in SCALE_CALLERS:
        add("mb_scale_rounds_c%d" % k, "IPI handler runs per 1000 calls, %d caller(s), 8 vCPUs"
            % k, "runs", ["on"], runs=SCALE_RUNS, claims=[] if k < 3 else [Claim(
                "on", "<=", round(2.0 / k, 3), "6.12",
                "at most 2/k of 6.12's rounds per call at k = %d callers" % k)])
        add("mb_scale_cps_c%d" % k, "calls per second, %d caller(s), 8 vCPUs" % k, "calls/s",
            ["on"], runs=SCALE_RUNS)
    return f


# The summary: one line per claim, {figure: what it says}.
HEADLINES = {
    "mb_ipi_t3": "membarrier strategy, 2 targets",
    "mb_coalesce_c3_cps": "membarrier, 3 concurrent callers",
    "mb_coalesce_c3_rounds": "membarrier IPI handlers/1000 calls, 3",
    "mb_coalesce_c3_p99_ns": "membarrier p99 latency, 3 callers",
    # The p99: a few 40-70 ms stalls under TCG set the mean, on and off alike.
    "mb_victim_hammer_p99_ns": "p99 of a process beside a hammer",
    "mb_victim_alone_ns": "GLOBAL_EXPEDITED with no IPI, alone",
    "mb_nomem_fail": "membarrier ENOMEM, fault injection",
    "tf_malloc_t1_task_ms": "seed 001 malloc1, task time",
    "tf_malloc_t1_busy_ms": "seed 001 malloc1, system-wide",
    "tf_malloc_t4_rcu_per_1000": "malloc1 4 threads, call_rcu/1000",
    "tf_munmap_busy_ms": "munmap loop, system-wide",
    "tf_munmap_rcu_per_1000": "munmap loop, call_rcu per 1000",
    "vm_getppid_ns": "vmstat: null syscall, isolated CPU",
    "vm_page_cycle_ns": "vmstat: page map cycle, isolated",
    "vm_stale_share": "vmstat: stale samples (vs periodic)",
    "ledger_timer": "ledger: timer IRQs, isolated CPU",
    "ledger_callfn": "ledger: call-function IPIs", "ledger_work": "ledger: work items",
    "sng_mmap_ops": "stress-ng --mmap", "sng_vm_ops": "stress-ng --vm",
    "sng_membarrier_ops": "stress-ng --membarrier", "rtla_irq": "rtla osnoise IRQs, isolated CPU",
}


def readlines(d, name, errors="replace"):
    """The lines of file NAME in D, None when there is none."""
    p = os.path.join(d, name)
    if os.path.exists(p):
        with open(p, errors=errors) as f:
            return f.readlines()


def ledger_variant(label, is_612):
    """The variant of a ledger window's label: 6.12, or table_free/vmstat_drain."""
    lm = re.search(r"table_free=([^,]+),vmstat_drain=([^:]+)", label)
    return "6.12" if is_612 else "%s/%s" % lm.groups() if lm else None


def records(d):
    """What the guests' logs (LOGS) hold: {(figure, variant): [values]} of
    their "@R FIGURE VARIANT VALUE" lines and of the ledger's windows
    (ledger_CAUSE), variant 6.12 only from the CONFIG_EXPSYNC=n kernel's
    logs (a figure in two logs takes the later's); the MISSING/FAILED lines
    the guests printed, and missing logs (the bench logs are always needed,
    the ledger's when it ran: ledger.txt); {variant: {key: mean per
    window}} of the ledger's "# who" lines (what ran on the isolated CPU
    and why its tick was kept), a key missing from a window counting 0."""
    data, problems, who = {}, [], {}
    ran_ledger = os.path.exists(os.path.join(d, "ledger.txt"))
    for name, is_612 in LOGS:
        lines, p, got = readlines(d, name), os.path.join(d, name), {}
        k = name.split("-", 1)[1][:-4]   # the kernel: bench-noexpsync, bench, 612, test
        if lines is None:
            if name.startswith("guest-") or (ran_ledger and name.startswith("ledger-")):
                problems.append("no log %s of the %s kernel" % (p, k))
            continue
        problems += ["%s: %s" % (k, x.strip()) for x in lines
                     if re.match(r"\s*(MISSING|FAILED)\b", x)]
        for m in filter(None, (re.match(r"@R (\S+) (\S+) (\S+)\s*$", x) for x in lines)):
            try:
                x = float(m[3])
            except ValueError:
                continue
            if (m[2] == "6.12") == is_612 and math.isfinite(x):
                got.setdefault((m[1], m[2]), []).append(x)
        data.update(got)
        if not name.startswith("ledger-"):
            continue
        got = {}
        for label, kv in ledger.windows(p):
            v = ledger_variant(label, is_612)
            for c in CAUSES if v else ():
                if kv.get(c, "").isdigit():
                    got.setdefault(("ledger_" + c, v), []).append(float(kv[c]))
        data.update(got)
        for label, fns in ledger.who(p):
            v = ledger_variant(label, is_612)
            if v:
                who.setdefault(v, []).append(ledger.counts(fns))
    return data, problems, {v: {k: statistics.fmean(w.get(k, 0) for w in ws)
                                for k in set().union(*ws)} for v, ws in who.items()}


def stats(xs):
    sd = statistics.stdev(xs) if len(xs) > 1 else 0.0
    return dict(n=len(xs), mean=statistics.fmean(xs), sd=sd, min=min(xs), runs=xs)


def fmt(x):
    if x is None:
        return "-"
    return next((f % x for least, f in ((1000, "%.0f"), (10, "%.1f"), (1, "%.2f"))
                 if abs(x) >= least), "%.3f" % x)


def kernels(f):
    """The variants of figure f, 6.12 first when it is measured on 6.12."""
    return (["6.12"] if f["base"] == "6.12" else []) + f["variants"]


def build(d):
    """({id: figure} with each one's stats, [figures short of runs], QUICK=1,
    the guests' problems and the ledger's "# who" (records()))."""
    quick = bool(os.environ.get("QUICK"))
    data, problems, who = records(d)
    figs, missing = {f["id"]: f for f in figures()}, []
    for f in figs.values():
        f["stats"], f["skipped"] = {}, quick and not f["quick"]
        for v in [] if f["skipped"] else kernels(f):
            xs = data.get((f["id"], v), [])
            # The ledger runs 3 windows of 6.12 per window of each policy.
            need = (3 if v == "6.12" else 1) if f["section"] == "ledger" else \
                f["runs"] or (3 if quick else FULL_RUNS)
            if len(xs) < need:
                missing.append("%s [%s]: %d of %d runs" % (f["id"], v, len(xs), need))
            if xs:
                f["stats"][v] = stats(xs)
        base = f["stats"].get(f["base"])
        for s in f["stats"].values():
            s["ratio"] = s["mean"] / base["mean"] if base and base["mean"] else None
    return figs, missing, quick, problems, who


def claims(d, quick, figs, calls):
    """(STATUS, name, detail) of every claim: the ledger's (when it ran: not
    under QUICK=1 unless QUICK holds a ledger figure), fastpath-check.sh's,
    the fast path's instructions, no-ENOMEM and the figures' own."""
    out = []
    ledger_ran = not quick or any(fid.startswith("ledger_") for fid in QUICK)
    for name in (["ledger.txt"] if ledger_ran else []) + ["fastpath.txt"]:
        got = readlines(d, name)
        out += [("FAIL", name, "not produced")] if got is None else [
            m.groups() for m in (re.match(r"(PASS|FAIL)\|([^|]*)\|(.*)$", x.strip())
                                 for x in got) if m]
    # No expsync command returns ENOMEM under fault injection, where 6.12's
    # do in every run (else the injection did not reach them, and
    # expsync's 0 would prove nothing).
    f = figs["mb_nomem_fail"]
    e, b = f["stats"].get("expsync"), f["stats"].get("6.12")
    nomem = [] if f["skipped"] else [(
        "PASS" if e and b and max(e["runs"]) == 0 and min(b["runs"]) > 0 else "FAIL",
        "no-ENOMEM: no expsync command fails where every 6.12 run has one",
        "failed cases per run: expsync %s, 6.12 %s" % (e["runs"] if e else "none",
                                                       b["runs"] if b else "none"))]
    return out + fastpath_claims(calls, quick) + nomem + \
        [judge(f, c) for f in figs.values() for c in f["claims"]]


def fastpath_calls(d):
    """{(function, variant): [call]} of the counter functions' calls that
    gdb stepped through (tools/expsync/fastpath-steps.sh: one JSON line
    per call, both kernels)."""
    calls = {}
    for k in ("bench-noexpsync", "bench"):
        for r in map(json.loads, readlines(d, "fastpath-%s.jsonl" % k, "strict") or ()):
            calls.setdefault((r["fn"], r["variant"]), []).append(r)
    return calls


def fastpath_claims(calls, quick):
    """The counter functions' instructions per call: periodic and
    user-return take 6.12's shortest path (the same code and the same
    thresholds), and under direct every call reaches the global counters
    (a locked read-modify-write: nothing is held per CPU)."""
    fns = sorted({fn for fn, v in calls if v == "6.12"})
    if quick or not fns:
        return [("NOT-JUDGED" if quick else "FAIL", "fast path instructions", NOT_QUICK if quick
                 else "no calls stepped on 6.12" if calls else "fastpath-*.jsonl not produced")]
    same, direct = [], []
    for fn in fns:
        fewest = {v: min((r["insns"] for r in calls.get((fn, v), ())), default="no calls")
                  for v in ("6.12", "periodic", "user-return")}
        same += ["%s %s: %s against 6.12's %d" % (fn, v, fewest[v], fewest["6.12"])
                 for v in ("periodic", "user-return") if fewest[v] != fewest["6.12"]]
        got = calls.get((fn, "direct"), [])
        unlocked = [r for r in got if not r["lock_rmw"] + r["lock_cmpxchg"]]
        if not got or unlocked:
            direct.append("%s: %s" % (fn, "%d of %d calls without a locked RMW" % (
                len(unlocked), len(got)) if got else "no calls"))
    return [("FAIL" if same else "PASS",
             "fast path: periodic and user-return run 6.12's fewest instructions per call",
             "; ".join(same) or "%d functions, equal" % len(fns)),
            ("FAIL" if direct else "PASS",
             "fast path: under direct every call updates the global counters (locked RMW)",
             "; ".join(direct) or "%d functions, every call" % len(fns))]


def table(*cols):
    """A markdown table's head."""
    return ["| %s |" % " | ".join(cols), "|---" * len(cols) + "|"]


def fastpath_md(calls):
    """Seed 004's costs beside the counter functions' executed instructions
    per call, per policy, or nothing when not stepped."""
    fns = sorted({fn for fn, v in calls if v == "6.12"})
    if not fns:
        return []
    kinds = ("lock_cmpxchg", "lock_rmw", "cmpxchg", "cli", "sti", "popf", "preempt")
    md = ["", "## vmstat counter fast path: seed 004's costs, as executed instructions", "",
          "gdb on QEMU's gdbstub steps through real calls of each counter function on "
          "the isolated CPU 3 (expsync: the vmstat_drain set) while it maps, touches and "
          "unmaps a page in a loop (tools/expsync/fastpath-steps.sh), from entry to "
          "return, interrupts masked: the instructions the call executed, and among them "
          "seed 004's priced primitives (counts of the median call).  Seed 004 (Christoph "
          "Lameter's objection, i7-11850H): " + ", ".join(
              "%s %d cycles" % (t, c) for _, t, c in SEED004_CYCLES) + ".  The last "
          "column prices the median call's primitives at those cycles (POPF unpriced).",
          ""] + table("function", "kernel / policy", "calls", "instructions min / median / max",
                      "locked cmpxchg", "other locked RMW", "cmpxchg", "CLI", "STI", "POPF",
                      "preempt ops", "seed-004 cycles")
    for fn, v in itertools.product(fns, FASTPATH_VARIANTS):
        got = sorted(calls.get((fn, v), []), key=lambda r: r["insns"])
        if not got:
            md.append("| %s | %s | 0 | MISSING | | | | | | | | |" % (fn, v))
            continue
        med = got[(len(got) - 1) // 2]
        cyc = sum(med[k] * c for k, _, c in SEED004_CYCLES if k != "preempt") + \
            med["preempt"] * 3
        md.append("| %s | %s | %d | %d / %d / %d | %s | %d |" % (
            fn, v, len(got), got[0]["insns"], med["insns"], got[-1]["insns"],
            " | ".join(str(med[k]) for k in kinds), cyc))
    return md


def variant_cells(f):
    """The summary's "VARIANT mean±sd (ratio)" of figure f."""
    if f["skipped"]:
        return [NOT_QUICK]
    cells = []
    for v, s in ((v, f["stats"].get(v)) for v in kernels(f)):
        r = "" if not s or v == f["base"] or s["ratio"] is None else " (%.2fx)" % s["ratio"]
        cells.append("%s %s±%s%s" % (v, fmt(s["mean"]), fmt(s["sd"]), r) if s else
                     "%s MISSING" % v)
    return cells


def verdict(f, cls, variant=None):
    """ " => PASS" or " => FAIL ..." for f's claims (of one variant), or ""."""
    names = ["%s: %s" % (f["id"], c.text()) for c in f["claims"]
             if variant in (None, c.variant)]
    got = [c for c in cls if c[1] in names and c[0] != "NOT-JUDGED"]
    bad = [c[1].split(": ", 1)[1] for c in got if c[0] == "FAIL"]
    return " => FAIL (%s)" % "; ".join(bad) if bad else " => PASS" if got else ""


def summary(figs, missing, problems, cls, phases, made):
    lines = ["expsync against 6.12 (CONFIG_EXPSYNC=n), QEMU TCG -icount: mean±sd over runs,"
             " (ratio to 6.12)", "made " + made] + [
        "%-36s %s: %s%s" % (what, figs[fid]["unit"], "  ".join(variant_cells(figs[fid])),
                            verdict(figs[fid], cls)) for fid, what in HEADLINES.items()]
    fails = [c for c in cls if c[0] == "FAIL"]
    unjudged = sum(c[0] == "NOT-JUDGED" for c in cls)
    lines.append("claims (figures, ledger, fast path, no-ENOMEM): %d passed, %d failed%s%s" % (
        len(cls) - len(fails) - unjudged, len(fails),
        ", %d not judged (%s)" % (unjudged, NOT_QUICK) if unjudged else "",
        "".join("\n  FAIL %s: %s" % (n, dt[:120]) for _, n, dt in fails[:5])))
    if phases:
        lines.append("phases: " + "; ".join(phases))
    if missing or problems:
        lines.append("MISSING (make run fails): %d figures; %s" % (
            len(missing), "; ".join((problems + missing)[:6])[:400]))
    return lines[:40]


def markdown(figs, missing, problems, cls, quick, calls, made, who):
    md = ["# expsync against 6.12", "", "Made %s." % made, "",
          "Every figure is measured on the `CONFIG_EXPSYNC=n` bench kernel (6.12, with "
          "the series' first patch) and on the expsync bench kernel, in one `make run`, "
          "under QEMU TCG `-icount shift=0,sleep=off` (a guest ns is one instruction) "
          "except the isolation ledger (interrupt counts, no -icount).  "
          "mean, sd (sample standard deviation) and min are over runs; ratio is the "
          "mean over the 6.12 mean (or over the variant named as base)."
          + ("  QUICK=1: 3 runs of a subset of the figures (report.py QUICK); "
             "the others say they were not measured." if quick else ""), ""]
    for sec, fs in itertools.groupby(figs.values(), lambda f: f["section"]):
        md += ["## " + sec, ""] + table("figure", "unit", "variant", "n", "mean", "sd", "min",
                                        "ratio", "base", "claim")
        for f in fs:
            for v in ["all"] if f["skipped"] else kernels(f):
                s = f["stats"].get(v)
                nums, cell = ("0 | %s | | |" % NOT_QUICK, "not judged" if f["claims"] else "") \
                    if f["skipped"] else ("0 | MISSING | | |", verdict(f, cls, v)[4:])
                if s:
                    nums = "%d | %s | %s | %s | %s" % (
                        s["n"], fmt(s["mean"]), fmt(s["sd"]), fmt(s["min"]),
                        "-" if s["ratio"] is None else "%.3f" % s["ratio"])
                md.append("| %s | %s | %s | %s | %s | %s |" % (
                    f["title"], f["unit"], v, nums, f["base"], cell))
    md += explained(figs, who) + scaling_md(figs) + fastpath_md(calls)
    md += ["", "## claims", "",
           "The figures' own (report.py Claim: a 95% Welch t interval of the "
           "ratio of means), the isolation ledger's (tools/expsync/ledger.py), the fast "
           "path's (fastpath-check.sh, fastpath-steps.sh) and no-ENOMEM's.", ""]
    md += ["- %s %s: %s" % c for c in cls]
    if missing or problems:
        md += ["", "## MISSING", ""] + ["- " + m for m in problems + missing]
    return md


def explained(figs, who):
    """What this run's figures and the ledger's "# who" lines (records())
    say of what is not judged; nothing when not measured."""
    def mean(fid, v):
        """Figure FID's mean of variant V, None when not measured."""
        return figs[fid]["stats"].get(v, {}).get("mean")

    md = []
    t3 = [mean("mb_ns_t3", v) for v in ("6.12", "many")]
    c1 = [mean("mb_coalesce_c1_cps", v) for v in ("6.12", "on")]
    if None not in t3 + c1 and all(c1):
        md.append("- Time per call with spinning targets: 3 threads, thread 0 calling, "
                  "is timed twice in the same boots: as mb_ns_t3 (6.12 %s ns, many %s: "
                  "%.2fx) and as mb_coalesce_c1 (6.12 %s ns, expsync %s: %.2fx, from calls "
                  "per second).  Each call waits for QEMU's round-robin to reach the "
                  "targets, so the time follows QEMU's turns, not the kernel: it is shown, "
                  "not judged." % (fmt(t3[0]), fmt(t3[1]), t3[1] / t3[0], fmt(1e9 / c1[0]),
                                   fmt(1e9 / c1[1]), c1[0] / c1[1]))
    va, vh = ([mean("mb_victim_%s_p99_ns" % h, v) for v in ("6.12", "off", "on")]
              for h in ("alone", "hammer"))
    if None not in va + vh:
        md.append("- A bystander's GLOBAL_EXPEDITED p99 (guest ns = instructions under "
                  "-icount): alone 6.12 %s, off %s, on %s; beside the hammer 6.12 %s, "
                  "off %s, on %s.  %s" % (
                      *map(fmt, va + vh),
                      "The hammer adds nothing on any kernel: the gap to 6.12 (off %+.0f, "
                      "on %+.0f instructions) is the call's own path.  Under off it is "
                      "expsync's four per-CPU counters, the snapshot read and the unlock's "
                      "bookkeeping that keeps a switch of membarrier_coalesce safe; on takes "
                      "the mutex with a trylock and adds the round number's atomic "
                      "(mb_victim_alone_ns judges off)." % (va[1] - va[0], va[2] - va[0])
                      if va == vh else "The hammer changes it (see the p99 claims)."))
    if None not in [mean("tf_malloc_t1_task_ms", v) for v in ("6.12", "immediate")]:
        a, b = (figs["tf_malloc_t1_task_ms"]["stats"][v] for v in ("immediate", "6.12"))
        iv = ratio_interval(a["runs"], b["runs"])
        md.append("- Seed 001's malloc1 task time under immediate (6.12's free path): "
                  "%.3fx 6.12, 95%% interval [%.3f, %.3f] over %d and %d runs%s." % (
                      iv[1], iv[0], iv[2], a["n"], b["n"], ": noise, the interval holds 1"
                      if iv[0] <= 1 <= iv[2] else ": the interval excludes 1"))
    md += explained_ledger_timer(mean, who)
    return ["", "## explained", ""] + md if md else []


def explained_ledger_timer(mean, who):
    """The ledger's timer IRQs: the ticks of the episodes in which the tick
    ran on the isolated CPU, and what kept it running, per variant."""
    vs = [v for v in ["6.12"] + LEDGER_VARIANTS if v in who]
    t = {v: mean("ledger_timer", v) for v in vs}
    if "6.12" not in vs or len(vs) < 2 or None in t.values() or not t["6.12"]:
        return []

    def kept(v):
        w = who[v]
        works = sorted(((n, k[5:]) for k, n in w.items() if k.startswith("work:")), reverse=True)
        return "%s %s timer IRQs (%.2fx), tick kept for SCHED %.1f and RCU %.1f times, " \
            "work items %s" % (v, fmt(t[v]), t[v] / t["6.12"], w.get("tick_kept:SCHED", 0),
                               w.get("tick_kept:RCU", 0),
                               ", ".join("%s %.1f" % (k, n) for n, k in works[:5]) or "none")
    base = {k for k in who["6.12"] if k.startswith("work:")}
    own = ["%s (%s)" % (k[5:], v) for v in vs[1:] for k in sorted(who[v])
           if k.startswith("work:") and k not in base]
    return ["- Timer IRQs on the isolated CPU, per window (means over the windows; the "
            "\"# who\" lines' timer:tick_stop failures by dependency and the work items "
            "run there): " + "; ".join(kept(v) for v in vs) + ".  The tick runs there only "
            "while a dependency keeps it (SCHED: a work item woken beside the SCHED_FIFO "
            "task; RCU), and each such episode costs ticks.  Work items run there under "
            "expsync and never under 6.12: %s (vmstat_drain_now's fold under periodic is "
            "what vm.stat_refresh's refresh_vm_stats is on 6.12).  Each kernel boots once: "
            "the intervals of the ledger's claims are over one boot's windows and do not "
            "hold the spread between boots of one kernel." % (", ".join(own) or "none")]


def scaling_rows(figs, what):
    """[(n, {variant: mean})] of the figures mb_scale_WHAT<n> ("10-membarrier.sh
    scaling"; WHAT ns_t, sends_t: n targets; rounds_c, cps_c: n callers), or
    [] when any of them was not measured."""
    keys, variants = (SCALE_TARGETS, ["6.12", "many", "single"]) if what.endswith("_t") \
        else (SCALE_CALLERS, ["6.12", "on"])
    fs = [(k, figs["mb_scale_%s%d" % (what, k)]) for k in keys]
    if any(f["skipped"] or not all(v in f["stats"] for v in variants) for _, f in fs):
        return []
    return [(k, {v: f["stats"][v]["mean"] for v in variants}) for k, f in fs]


def scaling_md(figs):
    """Seed 000's table beside the measured one, and coalescing as callers
    grow ("eval/10-membarrier.sh scaling"), or nothing when they were not
    measured."""
    ns, sends, rounds, cps = (scaling_rows(figs, w)
                              for w in ("ns_t", "sends_t", "rounds_c", "cps_c"))
    if not (ns and sends and rounds and cps):
        return []

    def slope(ys):
        """Least-squares slope of YS against the targets."""
        return statistics.linear_regression(list(SCALE_TARGETS), ys).slope
    seed_m = [x / 10 for x in SEED000_MANY_S]   # s per 10^7 calls -> us per call
    seed_s = [x / 10 for x in SEED000_SINGLE_S]
    md = ["", "## scaling: seed 000's table, and coalescing as callers grow", "",
          "An 8-vCPU guest under -icount (`eval/10-membarrier.sh scaling`), %d runs per "
          "point: thread 0 calls PRIVATE_EXPEDITED, N others spin.  A guest us counts QEMU's "
          "instructions, and each IPI waits for QEMU's round-robin to reach its "
          "target vCPU, so the time is not hardware's.  The sends per call count "
          "the mechanism (one IPI-to-many, or one IPI per target) plus the tick's "
          "idle-balance kicks while the bench runs (a few tenths per call).  Seed 000: "
          "10,000,000 calls on 8 cores." % SCALE_RUNS, ""] + table(
              "targets", *("%s %s/call" % (v, u) for u in ("us", "sends")
                           for v in ("6.12", "many", "single")),
              "seed many us/call", "seed single us/call")
    # Each {variant: mean} holds 6.12, many and single, in that order.
    for (n, t), (_, c), a, b in zip(ns, sends, seed_m, seed_s):
        md.append("| %d | %s | %s | %s | %.2f | %.2f | %.2f | %.3f | %.3f |" % (
            n, *(fmt(x / 1e3) for x in t.values()), *(x / 1e3 for x in c.values()), a, b))
    md += ["", "Cost of one more target (least-squares slope over 1 to %d targets): "
           "6.12 %.1f us, many %.1f us, single %.1f us of guest time; seed 000: many "
           "%.2f us, single %.2f us (\"about 0.2 microseconds per extra core\" against "
           "1.5)." % (SCALE_TARGETS[-1], *(slope([m[v] / 1e3 for _, m in ns]) for v in ns[0][1]),
                      slope(seed_m), slope(seed_s)), "",
           "Coalescing (membarrier_bench 8 threads, k of them calling at once, the "
           "others spinning): runs of the command's IPI handler per call, and calls per "
           "second; the goal is at most 2/k of 6.12's rounds at k callers (off is "
           "6.12's path).", ""] + table("callers k", "6.12 runs/call", "on runs/call",
                                        "on/6.12", "2/k", "6.12 calls/s", "on calls/s")
    for (k, r), (_, c) in zip(rounds, cps):
        md.append("| %d | %.2f | %.2f | %s | %.2f | %s | %s |" % (
            k, r["6.12"] / 1e3, r["on"] / 1e3,
            "%.3f" % (r["on"] / r["6.12"]) if r["6.12"] else "-", 2 / k,
            fmt(c["6.12"]), fmt(c["on"])))
    return md


def run(cmd, stdin=None):
    """CMD's (exit status, output), STDIN its input; (None, "") when it
    cannot be run."""
    try:
        r = subprocess.run(cmd, input=stdin, capture_output=True, encoding="utf-8")
    except OSError:
        return None, ""
    return r.returncode, r.stdout


def gnuplot(path, size, settings, series, *blocks):
    """Draws PATH, a PNG of SIZE ("w,h"): SETTINGS (lines), then "plot"
    SERIES, whose data BLOCKS (rows of numbers or strings) are inline as
    $D0, $D1, ..."""
    data = "".join("$D%d << EOD\n%sEOD\n" % (i, "".join(
        " ".join(x if isinstance(x, str) else "%g" % x for x in row) + "\n" for row in b))
        for i, b in enumerate(blocks))
    return run(["gnuplot"], data + 'set terminal pngcairo noenhanced size %s font ",9"\n'
               'set output "%s"\n%s\nplot %s\n' % (size, path, "\n".join(settings),
                                                    ", ".join(series)))[0] == 0 \
        and os.path.exists(path)


def curves(title, xlabel, ylabel, settings, rows, series):
    """gnuplot()'s arguments for lines of ROWS' columns against the first:
    SERIES [(columns, style, title)]."""
    return ("700,420", ['set title "%s"' % title, 'set xlabel "%s"' % xlabel,
                        'set ylabel "%s"' % ylabel, "set xtics 1"] + settings,
            ['$D0 using 1:%s with %s title "%s"' % s for s in series], rows)


def claims_plot(figs):
    """One row per judged ratio claim: the runs of both kernels over the
    mean of the one judged against (points), the ratio's 95% interval
    (bar) and the claim's bounds (ticks); None when none has runs."""
    got = [(f, c, f["stats"][c.variant], f["stats"][c.against]) for f in figs.values()
           for c in f["claims"] if not f["skipped"] and c.op != "zero" and c.variant in
           f["stats"] and f["stats"].get(c.against, {}).get("mean")]
    if not got:
        return None
    blocks, n = [[], [], [], []], len(got)
    for y, (f, c, a, b) in zip(range(n, 0, -1), got):
        iv = ratio_interval(a["runs"], b["runs"])
        for blk, pts in zip(blocks, ([(x / b["mean"], y + 0.15) for x in a["runs"]],
                                     [(x / b["mean"], y - 0.15) for x in b["runs"]],
                                     [(iv[1], y, iv[0], iv[2])],
                                     [(x, y) for x in c.bounds(f["better"])])):
            blk += [[max(v, 1e-3) for v in pt] for pt in pts]
    return ("1000,%d" % (120 + 22 * n), [
        'set title "claims: each run over the mean of the kernel judged against (log scale)"',
        "set logscale x", "set ytics (%s)" % ", ".join('"%s %s/%s" %d' % (
            f["id"], c.variant, c.against, y) for y, (f, c, _, _) in zip(range(n, 0, -1), got)),
        "set yrange [0.3:%g]" % (n + 0.7), "set grid xtics", "set key outside bottom"], [
        '$D0 using 1:2 with points pt 7 ps 0.6 title "runs of the variant"',
        '$D1 using 1:2 with points pt 6 ps 0.6 title "runs it is judged against"',
        '$D2 using 1:2:3:4 with xerrorbars pt 2 lw 2 title "ratio, 95% interval"',
        '$D3 using 1:2:(0):(0.35) with vectors nohead lw 2 lc rgb "red" title "bound"'],
        *blocks)


def bars(figs, ids, title):
    """Bars with error bars: each variant's mean and sd over its base's
    mean; None when no base was measured."""
    fs = [(f, f["stats"][f["base"]]["mean"]) for f in map(figs.get, ids)
          if f["stats"].get(f["base"]) and f["stats"][f["base"]]["mean"]]
    variants = list(dict.fromkeys(v for f, _ in fs for v in [f["base"]] + f["variants"]))
    rows = [['"%s"' % f["title"].replace('"', "'")] + [
        x for v in variants for x in ((f["stats"][v]["mean"] / m, f["stats"][v]["sd"] / m)
                                      if v in f["stats"] else ("NaN", "NaN"))] for f, m in fs]
    if not rows:
        return None
    return ("1000,420", [
        'set title "%s (ratio to 6.12 or to the base variant; error bars: sd)"' % title,
        "set style data histogram", "set style histogram errorbars gap 2 lw 1",
        "set style fill solid 0.6 border -1", "set yrange [0:*]",
        "set xtics rotate by -20 scale 0", "set key outside right"],
        ['$D0 using %d:%d:xtic(1) title "%s"' % (2 + 2 * i, 3 + 2 * i, v)
         for i, v in enumerate(variants)], rows)


# index.html's bar plots against 6.12, plot-NAME.png, of the figures measured.
BARS = [("membarrier", ["mb_ipi_t2", "mb_ipi_t3", "mb_coalesce_c3_rounds",
                        "mb_coalesce_c3_p99_ns", "mb_victim_hammer_p99_ns"]),
        ("table_free", ["tf_malloc_t1_task_ms", "tf_malloc_t1_busy_ms",
                        "tf_munmap_task_ms", "tf_munmap_busy_ms"]),
        ("vmstat", ["vm_getppid_ns", "vm_page_cycle_ns"]),
        ("ledger", ["ledger_" + c for c in CAUSES if c != "irqwork"]),
        ("programs", ["sng_mmap_ops", "sng_vm_ops", "rtla_irq"])]


def plots(figs, d):
    """[(title, png)] of index.html, and [what could not be drawn]."""
    imgs, missing = [], []

    def draw(title, png, plot, miss, at=None):
        """True when PLOT (gnuplot()'s arguments; None: nothing to draw)
        drew png, shown under TITLE (at index AT), else MISS is missing."""
        p = os.path.join(d, png)
        if plot and gnuplot(p, *plot):
            imgs.insert(len(imgs) if at is None else at, (title, p))
            return True
        if miss:
            missing.append(miss)
    for name, ids in BARS:
        ids = [i for i in ids if not figs[i]["skipped"]]
        if ids:
            draw(name, "plot-%s.png" % name, bars(figs, ids, name), "plot " + name)
    cps = [figs["mb_coalesce_c%d_cps" % c] for c in (1, 2, 3)]
    if not any(f["skipped"] for f in cps):
        # Calls per second of 6.12, off and on against 1 to 3 callers.
        draw("membarrier calls per second against callers", "plot-callers.png", curves(
            "membarrier PRIVATE_EXPEDITED calls per second (guest time) vs concurrent callers",
            "concurrent callers", "calls per second (log scale)",
            ["set logscale y", "set xrange [0.5:3.5]"],
            [[c] + [x for v in ("6.12", "off", "on") for x in (
                (f["stats"][v]["mean"], f["stats"][v]["sd"]) if v in f["stats"]
                else (float("nan"),) * 2)] for c, f in enumerate(cps, 1)],
            [("%d:%d" % (2 + 2 * i, 3 + 2 * i), "yerrorlines", t) for i, t in enumerate(
                ["6.12", "membarrier_coalesce=off", "membarrier_coalesce=on"])]),
            "plot membarrier calls per second against callers")
    draw("claims: runs, intervals and bounds", "plot-claims.png", claims_plot(figs),
         any(not f["skipped"] and f["claims"] for f in figs.values()) and "plot claims", 0)
    ns, rounds = scaling_rows(figs, "ns_t"), scaling_rows(figs, "rounds_c")
    if not ns or not rounds:
        return imgs, missing
    shown, one = len(imgs), ns[0][1]
    targets = curves(
        "membarrier time per call against targets, relative to 1 target",
        "target threads (8 vCPUs; seed 000: 8 cores)", "time per call / time with 1 target",
        ["set key left top"],
        [(n, *(m[v] / one[v] for v in m), a / SEED000_MANY_S[0], b / SEED000_SINGLE_S[0])
         for (n, m), a, b in zip(ns, SEED000_MANY_S, SEED000_SINGLE_S)],
        [(2, "linespoints", "6.12 (guest, -icount)"), (3, "linespoints", "many (guest)"),
         (4, "linespoints", "single (guest)"), (5, "linespoints dt 2", "seed 000: IPI-to-many"),
         (6, "linespoints dt 2", "seed 000: single IPIs")])
    callers = curves(
        "membarrier IPI handler runs per call against concurrent callers (8 vCPUs)",
        "concurrent callers k", "handler runs per call", ["set yrange [0:*]"],
        [(k, r["6.12"] / 1e3, r["on"] / 1e3, 2 / k * r["6.12"] / 1e3) for k, r in rounds],
        [(2, "linespoints", "6.12"), (3, "linespoints", "membarrier_coalesce=on"),
         (4, "lines dt 2", "goal: 2/k of 6.12's")])
    # Both or neither.
    if not (draw("membarrier cost against targets, beside seed 000",
                 "plot-scaling-targets.png", targets, None) and
            draw("membarrier coalescing against callers", "plot-scaling-callers.png",
                 callers, None)):
        del imgs[shown:]
        missing.append("plot scaling")
    return imgs, missing


def html(d, md, figs):
    """index.html: report.md by markdown_py (python3-markdown, run as a
    command: the python3 running this one may not be Debian's), the plots
    embedded under its title, verdicts coloured.  Returns what is missing."""
    imgs, missing = plots(figs, d)
    # A heading ends the table above it only after a blank line.
    rc, body = run(["markdown_py", "-x", "tables", "-e", "utf-8"],
                   "\n".join(("\n" if x.startswith("#") else "") + x for x in md))
    body = body if rc == 0 else ""
    if not body:
        missing.append("index.html: markdown_py failed")
    body = re.sub(r"<(td|li)>(PASS|FAIL)\b", r'<\1 class="\2">\2', body)
    pics = "".join('<h3>%s</h3><img alt="%s" src="data:image/png;base64,%s">\n' % (
        name, name, base64.b64encode(pathlib.Path(p).read_bytes()).decode())
        for name, p in imgs)
    title, h1, rest = body.partition("</h1>\n")
    pathlib.Path(d, "index.html").write_text(
        "<!DOCTYPE html><html><head><meta charset='utf-8'>"
        "<title>expsync against 6.12</title><style>"
        "table{border-collapse:collapse}td,th{border:1px solid #aaa;"
        "padding:2px 6px}.PASS{background:#dfd}.FAIL{background:#fdd}"
        "</style></head><body>%s%s%s%s</body></html>\n" % (title, h1, pics, rest))
    return missing


def stamp():
    """When, from which commit and on which machine the report was made."""
    git = ["git", "-C", os.path.dirname(os.path.abspath(__file__))]
    commit = run(git + ["rev-parse", "--short=12", "HEAD"])[1].strip() or "unknown"
    if run(git + ["status", "--porcelain", "--untracked-files=no"])[1].strip():
        commit += " with uncommitted changes"
    with open("/proc/cpuinfo") as f:
        model = next((x.split(":", 1)[1].strip() for x in f if x.startswith("model name")),
                     "unknown CPU")
    qemu = run(["qemu-system-x86_64", "--version"])[1].strip().splitlines()
    return "%s, commit %s, host %s (%d CPUs, %s), %s" % (
        datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        commit, socket.gethostname(), os.cpu_count(), model,
        qemu[0] if qemu else "no qemu-system-x86_64")


def main_report(d):
    figs, missing, quick, problems, who = build(d)
    calls = fastpath_calls(d)
    cls = claims(d, quick, figs, calls)
    phases = [re.sub(r"^\s*\((.*)\)\s*$", r"\1", x.strip())
              for x in readlines(d, "phases.txt", "strict") or () if x.strip()]
    made = stamp()
    md = markdown(figs, missing, problems, cls, quick, calls, made, who)
    pathlib.Path(d, "report.md").write_text("\n".join(md) + "\n")
    missing += html(d, md, figs)
    keys = ("id", "section", "title", "unit", "better", "base", "skipped", "stats")
    pathlib.Path(d, "results.json").write_text(json.dumps(
        {"made": made, "quick": quick, "missing": missing, "problems": problems,
         "claims": [list(c) for c in cls],
         "figures": [{k: f[k] for k in keys} for f in figs.values()]}, indent=1))
    lines = summary(figs, missing, problems, cls, phases, made)
    pathlib.Path(d, "summary.txt").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    bad = missing or problems or any(c[0] == "FAIL" for c in cls)
    if bad:
        print("report: FAILED: %s" % "; ".join(
            (problems + missing + ["claim failed: " + c[1] for c in cls
                                   if c[0] == "FAIL"])[:10]), file=sys.stderr)
    return 1 if bad else 0


def compare(a, b):
    ra, rb = (json.load(open(os.path.join(x, "results.json"))) for x in (a, b))
    fb = {f["id"]: f["stats"] for f in rb["figures"]}
    row = "%-34s %-18s %12s %12s %8s"
    print(row % ("figure", "variant", "A mean", "B mean", "B/A"))
    pairs = [(f["id"], v, s["mean"], fb[f["id"]][v]["mean"]) for f in ra["figures"]
             for v, s in f["stats"].items() if v in fb.get(f["id"], {})]
    for fid, v, x, y in pairs:
        print(row % (fid, v, fmt(x), fmt(y), "%.3f" % (y / x) if x else "-"))
    if not pairs:
        print("compare: no figure in common", file=sys.stderr)
    return 0 if pairs else 1


if __name__ == "__main__":
    args = sys.argv[1:]
    if args == ["quick-figures"]:
        print(" ".join(sorted(QUICK)))
    elif args == ["runs"]:
        # For the guests (lib.sh eval_reps).
        print(" ".join("%s:%d" % (f["id"], f["runs"] or FULL_RUNS) for f in figures()))
    elif len(args) == 3 and args[0] == "compare":
        sys.exit(compare(args[1], args[2]))
    elif len(args) == 1:
        sys.exit(main_report(args[0]))
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
