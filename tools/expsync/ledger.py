#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""ledger.py BASE_LOG EXPSYNC_LOG: the isolation ledger, expsync against 6.12.

Reads the "# ledger LABEL cause=N ..." lines that isolation_ledger.sh
printed in a CONFIG_EXPSYNC=n boot (BASE_LOG, several windows of the same
work: 6.12's own noise) and in an expsync boot (one window per policy),
prints the table, then one "STATUS|name|detail" line per claim:

- the 6.12 windows exist, and 6.12 shows the interruptions expsync is
  meant to remove (call-function IPIs from the table-sync broadcast, work
  items from vm.stat_refresh), or the ledger could not tell them apart;
- the table-sync broadcast: 6.12 runs tlb_remove_table_smp_sync on the
  isolated CPU in every window (huge-page collapses end in
  tlb_remove_table_sync_one()), expsync in none, with collapses in both;
- under vmstat_drain=user-return and direct no expsync fold work runs
  on the isolated CPU;
- for each cause, the mean over the expsync windows is at most 6.12's
  mean, within the noise of the two means: 4 standard errors of their
  difference, sqrt(V/n1 + V/n2), plus 1 (a cause 6.12 shows at 0 in
  every window allows 1).  V is the variance of 6.12's windows, at
  least their mean: a count of independent events varies at least as a
  Poisson count does, and 3 windows underestimate it;
- for each expsync window and each cause, the count is at most 6.12's
  mean plus 6 deviations (the same V, one window) plus 1: a bound for
  gross regressions of one policy (a 10 ms timer after each munmap
  burst adds 60 ticks to a window where 6.12 shows about 60).  A window
  carries more than Poisson noise across boots: 87 local timer
  interrupts in a window where 6.12 averages 60 and nothing of
  expsync's runs is 3.5 deviations, and 4 per window fails on hrtimers.
  The claims above name the functions expsync must never run there,
  count by count.
"""
import math
import re
import statistics
import sys

CAUSES = ["timer", "callfn", "callfn1", "resched", "irqwork", "work", "timers",
          "hrtimers"]
WHAT = {
    "timer": "local timer interrupts",
    "callfn": "call-function IPIs",
    "callfn1": "call-function-single IPIs",
    "resched": "reschedule IPIs",
    "irqwork": "irq_work interrupts",
    "work": "work items run",
    "timers": "timer expiries",
    "hrtimers": "hrtimer expiries",
}


def matches(path, pattern):
    """The matches of @pattern, one per line of the log at @path."""
    with open(path, errors="replace") as f:
        return [m for m in (re.search(pattern, line) for line in f) if m]


def who(path):
    """The "# who LABEL fn=n ..." lines: what ran the IPIs and work items."""
    return [(m.group(1), m.group(2).strip())
            for m in matches(path, r"# who (\S+) (.*)$")]


def counts(fns):
    """The "fn=n" words of a "# who" line as {fn: n}."""
    return {k: int(v) for k, _, v in (x.partition("=") for x in fns.split()) if v.isdigit()}


def windows(path):
    """The ledger lines of a log: [(label, {key: value})]."""
    return [(m.group(1), dict(x.split("=", 1) for x in m.group(2).split()))
            for m in matches(path, r"# ledger (\S+)((?: \S+=\S+)+)")]


def num(kv, k):
    v = kv.get(k, "none")
    return int(v) if v.isdigit() else None


def main():
    base, exp = windows(sys.argv[1]), windows(sys.argv[2])
    res = []
    cols = ["window"] + CAUSES
    width = max([len(lbl) for lbl, _ in base + exp] + [10])
    print("  interrupts of the isolated CPU per window (perf stat -C, kernel tracepoints):")
    print("  " + "%-*s" % (width, cols[0]) + "".join("%9s" % c for c in cols[1:]))
    for lbl, kv in base + exp:
        print("  " + "%-*s" % (width, lbl) +
              "".join("%9s" % kv.get(c, "none") for c in CAUSES))
    print("  causes: " + ", ".join("%s = %s" % (c, WHAT[c]) for c in CAUSES))
    print("  what ran on the isolated CPU (csd:csd_function_entry, "
          "workqueue:workqueue_execute_start; perf record -C):")
    for lbl, fns in who(sys.argv[1]) + who(sys.argv[2]):
        print("  %-*s %s" % (width, lbl, fns))
    if len(base) < 2:
        res.append(("FAIL", "ledger: 6.12 windows", "%d, need 2 or more" % len(base)))
    if not exp:
        res.append(("FAIL", "ledger: expsync windows", "none"))
    limit = {}
    agg = {}
    for c in CAUSES:
        vals = [num(kv, c) for _, kv in base]
        if not vals or None in vals:
            res.append(("FAIL", "ledger: 6.12 %s" % c, "not counted in every window"))
            continue
        mean = statistics.fmean(vals)
        var = max(statistics.variance(vals) if len(vals) > 1 else 0.0, mean)
        limit[c] = int(math.ceil(mean + 6 * math.sqrt(var))) + 1
        if exp:
            agg[c] = (mean, mean + 4 * math.sqrt(var / len(vals) + var / len(exp)) + 1)
    for c in ("callfn", "work"):
        vals = [num(kv, c) or 0 for _, kv in base]
        ok = bool(vals) and min(vals) > 0
        res.append(("PASS" if ok else "FAIL",
                    "ledger: 6.12 shows %s on the isolated CPU" % WHAT[c],
                    "per window %s" % vals))
    fns = {lbl: counts(f) for lbl, f in who(sys.argv[1]) + who(sys.argv[2])}
    # The two claims below read the "# who" lines: a window without one
    # (perf record failed) must not pass them for want of evidence.
    for lbl, _ in base + exp:
        if not fns.get(lbl):
            res.append(("FAIL", "ledger: %s names what ran on the isolated CPU" % lbl,
                        "no '# who' line"))
    sync = "ipi:tlb_remove_table_smp_sync"
    base_sync = [fns.get(lbl, {}).get(sync, 0) for lbl, _ in base]
    exp_sync = [fns.get(lbl, {}).get(sync, 0) for lbl, _ in exp]
    colls = [num(kv, "collapses") or 0 for _, kv in base + exp]
    ok = (bool(base_sync) and min(base_sync) > 0 and bool(exp_sync) and
          max(exp_sync) == 0 and min(colls or [0]) > 0)
    res.append(("PASS" if ok else "FAIL",
                "ledger: table-sync IPIs on the isolated CPU during huge-page collapses:"
                " 6.12 in every window, expsync in none",
                "6.12 %s, expsync %s, collapses per window %s" %
                (base_sync, exp_sync, colls)))
    for lbl, _ in exp:
        if "vmstat_drain=periodic" in lbl:
            continue
        n = fns.get(lbl, {}).get("work:expsync_vmstat_fold_work", 0)
        res.append(("PASS" if n == 0 else "FAIL",
                    "ledger: %s runs no expsync fold work on the isolated CPU" % lbl,
                    "expsync_vmstat_fold_work %d" % n))
    over = []
    means = {}
    for c, (bmean, lim) in agg.items():
        vals = [num(kv, c) for _, kv in exp]
        if None in vals:
            continue	# reported per window below
        means[c] = statistics.fmean(vals)
        if means[c] > lim:
            over.append("%s %.1f > %.1f" % (c, means[c], lim))
    if agg:
        res.append(("FAIL" if over else "PASS",
                    "ledger: expsync's %d windows, on average, interrupt the isolated CPU "
                    "no more than 6.12" % len(exp),
                    "; ".join(over) if over else
                    " ".join("%s %.1f<=%.1f (6.12 %.1f)" % (c, means[c], agg[c][1], agg[c][0])
                             for c in CAUSES if c in means)))
    for lbl, kv in exp:
        over = []
        for c in CAUSES:
            v = num(kv, c)
            if v is None:
                over.append("%s not counted" % c)
            elif c in limit and v > limit[c]:
                over.append("%s %d > %d" % (c, v, limit[c]))
        res.append(("FAIL" if over else "PASS",
                    "ledger: %s interrupts the isolated CPU no more than 6.12, "
                    "within 6 deviations" % lbl,
                    "; ".join(over) if over else
                    "limits " + " ".join("%s<=%d" % (c, limit.get(c, -1)) for c in CAUSES)))
    for st, name, detail in res:
        print("%s|%s|%s" % (st, name, detail))


if __name__ == "__main__":
    main()
