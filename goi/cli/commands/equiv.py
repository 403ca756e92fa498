"""`goi equiv`: decide program equivalence with z3, or search contexts separating two terms
(docs/CLI.md).

    goi equiv FILE0 FILE1 | -e P0 -e P1 [--division total|strict] [--timeout S] [--json]
    goi equiv --terms FILE0 FILE1 | -e T0 -e T1 [--context 'x:F, g:F -> F'] [--examples N] [--seed N]
"""

from __future__ import annotations

import argparse

from .. import exitcodes
from ..arguments import add_input_limit, positive_int, positive_seconds
from ..errors import Sourced, UsageError
from ..io import read_file, read_text, say, schema, write_json
from . import command
from ...equivalence.deadline import DEFAULT_WORK, Deadline

VERDICT_EXIT = {
    "equivalent": exitcodes.OK,
    "not equivalent": exitcodes.NOT_EQUIVALENT,
    "not comparable": exitcodes.NOT_COMPARABLE,
    "unknown": exitcodes.UNDECIDED,
    "refuted": exitcodes.NOT_EQUIVALENT,
    "none found": exitcodes.UNDECIDED,
}



def parse_context(text: str):
    """--context 'x:F, g:F -> F': Γ as (name, type) pairs, types in the program syntax."""
    from ...semantics.errors import GoiError
    from ...semantics.parser import parse
    from ...semantics import syntax as S

    pairs = []
    for item in [i.strip() for i in text.split(",") if i.strip()]:
        name, colon, type_text = item.partition(":")
        name = name.strip()
        if not colon or not name or not type_text.strip():
            raise argparse.ArgumentTypeError(f"{item!r} is not NAME : TYPE")
        try:
            lam = parse(f"λ{name} : {type_text}. {name}")
        except GoiError:
            raise argparse.ArgumentTypeError(f"{item!r} is not NAME : TYPE (a variable and a type such as F -> F)") from None
        if not isinstance(lam, S.Lam) or lam.var != name or lam.annot is None:
            raise argparse.ArgumentTypeError(f"{item!r} is not NAME : TYPE")
        if any(name == seen for seen, _ in pairs):
            raise argparse.ArgumentTypeError(f"{name!r} is declared twice")
        pairs.append((name, lam.annot))
    return pairs


def read_two(args) -> list[tuple[str, str]]:
    """The two programs (or terms): two FILEs (- for standard input, once), or -e twice."""
    files, exprs = list(args.files or []), list(args.exprs or [])
    if len(files) + len(exprs) != 2:
        raise UsageError(f"give two programs (two FILEs, two -e TEXT, or one of each); got {len(files) + len(exprs)}")
    if files.count("-") > 1:
        raise UsageError("standard input (-) can be read once")
    limit = args.max_input_bytes
    return [(read_text(text, limit), "<-e>") for text in exprs] + [read_file(name, limit) for name in files]


def add_arguments(p) -> None:
    p.add_argument("files", nargs="*", metavar="FILE", help="two program files (- for standard input, once)")
    p.add_argument("-e", dest="exprs", action="append", metavar="TEXT", help="a program given on the command line (twice)")
    add_input_limit(p)
    p.add_argument("--division", choices=["total", "strict"], default="total", help="x/0 = 0, or undefined")
    p.add_argument("--work", type=positive_int, default=DEFAULT_WORK.units, metavar="N",
                   help=f"z3's work for the whole decision, in its resource units (default {DEFAULT_WORK.units}): the same "
                        "verdict on any machine at any load; past it the verdict is unknown (docs/CONJECTURES.md)")
    p.add_argument("--timeout", type=positive_seconds, default=None, metavar="S",
                   help="also stop after S seconds (a verdict that then depends on the machine's speed)")
    p.add_argument("--max-permutations", type=positive_int, default=720, metavar="N",
                   help="parameter permutations tried at most (default 720); more left untried is unknown")
    p.add_argument("--terms", action="store_true", help="compare two terms of one type in generated contexts")
    p.add_argument("--context", type=parse_context, metavar="'x:T, …'", help="with --terms: the free variables of open terms")
    p.add_argument("--examples", type=positive_int, default=200, metavar="N", help="with --terms: contexts to try (default 200)")
    p.add_argument("--seed", type=int, default=0, metavar="N", help="with --terms: the search's seed (default 0)")
    p.add_argument("--json", action="store_true", help="print one JSON object (UTF-8)")


def run(args, _source, out) -> int:
    from ... import api
    from ...equivalence import program_equivalence
    from ...semantics.errors import GoiError
    from ...semantics.parser import parse
    from ...semantics.stack import deep

    inputs = read_two(args)
    budget = Deadline(args.timeout, work=args.work)
    if args.context and not args.terms:
        raise UsageError("--context declares the free variables of open terms: use it with --terms")
    if args.terms:
        from ...laws.term_equivalence import term_equivalence  # contexts are drawn: Hypothesis

        terms = []
        for text, name in inputs:
            try:
                terms.append(deep(parse, text))
            except GoiError as exc:
                raise Sourced(exc, text, name) from None
        search = term_equivalence(terms[0], terms[1], context=args.context or (), examples=args.examples,
                                  division=args.division, deadline=budget, seed=args.seed)
        payload = {"schema": schema("equiv"), "mode": "terms", "division": args.division, **search.to_json(),
                   "compared": [text.strip() for text, _ in inputs]}
        if args.json:
            write_json(payload)
        elif search.verdict == "refuted":
            pv = search.program_verdict
            assert pv is not None and search.programs is not None
            cut = f"; the {_kind(args)} budget ended its shrinking, it may not be the smallest" if search.timed_out else ""
            say(f"NOT EQUIVALENT: the context  {search.context}  separates them (after {search.contexts} contexts{cut})")
            say(f"  C[t0] = {search.programs[0]}")
            say(f"  C[t1] = {search.programs[1]}")
            say(f"  {pv.verdict}: {pv.reason}")
            _say_witness(say, pv)
        else:
            stopped = f"; the {_kind(args)} budget ({_option(args)}) ended the search" if search.timed_out else ""
            say(f"NO SEPARATING CONTEXT FOUND in {search.contexts} contexts ({search.unknown} undecided, "
                f"{search.skipped} skipped{stopped}); this is not a proof of equivalence")
        return VERDICT_EXIT[search.verdict]

    judgements = []
    for text, name in inputs:
        try:
            judgements.append(api.check(text))
        except GoiError as exc:
            raise Sourced(exc, text, name) from None
    verdict = program_equivalence(judgements[0], judgements[1], division=args.division, deadline=budget,
                                  max_permutations=args.max_permutations)
    if args.json:
        write_json({"schema": schema("equiv"), "mode": "programs", **verdict.to_json(),
                    "compared": [text.strip() for text, _ in inputs]})
    else:
        say(f"{verdict.verdict.upper()}: {verdict.reason}")
        if verdict.symbolic:
            say(f"  e0(q⃗) = {verdict.symbolic[0]}")
            say(f"  e1(q⃗) = {verdict.symbolic[1]}")
        _say_witness(say, verdict)
    return VERDICT_EXIT[verdict.verdict]


def _kind(args) -> str:
    return "time" if args.timeout is not None else "work"


def _option(args) -> str:
    return f"--timeout {args.timeout:g}" if args.timeout is not None else f"--work {args.work}"


def _say_witness(say, verdict) -> None:
    w = verdict.witness
    if w is None:
        return
    q = ", ".join(map(str, w.witness))
    moved = ", ".join(str(w.witness[i]) for i in w.permutation)
    say(f"  witness: --params {q} gives {w.left}; the second program with --params {moved} gives {w.right}")


COMMAND = command("equiv", order=50, help="decide program equivalence with z3 (or search contexts separating two terms)",
                  add_arguments=add_arguments, run=run)
