"""`goi run`: the oracle's output (human, JSON, trace, DOT) and its exit codes."""

import json
from pathlib import Path

import pytest

import goi

from goi.cli import exitcodes
from goi.cli import main
from goi.semantics.rules import load_all

PROGRAMS = Path(__file__).parent / "programs"


def run(capsys, *argv):
    code = main(["run", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_default_output(capsys):
    code, out, _ = run(capsys, str(PROGRAMS / "paper/deep_decoupling.goi"))
    assert code == exitcodes.OK
    lines = out.splitlines()
    assert lines[0] == "value: 13"
    assert lines[1] == "type: F"
    assert lines[2] == "parameters: 3, 2"
    assert lines[3].startswith("transitions: ") and "(pass " in lines[3] and "rewrite " in lines[3]


def test_json_schema(capsys):
    code, out, _ = run(capsys, "--json", "-e", "let f @ p = {0.5} - {2} in f (3 * p)")
    assert code == exitcodes.OK
    data = json.loads(out)
    assert data["status"] == "final"
    assert data["value"] == "-9/2"
    assert data["type"] == "F"
    assert data["parameters"] == ["1/2", "2"]
    t = data["transitions"]
    assert t["total"] == t["pass"] + t["rewrite"] > 0
    assert set(data["rules"]) == {r for r, rule in load_all().items() if rule.kind != "gc"}  # every transition rule
    assert sum(data["rules"].values()) == t["total"]
    assert data["rules"]["deep.decouple"] == 1
    assert data["reason"] is None


def test_function_values_and_replaced_parameters(capsys):
    _, out, _ = run(capsys, "--json", "-e", "λx. x + {1}")
    assert json.loads(out)["value"] == "λ"
    _, out, _ = run(capsys, "--json", "--params", "1/3,-2", "-e", "{1} * {2}")
    data = json.loads(out)
    assert data["value"] == "-2/3" and data["parameters"] == ["1/3", "-2"]


def test_trace_lines(capsys):
    code, out, _ = run(capsys, "--trace", "-e", "(λx. x) 1")
    lines = out.splitlines()
    steps = [l for l in lines if l.strip() and l.split()[0].isdigit()]
    assert len(steps) == 14
    first = steps[0].split()
    assert first[0] == "1" and first[1] == "pass.app.up"
    assert "S=★:★:□" in steps[0] and "B=□" in steps[0]
    assert any("rw.beta" in l for l in steps)


def test_trace_in_json(capsys):
    _, out, _ = run(capsys, "--json", "--trace", "-e", "(λx. x) 1")
    data = json.loads(out)
    assert len(data["trace"]) == data["transitions"]["total"] == 14
    step = data["trace"][8]
    assert step["rule"] == "rw.beta" and step["flag"] == "□" and step["direction"] == "up"
    assert set(step) == {"number", "rule", "position", "position_type", "direction", "flag", "stack", "box_stack", "span"}
    # stacks as arrays, top first: after β the token carries the value 1 … on ★
    assert all(isinstance(s["stack"], list) and isinstance(s["box_stack"], list) for s in data["trace"])
    assert data["trace"][-1]["stack"] == ["1"] and data["trace"][-1]["direction"] == "down"


def test_dot_files(capsys, tmp_path):
    code, _, _ = run(capsys, "--dot", str(tmp_path), str(PROGRAMS / "paper/meta_learning.goi"))
    assert code == exitcodes.OK
    names = sorted(p.name for p in tmp_path.iterdir())
    steps = goi.run((PROGRAMS / "paper/meta_learning.goi").read_text()).transitions
    assert names[0] == "000-initial.dot" and names[-1] == f"{steps:06d}-final.dot"
    stopped = tmp_path / "stopped"
    code, _, _ = run(capsys, "--max-steps", "30", "--dot", str(stopped), str(PROGRAMS / "paper/meta_learning.goi"))
    assert code == exitcodes.BUDGET and sorted(p.name for p in stopped.iterdir())[-1] == "000030-budget.dot"
    assert sum("before-decouple" in n for n in names) == 2
    assert sum("after-decouple" in n for n in names) == 2
    text = (tmp_path / "000-initial.dot").read_text()
    assert text.startswith("digraph goi {") and "subgraph cluster_box" in text and "penwidth=3" in text


@pytest.mark.parametrize(
    "argv,code,status",
    [
        (["-e", "1 + 2"], exitcodes.OK, "final"),
        (["--max-steps", "3", "-e", "1 + 2"], exitcodes.BUDGET, "budget"),
        (["--division", "strict", "-e", "1 / 0"], exitcodes.UNDEFINED, "undefined"),
        (["--division", "total", "-e", "1 / 0"], exitcodes.OK, "final"),
    ],
)
def test_exit_codes(capsys, argv, code, status):
    got, out, _ = run(capsys, "--json", *argv)
    assert got == code and json.loads(out)["status"] == status


@pytest.mark.parametrize(
    "argv,code,kind,fragment",
    [
        (["--params", "1,2", "-e", "{1}"], exitcodes.USAGE, "usage", "--params gives 2 values, but the program has 1"),
        (["--params", "x", "-e", "{1}"], exitcodes.USAGE, "usage", "is not an exact rational"),
        (["--max-steps", "-5", "-e", "1"], exitcodes.USAGE, "usage", "-5 is negative"),
        (["--check", "form,nonsense", "-e", "1"], exitcodes.USAGE, "usage", "unknown check(s) nonsense"),
        (["-e", "let f @ p = {1} in p"], exitcodes.BAD_INPUT, "type", "escapes"),
    ],
)
def test_bad_input_is_reported_as_json(capsys, argv, code, kind, fragment):
    got, out, _ = run(capsys, "--json", *argv)
    assert got == code
    data = json.loads(out)
    assert data["schema"] == "goi.error/1" and data["command"] == "run"
    assert data["status"] == "error" and data["error"]["kind"] == kind and fragment in data["error"]["message"]


def test_input_beyond_the_input_budget_is_a_budget_error(capsys, tmp_path):
    code, out, _ = run(capsys, "--json", "--max-input-bytes", "10", "-e", "1 + 2 + 3 + 4")
    data = json.loads(out)
    assert code == exitcodes.BUDGET and data["error"]["kind"] == "budget" and "--max-input-bytes 10" in data["error"]["message"]
    big = tmp_path / "big.goi"
    big.write_bytes(b"1" * 100)
    code, _, err = run(capsys, "--max-input-bytes", "99", str(big))
    assert code == exitcodes.BUDGET and "larger than --max-input-bytes 99" in err


def test_dot_never_overwrites_and_never_follows_a_planted_link(capsys, tmp_path):
    code, _, _ = run(capsys, "--dot", str(tmp_path), "-e", "1")
    assert code == exitcodes.OK
    before = (tmp_path / "000-initial.dot").read_text()
    code, _, err = run(capsys, "--dot", str(tmp_path), "-e", "2")
    assert code == exitcodes.BAD_INPUT and "exists already" in err
    assert (tmp_path / "000-initial.dot").read_text() == before
    planted = tmp_path / "planted"
    planted.mkdir()
    victim = tmp_path / "victim.txt"
    (planted / "000-initial.dot").symlink_to(victim)
    code, _, err = run(capsys, "--dot", str(planted), "-e", "1")
    assert code == exitcodes.BAD_INPUT and not victim.exists()
    a_file = tmp_path / "a-file"
    a_file.write_text("")
    code, out, _ = run(capsys, "--json", "--dot", str(a_file), "-e", "1")
    assert code == exitcodes.BAD_INPUT and json.loads(out)["error"]["kind"] == "io"


COPIES = "let f = λy. λz. " + " + ".join(["z"] * 200) + " in " + "".join(f"let u{i} = f {i} in " for i in range(30)) + "0"
SQUARINGS = "let sq x = x * x in " + "sq (" * 26 + "10" + ")" * 26
UNFOLD = "let f @_a p = " + " + ".join("{%d}" % i for i in range(60)) + " in ((λv:V_a. v) +^L p) • p"


@pytest.mark.parametrize(
    "argv,limit,fragment",
    [
        (["--max-nodes", "2000", "-e", COPIES], "nodes", "deep.contract (30 copies of a box) would make the graph"),
        (["-e", SQUARINGS], "digits", "(--max-digits 100000)"),
        (["--max-digits", "50", "-e", SQUARINGS], "digits", "a product would make a number of about"),
        (["--max-nodes", "2000", "-e", UNFOLD], "nodes", "rw.iter.unfold (over a vector of 60)"),
        (["--max-steps", "10", "-e", COPIES], "steps", "step limit 10 reached"),
    ],
)
def test_budgets_stop_the_run_before_the_work_and_say_which(capsys, argv, limit, fragment):
    code, out, _ = run(capsys, "--json", *argv)
    data = json.loads(out)
    assert code == exitcodes.BUDGET and data["status"] == "budget" and data["limit"] == limit
    assert fragment in data["reason"], data["reason"]


def test_generous_budgets_let_real_programs_run(capsys):
    code, out, _ = run(capsys, "--json", "-e", COPIES)
    assert code == exitcodes.OK and json.loads(out)["limit"] is None
    code, out, _ = run(capsys, "--json", "-e", UNFOLD)
    assert code == exitcodes.OK


def test_the_graph_budget_is_checked_before_copying(monkeypatch):
    """No copy is made once the budget says no: the graph at the stop is the graph before."""
    import goi

    execution = goi.prepare(COPIES, max_nodes=2000)
    sizes = []
    execution.machine.after.append(lambda m, rule, redex: sizes.append(len(m.graph.nodes)))
    result = execution.run()
    assert result.status == "budget" and result.limit == "nodes"
    assert len(execution.machine.graph.nodes) == sizes[-1] <= 2000


def test_dot_output_is_bounded(capsys, tmp_path):
    code, out, _ = run(capsys, "--json", "--dot", str(tmp_path), "--max-dot-bytes", "6000", str(PROGRAMS / "paper/meta_learning.goi"))
    data = json.loads(out)
    assert code == exitcodes.OK and data["dot"]["skipped"] > 0 and data["dot"]["files"] == len(list(tmp_path.iterdir()))
    assert sum(p.stat().st_size for p in tmp_path.iterdir()) == data["dot"]["bytes"] <= 6000


def test_an_interrupted_json_trace_is_still_one_valid_object(tmp_path):
    """SIGINT while `goi run --json --trace` streams: the object is closed with every field the
    schema requires (status interrupted, the transitions streamed so far), exit 130. The signal
    is sent once the trace has started (read from the pipe), whatever the machine's speed."""
    import json
    import os
    import signal
    import subprocess
    import sys

    from conftest import hear_ctrl_c
    from test_cli_contract import validate

    program = tmp_path / "long.goi"
    program.write_text(" ".join(f"let x{i} = x{i - 1} + 1 in" if i else "let x0 = 1 in" for i in range(6000)) + " x5999")
    proc = subprocess.Popen([sys.executable, "-m", "goi", "run", "--json", "--trace", str(program)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=hear_ctrl_c)
    head = b""
    while len(head) < 200_000:  # the trace is streaming: the run is under way (raw reads: communicate reads the fd)
        chunk = os.read(proc.stdout.fileno(), 65536)
        assert chunk, "the run ended before the signal"
        head += chunk
    proc.send_signal(signal.SIGINT)
    rest, err = proc.communicate(timeout=300)
    assert proc.returncode == exitcodes.INTERRUPTED, err.decode()[-2000:]
    data = json.loads(head + rest)
    validate(data)
    assert data["status"] == "interrupted" and data["error"]["kind"] == "interrupted" and data["value"] is None
    assert data["transitions"]["total"] == len(data["trace"]) > 0 and b"Traceback" not in err


def test_the_trace_says_where_in_the_program_the_token_is(capsys):
    """Each step names the source span of the term its link belongs to; copies keep it."""
    text = "let f x = x * x in f 3 + f 4"
    _, out, _ = run(capsys, "--json", "--trace", "-e", text)
    trace = json.loads(out)["trace"]
    spans = [s["span"] for s in trace if s["span"] is not None]
    assert spans and all(0 <= s["start"] < s["end"] <= len(text) for s in spans)
    quoted = {text[s["start"]:s["end"]] for s in spans}
    assert {"3", "4", "x * x"} <= quoted  # the arguments, and the body the token visits (in each copy)
    # the constants are reached going up with ★ and answer with their value
    assert any(s["rule"] == "pass.const.up" and text[s["span"]["start"]:s["span"]["end"]] in ("3", "4") for s in trace
               if s["span"] is not None)
    _, lines, _ = run(capsys, "--trace", "-e", text)
    assert all(" at " in line for line in lines.splitlines()[:5])


def test_the_same_run_gives_the_same_trace_in_every_process():
    """Node and link ids, hence the trace's link numbers, are the same in every process: a
    box copy allocates ids in id order, not in the order of a set (memory addresses)."""
    import subprocess
    import sys

    program = Path(__file__).parent / "programs" / "visualiser" / "church_numerals_prog.goi"
    outputs = {subprocess.run([sys.executable, "-m", "goi", "run", "--json", "--trace", "--gc", str(program)],
                              capture_output=True, check=True).stdout for _ in range(3)}
    assert len(outputs) == 1
