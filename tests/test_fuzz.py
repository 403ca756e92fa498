"""Hostile input, fuzzed in-process through the `goi` command: random bytes, grammar-near
token soup (with shadowing and repeated names), and mutated example programs, under a small
step budget. Whatever the input: no internal error (exit 70), `--json` prints exactly one
valid UTF-8 JSON object, and every program the type checker accepts runs to `final` or
`budget` — never `stuck`, never a violated invariant."""

import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from goi.cli import main
from goi.properties.profiles import current
from goi.semantics import exitcodes

CONFIG = current()
EXAMPLES = [p.read_text(encoding="utf-8") for p in sorted((Path(__file__).parent / "programs").rglob("*.goi"))]
TOKENS = [
    "λ", "\\", "x", "y", "f", "p", "x", "f", ".", ":", "F", "V_a", "->", "(", ")", "{1}", "{-2}", "{0.5}", "1", "0",
    "2.5", "+", "-", "*", "/", "•", "⊞", "⊠", "+^L", "*^L", "let", "in", "=", "@", "@_a", "A", "A_a", "(f,x)",
    "(f,f)", "abs", ",", "let f @ p =", "let (f,p) = abs", "λx.", "λx:F.", "λv:V_a.", "p • p", "f p", "--", "(*", "*)",
    "1e5", "\t", "\n", "х", "−", "１", "\u2028", "\ufeff",
]
SETTINGS = settings(max_examples=2 * CONFIG.examples, deadline=None, suppress_health_check=list(HealthCheck))


def run_cli(capsys, text: str) -> None:
    """The program through parse, typecheck and run (budgeted), with --json and without."""
    for argv in (["parse", "--json"], ["typecheck", "--json"], ["run", "--json", "--max-steps", "3000", "--check", "form,names"], ["run", "--max-steps", "3000"]):
        code = main([*argv, "-e", text])
        out, err = capsys.readouterr()
        assert code != exitcodes.INTERNAL, err[-3000:]
        assert "Traceback" not in err
        if "--json" in argv:
            assert out.count("\n") == 1
            data = json.loads(out.encode("utf-8").decode("utf-8"))
            if argv[0] == "run" and data["status"] != "error":
                assert data["status"] in ("final", "budget"), (text, data["status"], data["reason"])


@SETTINGS
@given(st.binary(max_size=200))
def test_random_bytes(capsys, data):
    run_cli(capsys, data.decode("utf-8", "replace"))


@SETTINGS
@given(st.lists(st.sampled_from(TOKENS), max_size=40))
def test_grammar_near_token_soup(capsys, tokens):
    run_cli(capsys, " ".join(tokens))


@SETTINGS
@given(st.sampled_from(EXAMPLES), st.data())
def test_mutated_examples(capsys, program, data):
    text = program
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(text)))
        j = data.draw(st.integers(i, min(len(text), i + 8)))
        text = text[:i] + data.draw(st.sampled_from(["", *TOKENS])) + text[j:]
    run_cli(capsys, text)
