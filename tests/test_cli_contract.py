"""The CLI contract tools rely on (docs/CLI.md): exit codes, JSON objects that validate
against docs/schemas/, output encodings, --version and `python -m goi`."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

import goi
from goi.cli import main
from goi.cli import exitcodes

ROOT = Path(__file__).parent.parent
PROGRAMS = Path(__file__).parent / "programs"
SCHEMAS = {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in (ROOT / "docs/schemas").glob("goi.*.json")}
REGISTRY = Registry().with_resources((s["$id"], Resource.from_contents(s)) for s in SCHEMAS.values())


def validate(data: dict) -> None:
    name = data["schema"].split("/")[0]
    schema = SCHEMAS[name]
    Draft202012Validator.check_schema(schema)
    Draft202012Validator(schema, registry=REGISTRY).validate(data)


def run_json(capsys, *argv):
    code = main([*argv, "--json"])
    out = capsys.readouterr().out
    assert out.count("\n") == 1, "exactly one JSON object, on one line"
    data = json.loads(out)
    validate(data)
    return code, data


CASES = [
    (["parse", "-e", "let f @ p = λx:F. {1} * x in f p 2"], exitcodes.OK, "goi.parse/1"),
    (["typecheck", str(PROGRAMS / "paper/deep_decoupling.goi")], exitcodes.OK, "goi.typecheck/1"),
    (["run", str(PROGRAMS / "paper/meta_learning.goi")], exitcodes.OK, "goi.run/1"),
    (["run", "--check", "all", "--gc", "-e", "let f @ p = {1} + {2} in f p"], exitcodes.OK, "goi.run/1"),
    (["run", "--trace", "-e", "let f @ p = {1} + {2} in f p"], exitcodes.OK, "goi.run/1"),
    (["run", "--max-steps", "5", "-e", "1 + 2 + 3"], exitcodes.BUDGET, "goi.run/1"),
    (["run", "--division", "strict", "-e", "1 / 0"], exitcodes.UNDEFINED, "goi.run/1"),
    (["props", "soundness", "--profile", "ci", "--examples", "3"], exitcodes.OK, "goi.props/2"),
    (["test", str(PROGRAMS)], exitcodes.OK, "goi.test/1"),
    (["test", str(ROOT / "docs/examples")], exitcodes.OK, "goi.test/1"),
    (["parse", "-e", "(1"], exitcodes.BAD_INPUT, "goi.error/1"),
    (["typecheck", "-e", "let f @ p = {1} in p"], exitcodes.BAD_INPUT, "goi.error/1"),
    (["run", "/nonexistent/file.goi"], exitcodes.BAD_INPUT, "goi.error/1"),
    (["run", "--max-steps", "-5", "-e", "1"], exitcodes.USAGE, "goi.error/1"),
    (["run", "--params", "one", "-e", "{1}"], exitcodes.USAGE, "goi.error/1"),
    (["frobnicate"], exitcodes.USAGE, "goi.error/1"),
    (["equiv", "-e", "{1} + {2}", "-e", "{2} + {1}"], exitcodes.OK, "goi.equiv/1"),
    (["equiv", "-e", "{1} * {1}", "-e", "{1} + {1}"], exitcodes.NOT_EQUIVALENT, "goi.equiv/1"),
    (["equiv", "--division", "strict", "-e", "(λx. x / x) {3}", "-e", "(λx. x * 0 + 1) {3}"], exitcodes.NOT_EQUIVALENT, "goi.equiv/1"),
    (["equiv", "-e", "{1} + 2", "-e", "1 + {2}"], exitcodes.NOT_COMPARABLE, "goi.equiv/1"),
    (["equiv", "--timeout", "1e-9", "-e", "{1}", "-e", "{1}"], exitcodes.UNDECIDED, "goi.equiv/1"),
    (["equiv", "--terms", "-e", "{1} + 2", "-e", "1 + {2}"], exitcodes.NOT_EQUIVALENT, "goi.equiv/1"),
    (["equiv", "--terms", "--examples", "5", "-e", "λx:F. x", "-e", "λy:F. y"], exitcodes.UNDECIDED, "goi.equiv/1"),
    (["equiv", "-e", "1"], exitcodes.USAGE, "goi.error/1"),
    (["conjectures", "distinct-left", "plus-commutes", "congruence"], exitcodes.OK, "goi.conjectures/1"),
    (["conjectures", "no-such-law"], exitcodes.USAGE, "goi.error/1"),
    (["run"], exitcodes.USAGE, "goi.error/1"),
    (["props", "soundness", "--exhaustive", "3", "--concrete"], exitcodes.OK, "goi.props/2"),  # with cpu_seconds
    (["oracle", "--impl", f"{sys.executable} {Path(__file__).parent / 'oracle_mocks' / 'correct.py'}", "--exhaustive", "2",
      "--no-corpus", "--no-database"], exitcodes.OK, "goi.oracle/2"),
]


@pytest.mark.parametrize("argv,code,schema", CASES, ids=[" ".join(c[0])[:40] for c in CASES])
def test_json_output_validates_against_its_schema(capsys, argv, code, schema):
    got, data = run_json(capsys, *argv)
    assert got == code and data["schema"] == schema
    if "--exhaustive" in argv:  # a campaign says what it cost in CPU time (issue 53)
        cpu = (data.get("exhaustive") if schema.startswith("goi.props") else data)["cpu_seconds"]
        assert abs(cpu["total"] - cpu["this_process"] - cpu["workers"]) <= 0.002 and cpu["workers_left"] == 0


def test_the_schemas_reject_what_they_should():
    from jsonschema import ValidationError

    bad = {"schema": "goi.run/1", "status": "final", "value": 3}  # a number, not an exact string; fields missing
    with pytest.raises(ValidationError):
        validate(bad)


def test_usage_errors_are_argparse_style_on_stderr(capsys):
    code = main(["run", "--max-steps", "lots", "-e", "1"])
    out, err = capsys.readouterr()
    assert code == exitcodes.USAGE and out == ""
    assert err.splitlines()[0].startswith("usage: goi run")
    assert err.splitlines()[-1] == "goi run: error: argument --max-steps: 'lots' is not a whole number"


def test_version(capsys):
    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0 and capsys.readouterr().out.strip() == f"goi {goi.__version__}"


def _goi(*argv, env=None, input=None):
    environment = dict(os.environ, **(env or {}))
    return subprocess.run([sys.executable, "-m", "goi", *argv], capture_output=True, env=environment, input=input, timeout=120)


def test_python_dash_m_goi():
    proc = _goi("run", "-e", "let f @ p = {1} * {2} in f p")
    assert proc.returncode == 0 and proc.stdout.decode().startswith("value: 2\n")


@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
def test_an_output_encoding_that_is_not_utf8_never_crashes(encoding):
    env = {"PYTHONIOENCODING": encoding}
    text = _goi("typecheck", "-e", "let f @ p = λx. {1} * x in f p 2", env=env)
    assert text.returncode == 0, text.stderr
    assert b"\\u22a2" in text.stdout or "⊢".encode(encoding, "backslashreplace") in text.stdout
    js = _goi("run", "--json", "--trace", "-e", "(λx. x) {1}", env=env)
    assert js.returncode == 0, js.stderr
    data = json.loads(js.stdout.decode("utf-8"))  # JSON is always UTF-8
    assert data["trace"][0]["stack"][-1] == "★" and data["value"] == "1"
    err = _goi("typecheck", "-e", "λx. x x", env=env)
    assert err.returncode == exitcodes.BAD_INPUT and b"Traceback" not in err.stderr


def test_standard_input_is_read_as_utf8_bytes_with_a_bom_accepted():
    proc = _goi("run", "-", input="\ufeff(λx. x + x) {2}".encode("utf-8"), env={"PYTHONIOENCODING": "ascii", "LC_ALL": "C"})
    assert proc.returncode == 0 and proc.stdout.startswith(b"value: 4")
    bad = _goi("run", "--json", "-", input=b"\xff\xfe1")
    assert bad.returncode == exitcodes.BAD_INPUT
    data = json.loads(bad.stdout.decode("utf-8"))
    assert data["error"]["kind"] == "io" and "not UTF-8" in data["error"]["message"]


def test_a_closed_standard_output_stops_quietly():
    proc = subprocess.run(
        f"{sys.executable} -m goi run --trace {PROGRAMS / 'visualiser/church_numerals_prog.goi'} | head -1",
        shell=True, capture_output=True, timeout=120,
    )
    assert proc.stdout.count(b"\n") == 1 and b"Traceback" not in proc.stderr, proc.stderr[-400:]


@pytest.mark.parametrize("argv, code", [
    (["run", "-e", "(1"], exitcodes.BAD_INPUT),
    (["typecheck", "-e", "λx. x x"], exitcodes.BAD_INPUT),
    (["run", "--division", "strict", "-e", "1 / 0"], exitcodes.UNDEFINED),
    (["run", "--max-steps", "-5", "-e", "1"], exitcodes.USAGE),
    (["props", "--shards", "1000000000"], exitcodes.BUDGET),
    (["run", "-e", "1"], exitcodes.OK),
])
def test_a_gone_reader_of_standard_error_leaves_the_exit_code_the_commands(argv, code):
    """Its messages are lost; the exit code is still the documented one (it was 1)."""
    read, write = os.pipe()
    os.close(read)
    try:
        proc = subprocess.run([sys.executable, "-m", "goi", *argv], stderr=write, stdout=subprocess.PIPE, timeout=120)
    finally:
        os.close(write)
    assert proc.returncode == code


@pytest.mark.parametrize("argv", [
    ["run", "--params", "1e5", "-e", "{1}"], ["run", "--params", "1_000", "-e", "{1}"], ["run", "--dot", "", "-e", "1"],
    ["run", "--seed", "3", "-e", "1"], ["equiv", "--terms", "--context", "x:F, x:F", "-e", "x", "-e", "x"],
])
def test_options_that_would_be_misread_or_ignored_are_usage_errors(argv, capsys):
    assert main(argv) == exitcodes.USAGE
    assert main(["run", "--params=-1/3", "--seed", "3", "--strategy", "random", "-e", "{1}"]) == exitcodes.OK


def test_hostile_environments_end_with_a_message_not_a_traceback(tmp_path):
    """Standard output closed before start, bytes that are not UTF-8 in -e or a file name, a
    malformed GOI_HYPOTHESIS_REDIS: each ends with its exit code and one line, and any JSON
    printed is valid UTF-8."""
    closed = subprocess.run(["bash", "-c", f"'{sys.executable}' -m goi run -e '1 + 1' >&-"], capture_output=True, timeout=120)
    assert closed.returncode == exitcodes.BAD_INPUT and b"standard output is closed" in closed.stderr
    for argv in (["run", "--json", "-e", b"\xff".decode("utf-8", "surrogateescape")],
                 ["run", "--json", str(tmp_path / b"\xff.goi".decode("utf-8", "surrogateescape"))]):
        proc = _goi(*argv)
        data = json.loads(proc.stdout.decode("utf-8"))  # strict UTF-8
        assert proc.returncode == exitcodes.BAD_INPUT and data["error"]["kind"] == "io", data
    env = {**os.environ, "GOI_HYPOTHESIS_REDIS": "notaurl"}
    proc = subprocess.run([sys.executable, "-m", "goi", "props", "soundness", "--examples", "2"], capture_output=True,
                          env=env, timeout=120)
    assert proc.returncode == exitcodes.USAGE and b"not a Redis URL" in proc.stderr and b"Traceback" not in proc.stderr
