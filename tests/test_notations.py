"""Notations as declarations (oracle/notations, docs/ORACLE.md, Notation files): the built-in
paper and visualiser notations are TOML files that print what goi's own printer and the
authors' grammar expect; two notations of other families (ML-like, operation syntax) are
read by mock implementations with strict parsers written apart from goi's; every printed
program reads back through its declaration; a broken declaration is refused with the file,
the key and what was expected."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

import goi
from goi import api
from goi.cli import exitcodes
from goi.cli.main import main
from goi.generators.typed import programs
from goi.oracle.cases import OracleConfig
from goi.oracle.notations import Inexpressible, NotationError, notation
from goi.oracle.survey import Oracle
from goi.semantics.parser import parse
from goi.semantics.pretty import pretty

HERE = Path(__file__).parent
ROOT = HERE.parent
EXAMPLES = ROOT / "docs" / "examples" / "notations"
MOCKS = HERE / "oracle_mocks"
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(MOCKS))

from visualiser_grammar import recognise  # noqa: E402

EXAMPLE_SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck), database=None,
                            derandomize=True)


def _module(name: str):
    spec = importlib.util.spec_from_file_location(f"mock_{name}", MOCKS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def drawn(spec: str):
    """Programs of the fragment a notation implies, as the oracle draws them."""
    oracle = Oracle(OracleConfig(command=["true"], notation=spec))
    return programs(max_depth=4, **oracle.fragment)


# ---- the built-in notations are declarations that print as before ------------------------------

@EXAMPLE_SETTINGS
@given(programs())
def test_the_paper_declaration_prints_what_goi_prints_and_reads(term):
    judgement = api.judge(term)
    for parenthesize in ("minimal", "all"):
        printed = notation("paper").print(term, judgement.operators, True, parenthesize)
        if parenthesize == "minimal":
            assert printed.text == pretty(term)
        assert parse(printed.text) == term == printed.term


@EXAMPLE_SETTINGS
@given(programs())
def test_the_visualiser_declaration_writes_what_the_authors_grammar_and_goi_read(term):
    judgement = api.judge(term)
    for parenthesize in ("minimal", "all"):
        try:
            printed = notation("visualiser").print(term, judgement.operators, True, parenthesize)
        except Inexpressible:
            assert any(isinstance(t, goi.semantics.syntax.Prov) and t.value < 0
                       for t in goi.semantics.syntax.walk(term))
            return
        recognise(printed.text)
        assert parse(printed.text) == printed.term
        assert goi.run(printed.term).value == goi.run(term).value


# ---- two families goi never printed before, each read by a strict parser of its own ------------

@pytest.mark.parametrize("family, mock", [("ml", "ml_strict"), ("operations", "operations_strict")])
def test_a_declared_notation_is_read_by_its_strict_implementation_as_printed(family, mock):
    spec = str(EXAMPLES / f"{family}.toml")
    strict = _module(mock)

    @EXAMPLE_SETTINGS
    @given(drawn(spec))
    def check(term):
        judgement = api.judge(term)
        printed = notation(spec).print(term, judgement.operators)  # never Inexpressible in its own fragment
        assert strict.parse(printed.text) == printed.term

    check()


def test_the_ml_notation_writes_a_space_around_every_token_and_its_sugar():
    spec = str(EXAMPLES / "ml.toml")
    judgement = goi.check("let f x y = x * (y - 3) in f 2 (-5)")
    text = notation(spec).print(judgement.surface, judgement.operators).text
    assert text == "let f x y = x * ( y - 3 ) in f 2 ( 0 - 5 )"


def test_the_operation_syntax_writes_every_construct_as_an_operation():
    spec = str(EXAMPLES / "operations.toml")
    judgement = goi.check("let g = λx:F. x * 2 in g (1 - 4)")
    text = notation(spec).print(judgement.surface, judgement.operators).text
    assert text == "bind g = LAMBDA(x. TIMES(x, 2)) in APP(g, MINUS(1, 4))"


@pytest.mark.parametrize("family, mock, extra", [("ml", "ml_strict", ["--arithmetic", "integer"]),
                                                  ("operations", "operations_strict", [])])
def test_an_implementation_is_pointed_at_with_a_notation_file_and_the_run_is_clean(family, mock, extra, capsys):
    impl = f"{sys.executable} {MOCKS / (mock + '.py')} --lines"
    code = main(["oracle", "--impl", impl, "--protocol", "lines", "--notation", str(EXAMPLES / f"{family}.toml"),
                 "--profile", "ci", "--no-database", "--json", *extra])
    data = json.loads(capsys.readouterr().out)
    assert code == exitcodes.OK, data
    assert data["counts"]["agree"] == data["programs"] >= 60 and data["skipped"] == 0
    assert {"no-provisional", "integers"} <= set(data["fragments"])  # implied by the notation


def test_a_replay_carries_the_notation_file(tmp_path, capsys):
    """A failure found through a notation file is replayed with the same file."""
    spec = tmp_path / "ml.toml"
    spec.write_text((EXAMPLES / "ml.toml").read_text().replace('sub = { symbol = "-", precedence = 6 }',
                                                               'sub = { symbol = "+", precedence = 5 }'))
    # "+" for two operators: refused when loaded
    assert main(["oracle", "--impl", "true", "--notation", str(spec)]) == exitcodes.USAGE
    assert "operators.sub: written like operators.add" in capsys.readouterr().err
    spec.write_text((EXAMPLES / "ml.toml").read_text())
    impl = f"{sys.executable} {MOCKS / 'ml_strict.py'} --lines"
    code = main(["oracle", "--impl", impl, "--protocol", "lines", "--notation", str(spec), "--no-database",
                 "--max-programs", "30", "--json"])  # exact arithmetic: the integer implementation disagrees
    data = json.loads(capsys.readouterr().out)
    assert code == exitcodes.NOT_EQUIVALENT
    replay = data["buckets"][0]["replay"]
    assert f"--notation {spec}" in replay
    text = replay.split("--replay-program ", 1)[1].strip("'")
    assert main(["oracle", "--impl", impl, "--protocol", "lines", "--notation", str(spec),
                 "--replay-program", text]) == exitcodes.NOT_EQUIVALENT
    assert main(["oracle", "--impl", impl, "--protocol", "lines", "--notation", str(spec), "--arithmetic", "integer",
                 "--replay-program", text]) == exitcodes.OK


# ---- a declaration that cannot be used is refused, with where and what -------------------------

LAMBDA = 'name = "x"\n[forms]\nlambda = "fun {x} -> {body}"\n'
BROKEN = {
    "not TOML": ('name = "x"\n[forms\n', "not a TOML file: Expected ']' at the end of a table declaration (at line 2"),
    "no name": ('[forms]\nlambda = "λ{x}. {body}"\n', "name: a notation names itself"),
    "no lambda": ('name = "x"\n', "forms.lambda: every notation writes λ"),
    "unclosed hole": ('name = "x"\n[forms]\nlambda = "fun {x} -> {body"\n', "forms.lambda: 'fun {x} -> {body': column 12"),
    "unknown hole": (LAMBDA + 'let = "let {y} = {bound} in {body}"\n', "forms.let: 'let {y} = {bound} in {body}': column 5"),
    "missing hole": (LAMBDA + 'let = "let {x} = {bound}"\n', "forms.let: the template lacks {body}"),
    "unknown key": ('lamda = 1\n' + LAMBDA, "lamda: not a key of a notation file"),
    "unknown form": (LAMBDA.replace('lambda = "', 'lambda = "').replace("[forms]\n", "[forms]\nletrec = \"x\"\n"),
                     "forms.letrec: not a key of [forms]"),
    "type without types": ('name = "x"\n[forms]\nlambda = "fun {x}[:{type}] -> {body}"\n',
                           "forms.lambda: {type} in a notation with no [types]"),
    "two operators alike": (LAMBDA + '[operators]\nadd = { symbol = "+", precedence = 1 }\n'
                            'sub = { symbol = "+", precedence = 1 }\n', "operators.sub: written like operators.add"),
    "no precedence": (LAMBDA + '[operators]\nadd = "+"\n', "operators.add.precedence: an infix operator has a precedence"),
    "postfix": (LAMBDA + '[operators]\nadd = { template = "{left} {right} PLUS" }\n', "postfix forms are not read"),
    "wrong negative": (LAMBDA + '[operators]\nsub = { symbol = "-", precedence = 1 }\n[constants]\nnegative_as = "(1 - {n})"\n',
                       "constants.negative_as: writes 1 - 3 for -3, which is not -3"),
    "ambiguous forms": (LAMBDA + 'let = "fun {x} -> {bound} in {body}"\n', "reads back as another"),
    "a prefix minus beside juxtaposition": (LAMBDA + '[operators]\nsub = { symbol = "-", precedence = 1 }\n'
                                            '[constants]\nnegative = "-{n}"\n', "does not read back"),
    "bad pattern": (LAMBDA + '[names]\npattern = "[A-Z]+"\n', "names.pattern: it must at least match one lower-case letter"),
    "bad parentheses": (LAMBDA + '[layout]\nparentheses = ["("]\n', "layout.parentheses: expected two non-empty strings"),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_a_broken_declaration_is_refused_with_where_and_what(case, tmp_path, capsys):
    text, message = BROKEN[case]
    path = tmp_path / "broken.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(NotationError) as error:
        notation(str(path))
    assert str(error.value).startswith(f"{path}: ") and message in str(error.value), str(error.value)
    assert main(["oracle", "--impl", "true", "--notation", str(path)]) == exitcodes.USAGE
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


@pytest.mark.parametrize("spec", ["no-such-notation", "missing/file.toml"])
def test_an_unknown_notation_is_a_usage_error(spec, capsys):
    assert main(["oracle", "--impl", "true", "--notation", spec]) == exitcodes.USAGE
    assert "Traceback" not in capsys.readouterr().err


def test_the_notation_says_what_it_cannot_write():
    ml = notation(str(EXAMPLES / "ml.toml"))
    assert {"no-provisional", "no-decoupling", "integers", "no-vector-ops", "no-iterated", "no-annotations"} \
        <= ml.notation.fragments
    assert "non-negative" not in ml.notation.fragments and "no-division" not in ml.notation.fragments
    assert notation("visualiser").notation.fragments == {"no-annotations"}
    assert notation("paper").notation.fragments == frozenset()
    with pytest.raises(Inexpressible, match="provisional"):
        ml.print(goi.check("{1} + 2").surface)


def test_oracle_md_shows_the_example_notations_and_every_key_as_they_are():
    """ORACLE.md's Notation files section: the example files verbatim, their printed examples
    as the tests above print them, and every key the reader accepts in its table."""
    from goi.oracle.notations.declaration import CONSTANTS, FORMS, MEANINGS, TYPES

    doc = (ROOT / "docs" / "ORACLE.md").read_text(encoding="utf-8")
    for family in ("ml", "operations"):
        assert "```toml\n" + (EXAMPLES / f"{family}.toml").read_text(encoding="utf-8") + "```" in doc
    assert "`let f x y = x * ( y - 3 ) in f 2 ( 0 - 5 )`" in doc
    assert "`bind g = LAMBDA(x. TIMES(x, 2)) in APP(g, MINUS(1, 4))`" in doc
    table = doc[doc.index("| key | holes |"):doc.index("**What it implies.**")]
    for key in [*FORMS, *MEANINGS, *CONSTANTS, *TYPES, "numbers", "pattern", "reserved", "parentheses",
                "parenthesize", "operators_by"]:
        assert key in table, key


def test_a_notation_file_beside_the_built_in_ones_is_found_by_name(tmp_path, monkeypatch):
    """CONTRIBUTING.md's Adding a notation: the file it shows, put beside paper.toml, is a
    notation by its name."""
    import goi.oracle.notations as notations

    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    block = text[text.index("+++ oracle/notations/ocaml.toml"):]
    block = block[:block.index("```")]
    for path in Path(notations.__file__).parent.glob("*.toml"):
        (tmp_path / path.name).write_bytes(path.read_bytes())
    (tmp_path / "ocaml.toml").write_text("\n".join(line[1:] for line in block.splitlines()[1:]) + "\n",
                                         encoding="utf-8")
    monkeypatch.setattr(notations, "HERE", tmp_path)
    assert "ocaml" in notations.builtin()
    judgement = goi.check("let f = λx:F. x * (-2) in f 3 + 1")
    ocaml = notations.notation("ocaml")
    assert ocaml.print(judgement.surface, judgement.operators).text == "let f = fun x -> x * (-2) in f 3 + 1"
    assert "no-provisional" in ocaml.notation.fragments
