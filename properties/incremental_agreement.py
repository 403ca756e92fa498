"""The incremental whole-graph checks give the verdicts of the whole-graph ones.

On a generated program's run, after every rewrite, `form`, `names` and `graph` are decided
incrementally (what the journal says the rewrite touched; check mode `exhaustive`), and
after rewrites 1..16, then at powers of two, and after the corruption, also on the whole
graph (the reference, mode `full`; O(graph) each, hence the schedule). A correct machine gives "no problem"
both ways; so that the comparison also meets broken graphs, at a drawn step one drawn
corruption is made — through the graph's surgery primitives, the only way rules change a
graph — and both verdicts are compared on the corrupted state (the incremental check's
premise, that the state it looked at last had no problem, holds: nothing failed before).
`names` and `graph` presuppose a well-formed graph (`validity` runs after `form`), so they
are compared on the states the whole `form` check passes; tests/test_mutants.py compares
them on mutated rules, which keep graphs well-formed and break exactly these criteria.
"""

from __future__ import annotations

from goi.api import Execution
from goi.semantics import graph as G
from goi.semantics.checks import InvariantViolation
from goi.semantics.checks.form import Form, _level_of_link_end, form_problems
from goi.semantics.checks.graph_criterion import GraphCriterion, graph_problems
from goi.semantics.checks.names import NameCriteria, name_problems
from goi.semantics.rules.surgery import refresh_names
from goi.semantics.types import F, Vec

from hypothesis import strategies as st

from .examples import programs_of
from .registry import declare
from .runner import Finding, show


def _box_choices(graph):
    """Levels a node may be moved to (any box, or the top level)."""
    return [None, *sorted(graph.boxes, key=lambda b: b.id)]


def _not_inside(graph, box, target) -> bool:
    b = target
    while b is not None:
        if b is box:
            return False
        b = b.parent
    return True


def _swappable(links, limit: int = 200) -> list:
    """Pairs of links of one type whose targets can be exchanged keeping the graph
    well-formed (each link's source at the level of the other's target): what `form` cannot
    see and the graph criterion can (a cycle, a bound variable entering another λ)."""
    by_type: dict = {}
    for link in links:
        if link.src is not None and link.dst is not None:
            by_type.setdefault(link.type, []).append(link)
    pairs = []
    for group in by_type.values():
        for i, a in enumerate(group):
            for b in group[i + 1 :]:
                if (a.dst_port == G.VAR) != (b.dst_port == G.VAR):
                    continue
                if a.dst_port == G.VAR or (
                    _level_of_link_end(a, a.src, True) is _level_of_link_end(b, b.dst, False)
                    and _level_of_link_end(b, b.src, True) is _level_of_link_end(a, a.dst, False)
                ):
                    pairs.append((a, b))
                    if len(pairs) >= limit:
                        return pairs
    return pairs


def corrupt(machine, choose) -> str:
    """One corruption through a surgery primitive; `choose(options)` picks (Hypothesis
    draws). Returns what was done, for the failure message."""
    g = machine.graph
    nodes = sorted(g.nodes, key=lambda n: n.id)
    links = sorted(g.links, key=lambda l: l.id)
    boxes = sorted(g.boxes, key=lambda b: b.id)
    what = choose(["swap", "swap", "swap", "resize", "resize", "retype", "delete_link", "move_node", "rekind", "rewire", "add_door", "move_box", "refresh", "new_binder", "splice"])
    if what == "swap":
        pairs = _swappable(links)
        if pairs:
            l1, l2 = choose(pairs)
            (d1, p1), (d2, p2) = (l1.dst, l1.dst_port), (l2.dst, l2.dst_port)
            g.set_dst(l1, d2, p2)
            g.set_dst(l2, d1, p1)
            return f"swap the targets of {l1!r} and {l2!r}"
        return "nothing (no two links to swap)"
    if what == "resize":
        vectors = [n for n in nodes if n.kind == G.VCONST]
        if vectors:
            old = choose(vectors)
            values, name = old.data
            new = g.new_node(G.VCONST, old.box, 1, 0, ((*values, values[0] if values else 0), name))
            g.set_dst(old.ins[0], new, 0)
            g.delete_node(old)
            return f"resize {old!r} to {len(values) + 1} components"
        return "nothing (no vector constant)"
    if what == "retype":
        link = choose(links)
        etype = choose([G.plain(F), G.bang(F), G.PROV, G.plain(Vec("zz")), G.bang(Vec("zz"))])
        g.retype(link, etype)
        return f"retype {link!r} to {etype}"
    if what == "delete_link":
        link = choose(links)
        g.delete_link(link)
        return f"delete {link!r}"
    if what == "move_node":
        node = choose(nodes)
        level = choose(_box_choices(g))
        g.move_node(node, level)
        return f"move {node!r} to {level!r}"
    if what == "rekind":
        node = choose(nodes)
        kind = choose([G.WHY, G.PWHY, G.BANG, G.PBANG, G.CON, G.PCON, G.DER, G.LAM, G.ABD, G.PROJ])
        g.rekind(node, kind)
        return f"rekind {node!r} to {kind}"
    if what == "rewire":
        link = choose(links)
        node = choose(nodes)
        if node.ins:
            port = choose(list(range(len(node.ins))))
            g.set_dst(link, node, port)
            return f"rewire {link!r} into {node!r} port {port}"
        return "nothing (a node without inputs)"
    if what == "add_door" and boxes:
        box = choose(boxes)
        node = choose(nodes)
        g.add_door(box, node)
        return f"add {node!r} as a door of {box!r}"
    if what == "move_box" and boxes:
        box = choose(boxes)
        targets = [None, *(b for b in boxes if _not_inside(g, box, b))]
        target = choose(targets)
        g.move_box(box, target)
        return f"move {box!r} into {target!r}"
    if what == "refresh":
        chosen = [n for n in nodes if choose([False, True])]
        refresh_names(g, chosen, set())
        return f"refresh the names of {chosen!r}"
    if what == "new_binder":
        names = sorted(g.names()) or ["zz"]
        level = choose(_box_choices(g))
        node = g.new_node(G.ABD, level, 2, 1, choose(names))
        return f"a new A-node {node!r} in {level!r}"
    if what == "splice" and len(links) > 1:
        lower, upper = choose(links), choose(links)
        if lower is not upper:
            g.splice(lower, upper)
            return f"splice {lower!r} with {upper!r}"
    return "nothing"


WHOLE = {
    "form": lambda check, m: form_problems(m.graph, check.params),
    "names": lambda check, m: name_problems(m.graph),
    "graph": lambda check, m: graph_problems(m.graph),
}


def rewrites_of(term, config) -> int:
    """How many rewrites the bare run of `term` makes (to draw a step within the run)."""
    from .coverage import record, started

    execution = Execution(term)
    started(execution, config.max_steps)
    result = execution.run(config.max_steps)
    record(result)  # the property's runs and rule coverage, as the other properties report them
    return sum(n for rule, n in result.rules.items() if not result.machine.rules[rule].is_pass)


@declare("incremental", order=100, statement="incremental checks against whole-graph checks", examples=programs_of,
         note=lambda outcome: f"corruption {outcome[0]}: {outcome[1]}")
def incremental(term, config, data) -> tuple[str, str]:
    """The incremental checks give the whole-graph checks' verdict, also on corrupted graphs."""
    corrupt_at = data.draw(st.integers(1, max(1, rewrites_of(term, config))), label="corrupted after rewrite")
    return incremental_agreement(term, config, corrupt_at, lambda options: data.draw(st.sampled_from(options)))


def incremental_agreement(term, config, corrupt_at: int, choose) -> tuple[str, str]:
    """Run `term`; after each rewrite (and after the corruption at rewrite `corrupt_at`)
    compare the incremental and whole-graph verdicts. Returns the kind of corruption made
    and the verdict both gave on it (for Hypothesis' statistics)."""
    execution = Execution(term)
    m = execution.machine
    checks = [Form("exhaustive"), NameCriteria("exhaustive"), GraphCriterion("exhaustive")]
    for c in checks:
        c.initial(m)
    done = {"rewrites": 0, "corruption": "none", "verdict": "no problem"}

    def compare(when: str, whole_too: bool = True) -> None:
        # names and graph presuppose a well-formed graph (validity runs after form): they
        # are compared only on states the whole form check passes
        for c in checks:
            try:
                c.check(m)
                incremental = None
            except InvariantViolation as v:
                incremental = v.message
            if not whole_too:
                if incremental is not None:
                    whole_too = True  # a problem found incrementally: the reference must see it too
                else:
                    continue
            whole = WHOLE[c.name](c, m)
            if (incremental is None) != (not whole):
                raise Finding(
                    "incremental",
                    f"{when}: check {c.name} incrementally says {incremental or 'no problem'}, "
                    f"on the whole graph {whole[0][0] if whole else 'no problem'} (corruption: {done['corruption']})",
                    show(term),
                )
            if whole:
                done["verdict"] = f"{c.name} problem"
                raise _Stop()

    class _Stop(Exception):
        pass

    def after(machine, rule_id, redex):
        if machine.rules[rule_id].is_pass:
            return
        done["rewrites"] += 1
        k = done["rewrites"]
        # the whole-graph reference after rewrites 1..16, then at powers of two (O(graph)
        # each), and whenever an incremental check finds a problem; the incremental checks
        # after every rewrite
        compare(f"after rewrite {k} ({rule_id})", whole_too=k <= 16 or (k & (k - 1)) == 0)
        if done["rewrites"] == corrupt_at:
            done["corruption"] = corrupt(machine, choose)
            compare(f"after the corruption at rewrite {corrupt_at}")
            raise _Stop()

    m.after.append(after)
    try:
        m.run(config.max_steps)
    except _Stop:
        pass
    return done["corruption"].split(" ")[0], done["verdict"]
