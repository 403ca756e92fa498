"""Each rule's declared attributes against what it does. `changes_graph=False` is a promise
the collector and the checks rely on — after such a transition the garbage collector does not
look and no check is consulted, and `goi view` draws no picture — so a graph-changing rule
declared otherwise would go unchecked. On generated runs (first and random ?-phase orders):
a rule declared not to change the graph never moves the graph's version; one that moves it is
declared to change it; and every graph-changing rule that fires changes the graph at least
once. Passes never change the graph, and every rule that changes it is a rewrite or GC."""

from __future__ import annotations

from collections import defaultdict

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from goi import execution
from goi.generators.typed import programs
from goi.semantics.rules import DEFAULT
from goi.generators.graphs import split_graphs
from goi.semantics.machine import Machine
from goi.semantics.rules.registry import GC, PASS, REWRITE

SEEN: dict = defaultdict(lambda: [0, 0])  # rule -> [firings that changed the graph, firings that did not]
RAN: set = set()  # the samples observed in this process (pytest-xdist may run them elsewhere)


def observed(machine) -> None:
    before = [0]

    def remember(m, _rule, _redex):
        before[0] = m.graph.version

    def compare(m, rule_id, _redex):
        changed = m.graph.version != before[0]
        SEEN[rule_id][0 if changed else 1] += 1
        declared = DEFAULT[rule_id].changes_graph
        assert declared or not changed, f"{rule_id} is declared changes_graph=False but changed the graph"

    machine.before.insert(0, remember)
    machine.after.insert(0, compare)
    machine.run(20_000)


@settings(max_examples=120, derandomize=True, database=None, deadline=None, suppress_health_check=list(HealthCheck))
@given(programs(max_depth=5), st.sampled_from(["first", "random"]), st.integers(0, 2**16))
def test_a_rule_declared_not_to_change_the_graph_never_does(term, strategy, seed):
    ex = execution.prepare(term, strategy=strategy, seed=seed) if strategy == "random" else execution.prepare(term)
    observed(ex.machine)
    RAN.add("generated")


@settings(max_examples=40, derandomize=True, database=None, deadline=None, suppress_health_check=list(HealthCheck))
@given(split_graphs(max_depth=4))
def test_on_graphs_with_split_contractions_too(drawn):
    """Beyond the translation's image (copy.merge fires only where contractions are split)."""
    _term, _judgement, graph = drawn
    observed(Machine(graph))
    RAN.add("split")


def test_every_graph_changing_rule_that_fired_changed_the_graph():
    if "generated" not in RAN:  # run alone, or the samples ran in another process: observe them here
        test_a_rule_declared_not_to_change_the_graph_never_does()
    if "split" not in RAN:
        test_on_graphs_with_split_contractions_too()
    never = sorted(r for r, (changed, _same) in SEEN.items() if DEFAULT[r].changes_graph and not changed)
    assert never == [], f"declared changes_graph=True, but never changed the graph in {sum(SEEN[r][1] for r in never)} firings"
    rewrites = {r.id for r in DEFAULT.values() if r.kind == REWRITE}
    assert rewrites <= set(SEEN), sorted(rewrites - set(SEEN))  # the samples exercised every rewrite


def test_the_kinds_agree_with_the_declarations():
    for rule in DEFAULT.values():
        if rule.kind == PASS:
            assert not rule.changes_graph, rule.id
        if rule.kind == GC:
            assert rule.changes_graph, rule.id  # a collector's rule always removes something
