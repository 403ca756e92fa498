"""The determinism property makes its random-strategy run only when a strategy could choose.

The check `determinism` looks at every ?-state of a run for a choice of rewrites; when it saw
none, `offered_no_choice()` says so and the property does not run the program again with a
random strategy (properties/determinism.py). These tests hold the check's answer against the
machine itself: a strategy that lists every option and counts the times it is asked is asked
exactly when the check saw a choice, and where it is never asked its run is the first one,
rewrite for rewrite."""

from __future__ import annotations

import pytest
from hypothesis import given

from goi import execution
from goi.generators.typed import programs
from goi.properties import runner
from goi.properties.profiles import config, current
from goi.properties.suite import registry
from goi.semantics.checks import make_checks
from goi.semantics.checks.monitor import Monitor
from goi.semantics.machine import Machine
from goi.semantics.translate import translate

CHOICE = "let a = {1} in let b = {2} in (λu. u) (a + b)"  # a ?-phase with two absorptions
NO_CHOICE = "let f = λx. x + {1} in f (f (f 2))"


class _Counting:
    """Lists every option (as a random strategy does), takes the first, counts the asks."""

    name = "counting"
    first_only = False

    def __init__(self):
        self.asked = 0

    def choose(self, options):
        self.asked += 1
        return options[0]


def _runs(text: str, mode: str):
    judgement = execution.judge(text)
    first = Machine(translate(judgement))
    monitor = Monitor(first, make_checks(["determinism"], check_mode=mode))
    outcome = monitor.run(100_000)
    check = next(c for c in monitor.checks if c.name == "determinism")
    strategy = _Counting()
    again = Machine(translate(judgement), strategy=strategy)
    return outcome, check, again.run(100_000), strategy, again


def _agree(text, mode: str) -> bool:
    outcome, check, other, strategy, _m = _runs(text, mode)
    assert outcome.status in ("final", "undefined", "budget")
    assert check.offered_no_choice() == (strategy.asked == 0)
    if strategy.asked == 0:  # never asked: the very same run
        assert (other.status, other.value, other.steps, other.counts) == (outcome.status, outcome.value, outcome.steps, outcome.counts)
    return check.offered_no_choice()


@pytest.mark.parametrize("mode", ["exhaustive", "sampled", "full"])
def test_the_check_sees_a_choice_exactly_when_a_strategy_would_be_asked(mode):
    assert _runs(CHOICE, mode)[0].status == _runs(NO_CHOICE, mode)[0].status == "final"
    assert not _agree(CHOICE, mode)
    assert _agree(NO_CHOICE, mode)
    deep = "1"
    for _ in range(20):  # more ?-phases than sampled mode looks at by its schedule alone
        deep = f"f ({deep})"
    assert _agree(f"let f = λx. x + {{1}} in {deep}", mode)


@given(programs(max_depth=current().max_depth))
def test_on_generated_programs_the_check_sees_a_choice_exactly_when_a_strategy_would_be_asked(term):
    for mode in ("exhaustive", "sampled"):
        _agree(term, mode)


def test_the_determinism_property_runs_a_program_again_only_when_a_strategy_could_choose(monkeypatch):
    made = []
    real = runner._made
    monkeypatch.setattr(runner, "_made", lambda *a: made.append(a[4]) or real(*a))
    determinism = registry()["determinism"].check
    for profile in ("ci", "deep"):
        made.clear()
        determinism(NO_CHOICE, config(profile), seed=3)
        assert made == [None]  # the first run only
        made.clear()
        determinism(CHOICE, config(profile), seed=3)
        assert len(made) == 2 and made[0] is None and made[1].seed == 3
