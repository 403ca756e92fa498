"""Check `validity`: valid states (Defs. "Queries and answers", "Valid states";
Prop. "Preservation of validity").

A state is valid when the graph meets the name criteria and the graph criterion, and the
token's data fits the type ρ of its position:
- going ↑, the top of the computation stack is a query of ρ:
  Qry_F = Qry_¡F = Qry_V_a = {★}, Qry_{T→T'} = {★, @}, Qry_!T = Qry_T;
- going ↓, the answers of ρ are not empty and the top is one of them (v the validation map):
  Ans_F = Ans_¡F = F, Ans_V_a = F^v(a) (empty if a is not free), Ans_{T→T'} = {λ}, Ans_!T = Ans_T.

Cost: the criteria as in `names` and `graph` after graph-changing transitions (or on the
sampling schedule of checks.Policy); the token condition, O(1), after every transition.
"""

from __future__ import annotations

from ..token import AT, LAMBDA, STAR, UP, Marker
from ..types import Arrow, Vec
from .base import GraphCheck, declare
from .graph_criterion import GraphIndex, graph_problems_incremental, graph_problems_now
from .names import NameIndex, SizesView, name_problems, name_problems_incremental, validation_map
from . import incremental


def token_problem(machine, v: dict[str, int]):
    t = machine.token
    rho = t.position.type
    ty = rho.type
    if not t.stack:
        return f"empty computation stack at ℓ{t.position.id}"
    top = t.stack[-1]
    if t.direction == UP:
        allowed = (STAR, AT) if isinstance(ty, Arrow) and rho.kind != "¡" else (STAR,)
        if not any(top is q for q in allowed):
            return f"going ↑ at ℓ{t.position.id} of type {rho}, the top {top!r} is not a query of that type"
        return None
    if isinstance(ty, Arrow):
        ok = top is LAMBDA
    elif isinstance(ty, Vec):
        if ty.name not in v:
            return f"going ↓ at ℓ{t.position.id} of type {rho}: no answers, {ty.name} is not a free name"
        ok = isinstance(top, tuple) and len(top) == v[ty.name]
    else:
        ok = not isinstance(top, (Marker, tuple))
    if not ok:
        return f"going ↓ at ℓ{t.position.id} of type {rho}, the top {top!r} is not an answer of that type"
    return None


@declare
class Validity(GraphCheck):
    """The state is valid: the name and graph criteria hold and the token answers its queries (after every transition)."""

    name = "validity"
    order = 40
    implements = "Defs. B.9 \"Queries and answers\", B.10 \"Valid states\"; Props. B.11, B.12"
    values = ("independent: the criteria as names and graph; the token condition reads the kind of the "
              "top of the stack (a marker, a scalar, a vector of the right size), never a scalar's value")
    reads_journal = False  # its index (checks.incremental) keeps its own
    on_passes = True  # the token condition, after every transition

    def problems(self, machine):
        problems = name_problems(machine.graph) + graph_problems_now(machine)
        if not problems:
            self.v, _ = validation_map(machine.graph)
        return problems

    def start_incremental(self, machine) -> None:
        incremental.start(machine, "names", NameIndex)
        incremental.start(machine, "graph", GraphIndex)
        self.v = SizesView(incremental.index(machine, "names"))

    def problems_touched(self, machine, journal):
        self.v = SizesView(incremental.index(machine, "names"))
        return name_problems_incremental(machine) + graph_problems_incremental(machine)

    def initial(self, machine) -> None:
        super().initial(machine)
        self._token(machine)

    def after(self, machine, rule_id, redex) -> None:
        super().after(machine, rule_id, redex)
        self._token(machine)

    def _token(self, machine) -> None:
        ty = machine.token.position.type.type
        if isinstance(ty, Vec) and ty.name not in self.v:
            # decoupling frees a name, copying makes fresh ones: refresh the map (exact, lazy)
            self.v, _ = validation_map(machine.graph)
        problem = token_problem(machine, self.v)
        if problem:
            raise self.fail(problem, [machine.token.position.src or machine.token.position.dst])
