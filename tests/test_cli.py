"""The `goi` command: outputs, JSON objects, exit codes, and no traceback on bad input."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from goi.cli import exitcodes
from goi.cli import main

PROGRAMS = Path(__file__).parent / "programs"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_parse_prints_the_normalised_program(capsys):
    code, out, err = run(capsys, "parse", "-e", r"let (f,p) = abs \x. x \sq+ x in p")
    assert code == exitcodes.OK
    assert out.strip() == "let f @ p = λx. x ⊞ x in p"


def test_typecheck_prints_the_judgement(capsys):
    code, out, _ = run(capsys, "typecheck", str(PROGRAMS / "paper/deep_decoupling.goi"))
    assert code == exitcodes.OK
    assert out.startswith("- | - | 3, 2 ⊢ let y = {2} + 1 in")
    assert out.strip().endswith(": F")


def test_typecheck_json(capsys):
    code, out, _ = run(capsys, "typecheck", "--json", "-e", "let f @ p = {0.5} - {2} in f p")
    assert code == exitcodes.OK
    data = json.loads(out)
    assert data["status"] == "ok"
    assert data["type"] == "F"
    assert data["parameters"] == ["1/2", "2"]
    assert data["decouplings"] == ["a"]
    assert data["judgement"].startswith("- | - | 1/2, 2 ⊢")


def test_parse_json_has_the_ast_with_positions(capsys):
    code, out, _ = run(capsys, "parse", "--json", "-e", "f {1}")
    data = json.loads(out)
    assert code == exitcodes.OK and data["status"] == "ok" and data["program"] == "f {1}"
    ast = data["ast"]
    assert ast["node"] == "app" and ast["arg"] == {"node": "prov", "value": "1", "pos": {"line": 1, "column": 3, "end_line": 1, "end_column": 6}}


def test_standard_input(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", __import__("io").StringIO("1 +\n"))
    code, _, err = run(capsys, "parse", "-")
    assert code == exitcodes.BAD_INPUT
    assert err.startswith("<stdin>:1:4: parse error: unexpected end of the program")


def test_parse_error_human_output_points_at_the_place(capsys):
    code, out, err = run(capsys, "parse", "-e", "let x = 1 in\n  x $ 2")
    assert code == exitcodes.BAD_INPUT and out == ""
    assert err.splitlines() == [
        "<-e>:2:5: parse error: unexpected character '$'; expected an operand, an operator or the end of the program",
        "    x $ 2",
        "      ^",
    ]


@pytest.mark.parametrize("command", ["parse", "typecheck"])
def test_parse_error_json(capsys, command):
    code, out, _ = run(capsys, command, "--json", "-e", "(1")
    assert code == exitcodes.BAD_INPUT
    data = json.loads(out)
    assert data["status"] == "error"
    assert data["error"]["kind"] == "parse"
    assert (data["error"]["line"], data["error"]["column"]) == (1, 3)
    assert data["error"]["expected"] == ["')'"]


def test_type_error_json(capsys):
    code, out, _ = run(capsys, "typecheck", "--json", "-e", "let f @ p = {1} in p")
    data = json.loads(out)
    assert code == exitcodes.BAD_INPUT
    assert data["error"]["kind"] == "type" and "escapes" in data["error"]["message"]
    assert (data["error"]["line"], data["error"]["column"]) == (1, 1)


def test_unreadable_files_are_bad_input(capsys, tmp_path):
    code, _, err = run(capsys, "parse", str(tmp_path / "missing.goi"))
    assert code == exitcodes.BAD_INPUT and "cannot read" in err and "Traceback" not in err
    binary = tmp_path / "binary.goi"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    code, out, _ = run(capsys, "parse", "--json", str(binary))
    assert code == exitcodes.BAD_INPUT and json.loads(out)["error"]["kind"] == "io"


def test_no_program_is_a_usage_error(capsys):
    code, _, err = run(capsys, "parse")
    assert code == exitcodes.USAGE and "no program given" in err


def test_usage_errors_exit_2(capsys):
    code, _, err = run(capsys, "frobnicate")
    assert code == exitcodes.USAGE and "invalid choice: 'frobnicate'" in err
    code, _, err = run(capsys, "parse", "file.goi", "-e", "1")
    assert code == exitcodes.USAGE and "not both" in err


def test_deep_nesting_is_handled(capsys):
    code, out, _ = run(capsys, "typecheck", "-e", "(" * 20000 + "1" + ")" * 20000)
    assert code == exitcodes.OK and out.strip().endswith(": F")
    code, out, _ = run(capsys, "run", "-e", "".join(f"let x{i} = {i} in " for i in range(3000)) + "x0")
    assert code == exitcodes.OK and out.startswith("value: 0")
    # parentheses nest no term: the parser (LALR, building the AST as it reduces) never recurses
    code, out, _ = run(capsys, "typecheck", "-e", "(" * 100000 + "1" + ")" * 100000)
    assert code == exitcodes.OK and out.strip().endswith(": F")
    # terms nested deeper than the type checker and translation can recurse: a clear limit
    code, out, _ = run(capsys, "parse", "--json", "-e", "(λx. " * 100000 + "1" + ")" * 100000)
    assert code == exitcodes.BAD_INPUT and json.loads(out)["error"]["kind"] == "limit"


def test_long_operator_chains_are_handled(capsys):
    code, out, _ = run(capsys, "typecheck", "-e", " + ".join(["{1}"] * 3000))
    assert code == exitcodes.OK and out.strip().endswith(": F")


BAD_INPUTS = [
    "",
    ")",
    "λ",
    "let",
    "{",
    "1 2 3",
    "λx. x x",
    "A(f,x). x",
    "\x00\x01",
    "(λx. " * 100000 + "1" + ")" * 100000,  # beyond the nesting goi handles: a `limit` error
    "let f @ p = {1e} in p",
    "{1/3}",
    "λx:V_a. x",
]


def test_the_goi_console_script_is_installed():
    assert shutil.which("goi") is not None, "run the README's install command: pip install -e '.[dev]'"


@pytest.mark.parametrize("text", BAD_INPUTS, ids=[repr(t[:20]) for t in BAD_INPUTS])
def test_installed_goi_never_shows_a_traceback_on_bad_input(text, tmp_path):
    path = tmp_path / "prog.goi"
    path.write_text(text, encoding="utf-8")
    for command in (["goi", "typecheck", str(path)], ["goi", "typecheck", "--json", str(path)]):
        proc = subprocess.run(command, capture_output=True, text=True, timeout=120)
        assert proc.returncode == exitcodes.BAD_INPUT, (proc.returncode, proc.stderr[-500:])
        assert "Traceback" not in proc.stderr and "Traceback" not in proc.stdout
        if "--json" in command:
            assert json.loads(proc.stdout)["status"] == "error"


# ---- messages for hostile text (issue 9, point 8): each pinned -----------------------------

MESSAGES = [
    # (program, the located first line, the excerpt and caret lines)
    ("1 + (* comment", "<-e>:1:5: parse error: unterminated comment: the (* at 1:5 is never closed by *)",
     ["  1 + (* comment", "      ^"]),
    ("1 +\f\n 2 $", "<-e>:2:4: parse error: unexpected character '$'; expected an operand, an operator or the end of the program",
     ["   2 $", "     ^"]),
    ("1\r+ $", "<-e>:1:5: parse error: unexpected character '$'; expected an operand",
     ["  1\\x0d+ $", "         ^"]),
    ("x\u2028+ $ 1", "<-e>:1:2: parse error: unexpected character '\\u2028' (U+2028 LINE SEPARATOR); expected an operand, an operator or the end of the program",
     ["  x\\u2028+ $ 1", "   ^"]),
    ("\t\tλx. x $", "<-e>:1:9: parse error: unexpected character '$'; expected an operand, an operator or the end of the program",
     ["  \t\tλx. x $", "  \t\t      ^"]),
    ("世界 + $", "<-e>:1:1: parse error: unexpected character '世' (U+4E16 CJK UNIFIED IDEOGRAPH-4E16); expected a term",
     ["  世界 + $", "  ^"]),
    ("λх. х", "<-e>:1:2: parse error: unexpected character 'х' (U+0445 CYRILLIC SMALL LETTER HA, which looks like 'x': type that instead); expected '(' or a variable",
     ["  λх. х", "   ^"]),
    ("1 − 2", "<-e>:1:3: parse error: unexpected character '−' (U+2212 MINUS SIGN, which looks like '-': type that instead); expected an operand, an operator or the end of the program",
     ["  1 − 2", "    ^"]),
    ("１ + 2", "<-e>:1:1: parse error: unexpected character '１' (U+FF11 FULLWIDTH DIGIT ONE, which looks like '1': type that instead); expected a term",
     ["  １ + 2", "  ^"]),
    ("1e5", "<-e>:1:2: parse error: a number is directly followed by the name 'e5'; goi has no exponent notation or implicit multiplication (write 100000 for 1e5, 2 * x for 2x, or leave a space to apply)",
     ["  1e5", "   ^"]),
]


@pytest.mark.parametrize("text,first,rest", MESSAGES, ids=[repr(m[0]) for m in MESSAGES])
def test_messages_for_hostile_text(capsys, text, first, rest):
    code, out, err = run(capsys, "parse", "-e", text)
    assert code == exitcodes.BAD_INPUT and out == ""
    assert err.split("\n")[:3] == [first, *rest]


def test_a_byte_order_mark_is_no_part_of_the_program(capsys):
    code, out, _ = run(capsys, "parse", "-e", "\ufeff1 + 2")
    assert code == exitcodes.OK and out.strip() == "1 + 2"
    code, _, err = run(capsys, "parse", "-e", "\ufeff1 + $")
    assert code == exitcodes.BAD_INPUT and err.startswith("<-e>:1:5:")
