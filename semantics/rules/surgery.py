"""Box surgery the rules share, built on the graph's primitives (semantics.graph): copying a
box with fresh inner names, refreshing names, and joining the doors of a box and its copies.
Plain functions on a graph, in the style of networkx; they change the graph only through
its primitives, so undo and journals see every change."""

from __future__ import annotations

from typing import Optional

from .. import graph as G
from ..types import names_of


def copy_box(g: G.Graph, box: G.Box, parent: Optional[G.Box], refresh: bool = True,
             contents: Optional[tuple[list[G.Node], list[G.Box]]] = None) -> tuple[G.Box, dict[G.Node, G.Node]]:
    """Copy `box` (doors, content, nested boxes) into `parent`.

    The copy's auxiliary doors get new, dangling output links, and its
    principal door no input link: the caller connects them. With
    `refresh`, every name that occurs strictly inside the box but not on its
    interface (root and doors) is replaced by a globally fresh one (the
    paper's π_N, N the interface names); the validation map extends to them
    because a fresh name is only ever used for the copy of one name.
    `contents` is `g.contents(box)` when the caller has it already (a rule that checked
    the graph budget against it). Returns the copy and the map from original to copied nodes.
    """
    nodes, boxes = contents if contents is not None else g.contents(box)
    box_map: dict[G.Box, G.Box] = {}
    new = g.new_box(parent)
    box_map[box] = new
    for b in sorted(boxes, key=G.Box.depth):
        box_map[b] = g.new_box(box_map[b.parent])
    doors = [box.principal, *box.doors]
    node_map: dict[G.Node, G.Node] = {}
    for n in doors:
        c = g.new_node(n.kind, parent, len(n.ins), len(n.outs), n.data)
        c.span = n.span
        c.door_of = new
        node_map[n] = c
    for n in nodes:
        c = g.new_node(n.kind, box_map[n.box], len(n.ins), len(n.outs), n.data)
        c.span = n.span
        if n.door_of is not None:
            c.door_of = box_map[n.door_of]
        node_map[n] = c
    for b, c in box_map.items():
        c.principal = node_map[b.principal]
        c.doors = [node_map[d] for d in b.doors]
    # Links: every link whose src is copied (internal links, and the doors'
    # outputs, left dangling), plus the principal door's input (dangling).
    # A λ's bound-variable link is copied from its source's side.
    for n in [*doors, *nodes]:
        for port, link in enumerate(n.outs):
            if link is None or (port == 1 and n.kind == G.LAM):
                continue
            src = node_map[link.src]
            dst = node_map.get(link.dst) if link.dst is not None else None
            if dst is None:
                g.new_link(link.type, src=(src, link.src_port))
            else:
                g.new_link(link.type, src=(src, link.src_port), dst=(dst, link.dst_port))
    p_in = box.principal.ins[0]
    if refresh:
        keep = set(names_of(box.root.type.type)) | set(names_of(p_in.type.type))
        for d in box.doors:
            keep |= names_of(d.outs[0].type.type)
        refresh_names(g, [node_map[n] for n in nodes] + [node_map[n] for n in doors], keep)
    return new, node_map


def refresh_names(g: G.Graph, nodes: list[G.Node], keep: set[str]) -> dict[str, str]:
    """Rename, in these nodes and their links, every name not in `keep` to a fresh one."""
    found: set[str] = set()
    links: set[G.Link] = set()
    for n in nodes:
        for link in (*n.ins, *n.outs):
            if link is not None:
                links.add(link)
        found |= G.node_names(n)
    for link in links:
        found |= names_of(link.type.type)
    mapping = {a: g.fresh_name(a) for a in sorted(found - keep)}
    if not mapping:
        return mapping
    g.rename_in(nodes, links, mapping)
    return mapping


def join_doors(g: G.Graph, boxes: list[G.Box]) -> None:
    """Join the i-th auxiliary doors of a box and its copies: ?-doors by a new C_n,
    ¿-doors by a new rotC_n (so provisional constants are shared, never copied).

    The first box's door outputs keep their targets through the join; the copies'
    outputs (dangling, as copy_box leaves them) enter it. For one box it is the identity.
    """
    n = len(boxes)
    if n == 1:
        return
    level = boxes[0].parent
    for i, door in enumerate(boxes[0].doors):
        up = door.outs[0]
        join = g.new_node(G.CON if door.kind == G.WHY else G.PCON, level, n, 1)
        g.set_src(up, join, 0)
        g.new_link(up.type, src=(door, 0), dst=(join, 0))
        for j, copy in enumerate(boxes[1:], start=1):
            g.set_dst(copy.doors[i].outs[0], join, j)
