"""The program's outermost operation is dropped: `a op b` answers `a` (the zoo's operations
machine, whose continuation stack loses its oldest frame when a program nests deep, drops the
outer operations so). Correct otherwise (goi's own machine on the changed term)."""

from common import correctly, serve
from goi.semantics import syntax as S

serve(lambda text: correctly(text, transform=lambda t: t.left if isinstance(t, S.BinOp) else t))
