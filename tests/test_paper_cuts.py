"""Paper cuts a first-time user met (issue 43), each pinned: the behaviour a careful user
expects, asserted where it used to go wrong."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from goi.cli import exitcodes, main
from goi.folding import fold


def test_an_abbreviated_option_is_refused_with_the_option_it_may_mean(capsys):
    assert main(["run", "--max-step", "5", "-e", "1"]) == exitcodes.USAGE
    err = capsys.readouterr().err
    assert "unrecognized arguments: --max-step" in err and "did you mean --max-steps?" in err
    assert main(["run", "--max-steps", "5", "-e", "(λx. x) ((λy. y) 1)"]) == exitcodes.BUDGET  # spelt in full: taken


def test_graphviz_says_nothing_about_the_systems_font_configuration(tmp_path):
    """`goi view` drew through pygraphviz, whose Fontconfig complained on every run about the
    system's configuration (a `reset-dirs` element it does not know): not the user's concern."""
    out = tmp_path / "v.html"
    proc = subprocess.run([sys.executable, "-m", "goi", "view", "-e", "(λx. x + 1) 2", "--output", str(out)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "Fontconfig" not in proc.stderr and out.is_file()


def test_what_graphviz_says_besides_fontconfig_is_kept(capfd):
    from goi.reports.pictures import quiet_graphviz

    with quiet_graphviz():
        os.write(2, b'Fontconfig warning: "/etc/fonts/x.conf", line 6: unknown element "reset-dirs"\n')
        os.write(2, b"Warning: node n1, port p unrecognized\n")
    err = capfd.readouterr().err
    assert "Fontconfig" not in err and "Warning: node n1, port p unrecognized" in err


def test_update_keeps_an_expectation_beside_its_comment(tmp_path, capsys):
    path = tmp_path / "p.goi"
    path.write_text("-- the answer, by hand:\n-- expect: 5\n(λx. x + 1) 2\n-- a closing remark\n", encoding="utf-8")
    assert main(["test", "--update", str(path)]) == exitcodes.OK
    assert path.read_text(encoding="utf-8") == "-- the answer, by hand:\n-- expect: 3\n(λx. x + 1) 2\n-- a closing remark\n"


@pytest.mark.parametrize("line, written", [
    ("-- division: strict", "-- expect division: strict"),
    ("-- status: undefined", "-- expect status: undefined"),
    ("--value: 3", "-- expect: 3"),
])
def test_an_expectation_written_without_expect_is_an_error_not_a_comment(tmp_path, capsys, line, written):
    """`-- division: strict` without `expect` was silently a comment: the program ran under
    total division, and --update recorded that value below the line that says strict."""
    path = tmp_path / "p.goi"
    text = f"{line}\n1 / 0\n"
    path.write_text(text, encoding="utf-8")
    assert main(["test", "--update", str(path)]) == exitcodes.NOT_EQUIVALENT
    out = capsys.readouterr().out
    assert "is only a comment" in out and written in out and f"{path}:1" in out
    assert path.read_text(encoding="utf-8") == text  # nothing recorded under a line it did not obey


def test_an_implementation_that_cannot_start_is_said_before_any_program(tmp_path, capsys):
    calls = []
    import goi.oracle.protocols as protocols

    original = protocols.call

    def counting(*args, **kwargs):
        calls.append(args)
        return original(*args, **kwargs)

    protocols.call = counting
    try:
        for impl, why in ((str(tmp_path / "missing"), "no such file"), ("no-such-command-goi-test", "no such command on PATH"),
                          (str(tmp_path), "not an executable file")):
            assert main(["oracle", "--impl", impl, "--max-programs", "5"]) == exitcodes.USAGE
            err = capsys.readouterr().err
            assert f"cannot start {impl}: {why}" in err and "Traceback" not in err
    finally:
        protocols.call = original
    assert calls == []  # not one program was put to it


def test_an_apostrophe_is_not_a_quotation_in_a_folded_message():
    assert fold("can't open '/tmp/a/prog.goi': it's gone") == "can't open '…': it's gone"
    assert fold("unbound variable 'x1' at 3") == "unbound variable '…' at N"


@pytest.mark.parametrize("program, says", [
    ("1 +^L 2", "+^L takes a function of type V_a -> V_a on its left and a vector of a type V_a on its right, "
                "but its right operand `2` (1:7) has type F"),
    ("(λx. x) *^L 1", "*^L takes a function of type V_a -> F on its left and a vector of a type V_a on its right, "
                      "but its right operand `1` (1:13) has type F"),
])
def test_an_iterated_operation_on_a_scalar_says_the_right_operand_is_not_a_vector(program, says, capsys):
    assert main(["typecheck", "-e", program]) == exitcodes.BAD_INPUT
    assert says in capsys.readouterr().err


def test_a_rule_that_never_fired_is_named_in_red_in_the_coverage_picture():
    """REPORTS.md promises the rules that never fired in red: their bar has length 0, so the
    name is what is red (the picture drawn with text as text, to read it)."""
    import re

    import matplotlib

    from goi.reports.pictures import bars

    with matplotlib.rc_context({"svg.fonttype": "none"}):
        svg = bars(["rw.never", "rw.often"], [0, 5], "transitions per rule", "transitions", [True, False])
    labels = dict((m.group(2), m.group(1)) for m in re.finditer(r'<text style="([^"]*)"[^>]*>(rw\.\w+)</text>', svg))
    assert "fill: #c44e52" in labels["rw.never"] and "#c44e52" not in labels["rw.often"]
