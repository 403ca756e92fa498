"""The symbolic field: values are expressions over the program's parameters.

The same translation, rules and machine run on it (semantics.values says how a field is
plugged in): each provisional constant's value under its ¡-node is a parameter q_i, every
definitive constant stays an exact rational, and each operation the machine performs
builds one node of an expression DAG. The machine's control never looks at a value —
only division does, through the run's policy — so one symbolic run is the run at every
q⃗ ∈ Fⁿ at once: its final value is an expression e(q⃗) that the exact run with
`--params q⃗` computes at that point (a property checks this, properties/suite.py).

Expressions are hash-consed: one object per distinct (operation, operands), so a long run
that reuses a value reuses its node, and a conversion (to z3, to text, to a number at a
point) visits each node once. Each expression denotes a total function of q⃗:

- `total` division: x / y is 0 where y = 0 (the exact machine's convention);
- `strict` division: the quotient's node is the same, and the field records its
  denominator in `denominators`: the run at q⃗ is *undefined* exactly when one of them is 0
  at q⃗ (the exact machine stops at the first; which one does not change the verdict). A
  denominator that is the constant 0 is undefined everywhere: the symbolic run stops like
  the exact one, with DivisionByZero.

Constant operands are folded exactly (within the digit budget, as in RationalField), and
x+0, x·1, x·0, 0/x, x/1 simplified: each is an identity of total functions.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Callable, Iterable, Optional, Sequence, TypeVar

from .values import DEFAULT_MAX_DIGITS, DivisionByZero, RationalField

OPERATORS = {"add": "+", "sub": "-", "mul": "*", "div": "/"}

T = TypeVar("T")


class Expr:
    """A node of the expression DAG: `const` (value), `param` (index), or a binary
    operation add/sub/mul/div over two Exprs. Made only by a SymbolicField (hash-consed:
    compare with `is`)."""

    __slots__ = ("op", "left", "right", "value", "index", "size", "__weakref__")

    def __init__(self, op: str, left=None, right=None, value: Optional[Fraction] = None, index: int = -1):
        self.op = op
        self.left = left
        self.right = right
        self.value = value
        self.index = index
        self.size = 1 if left is None else 1 + left.size + right.size  # tree size (may be huge); for stats only

    @property
    def is_const(self) -> bool:
        return self.op == "const"

    def __repr__(self) -> str:
        return f"Expr({show(self, limit=200)})"

    def __str__(self) -> str:
        return show(self)


class SymbolicField:
    """A field of expressions over parameters q0 … q(n-1) (semantics.values' interface)."""

    name = "symbolic"

    def __init__(self, division: str = "total", max_digits: int = DEFAULT_MAX_DIGITS):
        if division not in ("total", "strict"):
            raise ValueError(f"unknown division policy {division!r} (total or strict)")
        self.division = division
        self.exact = RationalField("total", max_digits)  # folding constants, within the digit budget
        self._table: dict = {}
        self.denominators: list[Expr] = []  # strict: the run is undefined where one of them is 0
        self._denominator_seen: set[int] = set()
        self.parameters: tuple[Expr, ...] = ()
        self._zero = self._const(Fraction(0))
        self._one = self._const(Fraction(1))

    # ---- making nodes -------------------------------------------------------------------
    def _const(self, value: Fraction) -> Expr:
        key = ("const", value)
        node = self._table.get(key)
        if node is None:
            node = self._table[key] = Expr("const", value=value)
        return node

    def _node(self, op: str, x: Expr, y: Expr) -> Expr:
        key = (op, id(x), id(y))
        node = self._table.get(key)
        if node is None:
            node = self._table[key] = Expr(op, x, y)
        return node

    def inputs(self, n: int) -> list[Expr]:
        """The values put under the n ¡-nodes: the parameters q0 … q(n-1)."""
        params = []
        for i in range(n):
            key = ("param", i)
            node = self._table.get(key)
            if node is None:
                node = self._table[key] = Expr("param", index=i)
            params.append(node)
        self.parameters = tuple(params)
        return params

    @property
    def nodes(self) -> int:
        """How many distinct expressions the run built."""
        return len(self._table)

    # ---- the field interface ------------------------------------------------------------
    def const(self, value) -> Expr:
        if isinstance(value, Expr):
            return value
        return self._const(Fraction(value))

    def zero(self) -> Expr:
        return self._zero

    def one(self) -> Expr:
        return self._one

    def add(self, x: Expr, y: Expr) -> Expr:
        if x.is_const and y.is_const:
            return self._const(self.exact.add(x.value, y.value))
        if x is self._zero:
            return y
        if y is self._zero:
            return x
        return self._node("add", x, y)

    def sub(self, x: Expr, y: Expr) -> Expr:
        if x.is_const and y.is_const:
            return self._const(self.exact.sub(x.value, y.value))
        if y is self._zero:
            return x
        return self._node("sub", x, y)

    def mul(self, x: Expr, y: Expr) -> Expr:
        if x.is_const and y.is_const:
            return self._const(self.exact.mul(x.value, y.value))
        if x is self._zero or y is self._zero:
            return self._zero
        if x is self._one:
            return y
        if y is self._one:
            return x
        return self._node("mul", x, y)

    def div(self, x: Expr, y: Expr) -> Expr:
        if y.is_const and y.value == 0:
            if self.division == "strict":
                raise DivisionByZero(f"{show(x, limit=60)} / 0")
            return self._zero
        if self.division == "strict" and not y.is_const and id(y) not in self._denominator_seen:
            self._denominator_seen.add(id(y))
            self.denominators.append(y)
        if x.is_const and y.is_const:
            return self._const(self.exact.div(x.value, y.value))
        if x is self._zero:
            return self._zero
        if y is self._one:
            return x
        return self._node("div", x, y)

    def show(self, x: Expr) -> str:
        return show(x, limit=200)


# ---- using expressions ------------------------------------------------------------------

def _postorder(roots: Iterable[Expr]):
    """Each node reachable from roots once, operands before the operation (no recursion:
    a run's expression can be deeper than Python's stack)."""
    seen: set[int] = set()
    for root in roots:
        stack = [(root, False)]
        while stack:
            node, expanded = stack.pop()
            if id(node) in seen:
                continue
            if expanded or node.left is None:
                seen.add(id(node))
                yield node
            else:
                stack.append((node, True))
                stack.append((node.right, False))
                stack.append((node.left, False))


def fold(roots: Sequence[Expr], const: Callable[[Fraction], T], param: Callable[[int], T],
         combine: Callable[[str, T, T], T], memo: Optional[dict[int, T]] = None) -> list[T]:
    """Each node of the DAG interpreted once, operands first: `const(value)`, `param(index)`,
    `combine(op, left, right)`. A `memo` kept across calls shares the work between them."""
    memo = {} if memo is None else memo
    for node in _postorder(roots):
        if id(node) in memo:
            continue
        if node.op == "const":
            memo[id(node)] = const(node.value)
        elif node.op == "param":
            memo[id(node)] = param(node.index)
        else:
            memo[id(node)] = combine(node.op, memo[id(node.left)], memo[id(node.right)])
    return [memo[id(r)] for r in roots]


def arithmetic(op: str, a, b, quotient: Callable):
    """a op b for the field operations add, sub, mul, div (Expr.op); division is
    `quotient(a, b)`, which decides what dividing by zero gives (0, under total division)."""
    if op == "add":
        return a + b
    if op == "sub":
        return a - b
    if op == "mul":
        return a * b
    return quotient(a, b)


def _total_quotient(a: Fraction, b: Fraction) -> Fraction:
    return Fraction(0) if b == 0 else a / b


def _exact(op: str, a: Fraction, b: Fraction) -> Fraction:
    return arithmetic(op, a, b, _total_quotient)


def evaluate_all(roots: Sequence[Expr], point: Sequence[Fraction]) -> list[Fraction]:
    """The exact values of expressions at q⃗ = point (x/0 = 0, as the expressions denote)."""
    return fold(roots, lambda v: v, lambda i: Fraction(point[i]), _exact)


def evaluate(x: Expr, point: Sequence[Fraction]) -> Fraction:
    return evaluate_all([x], point)[0]


def show(x: Expr, limit: Optional[int] = None, names: Optional[Sequence[str]] = None) -> str:
    """The expression as text (q0, q1, … or `names`), fully parenthesised; with `limit`,
    cut to about that many characters (a shared DAG can be exponentially long as text)."""

    def cut(t: str) -> str:
        return t[: limit - 1] + "…" if limit is not None and len(t) > limit else t

    (text,) = fold(
        [x],
        lambda v: cut(str(v) if v >= 0 else f"({v})"),
        lambda i: cut(names[i] if names is not None else f"q{i}"),
        lambda op, left, right: cut(f"({left} {OPERATORS[op]} {right})"),
    )
    if text.startswith("(") and text.endswith(")") and x.left is not None:
        text = text[1:-1]
    return text
