"""The command line's argument types and shared arguments: argparse raising UsageError
(reported as JSON under --json), whole numbers, exact rationals, check names, seconds."""

from __future__ import annotations

import argparse
from fractions import Fraction
from typing import NoReturn

from ..files import MAX_INPUT_BYTES  # noqa: F401  (the one default, goi/files.py; the commands import it from here)
from .errors import UsageError


class ArgumentParser(argparse.ArgumentParser):
    """argparse, but a usage error is raised (and reported by main, as JSON under --json)
    instead of printed and exited from deep inside the parser; an option is spelt in full
    (`--max-step 5` is an error, not silently `--max-steps 5`: an abbreviation that later
    becomes ambiguous, or names another option, would change what a script asks for)."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        if message.startswith("unrecognized arguments:"):
            message += self._suggestions(message.partition(":")[2].split())
        raise UsageError(message, prog=self.prog, usage=self.format_usage())

    def _suggestions(self, unknown: list) -> str:
        """' (did you mean --max-steps?)' for an option spelt short or nearly right, from
        this parser's options and its commands'."""
        import difflib

        known = set(self._option_string_actions)
        for action in self._actions:
            for sub in (getattr(action, "choices", None) or {}).values() if isinstance(action, argparse._SubParsersAction) else ():
                known.update(sub._option_string_actions)
        hints = []
        for word in unknown:
            if not word.startswith("--"):
                continue
            name = word.partition("=")[0]
            close = sorted(k for k in known if k.startswith(name)) or difflib.get_close_matches(name, sorted(known), 2)
            if close:
                hints.append(f"{name}: did you mean {' or '.join(close[:3])}?")
        return f" ({'; '.join(hints)})" if hints else ""


def non_negative_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value} is negative")
    return value


def positive_int(text: str) -> int:
    value = non_negative_int(text)
    if value == 0:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def integer(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None


def rationals(text: str) -> list[Fraction]:
    """--params: exact rationals separated by commas (3, -0.5, 1/3)."""
    import re

    values = []
    for item in text.split(","):
        item = item.strip()
        # the program's own literals, signed, or a ratio: no exponents (1e5), no digit groups (1_000)
        if not re.fullmatch(r"-?[0-9]+(\.[0-9]+)?(/[0-9]+)?", item):
            raise argparse.ArgumentTypeError(f"{item!r} is not an exact rational (write 3, -0.5 or 1/3)")
        try:
            values.append(Fraction(item))
        except (ValueError, ZeroDivisionError):
            raise argparse.ArgumentTypeError(f"{item!r} is not an exact rational (write 3, -0.5 or 1/3)") from None
    return values


def check_names(text: str) -> list[str]:
    from ..semantics.checks import registry

    names = [c.strip() for c in text.split(",") if c.strip()]
    known = list(registry())
    unknown = [n for n in names if n != "all" and n not in known]
    if unknown or not names:
        raise argparse.ArgumentTypeError(f"unknown check(s) {', '.join(unknown) or '(none given)'}; known: {', '.join(known)}, all")
    return names


def positive_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError("must be a positive number of seconds")
    return value


def add_program_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", nargs="?", metavar="FILE", help="program file (- for standard input)")
    add_input_limit(parser)
    parser.add_argument("-e", dest="expr", metavar="TEXT", help="program text given on the command line")
    parser.add_argument("--json", action="store_true", help="print one JSON object (UTF-8)")


def add_input_limit(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--max-input-bytes", type=positive_int, default=MAX_INPUT_BYTES, metavar="N",
                        help=f"read at most N bytes of program (default {MAX_INPUT_BYTES}); more is a budget error")


def properties_to_run(names) -> list[str]:
    """`goi props` / `goi report`: the properties named (all by default), after the profiles
    are registered — a malformed GOI_HYPOTHESIS_REDIS or an unknown name is a usage error,
    said before anything runs."""
    from ..properties.profiles import UnknownProfile, register
    from ..properties.registry import UnknownProperty
    from ..properties.suite import select

    try:
        register()
        return select(names)
    except (UnknownProfile, UnknownProperty) as exc:
        raise UsageError(str(exc)) from None


def add_machine_options(p) -> None:
    """The options of a run of the machine, shared by `goi run` and `goi view`."""
    from ..semantics.machine import DEFAULT_MAX_NODES
    from ..semantics.values import DEFAULT_MAX_DIGITS

    p.add_argument("--max-steps", type=non_negative_int, default=1_000_000, metavar="N", help="step budget (default 1000000)")
    p.add_argument("--max-nodes", type=positive_int, default=DEFAULT_MAX_NODES, metavar="N",
                   help=f"graph budget: at most N nodes, an n-vector counting n (default {DEFAULT_MAX_NODES})")
    p.add_argument("--max-digits", type=positive_int, default=DEFAULT_MAX_DIGITS, metavar="N",
                   help=f"number budget: no number of more than N digits (default {DEFAULT_MAX_DIGITS})")
    p.add_argument("--params", type=rationals, metavar="V1,V2,...", help="values replacing the provisional constants, in order")
    p.add_argument("--strategy", choices=["first", "random"], default="first", help="order of ?-rewrites")
    p.add_argument("--seed", type=integer, default=0, help="seed of --strategy random")
    p.add_argument("--division", choices=["total", "strict"], default="total", help="x/0 = 0, or stop as undefined")
    p.add_argument("--check", type=check_names, metavar="LIST", help="invariants to check after every transition: "
                   "names of docs/INVARIANTS.md, comma-separated, or all (a wrong name lists them; the checks are "
                   "loaded only when asked for)")
    p.add_argument("--check-mode", choices=["exhaustive", "sampled", "full"], default="exhaustive",
                   help="whole-graph checks after every rewrite, incrementally (exhaustive), on a sampling schedule "
                   "(sampled), or recomputed on the whole graph, the reference (full); docs/INVARIANTS.md")
    p.add_argument("--gc", action="store_true", help="collect garbage between transitions (docs/RULES.md)")


def machine_options(args, judgement) -> dict:
    """The options of goi.execution.Execution from those arguments, checked against the program."""
    if args.seed != 0 and args.strategy != "random":
        raise UsageError("--seed seeds --strategy random; with --strategy first it would change nothing")
    if args.params is not None and len(args.params) != len(judgement.params):
        raise UsageError(f"--params gives {len(args.params)} values, but the program has {len(judgement.params)} provisional constants")
    return dict(params=args.params, division=args.division, strategy=args.strategy, seed=args.seed,
                checks=args.check or (), check_mode=args.check_mode, gc=args.gc, max_nodes=args.max_nodes,
                max_digits=args.max_digits)


def add_campaign_arguments(p, shards: str) -> None:
    """--cluster, --checkpoint and --resume, as every command that campaigns takes them
    (docs/CAMPAIGNS.md); `shards` says what a shard is for this command."""
    p.add_argument("--cluster", metavar="local|ADDRESS",
                   help=f"run the shards ({shards}) on Dask: a LocalCluster, or a scheduler's address (tcp://HOST:8786)")
    p.add_argument("--checkpoint", metavar="FILE", help="record each finished shard in FILE (JSON lines)")
    p.add_argument("--resume", action="store_true", help="with --checkpoint: skip the shards FILE has")
    p.add_argument("--cluster-wait", type=positive_seconds, default=30.0, metavar="S",
                   help="with --cluster ADDRESS: seconds to reach the scheduler, and for a worker to join (default 30)")
    p.add_argument("--max-campaign", type=positive_int, default=None, metavar="N",
                   help="refuse a campaign of more than N programs before it starts (default 100000000)")


def campaign_options(args, campaigning: bool, campaigns: str):
    """The campaign options (add_campaign_arguments) as one value (goi.campaigns.kinds.Options),
    checked in one place for every command that takes them: with each other, and — when this
    run is no campaign (`campaigning` false) — refused, naming what makes one (`campaigns`)."""
    from ..campaigns.kinds import CampaignUsage, Options

    if not campaigning:
        for option, value in (("--cluster", args.cluster), ("--checkpoint", args.checkpoint),
                              ("--resume", args.resume), ("--max-campaign", args.max_campaign)):
            if value:
                what = "bounds a campaign" if option == "--max-campaign" else "is for campaigns"
                raise UsageError(f"{option} {what} ({campaigns})")
    try:
        return Options.bounded(args.max_campaign, cluster=args.cluster, checkpoint=args.checkpoint,
                               resume=args.resume, wait=args.cluster_wait)
    except CampaignUsage as exc:
        raise UsageError(str(exc)) from None


def campaign_warn(line: str) -> None:
    """A campaign's plan and its checkpoint's warnings: standard error, never the output."""
    import sys

    from .io import say

    say(line, sys.stderr)
