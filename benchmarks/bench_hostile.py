"""Hostile and extreme inputs (the reproducers of issues 9 and 22): each run as a `goi` command in a
subprocess, reporting its exit code, outcome, wall time and peak memory (the child's own
maximum resident set, from wait4). Never asserted: run it and read the table.

    python benchmarks/bench_hostile.py
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

GOI = [sys.executable, "-m", "goi"]


def programs(tmp: Path) -> list[tuple[str, list[str], bytes | None]]:
    def file(name: str, text: str) -> str:
        path = tmp / name
        path.write_text(text, encoding="utf-8")
        return str(path)

    sq = "let sq x = x * x in " + "sq (" * 13 + "10" + ")" * 13
    sq26 = "let sq x = x * x in " + "sq (" * 26 + "10" + ")" * 26
    copy = "let f = λy. λz. " + " + ".join(["z"] * 4000) + " in " + "".join(f"let u{i} = f {i} in " for i in range(420)) + "0"
    unfold = "let f @_a p = " + " + ".join("{%d}" % i for i in range(3000)) + " in ((λv:V_a. v) +^L p) • p"
    chain = "".join(f"let x{i} = {{{i}}} in " for i in range(400)) + " + ".join(f"x{i}" for i in range(400))
    many = "".join(f"let f{i} @ p{i} = {{{i}}} * 2 in " for i in range(300)) + " + ".join(f"f{i} p{i}" for i in range(300))
    nested = "".join(f"let f{i} @ p{i} = " for i in range(5000)) + "{1}" + "".join(f" in f{i} p{i}" for i in reversed(range(5000)))
    comment = "(* " + "x" * (16 * 1024 * 1024 - 64) + " *) 1"
    return [
        ("block comment of 16 MiB", ["parse", file("comment.goi", comment)], None),
        ("unterminated comment of 16 MiB (one line)", ["parse", file("open.goi", comment[:-5])], None),
        ("5000 nested decouplings (170 KB)", ["run", file("nested.goi", nested)], None),
        ("flat sum of 33,333", ["run", file("flat33.goi", " + ".join(["1"] * 33_333))], None),
        ("flat sum of 40,000 (beyond the limit)", ["run", file("flat40.goi", " + ".join(["1"] * 40_000))], None),
        ("a 4 MiB line with an error at its end", ["typecheck", file("line.goi", "1 + " * (1 << 20) + "x")], None),
        ("shared binders: let f @ f", ["run", "-e", "let f @ f = {1} in f • f"], None),
        ("shared binders: let (p, p) = abs", ["run", "-e", "let (p, p) = abs {1} in p • p"], None),
        ("shared binders: A(x,x)", ["run", "-e", "(A(x,x). x • x) {2}"], None),
        ("shared binders: named, iterated", ["run", "-e", "let f @_a f = {1} + {2} in ((λv:V_a. v) +^L f) • ((λv:V_a. v) +^L f)"], None),
        ("literal of 4301 digits", ["parse", file("big.goi", "1" * 4301)], None),
        ("decimal, 4300 fractional digits", ["run", file("frac.goi", "{0." + "1" * 4300 + "}")], None),
        ("13 nested squarings (10^8192)", ["run", "-e", sq], None),
        ("26 nested squarings, --max-steps 1000", ["run", "--max-steps", "1000", "-e", sq26], None),
        ("identity chain of 20", ["typecheck", file("id20.goi", "(λx. x) " * 20 + "1")], None),
        ("identity chain of 200", ["typecheck", file("id200.goi", "(λx. x) " * 200 + "1")], None),
        ("500 curried binders", ["typecheck", file("c500.goi", "".join(f"λx{i}. " for i in range(500)) + "x0")], None),
        ("2000 curried binders", ["typecheck", file("c2000.goi", "".join(f"λx{i}. " for i in range(2000)) + "x0")], None),
        ("two 4000-arrow annotations", ["typecheck", file("arrows.goi", "let f = λx:" + " -> ".join(["F"] * 4000) + ". x in let g = λy:" + " -> ".join(["F"] * 4000) + ". y in 0")], None),
        ("420 copies of a 4000-node box, --max-steps 12", ["run", "--max-steps", "12", file("copy.goi", copy)], None),
        ("iterated operation over a vector of 3000", ["run", file("unfold.goi", unfold)], None),
        ("5000 nested parentheses", ["parse", file("r.goi", "1 + (" * 5000 + "1" + ")" * 5000)], None),
        ("10000 nested lets", ["run", file("lets.goi", "".join(f"let x{i} = {i} in " for i in range(10000)) + "x0")], None),
        ("flat sum of 8000", ["typecheck", file("flat.goi", " + ".join(["1"] * 8000))], None),
        ("100000 nested parentheses", ["parse", file("deep.goi", "(" * 100000 + "1" + ")" * 100000)], None),
        ("100000 nested λ (beyond the limit)", ["parse", file("deeplam.goi", "(λx. " * 100000 + "1" + ")" * 100000)], None),
        ("--json --trace, 400-constant let chain", ["run", "--json", "--trace", file("chain.goi", chain)], None),
        ("--dot, 300 decouplings", ["run", "--dot", str(tmp / "dot"), file("many.goi", many)], None),
        ("/dev/zero", ["run", "/dev/zero"], None),
        ("--dot naming a file", ["run", "--dot", file("a-file", ""), "-e", "1"], None),
        ("invalid UTF-8 on standard input", ["run", "--json", "-"], b"\xff\xfe1 + 2"),
    ]


def measure_rss(argv: list[str], stdin: bytes | None) -> tuple[int, float, int, str]:
    """Exit code, seconds, peak RSS in MB, and the first line of output."""
    out_file = tempfile.TemporaryFile()
    err_file = tempfile.TemporaryFile()
    in_file = tempfile.TemporaryFile()
    in_file.write(stdin or b"")
    in_file.seek(0)
    start = time.perf_counter()
    pid = os.fork()
    if pid == 0:  # child: exec goi with the files as its streams
        os.dup2(in_file.fileno(), 0)
        os.dup2(out_file.fileno(), 1)
        os.dup2(err_file.fileno(), 2)
        os.execv(sys.executable, [*GOI, *argv])
    _pid, status, usage = os.wait4(pid, 0)
    seconds = time.perf_counter() - start
    out_file.seek(0)
    err_file.seek(0)
    text = (out_file.read(400) or err_file.read(400)).decode("utf-8", "replace").strip()
    first = text.splitlines()[0][:100] if text else ""
    return os.waitstatus_to_exitcode(status), seconds, usage.ru_maxrss // 1024, first


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        print(f"{'input':<46} {'exit':>4} {'seconds':>8} {'peak MB':>8}  first line of output")
        for name, argv, stdin in programs(Path(tmp)):
            code, seconds, mb, first = measure_rss(argv, stdin)
            print(f"{name:<46} {code:>4} {seconds:>8.2f} {mb:>8}  {first}", flush=True)


if __name__ == "__main__":
    main()
