"""The ?-phase (paper Figs. RewriteTransitionsOpenBox, RewriteTransitionsDeep*; docs/RULES.md "Open box").

With the flag ?, the token sits at the root of a box G (just entered through its
principal door). Every enabled ?-rewrite is listed by `candidates`; which one
fires is the strategy's choice (the paper proves the choice does not matter).
When G has no ?-door left, `box.close` sets the flag !.
"""

from __future__ import annotations

from .. import graph as G
from . import rule


def current_box(m) -> G.Box | None:
    pos = m.token.position
    if pos.src is not None and pos.src.kind == G.BANG:
        return pos.src.door_of
    return None


def box_reachable(start_doors: list[G.Node]):
    """Nodes box-reachable from the given doors (Def. Box-reachability), in discovery order.

    A box-path goes upwards along edges; on reaching a box's principal door it
    may continue from that box's auxiliary doors, skipping its content. Links of
    provisional type ¡F are not followed (only ¿, rotC, ¡ and constants lie
    above them, none of which is a deep redex).
    """
    seen: set[G.Node] = set()
    order: list[G.Node] = []
    frontier = list(start_doors)
    while frontier:
        node = frontier.pop(0)
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
                order.append(n)
                frontier.append(n)
    return order


DEEP_KINDS = {G.CON: "deep.contract", G.PROJ: "deep.project", G.ABD: "deep.decouple"}


def candidates(m) -> list[tuple[str, tuple]]:
    """All ?-rewrites enabled now, in a fixed order: absorptions (door order), then deep rules."""
    box = current_box(m)
    if box is None:
        return []
    found: list[tuple[str, tuple]] = []
    whys = box.why_doors()
    for door in whys:
        out = door.outs[0]
        if out.dst is not None and out.dst.kind == G.BANG:
            found.append(("box.absorb", (box, door)))
    level = box.parent
    for node in box_reachable(whys):
        rule_id = DEEP_KINDS.get(node.kind)
        if rule_id is None or node.box is not level:
            continue
        if node.kind in (G.CON, G.PROJ) and not node.ins:
            continue  # C_0 and P_0 are never deep redexes
        out = node.outs[0]
        if out is not None and out.dst is not None and out.dst.kind == G.BANG:
            found.append((rule_id, (box, node)))
    if not found and not whys:
        found.append(("box.close", (box,)))
    return found


@rule("box.absorb", "rewrite")
def absorb(m, box, door):
    """A ?-door of G whose output is the principal door of a box K: K moves inside G, its doors get new doors of G."""
    g = m.graph
    out = door.outs[0]
    k = out.dst.door_of
    inner = door.ins[0]
    g.splice(inner, out)  # the link from inside G now enters K's principal door
    box.doors.remove(door)
    g.delete_node(door)
    level = box.parent
    g.move_box(k, box)
    for k_door in k.doors:
        up = k_door.outs[0]
        new_door = g.new_node(k_door.kind, level, 1, 1)
        new_door.door_of = box
        box.doors.append(new_door)
        g.set_src(up, new_door, 0)
        g.new_link(up.type, src=(k_door, 0), dst=(new_door, 0))


@rule("box.close", "rewrite")
def close(m, box):
    """G has no ?-door left: raise the flag !."""
    m.token.flag = "!"
