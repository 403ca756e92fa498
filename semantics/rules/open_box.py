"""The ?-phase (paper Figs. RewriteTransitionsOpenBox, RewriteTransitionsDeep*; docs/RULES.md "Open box").

With the flag ?, the token sits at the root of a box G (just entered through its
principal door). Every enabled ?-rewrite is listed (rules.redexes, at the places
`_open_box` yields); which one fires is the strategy's choice (the paper proves the choice does not matter).
When G has no ?-door left, `box.close` sets the flag !.
"""

from __future__ import annotations

from collections import deque

from .. import graph as G
from .registry import rewrite, sites

ORDER = 30  # its place in the order of declaration (semantics.rules)


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


@sites("?", many=True)
def _open_box(m):
    """?: the ?-doors of the box the token is at, in door order (absorptions), then — if it
    has none — the box itself (closing), else the nodes box-reachable from its ?-doors (deep
    rewrites).

    The order is the default strategy's: the cost of a ?-phase then stays linear in the
    number of rewrites it makes (absorbed doors leave the front of the door list, so the scan
    for an absorbable door is amortised constant; the box-path search is a generator, run
    only when no door is absorbable, and stopped at its first redex). A box without a ?-door
    has one place, the box, given as a tuple: no generator is started for it (a closing is
    a third of the ?-rewrites of a run)."""
    bang = m.token.position.src
    if bang is None or bang.kind != G.BANG:
        return ()
    box = bang.door_of  # current_box, inlined: a site is asked once per rewrite
    for door in box.doors:
        if door.kind == G.WHY:
            return _places_with_why(box)
    return (("box", None, (box,)),)


def _places_with_why(box):
    """The places of a box with a ?-door: its ?-doors, then the nodes box-reachable from them."""
    for door in box.doors:  # lazily: an absorbable door is usually the first (absorbed ones leave the list)
        if door.kind == G.WHY:
            yield "door", G.WHY, (box, door)
    for node in box_reachable([d for d in box.doors if d.kind == G.WHY]):
        yield "reachable", node.kind, (box, node)


def _absorb_redex(m, box, door):
    out = door.outs[0]
    return (box, door) if out.dst is not None and out.dst.kind == G.BANG else None


def _close_redex(m, box):
    for door in box.doors:
        if door.kind == G.WHY:
            return None
    return (box,)


@rewrite("box.absorb", flag="?", site="door", on=[G.WHY], match=_absorb_redex)
def absorb(m, box, door):
    """A ?-door of G whose output is the principal door of a box K: K moves inside G, its doors get new doors of G.

    A `?`-door d of G whose output enters the principal door of a box K. Result: K moves inside
    G (where d was: d's inner link now enters K's principal door); each auxiliary door of K gets
    a new door of G of the same kind on top, appended to G's doors. Token unchanged.
    Source: [Fig] ("absorbs all other boxes H, one by one, to which it is directly connected";
    closure creation).
    """
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


@rewrite("box.close", flag="?", site="box", match=_close_redex, changes_graph=False, sets_flag="!")
def close(m, box):
    """G has no ?-door left: raise the flag !.

    G has no `?`-door left: the flag becomes `!`. Source: [Fig] ("After all the definitive
    auxiliary doors of the !-box are eliminated, the flag changes from ? to !").
    """
    m.token.flag = "!"
