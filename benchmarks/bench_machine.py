"""Machine benchmarks: transitions per second, and how transitions and time grow with size.

Not a test: it asserts nothing. Run:  python benchmarks/bench_machine.py [--quick] [--json FILE]

For each family of programs and each size n it reports the number of transitions, the
time, transitions per second, and, between consecutive sizes, the growth exponent
k = log(ratio of cost) / log(ratio of sizes): k ≈ 1 is linear growth, k ≈ 2 quadratic.

Times are CPU time of this process (`time.process_time`, the machine's deep-stack thread
included), not wall time, which load moves far more (issue 53, item 7).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import goi  # noqa: E402
from goi.semantics.values import RationalField  # noqa: E402


class CountingField(RationalField):
    """Exact rationals, counting the field operations performed."""

    def __init__(self):
        super().__init__()
        self.ops = 0

    def add(self, x, y):
        self.ops += 1
        return x + y

    def sub(self, x, y):
        self.ops += 1
        return x - y

    def mul(self, x, y):
        self.ops += 1
        return x * y

    def div(self, x, y):
        self.ops += 1
        return super().div(x, y)


def applications(n: int) -> str:
    """n nested applications of one function: let f x = x + 1 in f (f (… (f 0)))."""
    return "let f x = x + 1 in " + "f (" * n + "0" + ")" * n


def let_chain(n: int) -> str:
    """n lets, each using the previous one twice."""
    lines = ["let x0 = 1 in"] + [f"let x{i} = x{i-1} + x{i-1} in" for i in range(1, n)] + [f"x{n-1}"]
    return "\n".join(lines)


def deep_decoupling(n: int) -> str:
    """A model reaching n provisional constants through free variables, decoupled and re-applied."""
    lines = [f"let y{i} = {{{i}}} + 1 in" for i in range(n)]
    body = " + ".join(f"y{i}" for i in range(n))
    lines += [f"let m x = {body} + x in", "let f @ p = m in", "f p 7"]
    return "\n".join(lines)


def iterated(n: int) -> str:
    """Iterated operations over a parameter vector of size n."""
    model = " + ".join(f"{{{i}}}" for i in range(n))
    return f"let f @ p = {model} in ((λe. e ⊞ p) +^L p) • ((λe. e • p) *^L p)"


def wide_closure(n: int) -> str:
    """A closure over n free variables: its box absorbs n boxes in one ?-phase."""
    lines = [f"let x{i} = {i} in" for i in range(n)]
    body = " + ".join(f"x{i}" for i in range(n))
    lines.append(f"(λg. g 0) (λu. {body} + u)")
    return "\n".join(lines)


def church(n: int) -> str:
    """The Church numeral n (n successors of zero) applied to an increment and 0."""
    numeral = "succ (" * n + "zero" + ")" * n
    return (
        "let inc = λx. x + 1 in\n"
        "let succ = λn. λf. λx. f (n f x) in\n"
        "let zero = λf. λx. x in\n"
        f"({numeral}) inc 0"
    )


def copies(n: int) -> str:
    """One function over a provisional constant, called n times: n copies of its box, each
    sharing the constant (rotC joins)."""
    calls = " + ".join(f"f {i}" for i in range(n))
    return f"let f = λx. x * {{2}} + 1 in {calls}"


FAMILIES = {
    "applications": (applications, [16, 32, 64, 128, 256]),
    "let_chain": (let_chain, [16, 32, 64, 128, 256]),
    "deep_decoupling": (deep_decoupling, [4, 8, 16, 32, 64]),
    "iterated": (iterated, [1, 2, 4, 8, 16, 32, 64]),
    "wide_closure": (wide_closure, [16, 32, 64, 128, 256]),
    "church": (church, [8, 16, 32, 64, 128]),
    "copies": (copies, [8, 16, 32, 64, 128]),
}


def measure(text: str, repeat: int) -> dict:
    """Best-of-`repeat` time of a run, its transitions, field operations and graph elements created."""
    judgement = goi.check(text)
    best = math.inf
    for _ in range(repeat):
        field_ = CountingField()
        execution = goi.prepare(judgement, field=field_)
        graph = execution.machine.graph
        initial = graph.allocated()
        start = time.process_time()
        outcome = execution.run(50_000_000)
        best = min(best, time.process_time() - start)
        assert outcome.status == "final", outcome.reason
    return {
        "transitions": outcome.transitions,
        "seconds": best,
        "field_ops": field_.ops,
        "created": graph.allocated() - initial,
        "initial_size": initial,
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="smaller sizes, one repetition")
    ap.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    ap.add_argument("--family", action="append", help="only these families")
    args = ap.parse_args()
    sys.setrecursionlimit(100_000)
    results = {}
    for name, (make, sizes) in FAMILIES.items():
        if args.family and name not in args.family:
            continue
        if args.quick:
            sizes = sizes[:3]
        rows = []
        print(f"\n{name}: {make.__doc__}")
        print(
            f"{'n':>6} {'graph':>7} {'transitions':>12} {'field ops':>10} {'created':>9} {'seconds':>9} "
            f"{'trans/s':>9} {'k(trans)':>9} {'k(ops)':>7} {'k(made)':>8} {'k(time)':>8}"
        )
        prev = None
        for n in sizes:
            row = {"n": n, **measure(make(n), 1 if args.quick else 3)}
            row["per_second"] = row["transitions"] / row["seconds"]
            ks = ""
            if prev is not None:
                def k(key):
                    a, b = prev[key], row[key]
                    return math.log(b / a) / math.log(n / prev["n"]) if a and b else float("nan")
                for key in ("transitions", "field_ops", "created", "seconds"):
                    row[f"k_{key}"] = k(key)
                ks = f"{row['k_transitions']:9.2f} {row['k_field_ops']:7.2f} {row['k_created']:8.2f} {row['k_seconds']:8.2f}"
            rows.append(row)
            print(
                f"{n:>6} {row['initial_size']:>7} {row['transitions']:>12} {row['field_ops']:>10} {row['created']:>9} "
                f"{row['seconds']:>9.4f} {row['per_second']:>9.0f} {ks}"
            )
            prev = row
        results[name] = rows
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
