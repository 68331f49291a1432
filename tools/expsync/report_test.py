#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""report_test.py: made-up data for make run's report generator (report.py).

"report_test.py make-logs DIR [quick]" writes guest, ledger, claim and
phase files with every figure, 5 runs each (with "quick": what make run
QUICK=1 leaves, 3 runs of report.py's QUICK figures and no ledger), in
which every claim of report.py holds: tools/expsync/report-test.sh
builds its cases on them.

"report_test.py" alone runs the unit tests of report.py's claims: each
claim of every figure passes on made-up runs where it holds and fails
where it does not, and the interval fits the noise.
"""
import json
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fastpath_steps  # noqa: E402
import report  # noqa: E402

# Made-up runs are tight (+-0.1% steps) unless a test says otherwise.
STEP = 0.001


def holding_ratio(c, better):
    """A ratio of c.variant to c.against at which claim c holds."""
    if c.op == "<=":
        return c.bound * 0.9
    if c.op == ">=":
        return c.bound * 1.1
    if c.op == "in":
        return sum(c.bound) / 2
    return 1.0


def breaking_ratio(c, better):
    """A ratio at which claim c is false."""
    if c.op == "<=":
        return c.bound * 1.2
    if c.op == ">=":
        return c.bound * 0.8
    if c.op == "in":
        return c.bound[1] * 1.2
    # no_worse: a regression of T plus 10%, clear of the made-up runs'
    # spread (about 2%).
    gap = 2 * c.bound + 0.1
    return 1 + gap if better == "lower" else 1 - gap


def runs(center, n, step=STEP):
    return [center * (1 + step * (i - n // 2)) for i in range(n)]


def figure_runs(f, n):
    """{variant: runs} for figure f in which each of its claims holds: the
    base variant at 100, the others at 90 unless a claim places them."""
    out = {}
    for v in (["6.12"] if f["base"] == "6.12" else []) + f["variants"]:
        if f["id"].startswith("mb_nomem_"):
            # report.py nomem_claim: expsync 0 in every run, 6.12 never.
            out[v] = [0.0] * n if v == "expsync" else [5.0] * n
        else:
            out[v] = [100.0 + i for i in range(n)] if v == f["base"] else \
                [90.0 + i for i in range(n)]
    for c in f["claims"]:
        if c.op == "zero":
            out[c.variant] = [0.0] * n
            out[c.against] = [0.5] * n
        else:
            base = report.statistics.fmean(out[c.against])
            out[c.variant] = [x * holding_ratio(c, f["better"])
                              for x in runs(base, n)]
    return out


# Calls as fastpath-steps.sh records them: (function, variant) -> (instructions,
# locked RMWs, cmpxchg without lock), the shapes stepped on the bench kernels.
FASTPATH_SHAPES = {("__mod_node_page_state", v): (20, 0, 0) for v in report.FASTPATH_VARIANTS}
FASTPATH_SHAPES.update({("mod_node_page_state", v): (31, 0, 1) for v in report.FASTPATH_VARIANTS})
FASTPATH_SHAPES[("__mod_node_page_state", "direct")] = (25, 2, 0)
FASTPATH_SHAPES[("mod_node_page_state", "direct")] = (35, 2, 1)


def fastpath_calls(shapes, n=3):
    """{(function, variant): [call]} of n calls of each shape."""
    calls = {}
    for (fn, v), (insns, locked, cmpxchg) in shapes.items():
        rec = dict({k: 0 for k in fastpath_steps.KINDS}, variant=v, fn=fn, insns=insns,
                   lock_rmw=locked, cmpxchg=cmpxchg, asm=[])
        calls[(fn, v)] = [dict(rec) for _ in range(n)]
    return calls


def make_logs(d, quick):
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "guest-bench-noexpsync.log"), "w") as b, \
         open(os.path.join(d, "guest-bench.log"), "w") as e:
        for f in report.figures():
            if f["section"] == "ledger" or (quick and not f["quick"]):
                continue
            n = 3 if quick else (f["runs"] or 5)
            for v, xs in figure_runs(f, n).items():
                for x in xs:
                    (b if v == "6.12" else e).write("@R %s %s %g\n" % (f["id"], v, x))
    with open(os.path.join(d, "fastpath.txt"), "w") as f:
        f.write("PASS|fastpath: made up|ok\n")
    with open(os.path.join(d, "phases.txt"), "w") as f:
        f.write("   (build: 1 s)\n")
    if quick:
        return
    for (fn, v), got in fastpath_calls(FASTPATH_SHAPES).items():
        k = "bench-noexpsync" if v == "6.12" else "bench"
        with open(os.path.join(d, "fastpath-%s.jsonl" % k), "a") as f:
            f.writelines(json.dumps(r) + "\n" for r in got)
    cfg = {"rcu/user-return": "table_free=rcu,vmstat_drain=user-return",
           "immediate/direct": "table_free=immediate,vmstat_drain=direct",
           "auto/periodic": "table_free=auto,vmstat_drain=periodic"}
    with open(os.path.join(d, "ledger-bench-noexpsync.log"), "w") as b:
        for i in range(6):
            b.write("# ledger 6.12:run%d %s rounds=60\n" %
                    (i + 1, " ".join("%s=%d" % (c, 50 + i) for c in report.CAUSES)))
    with open(os.path.join(d, "ledger-bench.log"), "w") as e:
        for v in report.LEDGER_VARIANTS:
            for i in range(2):
                e.write("# ledger expsync:%s:run%d %s rounds=60\n" %
                        (cfg[v], i, " ".join("%s=%d" % (c, 40 + i) for c in report.CAUSES)))
    with open(os.path.join(d, "ledger.txt"), "w") as f:
        f.write("PASS|ledger: made up|ok\n")


def with_stats(f, data):
    f = dict(f, skipped=False)
    f["stats"] = {v: report.stats(xs) for v, xs in data.items()}
    return f


class Claims(unittest.TestCase):
    def all_claims(self):
        out = [(f, c) for f in report.figures() for c in f["claims"]]
        self.assertGreaterEqual(len(out), 20)
        return out

    def test_each_claim_holds_on_holding_data(self):
        for f, c in self.all_claims():
            st = report.judge(with_stats(f, figure_runs(f, 5)), c)
            self.assertEqual(st[0], "PASS", st)

    def test_each_claim_fails_where_false(self):
        for f, c in self.all_claims():
            data = figure_runs(f, 5)
            if c.op == "zero":
                data[c.variant] = [0.0] * 4 + [0.02]
            else:
                base = report.statistics.fmean(data[c.against])
                data[c.variant] = [x * breaking_ratio(c, f["better"]) for x in runs(base, 5)]
            st = report.judge(with_stats(f, data), c)
            self.assertEqual(st[0], "FAIL", st)

    def test_zero_needs_a_control(self):
        for f, c in self.all_claims():
            if c.op == "zero":
                data = figure_runs(f, 5)
                data[c.against] = [0.0] * 5
                self.assertEqual(report.judge(with_stats(f, data), c)[0], "FAIL")

    def test_noise_widens_the_interval(self):
        """A 10% gain beside 30% noise is not shown; a 10% regression
        inside it is not shown either: the verdict follows the interval."""
        fig = dict(id="x", better="lower", claims=[])
        gain = report.Claim("b", "<=", 0.95, "a", "gain")
        loss = report.Claim("b", "no_worse", 0.05, "a", "loss")
        noisy = {"a": runs(100, 5, 0.15), "b": runs(90, 5, 0.15)[::-1]}
        self.assertEqual(report.judge(with_stats(fig, noisy), gain)[0], "FAIL")
        noisy["b"] = runs(110, 5, 0.15)[::-1]
        st = report.judge(with_stats(fig, noisy), loss)
        self.assertEqual(st[0], "PASS", st)
        self.assertIn("shows a regression above", st[2])
        tight = {"a": runs(100, 5), "b": runs(110, 5)}
        self.assertEqual(report.judge(with_stats(fig, tight), loss)[0], "FAIL")

    def test_missing_runs_fail_and_quick_does_not_judge(self):
        f, c = self.all_claims()[0]
        data = figure_runs(f, 5)
        del data[c.variant]
        self.assertEqual(report.judge(with_stats(f, data), c)[0], "FAIL")
        g = with_stats(f, figure_runs(f, 5))
        g["skipped"] = True
        self.assertEqual(report.judge(g, c)[0], "NOT-JUDGED")

    def test_interval(self):
        """Welch's t: the ratio in the middle, a point for exact counts,
        and wider with fewer runs of the same spread."""
        xs, ys = runs(90, 5, 0.05), runs(100, 5, 0.05)
        lo, r, hi = report.ratio_interval(xs, ys)
        self.assertTrue(lo < r < hi)
        self.assertAlmostEqual(r, 0.9)
        self.assertEqual(report.ratio_interval([33.0] * 3, [1000.0] * 3), (0.033, 0.033, 0.033))
        x3, y3 = runs(90, 3, 0.05), runs(100, 3, 0.05)
        lo3, _, hi3 = report.ratio_interval(x3, y3)
        lo6, _, hi6 = report.ratio_interval(x3 * 2, y3 * 2)
        self.assertGreater(hi3 - lo3, hi6 - lo6)
        self.assertIsNone(report.ratio_interval(xs, [0.0] * 5))


class Explained(unittest.TestCase):
    def test_ledger_timer(self):
        """The ledger's timer paragraph names the work items only expsync runs."""
        base = {"tick_kept:SCHED": 70.0, "tick_kept:RCU": 50.0, "work:refresh_vm_stats": 9.0}
        mean = {"6.12": 100.0, "auto/periodic": 110.0}.get
        same = report.explained_ledger_timer(
            lambda f, v: mean(v), {"6.12": base, "auto/periodic": dict(base)})
        self.assertIn("auto/periodic 110.0 timer IRQs (1.10x)", same[0])
        self.assertIn("never under 6.12: none", same[0])
        own = dict(base, **{"work:expsync_vmstat_fold_work": 4.0})
        text = report.explained_ledger_timer(
            lambda f, v: mean(v), {"6.12": base, "auto/periodic": own})[0]
        self.assertIn("never under 6.12: expsync_vmstat_fold_work (auto/periodic)", text)
        # Not measured: no paragraph.
        self.assertEqual(report.explained_ledger_timer(lambda f, v: None, {}), [])


class FastPath(unittest.TestCase):
    def test_kinds(self):
        """Seed 004's primitives, as gdb prints them on the bench kernel."""
        for asm, k in [("lock cmpxchg %rdx,(%rdi)", "lock_cmpxchg"),
                       ("lock add %rdx,(%rdi,%rax,1)", "lock_rmw"),
                       ("xchg   %rax,(%rdx)", "lock_rmw"), ("xchg   %rax,%rdx", None),
                       ("cmpxchg %sil,%gs:(%r8)", "cmpxchg"), ("cli", "cli"), ("sti", "sti"),
                       ("popf", "popf"),
                       ("incl   %gs:0x7eb2567b(%rip)        # 0x2b5c8 <pcpu_hot+8>", "preempt"),
                       ("decl   %gs:0x7eb2567b(%rip)        # 0x2b5c8 <pcpu_hot+8>", "preempt"),
                       ("mov    %gs:0x7ef5d224(%rip),%rdx        # 0x2b5c0 <pcpu_hot>", None),
                       ("incl   %gs:0x7eb2567b(%rip)        # 0x2b5d0 <pcpu_hot+16>", None),
                       ("add    %rcx,%rdx", None)]:
            self.assertEqual(fastpath_steps.kind(asm), k, asm)

    def verdicts(self, shapes):
        return [c[0] for c in report.fastpath_claims(fastpath_calls(shapes), False)]

    def test_claims(self):
        """Both hold on the stepped shapes; a periodic call shorter or longer
        than 6.12's fails the first, a direct call without a locked RMW the
        second; QUICK=1 does not judge, no calls at all fail."""
        self.assertEqual(self.verdicts(FASTPATH_SHAPES), ["PASS", "PASS"])
        for insns in (19, 21):
            bad = dict(FASTPATH_SHAPES)
            bad[("__mod_node_page_state", "periodic")] = (insns, 0, 0)
            self.assertEqual(self.verdicts(bad), ["FAIL", "PASS"])
        bad = dict(FASTPATH_SHAPES)
        bad[("mod_node_page_state", "direct")] = (31, 0, 1)
        self.assertEqual(self.verdicts(bad), ["PASS", "FAIL"])
        bad = dict(FASTPATH_SHAPES)
        del bad[("mod_node_page_state", "user-return")]
        self.assertEqual(self.verdicts(bad), ["FAIL", "PASS"])
        self.assertEqual(report.fastpath_claims({}, True)[0][0], "NOT-JUDGED")
        self.assertEqual(report.fastpath_claims({}, False)[0][0], "FAIL")


if __name__ == "__main__":
    if sys.argv[1:2] == ["make-logs"]:
        make_logs(sys.argv[2], sys.argv[3:4] == ["quick"])
        sys.exit(0)
    unittest.main()
