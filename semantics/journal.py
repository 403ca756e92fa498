"""What the graph's surgery primitives touched since an incremental check last looked.

A rule changes the graph only through the primitives of semantics.graph (new_node,
set_src, splice, delete_node, move_box, …). Each primitive tells the graph's listeners,
among them one Recorder shared by the attached Journals, the nodes, links and boxes it touches — including the ones it detaches (the link
displaced from a port, a deleted node's links, a deleted link's ends) — and, for a box
changing parent, the boxes it was inside. `rename_everywhere` sets `everything`.

An incremental check (checks.IncrementalCheck) owns one journal: it attaches it, and after
each transition it re-examines what `touched` says can have changed, then clears it. The
proof obligation of every incremental check is the same: a per-element condition whose
truth can change only if the element, or a neighbour named in `touched`, was touched
(docs/INVARIANTS.md, "Incremental checks").
"""

from __future__ import annotations

from . import graph as G


class Journal:
    """What a consumer has not yet looked at. The graph records into one Recorder at most
    (whatever the number of consumers), so a primitive costs the same with one incremental
    check as with four; `gather` hands each consumer what was recorded since."""

    __slots__ = ("nodes", "links", "boxes", "moved", "everything", "recorder")

    def __init__(self):
        self.nodes: set = set()
        self.links: set = set()
        self.boxes: set = set()
        self.moved: list = []  # (box, the boxes it was inside before moving, innermost first)
        self.everything = False
        self.recorder = None  # the Recorder of the graph this journal is attached to

    def __bool__(self) -> bool:
        return bool(self.nodes or self.links or self.boxes or self.moved or self.everything)

    def clear(self) -> None:
        self.nodes.clear()
        self.links.clear()
        self.boxes.clear()
        self.moved.clear()
        self.everything = False

    def attach(self, graph: G.Graph) -> None:
        recorder = next((j for j in graph.listeners if isinstance(j, Recorder)), None)
        if recorder is None:
            recorder = Recorder()
            graph.listeners.append(recorder)
        recorder.flush()  # what was recorded before this journal started goes to the others
        if self not in recorder.subscribers:
            recorder.subscribers.append(self)
        self.recorder = recorder

    def detach(self, graph: G.Graph) -> None:
        for recorder in [j for j in graph.listeners if isinstance(j, Recorder)]:
            if self in recorder.subscribers:
                recorder.flush()
                recorder.subscribers.remove(self)
                if not recorder.subscribers:
                    graph.listeners.remove(recorder)
        self.recorder = None

    def gather(self) -> "Journal":
        """Bring in what the graph recorded since the last gather (of any consumer)."""
        if self.recorder is not None:
            self.recorder.flush()
        return self


class Recorder(Journal):
    """The journal the graph's primitives write to; `flush` merges it into every attached
    consumer's journal and empties it."""

    __slots__ = ("subscribers",)

    def __init__(self):
        super().__init__()
        self.subscribers: list = []

    # ---- a listener of the graph (semantics.graph, "the one hook") ----------------------
    undoes = False

    def changing(self, objects) -> None:
        if self.everything:
            return  # everything is to be looked at again anyway
        nodes, links, boxes = self.nodes, self.links, self.boxes
        for x in objects:
            kind = type(x)
            if kind is G.Node:
                nodes.add(x)
            elif kind is G.Link:
                links.add(x)
            elif kind is G.Box:
                boxes.add(x)

    def membership(self, s: set, x, added: bool) -> None:
        """Set membership follows from the elements `changing` recorded."""

    def moving(self, box, chain) -> None:
        self.boxes.add(box)
        self.moved.append((box, chain))

    def renaming_all(self) -> None:
        self.everything = True

    def flush(self) -> None:
        if not self:
            return
        for j in self.subscribers:
            j.nodes |= self.nodes
            j.links |= self.links
            j.boxes |= self.boxes
            j.moved.extend(self.moved)
            j.everything = j.everything or self.everything
        self.clear()


def touched(graph: G.Graph, journal: Journal) -> tuple[set, set, set]:
    """The live nodes, links and boxes whose own conditions may have changed: what was
    touched, the ends of touched links, the ports of touched nodes, and the boxes whose
    principal or doors (or member set) a touched node is."""
    nodes = {n for n in journal.nodes if n is not None and n in graph.nodes}
    links = {l for l in journal.links if l is not None and l in graph.links}
    for link in list(links):
        for end in (link.src, link.dst):
            if end is not None and end in graph.nodes:
                nodes.add(end)
    for n in nodes:
        for link in (*n.ins, *n.outs):
            if link is not None and link in graph.links:
                links.add(link)
    boxes = {b for b in journal.boxes if b in graph.boxes}
    for n in nodes:
        if n.door_of is not None and n.door_of in graph.boxes:
            boxes.add(n.door_of)
    return nodes, links, boxes
