"""Classification: the class of one program's outcome (agree, wrong-value, …) and the failure's
signature, what tells one bug of an implementation from another (docs/ORACLE.md, Classes and
Buckets).

Oracle mode puts every failing program of a run into the bucket of its signature and shrinks
each bucket on its own, keeping the signature, so two bugs show as two minimal programs and
the shrinker never slides from one bug to another. A signature is the failure's class and:

- for an implementation error, the exception named on its standard error (`TypeError: …`,
  the last such line, as a Python traceback or a JavaScript stack prints it), else its own
  message (`{"error": …}`), else its exit status; for a rejection, its message — the text
  folded so that one cause reads the same on every program: numbers, quoted text, paths,
  addresses and the program's own names become `N`, `'…'`, `PATH`, `N` and `NAME`;
- for a wrong value, the kind of difference: the opposite sign, floating-point rounding
  (within a millionth), a vector's length, a function for a number (and the like), a
  non-finite number, a value where the program is undefined, or any other value;
- for a hang or an ill-typed program accepted, the class alone.

`klass(expected, answer, well_typed, arithmetic)` is a plain function of goi's outcome, the
implementation's answer and the declared arithmetic; `signature(case)` one of the case (the
text, our outcome, the answer).
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Optional

from goi.folding import fold, program_names

# the classes of outcome (docs/ORACLE.md, Classes): what happened to one program put to both implementations
AGREE = "agree"
WRONG_VALUE = "wrong-value"
IMPL_ERROR = "implementation-error"
HANG = "hang"
REJECTS_VALID = "rejects-valid"
ACCEPTS_INVALID = "accepts-invalid"
CLASSES = (AGREE, WRONG_VALUE, IMPL_ERROR, HANG, REJECTS_VALID, ACCEPTS_INVALID)
FAILURES = CLASSES[1:]
# not a class: a program goi's own machine could not finish within its budgets (--max-nodes,
# --max-steps) has no expected outcome; it is skipped and counted, never sent
BEYOND = "beyond-budget"
OUTSIDE = "ill-typed: outside the "  # how our outcome starts for a constant the declared arithmetic has no value for

_EXCEPTION = re.compile(r"^\s*(?:Uncaught\s+)?((?:[A-Za-z_][\w$]*\.)*[A-Za-z_][\w$]*(?:Error|Exception|Panic|Fault))\b:?(.*)$")
_PANIC = re.compile(r"^\s*(thread '.*' panicked at|panic:|fatal error:|Segmentation fault|Aborted)(.*)$", re.I)


def klass(expected, answer, well_typed: bool, arithmetic) -> str:
    """The class of an answer (oracle.protocols.Answer) to a program whose outcome on goi's
    machine is `expected` (a value, "undefined", or, ill-typed, not `well_typed`), judged in the
    declared `arithmetic` (oracle.arithmetic.Declared, with the run's tolerance)."""
    if answer.kind == "hang":
        return HANG
    if not well_typed:  # not a program we evaluate: anything but a value is a refusal
        return ACCEPTS_INVALID if answer.kind == "value" else AGREE
    if answer.kind in ("crash", "unparseable"):
        return IMPL_ERROR
    if answer.kind == "rejected":
        return REJECTS_VALID
    if answer.kind == "error":
        return AGREE if expected == "undefined" else IMPL_ERROR
    if expected == "undefined":
        return WRONG_VALUE
    return AGREE if arithmetic.same(expected, answer.value) else WRONG_VALUE


def exception_line(stderr: str) -> Optional[str]:
    """The last line of a standard error naming an exception (`TypeError: …`), a panic or a
    fatal signal, if any."""
    found = None
    for line in stderr.splitlines():
        if _EXCEPTION.match(line) or _PANIC.match(line):
            found = line.strip()
    return found


def error_detail(answer, text: str) -> str:
    """What distinguishes one implementation error (or rejection) from another."""
    names = program_names(text)
    if answer.kind == "unparseable":
        return "an answer that is not the protocol's"
    line = exception_line(answer.stderr or "")
    if line is None and answer.kind == "crash":
        line = exception_line(answer.message or "")
    if line is not None:
        return fold(line, names)
    if answer.message:
        return fold(answer.message, names)
    if answer.kind == "crash":
        return f"exit status {answer.exit}" if answer.exit is not None else "crash"
    return "(no message)"


def difference(expected, got) -> str:
    """The kind of a wrong value's difference (module docstring)."""
    if isinstance(expected, float):  # an arithmetic of doubles: its non-finite values as the protocol writes them
        if expected != expected or expected in (float("inf"), float("-inf")):
            expected = "NaN" if expected != expected else ("Infinity" if expected > 0 else "-Infinity")
            return "a finite number for a non-finite one" if isinstance(got, Fraction) else "another non-finite number"
        expected = Fraction(expected)
    if isinstance(expected, tuple):
        expected = tuple(Fraction(e) if isinstance(e, float) and e == e and abs(e) != float("inf") else e
                         for e in expected)
    if expected == "undefined":
        return "a value where the program is undefined"
    if isinstance(got, str) and got != "λ":
        return "a non-finite number"
    if isinstance(expected, tuple) or isinstance(got, tuple):
        if not (isinstance(expected, tuple) and isinstance(got, tuple)):
            return "a vector for a scalar" if isinstance(got, tuple) else "a scalar for a vector"
        if len(expected) != len(got):
            return "a vector of another length"
        kinds = [difference(e, g) for e, g in zip(expected, got) if e != g]
        return kinds[0] if len(set(kinds)) == 1 else "vector components differ in several ways"
    if expected == "λ" or got == "λ":
        return "a function for a number" if got == "λ" else "a number for a function"
    assert isinstance(expected, Fraction) and isinstance(got, Fraction)
    if got == -expected:
        return "the opposite sign"
    if expected != 0 and abs(got - expected) <= Fraction(1, 10**6) * abs(expected):
        return ROUNDING
    # A constant factor (2 for 1) or a zero is not a kind of its own: one bug gives 2 for 1 on
    # one program and 3 for 2 on the next (the zoo's duplicated constant), and split so, it
    # showed as two buckets, the second shrunk only as far as its ratio allowed.
    return "another value"


ROUNDING = "a rounding difference"  # within a millionth: the arithmetic, not a construct (Splitting: never split)


def signature(case) -> str:
    """The case's signature (module docstring): `class` or `class: detail`."""
    if case.klass in (HANG, ACCEPTS_INVALID) or case.answer is None:
        return case.klass
    if case.klass == WRONG_VALUE:
        return f"{case.klass}: {difference(case.expected, case.answer.value)}"
    return f"{case.klass}: {error_detail(case.answer, case.text)}"


_PARSER_WORDS = re.compile(r"\b(pars(e|er|ing)|syntax|lex(er|ing)?|token|unexpected (char|character|input|end|symbol)|"
                           r"expected .* (at|got|but)|unrecogni[sz]ed|invalid (char|character|number|literal))\b", re.I)


def looks_like_parser(signature_: str) -> bool:
    """Whether a bucket looks like the implementation's parser refusing our text: a rejection
    or an error whose message speaks of parsing (a syntax error, an unexpected token) — the
    only buckets for which the notation is worth suspecting. A rejection that says nothing of
    parsing (an adapter that labels a compiler's crash a rejection) is not blamed on it."""
    klass, _, detail = signature_.partition(": ")
    return klass in (REJECTS_VALID, IMPL_ERROR) and bool(_PARSER_WORDS.search(detail))
