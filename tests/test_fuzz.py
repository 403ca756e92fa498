"""Hostile input, fuzzed in-process through the `goi` command: random bytes, grammar-near
token soup (with shadowing and repeated names), and mutated example programs, under a small
step budget; pairs of mutants through `goi equiv`; a hostile implementation through `goi
oracle`; mutated reports through `goi report --from`. Whatever the input: no internal error (exit 70), `--json` prints exactly one
valid UTF-8 JSON object, and every program the type checker accepts runs to `final` or
`budget` — never `stuck`, never a violated invariant."""

import copy
import json
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from goi.cli import main
from goi.properties.profiles import current
from goi.cli import exitcodes

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


# ---- the commands that read what others wrote: equiv, oracle, report --from ------------------

def one_json_object(out: str) -> dict:
    assert out.count("\n") == 1, out[-500:]
    return json.loads(out.encode("utf-8").decode("utf-8"))


def mutated(data, text: str) -> str:
    for _ in range(data.draw(st.integers(0, 3))):
        i = data.draw(st.integers(0, len(text)))
        j = data.draw(st.integers(i, min(len(text), i + 8)))
        text = text[:i] + data.draw(st.sampled_from(["", *TOKENS])) + text[j:]
    return text


# goi's commands run Hypothesis themselves (equiv --terms searches contexts, the oracle draws
# programs) on goi's deep stack, whose recursion limit is raised while they run and restored
# after: nested in this test's own Hypothesis run, the inner run sees a limit it did not set
# and declines to reset it (HypothesisWarning). The limit is goi's to restore, and it does.
NESTED_HYPOTHESIS = pytest.mark.filterwarnings("ignore:The recursion limit will not be reset:hypothesis.errors.HypothesisWarning")


@NESTED_HYPOTHESIS
@settings(SETTINGS, max_examples=max(4, CONFIG.examples // 4))
@given(st.sampled_from(EXAMPLES), st.data())
def test_equiv_on_mutated_pairs(capsys, program, data):
    """Two mutants of one example program (often both of type F, so z3 is asked), as
    programs and as terms: a verdict, a refusal or a limit, never an internal error."""
    left, right = mutated(data, program), mutated(data, program)
    for extra in ([], ["--terms", "--examples", "3"]):
        code = main(["equiv", "--json", "--timeout", "2", *extra, "-e", left, "-e", right])
        out, err = capsys.readouterr()
        assert code != exitcodes.INTERNAL and "Traceback" not in err, err[-3000:]
        one_json_object(out)


@NESTED_HYPOTHESIS
@settings(SETTINGS, max_examples=max(2, CONFIG.examples // 20))
@given(st.integers(0, 2**16), st.sampled_from(["oneshot", "lines"]))
@example(1, "oneshot")  # the deep profile's failure: {"value": "wrong"} was described as Python's ValueError
def test_oracle_against_a_hostile_implementation(capsys, seed, protocol):
    """tests/oracle_mocks/hostile.py answers each program with something absurd: every
    answer is classified, goi ends with a report, never an internal error, and every
    answer it cannot read is described in goi's words."""
    mock = Path(__file__).parent / "oracle_mocks" / "hostile.py"
    impl = f"{sys.executable} {mock}" + (" --lines" if protocol == "lines" else "")
    code = main(["oracle", "--impl", impl, "--protocol", protocol, "--json", "--seed", str(seed), "--max-programs", "6",
                 "--no-corpus", "--no-database", "--shrink-calls", "12", "--timeout", "20"])
    out, err = capsys.readouterr()
    assert code in (exitcodes.OK, exitcodes.NOT_EQUIVALENT), (code, err[-3000:])  # NOT_EQUIVALENT: failures found
    data = one_json_object(out)
    assert data["schema"] == "goi.oracle/2" and "Fraction" not in out
    for python in ("Invalid literal", "Traceback", "object has no attribute", "unsupported operand", "Expecting value"):
        assert python not in out, python


@pytest.fixture(scope="module")
def small_report(tmp_path_factory) -> dict:
    out = tmp_path_factory.mktemp("report")
    assert main(["report", "--properties", "soundness", "--examples", "2", "--out", str(out)]) == exitcodes.OK
    return json.loads((out / "report.json").read_text(encoding="utf-8"))


JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers(-3, 10**30) | st.floats() | st.text(max_size=8),
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
                           max_leaves=6)


def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for i, item in enumerate(value[:3]):
            yield from _paths(item, (*prefix, i))


@settings(SETTINGS, max_examples=max(4, CONFIG.examples // 6))
@given(st.data())
def test_report_from_a_mutated_report(capsys, tmp_path_factory, small_report, data):
    """A report.json with any part replaced by any JSON value (or removed) is rendered or
    refused with --from named; never an internal error."""
    broken = copy.deepcopy(small_report)
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(list(_paths(broken))[1:] or [("schema",)]))
        target = broken
        for step in path[:-1]:
            target = target[step]
        if data.draw(st.booleans()) and isinstance(target, dict):
            target.pop(path[-1], None)
        else:
            target[path[-1]] = data.draw(JSON_VALUES)
    folder = tmp_path_factory.mktemp("from")
    source = folder / "report.json"
    source.write_text(json.dumps(broken), encoding="utf-8")
    code = main(["report", "--from", str(source), "--out", str(folder / "out"), "--json"])
    out, err = capsys.readouterr()
    assert code in (exitcodes.OK, exitcodes.STUCK, exitcodes.INTERRUPTED, exitcodes.BAD_INPUT), (code, err[-3000:])
    assert "Traceback" not in err
    data_out = one_json_object(out)
    assert code != exitcodes.BAD_INPUT or "--from" in data_out["error"]["message"]
