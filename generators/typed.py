"""Well-typed programs by construction (no filtering): type-directed Hypothesis strategies.

`terms(ctx, type, names, depth)` draws a surface term t with `names | ctx | p⃗ ⊢ t : type`.
Every binder is annotated with its type and every decoupling carries an explicit name
(`let f @_a p`), so the front end's inference finds exactly the intended typing (an
unannotated binder could be defaulted to F where a vector was meant). `programs()` draws
closed programs of type F.

Size is controlled by `depth` (the nesting depth of the term); shrinking moves towards
leaves (constants) and smaller depths.
"""

from __future__ import annotations

import zlib
from fractions import Fraction

from hypothesis import assume
from hypothesis import strategies as st

from goi.semantics import syntax as S
from goi.semantics.types import Arrow, F, Type, Vec

from .composite import composite


small_constants = st.builds(lambda n, k: Fraction(n, 10**k), st.integers(-9, 9), st.sampled_from([0, 0, 1]))
unsigned_constants = st.builds(lambda n, k: Fraction(n, 10**k), st.integers(0, 9), st.sampled_from([0, 0, 1]))


def constants_of(integers: bool = False, non_negative: bool = False):
    """The constants a fragment may write: decimals (one place at most) or integers, signed or not."""
    lowest = 0 if non_negative else -9
    if integers:
        return st.integers(lowest, 9).map(Fraction)
    return unsigned_constants if non_negative else small_constants

# What swarm testing (Groce et al., ISSTA 2012) may switch off in one program: each program of a
# swarm draw leaves out about half of these, so that one construct's bug is not drowned by
# another's, and constructs meet in combinations a fixed distribution rarely draws.
SWARM_FEATURES = ("+", "-", "*", "/", "app", "let", "call", "dot", "decouple", "prov", "share", "iterated", "vector-ops")
ARITHMETIC = ("+", "-", "*", "/")


class Gen:
    def __init__(self, draw, decoupling: bool, iterated: bool, division: bool = True, vector_ops: bool = True,
                 decoupling_values: bool = True, signed: bool = True, sharing: bool = False,
                 off: frozenset = frozenset(), provisional: bool = True, integers: bool = False,
                 non_negative: bool = False, operators: tuple = ARITHMETIC, scopes: bool = False):
        self.draw = draw
        self.scopes = scopes  # binding chains (Gen.chain): deep environments, far and repeated uses
        self.off = off  # swarm testing: the constructs this program goes without (SWARM_FEATURES)
        # the fragment (what the implementation has): provisional constants at all (without them,
        # no decoupling), integer constants only, no negative constant, the arithmetic operators
        self.provisional = provisional
        self.arithmetic = tuple(op for op in ARITHMETIC if op in operators and (op != "/" or division))
        self.decoupling = decoupling and provisional and "decouple" not in off
        self.vector_ops = vector_ops and "vector-ops" not in off  # ⊞ ⊠ • and their overloaded + * on vectors
        self.iterated = iterated and self.vector_ops and "iterated" not in off
        self.division = division
        self.decoupling_values = decoupling_values  # A(f,x). t as a value (not only let f @ p = t in u)
        self.sharing = sharing and "share" not in off  # let x = … in (x used two or three times): share()
        # provisional constants: signed, or (for a notation without negative numbers) not
        self.constants = constants_of(integers, non_negative or not signed)
        self.definitive = constants_of(integers, non_negative)
        self.counter = 0
        self.used: list[str] = []

    def operators(self) -> list[str]:
        """The arithmetic operators this program may use: the fragment's (all of them if swarm
        left none; none at all if the fragment has none)."""
        allowed = list(self.arithmetic)
        kept = [op for op in allowed if op not in self.off]
        return kept or allowed

    def join(self, left: S.Term, right: S.Term, among: tuple = ()) -> S.Term:
        """Both evaluated, their values combined: by one of `among` that the fragment has (one
        alone is taken without a draw, so that the full fragment draws as it always did), else
        by any operator it has, or, without any, (λz. right) left."""
        ops = [op for op in among if op in self.arithmetic] if among else self.operators()
        if not ops and among:
            ops = self.operators()
        if len(ops) == 1 and among:
            return S.BinOp(ops[0], left, right)
        if ops:
            return S.BinOp(self.draw(st.sampled_from(ops)), left, right)
        z = self.fresh("z")
        return S.App(S.Lam(z, F, right), left)

    def kinds(self, kinds: list[str]) -> list[str]:
        """`kinds` less those swarm switched off (a kind is named as its feature)."""
        return [k for k in kinds if k not in self.off]

    def fresh(self, stem: str) -> str:
        self.counter += 1
        name = f"{stem}{self.counter}"
        self.used.append(name)
        return name

    def binder(self, stem: str, ctx: list[tuple[str, Type]], avoid: tuple[str, ...] = ()) -> str:
        """A name for a new variable: usually fresh, but one time in four a name already used
        in this program — shadowing a variable in scope, or repeating a sibling's binder — so
        the properties exercise name handling. A variable of a vector type is never shadowed
        (inside its decoupling it must stay reachable)."""
        visible = dict(ctx)
        reusable = [n for n in dict.fromkeys(self.used) if n not in avoid and not isinstance(visible.get(n), Vec)]
        if reusable and self.draw(st.integers(0, 3)) == 0:
            return self.draw(st.sampled_from(reusable))
        return self.fresh(stem)

    # ---- choices -------------------------------------------------------------
    def arg_types(self, names: list[str]) -> list[Type]:
        types = [F, Arrow(F, F)]
        types += [Vec(a) for a in names]
        return types

    def term(self, ctx: list[tuple[str, Type]], t: Type, names: list[str], depth: int) -> S.Term:
        d = self.draw
        if isinstance(t, Arrow):
            return self.function(ctx, t, names, depth)
        if isinstance(t, Vec):
            return self.vector(ctx, t, names, depth)
        # t is F
        vars_f = [x for x, ty in ctx if ty == F]
        leaves = self.kinds(["const"] + (["prov"] if self.provisional else [])) + (["var"] * 2 if vars_f else [])
        leaves = leaves or ["const"]
        if depth <= 0:
            kind = d(st.sampled_from(leaves))
        else:
            kinds = leaves + (["op", "op"] if self.operators() else []) + self.kinds(["app", "let", "call"])
            if names and self.vector_ops:
                kinds += self.kinds(["dot", "dot"])
            if self.decoupling:
                kinds += ["decouple", "decouple"]
            if self.sharing and self.operators():
                kinds += ["share", "share"]
            compound = [k for k in kinds if k not in leaves]
            if self.off and compound:  # swarm: as often a leaf as with every construct on
                kind = d(st.sampled_from(leaves)) if d(st.integers(0, 3)) == 0 else d(st.sampled_from(compound))
            else:
                kind = d(st.sampled_from(kinds))
        if kind == "const":
            return S.Const(d(self.definitive))
        if kind == "prov":
            return S.Prov(d(self.constants))
        if kind == "var":
            return S.Var(d(st.sampled_from(vars_f)))
        if kind == "share":
            return self.share(ctx, names, depth)
        if kind == "op":
            op = d(st.sampled_from(self.operators()))
            return S.BinOp(op, self.term(ctx, F, names, depth - 1), self.term(ctx, F, names, depth - 1))
        if kind == "dot":
            a = d(st.sampled_from(names))
            return S.BinOp("•", self.term(ctx, Vec(a), names, depth - 1), self.term(ctx, Vec(a), names, depth - 1))
        if kind == "app":
            return self.application(ctx, F, names, depth)
        if kind == "let":
            return self.let(ctx, F, names, depth)
        if kind == "call":
            return self.call(ctx, F, names, depth)
        return self.decouple(ctx, F, names, depth)

    def application(self, ctx, t, names, depth):
        a = self.draw(st.sampled_from(self.arg_types(names)))
        fun = self.term(ctx, Arrow(a, t), names, depth - 1)
        arg = self.term(ctx, a, names, depth - 1)
        return S.App(fun, arg)

    def let(self, ctx, t, names, depth):
        a = self.draw(st.sampled_from(self.arg_types(names)))
        x = self.binder("x", ctx)
        bound = self.term(ctx, a, names, depth - 1)
        body = self.term(bind(ctx, x, a), t, names, depth - 1)
        return S.Let(x, a, bound, body)

    def shared(self, ctx, names, depth):
        """One provisional constant used twice: let x = {c} in x $ (x $ u) — the sharing the
        paper's linearity examples are about (one parameter, however often it is used)."""
        d = self.draw
        x = self.binder("x", ctx)
        inner = bind(ctx, x, F)
        rest = self.term(inner, F, names, depth - 1)
        ops = [op for op in ("+", "-", "*") if op in self.arithmetic] or self.operators()
        if ops:  # the outer operator drawn first, as it always was
            body = S.BinOp(d(st.sampled_from(ops)), S.Var(x), S.BinOp(d(st.sampled_from(ops)), S.Var(x), rest))
        else:
            body = self.join(S.Var(x), self.join(S.Var(x), rest))
        return S.Let(x, F, S.Prov(d(self.constants)), body)

    def share(self, ctx, names, depth, what=None, where=None):
        """A sharing pattern: let x = s in u, with x used two to five times in u — s a
        provisional constant, a variable, a function or any term — and the uses in any operand
        position, or split between a decoupling's model and its body (where one constant must
        stay one parameter however often, and on whichever side, it is used), or all of it
        inside a decoupling's model. `what` and `where`: the sharing asked for, not drawn."""
        d = self.draw
        vars_f = [y for y, ty in ctx if ty == F]
        what = what or d(st.sampled_from((["prov", "prov"] if self.provisional else []) + ["fun", "term"]
                                         + (["var"] if vars_f else []) + ["closure"]))
        if what == "closure":
            return self.shared_closure(ctx, names, depth)
        x = self.binder("x", ctx)
        if what == "fun":
            ty: Type = Arrow(F, F)
            bound = self.function(ctx, ty, names, depth - 1)
        else:
            ty = F
            bound = (S.Prov(d(self.constants)) if what == "prov" else S.Var(d(st.sampled_from(vars_f))) if what == "var"
                     else self.term(ctx, F, names, depth - 1))
        inner = bind(ctx, x, ty)

        def use(scope) -> S.Term:
            return S.Var(x) if ty == F else S.App(S.Var(x), self.term(scope, F, names, max(depth - 2, 0)))

        n = d(st.integers(2, 5))  # a contraction of up to five uses: a machine's wide contraction nodes
        where = where or (d(st.sampled_from(["operands", "within a model", "model", "model and body"]))
                          if self.decoupling else "operands")
        if where == "within a model":  # let f @ p = (let x = s in …x…x…) in …
            model = S.Let(x, ty, bound, self.mix(inner, [use(inner) for _ in range(n)], names, depth))
            return self.decouple(ctx, F, names, depth, model=model, observed=True)
        if where == "operands":
            body = self.mix(inner, [use(inner) for _ in range(n)], names, depth)
        else:
            uses_in_model = n if where == "model" else 1
            model = self.mix(inner, [use(inner) for _ in range(uses_in_model)], names, depth)
            body = self.decouple(inner, F, names, depth, model=model, observed=True)
            if where == "model and body":
                body = self.mix(inner, [body] + [use(inner) for _ in range(n - 1)], names, 0)
        return S.Let(x, ty, bound, body)

    def shared_closure(self, ctx, names, depth):
        """Sharing inside sharing: a computed value used two to four times by a function that is
        itself used two to four times — let x = s in let f = λy. …x…x…y… in …(f a)…(f b)… — so
        the function's box, copied at each use, copies its own contraction of x (the boxes
        copied inside copied boxes where a token machine's copying goes wrong)."""
        d = self.draw
        x = self.binder("x", ctx)
        bound = self.term(ctx, F, names, max(depth - 1, 1))
        inner = bind(ctx, x, F)
        y = self.binder("y", inner, avoid=(x,))
        body = self.mix(bind(inner, y, F), [S.Var(x)] * d(st.integers(2, 4)) + [S.Var(y)], names, max(depth - 2, 0))
        f = self.binder("f", inner, avoid=(x,))
        outer = bind(inner, f, Arrow(F, F))
        uses = [S.App(S.Var(f), self.term(outer, F, names, max(depth - 2, 0))) for _ in range(d(st.integers(2, 4)))]
        return S.Let(x, F, bound, S.Let(f, Arrow(F, F), S.Lam(y, F, body), self.mix(outer, uses, names, depth)))

    def chain(self, ctx, names, depth):
        """A binding chain: 2–5 binders, each a `let` or an applied λ, their bound terms free to
        use the binders before them (a bound function captures them: a closure), then a body
        that uses the chain's variables — the outermost most often, some two or three times.
        What an environment or token machine gets wrong with depth: a variable found one frame
        off, a closure capturing the wrong binding, a contraction of three or more uses, a
        copied function. The chain's length does not depend on `depth`, so even the survey's
        first stages, where depth is 2 or 3, draw deep environments."""
        d = self.draw
        binders = []
        inner = ctx
        for _ in range(d(st.integers(2, 5))):
            form = d(st.sampled_from(self.kinds(["let", "app"]) or ["let"]))
            ty = d(st.sampled_from([F, F, Arrow(F, F), Arrow(F, Arrow(F, F))]))  # a curried function too
            x = self.binder("x", inner)
            bound = self.term(inner, ty, names, max(depth - 2, 0))
            binders.append((form, x, ty, bound))
            inner = bind(inner, x, ty)
        visible = [(x, ty) for x, ty in inner if any(x == b[1] for b in binders)]
        uses = []
        for _ in range(d(st.integers(1, 4))):
            i = d(st.integers(0, len(visible) - 1))
            x, ty = visible[min(i, d(st.integers(0, len(visible) - 1)))]  # the outer ones more often
            use: S.Term = S.Var(x)
            given: list = []
            while isinstance(ty, Arrow):  # a function applied to all its arguments, as far as
                arg = self.term(inner, F, names, 0)  # one more draw can, distinct ones (f 1 2:
                if arg in given:  # a parameter-order bug shows only there)
                    arg = self.term(inner, F, names, 0)
                given.append(arg)
                use, ty = S.App(use, arg), ty.cod
            uses += [use] * d(st.integers(1, 5))
        body = self.mix(inner, uses, names, max(depth - 1, 0))
        for form, x, ty, bound in reversed(binders):
            body = S.Let(x, ty, bound, body) if form == "let" else S.App(S.Lam(x, ty, body), bound)
        return body

    def mix(self, ctx, items: list, names, depth) -> S.Term:
        """The items combined by arithmetic in a drawn order, with a drawn other operand or none."""
        d = self.draw
        items = list(items)
        if depth > 0 and d(st.booleans()):
            items.append(self.term(ctx, F, names, depth - 1))
        order = d(st.permutations(range(len(items))))
        items = [items[i] for i in order]
        while len(items) > 1:
            i = d(st.integers(0, len(items) - 2))
            items[i:i + 2] = [self.join(items[i], items[i + 1])]
        return items[0]

    def call(self, ctx, t, names, depth):
        """A variable of a function type ending in t, applied to enough arguments."""
        candidates = []
        for x, ty in ctx:
            args = []
            while isinstance(ty, Arrow):
                args.append(ty.dom)
                ty = ty.cod
                if ty == t:
                    candidates.append((x, list(args)))
        if not candidates:
            return self.application(ctx, t, names, depth)
        x, args = self.draw(st.sampled_from(candidates))
        term: S.Term = S.Var(x)
        for a in args:
            term = S.App(term, self.term(ctx, a, names, depth - 1))
        return term

    def decouple(self, ctx, t, names, depth, model=None, observed=False):
        """let f @_a p : T' = model in body, with model : T' and body : t (t mentions no a).

        For t = F the body also uses the pair, so the decoupling rule really fires (it needs
        the body's box to reach the A-node through a ?-door): p • p, f p, f on modified
        parameters, or an iterated operation over p; `observed`: one that reads p itself
        (use()).
        """
        d = self.draw
        model_type = F if model is not None else d(st.sampled_from([F, F, Arrow(F, F)]))
        a = self.fresh("a")
        f = self.binder("f", ctx)
        p = self.binder("p", ctx, avoid=(f,))
        if model is not None:
            pass  # given (share(): a model using a shared variable)
        elif model_type == F and depth >= 2 and d(st.integers(0, 3)) == 3:  # shrinks towards the plain model
            model = self.shared_model(ctx, names, depth - 1)
        else:
            model = self.term(ctx, model_type, names, depth - 1)
        inner = bind(bind(ctx, f, Arrow(Vec(a), model_type)), p, Vec(a))
        body = self.term(inner, t, names + [a], depth - 1)
        if t == F:
            body = self.join(self.use(inner, f, p, a, model_type, names + [a], observed), body, ("+",))
        return S.LetDecouple(f, p, a, model_type, model, body)

    def shared_model(self, ctx, names, depth):
        """A model that shares, where a token machine's copying inside a decoupling goes wrong:
        one provisional constant used twice (shared()), or, with the search's sharing patterns,
        a function applied two to five times inside the model (its box copied there), or a
        function over a shared computed value, itself used several times (shared_closure)."""
        kind = self.draw(st.integers(0, 2)) if self.sharing else 0
        if kind == 1:
            return self.share(ctx, names, depth, what="fun", where="operands")
        if kind == 2:
            return self.shared_closure(ctx, names, depth)
        return self.shared(ctx, names, depth)

    def use(self, ctx, f, p, a, model_type, names, observed: bool = False) -> S.Term:
        """A term of type F using the decoupled pair (f, p). `observed` (a model sharing a
        constant, share()): one that reads the parameter vector p itself, where the fragment has
        vector operations — f p and f (k ⊠ p) evaluate the model, and give the same value
        whether a constant it uses twice is one parameter or two; p • p does not."""
        d = self.draw
        kinds = (["dot", "apply", "modified"] if self.vector_ops else ["apply"]) + (["iadd", "imul"] if self.iterated else [])
        if observed and self.vector_ops:
            kinds = [k for k in kinds if k not in ("apply", "modified")]
        kind = d(st.sampled_from(kinds))
        pv = S.Var(p)
        e = self.fresh("e")
        if kind == "dot":
            return S.BinOp("•", pv, pv)
        if kind == "iadd":
            return S.BinOp("•", S.BinOp("+^L", S.Lam(e, Vec(a), S.BinOp("⊞", S.Var(e), pv)), pv), pv)
        if kind == "imul":
            return S.BinOp("•", S.BinOp("*^L", S.Lam(e, Vec(a), S.BinOp("•", S.Var(e), pv)), pv), pv)
        arg: S.Term = pv if kind == "apply" else S.BinOp("⊠", S.Const(d(self.definitive)), pv)
        applied: S.Term = S.App(S.Var(f), arg)
        if model_type != F:
            applied = S.App(applied, self.term(ctx, F, names, 0))
        return applied

    def function(self, ctx, t: Arrow, names, depth):
        d = self.draw
        matching = [x for x, ty in ctx if ty == t]
        options = ["lam", "lam"] + (["var"] if matching else [])
        if depth > 0:
            options += self.kinds(["app", "call"])
            if self.decoupling and self.decoupling_values:
                options += ["decoupling_value"]
        kind = d(st.sampled_from(options))
        if kind == "var":
            return S.Var(d(st.sampled_from(matching)))
        if kind == "app":
            return self.application(ctx, t, names, depth)
        if kind == "call":
            return self.call(ctx, t, names, depth)
        if kind == "decoupling_value":
            # A_a(f,x):T'. body, a function from models T' = t.dom to t.cod
            a = self.fresh("a")
            f = self.binder("f", ctx)
            p = self.binder("p", ctx, avoid=(f,))
            inner = bind(bind(ctx, f, Arrow(Vec(a), t.dom)), p, Vec(a))
            body = self.term(inner, t.cod, names + [a], depth - 1)
            return S.Decouple(f, p, a, t.dom, body)
        x = self.binder("x", ctx)
        body = self.term(bind(ctx, x, t.dom), t.cod, names, depth - 1)
        return S.Lam(x, t.dom, body)

    def vector(self, ctx, t: Vec, names, depth):
        d = self.draw
        vars_v = [x for x, ty in ctx if ty == t]
        # Inside the decoupling that binds a, its parameter p : V_a is always in ctx.
        assert vars_v, f"no variable of type {t} in scope"
        options = ["var"] * 3
        if depth > 0:
            options += ["vadd", "smul", "app"] if self.vector_ops else ["app"]
            if self.iterated:
                options += ["iadd", "imul"]
        kind = d(st.sampled_from(self.kinds(options) or ["var"]))
        if kind == "var":
            return S.Var(d(st.sampled_from(vars_v)))
        sub = max(depth - 1, 0)
        if kind == "vadd":
            plus = ["+", "⊞"] if "+" in self.arithmetic else ["⊞"]  # + on vectors is a plus too
            return S.BinOp(d(st.sampled_from(plus)), self.term(ctx, t, names, sub), self.term(ctx, t, names, sub))
        if kind == "smul":
            times = ["*", "⊠"] if "*" in self.arithmetic else ["⊠"]
            return S.BinOp(d(st.sampled_from(times)), self.term(ctx, F, names, sub), self.term(ctx, t, names, sub))
        if kind == "iadd":
            return S.BinOp("+^L", self.term(ctx, Arrow(t, t), names, sub), self.term(ctx, t, names, sub))
        if kind == "imul":
            return S.BinOp("*^L", self.term(ctx, Arrow(t, F), names, sub), self.term(ctx, t, names, sub))
        return self.application(ctx, t, names, depth)


    def deep_decoupling(self, ctx, names, depth):
        """let y = e in let f @_a p = m in body, where m reaches e's constants through y."""
        d = self.draw
        y_type = d(st.sampled_from([F, F, Arrow(F, F)]))
        y = self.fresh("y")
        bound = self.term(ctx, y_type, names, depth - 1)
        if not any(isinstance(n, S.Prov) for n in S.walk(bound)):
            # make sure a provisional constant travels with y
            if y_type == F:
                bound = self.join(bound, S.Prov(d(self.constants)), ("+",))
            else:
                z = self.fresh("x")
                bound = S.Lam(z, F, self.join(S.App(bound, S.Var(z)), S.Prov(d(self.constants)), ("+",)))
        inner = ctx + [(y, y_type)]
        a = self.fresh("a")
        f, p = self.fresh("f"), self.fresh("p")
        model_type = d(st.sampled_from([F, Arrow(F, F)]))
        if model_type == F:
            use = S.Var(y) if y_type == F else S.App(S.Var(y), self.term(inner, F, names, 0))
            ops = [op for op in ("+", "*") if op in self.arithmetic]
            op = d(st.sampled_from(ops)) if len(ops) > 1 else None  # drawn before the operand, as it always was
            rest = self.term(inner, F, names, depth - 2)
            model = S.BinOp(op, use, rest) if op else self.join(use, rest, ("+", "*"))
        else:
            x = self.fresh("x")
            use = S.Var(y) if y_type == F else S.App(S.Var(y), S.Var(x))
            model = S.Lam(x, F, self.join(use, self.term(inner + [(x, F)], F, names, depth - 2), ("+",)))
        body_ctx = inner + [(f, Arrow(Vec(a), model_type)), (p, Vec(a))]
        body = self.term(body_ctx, F, names + [a], depth - 1)
        body = self.join(self.use(body_ctx, f, p, a, model_type, names + [a]), body, ("+",))  # so the rule fires
        return S.Let(y, y_type, bound, S.LetDecouple(f, p, a, model_type, model, body))


def bind(ctx: list[tuple[str, Type]], x: str, t: Type) -> list[tuple[str, Type]]:
    """The context extended with x : t, which hides any earlier x."""
    return [(y, u) for y, u in ctx if y != x] + [(x, t)]


SHAPES = ["any", "any", "decouple", "decouple", "deep", "deep"]


@composite
def programs(draw, max_depth: int = 4, decoupling: bool = True, iterated: bool = True, *, division: bool = True,
             vector_ops: bool = True, decoupling_values: bool = True, signed: bool = True, sharing: bool = False,
             swarm: bool = False, min_depth: int = 1, provisional: bool = True, integers: bool = False,
             non_negative: bool = False, operators: tuple = ARITHMETIC, scopes: bool = False,
             avoid: frozenset = frozenset(), weakening: bool = True) -> S.Term:
    """A closed program of type F. With decoupling, about two in three start with a
    decoupling at the top (one in three a deep one: the model reaches constants through a
    free variable); the rest are drawn freely, where decoupling also appears inside. With
    `sharing`, one in seven is a value bound outside a decoupling and used in its model (and
    its body): Gen.share.

    Fragments (for implementations that lack a construct): `iterated` (+^L, *^L),
    `division`, `vector_ops` (⊞ ⊠ • in source: a decoupled p is then only applied, f p),
    `decoupling_values` (A(f,x). t as a value; `let f @ p = t in u` stays); `signed=False`:
    no negative provisional constants (a notation without negative numbers cannot write them);
    `provisional=False`: no provisional constant at all, hence no decoupling (the λ, `let` and
    arithmetic every DGoIM has); `integers`: integer constants only; `non_negative`: no
    negative constant written; `operators`: the arithmetic operators drawn (a subset of
    + - * /; none at all is allowed too); `weakening=False`: fewer binders nobody uses (every
    unused `let` and applied λ dropped: `without_weakening`; an unused λ parameter or
    decoupled f stays, for the caller to refuse).
    For the search (oracle mode): `sharing` adds sharing patterns (Gen.share), `swarm` switches
    off a drawn subset of SWARM_FEATURES for the whole program (each with probability 1/2;
    shrinking switches them back on), `scopes` makes one in three of the programs of no
    particular shape a binding chain (Gen.chain: one in three without decoupling, one in nine
    with it, whose decoupling shapes keep their share), and `avoid` (features of SWARM_FEATURES, and
    `weakening`: what a dominant or known failure needs) is switched off in half the programs,
    so that bugs it hides are reached."""
    program = _program(max_depth, decoupling, iterated, division, vector_ops, decoupling_values, signed, sharing, swarm,
                       min_depth, provisional, integers, non_negative, operators, scopes, avoid)
    term = draw(program)
    drop = not weakening
    if "weakening" in avoid and not drop:  # half the programs, by the program itself: a drawn choice here is
        drop = zlib.crc32(repr(term).encode()) % 2 == 0  # one Hypothesis learns to make the cheap way
    if not drop:
        return term
    for _ in range(MENDS):  # what could not be mended is drawn again, within this branch (a rejection would
        mended = without_weakening(term)  # favour the other half)
        if not weakenings(mended):
            return mended
        term = draw(program)
    assume(False)
    return term


MENDS = 8  # programs drawn, at most, for one without a binder nobody uses

def without_weakening(term: S.Term) -> S.Term:
    """The term with fewer binders nobody uses — the weakening an implementation may lack: every
    `let` whose variable is unused, and every applied λ whose parameter is, replaced by its
    body (the bound term dropped); an unused scalar parameter put in the place of the body's
    first constant. Still a closed term of the same type (a decoupling's unused f or p stays)."""
    for i, child in enumerate(S.subterms(term)):
        term = S.with_child(term, i, without_weakening(child))
    if isinstance(term, S.Let) and term.var not in S.free_variables(term.body):
        return term.body
    if isinstance(term, S.App) and isinstance(term.fun, S.Lam) and term.fun.var not in S.free_variables(term.fun.body):
        return term.fun.body
    if isinstance(term, S.Lam) and term.annot == F and term.var not in S.free_variables(term.body):
        return S.Lam(term.var, term.annot, _first_constant_as(term.body, term.var))
    return term


def _first_constant_as(term: S.Term, x: str) -> S.Term:
    """The term with its first definitive constant outside any binder of x replaced by x."""
    todo = [((), term)]
    while todo:
        path, node = todo.pop()
        if isinstance(node, S.Const):
            return _replace(term, path, S.Var(x))
        if x in S.binds(node):
            continue
        children = S.subterms(node)
        todo += [(path + (i,), children[i]) for i in reversed(range(len(children)))]
    return term


def _replace(term: S.Term, path: tuple, new: S.Term) -> S.Term:
    if not path:
        return new
    return S.with_child(term, path[0], _replace(S.subterms(term)[path[0]], path[1:], new))


def weakenings(term: S.Term) -> int:
    """How many binders of the term nobody uses (λ, let, a decoupling's f or p): its weakenings."""
    count = 0
    for t in S.walk(term):
        if isinstance(t, (S.Lam, S.Let)):
            count += t.var not in S.free_variables(t.body)
        elif isinstance(t, (S.Decouple, S.LetDecouple)):
            free = S.free_variables(t.body)
            count += (t.f not in free) + (t.x not in free)
    return count


@composite
def _program(draw, max_depth, decoupling, iterated, division, vector_ops, decoupling_values, signed, sharing, swarm,
             min_depth, provisional, integers, non_negative, operators, scopes, avoid) -> S.Term:
    depth = draw(st.integers(min_value=min(min_depth, max_depth), max_value=max_depth))
    off = frozenset()
    if swarm and draw(st.booleans()):  # half the programs with every construct, half a swarm's
        off = frozenset(f for f in SWARM_FEATURES if draw(st.booleans()))
    if avoid and draw(st.booleans()):
        off = off | avoid
    gen = Gen(draw, decoupling, iterated, division, vector_ops, decoupling_values, signed=signed, sharing=sharing,
              off=off, provisional=provisional, integers=integers, non_negative=non_negative, operators=operators,
              scopes=scopes)
    shape = draw(st.sampled_from(SHAPES + (["across"] if gen.sharing else []))) if gen.decoupling and depth >= 2 else "any"
    if shape == "across":  # one value bound outside a decoupling, used in its model (and its body)
        return gen.share([], [], depth, where=draw(st.sampled_from(["model", "model and body"])))
    if shape == "any" and scopes and draw(st.integers(0, 2)) == 0:  # the decoupling shapes keep their share
        return gen.chain([], [], depth)
    if shape == "decouple":
        return gen.decouple([], F, [], depth)
    if shape == "deep":
        return gen.deep_decoupling([], [], depth)
    return gen.term([], F, [], depth)


@composite
def terms(draw, names: tuple[str, ...], context: tuple[tuple[str, Type], ...], type_: Type, max_depth: int = 4):
    """A term t with names | context | p⃗ ⊢ t : type_ (names: the vector names in scope,
    each with a variable of type V_a in the context)."""
    depth = draw(st.integers(min_value=0, max_value=max_depth))
    return Gen(draw, True, True).term(list(context), type_, list(names), depth)


@composite
def pairs(draw, type_: Type = F, max_depth: int = 3):
    """Two closed terms of the same type (for equivalence conjectures)."""
    return draw(terms((), (), type_, max_depth)), draw(terms((), (), type_, max_depth))


HOLE = "hole"


@composite
def contexts(draw, type_: Type = F, max_depth: int = 3):
    """A context C[□ : type_] of type F with one hole, as (plug, shape): plug(t) is the
    closed program C[t] for any closed t : type_. Shapes: `let h = □ in u`, the abductive
    `let f @ p = □ in u` (u may use f and p), or either under further operations."""
    gen = Gen(draw, True, True)
    depth = draw(st.integers(min_value=1, max_value=max_depth))
    kind = draw(st.sampled_from(["let", "abduct", "abduct"]))
    if kind == "let":
        body = gen.term([(HOLE, type_)], F, [], depth)
        make = lambda t: S.Let(HOLE, type_, t, body)  # noqa: E731
    else:
        a, f, p = "a0", "f0", "p0"
        body = gen.term([(f, Arrow(Vec(a), type_)), (p, Vec(a))], F, [a], depth)
        make = lambda t: S.LetDecouple(f, p, a, type_, t, body)  # noqa: E731
    wrap = draw(st.sampled_from(["none", "none", "op", "app"]))
    if wrap == "op":
        other = gen.term([], F, [], 1)
        return (lambda t: S.BinOp("+", make(t), other)), kind
    if wrap == "app":
        return (lambda t: S.App(S.Lam("z0", F, make(t)), S.Const(Fraction(1)))), kind
    return make, kind
