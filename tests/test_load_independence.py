"""No verdict depends on the machine's speed (docs/CONJECTURES.md): the commands whose answers
a budget can cut short — program and term equivalence, the conjecture sweep, the properties
that decide equivalence — give the same output when the clock races (every reading of
`time.monotonic` 10,000 s after the last, as on a machine infinitely loaded), because they are
bounded by work (z3's resource units, steps, examples), not time. The last test shows the
racing clock does reach a budget that *is* timed: the comparison is not vacuous."""

from __future__ import annotations

import itertools
import re
import time

import pytest

from goi.cli import exitcodes, main

COMMANDS = [
    ["equiv", "-e", "let f @ p = λx:F. {2} * x + {1} in f p 3", "-e", "{1} + 3 * {2}"],
    ["equiv", "-e", "(λx. x / x) {3}", "-e", "(λx. x * 0 + 1) {3}"],
    ["equiv", "-e", "(λx. (x*x - 2)/(x*x - 2)) {3}", "-e", "(λx. x*0 + 1) {3}"],
    ["equiv", "-e", "let xx = (let yy = {0} in 0) in let f @ p = xx in p • p + 0",
     "-e", "let yy = {0} in let xx = 0 in let f @ p = xx in p • p + 0"],
    ["equiv", "--terms", "-e", "λx:F. x * {2}", "-e", "λx:F. x + {2}"],
    ["equiv", "--terms", "-e", "λx:F. x * {2}", "-e", "λy:F. {2} * y", "--examples", "60"],
    ["conjectures", "plus-commutes", "beta-value", "let-floating", "congruence", "--profile", "ci"],
    ["props", "equivalence", "symbolic", "--profile", "ci", "--examples", "15"],
]


def output(capsys, argv) -> tuple[int, str]:
    code = main(argv)
    out = capsys.readouterr().out
    # what a run measures in seconds is not a verdict: masked (the time column, runs/s)
    out = re.sub(r"\s*\d+(\.\d+)? runs/s", " … runs/s", out)  # with the padding its width changes
    out = re.sub(r"\s*\d+(\.\d+)?s\b", " …s", out)
    return code, out


@pytest.fixture
def racing_clock(monkeypatch):
    ticks = itertools.count()
    start = time.monotonic()
    monkeypatch.setattr(time, "monotonic", lambda: start + 10_000.0 * next(ticks))


@pytest.mark.parametrize("argv", COMMANDS, ids=[" ".join(a[:3]) for a in COMMANDS])
def test_the_same_verdict_with_the_clock_racing(argv, capsys, monkeypatch):
    calm = output(capsys, argv)
    ticks = itertools.count()
    start = time.monotonic()
    monkeypatch.setattr(time, "monotonic", lambda: start + 10_000.0 * next(ticks))
    loaded = output(capsys, argv)
    assert loaded == calm


def test_the_racing_clock_does_cut_a_timed_budget_short(capsys, racing_clock):
    code, out = output(capsys, ["equiv", "-e", "{1} * {2}", "-e", "{2} * {1}", "--timeout", "5"])
    assert code == exitcodes.UNDECIDED and "time budget of 5 s ran out" in out
    code, out = output(capsys, ["equiv", "-e", "{1} * {2}", "-e", "{2} * {1}"])  # by work: unaffected
    assert code == exitcodes.OK and out.startswith("EQUIVALENT")


def test_a_work_budget_too_small_is_unknown_and_says_so(capsys):
    code, out = output(capsys, ["equiv", "-e", "let f @ p = λx:F. {2} * x + {1} in f p 3", "-e", "{1} + 3 * {2}",
                                "--work", "1"])
    assert code == exitcodes.UNDECIDED and "work budget of 1 z3 units ran out" in out
