"""A verdict of oracle mode to take at face value (issue 51): a run never dies of goi's own
budget, a hang is judged on the implementation's CPU time and confirmed before it is
reported, so that a one-bug implementation is one defect on an idle machine and on a busy
one. The busy machine is simulated, never made: a mock sleeps once past the timeout (the wall
clock passes, no CPU time is used, as for a process the scheduler gives nothing), or spins
once (a real hang, once)."""

from __future__ import annotations

import json
import shlex
from fractions import Fraction

import pytest

from goi.cli import exitcodes, main
from goi.oracle.cputime import WALL_FACTOR, ProgramClock, is_hang
from goi.oracle.survey import AGREE, HANG, IMPL_ERROR, Oracle, OracleConfig

from test_oracle import mock, run

SUBTRACTION = "implementation-error: NotImplementedError: subtraction is not implemented"


# ---- goi's own budget ------------------------------------------------------------------------

def test_a_program_beyond_gois_budget_is_skipped_and_counted_and_the_run_goes_on():
    oracle = Oracle(OracleConfig(command=mock("crash_on_subtraction", "--lines"), protocol="lines", max_programs=20,
                                 database=None, corpus=False, max_nodes=60))
    report = oracle.run()
    assert report.beyond_budget > 0 and report.programs == 20
    # never sent: every call was one of the programs of the survey or of the shrinking
    assert all(case.expected != "beyond-budget" for case in report.cases)
    # what was found is still found and written
    assert list(report.shrunk) == [SUBTRACTION]


def test_max_nodes_is_an_option_of_goi_oracle_and_its_replay(capsys):
    impl = " ".join(mock("crash_on_subtraction", "--lines"))
    code = main(["oracle", "--impl", impl, "--protocol", "lines", "--no-database", "--no-corpus", "--max-programs", "15",
                 "--max-nodes", "60", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == exitcodes.NOT_EQUIVALENT and data["beyond_budget"] > 0 and data["max_nodes"] == 60
    assert "--max-nodes 60" in data["buckets"][0]["replay"]
    # a program past the budget replayed: said, with what to do, not a traceback
    assert main(["oracle", "--impl", impl, "--protocol", "lines", "--max-nodes", "5", "--replay-program",
                 "(λx. x + x) (1 - 2)"]) == exitcodes.USAGE
    assert "raise --max-nodes" in capsys.readouterr().err


# ---- hangs no load can fake ------------------------------------------------------------------

class _Readings:
    """A slowed clock: CPU readings of the implementation's first process, scripted."""

    def __init__(self, *cpu):
        self.cpu = list(cpu)

    def __call__(self, pid):
        return pid, self.cpu.pop(0) if len(self.cpu) > 1 else self.cpu[0]


def test_a_hang_is_cpu_time_past_the_timeout_or_many_timeouts_of_wall_time():
    # 3 s of wall time on a 1-s timeout, 0.2 s of CPU time: a busy machine, not a hang
    assert not is_hang(ProgramClock(7, _Readings(10.0, 10.2)), 3.0, 1.0)
    # 1 s of CPU time on the program: a hang, whatever the wall clock says
    assert is_hang(ProgramClock(7, _Readings(10.0, 11.0)), 1.5, 1.0)
    # a process that uses no CPU time (blocked) is a hang at WALL_FACTOR timeouts
    assert is_hang(ProgramClock(7, _Readings(10.0, 10.0)), WALL_FACTOR * 1.0, 1.0)
    # before the timeout nothing is a hang; without a CPU clock the wall clock decides
    assert not is_hang(ProgramClock(7, _Readings(10.0, 99.0)), 0.9, 1.0)
    assert is_hang(ProgramClock(7, lambda pid: None), 1.01, 1.0)


@pytest.fixture
def stall(tmp_path, monkeypatch):
    def stall_once(how: str) -> None:
        monkeypatch.setenv("GOI_MOCK_STALL_MARK", str(tmp_path / f"stalled-{how}"))
        monkeypatch.setenv("GOI_MOCK_STALL", how)
        monkeypatch.setenv("GOI_MOCK_STALL_SECONDS", "1.6")
    return stall_once


def test_one_bug_is_one_defect_on_an_idle_machine():
    report = run("stalls_once", timeout=1.0, max_programs=12)
    assert list(report.shrunk) == [SUBTRACTION] and report.counts[HANG] == 0


def test_one_bug_is_one_defect_when_the_machine_gives_the_implementation_no_cpu_for_longer_than_the_timeout(stall):
    stall("sleep")  # the first program waits 1.6 s on a 1-s timeout, using no CPU time
    report = run("stalls_once", timeout=1.0, max_programs=12)
    assert list(report.shrunk) == [SUBTRACTION] and report.counts[HANG] == 0
    assert report.counts[AGREE] + report.counts[IMPL_ERROR] == report.programs


def test_a_hang_that_does_not_hang_again_at_the_full_timeout_is_not_reported(stall):
    stall("spin")  # the first program spins 1.6 s of CPU time on a 1-s timeout, once
    report = run("stalls_once", timeout=1.0, max_programs=12)
    assert report.counts[HANG] == 1  # it was a hang when asked
    assert list(report.shrunk) == [SUBTRACTION] and report.unconfirmed == {HANG: 1}


# ---- arithmetic, declared ------------------------------------------------------------------------
# The mock computes with Python's own numbers (tests/oracle_mocks/own_arithmetic.py), never with
# goi's machine or fields; the expected values below are fixed by hand.

DECLARED = [("decimal-doubles", "ieee754,signed-zero=no"), ("doubles-error", "ieee754,by-zero=error"),
            ("int63-wrap", "integer,bits=63,by-zero=error"), ("int32-error", "integer,bits=32,overflow=error,by-zero=error"),
            ("rationals", "exact")]


@pytest.mark.parametrize("kind,arithmetic", DECLARED)
def test_an_implementation_right_by_its_declared_arithmetic_raises_no_alarm(kind, arithmetic, monkeypatch):
    monkeypatch.setenv("MOCK_ARITHMETIC", kind)
    report = run("own_arithmetic", arithmetic=arithmetic, fragments=frozenset({"no-provisional"}), max_programs=60)
    assert report.failures == 0 and report.programs == 60, {k: s.case.text for k, s in report.shrunk.items()}


@pytest.mark.parametrize("kind,arithmetic,program,verdict", [
    # -0 read back through decimal text is 0: 1/(-0) is +Infinity there, -Infinity in IEEE-754
    ("decimal-doubles", "ieee754", "1 / ((0 - 1) * 0)", "wrong-value"),
    ("decimal-doubles", "ieee754,signed-zero=no", "1 / ((0 - 1) * 0)", "agree"),
    ("decimal-doubles", "ieee754,signed-zero=no", "(0 - 1) / 0", "agree"),  # -Infinity all the same
    ("doubles-error", "ieee754", "1 / 0", "implementation-error"),
    ("doubles-error", "ieee754,by-zero=error", "1 / 0", "agree"),
    ("doubles-error", "ieee754,by-zero=error", "1 / 4", "agree"),
    ("int32-error", "integer", "65536 * 65536", "implementation-error"),
    ("int32-error", "integer,bits=32", "65536 * 65536", "implementation-error"),  # it does not wrap
    ("int32-error", "integer,bits=32,overflow=error", "65536 * 65536", "agree"),
    ("int32-error", "integer,bits=32,overflow=error", "65535 * 32768", "agree"),  # 2^31 - 32768 fits
    ("int63-wrap", "integer", "2147483648 * 2147483648 * 2", "wrong-value"),  # 2^63 wraps to 0
    ("int63-wrap", "integer,bits=63", "2147483648 * 2147483648 * 2", "agree"),
    ("int63-wrap", "integer,bits=63", "7 / 0", "implementation-error"),  # 0 by --division total
    ("int63-wrap", "integer,bits=63,by-zero=error", "7 / 0", "agree"),
    ("int63-wrap", "integer,bits=63,by-zero=error", "(0 - 7) / 2", "agree"),  # -3: toward zero
    ("int63-wrap", "integer,bits=63,by-zero=error,rounding=floor", "(0 - 7) / 2", "wrong-value"),  # -4 expected
])
def test_the_declared_arithmetic_decides_the_verdict(kind, arithmetic, program, verdict, monkeypatch):
    monkeypatch.setenv("MOCK_ARITHMETIC", kind)
    oracle = Oracle(OracleConfig(command=mock("own_arithmetic"), arithmetic=arithmetic, database=None, corpus=False))
    try:
        case = oracle.classify(program)
    finally:
        oracle.close()
    assert case.klass == verdict, (case.expected, case.answer)


def test_declared_fields_compute_what_their_declaration_says():
    import math

    from goi.semantics.values import IEEEField, IntegerField, Overflow

    plain, text = IEEEField(), IEEEField(signed_zero=False)
    assert math.copysign(1.0, plain.mul(-1.0, 0.0)) == -1.0 and math.copysign(1.0, text.mul(-1.0, 0.0)) == 1.0
    assert plain.div(1.0, -0.0) == -math.inf and text.div(1.0, text.const("-0")) == math.inf
    assert IEEEField(by_zero="zero").div(3.0, 0.0) == 0.0
    wrap32, stop32 = IntegerField(bits=32), IntegerField(bits=32, overflow="error")
    assert wrap32.add(2147483647, 1) == -2147483648 and wrap32.mul(65536, 65536) == 0
    assert wrap32.div(-2147483648, -1) == -2147483648  # the one quotient that overflows
    with pytest.raises(Overflow):
        stop32.sub(-2147483648, 1)
    assert IntegerField(bits=63).mul(2**31, 2**31) == -(2**62) and IntegerField(bits=63).mul(2**31, 2**32) == 0
    with pytest.raises(ValueError, match="bits"):
        IntegerField(bits=1)


@pytest.mark.parametrize("spec,message", [
    ("integer,bits=99999", "bits is a whole number"), ("ieee754,signed-zero=maybe", "signed-zero is one of"),
    ("exact,bits=32", "exact has no setting 'bits'"), ("ieee754,by-zero", "is not KEY=VALUE"),
    ("floats", "unknown arithmetic"), ("integer,bits=8,bits=9", "set twice"),
])
def test_a_declaration_that_is_not_one_is_a_usage_error_naming_the_setting(spec, message, capsys):
    assert main(["oracle", "--impl", "true", "--arithmetic", spec]) == exitcodes.USAGE
    assert message in capsys.readouterr().err


def test_the_arithmetic_travels_with_the_replay_command(capsys, monkeypatch):
    monkeypatch.setenv("MOCK_ARITHMETIC", "int63-wrap")
    impl = " ".join(mock("own_arithmetic", "--lines"))
    # a one-bug implementation: the mock under a declaration that differs in its division by zero
    code = main(["oracle", "--impl", impl, "--protocol", "lines", "--no-database", "--no-corpus", "--max-programs", "40",
                 "--fragment", "no-provisional", "--arithmetic", "integer,bits=63", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == exitcodes.NOT_EQUIVALENT and data["defects"] == 1
    assert "--arithmetic integer,bits=63" in data["buckets"][0]["replay"]


# ---- a target is one declaration -------------------------------------------------------------------

PLAIN_TARGET = """
# a command-line implementation, connected with no code: it exits 2 on a parse error and on a
# crash alike; only standard error tells them apart
command = ["{python}", "{mock}", "{{file}}"]
timeout = 10

[answer]
value = 'result = (?P<value>.+)'
rejected = {{ exit = [2], stderr = "syntax error" }}
error = {{ exit = [3], stderr = "runtime error" }}
"""


def plain_target(tmp_path, extra: str = "") -> str:
    import sys

    from test_oracle import MOCKS

    path = tmp_path / "plain.toml"
    path.write_text(PLAIN_TARGET.format(python=sys.executable, mock=MOCKS / "plain_cli.py") + extra, encoding="utf-8")
    return str(path)


def test_a_command_line_implementation_is_connected_by_one_target_file(tmp_path, capsys):
    target = plain_target(tmp_path)
    code = main(["oracle", "--target", target, "--no-database", "--no-corpus", "--max-programs", "12", "--jobs", "2",
                 "--division", "strict", "--json"])
    data = json.loads(capsys.readouterr().out)
    # its one bug, a crash on products, is one defect; nothing it answered was misread
    assert code == exitcodes.NOT_EQUIVALENT and data["defects"] == 1, data["buckets"]
    (bucket,) = data["buckets"]
    assert bucket["signature"] == "implementation-error: Fatal error: exception Invalid_argument(…)"
    assert bucket["program"] == "0 * 0" and bucket["implementation"]["exit"] == 2
    assert data["counts"]["rejects-valid"] == 0 and data["counts"]["agree"] > 0
    # the replay command carries the target, not its contents
    assert bucket["replay"].startswith(f"goi oracle --target {target} ") and "--impl" not in bucket["replay"]
    assert main(shlex.split(bucket["replay"])[1:]) == exitcodes.NOT_EQUIVALENT


@pytest.mark.parametrize("program,verdict,answer", [
    ("1 + 2", "agree", "value"),
    ("(λx. x) 2", "agree", "value"),
    ("2 * 3", "implementation-error", "crash"),  # exit 2, but not a syntax error: a crash
    ("1 / 0", "agree", "error"),  # exit 3, a runtime error, where goi is undefined (--division strict)
])
def test_a_target_reads_exit_codes_and_standard_error_as_it_declares(tmp_path, program, verdict, answer):
    from goi.oracle.target import read_target

    target = read_target(plain_target(tmp_path))
    config = OracleConfig(command=shlex.split(target.options["command"]), reading=target.reading, database=None,
                          corpus=False, division="strict")
    oracle = Oracle(config)
    try:
        case = oracle.classify(program)
    finally:
        oracle.close()
    assert (case.klass, case.answer.kind) == (verdict, answer), case.answer


def test_a_rejection_is_what_the_target_says_it_is():
    from goi.oracle.protocols import _read_plain
    from goi.oracle.target import Reading, When
    import re

    reading = Reading(re.compile(r"result = (?P<value>\S+)"), (0,), When((2,), stderr=re.compile("syntax error")))
    assert _read_plain(reading, "", "syntax error at 1:3\n", 2).kind == "rejected"
    assert _read_plain(reading, "", "Segmentation fault\n", 2).kind == "crash"
    assert _read_plain(reading, "", "syntax error at 1:3\n", 1).kind == "crash"  # not the declared status
    answer = _read_plain(reading, "log line\nresult = 0.75\n", "", 0)
    assert (answer.kind, answer.value) == ("value", Fraction(3, 4))
    assert _read_plain(reading, "result = banana\n", "", 0).kind == "unparseable"


@pytest.mark.parametrize("text,message", [
    ("command = 3", "command: the implementation's command"),
    ('command = "x"\nprotocl = "lines"', "protocl: not a key of a target"),
    ('command = "x"\narithmetic = "integer,bits=1"', "arithmetic: integer: bits is a whole number"),
    ('command = "x"\n[answer]\nrejected = { exit = [2] }', "answer.value: required"),
    ('command = "x"\n[answer]\nvalue = "("', "answer.value: not a regular expression"),
    ('command = "x"\nfragment = ["no-such"]', "fragment: unknown fragment"),
    ('command = "x"\ntimeout = -1', "timeout: seconds"),
    ('command = "x"\nprotocol = "lines"\n[answer]\nvalue = "."', "answer: a persistent session"),
    ("command = [", "not a TOML file"),
])
def test_a_target_that_cannot_be_used_is_one_line_naming_the_file_and_the_key(tmp_path, capsys, text, message):
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    assert main(["oracle", "--target", str(path)]) == exitcodes.USAGE
    err = capsys.readouterr().err
    assert message in err and str(path) in err and "Traceback" not in err


def test_a_target_declares_notation_fragment_arithmetic_and_known_bugs(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("MOCK_ARITHMETIC", "int63-wrap")
    from test_oracle import MOCKS

    known = tmp_path / "known.txt"
    known.write_text("# division by zero: an error, goi says 0\nimplementation-error: Division_by_zero\n", encoding="utf-8")
    path = tmp_path / "own.toml"
    path.write_text(f"""
command = ["{__import__('sys').executable}", "{MOCKS / 'own_arithmetic.py'}", "--lines"]
protocol = "lines"
fragment = ["no-provisional"]
arithmetic = {{ name = "integer", bits = 63 }}
known = ["known.txt"]

[notation]
name = "inline-paper"
[notation.forms]
lambda = "λ{{x}}. {{body}}"
let = "let {{x}} = {{bound}} in {{body}}"
[notation.operators]
add = {{ symbol = "+", precedence = 6 }}
sub = {{ symbol = "-", precedence = 6 }}
mul = {{ symbol = "*", precedence = 7 }}
div = {{ symbol = "/", precedence = 7 }}
""", encoding="utf-8")
    code = main(["oracle", "--target", str(path), "--no-database", "--no-corpus", "--max-programs", "40", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == exitcodes.OK and data["new_buckets"] == 0 and data["known"], data
    assert "no-provisional" in data["fragments"] and data["notation"].endswith("own.toml#notation")


# ---- fragments for what is not a construct; --known frees the budget ---------------------------------

def test_no_weakening_sends_no_program_with_a_binder_nobody_uses():
    from goi.generators.typed import weakenings
    from goi.semantics.parser import parse

    report = run("crash_on_unused", fragments=frozenset({"no-weakening"}), max_programs=40)
    assert report.programs == 40 and all(weakenings(parse(c.text)) == 0 for c in report.cases)
    assert not any("unused binder" in sig for sig in report.shrunk), list(report.shrunk)


def test_no_negative_provisional_sends_none():
    from goi.semantics import syntax as S
    from goi.semantics.parser import parse

    report = run("correct", fragments=frozenset({"no-negative-provisional"}), max_programs=60)
    assert report.programs == 60 and report.failures == 0
    assert not any(isinstance(t, S.Prov) and t.value < 0 for c in report.cases for t in S.walk(parse(c.text)))


def test_a_known_bug_frees_the_budget_for_the_others(tmp_path):
    """crash_on_unused crashes on a binder nobody uses (most generated programs): set aside by
    --known, the draw steers away from what its program needs from the first program on, so
    that most of the survey goes elsewhere (without steering, 70-90 % went to it)."""
    from goi.oracle.known import read_known

    known = tmp_path / "known.txt"
    known.write_text("let x = 1 in 0\n", encoding="utf-8")  # a program: its signature is taken on this run
    report = run("crash_on_unused", known=read_known([str(known)]), max_programs=150)
    spent = sum(report.known.values())
    assert spent < 0.5 * report.programs, (spent, report.programs)
    assert report.defects and all("unused" not in sig for sig in report.defects)  # the product's bug is new


def test_the_shape_fed_back_to_the_search_counts_contractions_weakenings_and_boxes():
    from goi.oracle.steering import features, shape
    from goi.semantics.parser import parse

    program = parse("let b = 1 + 0 in let c = 0 in let f = λy:F. b * y in f (b + b) + f b")
    assert shape(program) == {"contraction arity": 4, "computed and shared": 4, "weakenings": 1,
                              "shared functions": 1, "box nesting": 1}
    assert "weakening" in features(program) and "weakening" not in features(parse("let c = 0 in c"))
