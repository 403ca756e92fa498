"""The property tests: one Hypothesis test per property, the same for pytest
(tests/test_properties.py) and `goi props`.

`build(name, config)` returns the @given test of a property for a profile's configuration;
settings (examples, seed, database) are applied by the caller. Each property's test is its
own function, so each has its own example-database key (Hypothesis keys a test by its
source): a failure found by `goi props soundness` is replayed first by pytest's
test_soundness, and the other way round.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Callable

from hypothesis import event, given
from hypothesis import strategies as st

from goi.generators.graphs import split_graphs
from goi.generators.typed import programs
from goi.semantics.typecheck import typecheck

from . import agreement, determinism, gc_bisimulation, invariants, parameter_preservation, soundness, split_contractions
from .profiles import Config
from .runner import undecided
from . import coverage
from .progress import PROGRESS
from .incremental_agreement import incremental_agreement, rewrites_of
from .symbolic_agreement import self_equivalence, symbolic_agreement


def _enter(name: str, config: Config) -> undecided:
    """Each example: the progress line, and the property its runs are recorded under; the
    returned context passes over an example a budget stopped (runner.undecided)."""
    coverage.CURRENT[0] = name
    PROGRESS.tick(name, config.examples)
    return undecided(name)


def _soundness(config: Config):
    @given(programs(max_depth=config.max_depth))
    def soundness_property(term):
        with _enter("soundness", config):
            soundness(term, config)

    return soundness_property


def _invariants(config: Config):
    @given(programs(max_depth=config.max_depth))
    def invariants_property(term):
        with _enter("invariants", config):
            invariants(term, config)

    return invariants_property


def _determinism(config: Config):
    @given(programs(max_depth=config.max_depth), st.integers(min_value=0, max_value=2**16))
    def determinism_property(term, seed):
        with _enter("determinism", config):
            determinism(term, config, seed)

    return determinism_property


def _gc(config: Config):
    @given(programs(max_depth=config.max_depth))
    def gc_property(term):
        with _enter("gc", config):
            gc_bisimulation(term, config)

    return gc_property


def _agreement(config: Config):
    @given(programs(max_depth=config.max_depth))
    def agreement_property(term):
        with _enter("agreement", config):
            agreement(term, config)

    return agreement_property


def _parameters(config: Config):
    @given(programs(max_depth=config.max_depth))
    def parameters_property(term):
        with _enter("parameters", config):
            parameter_preservation(term, config)

    return parameters_property


def _contractions(config: Config):
    @given(split_graphs(max_depth=config.max_depth))
    def contractions_property(case):
        with _enter("contractions", config):
            term, _judgement, graph = case
            split_contractions(term, graph, config)

    return contractions_property


# points q⃗: 0 and ±1 often (a denominator vanishing at a point is what strict division is about)
rationals = st.one_of(st.sampled_from([Fraction(0), Fraction(1), Fraction(-1)]), st.builds(Fraction, st.integers(-20, 20), st.integers(1, 6)))


def _symbolic(config: Config):
    @given(programs(max_depth=config.max_depth), st.sampled_from(["total", "strict"]), st.data())
    def symbolic_property(term, division, data):
        with _enter("symbolic", config):
            n = len(typecheck(term).params)
            point = data.draw(st.lists(rationals, min_size=n, max_size=n), label="q⃗")
            symbolic_agreement(term, config, point, division)

    return symbolic_property


def _equivalence(config: Config):
    @given(programs(max_depth=config.max_depth), programs(max_depth=config.max_depth))
    def equivalence_property(term, other):
        with _enter("equivalence", config):
            self_equivalence(term, config, other)

    return equivalence_property


def _incremental(config: Config):
    @given(programs(max_depth=config.max_depth), st.data())
    def incremental_property(term, data):
        with _enter("incremental", config):
            corrupt_at = data.draw(st.integers(1, max(1, rewrites_of(term, config))), label="corrupted after rewrite")
            what, verdict = incremental_agreement(term, config, corrupt_at, lambda options: data.draw(st.sampled_from(options)))
            event(f"corruption {what}: {verdict}")

    return incremental_property


TESTS: dict[str, Callable[[Config], Callable]] = {
    "soundness": _soundness,
    "invariants": _invariants,
    "determinism": _determinism,
    "gc": _gc,
    "agreement": _agreement,
    "parameters": _parameters,
    "contractions": _contractions,
    "symbolic": _symbolic,
    "equivalence": _equivalence,
    "incremental": _incremental,
}


def build(name: str, config: Config) -> Callable:
    """The Hypothesis test of property `name` under `config` (no settings applied)."""
    return TESTS[name](config)
