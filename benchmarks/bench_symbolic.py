"""What the symbolic field and z3 cost (issue 11): never asserted, ratios and rates only.

1. symbolic run vs exact run on the benchmark families (best of --repeat), with the DAG's
   node count and the time to convert it to z3; against a field that builds z3 terms
   directly during the run (z3 hash-conses its terms itself): which sharing is cheaper.
2. z3 time per query and equivalence decisions per second on generated pairs (a program
   against a re-associated copy of (t + u) + t, as the `equivalence` property does).

    python benchmarks/bench_symbolic.py [--repeat 3] [--pairs 200]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import z3  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402

import goi  # noqa: E402
from bench_machine import deep_decoupling, iterated  # noqa: E402
from goi.generators.typed import programs  # noqa: E402
from goi.equivalence.programs import program_equivalence  # noqa: E402
from goi.equivalence.solver import Converter  # noqa: E402
from goi.properties.symbolic_agreement import reassociate  # noqa: E402
from goi.semantics import syntax as S  # noqa: E402
from goi.semantics.symbolic import SymbolicField  # noqa: E402


def let_chain_provisional(n: int) -> str:
    """n lets, each using the previous one twice, from a provisional constant: a value
    whose tree has 2^n leaves and whose DAG has n nodes."""
    lines = ["let x0 = {1} in"] + [f"let x{i} = x{i-1} + x{i-1} in" for i in range(1, n)] + [f"x{n-1}"]
    return "\n".join(lines)


def power(n: int) -> str:
    """{2} multiplied in n times: let m x = x * {2} in m (m (… (m 1)))."""
    return "let m x = x * {2} in " + "m (" * n + "1" + ")" * n


CASES = [(f"let chain (prov.) {n}", let_chain_provisional(n)) for n in (4, 8, 12)]
CASES += [(f"deep decoupling {n}", deep_decoupling(n)) for n in (4, 8, 16)]
CASES += [(f"iterated {n}", iterated(n)) for n in (4, 8, 16)]
CASES += [(f"power {n}", power(n)) for n in (8, 16, 32)]


class Z3Field:
    """Builds z3 terms directly (the alternative to the DAG): same interface."""

    name = "z3"
    division = "total"

    def __init__(self):
        self.ctx = z3.Context()
        self._zero = z3.RealVal(0, self.ctx)

    def inputs(self, n):
        return [z3.Real(f"q{i}", self.ctx) for i in range(n)]

    def const(self, value):
        if isinstance(value, z3.ExprRef):
            return value
        return z3.RealVal(f"{value.numerator}/{value.denominator}", self.ctx)

    def zero(self):
        return self._zero

    def one(self):
        return z3.RealVal(1, self.ctx)

    def add(self, x, y):
        return x + y

    def sub(self, x, y):
        return x - y

    def mul(self, x, y):
        return x * y

    def div(self, x, y):
        return z3.If(y == self._zero, self._zero, x / y)

    def show(self, x):
        return "…"


def best(fn, repeat: int):
    times, out = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - start)
    return min(times), out


def runs(repeat: int) -> None:
    print(f"{'program':<24}{'steps':>7}{'exact ms':>10}{'symbolic':>10}{'DAG nodes':>10}{'to z3 ms':>10}{'z3 field':>10}")
    for name, text in CASES:
        j = goi.check(text)
        exact, r = best(lambda: goi.run(j, max_steps=10_000_000), repeat)

        def symbolic():
            field = SymbolicField()
            execution = goi.prepare(j, field=field)
            return field, execution.machine.run(10_000_000)

        sym, (field, outcome) = best(symbolic, repeat)
        assert outcome.status == "final", outcome.reason

        def convert():
            ctx = z3.Context()
            converter = Converter([z3.Real(f"q{i}", ctx) for i in range(len(j.params))], ctx)
            values = outcome.value if isinstance(outcome.value, tuple) else (outcome.value,)
            return [converter(v) for v in values]

        to_z3, _ = best(convert, repeat)
        direct, _ = best(lambda: goi.prepare(j, field=Z3Field()).machine.run(10_000_000), repeat)
        print(f"{name:<24}{r.transitions:>7}{exact * 1e3:>10.1f}{sym / exact:>9.2f}x{field.nodes:>10}{to_z3 * 1e3:>10.2f}"
              f"{direct / exact:>9.2f}x", flush=True)


def queries(count: int) -> None:
    solver_times, totals, verdicts = [], [], {}

    @settings(max_examples=count, database=None, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck))
    @given(programs(max_depth=5), programs(max_depth=5))
    def decide(t, u):
        left = S.BinOp("+", S.BinOp("+", t, u), t)
        start = time.perf_counter()
        v = program_equivalence(left, reassociate(left))
        totals.append(time.perf_counter() - start)
        solver_times.append(v.solver_seconds)
        verdicts[v.verdict] = verdicts.get(v.verdict, 0) + 1

    decide()
    q = statistics.quantiles(solver_times, n=10)
    print(f"\n{len(totals)} decisions on generated pairs: {len(totals) / sum(totals):.1f} per second; verdicts {verdicts}")
    print(f"z3 seconds per decision: median {statistics.median(solver_times) * 1e3:.2f} ms, 90th percentile "
          f"{q[-1] * 1e3:.2f} ms, max {max(solver_times) * 1e3:.2f} ms; z3's share of the time "
          f"{sum(solver_times) / sum(totals):.0%}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--pairs", type=int, default=200)
    args = ap.parse_args()
    runs(args.repeat)
    queries(args.pairs)


if __name__ == "__main__":
    main()
