"""The rule catalogue drawn: for every rule, the graph just before and just after it fires
on a small instance goi finds itself — the example programs first (smallest first), then
generated programs — as SVG files in docs/rules/, linked from docs/RULES.md's table.

    python -m goi.reports.rule_pictures [DIR]     (default: docs/rules of the checkout)

The token's link is the thick red edge. A garbage-collection rule is not a transition: its
"before" is the graph before the transition after which the collector applied it, its
"after" the graph once the collection is done.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Iterator

ROOT = Path(__file__).resolve().parent.parent


def candidate_programs() -> Iterator[tuple[str, str, object]]:
    """(origin, text, graph): the example programs by size, then generated programs, then
    graphs beyond the translation's image (generators/graphs.py): generated ones whose
    contractions are split (where copy.merge fires) and the examples' with extra weakenings
    (where gc.con0 fires) — neither fires from our translation. Fixed seeds. `graph` is
    None where the program's own translation is run."""
    from goi.properties.oracle import corpus_files

    for origin, text in sorted(corpus_files(), key=lambda item: len(item[1])):
        if len(text) < 600:
            yield origin, text, None
    from hypothesis import HealthCheck, given, settings

    from goi import execution
    from goi.generators.graphs import split_graphs, weakened
    from goi.generators.typed import programs
    from goi.semantics.pretty import pretty

    def drawn(strategy, examples: int) -> list:
        found: list = []

        @settings(max_examples=examples, database=None, derandomize=True, suppress_health_check=list(HealthCheck))
        @given(strategy)
        def collect(example):
            found.append(example)

        collect()
        return found

    for depth, examples in ((4, 300), (5, 1000)):
        texts = sorted({pretty(term) for term in drawn(programs(max_depth=depth), examples)}, key=lambda t: (len(t), t))
        for i, text in enumerate(texts):
            yield f"generated (depth {depth}) #{i}", text, None
    cases = drawn(split_graphs(max_depth=4), 500)
    for i, (term, _judgement, graph) in enumerate(sorted(cases, key=lambda case: (len(pretty(case[0])), pretty(case[0])))):
        yield f"generated (depth 4), contractions split (generators/graphs.py) #{i}", pretty(term), graph
    for origin, text in sorted(corpus_files(), key=lambda item: len(item[1])):
        try:
            graph = weakened(execution.prepare(text).machine.graph)
        except Exception:  # a program the front end refuses: not an instance
            continue
        yield f"{origin}, each contraction given an extra weakening (generators/graphs.py)", text, graph


def find_instances(wanted: set) -> dict:
    """rule id -> (origin, program, DOT before, DOT after), for as many wanted rules as found."""
    from goi import execution
    from goi.semantics.dot import to_dot
    from goi.semantics.rules import GC, of_kind

    found: dict = {}
    for origin, text, graph in candidate_programs():
        if not wanted - set(found):
            break
        for gc in (False, True):
            try:
                ex = execution.prepare(text, gc=gc, graph=None if graph is None else graph.clone()[0])
            except Exception:  # a generated text the front end refuses: not an instance
                break
            machine, pending = ex.machine, {}

            def before(m, rule_id, redex):
                if (rule_id in wanted and rule_id not in found) or gc:
                    pending["dot"] = to_dot(m.graph, m, f"before {rule_id} (step {m.steps + 1})")
                    pending["gc"] = dict(ex.collector.counts) if ex.collector is not None else {}

            def after(m, rule_id, redex):
                if rule_id in wanted and rule_id not in found and "dot" in pending:
                    found[rule_id] = (origin, text, pending["dot"], to_dot(m.graph, m, f"after {rule_id} (step {m.steps})"))
                if ex.collector is not None and "gc" in pending:
                    for gc_rule in of_kind(GC):
                        if ex.collector.counts.get(gc_rule, 0) > pending["gc"].get(gc_rule, 0) and gc_rule not in found \
                                and gc_rule in wanted:
                            found[gc_rule] = (origin, text, pending["dot"],
                                              to_dot(m.graph, m, f"after step {m.steps} and the collection ({gc_rule})"))

            machine.before.append(before)
            machine.after.append(after)
            ex.run(20_000)
    return found


def write(directory: Path) -> list[str]:
    """Draw every rule's pair into `directory`; returns the rules no instance was found for."""
    from goi.semantics.rules import load_all

    from .pictures import graph_svg

    directory.mkdir(parents=True, exist_ok=True)
    wanted = set(load_all())
    found = find_instances(wanted)
    for rule_id, (origin, text, dot_before, dot_after) in sorted(found.items()):
        for when, dot in (("before", dot_before), ("after", dot_after)):
            (directory / f"{rule_id}.{when}.svg").write_text(graph_svg(dot), encoding="utf-8")
        (directory / f"{rule_id}.program.txt").write_text(f"{origin}\n{text.strip()}\n", encoding="utf-8")
    return sorted(wanted - set(found))


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "rules"
    missing = write(target)
    print(f"pictures of {len(list(target.glob('*.before.svg')))} rules in {target}"
          + (f"; no instance found for {', '.join(missing)}" if missing else ""))
    sys.exit(1 if missing else 0)
