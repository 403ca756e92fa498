"""`goi run FILE | -e TEXT [--json] [--trace] [--max-steps N] [--dot DIR] …`: run a program
on the graph machine."""

from __future__ import annotations

from .. import exitcodes
from ..arguments import add_machine_options, machine_options, positive_int
from ..errors import UsageError
from ..io import JsonTraceWriter, say, schema, writable_directory, write_json
from . import command


def add_arguments(p) -> None:
    p.add_argument("--trace", action="store_true", help="one line per transition (in the JSON with --json)")
    add_machine_options(p)
    p.add_argument("--dot", metavar="DIR", help="write Graphviz files: initial graph, around each decoupling, final")
    p.add_argument("--max-dot-bytes", type=positive_int, default=64 * 1024 * 1024, metavar="N",
                   help="--dot writes at most N bytes in all; later pictures are skipped and counted (default 64 MiB)")
    p.add_argument("--rules", action="store_true", help="also print how often each rule fired")


def _strategy(args) -> str:
    return "first" if args.strategy == "first" else f"random:{args.seed}"


def payload(result, args, checks: list[str]) -> dict:
    """The goi.run/1 object of a finished run."""
    from ...semantics.show import scalar, to_json

    data = {
        "schema": schema("run"),
        "status": result.status,
        "value": to_json(result.value),
        "type": str(result.type),
        "parameters": [scalar(p) for p in result.parameters],
        "transitions": {"total": result.transitions, "pass": result.passes, "rewrite": result.rewrites},
        "rules": result.rules,
        "reason": result.reason,
        "limit": result.limit,
        "strategy": _strategy(args),
        "division": args.division,
    }
    if result.gc is not None:
        data["gc"] = result.gc
    if args.check:
        data["checks"] = {
            "run": checks,
            "mode": args.check_mode,
            "seconds": {name: round(s, 6) for name, s in sorted(result.check_seconds.items())},
        }
        data["violation"] = result.violation.to_json() if result.violation else None
    return data


def _draw_decouplings(machine, dot) -> None:
    """--dot: a picture just before and just after each decoupling."""
    from ...semantics.rules import DECOUPLING

    def before(m, rule_id, redex):
        if m.rules[rule_id].feature == DECOUPLING:
            dot.picture(f"{m.steps + 1:06d}-before-decouple.dot", f"before decoupling (step {m.steps + 1})", m)

    def after(m, rule_id, redex):
        if m.rules[rule_id].feature == DECOUPLING:
            dot.picture(f"{m.steps:06d}-after-decouple.dot", f"after decoupling (step {m.steps})", m)

    machine.before.append(before)
    machine.after.append(after)


def run(args, source: str, out) -> int:
    from ... import api
    from ...semantics.show import scalar, step_line, to_text
    from ...semantics.stack import polled

    if args.dot == "":
        raise UsageError("--dot needs a directory (an empty name writes nowhere)")
    judgement = api.check(source, max_characters=args.max_input_bytes)
    execution = api.prepare(judgement, **machine_options(args, judgement))
    machine = execution.machine

    dot = None
    if args.dot is not None:
        from ...semantics.dot import DotFiles  # only under --dot: a run without pictures does not load it

        writable_directory("--dot", args.dot)
        dot = DotFiles(args.dot, args.max_dot_bytes)
        dot.picture("000-initial.dot", "initial graph", machine)
        _draw_decouplings(machine, dot)

    trace = None
    if args.trace and args.json:
        writer = out.stream(JsonTraceWriter())
        writer.known = {"type": str(judgement.type), "division": args.division,
                        "parameters": [scalar(p) for p in (args.params or judgement.params)], "strategy": _strategy(args)}
        writer.start()
        trace = writer.step
    elif args.trace:
        def trace(step):
            say(step_line(step))

    if out.streaming is not None:
        with polled():  # a Ctrl-C ends the streamed object between two whole steps
            result = execution.run(args.max_steps, trace)
    else:
        result = execution.run(args.max_steps, trace)
    if dot is not None:  # the last picture is named by its step and the run's outcome: 000097-final.dot, 000100-budget.dot
        title = f"invariant violated at step {machine.steps}" if result.status == "violation" else \
            f"{result.status} graph (step {machine.steps})"
        dot.picture(f"{machine.steps:06d}-{result.status}.dot", title, machine)
    if args.json:
        data = payload(result, args, [c.name for c in execution.monitor.checks] if execution.monitor else [])
        if dot is not None:
            data["dot"] = dot.to_json()
        if out.streaming is not None:
            out.streaming.finish(data)
        else:
            write_json(data)
    else:
        say(f"value: {to_text(result.value)}" if result.status == "final" else f"{result.status}: {result.reason}")
        say(f"type: {result.type}")
        say(f"parameters: {', '.join(scalar(p) for p in result.parameters) or '-'}")
        say(f"transitions: {result.transitions} (pass {result.passes}, rewrite {result.rewrites})")
        if result.gc is not None:
            fired = {r: n for r, n in result.gc.items() if n}
            say(f"garbage collected: {sum(fired.values())} ({', '.join(f'{r} {n}' for r, n in sorted(fired.items())) or 'none'})")
        if execution.monitor is not None and result.status != "violation":
            told = "no violation before the budget" if result.status == "budget" else "checks passed"  # undecided, not passed
            say(f"{told} ({args.check_mode}): {', '.join(c.name for c in execution.monitor.checks)}")
        if dot is not None:
            skipped = f", {dot.skipped} skipped (--max-dot-bytes {args.max_dot_bytes})" if dot.skipped else ""
            say(f"dot: {dot.written} files in {args.dot}{skipped}")
        if args.rules:
            for rule_id, count in sorted(result.rules.items()):
                if count:
                    say(f"  {rule_id:<22} {count}")
    return exitcodes.FOR_STATUS[result.status]


COMMAND = command("run", order=30, help="run a program on the graph machine", takes_program=True,
                  add_arguments=add_arguments, run=run)
