"""Incremental indexes shared by the checks of one machine.

`graph` and `validity` both need the graph criterion, `names` and `validity` the name
criteria; each index is kept once per machine, with its own journal (semantics.journal),
and brought up to date at most once per graph version, whichever check asks first.
"""

from __future__ import annotations

from ..journal import Journal


class _Entry:
    __slots__ = ("graph", "journal", "index", "version", "problems")


def start(machine, key: str, factory) -> None:
    """Build the index on the machine's current graph (already checked whole, without
    problems) and start its journal — unless it is already up to date on this graph."""
    store = machine.indexes
    graph = machine.graph
    entry = store.get(key)
    if entry is not None and entry.graph is graph and not entry.journal.gather().everything:
        return
    if entry is not None:
        entry.journal.detach(entry.graph)
    entry = _Entry()
    entry.graph, entry.journal, entry.index = graph, Journal(), factory(graph)
    entry.version, entry.problems = graph.version, []
    entry.journal.attach(graph)
    store[key] = entry


def update(machine, key: str, factory, whole) -> list:
    """The index's problems on the current graph (re-examining what its journal recorded);
    without an index on this graph, `whole(machine)` decides, and the index starts."""
    store = machine.indexes
    graph = machine.graph
    entry = store.get(key)
    if entry is None or entry.graph is not graph or entry.journal.gather().everything:
        problems = whole(machine)
        if not problems:
            start(machine, key, factory)
        return problems
    if entry.version != graph.version:
        entry.problems = entry.index.update(graph, entry.journal)
        entry.journal.clear()
        entry.version = graph.version
    return entry.problems


def index(machine, key: str):
    entry = machine.indexes.get(key)
    return None if entry is None else entry.index


def stop(machine) -> None:
    for entry in machine.indexes.values():
        if isinstance(entry, _Entry):
            entry.journal.detach(entry.graph)
    machine.indexes.clear()
