"""Oracle mode (goi.oracle: oracle/survey.py, oracle/protocols.py, oracle/sessions.py; goi oracle): mock
implementations in tests/oracle_mocks/, one per class of failure, each found and shrunk to
the minimal program of its pattern; a correct one gives no failure. Every run here is
seeded (the same programs, the same verdict on every run), and no verdict depends on the
machine's speed: shrinking is bounded in calls, not seconds; the mocks speak the persistent
protocol, so a program's answer takes milliseconds against a 0.5-s hang timeout (start-up is
the warm-up's, under its own 30-s timeout); shrunk programs are compared in canonical names."""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import subprocess
import sys
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Optional

import pytest
from hypothesis import HealthCheck, given, settings

import goi
from goi.cli import main
from goi.generators.typed import programs
from goi.oracle.protocols import call, parse_answer
from goi.oracle.sessions import Session
from goi.oracle.survey import (
    ACCEPTS_INVALID,
    AGREE,
    HANG,
    IMPL_ERROR,
    REJECTS_VALID,
    WRONG_VALUE,
    Oracle,
    Report,
    OracleConfig,
    same,
)
from goi.cli import exitcodes
from goi.semantics import syntax as S
from goi.oracle.notations import Inexpressible, render
from goi.semantics.parser import parse
from visualiser_grammar import NotVisualiser, recognise

MOCKS = Path(__file__).parent / "oracle_mocks"


def mock(name: str, *extra: str) -> list[str]:
    return [sys.executable, str(MOCKS / f"{name}.py"), *extra]


def run(name: str, **options):
    options.setdefault("max_programs", 40)
    options.setdefault("jobs", 2)
    options.setdefault("database", None)
    options.setdefault("corpus", False)
    options.setdefault("protocol", "lines")
    options.setdefault("shrink_calls", 1000)
    command = mock(name, "--lines") if options["protocol"] == "lines" else mock(name)
    return Oracle(OracleConfig(command=command, **options)).run()


# ---- the protocol -------------------------------------------------------------------------

@pytest.mark.parametrize("text,kind,value", [
    ("3", "value", Fraction(3)), ("0.1", "value", Fraction(1, 10)), ('{"value": 0.1}', "value", Fraction(1, 10)),
    ('{"value": [1, "1/3"]}', "value", (Fraction(1), Fraction(1, 3))), ("λ", "value", "λ"), ('"λ"', "value", "λ"),
    ("[1, 2]", "value", (Fraction(1), Fraction(2))), ("1/3", "value", Fraction(1, 3)), ("NaN", "value", "NaN"),
    ('{"rejected": "no"}', "rejected", None), ('{"error": "x"}', "error", None), ("hello", "unparseable", None),
    ("", "unparseable", None), ('{"value": true}', "unparseable", None), ("{}", "unparseable", None),
])
def test_answers_are_read_as_documented(text, kind, value):
    answer = parse_answer(text)
    assert (answer.kind, answer.value) == (kind, value)


@pytest.mark.parametrize("text,why", [
    ("[" * 100_000, "nested more than 16 deep"), ('{"value": 1e1000000}', "exponent beyond 1000"),
    ('{"value": 1e1000000000}', "exponent beyond 1000"), ('{"value": "1e99999"}', "exponent beyond 1000"),
    ("9" * 20_000, "more than 10000 digits"),
])
def test_an_absurd_answer_is_an_implementation_error_read_in_bounded_time(text, why):
    answer = parse_answer(text)  # 100000 '[' crashed the interpreter; 1e1000000000 never finished
    assert answer.kind == "unparseable" and why in answer.message
    assert parse_answer('{"value": ["1e3", "[not nested]"]}').kind == "unparseable"  # read, and refused by value
    assert parse_answer('{"value": [1e3, 2]}').value == (Fraction(1000), Fraction(2))


def test_comparison_exact_and_within_a_tolerance():
    assert same(Fraction(3, 10), Fraction(3, 10), None)
    assert not same(Fraction(3, 10), Fraction(0.30000000000000004), None)
    assert same(Fraction(3, 10), Fraction(0.30000000000000004), Fraction(1, 10**9))
    assert not same(Fraction(3, 10), Fraction(31, 100), Fraction(1, 10**9))
    assert same((Fraction(1), Fraction(2)), (Fraction(1), Fraction(2)), None) and not same((Fraction(1),), Fraction(1), None)
    assert not same(Fraction(0), "NaN", Fraction(1)) and same("λ", "λ", None)


def test_the_program_goes_to_a_file_where_the_command_says_file(tmp_path):
    answer = call(mock("correct", "{file}"), "(λx. x + x) {3}", timeout=30)
    assert (answer.kind, answer.value) == ("value", 6)


def test_a_hang_is_killed_with_its_whole_process_group():
    marker = "goi-oracle-test-sleeper"
    child = [sys.executable, "-c", "import time; time.sleep(300)", marker]
    script = f"import subprocess, time; subprocess.Popen({child!r}); time.sleep(300)"
    answer = call([sys.executable, "-c", script, marker], "1", timeout=1.0)
    assert answer.kind == "hang"
    left = subprocess.run(["pgrep", "-f", marker], capture_output=True, text=True).stdout.split()
    assert not left, f"still running: {left}"


def test_a_memory_limit_turns_a_runaway_allocation_into_an_implementation_error():
    answer = call([sys.executable, "-c", "x = bytearray(2 * 1024**3)"], "1", timeout=30, memory_mb=256)
    assert answer.kind == "crash" and "MemoryError" in answer.message


def test_endless_output_is_cut_off():
    answer = call([sys.executable, "-c", "import sys\nwhile True: sys.stdout.write('x' * 65536)"], "1", timeout=30)
    assert answer.kind == "crash" and "bytes of output" in answer.message


def test_a_persistent_session_is_restarted_after_a_crash_a_hang_or_a_wrong_answer():
    script = ("import json, sys, time\n"
              "for line in sys.stdin:\n"
              "    r = json.loads(line); p = r['program']\n"
              "    if p == 'crash': sys.exit(3)\n"
              "    if p == 'hang': time.sleep(300)\n"
              "    if p == 'other': print(json.dumps({'id': -1, 'value': 1}), flush=True); continue\n"
              "    if p == 'deep': print('[' * 100000, flush=True); continue\n"
              "    print(json.dumps({'id': r['id'], 'value': len(p) - 1}), flush=True)\n")
    session = Session([sys.executable, "-c", script], timeout=1.0)
    try:
        assert (session.ask("12").kind, session.ask("12").value) == ("value", 1)
        crash = session.ask("crash")
        assert crash.kind == "crash" and "exit status 3" in crash.message
        assert session.ask("hang").kind == "hang"
        assert session.ask("other").kind == "crash" and session.ask("123").value == 2
        deep = session.ask("deep")  # an absurd line is bounded before it is read (json would exhaust the stack)
        assert deep.kind == "crash" and "nested more than 16 deep" in deep.message and session.ask("12").value == 1
        assert session.starts == 5  # the first start, and one after each failure
    finally:
        session.close()


def test_a_session_that_does_not_answer_its_warm_up_is_a_crash():
    session = Session([sys.executable, "-c", "print('hello', flush=True)"], timeout=1.0)
    answer = session.ask("1")
    session.close()
    assert answer.kind == "crash" and "warm-up" in answer.message


# ---- notations ------------------------------------------------------------------------------

@pytest.mark.parametrize("text,readable", [
    ("(f p) + 1", True), ("f p + 1", False), ("1 + f p", False), ("1 + 2 * 3", True), ("(0 - 1)", True),
    ("-1", False), ("(-1)", False), ("{-1}", False), ("{1}", True), ("x1", False), ("X", False), ("x'_y", True),
    ("let (f, p) = abs (λx. x) in f p", True), ("A(f, x). f x", True), ("fold f v", True), ("1e5", False),
    ("λx. x + 1", True), ("(λx. x) 1", True), ("λx. x 1 2", False),
])
def test_the_recogniser_knows_the_visualisers_grammar(text, readable):
    try:
        recognise(text)
    except NotVisualiser:
        assert not readable
    else:
        assert readable


@settings(max_examples=300, derandomize=True, database=None, deadline=None, suppress_health_check=list(HealthCheck))
@given(programs(max_depth=4))
def test_the_visualiser_notation_is_what_its_parser_reads_and_means_the_same_program(term):
    """Every generated program is either printed as text the visualiser's grammar reads —
    which our parser reads back to the same program — or refused as inexpressible (a
    negative provisional constant), never printed wrongly."""
    judgement = goi.check(goi.semantics.pretty.pretty(term))
    for parenthesize in ("minimal", "all"):
        try:
            text = render(judgement, "visualiser", parenthesize=parenthesize)
        except Inexpressible:
            assert any(isinstance(n, S.Prov) and n.value < 0 for n in S.walk(term))
            return
        recognise(text)
        again = goi.check(text)
        assert again.params == judgement.params and again.type == judgement.type
        assert goi.run(again).value == goi.run(judgement).value
        assert "@" not in text and ":" not in text  # abs form, no annotations


def test_most_generated_programs_are_expressible_in_the_visualiser_notation():
    counts = Counter()

    @settings(max_examples=150, derandomize=True, database=None, deadline=None, suppress_health_check=list(HealthCheck))
    @given(programs(max_depth=4))
    def count(term):
        try:
            render(goi.check(goi.semantics.pretty.pretty(term)), "visualiser")
            counts["yes"] += 1
        except Inexpressible:
            counts["no"] += 1

    count()
    assert counts["yes"] > counts["no"] > 0  # the rest are counted as skipped, never sent


@settings(max_examples=200, derandomize=True, database=None, deadline=None, suppress_health_check=list(HealthCheck))
@given(programs(max_depth=4))
def test_the_fully_parenthesised_paper_notation_reads_back_to_the_same_term(term):
    judgement = goi.check(goi.semantics.pretty.pretty(term))
    assert parse(render(judgement, "paper", parenthesize="all")) == judgement.surface


def test_visualiser_names_are_letters_only_and_vector_operators_explicit():
    judgement = goi.check("let f @ p = λx:F. {1} * x in let q1 = p + (2 * p) in f q1 1 + q1 • p")
    text = render(judgement, "visualiser")
    assert text == "let (f, p) = abs (λx. {1} * x) in let qa = p ⊞ (2 ⊠ p) in ((f qa) 1) + (qa ⊡ p)"
    recognise(text)
    assert render(goi.check("(A(f, p). f p) ({1} + (-2))"), "visualiser") == "(A(f, p). f p) ({1} + (0 - 2))"
    iterated = goi.check("let f @ p = {2} * {3} in ((λe. 10 * e) +^L p) • (p + p)")
    folded = render(iterated, "visualiser")
    # the fold's own names avoid every name of the program (its `e` stays `e`)
    assert folded == "let (f, p) = abs ({2} * {3}) in (fold (λea. λa. ((λe. 10 ⊠ e) ea) ⊞ a) p) ⊡ (p ⊞ p)"
    recognise(folded)
    assert parse(folded).body.left.op == "+^L" and goi.run(folded).value == 126  # read back as the iterated addition
    assert goi.run(text).value == goi.run(judgement).value


# ---- the mocks: one class of failure each ---------------------------------------------------------

def only(report, klass):
    """The run's one bucket, of class `klass`, shrunk to a 1-minimal program (besides, for the
    catch-all wrong value, other members' minimal programs listed as `… #k`)."""
    main = {k: s for k, s in report.shrunk.items() if k == s.signature}
    assert [s.case.klass for s in main.values()] == [klass], {k: s.case.text for k, s in report.shrunk.items()}
    assert all(s.case.klass == klass and s.signature in main for s in report.shrunk.values())
    (shrunk,) = main.values()
    assert shrunk.complete
    return shrunk


def test_a_correct_implementation_gives_no_failure_corpus_included():
    report = run("correct", corpus=True, ill_typed=True)
    assert report.failures == 0 and report.counts[AGREE] == report.programs > 0
    assert report.corpus_run >= 15


def test_the_one_shot_protocol_gives_the_same_classes_as_the_persistent_one():
    def survey(protocol: str) -> dict:
        command = mock("crash_on_subtraction", *(["--lines"] if protocol == "lines" else []))
        oracle = Oracle(OracleConfig(command=command, protocol=protocol, max_programs=20, jobs=2, database=None, corpus=False))
        try:
            oracle.survey(Report(oracle.config))
        finally:
            oracle.close()
        return {text: case.klass for text, case in oracle.cache.items()}

    oneshot, lines = survey("oneshot"), survey("lines")
    assert oneshot == lines and IMPL_ERROR in oneshot.values() and AGREE in oneshot.values()


def test_the_corpus_respects_the_fragment():
    full = run("correct", corpus=True, max_programs=1)
    narrow = run("reject_dot", corpus=True, max_programs=1, fragments=frozenset({"no-decoupling", "no-vector-ops", "no-iterated"}))
    assert narrow.corpus == [] and narrow.corpus_run < full.corpus_run
    assert narrow.corpus_skipped == full.corpus_skipped + (full.corpus_run - narrow.corpus_run)


def test_a_crash_on_a_construct_is_found_and_shrunk():
    shrunk = only(run("crash_on_subtraction"), IMPL_ERROR)
    assert shrunk.case.text == "0 - 0" and shrunk.case.expected == 0
    assert "NotImplementedError" in shrunk.case.answer.message


def test_an_infinite_loop_is_a_hang_found_and_shrunk_with_nothing_left_running():
    shrunk = only(run("loop_on_iteration", timeout=0.5), HANG)  # answers take milliseconds: 100× that
    # 1-minimal: an iterated addition over a decoupled p, whichever of the two smallest bodies
    # the reduction reached from the survey's draw
    assert re.fullmatch(r"let b @ p = 0 in \(\(λc\. [cp]\) \+\^L p\) • p", shrunk.case.text), shrunk.case.text
    # this checkout's mock only (another checkout may be running its own beside)
    left = subprocess.run(["pgrep", "-f", str(MOCKS / "loop_on_iteration.py")], capture_output=True, text=True).stdout.split()
    assert not left


def test_the_shrink_budget_bounds_the_calls():
    # three calls are not enough to shrink: the failure is still reported (as found), not
    # called minimal, and no implementation call is made past the budget
    report = run("crash_on_subtraction", shrink_calls=3)
    (shrunk,) = report.shrunk.values()
    assert not shrunk.complete and " - " in shrunk.case.text and shrunk.calls == 3
    assert shrunk.to_json()["shrink_complete"] is False


def test_rejecting_a_valid_construct_is_found_and_shrunk():
    shrunk = only(run("reject_dot"), REJECTS_VALID)
    assert shrunk.case.text == "let b @ p = 0 in p • p"


def test_floating_point_within_the_tolerance_agrees():
    report = run("float_arithmetic", tolerance=Fraction(1, 10**9))
    assert report.failures == 0


def test_floating_point_rounding_outside_the_tolerance_is_a_wrong_value():
    # the arithmetic alone (no decoupling): a rounding shows on one operation on two constants
    report = run("float_arithmetic", max_programs=60, fragments=frozenset({"no-decoupling"}))
    # one cause, the arithmetic: the bucket is not split by the constructs of its programs (no `#k`)
    assert [key for key in report.shrunk if " #" in key] == [] and len(report.shrunk) == 1, list(report.shrunk)
    shrunk = only(report, WRONG_VALUE)
    assert shrunk.signature == "wrong-value: a rounding difference"
    term = parse(shrunk.case.text)  # operations on constants only: nothing else is needed to round

    def double(t):  # Python's own doubles, apart from goi's fields
        assert isinstance(t, (S.BinOp, S.Const)), shrunk.case.text
        if isinstance(t, S.Const):
            return float(t.value)
        left, right = double(t.left), double(t.right)
        return {"+": left + right, "-": left - right, "*": left * right, "/": left / right}[t.op]

    # the answer is the double the operations round to, read exactly from the decimal it printed
    assert shrunk.case.answer.value == Fraction(repr(double(term))) != shrunk.case.expected


def test_a_shared_provisional_constant_duplicated_in_a_model_is_a_wrong_value():
    shrunk = only(run("duplicate_shared_constant", max_programs=100), WRONG_VALUE)
    assert shrunk.case.text == "let b @ p = let c = {1} in c + c in p • p"
    assert (shrunk.case.expected, shrunk.case.answer.value) == (1, 2)  # p = (1), not (1, 1)


def test_accepting_an_ill_typed_program_is_found_with_ill_typed():
    assert run("accept_ill_typed").failures == 0  # without --ill-typed nothing to see
    shrunk = only(run("accept_ill_typed", ill_typed=True), ACCEPTS_INVALID)
    assert shrunk.case.text == "0 0" and str(shrunk.case.expected).startswith("ill-typed")


def test_two_bugs_with_different_messages_are_two_buckets_each_shrunk_to_its_own_program(tmp_path):
    """The mock reports subtractions and products with two messages, each carrying numbers and
    names that differ from program to program: two buckets (not one per message), each shrunk
    on its own, keeping its signature — the product's never slides to a subtraction, which
    fails too but differently — and both kept in the database and replayed by a later run."""
    database = str(tmp_path / "db")
    report = run("two_errors", database=database)
    buckets = {s.signature: s for s in report.shrunk.values()}
    assert set(buckets) == {"implementation-error: subtraction at column N is not supported",
                            "implementation-error: product of '…' by '…' overflows in multiplier N"}, set(buckets)
    texts = sorted(s.case.text for s in report.shrunk.values())
    assert texts == ["0 * 0", "0 - 0"]
    assert all(s.complete and s.count > 1 for s in report.shrunk.values())
    assert sum(s.count for s in report.shrunk.values()) == report.counts[IMPL_ERROR]
    # the summary, --json and --out list both; the notation is not blamed for the implementation's own errors
    from goi.oracle.output import report_json, summary_lines, write_out

    lines = summary_lines(report)
    assert "2 defects (buckets by signature, each shrunk on its own):" in lines
    assert not any("--notation" in line for line in lines)
    assert [b["file"] for b in report_json(report)["buckets"]] == ["implementation-error", "implementation-error-2"]
    out = tmp_path / "out"
    out.mkdir()
    write_out(str(out), report)
    assert sorted((out / f"{stem}.goi").read_text(encoding="utf-8") for stem in
                  ("implementation-error", "implementation-error-2")) == ["0 * 0\n", "0 - 0\n"]
    again = run("two_errors", database=database, max_programs=1)
    assert sorted(s.case.text for s in again.shrunk.values()) == ["0 * 0", "0 - 0"]


def test_a_wrong_value_bucket_is_split_by_what_its_programs_need():
    """Two bugs give "another value" (a - b + 7 and a * b + 7): one bucket. Its first program
    shrinks to a subtraction (`0 - 0`: constants are lowered toward 0). A member without a subtraction (neither the middle nor the last,
    which the catch-all's spread would reduce) is reduced next and shown as `#2`: the
    product's bug. A member with both is tried with its `-` written as another operator (one it
    has first): still failing, it did not need the subtraction, and the changed program is
    reduced and shown instead."""
    from goi.oracle.cases import CATCH_ALL

    def split(texts):
        oracle = Oracle(OracleConfig(command=mock("two_wrong_values", "--lines"), protocol="lines", database=None,
                                     corpus=False, shrink_calls=1000))
        try:
            report = Report(oracle.config)
            cases = [oracle.classify(text) for text in texts]
            assert {case.signature for case in cases} == {CATCH_ALL}
            report.cases.extend(cases)
            first, _, _, complete = oracle.shrinker(CATCH_ALL).reduced(cases[0])
            assert first.text == "0 - 0" and complete  # its constants lowered toward 0 too
            # what a program needs: an operator it can do without (any other still fails alike) is not
            wrong = cases[0].klass
            assert oracle._needs("(5 - 1) + 0", CATCH_ALL, wrong, [100]) == {"-"}
            assert oracle._needs("let b = 2 in b * 3", CATCH_ALL, wrong, [100]) == {"let", "*"}
            oracle._more_programs(report, CATCH_ALL, cases, first.text)
        finally:
            oracle.close()
        assert all(key.startswith(f"{CATCH_ALL} #") for key in report.shrunk)
        return [report.shrunk[f"{CATCH_ALL} #{k}"] for k in range(2, 2 + len(report.shrunk))]

    subtractions = ["(λa. a - 2) 9", "1 - 4 + 8", "(3 - 1) + 2", "let c = 6 in c - c"]
    shown = split(["let a = 5 in a - 1 + a", subtractions[0], "let b = 2 in b * 3 + 1", *subtractions[1:]])
    assert shown[0].case.text == "0 * 0" and shown[0].found_after == 2, [s.case.text for s in shown]
    assert all("*" not in s.case.text for s in shown[1:])
    shown = split(["let a = 5 in a - 1 + a", "let b = 2 in b * 3 - 1", *subtractions])
    assert "*" in shown[0].case.text and "-" not in shown[0].case.text, [s.case.text for s in shown]
    assert shown[0].found_after == 1 and shown[0].first.text == "let b = 2 in b * 3 - 1"
    assert all("*" not in s.case.text for s in shown[1:])
    assert shown[0].same_defect_as is None  # two bugs of one operator each: never said to be one defect


COPIED = ["let b = 0 + 1 in let c = λd. b + b in c 0 + c 0",  # another value: 2 for 4
          "let b = 0 - 1 in let c = λd. (b - b) - b in c 0 - c 0",  # another value: 1 for 0
          "let b = 1 - 3 in let c = λd. b * b in c 0 - 3 * c 0"]  # another value: 4 for -8


def test_one_defect_carried_by_other_operators_is_said_to_be_one_defect():
    """Issue 51 ("no #2 that is the same defect"): a machine whose copied closures read a
    shared computed value as 0 (tests/oracle_mocks/copied_capture.py) has minimal programs
    needing `+`, `-` or `*` and `-` as they are written: `b - b` hides the bug, and so did
    the rewriting `0 + 1` as `0 * 1`, which makes b 0. Each was listed as "perhaps another
    bug". Written with operators whose constants hide nothing (`1 + 1`, `2 * 2`), the second
    needs no operator at all — a shared value and a closure called twice — which the first
    has too: it is listed as the same defect, since met first it would have had the first
    taken for its bug again; the third has all that the second needs and is not listed. The
    bucket's two wrong-value bugs of one operator each (two_wrong_values, above) stay two."""
    sig = "wrong-value: another value"
    oracle = Oracle(OracleConfig(command=mock("copied_capture", "--lines"), protocol="lines", database=None,
                                 corpus=False, shrink_calls=1000))
    try:
        cases = [oracle.classify(text) for text in COPIED]
        assert [(c.klass, c.signature, c.answer.value) for c in cases] == [
            (WRONG_VALUE, sig, Fraction(2)), (WRONG_VALUE, sig, Fraction(1)), (WRONG_VALUE, sig, Fraction(4))]
        report = Report(oracle.config)
        report.cases.extend(cases)
        needs: dict = {}
        needs[sig] = oracle._more_programs(report, sig, cases, COPIED[0], needs=needs)
    finally:
        oracle.close()
    assert needs == {sig: {"let", "call", "+"}, sig + " #2": {"let", "call"}}, needs
    assert list(report.shrunk) == [sig + " #2"], report.shrunk
    shrunk = report.shrunk[sig + " #2"]
    assert shrunk.case.text == COPIED[1] and shrunk.same_defect_as == sig
    assert shrunk.same_because.startswith(f"it needs less than {sig!r}, which has all it needs")
    assert report.defects == []  # a #k is never a defect of its own; here not "perhaps another" either


def test_a_program_of_another_bug_is_never_said_to_be_the_same_defect_by_rewriting_the_earlier_one():
    """Issue 51 (two merges that hid a bug in the zoo's goi_mutant): an earlier minimal program
    rewritten with a later one's operators has all that the later one needs, so it may fail by
    the later one's bug. `(λb. b + (0 - b)) 1` shows the subtraction's bug of two_wrong_values
    (it needs `+` too: written `b - (0 - b)` it agrees); `let b = 2 * 3 in b` shows the
    product's. Written with `*` the first fails still — by the product's bug — and the second
    lacks the first's λ: nothing says they are one defect."""
    sig = "wrong-value: another value"
    first, later = "(λb. b + (0 - b)) 1", "let b = 2 * 3 in b"
    oracle = Oracle(OracleConfig(command=mock("two_wrong_values", "--lines"), protocol="lines", database=None,
                                 corpus=False, shrink_calls=1000))
    try:
        cases = [oracle.classify(text) for text in (first, later, "(λb. b * (0 * b)) 1")]
        assert [c.signature for c in cases] == [sig] * 3, [c.signature for c in cases]  # the rewriting fails too
        needs = [oracle._needs(c.text, sig, c.klass, [100]) for c in cases[:2]]
        assert needs == [{"app", "+", "-"}, {"let", "*"}], needs
        same = oracle._same_by_operators(later, needs[1], sig, [(sig, first, needs[0], sig)], WRONG_VALUE, [100])
    finally:
        oracle.close()
    assert same is None


def _judged(name: str, texts: list, keys: Optional[list] = None, needs: Optional[list] = None,
            merged: Optional[dict] = None):
    """The programs classified by mock `name`, each a shrunk entry of one report under its key
    (default: its signature) needing what `_needs` says (or `needs`, given), said to be the
    same defect as `merged[key]` where given (as a bucket's split says of its `#k`), and the
    report's same defects judged (Oracle.same_defects): (cases, needs by key, report)."""
    from goi.oracle.cases import Shrunk

    oracle = Oracle(OracleConfig(command=mock(name, "--lines"), protocol="lines", database=None,
                                 corpus=False, shrink_calls=1000))
    try:
        cases = [oracle.classify(text) for text in texts]
        keys = keys or [c.signature for c in cases]
        needed = dict(zip(keys, needs or [oracle._needs(c.text, c.signature, c.klass, [100]) for c in cases]))
        report = Report(oracle.config)
        report.cases.extend(cases)
        for i, (key, c) in enumerate(zip(keys, cases)):
            report.shrunk[key] = Shrunk(c, i, 1, 0.0, 0.0, 0, True, c.signature, c, same_defect_as=(merged or {}).get(key))
        oracle.same_defects(report, needed)
    finally:
        oracle.close()
    return cases, needed, report


def test_two_kinds_of_wrong_value_of_one_defect_carried_by_other_operators_are_one_defect():
    """Issue 51: the copy defect above gives another value on `c 0 + c 0` and the opposite sign
    on `c 0 - c 0 * 2` (b * b inside); the two buckets' minimal programs need other
    operators, and neither holds a part that fails by itself. Written with the first's `+`,
    the second fails as the first does: one defect, and the report says why."""
    texts = [COPIED[0], "let b = 0 - 1 in let c = λd. b * b in c 0 - c 0 * 2"]  # the opposite sign: 1 for -1
    cases, needs, report = _judged("copied_capture", texts)
    sigs = [c.signature for c in cases]
    assert sigs == ["wrong-value: another value", "wrong-value: the opposite sign"], sigs
    # `-` only makes b a computed value that is not 0: written `1 + 1` or `2 * 2` (not `0 + 1`, `0 * 1`:
    # the rewriting would make b 1 or 0, which the copy's 0 hides), it fails alike
    assert needs == {sigs[0]: {"let", "call", "+"}, sigs[1]: {"let", "call", "*"}}, needs
    assert report.shrunk[sigs[0]].same_defect_as is None
    assert report.shrunk[sigs[1]].same_defect_as == sigs[0]
    assert report.shrunk[sigs[1]].same_because == f"written with the operators {sigs[0]!r} needs, it fails alike"
    assert report.defects == [sigs[0]]


def test_a_part_failing_in_a_bucket_is_that_bucket_s_defect_only_if_it_has_what_its_bug_needs():
    """Issue 51 (a merge that hid a bug: intml, seed 2): a wrong value's signature is its kind,
    which two defects share. Under strict division `1 / (0 - 0)` gives a value where the
    program is undefined, since its part `0 - 0` gives 7 (a subtraction's bug,
    two_wrong_values): another value. That part is the defect of a bucket "another value"
    shown by `0 - 0`, but not of one shown by `0 * 0` (the product's bug, which a part
    without `*` cannot show): no merge there, and the undefined bucket stays a defect of its
    own."""
    from goi.oracle.cases import CATCH_ALL, Shrunk

    oracle = Oracle(OracleConfig(command=mock("two_wrong_values", "--lines"), protocol="lines", database=None,
                                 corpus=False, shrink_calls=1000, division="strict"))
    merged = {}
    try:
        undefined = oracle.classify("1 / (0 - 0)")
        assert undefined.signature == "wrong-value: a value where the program is undefined", undefined.signature
        for root in ("0 * 0", "0 - 0"):
            first = oracle.classify(root)
            assert first.signature == CATCH_ALL
            report = Report(oracle.config)
            report.cases.extend([first, undefined])
            for i, c in enumerate((first, undefined)):
                report.shrunk[c.signature] = Shrunk(c, i, 1, 0.0, 0.0, 0, True, c.signature, c)
            needs = {c.signature: oracle._needs(c.text, c.signature, c.klass, [100]) for c in (first, undefined)}
            oracle.same_defects(report, needs)
            merged[root] = report.shrunk[undefined.signature].same_defect_as, report.defects
    finally:
        oracle.close()
    assert merged["0 - 0"] == (CATCH_ALL, [CATCH_ALL])
    assert merged["0 * 0"] == (None, [CATCH_ALL, undefined.signature])


def _right_associative() -> Oracle:
    """tests/oracle_mocks/right_associative.py: `a - b + c` read as `a - (b + c)`, `a - b - c`
    as `a - (b - c)` (the zoo's intml)."""
    return Oracle(OracleConfig(command=mock("right_associative", "--lines"), protocol="lines", database=None,
                               corpus=False, shrink_calls=1000))


@pytest.mark.parametrize("first", ["0 - 1 + 1", "0 - 1 - 1"])
def test_what_a_bucket_lists_does_not_depend_on_which_program_came_first(first):
    """Issue 51 (intml, seeds 1, 3 and 4): `0 - 1 + 1` (-2 for 0) and `0 - 1 - 1` (0 for -2)
    are one defect of one bucket, another value. The second needs `-` only, the first `-`
    and `+`. Met with `0 - 1 - 1` first, the other has all it needs and is not listed (it
    may be that bug again); met with `0 - 1 + 1` first, `0 - 1 - 1` was listed as perhaps
    another bug. In either order, no program is listed as perhaps another bug."""
    sig = "wrong-value: another value"
    texts = [first, ({"0 - 1 + 1", "0 - 1 - 1"} - {first}).pop()]
    oracle = _right_associative()
    try:
        cases = [oracle.classify(text) for text in texts]
        assert [(c.signature, c.answer.value) for c in cases] == [
            (sig, {"0 - 1 + 1": -2, "0 - 1 - 1": 0}[t]) for t in texts]
        assert [oracle._needs(t, sig, WRONG_VALUE, [100]) for t in texts] == [
            {"0 - 1 + 1": {"+", "-"}, "0 - 1 - 1": {"-"}}[t] for t in texts]
        report = Report(oracle.config)
        report.cases.extend(cases)
        needs: dict = {}
        needs[sig] = oracle._more_programs(report, sig, cases, first, needs=needs)
    finally:
        oracle.close()
    if first == "0 - 1 + 1":
        assert list(report.shrunk) == [sig + " #2"] and needs[sig + " #2"] == {"-"}
        shrunk = report.shrunk[sig + " #2"]
        assert shrunk.case.text == "0 - 1 - 1" and shrunk.same_defect_as == sig
        assert shrunk.same_because.startswith(f"it needs less than {sig!r}, which has all it needs")
    else:
        assert report.shrunk == {}
    assert [key for key, s in report.shrunk.items() if s.same_defect_as is None] == []


def test_a_further_program_of_one_defect_in_another_bucket_is_said_to_be_that_defect():
    """Issue 51 (intml, seeds 0 and 3): one defect gives another value on `0 - 1 - 1` and the
    opposite sign on `1 - 1 + 1`, whose bucket is said to be the first's defect (carried by
    other operators). That bucket's further minimal programs `1 - 1 - 1` (it needs what
    `0 - 1 - 1` needs) and `(λb. b - b - 1) 1` (it has all that `0 - 1 - 1` needs, and more)
    were listed as perhaps another bug: each is the first bucket's defect."""
    another, opposite = "wrong-value: another value", "wrong-value: the opposite sign"
    keys = [another, opposite, opposite + " #2", opposite + " #3"]
    cases, needs, report = _judged("right_associative", ["0 - 1 - 1", "1 - 1 + 1", "1 - 1 - 1", "(λb. b - b - 1) 1"],
                                   keys)
    assert [c.signature for c in cases] == [another, opposite, opposite, opposite]
    assert list(needs.values()) == [{"-"}, {"+", "-"}, {"-"}, {"app", "-"}], needs
    assert [report.shrunk[key].same_defect_as for key in keys] == [None, another, another, another]
    assert report.shrunk[keys[2]].same_because == "it needs the same constructs"
    assert report.shrunk[keys[3]].same_because == f"its bucket is {another!r}'s defect, and it has all that {another!r} needs"
    assert report.defects == [another]


def test_a_part_is_matched_against_every_minimal_program_of_a_defect():
    """Issue 51 (intml, seed 3): the defect of `0 - 1 + 1` (another value, needing `-` and `+`)
    has a further minimal program `0 - 1 - 1`, needing `-` only. A program of another bucket
    (the opposite sign) whose part `0 - 2 - 1` fails so by itself has what the second needs,
    not what the first does: its wrong value flows from that defect all the same."""
    another, opposite = "wrong-value: another value", "wrong-value: the opposite sign"
    keys = [another, another + " #2", opposite]
    needs = [frozenset({"+", "-"}), frozenset({"-"}), frozenset({"+", "-", "*"})]
    # the last: 4 for -4; the #2 is its bucket's defect, as the bucket's split says (needing less)
    cases, _, report = _judged("right_associative", ["0 - 1 + 1", "0 - 1 - 1", "(0 - 2 - 1) * 4 + 8"], keys, needs,
                               {keys[1]: another})
    assert [(c.signature, c.answer.value) for c in cases] == [(another, -2), (another, 0), (opposite, 4)]
    assert report.shrunk[opposite].same_defect_as == another
    assert report.shrunk[opposite].same_because == "it holds a part that fails so by itself"
    assert report.defects == [another]


def test_two_buckets_of_one_defect_are_never_each_other_s_defect():
    """Issue 51 (goi_mutant seed 1, once the reducer inlined an applied λ): a swapped
    subtraction gives another value on `0 - 1 - 1` and the opposite sign on `0 - 1`, both
    needing `-`. The first holds the second as a part that fails so by itself, and the
    second needs what the first needs: each was said to be the other's defect, and the
    report counted no defect at all. One is the defect; the other is the same defect."""
    another, opposite = "wrong-value: another value", "wrong-value: the opposite sign"
    cases, needs, report = _judged("swapped_subtraction", ["0 - 1 - 1", "0 - 1"])
    assert [(c.signature, c.answer.value) for c in cases] == [(another, 0), (opposite, 1)]
    assert needs == {another: {"-"}, opposite: {"-"}}
    assert report.defects == [opposite]
    assert report.shrunk[another].same_defect_as == opposite
    assert report.shrunk[another].same_because == "it holds a part that fails so by itself"


def test_an_operator_written_as_another_hides_nothing_by_its_constants():
    """Issue 51 (the zoo's stack-wrap, whose minimal programs end in `… * 0`, `… - 1` or
    `… + 1`): a machine that drops the outermost operation answers 1 for `1 * 0`. Written
    with `+` or `-`, that is `1 + 0` or `1 - 0`, which are 1: the rewriting made the operand
    an identity, and `*` looked needed, so each operator's program was listed as perhaps
    another bug. Each operand that the new operator would ignore or that would annihilate
    the other (0 for `+` and `-`, 0 and 1 for `*`) is tried as one that does neither too:
    `1 + 1` and `1 - 1` fail alike, and the bug needs an operation, any."""
    from goi.oracle.splitting import _with_operator

    assert _with_operator(parse("0 - 1 * 0"), "*", "+", unmasked=True) == parse("0 - (1 + 1)")
    assert _with_operator(parse("0 - 1 * 0"), "*", "+") == parse("0 - (1 + 0)")
    assert _with_operator(parse("0 - 1"), "-", "*", unmasked=True) == parse("2 * 2")
    assert _with_operator(parse("0 - 1"), "-", "+", unmasked=True) == parse("1 + 1")
    assert _with_operator(parse("1 * 0"), "*", "-", unmasked=True) == parse("1 - 1")
    sig = "wrong-value: another value"
    oracle = Oracle(OracleConfig(command=mock("outer_dropped", "--lines"), protocol="lines", database=None,
                                 corpus=False, shrink_calls=1000))
    try:
        case = oracle.classify("1 * 0")
        assert (case.signature, case.answer.value) == (sig, 1)
        assert [oracle.classify(t).klass for t in ("1 + 0", "1 - 0", "1 + 1", "1 - 1")] == [AGREE, AGREE] + [WRONG_VALUE] * 2
        assert oracle._needs("1 * 0", sig, WRONG_VALUE, [100]) == {"operation"}
    finally:
        oracle.close()


def test_a_minimal_program_needs_an_unused_binder_only_when_using_it_makes_the_bug_go():
    """Issue 51: a 1-minimal program keeps an unused binder where removing it would take away
    what the bug needs — here the third use of a shared value (`let c = b`), for a machine
    stuck at a contraction of arity three. Its unused binder used harmlessly (`… + 0 * c`), it
    fails as before: weakening is not what it needs, and a further minimal program without
    one (`(λb. b + b + b) 0`), which needs no more than that (a let read as the applied λ it
    means), is the same defect — not listed. Where the bug *is* the unused binder (a
    compiler crashing on one), using it makes the bug go, and weakening stays needed."""
    from goi.oracle.splitting import as_applied, covers

    def needs(name, text):
        oracle = Oracle(OracleConfig(command=mock(name, "--lines"), protocol="lines", database=None, corpus=False))
        try:
            case = oracle.classify(text)
            assert case.klass == IMPL_ERROR, case
            return oracle._needs(text, case.signature, case.klass, [100])
        finally:
            oracle.close()

    first = needs("stuck_at_three_uses", "(λb. let c = b in b + b) 0")
    assert first == {"app", "let"}, first
    again = needs("stuck_at_three_uses", "(λb. b + b + b) 0")
    assert again == {"app"} and as_applied(first) == again and covers(first, again)
    assert "weakening" in needs("crash_on_unused", "(λb. 1) 0")
    assert not covers(frozenset({"let", "-"}), frozenset({"app", "+"})) and not covers(None, frozenset({"app"}))


def test_the_unmasking_spends_its_budget_on_the_members_with_most_beyond_the_bucket_s_need_first():
    """Issue 52 (a mutant that passed the suite: which members the unmask budget reaches): a
    bucket's members are rewritten in the order of how much they hold beyond what its bug
    needs, most first — a member with nothing more can only show the bucket's bug again. With
    a budget of one call, the member holding a product (beyond the refused `let` of a λ) is
    rewritten, though it comes last, and the product's bug behind the error is found; in
    survey order the one call would go to a member that has nothing to unmask."""
    from goi.oracle import unmasking

    members = ["let g : F -> F = λx:F. x in g 2", "let g : F -> F = λx:F. x in g 2 * 3"]
    oracle = Oracle(OracleConfig(command=mock("masked_product", "--lines"), protocol="lines", database=None,
                                 corpus=False, shrink_calls=1000))
    before = unmasking.UNMASK_CALLS
    try:
        cases = [oracle.classify(text) for text in members]
        assert {case.klass for case in cases} == {IMPL_ERROR} and len({c.signature for c in cases}) == 1, cases
        report = Report(oracle.config)
        report.cases.extend(cases)
        unmasking.UNMASK_CALLS = 1
        oracle.unmask(report, {cases[0].signature: cases}, {cases[0].signature: frozenset({"let", "call"})})
        (found,) = report.shrunk.values()
        assert found.case.klass == WRONG_VALUE and "*" in found.case.text, found.case.text
        assert found.found_after == 1  # the member it came from: the second of the survey
    finally:
        unmasking.UNMASK_CALLS = before
        oracle.close()


def test_a_bug_hidden_behind_another_is_found_by_rewriting_a_member():
    """A `let` binding a λ is refused with an error, and a product is one off: a program with
    both answers with the error only, so the product's bug is in no bucket of its own. The
    unmasking rewrites the error bucket's member at one site at a time: with its `let`
    written as the applied λ it means, the error no longer fires and the product's wrong
    value shows — a new bucket, reduced on its own, saying where it was found. The rewritings
    of what the bucket needs come first; the budget bounds the calls."""
    member = "let g : F -> F = λx:F. x in g 2 * 3"
    oracle = Oracle(OracleConfig(command=mock("masked_product", "--lines"), protocol="lines", database=None,
                                 corpus=False, shrink_calls=1000))
    try:
        case = oracle.classify(member)
        assert case.klass == IMPL_ERROR, case
        report = Report(oracle.config)
        report.cases.append(case)
        calls = oracle.calls
        oracle.unmask(report, {case.signature: [case]}, {case.signature: frozenset({"let", "call"})})
        (found,) = report.shrunk.values()
        assert found.unmasked == (case.signature, "a let written as an applied λ")
        assert found.case.klass == WRONG_VALUE and found.complete and found.found_after == 0
        assert found.first.text != member and "let" not in found.first.text
        assert "*" in found.case.text and "let" not in found.case.text, found.case.text
        from goi.oracle.output import summary_lines

        assert any("hidden behind bucket" in line for line in summary_lines(report))
        # no budget, no call and no bucket
        quiet = Report(oracle.config)
        quiet.cases.append(case)
        from goi.oracle import unmasking

        before, unmasking.UNMASK_CALLS = unmasking.UNMASK_CALLS, 0
        try:
            oracle.unmask(quiet, {case.signature: [case]}, {})
        finally:
            unmasking.UNMASK_CALLS = before
        assert quiet.shrunk == {}
    finally:
        oracle.close()
    assert oracle.calls > calls
    # a known bug met while unmasking is set aside like any known bucket: not new, not shrunk (a fresh
    # run, whose cache has not met the rewritten member)
    fresh = Oracle(OracleConfig(command=mock("masked_product", "--lines"), protocol="lines", database=None,
                                corpus=False, shrink_calls=1000))
    try:
        known = Report(fresh.config)
        known.cases.append(fresh.classify(member))
        known.known_signatures = frozenset({found.signature})
        before = fresh.calls
        fresh.unmask(known, {case.signature: known.cases[:]}, {case.signature: frozenset({"let", "call"})})
        assert known.shrunk == {} and fresh.calls > before  # met (a call was made), and set aside
    finally:
        fresh.close()


@given(programs(max_depth=4, sharing=True, swarm=True, scopes=True))
def test_the_unmasking_rewritings_are_equivalences(term):
    """Each rewriting (a let as an applied λ and back, the operands of + and * swapped) gives,
    where it is well typed, the value the program has on goi's machine."""
    from goi import api
    from goi.oracle.unmasking import equivalents

    value = goi.run(term).value
    for _, what, variant in equivalents(term):
        try:
            judgement = api.judge(variant)
        except goi.GoiError:
            assert what == "the operands of * swapped"  # a scalar times a vector: not the other way round
            continue
        assert goi.run(judgement).value == value, (what, variant)


def test_the_notation_hint_is_for_what_looks_like_a_parser_rejecting_our_text():
    from goi.oracle.output import notation_hints

    quick = dict(max_programs=40, shrink_calls=5)  # buckets and their counts are what the hint reads
    (hint,) = notation_hints(run("wrong_notation", **quick))  # a syntax error on `λ`: its parser, perhaps
    assert "rejects-valid: syntax error at N:N: unexpected character '…'" in hint and "--notation" in hint
    assert not notation_hints(run("crash_on_subtraction", **quick))  # its own crash: never
    assert not notation_hints(run("two_errors", **quick))  # its own errors: never


def test_failures_are_kept_and_replayed_first_from_the_example_database(tmp_path):
    database = str(tmp_path / "db")
    first = run("crash_on_subtraction", database=database)
    assert [s.case.text for s in first.shrunk.values()] == ["0 - 0"]
    again = run("crash_on_subtraction", database=database, max_programs=1)  # one program: no subtraction drawn
    assert again.counts[IMPL_ERROR] == 0 and [s.case.text for s in again.shrunk.values()] == ["0 - 0"]
    assert [s.found_after for s in again.shrunk.values()] == [-1]  # from the database, not the survey


# ---- the command -------------------------------------------------------------------------------

def test_oracle_command_json_and_out_dir(capsys, tmp_path):
    from test_cli_contract import validate

    out = tmp_path / "failures"
    impl = " ".join(mock("crash_on_subtraction", "--lines"))
    code = main(["oracle", "--impl", impl, "--protocol", "lines", "--no-database", "--jobs", "2",
                 "--max-programs", "40", "--out", str(out), "--json"])
    data = json.loads(capsys.readouterr().out)
    validate(data)
    (bucket,) = data["buckets"]
    assert code == exitcodes.NOT_EQUIVALENT and bucket["program"] == "0 - 0" and bucket["file"] == "implementation-error"
    assert bucket["signature"] == "implementation-error: NotImplementedError: subtraction is not implemented"
    assert data["messages"]["implementation-error"][0]["count"] == data["counts"]["implementation-error"]
    replay = bucket["replay"]
    assert replay.endswith(f"--replay {out / 'implementation-error.goi'}") and "--protocol lines" in replay
    assert (out / "implementation-error.goi").read_text(encoding="utf-8") == "0 - 0\n"
    meta = json.loads((out / "implementation-error.json").read_text(encoding="utf-8"))
    assert meta["expected"] == "0" and meta["class"] == "implementation-error"
    assert sorted(p.name for p in out.iterdir() if p.name.startswith("corpus-"))  # the corpus failures too
    # the replay command, run: the failure is still there (exit 1), and gone once the program is fixed (exit 0)
    argv = shlex.split(replay)[1:]
    assert main(argv) == exitcodes.NOT_EQUIVALENT and "implementation-error: 0 - 0" in capsys.readouterr().out
    (out / "implementation-error.goi").write_text("0 + 0\n", encoding="utf-8")
    assert main(argv) == exitcodes.OK and "agree" in capsys.readouterr().out


def test_oracle_command_text_and_usage_errors(capsys):
    code = main(["oracle", "--impl", " ".join(mock("correct")), "--no-database", "--no-corpus", "--max-programs", "4"])
    assert code == exitcodes.OK and "no disagreement found" in capsys.readouterr().out
    assert main(["oracle", "--impl", "x {file}", "--protocol", "lines"]) == exitcodes.USAGE
    assert main(["oracle", "--impl", ""]) == exitcodes.USAGE
    assert main(["oracle", "--impl", "x", "--fragment", "no-such"]) == exitcodes.USAGE
    assert main(["oracle", "--impl", "x", "--tolerance", "-1"]) == exitcodes.USAGE
    assert main(["oracle"]) == exitcodes.USAGE
    code = main(["oracle", "--impl", "/nonexistent/impl", "--no-database", "--no-corpus", "--max-programs", "3"])
    assert code == exitcodes.USAGE and "cannot start /nonexistent/impl: no such file" in capsys.readouterr().err


def test_a_crash_on_an_ill_typed_program_refuses_it():
    """Only a value accepts an ill-typed program: the mock that crashes on `-` agrees on the
    ill-typed programs it crashes on, and what it is blamed for is a well-typed one."""
    from goi.oracle.output import summary_lines

    report = run("crash_on_subtraction", ill_typed=True)
    assert report.counts[ACCEPTS_INVALID] == 0 and [s.case.text for s in report.shrunk.values()] == ["0 - 0"]
    ill = [c for c in report.cases if isinstance(c.expected, str) and c.expected.startswith("ill-typed")]
    assert ill and all(c.klass == AGREE for c in ill)
    assert any(c.answer.kind == "crash" for c in ill)  # crashes among them, refusals all the same
    accepted = run("accept_ill_typed", ill_typed=True)
    text = "\n".join(summary_lines(accepted))
    assert "expected: a rejection (ill-typed: " in text and "(0 transitions: )" not in text


def test_a_printer_of_ones_own_writes_what_the_implementation_receives(capsys, monkeypatch):
    """--printer MODULE:FUNCTION: the texts need not be readable by goi (expected values come
    from the printed terms); failures are found, shrunk, and replayed with the same printer."""
    monkeypatch.chdir(MOCKS)
    impl = " ".join(mock("reversed", "--lines", "--crash-on-minus"))
    code = main(["oracle", "--impl", impl, "--protocol", "lines", "--printer", "reversed_printer:show", "--no-database",
                 "--no-corpus", "--max-programs", "30", "--jobs", "2", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == exitcodes.NOT_EQUIVALENT and data["printer"] == "reversed_printer:show"
    (shrunk,) = data["buckets"]
    assert shrunk["program"] == "REVERSED:0 - 0" and shrunk["shrink_complete"] and data["counts"]["agree"] > 0
    assert "--printer reversed_printer:show" in shrunk["replay"] and shrunk["replay"].endswith("--replay-program '0 - 0'")
    assert main(shlex.split(shrunk["replay"])[1:]) == exitcodes.NOT_EQUIVALENT
    assert "implementation-error: REVERSED:0 - 0" in capsys.readouterr().out
    assert main(["oracle", "--impl", impl, "--printer", "no_such_module:show"]) == exitcodes.USAGE


def test_the_documented_sexp_printer():
    import sys as _sys

    _sys.path.insert(0, str(MOCKS.parent.parent / "docs/examples"))
    try:
        from sexp_printer import show
    finally:
        _sys.path.pop(0)
    assert show(parse("let f @ p = λx. {2} * x in f p (-1)")) == "(decouple (f p) (lambda (x) (* (prov 2) x)) ((f p) -1))"
    with pytest.raises(Inexpressible):
        show(parse("A(f, x). 0"))


# ---- nothing is left running ----------------------------------------------------------------

def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] not in "ZX"  # a zombie has ended
    except OSError:
        return False


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="processes are followed through /proc (Linux)")
@pytest.mark.parametrize("protocol", ["oneshot", "lines"])
def test_a_process_that_leaves_its_group_is_ended_too(tmp_path, protocol):
    """The mock double-forks a sleeper into a session of its own (setsid) for each program;
    killing the implementation's process group does not reach it. After goi oracle, none
    is left."""
    command = mock("escape_with_setsid", *(["--lines"] if protocol == "lines" else []))
    env = dict(os.environ, ESCAPEE_DIR=str(tmp_path))
    proc = subprocess.run([sys.executable, "-m", "goi", "oracle", "--impl", " ".join(map(shlex.quote, command)),
                           "--protocol", protocol, "--max-programs", "3", "--no-corpus", "--timeout", "60"],
                          capture_output=True, env=env, timeout=600)
    pids = [int(p.read_text()) for p in tmp_path.glob("*.pid")]
    try:
        assert proc.returncode == exitcodes.OK, proc.stderr[-600:]
        assert pids, "the mock left no sleeper to look for"
        assert [pid for pid in pids if _alive(pid)] == []
    finally:
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


LEAVES_A_HOLDER = """
import json, os, sys, time
for line in sys.stdin:
    request = json.loads(line)
    if request["program"] != "0":  # after the warm-up: leave a process holding standard output, and die
        if os.fork() == 0:
            os.setsid()
            time.sleep(3600)
        os._exit(1)
    print(json.dumps({"id": request["id"], "value": 0}), flush=True)
"""


def test_a_session_that_dies_while_its_child_holds_the_pipe_is_a_crash_not_a_hang():
    """No end of file comes while a process it left holds standard output open: that the
    session's own process exited is what tells (this was a hang, a whole --timeout each)."""
    session = Session([sys.executable, "-c", LEAVES_A_HOLDER], timeout=600)
    try:
        answer = session.ask("1 + 1")
    finally:
        session.close()
    assert answer.kind == "crash" and answer.message.startswith("it exited, exit status 1"), answer


# ---- signatures ----------------------------------------------------------------------------------

def test_a_signature_folds_what_changes_from_one_program_to_the_next():
    from goi.oracle.classification import difference, error_detail, fold
    from goi.oracle.protocols import Answer

    names = frozenset({"x12", "fa"})
    assert fold("unbound x12 at 3:17 in '/tmp/a b.js' (0x7f3a)", names) == "unbound NAME at N:N in '…' (…)"
    assert fold("unbound fa in /usr/lib/node/impl.js:40:7\nmore", names) == "unbound NAME in PATH"
    node = Answer("crash", message="it exited, exit status 1: Node.js v20", exit=1,
                  stderr="/x/impl.js:12\n  throw e;\nTypeError: Cannot read properties of undefined (reading 'refs')\n    at f (/x/impl.js:12:3)\n\nNode.js v20")
    assert error_detail(node, "fa 1") == "TypeError: Cannot read properties of undefined (reading '…')"
    python = Answer("crash", message="it exited", exit=1, stderr="Traceback (most recent call last):\n  File \"x\"\nKeyError: 'x12'")
    assert error_detail(python, "x12") == "KeyError: '…'"
    assert error_detail(Answer("crash", message="", exit=-9), "0") == "exit status -9"
    assert difference(Fraction(2), Fraction(-2)) == "the opposite sign"
    assert difference(Fraction(1, 10), Fraction("0.1000000000000001")) == "a rounding difference"
    assert difference(Fraction(1), Fraction(2)) == difference(Fraction(2), Fraction(3)) == "another value"
    assert difference((Fraction(1),), (Fraction(1), Fraction(0))) == "a vector of another length"
    assert difference(Fraction(1), "NaN") == "a non-finite number"
    assert difference("undefined", Fraction(1)) == "a value where the program is undefined"
    assert difference(Fraction(1), "λ") == "a function for a number"


# ---- the search ----------------------------------------------------------------------------------

@pytest.mark.parametrize("notation", ["paper", "visualiser"])
def test_generation_fits_the_notation_almost_nothing_drawn_is_thrown_away(notation):
    """Every stage of the survey's draw, derandomised: at most 1 % of what is drawn cannot be
    written in the notation (the visualiser's has no negative numbers: none is drawn). With
    the search's `fit` off, the visualiser's draw wastes a fifth and more (about 31 % over
    1,500 draws), as it did."""
    def wasted(search) -> float:
        oracle = Oracle(OracleConfig(command=["none"], notation=notation, max_programs=300, max_depth=5, search=search))
        drawn, skipped = 0, 0
        for stage, (_, count) in enumerate(oracle.stages()):
            @settings(max_examples=count, derandomize=True, database=None, deadline=None,
                      suppress_health_check=list(HealthCheck))
            @given(oracle.strategy(stage))
            def draw(term):
                nonlocal drawn, skipped
                drawn += 1
                skipped += oracle.text_of(term) is None

            draw()
        return skipped / drawn

    from goi.oracle.cases import SEARCH

    assert wasted(frozenset(SEARCH)) <= 0.01
    if notation == "visualiser":
        assert wasted(frozenset(SEARCH) - {"fit"}) > 0.2


def test_a_printer_refusing_more_than_a_tenth_of_the_draw_is_warned_about():
    from goi.oracle.output import summary_lines
    from goi.oracle.notations import Inexpressible
    from goi.semantics.pretty import pretty

    def no_provisional_constants(term):
        text = pretty(term)
        if "{" in text:
            raise Inexpressible("no provisional constants here")
        return text

    report = run("correct", printer=no_provisional_constants, max_programs=20)
    assert report.skipped_share > 0.1 and report.failures == 0
    assert any("warning: the printer could not write" in line for line in summary_lines(report))
    assert not any("warning" in line for line in summary_lines(run("correct", max_programs=20)))


def test_swarm_and_sharing_draw_what_the_plain_draw_rarely_does():
    """Derandomised: with swarm testing some programs go without every arithmetic operator
    but one, and sharing patterns use one let-bound provisional constant inside a model two or
    three times — what the duplicated-constant bug needs. 1,000 draws each: the searched draw has
    about twice the plain one's share of such programs (51 against 28), so the bound is
    1.5 times, not a ratio the sample only reaches by luck."""
    def texts(**search):
        out = []

        @settings(max_examples=1000, derandomize=True, database=None, deadline=None, suppress_health_check=list(HealthCheck))
        @given(programs(max_depth=5, **search))
        def draw(term):
            out.append(term)

        draw()
        return out

    def shared_across(term) -> bool:  # let x = {c} in … let f @ p = (…x…) in (…x…) …
        for node in S.walk(term):
            if isinstance(node, S.Let) and isinstance(node.bound, S.Prov):
                for inner in S.walk(node.body):
                    if (isinstance(inner, S.LetDecouple) and node.var in S.free_variables(inner.bound)
                            and node.var in S.free_variables(inner.body)):
                        return True
        return False

    plain, searched = texts(), texts(signed=True, sharing=True, swarm=True)
    assert sum(map(shared_across, searched)) > 1.5 * max(1, sum(map(shared_across, plain)))
    assert any(not any(isinstance(n, S.BinOp) and n.op in ("-", "*", "/") for n in S.walk(t)) and S.size(t) > 12
               for t in searched)  # a large program with no arithmetic but + (swarm)


def test_two_bugs_giving_another_value_each_get_a_minimal_program():
    """goi's machine with two seeded rule mistakes that both give "another value" (a
    subtraction's operands swapped inside a let; a folded operation's left constant kept):
    one bucket, whose other members are reduced too, so both bugs show a minimal program."""
    zoo = Path(__file__).parent.parent / "benchmarks" / "zoo" / "goi_mutant.py"
    config = OracleConfig(command=[sys.executable, str(zoo), "--lines"], protocol="lines", max_programs=300, max_depth=5,
                          seed=1, database=None, corpus=False, jobs=2)
    report = Oracle(config).run()
    programs = [s.case.text for k, s in report.shrunk.items() if s.signature == "wrong-value: another value"]
    assert len(programs) >= 2, programs

    def fails_with_only(bug: str, text: str) -> bool:
        env = {**os.environ, "GOI_BUGS": bug}
        out = subprocess.run([sys.executable, str(zoo)], input=text, capture_output=True, text=True, env=env).stdout
        return parse_answer(out).value != goi.run(text).value

    assert any(fails_with_only("fold-left", t) for t in programs) and any(fails_with_only("sub-swapped", t) for t in programs)


# ---- known bugs set aside (--known, oracle/known.py) -----------------------------------------

def test_a_known_bucket_is_counted_not_shrunk_and_the_next_bug_is_found(tmp_path, capsys):
    """The mock has two bugs; with the first run's --out given as --known, the second run
    shrinks neither, counts both as known and exits 0 (no new bucket); with one of them known
    (a signature in a text file, or a program), the other is the one new bucket, shrunk."""
    from goi.oracle.known import read_known
    from goi.oracle.output import report_json, summary_lines, write_out

    first = run("two_errors", database=None)
    out = tmp_path / "out"
    out.mkdir()
    write_out(str(out), first)
    both = run("two_errors", database=None, known=read_known([str(out)]))
    assert not both.shrunk and set(both.known) == set(first.shrunk) and both.new_buckets == 0
    assert sum(both.known.values()) == both.counts[IMPL_ERROR] and not both.new_failures
    assert "0 new buckets; 2 known set aside" in "\n".join(summary_lines(both))
    product = "implementation-error: product of '…' by '…' overflows in multiplier N"
    listed = tmp_path / "known.txt"
    listed.write_text(f"# the product's bug, reported upstream\n{product}\n", encoding="utf-8")
    one = run("two_errors", database=None, known=read_known([str(listed)]))
    assert [s.case.text for s in one.shrunk.values()] == ["0 - 0"] and list(one.known) == [product]
    data = report_json(one)
    assert data["new_buckets"] == 1 and data["known"] == [{"signature": product, "count": one.known[product]}]
    programs = tmp_path / "programs.txt"
    programs.write_text("0 - 0\n", encoding="utf-8")  # known by a program: its signature on this run
    by_program = run("two_errors", database=None, known=read_known([str(programs)]))
    assert [s.case.text for s in by_program.shrunk.values()] == ["0 * 0"]


def test_known_reads_what_a_run_wrote_and_refuses_what_it_cannot_use(tmp_path, capsys):
    from goi.oracle.known import read_known
    from goi.semantics.errors import ReadError

    as_json = tmp_path / "run.json"
    as_json.write_text(json.dumps({"schema": "goi.oracle/2", "buckets": [{"signature": "hang"},
                                                                         {"signature": "wrong-value: the opposite sign"}]}))
    assert read_known([str(as_json)]).signatures == {"hang", "wrong-value: the opposite sign"}
    for bad in ("{}", "[1, 2]", '{"buckets": []}'):
        as_json.write_text(bad)
        with pytest.raises(ReadError, match="no signature"):
            read_known([str(as_json)])
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(ReadError, match="no failure"):
        read_known([str(empty)])
    code = main(["oracle", "--impl", " ".join(mock("correct")), "--known", str(tmp_path / "missing"), "--no-corpus"])
    assert code == exitcodes.BAD_INPUT and "cannot read" in capsys.readouterr().err


# ---- fragments by feature (issue 40, item 1) -------------------------------------------------

SMALLEST = frozenset({"no-provisional", "integers", "non-negative", "no-minus", "no-times", "no-division"})


def test_the_smallest_fragment_is_drawn_alone_and_nothing_is_refused():
    """Against an implementation of λ, let, natural numbers and + alone (tests/oracle_mocks/
    strict_fragment.py), declared by --fragment, not one program is refused and the survey
    reaches its target."""
    report = run("strict_fragment", fragments=SMALLEST, max_programs=60)
    assert report.counts[REJECTS_VALID] == 0 and report.counts[IMPL_ERROR] == 0
    assert report.counts["agree"] == report.programs == 60 and not report.short_of_target
    assert report.skipped <= 0.01 * (report.programs + report.skipped)


def test_without_the_fragment_the_same_implementation_refuses_most_of_the_draw():
    report = run("strict_fragment", max_programs=30, shrink_calls=20)
    assert report.counts[REJECTS_VALID] > 15


def test_every_fragment_draws_nothing_outside_it():
    from hypothesis import HealthCheck, given, settings

    from goi.oracle.survey import Oracle
    from goi.semantics import syntax as S

    for fragments in [{"no-provisional"}, {"integers"}, {"non-negative"}, {"no-plus"}, {"no-minus", "no-times"},
                      {"no-plus", "no-minus", "no-times", "no-division"}, SMALLEST]:
        oracle = Oracle(OracleConfig(command=["true"], fragments=frozenset(fragments)))
        outside = []

        @settings(max_examples=150, database=None, suppress_health_check=list(HealthCheck), derandomize=True)
        @given(oracle.strategy())
        def draw(term):
            from goi import api

            judgement = api.judge(term)
            if oracle.outside_fragment(judgement):
                outside.append(term)
            assert not any(isinstance(n, S.BinOp) and n.op == "+" for n in S.walk(term)) or "no-plus" not in fragments

        draw()
        assert not outside, (fragments, outside[:2])


def test_an_exhaustive_run_lists_only_the_fragment(tmp_path):
    report = run("strict_fragment", fragments=SMALLEST, exhaustive=5, max_programs=10)
    assert report.counts[REJECTS_VALID] == 0 and report.programs == report.exhaustive["of"] > 0
    from goi.generators.enumerate import Enumeration, Space

    assert report.exhaustive["of"] < Enumeration(Space()).count_upto(5)


def test_a_survey_short_of_its_target_says_so(monkeypatch):
    """A notation that can write nothing drawn: the survey ends short, and says so."""
    from goi.oracle import survey
    from goi.oracle.output import report_json, summary_lines

    monkeypatch.setattr(survey.Oracle, "text_of", lambda self, term: None)
    report = run("correct", max_programs=40)
    assert report.programs == 0 and report.short_of_target
    assert summary_lines(report)[0].startswith("SHORT of the 40 programs asked for: ") and report_json(report)["target"] == 40


# ---- arithmetic as a choice (issue 40, item 3) -------------------------------------------------

DIVIDING = ["0 / 0", "1 / 0", "(0 - 1) / 0", "0.1 + 0.2", "{1} / 0 + 1", "7 / 2", "(0 - 7) / 2",
            "let f @ p = {3} / 0 in f p"]


def test_an_implementation_right_by_its_doubles_raises_no_alarm():
    """A JavaScript-like implementation (NaN, Infinity, rounding): with --arithmetic ieee754 it
    agrees on every program, x/0 and 0/0 included; by the rationals it is wrong on them."""
    doubles = Oracle(OracleConfig(command=mock("ieee_doubles", "--lines"), protocol="lines", arithmetic="ieee754"))
    exact = Oracle(OracleConfig(command=mock("ieee_doubles", "--lines"), protocol="lines"))
    try:
        for text in DIVIDING:
            assert doubles.classify(text).klass == AGREE, (text, doubles.classify(text))
        assert [exact.classify(t).klass for t in ("0 / 0", "1 / 0", "0.1 + 0.2")] == [WRONG_VALUE] * 3
    finally:
        doubles.close()
        exact.close()
    report = run("ieee_doubles", arithmetic="ieee754", max_programs=60)
    assert report.counts[AGREE] == report.programs == 60


def test_a_bug_under_doubles_is_still_found_and_ulps_are_counted():
    from goi.oracle.arithmetic import ulps

    assert ulps(0.1, 0.1) == 0 and ulps(1.0, 1.0000000000000002) == 1 and ulps(0.0, -0.0) == 0
    assert ulps(-1.0, -1.0000000000000002) == 1 and ulps(5e-324, -5e-324) == 2
    reversed_ = Oracle(OracleConfig(command=mock("reversed", "--lines"), protocol="lines", arithmetic="ieee754"))
    try:  # read backwards, 0.5 - 2 is 2 - 5.0: subtraction the wrong way round, wrong in any arithmetic
        assert reversed_.classify("0.5 - 2").klass == WRONG_VALUE
    finally:
        reversed_.close()
    oracle = Oracle(OracleConfig(command=mock("ieee_doubles", "--lines"), protocol="lines", arithmetic="ieee754",
                                 ulps=1))
    try:
        assert oracle.classify("0.1 + 0.2").klass == AGREE
    finally:
        oracle.close()


def test_an_implementation_right_by_its_integers_raises_no_alarm():
    trunc = Oracle(OracleConfig(command=mock("integer_trunc", "--lines"), protocol="lines", arithmetic="integer"))
    floor = Oracle(OracleConfig(command=mock("integer_trunc", "--lines"), protocol="lines", arithmetic="integer",
                                integer_division="floor"))
    try:
        assert [trunc.classify(t).klass for t in ("7 / 2", "(0 - 7) / 2", "1 / 0")] == [AGREE] * 3
        assert floor.classify("(0 - 7) / 2").klass == WRONG_VALUE  # -3 by trunc, -4 by floor
    finally:
        trunc.close()
        floor.close()
    report = run("integer_trunc", arithmetic="integer", max_programs=60)
    assert report.counts[AGREE] == report.programs == 60
    assert "integers" in report.config.all_fragments


def test_arithmetic_options_that_contradict_each_other_are_usage_errors(capsys):
    impl = " ".join(mock("correct"))
    for argv in (["--arithmetic", "ieee754", "--tolerance", "1e-9"], ["--arithmetic", "ieee754", "--division", "strict"],
                 ["--ulps", "2"]):
        assert main(["oracle", "--impl", impl, "--no-corpus", *argv]) == exitcodes.USAGE
        capsys.readouterr()


# ---- a printer of one's own, plumbed (issue 40) -------------------------------------------------

BAD_PRINTERS = '''
import time
from goi.semantics.pretty import pretty
def raises(term):
    raise KeyError("boom")
def number(term):
    return 3
def blocks(term):
    time.sleep(3600)
def good(term):
    return pretty(term)
def value_error(term):
    raise ValueError("a bug of the printer's, not a program it cannot write")
def surrogate(term):
    return pretty(term) + "\\ud800"
class Odd(str):
    def encode(self, *args, **kwargs):
        raise RuntimeError("never called")
    def __str__(self):
        raise RuntimeError("never called")
def odd(term):
    return Odd(pretty(term))
def backtracks(term):
    import re
    return pretty(term) if re.match(r"(a+)+$", "a" * 40 + "b") else pretty(term)
def closes(term):
    import os, sys
    sys.stdout.close()
    for fd in (1, 2):
        try:
            os.close(fd)
        except OSError:
            pass
    return pretty(term)
def inexpressible(term):
    from goi.oracle.notations import Inexpressible
    raise Inexpressible("nothing")
'''


@pytest.mark.parametrize("function, says", [("raises", "it raised KeyError"), ("number", "it returned int"),
                                            ("blocks", "no answer within 1 s"),
                                            ("value_error", "it raised ValueError: a bug of the printer's"),
                                            ("surrogate", "text that cannot be sent"),
                                            ("backtracks", "no answer within 1 s")])
def test_a_printer_that_misbehaves_is_one_line_and_bounded(tmp_path, capsys, function, says):
    path = tmp_path / "printers.py"
    path.write_text(BAD_PRINTERS, encoding="utf-8")
    code = main(["oracle", "--impl", " ".join(mock("correct")), "--printer", f"{path}:{function}", "--timeout", "1",
                 "--max-programs", "3", "--no-corpus", "--no-database"])
    err = capsys.readouterr().err
    assert code == exitcodes.USAGE and says in err and "Traceback" not in err


def test_a_printers_process_is_its_own(tmp_path, capsys):
    """Issue 52: the printer runs in a process of its own. A str subclass is sent as plain
    text (its own methods never called); a printer that closes its standard output and error
    closes its own, not goi's (the JSON is whole); one that can write nothing leaves the
    survey SHORT with nothing tested — exit 9, never 0."""
    path = tmp_path / "printers.py"
    path.write_text(BAD_PRINTERS, encoding="utf-8")
    for function in ("odd", "closes"):
        code = main(["oracle", "--impl", " ".join(mock("correct")), "--printer", f"{path}:{function}",
                     "--max-programs", "3", "--no-corpus", "--no-database", "--json"])
        out = capsys.readouterr().out
        assert code == exitcodes.OK and json.loads(out)["programs"] == 3, (function, out)
    code = main(["oracle", "--impl", " ".join(mock("correct")), "--printer", f"{path}:inexpressible",
                 "--max-programs", "3", "--no-corpus", "--no-database"])
    out = capsys.readouterr().out
    assert code == exitcodes.SHORT and out.startswith("SHORT of the 3 programs asked for: 0 generated programs"), out


def test_ctrl_c_stops_a_printer_that_holds_the_interpreter(tmp_path):
    """Issue 52: a printer stuck in a backtracking regular expression holds its interpreter's
    lock; goi, waiting on its process, still answers Ctrl-C (exit 130, one line, no traceback)
    and leaves no process behind. (The guard on the wait is a hang detector, not a verdict.)"""
    import signal
    import subprocess
    import sys

    from conftest import hear_ctrl_c

    marker = tmp_path / "started"
    (tmp_path / "stuck.py").write_text(
        "import re\n"
        "def show(term):\n"
        f"    open({str(marker)!r}, 'w').close()\n"
        "    re.match(r'(a+)+$', 'a' * 60 + 'b')\n"
        "    return 'never'\n", encoding="utf-8")
    proc = subprocess.Popen([sys.executable, "-m", "goi", "oracle", "--impl", " ".join(mock("correct")), "--printer",
                             f"{tmp_path / 'stuck.py'}:show", "--timeout", "3600", "--no-corpus", "--no-database",
                             "--max-programs", "3"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=hear_ctrl_c)
    try:
        for _ in range(6000):  # the printer's process has started its regex (counted, not timed)
            if marker.exists() or proc.poll() is not None:
                break
            import time
            time.sleep(0.05)
        assert marker.exists(), proc.communicate(timeout=600)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=600)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130 and "Traceback" not in err, (proc.returncode, err)
    import os
    leftovers = [line for line in os.popen("ps -eo args").read().splitlines() if str(tmp_path / "stuck.py") in line]
    assert leftovers == [], leftovers


def test_a_printer_from_a_file_is_named_in_the_summary_and_its_replay(tmp_path, capsys, monkeypatch):
    path = tmp_path / "printers.py"
    path.write_text(BAD_PRINTERS, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code = main(["oracle", "--impl", " ".join(mock("reversed")), "--printer", "printers.py:good", "--max-programs", "20",
                 "--no-corpus", "--no-database", "--tolerance", "1e-9", "--shrink-calls", "20", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == exitcodes.NOT_EQUIVALENT
    assert data["tolerance"] == "0.000000001" and data["printer"] == f"{path}:good"
    replay = data["buckets"][0]["replay"]
    assert f"--printer {path}:good" in replay and "--tolerance 0.000000001" in replay


def test_shrinking_a_hang_prices_each_try_by_our_machines_cost_and_confirms_the_result(monkeypatch):
    """With --timeout 6, a survey's hang costs 6 s; each shrinking try is bounded by 100× what
    goi's machine needed for that program, at least 1 s — and the shrunk program is asked
    once more at the full 6 s before it is reported (the bounds asked for are counted, not timed)."""
    from goi.oracle import sessions
    from goi.oracle.cases import HANG_FLOOR

    asked = []
    original = sessions.Session._exchange

    def recording(self, program, timeout):
        asked.append(timeout)
        return original(self, program, timeout)

    monkeypatch.setattr(sessions.Session, "_exchange", recording)
    from goi.oracle import asking

    # 100× goi's own time is ~0.1-0.5 s idle but could pass --timeout on a loaded machine: the
    # factor set to 0 so that every try is priced at the floor, whatever the load (the verdict
    # must not depend on the machine's speed); the multiple itself is Oracle.hang_timeout's
    monkeypatch.setattr(asking, "HANG_FACTOR", 0)
    # the mock started so that its command line does not name it (the test beside this one
    # looks for its own mock's processes by name)
    code = ("import runpy, sys, os; d = sys.argv[1]; sys.path.insert(0, d); "
            "runpy.run_path(os.path.join(d, 'loop_on' + '_iteration.py'), run_name='__main__')")
    command = [sys.executable, "-c", code, str(MOCKS), "--lines"]
    report = Oracle(OracleConfig(command=command, protocol="lines", timeout=6.0, max_programs=15, jobs=2,
                                 database=None, corpus=False, shrink_calls=1000)).run()
    shrunk = only(report, HANG)
    assert shrunk.case.klass == HANG and len(shrunk.case.text) <= len(shrunk.first.text)
    priced = [t for t in asked if t < 6.0]
    assert priced and all(t == HANG_FLOOR for t in priced)  # the shrinking's tries
    assert asked.count(6.0) >= report.programs  # the survey and the confirmation: the full bound


def test_a_hangs_price_is_a_multiple_of_our_time_with_a_floor_and_a_ceiling():
    oracle = Oracle(OracleConfig(command=["true"], timeout=5.0))
    oracle.ours.update({"a": 0.001, "b": 0.02, "c": 1.0})
    assert [oracle.hang_timeout(t) for t in ("a", "b", "c", "unknown")] == [1.0, 2.0, 5.0, 1.0]


def test_steering_switches_off_the_construct_most_particular_to_a_dominant_bucket():
    """Every program of the bucket folds, decouples and takes a dot product; of the agreeing
    programs most decouple, some take dot products, few fold: the fold is switched off (a
    program without it cannot show the bug) and decoupling stays for the other bugs. A
    construct as common among the agreeing programs as in the bucket steers nothing."""
    from goi.oracle.steering import features, needs
    from goi.semantics.parser import parse

    bucket = [parse(t) for t in ("let f @ p = {1} in p • ((λb. b) +^L p)",
                                 "let g @ q = {2} + {3} in (q • q) + (q • ((λb. b) +^L q))")]
    assert all({"iterated", "decouple", "dot"} <= features(t) for t in bucket)
    agreeing = [parse(t) for t in ("let f @ p = {1} in f p", "let f @ p = {1} in p • p", "let f @ p = {2} in 1",
                                   "1 + 2", "let f @ p = {1} in 0 * (p • ((λb. b) +^L p))")]
    assert needs(bucket, agreeing) == {"iterated"}
    folds = [parse("let f @ p = {1} in f ((λb. b) +^L p)")] * 2
    assert needs(bucket, agreeing + folds) == {"dot"}
    assert needs(bucket, [parse("let f @ p = {1} in p • ((λb. b) +^L p)")]) == frozenset()
