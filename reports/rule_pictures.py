"""The rule catalogue drawn: for every rule, its redex and the redex's neighbourhood just
before and just after it fires, side by side in one layout (the redex's nodes filled, links
to the rest of the graph as dotted stubs), on a small instance goi finds itself — the example
programs first (smallest first), then generated programs — as one SVG file per rule in
docs/rules/, linked from docs/RULES.md's table.

    python -m goi.reports.rule_pictures [DIR]     (default: docs/rules of the checkout)

The token's link is the thick red edge. A garbage-collection rule is not a transition: its
"before" is the graph before the transition after which the collector applied it, its
"after" the graph once the collection is done; the nodes it removed are the ones filled.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

ROOT = Path(__file__).resolve().parent.parent


def candidate_programs() -> Iterator[tuple[str, str, object]]:
    """(origin, text, graph): the example programs by size, then generated programs, then
    graphs beyond the translation's image (generators/graphs.py): generated ones whose
    contractions are split (where copy.merge fires) and the examples' with extra weakenings
    (where gc.con0 fires) — neither fires from our translation. Fixed seeds. `graph` is
    None where the program's own translation is run."""
    from goi.oracle.corpus import corpus_files

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


CONTEXT = 1  # links from the redex to the nodes drawn around it
MAX_NODES = 36  # nodes drawn of one side at most (a copied box can be large): the redex's first


@dataclass
class Snapshot:
    """A graph state as the picture needs it: node id -> (DOT attributes, the ids of the
    boxes it is in, innermost first), link id -> (source id, target id, label, attributes);
    None for the root's source or an open end."""

    nodes: dict
    links: dict
    token: int  # the token's link

    @classmethod
    def of(cls, machine) -> "Snapshot":
        from goi.semantics.dot import link_label, link_style, node_style

        graph, token = machine.graph, machine.token.position
        nodes = {}
        for node in graph.nodes:
            chain, box = [], node.box
            while box is not None:
                chain.append(box.id)
                box = box.parent
            nodes[node.id] = (node_style(node), tuple(chain))
        links = {link.id: (None if link.src is None else link.src.id, None if link.dst is None else link.dst.id,
                           link_label(link), link_style(link, token)) for link in graph.links}
        return cls(nodes, links, token.id)

    def around(self, focus: set, extra: set = frozenset()) -> set:
        """The focus, the token's link's ends and `extra` (the other side's nodes still
        here), and the nodes within CONTEXT links of the focus; at most MAX_NODES."""
        src, dst, _label, _style = self.links[self.token]
        focus = {n for n in focus | {src, dst} if n in self.nodes}
        near = set(focus)
        for _ in range(CONTEXT):
            near |= {end for s, d, _l, _a in self.links.values() if s in near or d in near for end in (s, d) if end is not None}
        kept = sorted(focus) + sorted(near - focus) + sorted(n for n in extra if n in self.nodes and n not in near)
        return set(kept[:MAX_NODES])


def _side(snap: Snapshot, keep: set, marked: set, prefix: str, title: str) -> list:
    """One side of the picture: a cluster holding the kept nodes in their boxes (clusters
    nested as in the graph), the redex's nodes filled, links to nodes not drawn as stubs."""
    from goi.semantics.dot import _escape

    lines = [f"subgraph cluster_{prefix} {{", f'  label="{_escape(title)}"; labelloc=t; style=solid; color=gray80;']
    tree: dict = {}  # box id -> (its parent box id or None)
    for n in keep:
        chain = snap.nodes[n][1]
        for inner, outer in zip(chain, chain[1:] + (None,)):
            tree[inner] = outer

    def emit(box, depth: int) -> None:
        pad = "  " * (depth + 1)
        if box is not None:
            lines.append(f"{pad}subgraph cluster_{prefix}box{box} {{")
            lines.append(f'{pad}  label="box {box}"; style=rounded; color=gray40;')
        for n in sorted(keep):
            chain = snap.nodes[n][1]
            if (chain[0] if chain else None) == box:
                fill = ' style=filled fillcolor="#ffe0b2"' if n in marked else ""
                lines.append(f'{pad}  {prefix}n{n} [{snap.nodes[n][0]}{fill}];')
        for child in sorted(b for b, parent in tree.items() if parent == box):
            emit(child, depth + 1)
        if box is not None:
            lines.append(pad + "}")

    emit(None, 0)
    for link_id, (src, dst, label, style) in sorted(snap.links.items()):
        ends = []
        for end, kind in ((src, "from"), (dst, "to")):
            if end in keep:
                ends.append(f"{prefix}n{end}")
            else:  # the root's source, an open end, or a node not drawn: a stub
                ends.append(f"{prefix}{kind}{link_id}")
        if ends[0].startswith(f"{prefix}from") and ends[1].startswith(f"{prefix}to"):
            continue  # neither end drawn
        for stub in ends:
            if not stub.startswith(f"{prefix}n"):
                lines.append(f'  {stub} [shape=point width=0.05 color=gray50];')
        dotted = [] if all(e.startswith(f"{prefix}n") for e in ends) else ["style=dotted"]
        lines.append(f'  {ends[0]} -> {ends[1]} [label="{label}" {" ".join(style + dotted)}];')
    lines.append("}")
    return lines


def picture_dot(rule_id: str, before: Snapshot, after: Snapshot, focus: set, note: str) -> str:
    """Before and after side by side in one layout: the redex (`focus`, plus the nodes the
    transition removed or made) filled, its neighbourhood around it."""
    from goi.semantics.dot import FONT

    removed, made = set(before.nodes) - set(after.nodes), set(after.nodes) - set(before.nodes)
    marked_before = {n for n in focus | removed if n in before.nodes}
    marked_after = {n for n in focus | made if n in after.nodes}
    keep_before = before.around(marked_before)
    keep_after = after.around(marked_after, keep_before)
    keep_before |= {n for n in keep_after if n in before.nodes and len(keep_before) < MAX_NODES}
    lines = ["digraph rule {", "  rankdir=BT;", f'  graph [fontname="{FONT}" label="{rule_id}: {note}" labelloc=t];',
             f'  node [fontname="{FONT}" fontsize=11];', f'  edge [fontname="{FONT}" fontsize=8];']
    lines += _side(before, keep_before, marked_before, "b", "before")
    lines += _side(after, keep_after, marked_after, "a", "after")
    lines.append("}")
    return "\n".join(lines) + "\n"


def find_instances(wanted: set) -> dict:
    """rule id -> (origin, program, DOT of the picture), for as many wanted rules as found."""
    from goi import execution
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
                    pending["snap"] = Snapshot.of(m)
                    pending["redex"] = {x.id for x in redex if hasattr(x, "kind")}
                    pending["gc"] = dict(ex.collector.counts) if ex.collector is not None else {}

            def after(m, rule_id, redex):
                if rule_id in wanted and rule_id not in found and "snap" in pending:
                    found[rule_id] = (origin, text, picture_dot(rule_id, pending["snap"], Snapshot.of(m), pending["redex"],
                                                                f"step {m.steps}"))
                if ex.collector is not None and "gc" in pending:
                    for gc_rule in of_kind(GC):
                        if ex.collector.counts.get(gc_rule, 0) > pending["gc"].get(gc_rule, 0) and gc_rule not in found \
                                and gc_rule in wanted:
                            found[gc_rule] = (origin, text, picture_dot(gc_rule, pending["snap"], Snapshot.of(m), set(),
                                                                        f"after step {m.steps} and the collection"))

            machine.before.append(before)
            machine.after.append(after)
            ex.run(20_000)
    return found


def write(directory: Path) -> list[str]:
    """Draw every rule's picture into `directory`; returns the rules no instance was found for."""
    from goi.semantics.rules import load_all

    from .pictures import graph_svg

    directory.mkdir(parents=True, exist_ok=True)
    wanted = set(load_all())
    found = find_instances(wanted)
    for rule_id, (origin, text, dot) in sorted(found.items()):
        (directory / f"{rule_id}.svg").write_text(graph_svg(dot), encoding="utf-8")
        (directory / f"{rule_id}.program.txt").write_text(f"{origin}\n{text.strip()}\n", encoding="utf-8")
    return sorted(wanted - set(found))


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "rules"
    missing = write(target)
    print(f"pictures of {len(list(target.glob('*.svg')))} rules in {target}"
          + (f"; no instance found for {', '.join(missing)}" if missing else ""))
    sys.exit(1 if missing else 0)
