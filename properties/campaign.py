"""The properties' campaigns (docs/CAMPAIGNS.md): the works the campaign runner
(goi/campaigns/runner.py) runs shard by shard — every exhaustive property on every program of a
size range (`goi props --exhaustive N`), the suite from a seed (`goi props --cluster`) — and
how their results merge. The conjectures' campaign is goi/laws/campaign.py's.
"""

from __future__ import annotations

import inspect
import time
from dataclasses import dataclass
from typing import Iterable, Optional

from goi.campaigns.checkpoint import counts_of, list_of_objects, need, programs_of_range, whole
from goi.campaigns.runner import Shard, seed_shards, space_fields  # noqa: F401 (the works' shards)


# ---- the exhaustive property campaign --------------------------------------------------------

ANY_CONSTANTS = "any rational constants (total division)"
GENERIC_CONSTANTS = "the generic constants of generators/shapes.py"


def covers(prop, shapes: bool) -> str:
    """For which constants an exhaustive verdict of the property `prop` (a registry.Property)
    holds: over shapes, any rational constants where its verdict reads no value (its own
    `values`, or its checks' — docs/INVARIANTS.md "Values"), else the generic constants the
    shapes ran at; over concrete programs, the constants listed."""
    if not shapes:
        return "the constants listed"
    if prop.values == "independent":
        return ANY_CONSTANTS
    if not prop.checks:
        return GENERIC_CONSTANTS
    from goi.semantics.checks import default_checks
    from goi.semantics.checks.base import value_independent

    table = default_checks()
    free = [c for c in prop.checks if value_independent(table[c])]
    bound = [c for c in prop.checks if c not in free]
    if not bound:
        return ANY_CONSTANTS
    if not free:
        return GENERIC_CONSTANTS
    return f"any rational constants for {', '.join(free)} (total division), {GENERIC_CONSTANTS} for {', '.join(bound)} (they compare values)"


def exhaustive_properties(names: Optional[Iterable[str]] = None) -> list[str]:
    """The properties an exhaustive run can check: those whose check takes a program (and the
    configuration) alone, every other argument defaulted."""
    from .suite import registry

    out = []
    for name, prop in registry().items():
        if names is not None and name not in names:
            continue
        params = list(inspect.signature(prop.check).parameters.values())[2:]
        if all(p.default is not inspect.Parameter.empty for p in params):
            out.append(name)
    return out


@dataclass(frozen=True)
class PropsWork:
    """One shard of `goi props --exhaustive`: the properties on each program of the range."""

    names: tuple
    profile: str
    space: dict  # generators.enumerate.Space's fields
    shapes: bool = False  # the space's programs are shapes: each runs at the generic values (generators/shapes.py)

    def __call__(self, shard: Shard) -> dict:
        from goi.generators.enumerate import Enumeration, Space
        from goi.generators.shapes import assigned
        from goi.semantics.pretty import pretty

        from .coverage import discarding
        from .profiles import config
        from .suite import registry
        from .runner import BudgetFinding, Finding

        enumeration = Enumeration(Space(**self.space))
        cfg = config(self.profile)
        held = {name: 0 for name in self.names}
        undecided = {name: 0 for name in self.names}
        checks = {name: prop.check for name, prop in registry().items()}
        failures = []
        started = time.perf_counter()
        with discarding():  # a shard reports counts, not the rules' coverage
            for index, term in zip(range(shard.start, shard.stop), enumeration.programs(shard.size, shard.start, shard.stop)):
                if self.shapes:
                    term = assigned(term, "generic")
                for name in self.names:
                    try:
                        checks[name](term, cfg)
                    except BudgetFinding:
                        undecided[name] += 1
                    except Finding as finding:
                        failures.append({"property": name, "size": shard.size, "index": index, "program": pretty(term),
                                         "message": finding.message})
                    else:
                        held[name] += 1
        return {"programs": shard.stop - shard.start, "held": held, "undecided": undecided, "failures": failures,
                "seconds": round(time.perf_counter() - started, 3)}

    def check_result(self, shard: Shard, result: dict) -> None:
        """A recorded result this shard could have given (goi/campaigns/checkpoint.py): one count
        per program and property, each failure a program of the shard's range."""
        programs = programs_of_range(shard, result)
        held, undecided = counts_of(result, "held", self.names), counts_of(result, "undecided", self.names)
        failures = list_of_objects(result, "failures")
        for f in failures:
            need(f.get("property") in self.names and f.get("size") == shard.size and whole(f.get("index"))
                 and shard.start <= f["index"] < shard.stop and isinstance(f.get("program"), str)
                 and isinstance(f.get("message"), str), f"shard {shard.key}: a failure that is not one of its programs")
        for n in self.names:
            failed = sum(f["property"] == n for f in failures)
            need(held[n] + undecided[n] + failed == programs,
                 f"shard {shard.key}: {n} held {held[n]}, undecided {undecided[n]}, failed {failed}: not its {programs} programs")


# ---- random campaigns: seed ranges --------------------------------------------------------

RANDOM_STATUSES = ("passed", "failed", "budget", "interrupted", "fixed")


@dataclass(frozen=True)
class RandomPropsWork:
    """One shard of a random `goi props` campaign: the suite from the shard's seed, its
    failures reported as found, not shrunk (the campaign shrinks each distinct one once)."""

    names: tuple
    profile: str
    examples: Optional[int]

    def __call__(self, shard: Shard) -> dict:
        from . import driver

        results, _ = driver.run_suite(list(self.names), self.profile, self.examples, shard.start, shrink=False)
        return {"programs": sum(r.runs for r in results), "seed": shard.start,
                "properties": {r.name: r.to_json() for r in results}}

    def check_result(self, shard: Shard, result: dict) -> None:
        need(result.get("seed") == shard.start, f"shard {shard.key}: the record's seed is not the shard's")
        properties = result.get("properties")
        need(isinstance(properties, dict) and set(properties) == set(self.names),
             f"shard {shard.key}: not one result per property of this campaign")
        for name, p in properties.items():
            need(isinstance(p, dict) and p.get("status") in RANDOM_STATUSES and whole(p.get("runs"))
                 and isinstance(p.get("seconds"), (int, float)) and p["seconds"] >= 0
                 and all(p.get(k) is None or isinstance(p.get(k), str) for k in ("finding", "program", "replay")),
                 f"shard {shard.key}: the result of {name} is not one goi writes")
        need(result["programs"] == sum(p["runs"] for p in properties.values()),
             f"shard {shard.key}: its programs are not the sum of its runs")


def distinct_failures(results: Iterable[dict]) -> list[dict]:
    """The failures of a random campaign's shards, one per property and folded message
    (goi/folding.py: the same bug found from two seeds is one), the lowest seed's."""
    from goi.folding import fold

    seen: dict = {}
    for r in sorted(results, key=lambda r: r["seed"]):
        for name, p in r["properties"].items():
            if p["status"] not in ("failed", "budget"):
                continue
            key = (name, p["status"], fold((p.get("finding") or "").split("\n  program:")[0]))
            seen.setdefault(key, {"property": name, "status": p["status"], "seed": r["seed"],
                                  "finding": p.get("finding"), "program": p.get("program"), "count": 0})
            seen[key]["count"] += 1
    return list(seen.values())


def merge(results: Iterable[dict], names: Iterable[str]) -> dict:
    """The shards' results as one: programs, per property held/undecided/failed, and every
    failure in size-and-index order (the first is the smallest counterexample)."""
    names = list(names)
    merged = {"programs": 0, "held": {n: 0 for n in names}, "undecided": {n: 0 for n in names}, "failures": [],
              "seconds": 0.0}
    for r in results:
        merged["programs"] += r["programs"]
        merged["seconds"] += r.get("seconds", 0.0)
        for n in names:
            merged["held"][n] += r["held"].get(n, 0)
            merged["undecided"][n] += r["undecided"].get(n, 0)
        merged["failures"] += r["failures"]
    merged["failures"].sort(key=lambda f: (f["size"], f["index"], names.index(f["property"])))
    merged["seconds"] = round(merged["seconds"], 3)
    return merged
