"""The paper's theorems as properties over generated programs (properties/), under the
active Hypothesis profile (ci, dev, deep: properties/profiles.py)."""

from collections import Counter

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import properties
from generators.graphs import split_graphs
from generators.typed import contexts, pairs, programs, terms
from properties.profiles import current
from semantics.machine import Machine
from semantics.rules import load_all
from semantics.translate import translate
from semantics.typecheck import typecheck
from semantics.types import Arrow, F, Vec

CONFIG = current()
DEPTH = CONFIG.max_depth


@given(programs(max_depth=DEPTH))
def test_soundness(term):
    properties.soundness(term, CONFIG)


@given(programs(max_depth=DEPTH))
def test_invariants_after_every_transition(term):
    properties.invariants(term, CONFIG)


@given(programs(max_depth=DEPTH), st.integers(min_value=0, max_value=2**16))
def test_determinism_and_alpha_equivalence(term, seed):
    properties.determinism(term, CONFIG, seed)


@given(programs(max_depth=DEPTH))
def test_gc_bisimulation(term):
    properties.gc_bisimulation(term, CONFIG)


@given(programs(max_depth=DEPTH))
def test_agreement_with_the_second_opinion(term):
    properties.agreement(term, CONFIG)


@given(programs(max_depth=DEPTH, decoupling=False, iterated=False))
def test_agreement_on_decoupling_free_programs(term):
    properties.agreement(term, CONFIG)


@given(programs(max_depth=DEPTH))
def test_parameter_preservation(term):
    properties.parameter_preservation(term, CONFIG)


@given(split_graphs(max_depth=DEPTH))
def test_split_contractions(case):
    term, _judgement, graph = case
    properties.split_contractions(term, graph, CONFIG)


# ---- the generators: well-typed by construction, no filtering --------------------------

SAMPLE = settings(max_examples=max(300, CONFIG.examples), deadline=None, phases=[Phase.generate], suppress_health_check=list(HealthCheck))


@SAMPLE
@given(programs(max_depth=DEPTH))
def test_every_generated_program_is_a_closed_program_of_type_F(term):
    j = typecheck(term)
    assert j.names == () and j.context == () and j.type == F


CTX = (("x", F), ("g", Arrow(F, F)), ("v", Vec("a")), ("h", Arrow(Vec("a"), F)))


@SAMPLE
@given(st.data())
def test_terms_have_the_requested_judgement(data):
    for ty in (F, Arrow(F, F), Vec("a"), Arrow(Vec("a"), Vec("a"))):
        t = data.draw(terms(("a",), CTX, ty, max_depth=3))
        assert typecheck(t, context=CTX, names=("a",)).type == ty


@SAMPLE
@given(pairs(Arrow(F, F)))
def test_pairs_have_one_type(pair):
    assert typecheck(pair[0]).type == typecheck(pair[1]).type == Arrow(F, F)


@SAMPLE
@given(contexts(F), terms((), (), F, max_depth=2))
def test_contexts_plugged_with_a_term_of_the_hole_type_are_programs(ctx, t):
    plug, _kind = ctx
    assert typecheck(plug(t)).type == F


# ---- rule coverage ----------------------------------------------------------------------

def test_every_rule_fires_under_this_profile(request):
    """Each transition rule of the catalogue fires at least once on generated inputs.

    Derandomised: a fixed set of examples per profile (it changes, and is re-verified, when
    the generators change), so that coverage does not depend on the luck of a seed.
    """
    counts: Counter = Counter()
    runs = Counter()
    fixed = dict(deadline=None, suppress_health_check=list(HealthCheck), database=None, derandomize=True)

    @settings(max_examples=CONFIG.examples, **fixed)
    @given(programs(max_depth=DEPTH))
    def on_programs(term):
        outcome = Machine(translate(typecheck(term))).run(CONFIG.max_steps)
        counts.update(outcome.counts)
        runs["programs"] += 1

    @settings(max_examples=CONFIG.examples, **fixed)
    @given(split_graphs(max_depth=DEPTH))
    def on_split_graphs(case):
        outcome = Machine(case[2]).run(CONFIG.max_steps)
        counts.update(outcome.counts)
        runs["split graphs"] += 1

    on_programs()
    on_split_graphs()
    rules = sorted(r for r, rule in load_all().items() if rule.kind != "gc")
    summary = {"runs": dict(runs), "transitions": {r: counts[r] for r in rules}, "never_fired": [r for r in rules if not counts[r]]}
    cache = getattr(request.config, "cache", None)  # absent under -p no:cacheprovider
    if cache is not None:
        cache.set("goi/rule-coverage", summary)  # .pytest_cache/v/goi/rule-coverage
    assert summary["never_fired"] == [], f"rules never exercised: {summary['never_fired']}"
