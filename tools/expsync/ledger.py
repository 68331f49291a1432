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
- for each expsync window and each cause, the count is at most 6.12's
  for the same cause, within 6.12's noise measured in the same run: the
  mean of 6.12's windows plus 4 standard deviations, plus 1 (a cause
  6.12 shows at 0 in every window allows 1).  The deviation is the larger
  of the windows' own and the one their per-second counts imply: a count
  of independent events varies at least as a Poisson count does (3
  windows underestimate it, and the two kernels run in two boots), and
  these events come in bursts (a work item queued behind the real-time
  task keeps the tick running for many ticks), so the Poisson variance
  is scaled by the index of dispersion (variance over mean) of 6.12's
  per-second counts, pooled over its windows, when that is above 1.
  These limits catch what expsync could add in bulk (a timer per munmap
  burst, a broadcast per collapse); the claims above name the functions
  expsync must never run there, count by count.
"""
import math
import re
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


def windows(path):
    """The ledger lines of a log: [(label, {key: value})]."""
    return [(m.group(1), dict(x.split("=", 1) for x in m.group(2).split()))
            for m in matches(path, r"# ledger (\S+)((?: \S+=\S+)+)")]


def seconds(path):
    """The "# seconds LABEL cause=n,n,..." lines: {label: {cause: [n]}}."""
    return {m.group(1): {k: [int(x) for x in v.split(",")]
                         for k, _, v in (kv.partition("=") for kv in m.group(2).split())
                         if re.fullmatch(r"[0-9]+(,[0-9]+)*", v)}
            for m in matches(path, r"# seconds (\S+)((?: \S+=\S+)+)")}


def dispersion(series):
    """The index of dispersion of per-second counts, pooled over windows.

    @series: one list of per-second counts per window.  Each window is
    centred on its own mean; 1.0 (Poisson) when there is too little to
    tell or when the counts are less dispersed than that.
    """
    ss = dof = total = n = 0
    for xs in series:
        if len(xs) < 2:
            continue
        m = sum(xs) / len(xs)
        ss += sum((x - m) ** 2 for x in xs)
        dof += len(xs) - 1
        total += sum(xs)
        n += len(xs)
    if not dof or not total:
        return 1.0
    return max(1.0, (ss / dof) / (total / n))


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
    disp = {}
    base_sec = seconds(sys.argv[1])
    for c in CAUSES:
        vals = [num(kv, c) for _, kv in base]
        if not vals or None in vals:
            res.append(("FAIL", "ledger: 6.12 %s" % c, "not counted in every window"))
            continue
        mean = sum(vals) / len(vals)
        sd = (sum((v - mean) ** 2 for v in vals) / (len(vals) - 1)) ** 0.5 \
            if len(vals) > 1 else 0.0
        series = [base_sec.get(lbl, {}).get(c) for lbl, _ in base]
        if None in series:
            res.append(("FAIL", "ledger: 6.12 %s" % c, "no per-second counts"))
            continue
        disp[c] = dispersion(series)
        limit[c] = int(math.ceil(mean + 4 * max(sd, math.sqrt(disp[c] * mean)))) + 1
    for c in ("callfn", "work"):
        vals = [num(kv, c) or 0 for _, kv in base]
        ok = bool(vals) and min(vals) > 0
        res.append(("PASS" if ok else "FAIL",
                    "ledger: 6.12 shows %s on the isolated CPU" % WHAT[c],
                    "per window %s" % vals))
    fns = {lbl: dict((k, int(v)) for k, _, v in
                     (x.partition("=") for x in f.split()) if v.isdigit())
           for lbl, f in who(sys.argv[1]) + who(sys.argv[2])}
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
    for lbl, kv in exp:
        over = []
        for c in CAUSES:
            v = num(kv, c)
            if v is None:
                over.append("%s not counted" % c)
            elif c in limit and v > limit[c]:
                over.append("%s %d > %d" % (c, v, limit[c]))
        res.append(("FAIL" if over else "PASS",
                    "ledger: %s interrupts the isolated CPU no more than 6.12" % lbl,
                    "; ".join(over) if over else
                    "limits " + " ".join("%s<=%d" % (c, limit.get(c, -1)) for c in CAUSES)))
    print("  6.12's noise: index of dispersion of its per-second counts "
          "(1 = Poisson): " + " ".join("%s=%.1f" % (c, disp[c]) for c in CAUSES
                                      if c in disp))
    for st, name, detail in res:
        print("%s|%s|%s" % (st, name, detail))


if __name__ == "__main__":
    main()
