"""The ?-phase (paper Figs. RewriteTransitionsOpenBox, RewriteTransitionsDeep*; docs/RULES.md "Open box").

With the flag ?, the token sits at the root of a box G (just entered through its
principal door). Every enabled ?-rewrite is listed by `candidates`; which one
fires is the strategy's choice (the paper proves the choice does not matter).
When G has no ?-door left, `box.close` sets the flag !.
"""

from __future__ import annotations

from collections import deque

from .. import graph as G
from . import rule


def current_box(m) -> G.Box | None:
    pos = m.token.position
    if pos.src is not None and pos.src.kind == G.BANG:
        return pos.src.door_of
    return None


def box_reachable(start_doors: list[G.Node]):
    """Nodes box-reachable from the given doors (Def. Box-reachability), in discovery order.

    A generator (breadth-first), so that a caller needing only the first redex stops
    early. A box-path goes upwards along edges; on reaching a box's principal door it
    may continue from that box's auxiliary doors, skipping its content. Links of
    provisional type ¡F are not followed (only ¿, rotC, ¡ and constants lie
    above them, none of which is a deep redex).
    """
    seen: set[G.Node] = set()
    frontier = deque(start_doors)
    while frontier:
        node = frontier.popleft()
        if node.kind == G.BANG:
            nxt = list(node.door_of.doors)
        else:
            nxt = []
            for port, link in enumerate(node.outs):
                if link is None or link.dst is None or link.dst is node:
                    continue
                if link.type.kind == "¡":
                    continue
                nxt.append(link.dst)
        for n in nxt:
            if n not in seen:
                seen.add(n)
                yield n
                frontier.append(n)


DEEP_KINDS = {G.CON: "deep.contract", G.PROJ: "deep.project", G.ABD: "deep.decouple"}


def candidates(m, first_only: bool = False, limit: int = 0) -> list[tuple[str, tuple]]:
    """The ?-rewrites enabled now, in a fixed order: absorptions (door order), then deep rules.

    With `first_only`, just the first of that order (the default strategy's choice),
    found without listing the rest: the cost of a ?-phase then stays linear in the
    number of rewrites it makes (absorbed doors leave the front of the door list, so
    the scan for an absorbable door is amortised constant; the box-path search runs
    only when no door is absorbable, and stops at its first redex). With `limit`, at most
    that many (the determinism check asks for two: is there a choice?).
    """
    if first_only:
        limit = 1
    box = current_box(m)
    if box is None:
        return []
    found: list[tuple[str, tuple]] = []
    has_why = False
    for door in box.doors:
        if door.kind != G.WHY:
            continue
        has_why = True
        out = door.outs[0]
        if out.dst is not None and out.dst.kind == G.BANG:
            found.append(("box.absorb", (box, door)))
            if len(found) == limit:
                return found
    if not has_why:
        return [("box.close", (box,))]
    level = box.parent
    for node in box_reachable([d for d in box.doors if d.kind == G.WHY]):
        rule_id = DEEP_KINDS.get(node.kind)
        if rule_id is None or node.box is not level:
            continue
        if node.kind in (G.CON, G.PROJ) and not node.ins:
            continue  # C_0 and P_0 are never deep redexes
        out = node.outs[0]
        if out is not None and out.dst is not None and out.dst.kind == G.BANG:
            found.append((rule_id, (box, node)))
            if len(found) == limit:
                return found
    return found


@rule("box.absorb", "rewrite")
def absorb(m, box, door):
    """A ?-door of G whose output is the principal door of a box K: K moves inside G, its doors get new doors of G."""
    g = m.graph
    out = door.outs[0]
    k = out.dst.door_of
    inner = door.ins[0]
    g.splice(inner, out)  # the link from inside G now enters K's principal door
    g.remove_door(box, door)
    level = box.parent
    g.move_box(k, box)
    for k_door in k.doors:
        up = k_door.outs[0]
        new_door = g.new_node(k_door.kind, level, 1, 1)
        g.add_door(box, new_door)
        g.set_src(up, new_door, 0)
        g.new_link(up.type, src=(k_door, 0), dst=(new_door, 0))


@rule("box.close", "rewrite")
def close(m, box):
    """G has no ?-door left: raise the flag !."""
    m.token.flag = "!"
