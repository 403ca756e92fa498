"""A small builder for hand-made graphs in tests (only through the Graph primitives)."""

from __future__ import annotations

from fractions import Fraction

from goi.semantics import graph as G
from goi.semantics.machine import Machine
from goi.semantics.token import Token
from goi.semantics.types import Arrow, F, Vec

VA = Vec("a")
FF = Arrow(F, F)


class B:
    def __init__(self):
        self.g = G.Graph()
        self.g.reserve_names(["a"])

    def node(self, kind, level=None, n_in=1, n_out=0, data=None):
        return self.g.new_node(kind, level, n_in, n_out, data)

    def link(self, etype, src=None, dst=None):
        return self.g.new_link(etype, src, dst)

    def root(self, t, dst):
        self.g.root = self.g.new_link(G.plain(t), dst=dst)
        return self.g.root

    def const(self, value, level=None):
        return self.node(G.CONST, level, 1, 0, Fraction(value))

    def box(self, level=None):
        """A new box at `level` with its principal door; returns (box, bang)."""
        return self.g.new_boxed(level)

    def door(self, box, kind):
        door = self.node(kind, box.parent, 1, 1)
        self.g.add_door(box, door)
        return door

    def param(self, value, src):
        """A ¡ over a constant, fed by `src` (node, port); registered as the next parameter."""
        pbang = self.node(G.PBANG, None, 1, 1)
        self.link(G.PROV, src=src, dst=(pbang, 0))
        const = self.const(value)
        self.link(G.plain(F), src=(pbang, 0), dst=(const, 0))
        self.g.params.append(pbang)
        return pbang

    def machine(self, position, direction="↑", flag="□", stack=None, box_stack=None):
        m = Machine(self.g)
        m.token = Token(position, direction, flag, list(stack) if stack is not None else [], list(box_stack or []))
        return m
