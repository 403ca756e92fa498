"""The `goi` command: the oracle's command-line interface.

    goi parse     FILE | -e TEXT [--json]   the normalised program
    goi typecheck FILE | -e TEXT [--json]   the judgement A | Γ | p⃗ ⊢ t : T
    goi run       FILE | -e TEXT [--json] [--trace] [--max-steps N] [--dot DIR] ...
                                            run the graph machine

FILE may be `-` for standard input. Bad input never shows a traceback: it is
reported (with line and column) and the command exits with BAD_INPUT (3).
With --json exactly one JSON object is printed on standard output, on success
and on error alike. See docs/CLI.md.
"""

from __future__ import annotations

import argparse
import json
import sys
import traceback

from . import exitcodes
from .errors import GoiError, ReadError


def _read_program(args) -> tuple[str, str]:
    if args.expr is not None:
        return args.expr, "<-e>"
    if args.file is None:
        raise ReadError("no program given: name a FILE (or - for standard input), or use -e TEXT")
    if args.file == "-":
        return sys.stdin.read(), "<stdin>"
    try:
        with open(args.file, encoding="utf-8") as handle:
            return handle.read(), args.file
    except UnicodeDecodeError as exc:
        raise ReadError(f"cannot read {args.file}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except OSError as exc:
        raise ReadError(f"cannot read {args.file}: {exc.strerror}") from None


def _emit(args, payload: dict, text: str) -> None:
    if args.json:
        print(json.dumps(payload, ensure_ascii=False))
    else:
        print(text)


def cmd_parse(args, source: str) -> int:
    from .parser import parse
    from .pretty import pretty
    from .serialize import term_to_json

    term = parse(source)
    program = pretty(term)
    _emit(args, {"status": "ok", "program": program, "ast": term_to_json(term)}, program)
    return exitcodes.OK


def cmd_typecheck(args, source: str) -> int:
    from .parser import parse
    from .pretty import pretty
    from .typecheck import show_fraction, typecheck

    judgement = typecheck(parse(source), source=source)
    payload = {
        "status": "ok",
        "judgement": str(judgement),
        "program": pretty(judgement.surface),
        "type": str(judgement.type),
        "parameters": [show_fraction(p) for p in judgement.params],
        "decouplings": list(judgement.decouplings),
    }
    _emit(args, payload, str(judgement))
    return exitcodes.OK


def _parse_params(text: str):
    from fractions import Fraction

    values = []
    for item in text.split(","):
        item = item.strip()
        try:
            values.append(Fraction(item))
        except (ValueError, ZeroDivisionError):
            raise ReadError(f"--params: {item!r} is not an exact rational (write 3, -0.5 or 1/3)") from None
    return values


def show_value(x) -> object:
    """A final value as JSON: scalars as exact rational strings, vectors as lists, functions as "λ"."""
    from .token import Marker

    if isinstance(x, Marker):
        return x.symbol
    if isinstance(x, tuple):
        return [str(v) for v in x]
    return None if x is None else str(x)


def cmd_run(args, source: str) -> int:
    import os

    from .dot import to_dot
    from .machine import FirstStrategy, Machine, RandomStrategy
    from .parser import parse
    from .rules import REGISTRY
    from .translate import translate
    from .typecheck import show_fraction, typecheck
    from .values import RationalField

    judgement = typecheck(parse(source), source=source)
    params = _parse_params(args.params) if args.params is not None else None
    if params is not None and len(params) != len(judgement.params):
        raise ReadError(f"--params gives {len(params)} values, but the program has {len(judgement.params)} provisional constants")
    field_ = RationalField(args.division)
    strategy = RandomStrategy(args.seed) if args.strategy == "random" else FirstStrategy()
    machine = Machine(translate(judgement, field_, params), field_, strategy)
    collector = None
    if args.gc:
        from .gc import Collector

        collector = Collector(machine)
    monitor = None
    if args.check:
        from .checks import Monitor, make_checks

        try:
            checks = make_checks([c.strip() for c in args.check.split(",") if c.strip()], check_mode=args.check_mode)
        except ValueError as exc:
            raise ReadError(f"--check: {exc}") from None
        monitor = Monitor(machine, checks)

    if args.dot:
        os.makedirs(args.dot, exist_ok=True)

        def dump(name: str, title: str) -> None:
            with open(os.path.join(args.dot, name), "w", encoding="utf-8") as handle:
                handle.write(to_dot(machine.graph, machine, title))

        dump("000-initial.dot", "initial graph")

        def before(m, rule_id, redex):
            if rule_id == "deep.decouple":
                dump(f"{m.steps + 1:06d}-before-decouple.dot", f"before decoupling (step {m.steps + 1})")

        def after(m, rule_id, redex):
            if rule_id == "deep.decouple":
                dump(f"{m.steps:06d}-after-decouple.dot", f"after decoupling (step {m.steps})")

        machine.before.append(before)
        machine.after.append(after)

    steps = []
    trace = None
    if args.trace:
        if args.json:
            trace = steps.append
        else:
            def trace(step):
                print(
                    f"{step.number:>7} {step.rule:<20} ℓ{step.position:<5} {step.position_type:<14} "
                    f"{step.direction} {step.flag:<6} S={step.stack}  B={step.box_stack}"
                )

    outcome = monitor.run(args.max_steps, trace) if monitor else machine.run(args.max_steps, trace)
    if args.dot:
        if outcome.status == "violation":
            dump(f"{machine.steps:06d}-violation.dot", f"invariant violated at step {machine.steps}")
        dump("999999-final.dot", f"{outcome.status} graph")
    parameters = [show_fraction(p) for p in (params if params is not None else judgement.params)]
    if args.json:
        payload = {
            "status": outcome.status,
            "value": show_value(outcome.value) if outcome.status == "final" else None,
            "type": str(judgement.type),
            "parameters": parameters,
            "transitions": {"total": outcome.steps, "pass": outcome.passes, "rewrite": outcome.rewrites},
            "rules": {r: outcome.counts.get(r, 0) for r in sorted(REGISTRY) if REGISTRY[r].kind != "gc"},
            "reason": outcome.reason or None,
            "strategy": strategy.name if args.strategy != "random" else f"random:{args.seed}",
            "division": args.division,
        }
        if collector is not None:
            payload["gc"] = {r: collector.counts.get(r, 0) for r in sorted(REGISTRY) if REGISTRY[r].kind == "gc"}
        if monitor is not None:
            payload["checks"] = {
                "run": [c.name for c in monitor.checks],
                "mode": args.check_mode,
                "seconds": {c.name: round(monitor.seconds.get(c.name, 0.0), 6) for c in monitor.checks},
            }
            payload["violation"] = monitor.violation.to_json() if monitor.violation else None
        if args.trace:
            payload["trace"] = [step.__dict__ for step in steps]
        print(json.dumps(payload, ensure_ascii=False))
    else:
        if outcome.status == "final":
            print(f"value: {show_value(outcome.value)}")
        else:
            print(f"{outcome.status}: {outcome.reason}")
        print(f"type: {judgement.type}")
        print(f"parameters: {', '.join(parameters) or '-'}")
        print(f"transitions: {outcome.steps} (pass {outcome.passes}, rewrite {outcome.rewrites})")
        if collector is not None:
            print(f"garbage collected: {sum(collector.counts.values())} ({', '.join(f'{r} {n}' for r, n in sorted(collector.counts.items())) or 'none'})")
        if monitor is not None and outcome.status != "violation":
            print(f"checks passed ({args.check_mode}): {', '.join(c.name for c in monitor.checks)}")
        if args.rules:
            for rule_id in sorted(outcome.counts):
                print(f"  {rule_id:<22} {outcome.counts[rule_id]}")
    return exitcodes.FOR_STATUS[outcome.status]


def _split_test(config):
    import properties

    def test(case):
        properties.split_contractions(case[0], case[2], config)

    return test


def _property_test(prop, config):
    def test(term):
        prop(term, config)

    return test


def cmd_props(args, _source) -> int:
    """Run the properties of properties/ on generated programs, with rule coverage."""
    import time

    from hypothesis import HealthCheck, given, settings

    import properties
    from generators.graphs import split_graphs
    from generators.typed import programs
    from properties import coverage
    from properties.profiles import CONFIGS, register

    register()
    config = CONFIGS[args.profile]
    examples = args.examples or config.examples
    names = args.names or [*properties.PROPERTIES, "contractions"]
    unknown = [n for n in names if n not in properties.PROPERTIES and n != "contractions"]
    if unknown:
        raise ReadError(f"unknown properties {unknown}; known: {', '.join([*properties.PROPERTIES, 'contractions'])}")
    coverage.reset()
    results = {}
    worst = exitcodes.OK
    for name in names:
        opts = settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck), derandomize=args.seed is not None, print_blob=True)
        if name == "contractions":
            test = given(split_graphs(max_depth=config.max_depth))(_split_test(config))
        else:
            test = given(programs(max_depth=config.max_depth))(_property_test(properties.PROPERTIES[name], config))
        start = time.perf_counter()
        runs_before = coverage.RUN_COUNT[0]
        try:
            opts(test)()
            status, detail = "passed", None
        except properties.BudgetFinding as exc:
            status, detail = "budget", str(exc)
            worst = max(worst, exitcodes.BUDGET)
        except properties.Finding as exc:
            status, detail = "failed", str(exc)
            worst = exitcodes.STUCK
        seconds = time.perf_counter() - start
        runs = coverage.RUN_COUNT[0] - runs_before
        results[name] = {"status": status, "runs": runs, "seconds": round(seconds, 3), "runs_per_second": round(runs / seconds, 1) if seconds else None, "finding": detail}
        if not args.json:
            print(f"{name:<14} {status:<7} {runs:>6} runs  {seconds:7.2f}s  {runs / seconds if seconds else 0:8.1f} runs/s")
            if detail:
                print("  " + detail.replace("\n", "\n  "))
    summary = coverage.summary()
    if args.json:
        print(json.dumps({"profile": args.profile, "examples": examples, "properties": results, "coverage": summary}, ensure_ascii=False))
    else:
        print(f"coverage: {summary['runs']} runs; never fired: {', '.join(summary['never_fired']) or 'none'}")
        for feature, data in summary["features"].items():
            print(f"  {feature:<20} {data['share'] * 100:5.1f}% of runs")
    return worst


def _add_program_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", nargs="?", metavar="FILE", help="program file (- for standard input)")
    parser.add_argument("-e", dest="expr", metavar="TEXT", help="program text given on the command line")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="goi",
        description="Reference oracle for the abductive calculus (see docs/CLI.md).",
        epilog="exit codes: 0 ok/final, 2 usage error, 3 bad input, 4 stuck or invariant failure, 5 step budget, "
        "6 undefined (division by zero, strict), 70 internal error",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    p_parse = sub.add_parser("parse", help="parse a program and print it normalised")
    _add_program_arguments(p_parse)
    p_parse.set_defaults(run=cmd_parse)
    p_type = sub.add_parser("typecheck", help="type-check a program and print its judgement")
    _add_program_arguments(p_type)
    p_type.set_defaults(run=cmd_typecheck)
    p_run = sub.add_parser("run", help="run a program on the graph machine")
    _add_program_arguments(p_run)
    p_run.add_argument("--trace", action="store_true", help="one line per transition (in the JSON with --json)")
    p_run.add_argument("--max-steps", type=int, default=1_000_000, metavar="N", help="step budget (default 1000000)")
    p_run.add_argument("--dot", metavar="DIR", help="write Graphviz files: initial graph, around each decoupling, final")
    p_run.add_argument("--rules", action="store_true", help="also print how often each rule fired")
    p_run.add_argument("--params", metavar="V1,V2,...", help="values replacing the provisional constants, in order")
    p_run.add_argument("--strategy", choices=["first", "random"], default="first", help="order of ?-rewrites")
    p_run.add_argument("--seed", type=int, default=0, help="seed of --strategy random")
    p_run.add_argument("--division", choices=["total", "strict"], default="total", help="x/0 = 0, or stop as undefined")
    p_run.add_argument("--check", metavar="LIST", help="invariants to check after every transition: "
                       "form,names,graph,validity,stability,determinism,alpha,productivity,dataflow,gc or all")
    p_run.add_argument("--check-mode", choices=["exhaustive", "sampled"], default="exhaustive",
                       help="whole-graph checks after every graph change, or on a sampling schedule (docs/INVARIANTS.md)")
    p_run.add_argument("--gc", action="store_true", help="collect garbage between transitions (docs/RULES.md)")
    p_run.set_defaults(run=cmd_run)
    p_props = sub.add_parser("props", help="check the paper's theorems on generated programs (Hypothesis)")
    p_props.add_argument("names", nargs="*", metavar="PROPERTY", help="soundness invariants determinism gc agreement parameters contractions (default: all)")
    p_props.add_argument("--profile", choices=["ci", "dev", "deep"], default="dev", help="size of terms and thoroughness of checks")
    p_props.add_argument("--examples", type=int, help="examples per property (default: the profile's)")
    p_props.add_argument("--seed", type=int, help="derandomise (a fixed, reproducible set of examples)")
    p_props.add_argument("--json", action="store_true", help="print one JSON object")
    p_props.set_defaults(run=cmd_props, takes_program=False)
    return parser


def main(argv: list[str] | None = None) -> int:
    # The front end recurses over the term; deep programs (long operator chains)
    # need more than Python's default 1000 frames. Beyond this, a clear error.
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))
    args = build_parser().parse_args(argv)
    if getattr(args, "expr", None) is not None and getattr(args, "file", None) is not None:
        build_parser().error("give either FILE or -e TEXT, not both")
    takes_program = getattr(args, "takes_program", True)
    source, name = None, ("<-e>" if getattr(args, "expr", None) is not None else (getattr(args, "file", None) or f"goi {args.command}"))
    try:
        if takes_program:
            source, name = _read_program(args)
        return args.run(args, source)
    except GoiError as exc:
        if args.json:
            print(json.dumps({"status": "error", "error": exc.to_json()}, ensure_ascii=False))
        else:
            print(exc.render(source, name), file=sys.stderr)
        return exitcodes.BAD_INPUT
    except RecursionError:
        message = "the program is nested too deeply for this implementation"
        if args.json:
            print(json.dumps({"status": "error", "error": {"kind": "limit", "message": message, "line": None, "column": None}}))
        else:
            print(f"goi: {message}", file=sys.stderr)
        return exitcodes.BAD_INPUT
    except Exception as exc:  # a bug in goi, not bad input: say so, keep the evidence
        if args.json:
            print(json.dumps({"status": "error", "error": {"kind": "internal", "message": repr(exc), "line": None, "column": None}}))
        print("goi: internal error (a bug in goi; please report it with the input):", file=sys.stderr)
        traceback.print_exc()
        return exitcodes.INTERNAL


if __name__ == "__main__":
    sys.exit(main())
