"""Hostile input, round four (issue 52): one test per case of the issue's table. Each gives a
clear one-line error with its documented exit code, or a correct result — no traceback, no
wait that Ctrl-C cannot end, nothing the user had changed. (The parser cache's cases are in
test_startup.py; the printer's — a lock-holding one stopped by Ctrl-C, a ValueError, an
unencodable result, a SHORT survey — in test_oracle.py; crafted SVG in a real browser in
test_hostile_pages.py.) Nothing here is timed."""

from __future__ import annotations

import json
import os
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from goi.cli import exitcodes, main

ROOT = Path(__file__).resolve().parent
MOCKS = ROOT / "oracle_mocks"
PAPER = (ROOT.parent / "oracle" / "notations" / "paper.toml").read_text(encoding="utf-8")
CORRECT = f"{sys.executable} {MOCKS / 'correct.py'}"


def one_line_error(capsys) -> str:
    err = capsys.readouterr().err
    assert "Traceback" not in err, err
    return err


def notation_with(tmp_path, old: str, new: str) -> str:
    assert old in PAPER
    path = tmp_path / "notation.toml"
    path.write_text(PAPER.replace(old, new), encoding="utf-8")
    return str(path)


PATTERN = 'pattern = "[a-z][A-Za-z0-9_\']*"'


def test_a_names_pattern_never_enters_the_grammar_as_text(tmp_path):
    """A `/` in names.pattern is a character of names, not the end of a grammar terminal; a
    new line or an unscoped inline flag is refused at load with the key named."""
    from goi.oracle.notations import NotationError, notation

    slash = notation(notation_with(tmp_path, PATTERN, 'pattern = "[a-z][a-z0-9/]*"'))
    term = slash.read("let x/y = 1 in x/y + 2")
    assert term.var == "x/y"
    for bad, says in (('pattern = "[a-z]+|zz\\nstart: NAME"', "one line"),
                      ('pattern = "(?i)[a-z]+"', "scoped, as (?i:…)")):
        with pytest.raises(NotationError, match="names.pattern") as refused:
            notation(notation_with(tmp_path, PATTERN, bad))
        assert says in str(refused.value)
    scoped = notation(notation_with(tmp_path, PATTERN, 'pattern = "(?i:[a-z])+"'))
    assert scoped.read("let X = 1 in X").var == "X"


def test_a_vector_type_without_its_name_is_refused_at_load(tmp_path, capsys):
    path = notation_with(tmp_path, 'vector = "V_{name}"', 'vector = "V"')
    assert main(["oracle", "--impl", CORRECT, "--notation", path, "--max-programs", "1"]) == exitcodes.USAGE
    assert "types.vector" in one_line_error(capsys)


def test_a_long_template_is_refused_with_its_limit(tmp_path, capsys):
    words = " ".join(f"w{i}" for i in range(100))
    path = notation_with(tmp_path, 'lambda = "λ{x}[:{type}]. {body}"', f'lambda = "λ{{x}}[:{{type}}]. {words} {{body}}"')
    assert main(["oracle", "--impl", CORRECT, "--notation", path, "--max-programs", "1"]) == exitcodes.USAGE
    err = one_line_error(capsys)
    assert "forms.lambda" in err and "at most 64" in err


def test_a_fifo_or_a_device_as_the_notation_file_is_refused_not_waited_on(tmp_path, capsys):
    fifo = tmp_path / "notation.toml"
    os.mkfifo(fifo)
    for path in (str(fifo), "/dev/zero"):
        assert main(["oracle", "--impl", CORRECT, "--notation", path, "--max-programs", "1"]) == exitcodes.USAGE
        assert path in one_line_error(capsys)


def test_a_tolerance_is_checked_before_it_is_built(capsys):
    for text in ("1e999999999", "1e-999999999", "2", "nan", "-1"):
        assert main(["oracle", "--impl", CORRECT, "--tolerance", text]) == exitcodes.USAGE
        assert "relative tolerance" in one_line_error(capsys)


@pytest.mark.parametrize("content", [
    {"buckets": [{"signature": ["implementation-error: x"]}]},
    {"buckets": [{"signature": {"a": 1}}]},
    {"signature": ["implementation-error: x"]},
    [["implementation-error: x"], {"b": 2}],
    {"buckets": [{"signature": 3}]},
])
def test_a_known_file_whose_signatures_are_not_text_is_a_clear_error(tmp_path, capsys, content):
    path = tmp_path / "known.json"
    path.write_text(json.dumps(content), encoding="utf-8")
    code = main(["oracle", "--impl", CORRECT, "--known", str(path), "--max-programs", "1", "--no-corpus",
                 "--no-database"])
    assert code == exitcodes.BAD_INPUT and "no signature in it" in one_line_error(capsys)


def test_a_known_text_file_runs_a_bounded_number_of_programs(tmp_path, capsys):
    from goi.oracle.known import MAX_PROGRAMS

    path = tmp_path / "known.txt"
    path.write_text("".join(f"{i} + 1\n" for i in range(MAX_PROGRAMS + 1)), encoding="utf-8")
    code = main(["oracle", "--impl", CORRECT, "--known", str(path), "--max-programs", "1", "--no-corpus",
                 "--no-database"])
    assert code == exitcodes.BAD_INPUT and f"more than {MAX_PROGRAMS} program lines" in one_line_error(capsys)


def test_options_that_mean_nothing_without_another_are_refused(capsys):
    assert main(["oracle", "--impl", CORRECT, "--max-campaign", "10"]) == exitcodes.USAGE
    assert "--max-campaign bounds a campaign" in one_line_error(capsys)
    assert main(["oracle", "--impl", CORRECT, "--integer-division", "floor"]) == exitcodes.USAGE
    assert "--integer-division is for --arithmetic integer" in one_line_error(capsys)


def test_a_campaign_estimated_past_its_bound_is_refused_with_the_estimate(monkeypatch, capsys):
    """The bound made 0 (no campaign fits): refused before any shard, with the estimate, exit 5;
    --max-campaign (a bound of one's own) runs it."""
    from goi.campaigns import runner

    monkeypatch.setattr(runner, "MAX_ESTIMATE", -1.0)
    assert main(["props", "soundness", "--exhaustive", "3"]) == exitcodes.BUDGET
    err = one_line_error(capsys)
    assert "estimate:" in err and "refused before any shard ran" in err and "--max-campaign" in err
    assert main(["props", "soundness", "--exhaustive", "3", "--max-campaign", "1000000"]) == exitcodes.OK


def test_max_campaign_given_lifts_the_estimate_bound_even_at_its_default_value(monkeypatch, capsys):
    """`--max-campaign N` is a bound of one's own whatever N is: the oracle's exhaustive
    campaign told `--max-campaign` at the default count is not refused by its estimate (it was,
    since a value equal to the default was taken for none given); untold, it is."""
    from goi.campaigns import runner

    monkeypatch.setattr(runner, "MAX_ESTIMATE", -1.0)
    oracle = ["oracle", "--impl", CORRECT, "--exhaustive", "3", "--no-corpus", "--no-database"]
    assert main(oracle) == exitcodes.BUDGET
    assert "refused before any shard ran" in one_line_error(capsys)
    assert main([*oracle, "--max-campaign", str(runner.MAX_PROGRAMS)]) == exitcodes.OK, capsys.readouterr()
    assert main(["props", "soundness", "--exhaustive", "2", "--max-campaign", str(runner.MAX_PROGRAMS)]) == exitcodes.OK


def test_every_property_counts_its_runs():
    """parametricity's runs went past the counter ("passed, 0 runs"): each property run now
    counts at least one."""
    from goi.properties import coverage
    from goi.properties.driver import run_suite

    with coverage.recording():
        results, _ = run_suite(["parametricity"], "ci", examples=3, seed=1)
    assert results[0].status == "passed" and results[0].runs > 0, results


def test_dot_from_data_never_makes_graphviz_read_a_file(tmp_path):
    """An HTML-like label's IMG naming a FIFO: the image is dropped before Graphviz runs (it
    would wait on the FIFO for good), and the picture is made; DOT that is not DOT, or too
    large, gives no picture rather than an error."""
    pytest.importorskip("pygraphviz")
    from goi.reports.pictures import MAX_DOT_BYTES, graph_svg

    fifo = tmp_path / "image.png"
    os.mkfifo(fifo)
    svg = graph_svg(f'digraph {{ a [label=<<TABLE><TR><TD><IMG SRC="{fifo}"/></TD></TR></TABLE>>] }}')
    assert svg.startswith("<svg") and str(fifo) not in svg
    assert graph_svg("not dot at all {") == ""
    assert graph_svg("digraph { " + "a -> b; " * (MAX_DOT_BYTES // 8 + 1) + "}") == ""


API_CALLS = [
    ("goi.run(None)", TypeError, "a program is"),
    ("goi.equivalent(None, '1')", TypeError, "a program is"),
    ("goi.symbolic_run(None)", TypeError, "a program is"),
    ("goi.prepare(3)", TypeError, "a program is"),
    ("goi.equivalent('1', '1', timeout=float('nan'))", ValueError, "timeout"),
    ("goi.equivalent('1', '1', timeout=-1)", ValueError, "timeout"),
    ("run_suite(['bogus'], 'ci')", ValueError, "unknown property 'bogus'"),
    ("run_suite('soundness', 'ci')", TypeError, "names"),
    ("Space(constants=('x',))", TypeError, "Space.constants"),
    ("Space(order=3)", ValueError, "Space.order"),
    ("call(['true'], '1', -1)", ValueError, "timeout"),
    ("call('true', '1', 1)", TypeError, "command"),
]


@pytest.mark.parametrize("call_text, error, says", API_CALLS)
def test_the_python_api_names_a_wrong_argument(call_text, error, says):
    import goi
    from goi.generators.enumerate import Space
    from goi.oracle.protocols import call
    from goi.properties.driver import run_suite

    with pytest.raises(error, match=None) as raised:
        eval(call_text, {"goi": goi, "Space": Space, "call": call, "run_suite": run_suite})
    assert says in str(raised.value), raised.value
    assert Space().constants == (Fraction(0), Fraction(1), Fraction(-1, 2))  # the defaults still pass their checks


def test_view_refuses_a_negative_frame_count():
    pytest.importorskip("pygraphviz")
    import goi

    with pytest.raises(ValueError, match="max_frames"):
        goi.view("1 + 2", max_frames=-1)


def test_counts_read_as_english():
    """"the 23th", "1 shapes in 1 shards" (issue 52's documented behaviours made true)."""
    from goi.campaigns.runner import Campaign
    from goi.oracle.output import ordinal

    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st", "111th"]
    one = Campaign("exhaustive", [object()], lambda shard: None, 1, {}, unit="shapes")
    assert one.plan() == "[goi] exhaustive: 1 shape in 1 shard"
    two = Campaign("exhaustive", [object(), object()], lambda shard: None, 5, {}, unit="shapes")
    assert two.plan() == "[goi] exhaustive: 5 shapes in 2 shards"


def test_markdown_fences_are_longer_than_any_backtick_run_in_the_data():
    """A surviving mutant of issue 52 (report.md's fences): a fence as long as a run of
    backticks inside would end the block early, and what follows would be Markdown."""
    from goi.reports.escape import md_block, md_code

    data = "before\n```\n<script>x</script>\n`````\nafter"
    block = md_block(data)
    assert block[0] == block[-1] == "``````" and block[1:-1] == data.split("\n")
    assert md_block("plain") == ["```", "plain", "```"]
    assert md_code("a `` b") == "```a `` b```" and md_code("`x") == "`` `x ``"


def test_a_chain_too_long_is_refused_while_parsing_not_after():
    """A 4-million-operand sum was parsed whole (1.7 GB) before its length was refused. The
    chain is now counted as it is read: a chain past the limit followed by a syntax error is
    refused for its length — the parse never reached the error."""
    from goi.semantics.errors import LimitError
    from goi.semantics.parser import FRAMES_PER_LEVEL, parse
    from goi.semantics.stack import RECURSION_LIMIT

    cap = max(sys.getrecursionlimit(), RECURSION_LIMIT) // FRAMES_PER_LEVEL
    with pytest.raises(LimitError, match="chain of"):
        parse(" + ".join(["1"] * (cap + 10)) + " )")
    assert parse(" + ".join(["1"] * 50)).op == "+"


def test_goi_check_bounds_its_input():
    import goi
    from goi.semantics.errors import BudgetError

    with pytest.raises(BudgetError, match="max_characters"):
        goi.check("1" * 101, max_characters=100)
    assert goi.check("1" * 100, max_characters=100).type is not None


def test_the_bounded_readers_default_wait_ends(tmp_path):
    """Issue 52's surviving mutant: every test gave the reader a wait of its own. With none, a
    FIFO no one writes to is refused after the documented READ_TIMEOUT of silence (10 s), not
    waited on for good. (The test waits those seconds; its verdict is the error, not a time.)"""
    from goi.files import READ_TIMEOUT, read_path
    from goi.semantics.errors import ReadError

    assert READ_TIMEOUT == 10.0  # docs/CLI.md: "a FIFO no one writes to is refused after 10 s"
    fifo = tmp_path / "silent"
    os.mkfifo(fifo)
    with pytest.raises(ReadError, match="gave no end of file within 10 s"):
        read_path(str(fifo), 100)


@pytest.mark.parametrize("source", [
    "(λf:F -> F. f 1) (λx:F. x + 1)",
    "(λg:(F -> F) -> F. g (λx:F. x)) (λh:F -> F. h 2)",
    "(λf:F -> F -> F. f 1 2) (λx:F. λy:F. x - y)",
])
def test_the_paper_notation_writes_function_taking_types_as_written(source):
    """Issue 52's surviving mutant (the notation printer's annotations of function-taking types):
    the paper notation prints each annotation exactly as the source writes it — the arrow
    right-associative, a function argument parenthesised — and reads it back to the same term."""
    import goi
    from goi.oracle.notations import notation, render

    judgement = goi.check(source)
    text = render(judgement, "paper")
    assert text == source
    assert notation("paper").read(text) == judgement.surface


def test_a_deeply_nested_notation_file_is_said_to_be_one(tmp_path, capsys):
    """Not "the program is nested too deeply": there is no program yet."""
    path = tmp_path / "deep.toml"
    path.write_text('name = "x"\nz = ' + "[" * 100000 + "]" * 100000 + "\n", encoding="utf-8")
    assert main(["oracle", "--impl", CORRECT, "--notation", str(path)]) == exitcodes.USAGE
    err = one_line_error(capsys)
    assert "nested too deeply" in err and "notation file" in err and "the program is" not in err


def test_parametricity_compares_where_each_rule_fires_not_only_which():
    """Issue 52's surviving mutant (parametricity's comparison): the same rules at other
    places of the graph is a difference; the same rules at the same places is none."""
    from types import SimpleNamespace

    from goi.properties.parametricity import compare
    from goi.properties.runner import Finding

    done = SimpleNamespace(status="final", limit=None)
    mine = [("pass.op.up", (("Node", 1), ("Link", 2))), ("rw.op.fold", (("Node", 1),))]
    moved = [("pass.op.up", (("Node", 1), ("Link", 3))), ("rw.op.fold", (("Node", 1),))]
    compare((mine, done), (list(mine), done), "zero", "total", {})
    with pytest.raises(Finding, match="transition 1 differs"):
        compare((mine, done), (moved, done), "zero", "total", {})


def test_goi_report_names_a_missing_extra_before_any_property_runs(tmp_path, capsys, monkeypatch):
    """Without the `reports` extra, `goi report` ran every property for minutes, then said
    matplotlib was missing. It says so first: exit 2, no property run."""
    from goi.reports import pictures

    real = pictures.require

    def without_matplotlib(module: str):
        if module == "matplotlib":
            raise pictures.MissingExtra("reports need matplotlib: pip install 'goi-abductive[reports]'")
        return real(module)

    monkeypatch.setattr(pictures, "require", without_matplotlib)
    assert main(["report", "--profile", "ci", "--properties", "soundness", "--examples", "3",
                 "--out", str(tmp_path / "out")]) == exitcodes.USAGE
    err = one_line_error(capsys)
    assert "matplotlib" in err and "soundness" not in err  # no property's line: none ran


# Two programs whose difference query z3's nlsat works on for minutes (strict division: the
# first is undefined where a sum of two Motzkin-like products plus 1/1000 is 0, which never
# happens but is hard to prove).
_MOTZKIN = "(a*a*a*a*b*b + a*a*b*b*b*b - 3*a*a*b*b*c*c + c*c*c*c*c*c)"
HARD_FOR_Z3 = (f"(λa. λb. λc. λd. λe. {{0}} + 0 / ({_MOTZKIN} * (c*c*c*c*d*d + c*c*d*d*d*d - 3*c*c*d*d*e*e + e*e*e*e*e*e)"
               f" + (a*b*c*d*e - 1) * (a*b*c*d*e - 1) * {_MOTZKIN} + 0.001)) {{1}} {{2}} {{3}} {{4}} {{5}}",
               "(λa. λb. λc. λd. λe. {0} + 0 * (a + b + c + d + e)) {1} {2} {3} {4} {5}")


def _cpu_ticks(pid: int) -> int:
    """The CPU time a process has used so far, in clock ticks (/proc/PID/stat: utime + stime)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return int(fields[11]) + int(fields[12])


def _interrupted_in_z3(command: list) -> tuple:
    """Run `command`, send it SIGINT once it has spent 3 s of CPU — far past its start-up,
    inside the z3 query, which needs minutes (counted in CPU ticks, not timed): (exit code,
    standard output, standard error)."""
    import signal
    import subprocess
    import time

    from conftest import hear_ctrl_c

    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=hear_ctrl_c)
    try:
        ticks = 3 * os.sysconf("SC_CLK_TCK")
        for _ in range(100_000):  # until the child has worked 3 s of CPU: counted, not timed
            if proc.poll() is not None or _cpu_ticks(proc.pid) >= ticks:
                break
            time.sleep(0.05)
        assert proc.poll() is None, "the decision ended before the signal"
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=600)
    finally:
        if proc.poll() is None:
            proc.kill()
    return proc.returncode, out, err


def test_ctrl_c_during_a_long_z3_check_interrupts_the_decision(tmp_path):
    """Issue 52: every wait answers Ctrl-C. During a check z3 takes SIGINT itself and ends the
    check as unknown ("interrupted from keyboard"): goi reported UNKNOWN (exit 8), and a
    decision of several queries (permutations, a conjecture's laws) went on to the next. Now
    the decision stops as any command does on Ctrl-C (exit 130, "goi: interrupted")."""
    left, right = tmp_path / "left.goi", tmp_path / "right.goi"
    left.write_text(HARD_FOR_Z3[0])
    right.write_text(HARD_FOR_Z3[1])
    code, out, err = _interrupted_in_z3([sys.executable, "-m", "goi", "equiv", "--division", "strict", "--work",
                                         str(10**12), str(left), str(right)])
    assert code == exitcodes.INTERRUPTED, (code, out, err)
    assert err.strip() == "goi: interrupted" and "UNKNOWN" not in out, (out, err)


def test_ctrl_c_during_a_long_z3_check_interrupts_the_api_call():
    """The same through the Python API (the issue's "an API call" that Ctrl-C did not stop):
    `goi.equivalent` returned "unknown" for the interrupted query — and a call trying several
    permutations started the next. It now raises KeyboardInterrupt, as Python calls do."""
    script = ("import sys, goi\n"
              "try:\n"
              "    v = goi.equivalent(sys.argv[1], sys.argv[2], division='strict', timeout=3600)\n"
              "    print('returned', v.verdict)\n"
              "except KeyboardInterrupt:\n"
              "    print('interrupted'); sys.exit(130)\n")
    code, out, err = _interrupted_in_z3([sys.executable, "-c", script, *HARD_FOR_Z3])
    assert code == 130 and out.strip() == "interrupted", (code, out, err)


def test_ctrl_c_ends_a_wait_on_a_fifo_that_never_ends(tmp_path):
    """Issue 52: every wait answers Ctrl-C. The CLI runs a command on a worker thread, to which
    Ctrl-C is passed as an asynchronous exception — delivered only between bytecodes, so a
    read blocked in one long poll heard it only when the poll ended. Here the FIFO has a writer
    that never writes and the read may wait an hour: interrupted, it ends at once (exit 130).
    (The guard on communicate is a hang detector, far below the hour, not a verdict on time.)"""
    import signal
    import subprocess

    fifo = tmp_path / "silent"
    os.mkfifo(fifo)
    script = (
        "import os, sys\n"
        "from goi.files import read_path\n"
        "from goi.semantics.stack import with_deep_stack\n"
        "keep = os.open(sys.argv[1], os.O_RDWR)  # a writer that never writes: no end of file\n"
        "try:\n"
        "    with_deep_stack(read_path, sys.argv[1], 100, '--x', 3600.0)\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted'); sys.exit(130)\n")
    from conftest import hear_ctrl_c

    proc = subprocess.Popen([sys.executable, "-c", script, str(fifo)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, preexec_fn=hear_ctrl_c)
    try:
        for _ in range(6000):  # until both ends are open (the reader is waiting): counted, not timed
            opened = [fd for fd in os.listdir(f"/proc/{proc.pid}/fd")
                      if os.path.realpath(f"/proc/{proc.pid}/fd/{fd}") == str(fifo)] if proc.poll() is None else []
            if len(opened) >= 2 or proc.poll() is not None:
                break
            import time
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=600)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130 and out.strip() == "interrupted", (proc.returncode, out, err)
