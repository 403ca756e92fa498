"""Trials: graph changes that are undone (the determinism check runs the other orders of a
?-phase this way, on the graph itself, instead of on clones).

    trial = Trial(graph)            # from now on every primitive records how to undo it
    …                               # rewrites
    old, new = trial.touched()      # what the trial changed (existing) and created
    trial.end()                     # the graph is as it was: the same objects, the same fields

A Trial is a listener of the graph (semantics.graph, "the one hook"): before a primitive
changes a node, link or box that existed when the trial began, its fields are saved (once);
every change of set membership is logged. Journals do not record during a trial — the graph
comes back to where they left it — and trials do not nest.
"""

from __future__ import annotations

import itertools

from . import graph as G


def _fields(x):
    """What a trial saves of a node, link or box, as it is now."""
    if isinstance(x, G.Node):
        return (list(x.ins), list(x.outs), x.box, x.door_of, x.kind, x.data)
    if isinstance(x, G.Link):
        return (x.type, x.src, x.src_port, x.dst, x.dst_port)
    return (x.principal, list(x.doors), x.parent)


class Trial:
    undoes = True  # the graph keeps what this listener may restore (semantics.graph.delete_box)

    def __init__(self, graph: G.Graph):
        if any(isinstance(listener, Trial) for listener in graph.listeners):
            raise RuntimeError("trials do not nest")
        self.graph = graph
        self.log: list = []  # (set, element, added), in order
        self.saved: dict = {}  # element -> its fields before the trial first changed it
        self.root = graph.root
        self.first_new = graph.allocated() + 1  # ids from here on were created by the trial
        self.name_next = dict(graph._name_next)
        self.suspended = graph.listeners  # the journals, back at `end`
        graph.listeners = [self]

    # ---- the listener ----------------------------------------------------------------
    def changing(self, objects) -> None:
        saved, first_new = self.saved, self.first_new
        for x in objects:
            if x is None or x in saved or x.id >= first_new:
                continue  # an element the trial created is simply dropped by `end`
            saved[x] = _fields(x)

    def membership(self, s: set, x, added: bool) -> None:
        self.log.append((s, x, added))

    def moving(self, box, chain) -> None:
        """Nothing more to keep: the box's fields are saved by `changing`."""

    def renaming_all(self) -> None:
        """Nothing more to keep: every node and link is passed to `changing`."""

    # ---- what the trial did ------------------------------------------------------------
    def touched(self) -> tuple[set, set]:
        """The nodes, links and boxes the trial changed or created so far: (those that
        existed when it began, those it created)."""
        g, first_new = self.graph, self.first_new
        found = set()
        was_in: dict = {}  # (set, element) -> whether it was in the set when the trial began
        for s, x, added in self.log:
            if s is g.nodes or s is g.links or s is g.boxes:
                if x.id >= first_new:
                    found.add(x)
                else:
                    was_in.setdefault((id(s), x), (s, not added))
        old = {x for (_k, x), (s, before) in was_in.items() if (x in s) != before}
        for x, state in self.saved.items():
            if x.id >= first_new:
                found.add(x)
            elif x not in old and state != _fields(x):
                old.add(x)  # changed (a field saved but put back as it was is no change)
        return old, found

    def names_created(self) -> set:
        names = self.graph.names_in_use
        return {x for s, x, added in self.log if s is names and added}

    def end(self) -> None:
        """Undo every change since the trial began: the graph is as it was (same objects)."""
        g = self.graph
        for s, x, added in reversed(self.log):
            if added:
                s.discard(x)
            else:
                s.add(x)
        for x, state in self.saved.items():
            if isinstance(x, G.Node):
                x.ins, x.outs, x.box, x.door_of, x.kind, x.data = state
            elif isinstance(x, G.Link):
                x.type, x.src, x.src_port, x.dst, x.dst_port = state
            else:
                x.principal, x.doors, x.parent = state
        g.root, g._name_next, g.listeners = self.root, self.name_next, self.suspended
        g._ids = itertools.count(self.first_new)
        g.version += 1
        self.log, self.saved = [], {}
