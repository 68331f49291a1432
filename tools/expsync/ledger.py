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
- for each expsync window and each cause, the count is at most 6.12's
  for the same cause: the highest count of 6.12's windows plus their
  spread (highest minus lowest), the noise measured in the same run, and
  1 (a count is an integer; a cause 6.12 shows at 0 in every window
  allows 1, which the table then shows).
"""
import re
import sys

CAUSES = ["timer", "callfn", "callfn1", "resched", "work", "timers", "hrtimers"]
WHAT = {
    "timer": "local timer interrupts",
    "callfn": "call-function IPIs",
    "callfn1": "call-function-single IPIs",
    "resched": "reschedule IPIs",
    "work": "work items run",
    "timers": "timer expiries",
    "hrtimers": "hrtimer expiries",
}


def windows(path):
    """The ledger lines of a log: [(label, {key: value})]."""
    out = []
    with open(path, errors="replace") as f:
        for line in f:
            m = re.search(r"# ledger (\S+)((?: \S+=\S+)+)", line)
            if m:
                kv = dict(x.split("=", 1) for x in m.group(2).split())
                out.append((m.group(1), kv))
    return out


def num(kv, k):
    v = kv.get(k, "none")
    return int(v) if v.isdigit() else None


def main():
    base, exp = windows(sys.argv[1]), windows(sys.argv[2])
    res = []
    cols = ["window"] + CAUSES
    width = max([len(lbl) for lbl, _ in base + exp] + [10])
    print("  isolated CPU, per %s-s window (perf stat -C, kernel tracepoints):" %
          "LEDGER_SECONDS")
    print("  " + "%-*s" % (width, cols[0]) + "".join("%9s" % c for c in cols[1:]))
    for lbl, kv in base + exp:
        print("  " + "%-*s" % (width, lbl) +
              "".join("%9s" % kv.get(c, "none") for c in CAUSES))
    print("  causes: " + ", ".join("%s = %s" % (c, WHAT[c]) for c in CAUSES))
    if len(base) < 2:
        res.append(("FAIL", "ledger: 6.12 windows", "%d, need 2 or more" % len(base)))
    if not exp:
        res.append(("FAIL", "ledger: expsync windows", "none"))
    limit = {}
    for c in CAUSES:
        vals = [num(kv, c) for _, kv in base]
        if not vals or None in vals:
            res.append(("FAIL", "ledger: 6.12 %s" % c, "not counted in every window"))
            continue
        limit[c] = max(vals) + (max(vals) - min(vals)) + 1
    for c in ("callfn", "work"):
        vals = [num(kv, c) or 0 for _, kv in base]
        ok = bool(vals) and min(vals) > 0
        res.append(("PASS" if ok else "FAIL",
                    "ledger: 6.12 shows %s on the isolated CPU" % WHAT[c],
                    "per window %s" % vals))
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
    for st, name, detail in res:
        print("%s|%s|%s" % (st, name, detail))


if __name__ == "__main__":
    main()
