"""Type inference for the judgement `A | Γ | p⃗ ⊢ t : T` of the paper (Sec. 3).

- Unannotated binders get inference variables, solved by unification.
- The overloaded `+` and `*` are resolved by type once unification is done:
  `+` is the field's + on F and +_a on V_a; `*` is the field's × when its right
  operand is F and ×_a (scalar multiplication) when it is V_a.
- A type left unconstrained defaults to F (documented in docs/SYNTAX.md). An
  operand that must be a vector but whose vector type is unknown is an error:
  there is no default name.
- Each decoupling `A(f,x).t` binds a fresh name a (the user's, or a generated
  one); V_a may not occur in the type of anything outside that decoupling: not
  in the decoupling's own type T' -> T, nor in the type of any subterm or
  binder outside it (the paper's side condition `A ⊢ Γ, T', T`).
- The result is a Judgement whose term is a typed core term (semantics.core)
  and whose p⃗ lists the provisional constants in the order the paper's
  (linear) rules give: left to right in the core term, where `let x = t in u`
  is `(λx.u) t`, so the body's constants come before the bound term's.
"""

from __future__ import annotations

import itertools
import re
from contextlib import contextmanager
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Optional

from . import core as C
from . import syntax as S
from .show import scalar
from .errors import TypeCheckError
from .types import Arrow, F, Field, Meta, Type, Vec, has_metas, names_of


@dataclass
class Judgement:
    """`names | context | params ⊢ term : type`, with the surface term it came from and, when
    it was checked from text, that text (`source`: what source spans point into)."""

    names: tuple[str, ...]
    context: tuple[tuple[str, Type], ...]
    params: tuple[Fraction, ...]
    term: C.Core
    type: Type
    surface: Optional[S.Term] = None
    decouplings: tuple[str, ...] = ()  # the names bound by decouplings, in pre-order
    inference_work: int = 0  # substitution look-ups the inference made (benchmarks, tests)
    source: str = ""  # the program's text, if it was checked from text
    # id(surface BinOp) -> the operation it resolved to (core.SIGMA / SIGMA_ITER names:
    # "+" on vectors is "vadd"); "?" for one object used twice with two meanings
    operators: dict = field(default_factory=dict, repr=False, compare=False)

    def __str__(self) -> str:
        from .pretty import pretty

        names = ", ".join(self.names) or "-"
        ctx = ", ".join(f"{x}:{t}" for x, t in self.context) or "-"
        params = ", ".join(scalar(p) for p in self.params) or "-"
        term = pretty(self.surface) if self.surface is not None else C.show_core(self.term)
        return f"{names} | {ctx} | {params} ⊢ {term} : {self.type}"


class _Mismatch(Exception):
    def __init__(self, left: Type, right: Type):
        self.left, self.right = left, right


class _Infinite(Exception):
    def __init__(self, meta: Meta, other: Type):
        self.meta, self.other = meta, other


def _iterated_operands(sym: str, op: str, but: str) -> str:
    """What an iterated operation takes, and what it was given instead."""
    function = "V_a -> V_a" if op == "+^L" else "V_a -> F"
    return f"{sym} takes a function of type {function} on its left and a vector of a type V_a on its right, but {but}"


@dataclass
class _KindConstraint:
    """A type that must turn out ground or a vector, for the operator `op` at `node`."""

    kind: str  # "ground" or "vector"
    type: Type
    node: S.Term
    op: str


UNKNOWN_LETTERS = "αβγδεζηθ"


def readable_unknowns(message: str) -> str:
    """A message's unknown types (the inference's ?3) as Greek letters in order of appearance,
    with a note saying what they are."""
    found = list(dict.fromkeys(re.findall(r"\?\d+", message)))
    if not found:
        return message
    letters = {m: UNKNOWN_LETTERS[i] if i < len(UNKNOWN_LETTERS) else f"τ{i}" for i, m in enumerate(found)}
    message = re.sub(r"\?\d+", lambda m: letters[m.group(0)], message)
    named = ", ".join(letters.values())
    return message + f" ({named} {'stands' if len(found) == 1 else 'stand'} for {'a type' if len(found) == 1 else 'types'} nothing has fixed yet)"


def _name_supply(taken: set[str]):
    letters = "abcdefghijklmnopqrstuvwxyz"
    for n in itertools.count():
        for ch in letters:
            name = ch if n == 0 else f"{ch}{n}"
            if name not in taken:
                yield name


class _Checker:
    def __init__(self, source: Optional[str], reserved_names: set[str]):
        self.source = source
        self.subst: dict[int, Type] = {}
        self.resolved: dict[Type, Type] = {}
        self.work = 0  # units of inference work (substitution look-ups): near-linear in the program
        self.metas = itertools.count(1)
        self.constraints: list[_KindConstraint] = []
        self.ops: list[tuple[C.Core, S.BinOp]] = []
        self.scopes: list[tuple[C.Core, frozenset[str], S.Term]] = []
        self.binders: list[tuple[str, Type, frozenset[str], S.Term]] = []
        self.allocated: set[str] = set()  # names given out (and A)
        self.user_names = set(reserved_names)  # kept free for the user's own names
        self.auto_names = _name_supply(self.user_names)
        self.binding_site: dict[str, S.Term] = {}
        self.decouplings: list[str] = []
        self.renamed: dict[str, str] = {}  # a name given apart (a1) → the user's (a)

    def operators(self) -> dict[int, str]:
        resolved: dict[int, str] = {}
        for node, surface in self.ops:
            op = getattr(node, "op")
            resolved[id(surface)] = op if resolved.get(id(surface), op) == op else "?"
        return resolved

    # ---- inference variables and unification --------------------------------
    def fresh(self) -> Meta:
        return Meta(next(self.metas))

    def head(self, t: Type) -> Type:
        """t with its outermost solved inference variables replaced (path compression):
        O(1) amortised, never walks inside an arrow."""
        self.work += 1
        if not isinstance(t, Meta) or t.id not in self.subst:
            return t
        solved = self.head(self.subst[t.id])
        self.subst[t.id] = solved
        return solved

    def solve(self, meta: Meta, t: Type) -> None:
        self.subst[meta.id] = t
        self.resolved.clear()  # memoised resolutions are out of date

    def resolve(self, t: Type) -> Type:
        """Apply the substitution all the way down (leaves unsolved metas). Memoised per
        substitution and skipping meta-free parts: linear in the type's DAG, not its tree."""
        t = self.head(t)
        if not isinstance(t, Arrow) or not has_metas(t):
            return t
        done = self.resolved.get(t)
        if done is None:
            done = self.resolved[t] = Arrow(self.resolve(t.dom), self.resolve(t.cod))
        return done

    def _occurs(self, meta: Meta, t: Type) -> bool:
        seen: set[int] = set()
        todo = [t]
        while todo:
            u = self.head(todo.pop())
            if u == meta:
                return True
            if isinstance(u, Arrow) and has_metas(u) and id(u) not in seen:
                seen.add(id(u))
                todo += (u.dom, u.cod)
        return False

    def _unify(self, a: Type, b: Type) -> None:
        a, b = self.head(a), self.head(b)
        if a == b:
            return
        if isinstance(a, Meta):
            if self._occurs(a, b):
                raise _Infinite(a, b)
            self.solve(a, b)
            return
        if isinstance(b, Meta):
            self._unify(b, a)
            return
        if isinstance(a, Arrow) and isinstance(b, Arrow):
            self._unify(a.dom, b.dom)
            self._unify(a.cod, b.cod)
            return
        raise _Mismatch(a, b)

    def unify(self, a: Type, b: Type, message) -> None:
        """Unify; on failure raise a TypeCheckError built by message(a, b, detail)."""
        try:
            self._unify(a, b)
        except _Mismatch as exc:
            ra, rb = self.resolve(a), self.resolve(b)
            left, right = self.resolve(exc.left), self.resolve(exc.right)
            detail = ""
            if (left, right) not in ((ra, rb), (rb, ra)):
                detail = f" ({left} and {right} differ)"
            raise message(ra, rb, detail)
        except _Infinite as exc:
            raise message(self.resolve(a), self.resolve(b), f" (this would need an infinite type: {exc.meta} = {self.resolve(exc.other)})")

    # ---- messages ------------------------------------------------------------
    def show(self, term: S.Term) -> str:
        text = None
        if self.source is not None and term.pos is not None:
            text = " ".join(self.source[term.pos.start : term.pos.end].split())
        if not text:
            from .pretty import pretty

            try:
                text = pretty(term)
            except ValueError:
                text = repr(term)
        if len(text) > 60:
            text = text[:57] + "..."
        at = f" ({term.pos})" if term.pos is not None else ""
        return f"`{text}`{at}"

    def error(self, term: S.Term, message: str) -> TypeCheckError:
        pos = term.pos
        return TypeCheckError(readable_unknowns(self.explain_renamed(message)), pos.line if pos else None,
                              pos.column if pos else None)

    def explain_renamed(self, message: str) -> str:
        """A name the user gave twice (A_a inside A_a) is renamed apart (a1): a message that
        shows it says whose it is."""
        found = list(dict.fromkeys(re.findall(r"\bV_([a-z][A-Za-z0-9']*)", message)))
        notes = [f"V_{n} is the name {self.renamed[n]} of the decoupling {self.show(self.binding_site[n])}, renamed "
                 f"apart from another decoupling that also names it {self.renamed[n]}" for n in found if n in self.renamed]
        notes += [f"V_{n} is goi's name for the vector of the decoupling {self.show(self.binding_site[n])}, which the "
                  "program leaves unnamed" for n in found
                  if n not in self.renamed and n in self.binding_site and n not in self.user_names
                  and not re.search(rf"\bname {re.escape(n)} (that this very decoupling binds|is bound by)", message)]
        return message + "".join(f" ({note})" for note in notes)

    # ---- annotations -----------------------------------------------------------
    def annotation(self, t: Type, names: dict[str, str], where: S.Term) -> Type:
        """Map the user's vector names in an annotation to the internal names in scope."""
        if isinstance(t, Vec):
            if t.name not in names:
                raise self.error(
                    where,
                    f"unknown vector name '{t.name}' in the annotation V_{t.name} of {self.show(where)}: "
                    f"no enclosing decoupling A_{t.name}(f,x) or let f @_{t.name} p binds it",
                )
            return Vec(names[t.name])
        if isinstance(t, Arrow):
            return Arrow(self.annotation(t.dom, names, where), self.annotation(t.cod, names, where))
        return t

    def new_name(self, preferred: Optional[str]) -> str:
        """A name no other decoupling (nor A) has: the user's if free, else a fresh one."""
        if preferred is not None and preferred not in self.allocated:
            name = preferred
        elif preferred is not None:
            taken = self.allocated | self.user_names
            name = next(n for n in (f"{preferred}{i}" for i in itertools.count(1)) if n not in taken)
            self.renamed[name] = preferred
        else:
            name = next(n for n in self.auto_names if n not in self.allocated)
        self.allocated.add(name)
        return name

    # ---- inference -----------------------------------------------------------
    def infer(self, t: S.Term, env: dict[str, Type], scope: frozenset[str], names: dict[str, str]) -> C.Core:
        node = self._infer(t, env, scope, names)
        self.scopes.append((node, scope, t))
        return node

    def _infer(self, t, env, scope, names) -> C.Core:
        if isinstance(t, S.Var):
            if t.name not in env:
                raise self.error(t, f"unbound variable '{t.name}' in {self.show(t)}")
            return C.CVar(t.name, env[t.name], pos=t.pos)

        if isinstance(t, S.Const):
            return C.CConst(t.value, F, pos=t.pos)

        if isinstance(t, S.Prov):
            return C.CProv(t.value, -1, F, pos=t.pos)

        if isinstance(t, S.Lam):
            return self.lam(t.var, t.annot, t.body, env, scope, names, t)

        if isinstance(t, S.App):
            fun = self.infer(t.fun, env, scope, names)
            arg = self.infer(t.arg, env, scope, names)
            return self.apply(fun, arg, t.fun, t.arg, t)

        if isinstance(t, S.Let):
            # the bound term first, and its type is the variable's while the body is checked:
            # a conflict is then reported at the use in the body that conflicts, not at the let
            bound = self.infer(t.bound, env, scope, names)
            dom = bound.type
            if t.annot is not None:
                dom = self.annotation(t.annot, names, t)
                self.unify(dom, bound.type, lambda a, b, d: self.error(
                    t.bound, f"type mismatch: {t.var} is annotated {a}, but {self.show(t.bound)} has type {b}{d}"))
            lam = self.lam(t.var, None, t.body, env, scope, names, t, dom=dom)
            self.scopes.append((lam, scope, t))
            return self.apply(lam, bound, t, t.bound, t)

        if isinstance(t, S.Decouple):
            return self.decouple(t.f, t.x, t.name, t.annot, t.body, env, scope, names, t)

        if isinstance(t, S.LetDecouple):
            bound = self.infer(t.bound, env, scope, names)
            dec = self.decouple(t.f, t.x, t.name, t.annot, t.body, env, scope, names, t)
            self.scopes.append((dec, scope, t))
            return self.apply(dec, bound, t, t.bound, t, model=True)

        if isinstance(t, S.BinOp):
            return self.binop(t, env, scope, names)

        raise TypeError(f"not a term: {t!r}")

    def lam(self, var, annot, body, env, scope, names, site, dom: Optional[Type] = None) -> C.CLam:
        if dom is None:
            dom = self.annotation(annot, names, site) if annot is not None else self.fresh()
        self.binders.append((var, dom, scope, site))
        with _binding(env, {var: dom}):
            inner = self.infer(body, env, scope, names)
        return C.CLam(var, dom, inner, Arrow(dom, inner.type), pos=site.pos)

    def apply(self, fun: C.Core, arg: C.Core, fun_s: S.Term, arg_s: S.Term, site: S.Term, model=False) -> C.CApp:
        dom, cod = self.fresh(), self.fresh()
        self.unify(
            fun.type,
            Arrow(dom, cod),
            lambda a, b, d: self.error(fun_s, f"{self.show(fun_s)} has type {a}, which is not a function type, but it is applied to {self.show(arg_s)}"),
        )
        if model:
            what = lambda a, b, d: self.error(  # noqa: E731
                arg_s,
                f"the decoupled term {self.show(arg_s)} has type {b}, but the decoupling expects a model of type {a}{d}",
            )
        else:
            what = lambda a, b, d: self.error(  # noqa: E731
                arg_s,
                f"type mismatch: {self.show(fun_s)} expects an argument of type {a}, but {self.show(arg_s)} has type {b}{d}",
            )
        self.unify(dom, arg.type, what)
        return C.CApp(fun, arg, cod, pos=site.pos)

    def decouple(self, f, x, user_name, annot, body, env, scope, names, site) -> C.CDecouple:
        if f == x:
            # A(f,x).t binds two variables, the model and its parameter vector: one name for
            # both would leave one of them unusable and the translation cannot tell them apart.
            raise self.error(
                site,
                f"the decoupling {self.show(site)} binds '{f}' twice: its function and its parameter vector need different names",
            )
        a = self.new_name(user_name)
        self.decouplings.append(a)
        self.binding_site[a] = site
        inner_names = dict(names)
        if user_name is not None:
            inner_names[user_name] = a
        model = self.annotation(annot, names, site) if annot is not None else self.fresh()
        inner_scope = scope | {a}
        f_type, x_type = Arrow(Vec(a), model), Vec(a)
        self.binders.append((f, f_type, inner_scope, site))
        self.binders.append((x, x_type, inner_scope, site))
        self.binders.append(("the model of " + f, model, scope, site))
        with _binding(env, {f: f_type, x: x_type}):
            inner = self.infer(body, env, inner_scope, inner_names)
        return C.CDecouple(a, f, x, model, inner, Arrow(model, inner.type), pos=site.pos)

    def binop(self, t: S.BinOp, env, scope, names) -> C.Core:
        left = self.infer(t.left, env, scope, names)
        right = self.infer(t.right, env, scope, names)
        op = t.op
        sym = S.OPERATORS[op][0]

        def same(a, b, d):
            return self.error(
                t,
                f"the operands of {sym} in {self.show(t)} must have the same type, but "
                f"{self.show(t.left)} has type {a} and {self.show(t.right)} has type {b}{d}",
            )

        def scalar(side: S.Term, which: str):
            return lambda a, b, d: self.error(
                side, f"the {which} operand of {sym}, {self.show(side)}, has type {a}, but {sym} needs a scalar (F) there"
            )

        if op in ("+", "⊞", "•"):
            self.unify(left.type, right.type, same)
            kind = "ground" if op == "+" else "vector"
            self.constraints.append(_KindConstraint(kind, left.type, t, op))
            result = F if op == "•" else left.type
        elif op in ("-", "/"):
            self.unify(left.type, F, scalar(t.left, "left"))
            self.unify(right.type, F, scalar(t.right, "right"))
            result = F
        elif op in ("*", "⊠"):
            self.unify(left.type, F, scalar(t.left, "left"))
            self.constraints.append(_KindConstraint("ground" if op == "*" else "vector", right.type, t, op))
            result = right.type
        elif op in S.ITERATED:
            self.constraints.append(_KindConstraint("vector", right.type, t, op))
            known = self.resolve(right.type)
            if not isinstance(known, (Vec, Meta)):  # the right operand is the vector: say so, not that f is wrong
                raise self.error(t.right, _iterated_operands(sym, op, f"its right operand {self.show(t.right)} has type {known}"))
            expected = Arrow(right.type, right.type if op == "+^L" else F)
            self.unify(
                left.type,
                expected,
                lambda a, b, d: self.error(
                    t.left,
                    f"the function operand of {sym}, {self.show(t.left)}, has type {a}, but with the vector "
                    f"operand {self.show(t.right)} of type {self.resolve(right.type)} it must have type {b}{d}",
                ),
            )
            result = right.type
            node = C.CIter(op, "", left, right, result, pos=t.pos)
            self.ops.append((node, t))
            return node
        else:
            raise TypeError(f"unknown operator {op!r}")
        node = C.COp(op, None, left, right, result, pos=t.pos)
        self.ops.append((node, t))
        return node

    # ---- after unification ---------------------------------------------------
    def finish(self, root: C.Core) -> None:
        # 1. An operand that must be a vector, of unknown vector type: no default.
        for c in self.constraints:
            if c.kind == "vector" and isinstance(self.resolve(c.type), Meta):
                raise self.error(
                    c.node,
                    f"cannot tell which vector type the operands of {S.OPERATORS[c.op][0]} in {self.show(c.node)} have: "
                    f"nothing fixes their vector space V_a; annotate a binder (for example λv:V_a. ...) inside a decoupling A_a(f,x)",
                )
        # 2. Defaults: anything still unknown is F.
        seen: set[int] = set()
        for node in C.walk(root):
            for t in _types_of(node):
                self._default(t, seen)
        # 3. The operators' operand kinds.
        for c in self.constraints:
            ty = self.resolve(c.type)
            sym = S.OPERATORS[c.op][0]
            if c.kind == "ground" and isinstance(ty, Arrow):
                raise self.error(
                    c.node,
                    f"{sym} in {self.show(c.node)} works on scalars (F) or vectors (V_a), but its operands have type {ty}",
                )
            if c.kind == "vector" and not isinstance(ty, Vec):
                if c.op in S.ITERATED:
                    raise self.error(c.node.right, _iterated_operands(sym, c.op, f"its right operand {self.show(c.node.right)} has type {ty}"))
                raise self.error(
                    c.node, f"{sym} in {self.show(c.node)} needs vector operands (of a type V_a), but they have type {ty}"
                )
        # 4. Zonk every node, resolve every operator.
        for node in C.walk(root):
            _zonk(node, self.resolve)
        for node, surface in self.ops:
            _resolve_operator(node, surface)
        # 5. Names may not escape their decoupling.
        self.check_scopes()

    def _default(self, t: Type, seen: set[int]) -> None:
        todo = [t]
        while todo:
            u = self.head(todo.pop())
            if isinstance(u, Meta):
                self.solve(u, F)
            elif isinstance(u, Arrow) and has_metas(u) and id(u) not in seen:
                seen.add(id(u))
                todo += (u.dom, u.cod)

    def check_scopes(self) -> None:
        for var, ty, scope, site in self.binders:
            escaped = names_of(self.resolve(ty)) - scope
            if escaped:
                a = sorted(escaped)[0]
                raise self.error(
                    site,
                    f"vector name escapes its decoupling: {var} (bound by {self.show(site)}) has type {self.resolve(ty)}, "
                    f"but the name {a} is bound by the decoupling {self.show(self.binding_site[a])} and V_{a} "
                    f"cannot be used outside it",
                )
        # Outermost offending subterm first (scopes were recorded innermost first).
        for node, scope, site in reversed(self.scopes):
            escaped = names_of(node.type) - scope
            if escaped:
                a = sorted(escaped)[0]
                if site is self.binding_site[a]:
                    raise self.error(
                        site,
                        f"vector name escapes its decoupling: {self.show(site)} has type {node.type}, which mentions "
                        f"the name {a} that this very decoupling binds; V_{a} may only be used inside it "
                        f"(for example reduce the vector with a dot product: p • p)",
                    )
                raise self.error(
                    site,
                    f"vector name escapes its decoupling: {self.show(site)} has type {node.type}, "
                    f"but the name {a} is bound by the decoupling {self.show(self.binding_site[a])} and V_{a} "
                    f"cannot be used outside it",
                )


_UNBOUND = object()


@contextmanager
def _binding(env: dict[str, Type], bindings: dict[str, Type]):
    """Extend the typing environment for the duration of a body, then restore it: one
    mutable environment instead of a copy per binder (copies were quadratic in memory on
    deeply nested programs)."""
    saved = [(x, env.get(x, _UNBOUND)) for x in bindings]
    env.update(bindings)
    try:
        yield
    finally:
        for x, before in saved:
            _restore(env, x, before)


def _types_of(node: C.Core):
    yield node.type
    if isinstance(node, C.CLam):
        yield node.var_type
    if isinstance(node, C.CDecouple):
        yield node.model_type


def _zonk(node: C.Core, resolve) -> None:
    node.type = resolve(node.type)
    if isinstance(node, C.CLam):
        node.var_type = resolve(node.var_type)
    if isinstance(node, C.CDecouple):
        node.model_type = resolve(node.model_type)


def _resolve_operator(node: C.Core, surface: S.BinOp) -> None:
    op = surface.op
    if isinstance(node, C.CIter):
        node.op = "iadd" if op == "+^L" else "imul"
        node.name = node.vec.type.name
        return
    right = node.right.type
    if op in ("-", "/"):
        node.op, node.name = ("sub" if op == "-" else "div"), None
    elif op == "+":
        node.op, node.name = ("add", None) if isinstance(right, Field) else ("vadd", right.name)
    elif op == "⊞":
        node.op, node.name = "vadd", right.name
    elif op == "*":
        node.op, node.name = ("mul", None) if isinstance(right, Field) else ("smul", right.name)
    elif op == "⊠":
        node.op, node.name = "smul", right.name
    elif op == "•":
        node.op, node.name = "dot", right.name
    else:
        raise TypeError(f"unknown operator {op!r}")


def typecheck(
    term: S.Term,
    *,
    context: tuple[tuple[str, Type], ...] = (),
    names: tuple[str, ...] = (),
    source: Optional[str] = None,
) -> Judgement:
    """Infer `names | context | p⃗ ⊢ term : T`; raise TypeCheckError if there is none.

    `names` (the paper's A) must contain every name of the context's types.
    """
    names = tuple(names)
    for var, ty in context:
        missing = names_of(ty) - set(names)
        if missing:
            raise TypeCheckError(f"the context gives {var} the type {ty}, whose names {sorted(missing)} are not in A")
    checker = _Checker(source, reserved_names=set(names) | _user_names(term))
    checker.allocated |= set(names)
    scope = frozenset(names)
    root = checker.infer(term, dict(context), scope, {n: n for n in names})
    checker.finish(root)
    params = []
    for i, prov in enumerate(C.provisionals(root)):
        prov.index = i
        params.append(prov.value)
    return Judgement(
        names=names,
        context=tuple(context),
        params=tuple(params),
        term=root,
        type=root.type,
        surface=term,
        decouplings=tuple(checker.decouplings),
        inference_work=checker.work,
        operators=checker.operators(),
        source=source or "",
    )


def _user_names(term: S.Term) -> set[str]:
    found = set()
    stack = [term]
    while stack:
        t = stack.pop()
        if isinstance(t, (S.Decouple, S.LetDecouple)) and t.name is not None:
            found.add(t.name)
        annot = getattr(t, "annot", None)
        if annot is not None:  # a name the user wrote in an annotation (V_a1) is theirs too: never given out
            found |= set(names_of(annot))
        stack.extend(S.subterms(t))
    return found


# ---- programs typed by construction ------------------------------------------------------

class NotAnnotated(Exception):
    """`typecheck_annotated` met what it does not synthesise: a binder without its
    annotation, an unnamed decoupling, or a type that does not meet its use. The caller asks
    `typecheck`, which infers what is missing or says what is wrong."""


def typecheck_annotated(term: S.Term) -> Judgement:
    """The judgement `typecheck(term)` gives, for a closed program whose every λ, `let` and
    decoupling is annotated and every decoupling named, as the enumerator builds them
    (generators/enumerate.py): each node's type is synthesised from its children's in one
    pass, without inference variables, unification or defaults. The decouplings' names are
    given out by the checker's own rule (`_Checker.new_name`) in the checker's order, and
    every use of a type is still checked (an application's argument, an operator's
    operands, a vector name kept inside its decoupling): what does not meet its use, or is
    not annotated, raises NotAnnotated. A campaign's programs come typed by construction:
    this is their type checking at a fraction of inference's cost
    (tests/test_typecheck_annotated.py compares the two judgements on every program up to a size)."""
    checker = _Checker(None, reserved_names=set())  # the user's names: read when a name is given twice
    synthesis = _Synthesis(checker, term)
    root = synthesis.term(term, {}, {})
    params = []
    for i, prov in enumerate(C.provisionals(root)):
        prov.index = i
        params.append(prov.value)
    return Judgement(names=(), context=(), params=tuple(params), term=root, type=root.type, surface=term,
                     decouplings=tuple(checker.decouplings), operators=checker.operators(), source="")


# the scalar operators' primitives (core.SIGMA)
_SCALAR = {"+": "add", "-": "sub", "*": "mul", "/": "div"}


class _Synthesis:
    """One bottom-up pass over an annotated term: a core node for each surface node, its type
    from its children's (`typecheck_annotated`)."""

    def __init__(self, checker: _Checker, program: S.Term):
        self.checker, self.program = checker, program
        self.user_names_read = False

    def term(self, t: S.Term, env: dict, names: dict) -> C.Core:
        kind = type(t)
        if kind is S.Var:
            ty = env.get(t.name)
            if ty is None:
                raise NotAnnotated(f"unbound variable {t.name}")
            return C.CVar(t.name, ty, pos=t.pos)
        if kind is S.Const:
            return C.CConst(t.value, F, pos=t.pos)
        if kind is S.Prov:
            return C.CProv(t.value, -1, F, pos=t.pos)
        if kind is S.Lam:
            return self.lam(t.var, self.annotation(t.annot, names, t), t.body, env, names, t)
        if kind is S.App:
            fun = self.term(t.fun, env, names)
            arg = self.term(t.arg, env, names)
            return self.apply(fun, arg, t)
        if kind is S.Let:
            bound = self.term(t.bound, env, names)
            dom = self.annotation(t.annot, names, t)
            if dom != bound.type:
                raise NotAnnotated(f"{t.var} is annotated {dom}, its term has type {bound.type}")
            return self.apply(self.lam(t.var, dom, t.body, env, names, t), bound, t)
        if kind is S.Decouple:
            return self.decouple(t, env, names)
        if kind is S.LetDecouple:
            bound = self.term(t.bound, env, names)
            return self.apply(self.decouple(t, env, names), bound, t)
        if kind is S.BinOp:
            return self.binop(t, env, names)
        raise NotAnnotated(f"not a term: {t!r}")

    def annotation(self, annot: Optional[Type], names: dict, site: S.Term) -> Type:
        if annot is None:
            raise NotAnnotated("a binder without its annotation")
        return self.checker.annotation(annot, names, site)

    def lam(self, var: str, dom: Type, body: S.Term, env: dict, names: dict, site: S.Term) -> C.CLam:
        saved = env.get(var, _UNBOUND)  # as _binding does, without a context manager's cost
        env[var] = dom
        try:
            inner = self.term(body, env, names)
        finally:
            _restore(env, var, saved)
        return C.CLam(var, dom, inner, Arrow(dom, inner.type), pos=site.pos)

    @staticmethod
    def apply(fun: C.Core, arg: C.Core, site: S.Term) -> C.CApp:
        ty = fun.type
        if type(ty) is not Arrow or ty.dom != arg.type:
            raise NotAnnotated(f"a function of type {ty} applied to an argument of type {arg.type}")
        return C.CApp(fun, arg, ty.cod, pos=site.pos)

    def decouple(self, t, env: dict, names: dict) -> C.CDecouple:
        if t.name is None or t.f == t.x:
            raise NotAnnotated("an unnamed decoupling, or one binding one name twice")
        model = self.annotation(t.annot, names, t)  # in the names outside the decoupling
        checker = self.checker
        if t.name in checker.allocated and not self.user_names_read:  # renamed apart: never to a name of the user's
            checker.user_names |= _user_names(self.program)
            self.user_names_read = True
        a = checker.new_name(t.name)
        checker.decouplings.append(a)
        inner_names = {**names, t.name: a}
        saved_f, saved_x = env.get(t.f, _UNBOUND), env.get(t.x, _UNBOUND)
        env[t.f], env[t.x] = Arrow(Vec(a), model), Vec(a)
        try:
            inner = self.term(t.body, env, inner_names)
        finally:
            _restore(env, t.x, saved_x)
            _restore(env, t.f, saved_f)
        if a in names_of(inner.type):
            raise NotAnnotated(f"the vector name {a} escapes its decoupling")
        return C.CDecouple(a, t.f, t.x, model, inner, Arrow(model, inner.type), pos=t.pos)

    def binop(self, t: S.BinOp, env: dict, names: dict) -> C.Core:
        left = self.term(t.left, env, names)
        right = self.term(t.right, env, names)
        op, lt, rt = t.op, left.type, right.type
        vector = type(rt) is Vec
        if op in S.ITERATED:
            if not vector or lt != Arrow(rt, rt if op == "+^L" else F):
                raise NotAnnotated(f"{op} with operands of types {lt} and {rt}")
            node = C.CIter("iadd" if op == "+^L" else "imul", rt.name, left, right, rt, pos=t.pos)
        else:
            ok = False
            if op in ("-", "/") or (op in ("+", "*") and not vector):
                ok, prim, name, result = lt == F and rt == F, _SCALAR[op], None, F
            elif vector and op in ("+", "⊞"):
                ok, prim, name, result = lt == rt, "vadd", rt.name, rt
            elif vector and op in ("*", "⊠"):
                ok, prim, name, result = lt == F, "smul", rt.name, rt
            elif vector and op == "•":
                ok, prim, name, result = lt == rt, "dot", rt.name, F
            if not ok:
                raise NotAnnotated(f"{op} with operands of types {lt} and {rt}")
            node = C.COp(prim, name, left, right, result, pos=t.pos)
        self.checker.ops.append((node, t))
        return node


def _restore(env: dict, var: str, before) -> None:
    if before is _UNBOUND:
        del env[var]
    else:
        env[var] = before
