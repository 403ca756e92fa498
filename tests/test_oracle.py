"""Oracle mode (properties/oracle.py, properties/external.py, goi oracle): mock
implementations in tests/oracle_mocks/, one per class of failure, each found and shrunk to
the minimal program of its pattern; a correct one gives no failure. Every run here is
seeded (the same programs, the same verdict on every run)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

import goi
from goi.cli import main
from goi.generators.typed import programs
from goi.properties.external import call, parse_answer
from goi.properties.oracle import (
    ACCEPTS_INVALID,
    AGREE,
    HANG,
    IMPL_ERROR,
    REJECTS_VALID,
    WRONG_VALUE,
    Oracle,
    OracleConfig,
    same,
)
from goi.semantics import exitcodes
from goi.semantics.notation import render

MOCKS = Path(__file__).parent / "oracle_mocks"


def mock(name: str, *extra: str) -> list[str]:
    return [sys.executable, str(MOCKS / f"{name}.py"), *extra]


def run(name: str, **options):
    options.setdefault("max_programs", 40)
    options.setdefault("jobs", 2)
    options.setdefault("database", None)
    options.setdefault("corpus", False)
    return Oracle(OracleConfig(command=mock(name), **options)).run()


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


# ---- notations ------------------------------------------------------------------------------

@settings(max_examples=200, derandomize=True, database=None, deadline=None, suppress_health_check=list(HealthCheck))
@given(programs(max_depth=4, iterated=False, decoupling_values=False))
def test_the_visualiser_notation_means_the_same_program(term):
    judgement = goi.check(goi.semantics.pretty.pretty(term))
    text = render(judgement, "visualiser")
    assert all(name.isascii() and name.isalpha() for name in re.findall(r"(?<![\w.])[A-Za-z_][\w']*", text))
    again = goi.check(text)
    assert again.params == judgement.params and again.type == judgement.type
    assert goi.run(again).value == goi.run(judgement).value
    assert "@" not in text and ":" not in text  # abs form, no annotations


def test_visualiser_names_are_letters_only_and_vector_operators_explicit():
    judgement = goi.check("let f @ p = λx:F. {1} * x in let q1 = p + (2 * p) in f q1 1 + q1 • p")
    text = render(judgement, "visualiser")
    assert text == "let (f, p) = abs (λx. {1} * x) in let qa = p ⊞ 2 ⊠ p in f qa 1 + qa ⊡ p"
    assert goi.run(text).value == goi.run(judgement).value


# ---- the mocks: one class of failure each ---------------------------------------------------------

def only(report, klass):
    assert set(report.shrunk) == {klass}, {k: s.case.text for k, s in report.shrunk.items()}
    shrunk = report.shrunk[klass]
    assert shrunk.complete
    return shrunk


def test_a_correct_implementation_gives_no_failure_corpus_included():
    report = run("correct", corpus=True, ill_typed=True)
    assert report.failures == 0 and report.counts[AGREE] == report.programs > 0
    assert report.corpus_run >= 15


def test_a_crash_on_a_construct_is_found_and_shrunk():
    shrunk = only(run("crash_on_subtraction"), IMPL_ERROR)
    assert shrunk.case.text == "0 - 0" and shrunk.case.expected == 0
    assert "NotImplementedError" in shrunk.case.answer.message


def test_an_infinite_loop_is_a_hang_found_and_shrunk_with_nothing_left_running():
    shrunk = only(run("loop_on_iteration", timeout=1.0), HANG)
    assert shrunk.case.text == "let x1 @_a2 a2 : F = 0 in ((λe3:V_a2. e3 ⊞ a2) +^L a2) • a2 + 0"
    left = subprocess.run(["pgrep", "-f", "loop_on_iteration"], capture_output=True, text=True).stdout.split()
    assert not left


def test_the_shrink_budget_bounds_a_hang():
    # each hang costs the 1 s timeout, so a 0.5 s budget runs out while shrinking: the
    # failure is still reported (as found), and no implementation call starts past the budget
    oracle = Oracle(OracleConfig(command=mock("loop_on_iteration"), max_programs=40, jobs=2, database=None, corpus=False,
                                 timeout=1.0, shrink_seconds=0.5))
    report = oracle.run()
    shrunk = report.shrunk[HANG]
    assert not shrunk.complete and "+^L" in shrunk.case.text
    assert all(start <= oracle.deadlines[HANG] for start in oracle.call_starts)


def test_rejecting_a_valid_construct_is_found_and_shrunk():
    shrunk = only(run("reject_dot"), REJECTS_VALID)
    assert shrunk.case.text == "let a1 @_a1 p2 : F = 0 in p2 • p2 + 0"


def test_floating_point_within_the_tolerance_agrees():
    report = run("float_arithmetic", tolerance=Fraction(1, 10**9))
    assert report.failures == 0


def test_floating_point_rounding_outside_the_tolerance_is_a_wrong_value():
    shrunk = only(run("float_arithmetic", max_programs=60), WRONG_VALUE)
    assert shrunk.case.text == "3 * 0.1"
    assert shrunk.case.expected == Fraction(3, 10) and shrunk.case.answer.value == Fraction("0.30000000000000004")  # the decimal it printed, read exactly


def test_a_shared_provisional_constant_duplicated_in_a_model_is_a_wrong_value():
    shrunk = only(run("duplicate_shared_constant", max_programs=100), WRONG_VALUE)
    assert shrunk.case.text == "let a1 @_a1 p2 : F = let a1 : F = {1} in a1 + (a1 + 0) in p2 • p2 + 0"
    assert (shrunk.case.expected, shrunk.case.answer.value) == (1, 2)  # p = (1), not (1, 1)


def test_accepting_an_ill_typed_program_is_found_with_ill_typed():
    assert run("accept_ill_typed").failures == 0  # without --ill-typed nothing to see
    shrunk = only(run("accept_ill_typed", ill_typed=True), ACCEPTS_INVALID)
    assert shrunk.case.text == "0 0" and str(shrunk.case.expected).startswith("ill-typed")


def test_failures_are_kept_and_replayed_first_from_the_example_database(tmp_path):
    database = str(tmp_path / "db")
    first = run("crash_on_subtraction", database=database)
    assert first.shrunk[IMPL_ERROR].case.text == "0 - 0"
    again = run("crash_on_subtraction", database=database, max_programs=1)  # one program: no subtraction drawn
    assert again.counts[IMPL_ERROR] == 0 and again.shrunk[IMPL_ERROR].case.text == "0 - 0"


# ---- the command -------------------------------------------------------------------------------

def test_oracle_command_json_and_out_dir(capsys, tmp_path):
    from test_cli_contract import validate

    out = tmp_path / "failures"
    code = main(["oracle", "--impl", " ".join(mock("crash_on_subtraction")), "--no-database", "--jobs", "2",
                 "--max-programs", "40", "--out", str(out), "--json"])
    data = json.loads(capsys.readouterr().out)
    validate(data)
    assert code == exitcodes.NOT_EQUIVALENT and data["failures"]["implementation-error"]["program"] == "0 - 0"
    assert (out / "implementation-error.goi").read_text(encoding="utf-8") == "0 - 0\n"
    meta = json.loads((out / "implementation-error.json").read_text(encoding="utf-8"))
    assert meta["expected"] == "0" and meta["class"] == "implementation-error"
    assert sorted(p.name for p in out.iterdir() if p.name.startswith("corpus-"))  # the corpus failures too


def test_oracle_command_text_and_usage_errors(capsys):
    code = main(["oracle", "--impl", " ".join(mock("correct")), "--no-database", "--no-corpus", "--max-programs", "10"])
    assert code == exitcodes.OK and "no disagreement found" in capsys.readouterr().out
    assert main(["oracle", "--impl", ""]) == exitcodes.USAGE
    assert main(["oracle", "--impl", "x", "--fragment", "no-such"]) == exitcodes.USAGE
    assert main(["oracle", "--impl", "x", "--tolerance", "-1"]) == exitcodes.USAGE
    assert main(["oracle"]) == exitcodes.USAGE
    code = main(["oracle", "--impl", "/nonexistent/impl", "--no-database", "--no-corpus", "--max-programs", "3"])
    assert code == exitcodes.NOT_EQUIVALENT and "cannot start" in capsys.readouterr().out
