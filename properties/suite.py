"""The property tests: one Hypothesis test per property, the same for pytest
(tests/test_properties.py) and `goi props`.

Each factory is declared a property (properties.registry); `build(name, config)` returns the
@given test of a property for a profile's configuration; settings (examples, seed, database)
are applied by the caller. Each property's test is its
own function, so each has its own example-database key (Hypothesis keys a test by its
source): a failure found by `goi props soundness` is replayed first by pytest's
test_soundness, and the other way round.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Callable, Iterable
from hypothesis import event, given
from hypothesis import strategies as st

from goi.generators.graphs import split_graphs
from goi.generators.typed import programs
from goi.semantics.typecheck import typecheck

from .agreement import agreement
from .contractions import split_contractions
from .determinism import determinism
from .gc_bisimulation import gc_bisimulation
from .invariants import invariants
from .parameters import parameter_preservation
from .soundness import soundness
from .profiles import Config
from .registry import DECLARED, Property, UnknownProperty, declare
from .runner import undecided
from . import coverage
from .progress import PROGRESS
from .incremental_agreement import incremental_agreement, rewrites_of
from .symbolic_agreement import self_equivalence, symbolic_agreement


def _enter(name: str, config: Config) -> undecided:
    """Each example: the progress line, and the property its runs are recorded under; the
    returned context passes over an example a budget stopped (runner.undecided)."""
    coverage.current().property = name
    PROGRESS.tick(name, config.examples)
    return undecided(name)


@declare("soundness", order=10, statement="Theorem 6.1 (soundness)", check=soundness)
def _soundness(config: Config):
    """A program's run ends in a final state holding a value of its type (never stuck)."""

    @given(programs(max_depth=config.max_depth))
    def soundness_property(term):
        with _enter("soundness", config):
            soundness(term, config)

    return soundness_property


@declare("invariants", order=20, statement="the appendix's invariants (docs/INVARIANTS.md)", check=invariants)
def _invariants(config: Config):
    """Every check of docs/INVARIANTS.md holds after every transition."""

    @given(programs(max_depth=config.max_depth))
    def invariants_property(term):
        with _enter("invariants", config):
            invariants(term, config)

    return invariants_property


@declare("determinism", order=30, statement="Props. A.1, A.2, Cor. A.3", check=determinism)
def _determinism(config: Config):
    """Orders of ?-rewrites, strategies and name permutations give the same result."""

    @given(programs(max_depth=config.max_depth), st.integers(min_value=0, max_value=2**16))
    def determinism_property(term, seed):
        with _enter("determinism", config):
            determinism(term, config, seed)

    return determinism_property


@declare("gc", order=40, statement="Prop. 7.6 (garbage collection)", check=gc_bisimulation)
def _gc(config: Config):
    """Collecting garbage changes neither the outcome nor the observable token behaviour."""

    @given(programs(max_depth=config.max_depth))
    def gc_property(term):
        with _enter("gc", config):
            gc_bisimulation(term, config)

    return gc_property


@declare("agreement", order=50, statement="second opinion (properties.reference)", check=agreement)
def _agreement(config: Config):
    """The machine agrees with the substitution-based second-opinion evaluator."""

    @given(programs(max_depth=config.max_depth))
    def agreement_property(term):
        with _enter("agreement", config):
            agreement(term, config)

    return agreement_property


@declare("parameters", order=60, statement="the ¡-constants (Sec. 4)", check=parameter_preservation)
def _parameters(config: Config):
    """The ¡-constants never change; replacing them acts as the program says."""

    @given(programs(max_depth=config.max_depth))
    def parameters_property(term):
        with _enter("parameters", config):
            parameter_preservation(term, config)

    return parameters_property


@declare("contractions", order=70, statement="graphs with split contractions", check=split_contractions)
def _contractions(config: Config):
    """Graphs with split contractions behave as the program's translation."""

    @given(split_graphs(max_depth=config.max_depth))
    def contractions_property(case):
        with _enter("contractions", config):
            term, _judgement, graph = case
            split_contractions(term, graph, config)

    return contractions_property


# points q⃗: 0 and ±1 often (a denominator vanishing at a point is what strict division is about)
rationals = st.one_of(st.sampled_from([Fraction(0), Fraction(1), Fraction(-1)]), st.builds(Fraction, st.integers(-20, 20), st.integers(1, 6)))


@declare("symbolic", order=80, statement="the symbolic field (z3) against exact runs", check=symbolic_agreement)
def _symbolic(config: Config):
    """A symbolic run evaluated at a point agrees with the exact run at that point."""

    @given(programs(max_depth=config.max_depth), st.sampled_from(["total", "strict"]), st.data())
    def symbolic_property(term, division, data):
        with _enter("symbolic", config):
            n = len(typecheck(term).params)
            point = data.draw(st.lists(rationals, min_size=n, max_size=n), label="q⃗")
            symbolic_agreement(term, config, point, division)

    return symbolic_property


@declare("equivalence", order=90, statement="program equivalence (z3)", check=self_equivalence)
def _equivalence(config: Config):
    """A program is never refuted equivalent to itself (nor to a renaming of it)."""

    @given(programs(max_depth=config.max_depth), programs(max_depth=config.max_depth))
    def equivalence_property(term, other):
        with _enter("equivalence", config):
            self_equivalence(term, config, other)

    return equivalence_property


@declare("incremental", order=100, statement="incremental checks against whole-graph checks", check=incremental_agreement)
def _incremental(config: Config):
    """The incremental checks give the whole-graph checks' verdict, also on corrupted graphs."""

    @given(programs(max_depth=config.max_depth), st.data())
    def incremental_property(term, data):
        with _enter("incremental", config):
            corrupt_at = data.draw(st.integers(1, max(1, rewrites_of(term, config))), label="corrupted after rewrite")
            what, verdict = incremental_agreement(term, config, corrupt_at, lambda options: data.draw(st.sampled_from(options)))
            event(f"corruption {what}: {verdict}")

    return incremental_property


# ---- the declared properties ------------------------------------------------------------

def registry() -> dict[str, Property]:
    """Every property, by name, in the suite's order."""
    return {name: DECLARED[name] for name in sorted(DECLARED, key=lambda n: DECLARED[n].order)}


def names() -> tuple[str, ...]:
    return tuple(registry())


def select(chosen: Iterable[str]) -> list[str]:
    """The properties named (all when none is), or UnknownProperty naming the unknown ones."""
    known = names()
    chosen = list(chosen) or list(known)
    unknown = [n for n in chosen if n not in known]
    if unknown:
        raise UnknownProperty(f"unknown properties {', '.join(unknown)}; known: {', '.join(known)}")
    return chosen


def build(name: str, config) -> Callable:
    """The Hypothesis test of property `name` under `config` (no settings applied)."""
    return registry()[name].build(config)
