"""The conjecture catalogue (docs/CONJECTURES.md): laws with metavariables, instantiated by
the generators and decided instance by instance.

A law is either a *program law* (each instance is two closed programs of type F, decided by
goi.equivalence) or a *context law* (each instance is two terms plus a generated
context C[ ] of type F; C[lhs] vs C[rhs] is decided as programs). Each law has an expected
status: `holds` (no instance may be refuted), `fails` (the search must find a refutation by
itself) or `open` (whatever is found is reported: the paper's Conjecture "Congruence of
graph equivalence"). A refutation is shrunk by Hypothesis (`find`) to a minimal instance,
and every NOT_EQUIVALENT among them carries a witness the exact machine replayed.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Callable, Optional

from hypothesis import HealthCheck, Phase, find, settings
from hypothesis import strategies as st
from hypothesis.errors import NoSuchExample, Unsatisfiable

from goi import api
from goi.generators.typed import contexts, small_constants, terms
from goi.generators.composite import composite
from goi.semantics import syntax as S
from goi.semantics.errors import GoiError
from goi.semantics.pretty import pretty
from goi.semantics.types import Arrow, F, Type

from goi.progress import PROGRESS
from goi import equivalence  # the decision (z3) is loaded when first used: equivalence.program_equivalence
from goi.equivalence import EQUIVALENT, NOT_COMPARABLE, NOT_EQUIVALENT, UNKNOWN
from .term_equivalence import show_context

HOLDS, FAILS, OPEN = "holds", "fails", "open"
REFUTED, SURVIVED, UNTESTED = "refuted", "survived", "untested"  # untested: no instance was decided


# ---- term surgery for instances ------------------------------------------------------------

def definitive(t: S.Term) -> S.Term:
    """t with every provisional constant made definitive ({c} → c)."""
    if isinstance(t, S.Prov):
        return S.Const(t.value)
    if isinstance(t, (S.Var, S.Const)):
        return t
    if isinstance(t, S.Lam):
        return S.Lam(t.var, t.annot, definitive(t.body))
    if isinstance(t, S.App):
        return S.App(definitive(t.fun), definitive(t.arg))
    if isinstance(t, S.BinOp):
        return S.BinOp(t.op, definitive(t.left), definitive(t.right))
    if isinstance(t, S.Decouple):
        return S.Decouple(t.f, t.x, t.name, t.annot, definitive(t.body))
    if isinstance(t, S.Let):
        return S.Let(t.var, t.annot, definitive(t.bound), definitive(t.body))
    if isinstance(t, S.LetDecouple):
        return S.LetDecouple(t.f, t.x, t.name, t.annot, definitive(t.bound), definitive(t.body))
    raise TypeError(f"not a term: {t!r}")


# ---- instance strategies -----------------------------------------------------------------
# Metavariables are drawn by goi.generators.typed (well typed by construction). Names the
# generators never make (they make a stem and a number) are used for the law's own binders.

def closed_f(depth: int = 2):
    return terms((), (), F, max_depth=depth)


@composite
def definitive_values(draw, type_: Type):
    """A closed value of type F or F → F with no provisional constant."""
    if type_ == F:
        return S.Const(draw(small_constants))
    body = definitive(draw(terms((), (("yy", F),), F, max_depth=2)))
    return S.Lam("yy", F, body)


@composite
def beta_instances(draw, depth: int = 2):
    type_ = draw(st.sampled_from([F, Arrow(F, F)]))
    v = draw(definitive_values(type_))
    t = draw(terms((), (("vv", type_),), F, max_depth=depth))
    return S.App(S.Lam("vv", type_, t), v), S.substitute(t, "vv", v)


@composite
def let_instances(draw, depth: int = 2):
    type_ = draw(st.sampled_from([F, Arrow(F, F)]))
    u = draw(terms((), (), type_, max_depth=depth))
    t = draw(terms((), (("vv", type_),), F, max_depth=depth))
    return S.Let("vv", type_, u, t), S.App(S.Lam("vv", type_, t), u)


def _binary(op: str, depth: int):
    return st.tuples(closed_f(depth), closed_f(depth)).map(lambda p: (S.BinOp(op, p[0], p[1]), S.BinOp(op, p[1], p[0])))


def _assoc(op: str, depth: int):
    return st.tuples(closed_f(depth), closed_f(depth), closed_f(depth)).map(
        lambda p: (S.BinOp(op, S.BinOp(op, p[0], p[1]), p[2]), S.BinOp(op, p[0], S.BinOp(op, p[1], p[2])))
    )


@composite
def let_floating_instances(draw, depth: int = 2, definitive_a: bool = False):
    """let xx = (let yy = a in b) in c  vs  let yy = a in let xx = b in c  (yy not free in c).

    Half of the instances put xx through a decoupling in c (`let f @ p = xx in p • p + c'`)
    with a provisional constant in a: a model's parameters are the provisional constants its
    graph reaches, and floating `let yy = a` out moves a's out of xx's. With
    `definitive_a`, a has no provisional constant."""
    ta = draw(st.sampled_from([F, Arrow(F, F)]))
    tb = draw(st.sampled_from([F, Arrow(F, F)]))
    a = draw(terms((), (), ta, max_depth=depth))
    b = draw(terms((), (("yy", ta),), tb, max_depth=depth))
    c = draw(terms((), (("xx", tb),), F, max_depth=depth))
    if draw(st.booleans()):
        if ta == F:
            a = S.BinOp("+", a, S.Prov(draw(small_constants)))
        use = S.BinOp("•", S.Var("pp"), S.Var("pp"))
        c = S.LetDecouple("ff", "pp", "aa", tb, S.Var("xx"), S.BinOp("+", use, c))
    if definitive_a:
        a = definitive(a)
    return S.Let("xx", tb, S.Let("yy", ta, a, b), c), S.Let("yy", ta, a, S.Let("xx", tb, b, c))


@composite
def eta_instances(draw, depth: int = 2):
    """λxx. f xx  vs  f, for a value f : F → F (a λ, provisional constants allowed)."""
    body = draw(terms((), (("yy", F),), F, max_depth=depth))
    f = S.Lam("yy", F, body)
    return S.Lam("xx", F, S.App(f, S.Var("xx"))), f


@composite
def gc_instances(draw, depth: int = 2):
    """let vv = v in t  vs  t, with vv not free in t and v a value with no provisional
    constant: the box of v is garbage (a C0 over it), which GC removes (Prop. "Garbage
    collection")."""
    type_ = draw(st.sampled_from([F, Arrow(F, F)]))
    v = draw(definitive_values(type_))
    t = draw(closed_f(depth))
    return S.Let("vv", type_, v, t), t


def fixed(left: str, right: str):
    from goi.semantics.parser import parse

    return st.just((parse(left), parse(right)))


def proven_pairs(depth: int = 2):
    """Candidate pairs for the congruence conjecture (only those z3 proves equivalent count)."""
    return st.one_of(_binary("+", depth), _binary("*", depth), _assoc("+", depth), _assoc("*", depth),
                     let_instances(depth), beta_instances(depth))


# ---- the catalogue -----------------------------------------------------------------------

@dataclass(frozen=True)
class Law:
    name: str
    statement: str
    expected: str  # holds | fails | open
    level: str  # program | context
    instances: Callable[[int], st.SearchStrategy]  # depth of the metavariables' terms -> instances
    type: Type = F  # the hole's type, for context laws
    paper: str = ""
    needs_proof: bool = False  # congruence: an instance counts only once z3 proves lhs ≐ rhs
    gc_cross_check: bool = False


LAWS: dict[str, Law] = {law.name: law for law in [
    Law("distinct-left", "{1}+2 ≉ 1+2", FAILS, "context", lambda _depth: fixed("{1}+2", "1+2"),
        paper='§"Program equivalence": decoupling observes {1}+2, 1+2, 1+{2} apart'),
    Law("distinct-right", "1+2 ≉ 1+{2}", FAILS, "context", lambda _depth: fixed("1+2", "1+{2}"),
        paper='§"Program equivalence"'),
    Law("distinct-sides", "{1}+2 ≉ 1+{2}", FAILS, "context", lambda _depth: fixed("{1}+2", "1+{2}"),
        paper='§"Program equivalence"'),
    Law("distinct-sharing", "(λx.x+x){1} ≉ {1}+{1}", FAILS, "context", lambda _depth: fixed("(λx.x+x){1}", "{1}+{1}"),
        paper="one provisional constant used twice is not two"),
    Law("distinct-discard", "(λx.0){1} ≉ 0", FAILS, "context", lambda _depth: fixed("(λx.0){1}", "0"),
        paper="a discarded provisional constant is still a parameter"),
    Law("beta-value", "(λx.t) v ≐ t[v/x], v a value with no provisional constant", HOLDS, "program",
        beta_instances, paper="β_v"),
    Law("let-application", "let x = u in t ≐ (λx.t) u", HOLDS, "program", let_instances,
        paper="let is application (§ syntax)"),
    Law("plus-commutes", "t + u ≐ u + t", HOLDS, "program", lambda d: _binary("+", d), paper="needs a permutation of p⃗"),
    Law("times-commutes", "t × u ≐ u × t", HOLDS, "program", lambda d: _binary("*", d), paper="needs a permutation of p⃗"),
    Law("plus-associates", "(t + u) + v ≐ t + (u + v)", HOLDS, "program", lambda d: _assoc("+", d)),
    Law("times-associates", "(t × u) × v ≐ t × (u × v)", HOLDS, "program", lambda d: _assoc("*", d)),
    Law("let-floating", "let x = (let y = a in b) in c ≐ let y = a in let x = b in c", FAILS, "program",
        let_floating_instances, paper="fails: floating a's provisional constants out of a model changes the "
                                      "parameters its decoupling extracts (found by the dev sweep)"),
    Law("let-floating-definitive", "the same, a with no provisional constant", HOLDS, "program",
        lambda d: let_floating_instances(d, definitive_a=True)),
    Law("eta-value", "λx. f x ≅ f, f a λ-value (in contexts)", HOLDS, "context", eta_instances, type=Arrow(F, F),
        paper="η for values"),
    Law("gc", "let x = v in t ≐ t, x unused, v a definitive value (and GC keeps the value)", HOLDS, "program",
        gc_instances, paper='Prop. "Garbage collection"', gc_cross_check=True),
    Law("congruence", "t0 ≐ t1 (proven by z3) implies C[t0] ≐ C[t1] for every context", OPEN, "context",
        proven_pairs, paper='Conjecture "Congruence of graph equivalence"', needs_proof=True),
]}


from goi.equivalence.deadline import Work  # noqa: E402  (the budgets below)


@dataclass(frozen=True)
class Budget:
    instances: int  # program laws: instances drawn
    contexts: int  # context laws: (instance, context) draws
    timeout: Work  # each program check's budget of z3 units: the same verdict at any load
    depth: int  # depth of the terms drawn for metavariables
    context_depth: int  # depth of the contexts' own terms


BUDGETS = {
    "ci": Budget(50, 100, Work(5_000_000), 2, 3),
    "dev": Budget(500, 2000, Work(20_000_000), 3, 3),
    "deep": Budget(2000, 10000, Work(50_000_000), 4, 4),
}


@dataclass
class Row:
    law: str
    statement: str
    expected: str
    verdict: str  # refuted | survived
    instances: int = 0  # instances (or instance × context) decided
    proven: int = 0  # program laws: instances z3 proved; congruence: pairs proven before their context was tried
    unknown: int = 0
    skipped: int = 0
    counterexample: Optional[dict] = None
    seconds: float = 0.0
    paper: str = ""

    @property
    def untested(self) -> bool:
        """No instance was decided (none drawn, or an exhaustive bound below the law's smallest
        instance): the law neither survived nor was refuted."""
        return self.instances == 0 and self.verdict != REFUTED

    @property
    def shown_verdict(self) -> str:
        return UNTESTED if self.untested else self.verdict

    @property
    def surprising(self) -> bool:
        return (self.expected == HOLDS and self.verdict == REFUTED) or \
            (self.expected == FAILS and self.verdict != REFUTED and not self.untested)

    def to_json(self) -> dict:
        return {
            "law": self.law, "statement": self.statement, "expected": self.expected, "verdict": self.shown_verdict,
            "surprising": self.surprising, "instances": self.instances, "proven": self.proven, "unknown": self.unknown,
            "skipped": self.skipped, "counterexample": self.counterexample, "seconds": round(self.seconds, 3),
            "paper": self.paper,
        }


LAW_WIDTH = max(len(name) for name in LAWS)  # the widest law name sets the column, so every row lines up
HEADER = f"{'law':<{LAW_WIDTH}} {'expected':<8} {'verdict':<9} {'tried':>6} {'proven':>6} {'unknown':>7} {'time':>7}  counterexample"


def format_row(r: Row) -> str:
    example = ""
    if r.counterexample:
        c = r.counterexample
        example = f"{c['left']}  vs  {c['right']}" + (f"  in  {c['context']}" if c.get("context") else "")
        example += f"  ({c['verdict']}" + (f", q⃗ = ({', '.join(c['witness'])})" if c.get("witness") else "") + ")"
    flag = " !" if r.surprising else ""
    return (f"{r.law:<{LAW_WIDTH}} {r.expected:<8} {r.shown_verdict + flag:<9} {r.instances:>6} {r.proven:>6} {r.unknown:>7} "
            f"{r.seconds:6.1f}s  {example}")


def _plugged(law: Law, plug, pair):
    return plug(pair[0]), plug(pair[1])


def decide_instance(law: Law, row: Row, pair, plug, proven, timeout: float, division: str, counting: bool = True) -> bool:
    """Whether one instance (a pair, in a context `plug` for a context law) refutes the law,
    counted in `row` while `counting`: an ill-typed instance, or (congruence) a pair z3 does
    not prove equivalent, is skipped."""
    if plug is not None:
        if law.needs_proof and not proven(pair):
            if counting:
                row.skipped += 1
            return False
        if counting and law.needs_proof:
            row.proven += 1
        left, right = _plugged(law, plug, pair)
    else:
        left, right = pair
    try:
        api.judge(left)
        api.judge(right)
    except GoiError:
        if counting:
            row.skipped += 1
        return False
    verdict = equivalence.program_equivalence(left, right, division=division, timeout=timeout)
    bad = verdict.verdict in (NOT_EQUIVALENT, NOT_COMPARABLE)
    if law.gc_cross_check and not bad:
        plain, collected = api.run(left), api.run(left, gc=True)
        bad = (plain.status, plain.value) != (collected.status, collected.value)
    if counting:
        row.instances += 1
        row.unknown += verdict.verdict == UNKNOWN
        row.proven += (verdict.verdict == EQUIVALENT) and not law.needs_proof
    return bad


def counterexample(law: Law, pair, plug, timeout: float, division: str = "total") -> dict:
    """A refuting instance as the report shows it, its witness replayed by the exact machine."""
    if plug is not None:
        left, right = _plugged(law, plug, pair)
        context = show_context(plug)
    else:
        (left, right), context = pair, None
    verdict = equivalence.program_equivalence(left, right, division=division, timeout=timeout)
    witness = verdict.witness
    return {
        "left": pretty(pair[0]), "right": pretty(pair[1]), "context": context,
        "programs": [pretty(left), pretty(right)],
        "verdict": verdict.verdict, "reason": verdict.reason,
        "witness": [str(v) for v in witness.witness] if witness else None,
        "values": [str(witness.left), str(witness.right)] if witness else None,
    }


def decide_law(law: Law, budget: Budget, seed: int = 0, division: str = "total") -> Row:
    """Put one law to the test (module docstring)."""
    started = time.perf_counter()
    row = Row(law.name, law.statement, law.expected, SURVIVED, paper=law.paper)
    counting = [True]
    proofs: dict[tuple[str, str], str] = {}

    def proven(pair) -> bool:
        key = (pretty(pair[0]), pretty(pair[1]))
        if key not in proofs:
            proofs[key] = equivalence.program_equivalence(pair[0], pair[1], division=division, timeout=budget.timeout).verdict
        return proofs[key] == EQUIVALENT

    examples = budget.contexts if law.level == "context" else budget.instances

    def refutes(drawn) -> bool:
        PROGRESS.tick(f"conjecture {law.name}", examples)
        if law.level == "context":
            pair, (plug, _kind) = drawn
            bad = decide_instance(law, row, pair, plug, proven, budget.timeout, division, counting[0])
        else:
            bad = decide_instance(law, row, drawn, None, proven, budget.timeout, division, counting[0])
        if bad:
            counting[0] = False
        return bad

    strategy = law.instances(budget.depth)
    if law.level == "context":
        strategy = st.tuples(strategy, contexts(law.type, max_depth=budget.context_depth))
    try:
        found = find(
            strategy, refutes,
            settings=settings(max_examples=examples, deadline=None, database=None,
                              report_multiple_bugs=False,  # stop at the first: Hypothesis' 10 s rule never reached
                              phases=[Phase.generate, Phase.shrink],
                              suppress_health_check=list(HealthCheck)),
            random=random.Random(seed),
        )
    except (NoSuchExample, Unsatisfiable):
        row.seconds = time.perf_counter() - started
        return row
    row.verdict = REFUTED
    if law.level == "context":
        pair, (plug, _kind) = found
    else:
        pair, plug = found, None
    row.counterexample = counterexample(law, pair, plug, budget.timeout, division)
    row.seconds = time.perf_counter() - started
    return row


def sweep(names, profile: str = "ci", seed: int = 0, on_row: Optional[Callable[[Row], None]] = None) -> list[Row]:
    budget = BUDGETS.get(profile, BUDGETS["dev"])
    rows = []
    for name in names:
        row = decide_law(LAWS[name], budget, seed)
        rows.append(row)
        if on_row is not None:
            on_row(row)
    return rows

