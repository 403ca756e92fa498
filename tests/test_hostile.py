"""Hostile input (issue 22): memory proportional to the input, limits named for what they
are, long lines shown as a window. Memory is counted with tracemalloc (bytes allocated,
the same on every run), never timed; benchmarks/bench_hostile.py measures the whole
commands' peak resident memory."""

import subprocess
import sys
import tracemalloc

import pytest

import goi
from goi.cli import exitcodes
from goi.semantics.errors import LimitError, ParseError
from goi.semantics.graph import Graph
from goi.semantics.parser import parse


def peak_bytes(fn, *args) -> int:
    tracemalloc.start()
    try:
        fn(*args)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_block_comment_costs_memory_in_proportion_to_its_length():
    """A comment of 1 MiB once took 147 MB in the lexer's regular expression (a group
    repeated once per character); 16 MiB took 3.3 GB."""
    parse("1")  # build the parser first
    text = "(* " + "x(*" * (1 << 18) + " *) 1"
    assert peak_bytes(parse, text) <= 4 * len(text) + (1 << 20)


def nested_decouplings(n: int) -> str:
    return "".join(f"let f{i} @ p{i} = " for i in range(n)) + "{1}" + "".join(f" in f{i} p{i}" for i in reversed(range(n)))


def test_nested_decouplings_run_in_memory_that_grows_with_them_not_with_their_square():
    """5,000 nested decouplings (170 KB) took 2.07 GB: each dissolved box's content passes
    through its parent, whose member set kept the table of its largest size while deleted
    boxes waited, in reference cycles, for a full collection."""
    goi.run("1")
    small = peak_bytes(goi.run, nested_decouplings(150))
    large = peak_bytes(goi.run, nested_decouplings(300))
    assert large <= 2.5 * small, (small, large)  # 3.4 before the fix


def test_a_deleted_box_gives_back_the_memory_of_its_members():
    g = Graph()
    outer = g.new_box(None)
    inner = g.new_box(outer)
    nodes = [g.new_node("c", inner, 0, 1) for _ in range(2000)]
    for node in nodes:
        g.move_node(node, outer)
    g.delete_box(inner)
    assert sys.getsizeof(inner.nodes) == sys.getsizeof(set())


def test_a_long_chain_of_operators_is_refused_as_a_chain_and_deep_nesting_as_nesting():
    """A flat sum is not nested by its author: it is refused as a chain too long (operators
    associate to the left, each is a level), with the way out; deep binders are nesting."""
    with pytest.raises(LimitError, match=r"chain of [\d,]+ or more operands .*bind parts of the chain with let"):
        parse(" + ".join(["1"] * 400))
    with pytest.raises(LimitError, match="nested too deeply"):
        parse("(λx. " * 400 + "1" + ")" * 400)


def test_a_flat_sum_beyond_the_deep_stack_ends_with_one_message():
    proc = subprocess.run([sys.executable, "-m", "goi", "run", "-"], input=" + ".join(["1"] * 40_000).encode(),
                          capture_output=True, timeout=300)
    assert proc.returncode == exitcodes.BAD_INPUT and b"Traceback" not in proc.stderr
    assert b"limit error: the program has a chain of" in proc.stderr and b"nested too deeply" not in proc.stderr


def test_an_error_on_a_long_line_shows_a_window_of_it():
    """The offending line was printed whole: 16 MiB of output for an unterminated comment."""
    text = "1 + " * 5000 + "x" + " + 1" * 5000
    with pytest.raises(Exception) as info:
        goi.check(text)
    shown = info.value.render(text).splitlines()
    assert len(shown[1]) < 130 and shown[1].strip().startswith("…") and shown[1].endswith("…")
    assert shown[2].index("^") == shown[1].index("x")
    unterminated = "(* " + "x" * 100_000
    with pytest.raises(ParseError) as info:
        parse(unterminated)
    assert len(info.value.render(unterminated)) < 300


# ---- an output folder that cannot be written is refused before the work -------------------

def test_an_unwritable_out_is_refused_before_the_run(tmp_path, monkeypatch, capsys):
    from goi import reports
    from goi.cli import main

    a_file = tmp_path / "a-file"
    a_file.write_text("")
    marker = tmp_path / "called"
    impl = f"{sys.executable} -c \"open('{marker}', 'w'); print(0)\""
    assert main(["oracle", "--impl", impl, "--out", str(a_file), "--max-programs", "2"]) == exitcodes.BAD_INPUT
    assert "--out" in capsys.readouterr().err and not marker.exists()  # the implementation never ran

    def collect(*_args, **_kwargs):
        raise AssertionError("the properties ran before --out was tried")

    monkeypatch.setattr(reports, "collect", collect)
    for out in (str(a_file), "/proc/self/goi-report", "/proc/self"):
        assert main(["report", "--out", out]) == exitcodes.BAD_INPUT
        assert f"--out {out}:" in capsys.readouterr().err
    assert main(["run", "--dot", str(a_file), "-e", "1"]) == exitcodes.BAD_INPUT
    assert "it exists and is not a directory" in capsys.readouterr().err


def test_a_command_that_fails_leaves_no_directory_it_made(tmp_path, capsys, monkeypatch):
    """--out is made before the work (so that an unwritable one fails at once); a command that
    then fails removes the directories it made, innermost first, and nothing that was there:
    `goi report --from missing.json` once left an empty goi-report/ in the working directory."""
    from goi.cli import main

    missing = str(tmp_path / "missing.json")
    assert main(["report", "--from", missing, "--out", str(tmp_path / "new" / "deeper" / "out")]) == exitcodes.BAD_INPUT
    assert "missing.json" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == []
    existing = tmp_path / "existing"
    existing.mkdir()
    monkeypatch.chdir(existing)
    assert main(["report", "--from", missing]) == exitcodes.BAD_INPUT  # the default --out, goi-report/
    assert main(["report", "--from", missing, "--out", str(existing / "inside")]) == exitcodes.BAD_INPUT
    assert existing.is_dir() and list(existing.iterdir()) == []
    # the oracle: --out made, then a usage error found after it
    out = tmp_path / "oracle" / "out"
    assert main(["oracle", "--impl", "true", "--out", str(out), "--exhaustive", "2", "--shards", "2"]) == exitcodes.USAGE
    assert "not with --shards" in capsys.readouterr().err and not (tmp_path / "oracle").exists()
    # what the command wrote stays, and so does the directory that holds it
    (existing / "kept").mkdir()
    (existing / "kept" / "user.txt").write_text("mine", encoding="utf-8")
    assert main(["report", "--from", missing, "--out", str(existing / "kept")]) == exitcodes.BAD_INPUT
    assert (existing / "kept" / "user.txt").read_text(encoding="utf-8") == "mine"


FRONT_END_BYTES_PER_BYTE = 300  # a syntax tree and its typed core: a few Python objects per token (measured 110–265)


@pytest.mark.parametrize("text", [
    " + ".join(["1"] * 1500),
    "".join(f"let x{i} = {i} in " for i in range(600)) + "x0",
    nested_decouplings(600),
    "(λx. " * 150 + "x" + ")" * 150,
], ids=["flat sum", "lets", "decouplings", "binders"])
def test_the_front_end_takes_memory_in_proportion_to_the_program(text):
    goi.check("1")
    assert peak_bytes(goi.check, text) <= FRONT_END_BYTES_PER_BYTE * len(text) + (1 << 20)
