#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""report_test.py: make check's "report" row, make run's report generator
(report.py) on made-up data, no kernel needed.

Each claim of every figure passes on made-up runs where it holds and fails
where it does not; complete made-up logs (make_logs(): every claim holds)
give every output and exit 0, and the same logs with one mutation (a
figure short of runs, a guest's MISSING line, a failed claim) exit 1 and
name it.  Prints "PASS|report: TEST|DETAIL" or "FAIL|..." per test and
exits 1 if one failed.

"report_test.py make-logs DIR [quick]" only writes the made-up logs (with
"quick": what make run QUICK=1 leaves, 3 runs of report.py's QUICK
figures and no ledger).
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import traceback
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fastpath_steps  # noqa: E402
import report  # noqa: E402

# Made-up runs are tight (+-0.1% steps) unless a test says otherwise.
STEP = 0.001
fmean = report.statistics.fmean


def ratio(c, better, holds=True):
    """A ratio of c.variant to c.against at which claim c holds (is false,
    with not HOLDS: for no_worse, a regression of T plus 10%, clear of the
    made-up runs' spread of about 2%)."""
    if c.op == "no_worse":
        gap = 0 if holds else 2 * c.bound + 0.1
        return 1 + gap if better == "lower" else 1 - gap
    if c.op == "in":
        return sum(c.bound) / 2 if holds else c.bound[1] * 1.2
    return c.bound * {"<=": (0.9, 1.2), ">=": (1.1, 0.8)}[c.op][not holds]


def runs(center, n, step=STEP):
    return [center * (1 + step * (i - n // 2)) for i in range(n)]


def figure_runs(f, n):
    """{variant: runs} for figure f in which each of its claims holds: the
    base variant at 100, the others at 90 unless a claim places them."""
    out = {}
    for v in report.kernels(f):
        # report.py's no-ENOMEM claim: expsync 0 in every run, 6.12 never.
        out[v] = [0.0 if v == "expsync" else 5.0] * n if f["id"].startswith("mb_nomem_") else \
            [(100.0 if v == f["base"] else 90.0) + i for i in range(n)]
    for c in f["claims"]:
        if c.op == "zero":
            out[c.variant], out[c.against] = [0.0] * n, [0.5] * n
        else:
            out[c.variant] = [x * ratio(c, f["better"]) for x in runs(fmean(out[c.against]), n)]
    return out


# Calls as fastpath-steps.sh records them: (function, variant) -> (instructions,
# locked RMWs, cmpxchg without lock), the shapes stepped on the bench kernels.
# Only direct's calls have locked RMWs.
FASTPATH_SHAPES = {(fn, v): direct if v == "direct" else shape for fn, shape, direct in (
    ("__mod_node_page_state", (20, 0, 0), (25, 2, 0)),
    ("mod_node_page_state", (31, 0, 1), (35, 2, 1))) for v in report.FASTPATH_VARIANTS}


def fastpath_calls(shapes, n=3):
    """{(function, variant): [call]} of n calls of each shape."""
    return {(fn, v): [dict({k: 0 for k in fastpath_steps.KINDS}, variant=v, fn=fn, insns=insns,
                           lock_rmw=locked, cmpxchg=cmpxchg, asm=[]) for _ in range(n)]
            for (fn, v), (insns, locked, cmpxchg) in shapes.items()}


def make_logs(d, quick):
    os.makedirs(d, exist_ok=True)

    def write(name, lines, mode="w"):
        with open(os.path.join(d, name), mode) as f:
            f.writelines(lines)
    logs = {"6.12": [], "expsync": []}
    for f in report.figures():
        if f["section"] != "ledger" and (f["quick"] or not quick):
            for v, xs in figure_runs(f, 3 if quick else (f["runs"] or 5)).items():
                logs["6.12" if v == "6.12" else "expsync"] += [
                    "@R %s %s %g\n" % (f["id"], v, x) for x in xs]
    write("guest-bench-noexpsync.log", logs["6.12"])
    write("guest-bench.log", logs["expsync"])
    write("fastpath.txt", "PASS|fastpath: made up|ok\n")
    write("phases.txt", "   (build: 1 s)\n")
    if quick:
        return
    for (fn, v), got in fastpath_calls(FASTPATH_SHAPES).items():
        write("fastpath-bench%s.jsonl" % ("-noexpsync" if v == "6.12" else ""),
              [json.dumps(r) + "\n" for r in got], "a")

    def window(label, n):
        return "# ledger %s %s rounds=60\n" % (label, " ".join(
            "%s=%d" % (c, n) for c in report.CAUSES))
    write("ledger-bench-noexpsync.log", [window("6.12:run%d" % (i + 1), 50 + i) for i in range(6)])
    write("ledger-bench.log", [window("expsync:table_free=%s,vmstat_drain=%s:run%d" % (
        *v.split("/"), i), 40 + i) for v in report.LEDGER_VARIANTS for i in range(2)])
    write("ledger.txt", "PASS|ledger: made up|ok\n")


def judge(f, data, c):
    """report.judge() of claim c of figure f measured as DATA {variant: runs}."""
    return report.judge(dict(f, skipped=False,
                             stats={v: report.stats(xs) for v, xs in data.items()}), c)


class Claims(unittest.TestCase):
    def judged(self, op=None, change=lambda f, c, data: None):
        """judge() of each claim (of op OP) of every figure, on figure_runs(f,
        5) after CHANGE(f, c, runs): at least 20 claims (1 of OP)."""
        out = []
        for f in report.figures():
            for c in f["claims"]:
                if op in (None, c.op):
                    data = figure_runs(f, 5)
                    change(f, c, data)
                    out.append(judge(f, data, c))
        self.assertGreaterEqual(len(out), 1 if op else 20)
        return out

    def test_each_claim_holds_on_holding_data(self):
        """every figure's claim holds on data where it is true"""
        for st in self.judged():
            self.assertEqual(st[0], "PASS", st)

    def test_each_claim_fails_where_false(self):
        """every figure's claim fails on data where it is false"""
        def falsify(f, c, data):
            data[c.variant] = [0.0] * 4 + [0.02] if c.op == "zero" else [
                x * ratio(c, f["better"], False) for x in runs(fmean(data[c.against]), 5)]
        for st in self.judged(change=falsify):
            self.assertEqual(st[0], "FAIL", st)

    def test_zero_needs_a_control(self):
        """a "= 0" claim fails when its control is 0 too"""
        for st in self.judged("zero", lambda f, c, data: data.update({c.against: [0.0] * 5})):
            self.assertEqual(st[0], "FAIL", st)

    def test_noise_widens_the_interval(self):
        """the verdict follows the interval: noise hides a gain and a regression

        A 10% gain beside 30% noise is not shown; a 10% regression inside
        it is not shown either."""
        fig = dict(id="x", better="lower", claims=[])
        gain = report.Claim("b", "<=", 0.95, "a", "gain")
        loss = report.Claim("b", "no_worse", 0.05, "a", "loss")
        noisy = {"a": runs(100, 5, 0.15), "b": runs(90, 5, 0.15)[::-1]}
        self.assertEqual(judge(fig, noisy, gain)[0], "FAIL")
        noisy["b"] = runs(110, 5, 0.15)[::-1]
        st = judge(fig, noisy, loss)
        self.assertEqual(st[0], "PASS", st)
        self.assertIn("shows a regression above", st[2])
        tight = {"a": runs(100, 5), "b": runs(110, 5)}
        self.assertEqual(judge(fig, tight, loss)[0], "FAIL")

    def test_missing_runs_fail_and_quick_does_not_judge(self):
        """a claim without runs fails; one QUICK=1 did not measure is not judged"""
        f, c = next((f, c) for f in report.figures() for c in f["claims"])
        data = figure_runs(f, 5)
        st = {v: report.stats(xs) for v, xs in data.items()}
        del data[c.variant]
        self.assertEqual(judge(f, data, c)[0], "FAIL")
        self.assertEqual(report.judge(dict(f, skipped=True, stats=st), c)[0], "NOT-JUDGED")

    def test_interval(self):
        """Welch's t interval: around the ratio, wider with fewer runs

        A point for exact counts, and None without a base."""
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
        """the ledger's timer paragraph names the work items only expsync runs"""
        base = {"tick_kept:SCHED": 70.0, "tick_kept:RCU": 50.0, "work:refresh_vm_stats": 9.0}
        mean = {"6.12": 100.0, "auto/periodic": 110.0}.get

        def text(policy):
            return report.explained_ledger_timer(lambda f, v: mean(v), {
                "6.12": base, "auto/periodic": policy})[0]
        same = text(dict(base))
        self.assertIn("auto/periodic 110.0 timer IRQs (1.10x)", same)
        self.assertIn("never under 6.12: none", same)
        self.assertIn("never under 6.12: expsync_vmstat_fold_work (auto/periodic)",
                      text(dict(base, **{"work:expsync_vmstat_fold_work": 4.0})))
        # Not measured: no paragraph.
        self.assertEqual(report.explained_ledger_timer(lambda f, v: None, {}), [])


class FastPath(unittest.TestCase):
    def test_kinds(self):
        """seed 004's primitives are recognised as gdb prints them"""
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

    def test_claims(self):
        """the fast path's claims hold on the stepped shapes, fail off them

        A periodic call shorter or longer than 6.12's fails the first, a
        direct call without a locked RMW the second; QUICK=1 does not
        judge, no calls at all fail."""
        for change, want in [({}, "PASS PASS"),
                             ({("__mod_node_page_state", "periodic"): (19, 0, 0)}, "FAIL PASS"),
                             ({("__mod_node_page_state", "periodic"): (21, 0, 0)}, "FAIL PASS"),
                             ({("mod_node_page_state", "direct"): (31, 0, 1)}, "PASS FAIL"),
                             ({("mod_node_page_state", "user-return"): None}, "FAIL PASS")]:
            shapes = {k: s for k, s in {**FASTPATH_SHAPES, **change}.items() if s}  # None: no calls
            got = report.fastpath_claims(fastpath_calls(shapes), False)
            self.assertEqual([c[0] for c in got], want.split(), change)
        self.assertEqual(report.fastpath_claims({}, True)[0][0], "NOT-JUDGED")
        self.assertEqual(report.fastpath_claims({}, False)[0][0], "FAIL")


def read(d, name):
    with open(os.path.join(d, name), errors="replace") as f:
        return f.read()


def line_with(text, what):
    return next((x for x in text.splitlines() if what in x), "")


def report_py(*args, **kw):
    """report.py ARGS' run, its output captured as text."""
    return subprocess.run([sys.executable, os.path.join(HERE, "report.py")] + list(args),
                          capture_output=True, text=True, **kw)


# sub()'s pattern that appends REPL to the file.
END = r"\Z"


def sub(name, *edits):
    """A mutation of made-up logs: their file NAME through each edit
    (PATTERN, REPL[, COUNT]): re.sub, ^ and $ matching at each line."""
    def mutate(d):
        text = read(d, name)
        for pattern, repl, *count in edits:
            text = re.sub(pattern, repl, text, count=sum(count), flags=re.M)
        with open(os.path.join(d, name), "w") as f:
            f.write(text)
    return mutate


# A failed ledger claim (test_ledger_claim, test_compare).
LEDGER_FAILS = sub("ledger.txt", (END, "FAIL|ledger: made up|over\n"))


class Report(unittest.TestCase):
    """report.py on made-up logs, as make run runs it: its files, its exit
    code and its "report: FAILED: ..." line."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.addClassCleanup(cls.tmp.cleanup)
        cls.full, cls.full_run = cls.report()
        cls.md, cls.html, cls.summary = (read(cls.full, n) for n in (
            "report.md", "index.html", "summary.txt"))

    @classmethod
    def report(cls, *mutations, quick=False):
        """(directory, run): made-up logs in a new directory, MUTATIONS
        applied, and report.py's run on them (QUICK=1 with quick)."""
        d = tempfile.mkdtemp(dir=cls.tmp.name)
        make_logs(d, quick)
        for mutate in mutations:
            mutate(d)
        env = {k: v for k, v in os.environ.items() if k != "QUICK"}
        if quick:
            env["QUICK"] = "1"
        return d, report_py(d, env=env)

    def fails(self, mutation, *names, quick=False, show=None):
        """report.py on made-up logs with MUTATION exits 1, its stderr
        naming each of NAMES; the detail is summary.txt's line with SHOW,
        else the stderr.  Returns (directory, summary.txt)."""
        d, run = self.report(mutation, quick=quick)
        text = read(d, "summary.txt")
        self.detail = "exit %d: %s" % (run.returncode,
                                       line_with(text, show) if show else run.stderr[:200])
        self.assertEqual(run.returncode, 1, run.stderr)
        for n in names:
            self.assertIn(n, run.stderr)
        return d, text

    def test_full_outputs(self):
        """a complete set of figures gives every output"""
        n = len(self.summary.splitlines())
        self.detail = "exit %d, summary %d lines, %d plots" % (
            self.full_run.returncode, n, self.html.count("<img"))
        self.assertEqual(self.full_run.returncode, 0, self.full_run.stderr)
        self.assertTrue(self.md and read(self.full, "results.json"))
        self.assertIn("data:image/png;base64", self.html)
        self.assertTrue(20 <= n <= 40, n)

    def test_full_headlines(self):
        """ratios are to 6.12, each headline's verdict beside it"""
        self.detail = line_with(self.summary, "strategy")
        self.assertIn("many 101.0±0.101 (1.00x)  single 202.0±0.202 (2.00x) => PASS",
                      self.summary)
        self.assertGreaterEqual(sum("=> PASS" in x for x in self.summary.splitlines()), 12)

    def test_full_scaling(self):
        """the scaling curves stand beside seed 000's figures, with their plots"""
        self.detail = line_with(self.md, "Cost of one more target")[:160]
        self.assertRegex(self.md, r"(?m)^\| 7 \| .* \| 3\.067 \| 9\.836 \|$")
        self.assertIn("seed 000: many 0.19 us, single 1.31 us", self.md)
        for alt in ("membarrier coalescing against callers",
                    "membarrier cost against targets, beside seed 000"):
            self.assertIn('alt="%s"' % alt, self.html)

    def test_full_fastpath(self):
        """seed 004's costs stand beside the counter functions' instructions, judged"""
        row = ("| __mod_node_page_state | direct | 3 | 25 / 25 / 25 | 0 | 2 | 0 | 0 | 0 | 0 "
               "| 0 | 20 |")
        self.detail = line_with(self.md, "| __mod_node_page_state | direct")
        self.assertIn(row, self.md.splitlines())
        self.assertIn("locked cmpxchg 12 cycles", self.md)
        self.assertEqual(sum(x.startswith("- PASS fast path: ") for x in self.md.splitlines()), 2)

    def test_fastpath_unlocked_direct(self):
        """a direct counter update that holds it per CPU fails make run"""
        # Only direct's calls have locked RMWs (FASTPATH_SHAPES).
        self.fails(sub("fastpath-bench.jsonl", ('"lock_rmw": 2', '"lock_rmw": 0')),
                   "claim failed: fast path: under direct", show="fast path: under direct")

    def test_false_headline(self):
        """a false headline claim fails make run and shows beside its figure"""
        # Coalescing that shares no round: on's rounds are off's.
        rounds = "^(@R mb_coalesce_c3_rounds) "
        d, text = self.fails(
            sub("guest-bench.log", (rounds + "on ", r"\1 unused "),
                (rounds + "off (.*\n)", r"\g<0>\1 on \2")),
            "claim failed: mb_coalesce_c3_rounds: on/off <= 0.67", show="handlers/1000 calls, 3")
        self.assertRegex(text, r"handlers/1000 calls, 3.*=> FAIL \(on/off <= 0\.67\)")
        self.assertRegex(read(d, "report.md"), r"\| IPI handler runs per 1000 calls, 3 "
                         r"caller\(s\) \| runs \| on \| 5 .*\| FAIL \(on/off <= 0\.67\) \|")
        # Verdict cells are coloured, the failed one and the others.
        html = read(d, "index.html")
        self.assertIn('<td class="FAIL">FAIL (on/off', html)
        self.assertIn('<td class="PASS">PASS', html)
        self.assertNotRegex(html, r"<td>(PASS|FAIL)")

    def test_short_figure(self):
        """a figure with 4 runs of 5 fails make run and is named"""
        self.fails(sub("guest-bench.log", (r"^@R tf_munmap_busy_ms rcu\+percpu .*\n", "", 1)),
                   "tf_munmap_busy_ms [rcu+percpu]: 4 of 5 runs")

    def test_no_perf(self):
        """a guest without perf fails make run with its message"""
        d, _ = self.fails(sub("guest-bench-noexpsync.log", ("^@R mb_.*\n", ""), (
            END, "MISSING: no runnable perf in the guest; every figure counted by perf is "
            "missing\n")), "no runnable perf in the guest", "mb_ipi_t2 [6.12]: 0 of 3")
        # Nothing prints as a number that was not measured: no 6.12 mean,
        # no ratio to it.
        md = read(d, "report.md")
        row = r"(?m)^\| IPI sends per 1000 calls, 1 target\(s\) \| sends \| "
        self.assertRegex(md, row + r"6\.12 \| 0 \| MISSING \|")
        self.assertRegex(md, row + r"many( \|[^|]*){4}\| - \| 6\.12 \|")

    def test_ledger_claim(self):
        """a failed ledger claim fails make run"""
        self.fails(LEDGER_FAILS, "claim failed: ledger: made up")

    def test_nomem(self):
        """one expsync command returning ENOMEM fails make run"""
        _, text = self.fails(sub("guest-bench.log", ("^@R mb_nomem_fail expsync 0$",
                                                     "@R mb_nomem_fail expsync 1", 1)),
                             "claim failed: no-ENOMEM", show="no-ENOMEM")
        self.assertIn("FAIL no-ENOMEM", text)

    def test_compare(self):
        """compare pairs every figure of two results.json"""
        run = report_py("compare", self.full, self.report(LEDGER_FAILS)[0])
        n = sum(x.endswith(" 1.000") for x in run.stdout.splitlines())
        self.detail = "exit %d, %d figures paired" % (run.returncode, n)
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertGreaterEqual(n, 100)

    def test_quick(self):
        """QUICK=1: its figures at 3 runs pass, the others say they were not measured"""
        d, run = self.report(quick=True)
        nq = len(report_py("quick-figures", check=True).stdout.split())
        text = read(d, "summary.txt")
        self.detail = "exit %d, %d figures: %s" % (run.returncode, nq, run.stderr[:200])
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertGreaterEqual(nq, 8)
        self.assertIn("not measured by QUICK=1", text)
        self.assertIn("not judged (not measured by QUICK=1)", text)
        self.assertIn("| stress-ng --mmap | bogo-ops/s | all | 0 | not measured by QUICK=1 "
                      "| | | | 6.12 | not judged |", read(d, "report.md").splitlines())
        self.assertIn("data:image/png;base64", read(d, "index.html"))
        self.assertNotRegex(text, r"stress-ng --mmap.*[0-9]x")

    def test_quick_short(self):
        """QUICK=1: a figure of its subset with 1 run of 3 fails and is named"""
        self.fails(sub("guest-bench.log", ("^@R mb_coalesce_c3_cps on .*\n", "", 2)),
                   "mb_coalesce_c3_cps [on]: 1 of 3 runs", quick=True)

    def test_runs(self):
        """runs and quick-figures print what run.sh hands the guests"""
        runs = dict(x.split(":") for x in report_py("runs", check=True).stdout.split())
        quick = report_py("quick-figures", check=True).stdout.split()
        self.detail = "%d figures, %d in QUICK" % (len(runs), len(quick))
        self.assertEqual(list(runs), [f["id"] for f in report.figures()])
        self.assertTrue(all(re.fullmatch(r"[1-9][0-9]*", n) for n in runs.values()), runs)
        self.assertEqual(set(quick), report.QUICK)
        self.assertLessEqual(report.QUICK, set(runs))


class Lines(unittest.TestResult):
    """make check's lines: one "STATUS|report: TEST|DETAIL" per test."""

    def line(self, status, test, detail):
        name = (test.shortDescription() or str(test)).replace("|", "/")
        print("%s|report: %s|%s" % (status, name, " ".join(str(detail).split())[:300]),
              flush=True)

    def addSuccess(self, test):
        super().addSuccess(test)
        self.line("PASS", test, getattr(test, "detail", "ok"))

    def addFailure(self, test, err):
        super().addFailure(test, err)
        print("".join(traceback.format_exception(*err)), file=sys.stderr, flush=True)
        self.line("FAIL", test, "%s: %s" % (err[0].__name__, str(err[1]).split("\n")[0]))

    # An error fails the test as a failed assertion does.
    addError = addFailure


if __name__ == "__main__":
    if sys.argv[1:2] == ["make-logs"]:
        make_logs(sys.argv[2], sys.argv[3:4] == ["quick"])
        sys.exit(0)
    result = Lines()
    unittest.defaultTestLoader.loadTestsFromModule(sys.modules[__name__]).run(result)
    sys.exit(0 if result.testsRun and result.wasSuccessful() else 1)
