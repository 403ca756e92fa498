"""The works a `goi props` campaign's shards run, and the requests its two kinds plan
(properties/campaign.py declares the kinds; `goi.properties.campaign.PropsWork` and the others
are these, reached through it). A module of its own, named private: the collector of
declarations (goi/declarations.py) does not import it, so the property scan that every
`goi props` makes does not create these dataclasses (issue 53, item 1).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Optional

if TYPE_CHECKING:
    from goi.campaigns.runner import Shard


# ---- the exhaustive property campaign --------------------------------------------------------

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
        from .sharing import sharing

        enumeration = Enumeration(Space(**self.space))
        cfg = config(self.profile)
        held = {name: 0 for name in self.names}
        undecided = {name: 0 for name in self.names}
        checks = {name: prop.check for name, prop in registry().items()}
        failures = []
        started = time.perf_counter()
        # a shard reports counts, not the rules' coverage; the properties share a program's runs
        with discarding(), sharing() as shared:
            for index, term in zip(range(shard.start, shard.stop), enumeration.programs(shard.size, shard.start, shard.stop)):
                if self.shapes:
                    term = assigned(term, "generic")
                shared.begin(term)
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
        from goi.campaigns.checkpoint import counts_of, list_of_objects, need, programs_of_range, whole

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
        from goi.campaigns.checkpoint import need, whole

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


# ---- the requests the kinds plan (properties/campaign.py) -------------------------------------

@dataclass(frozen=True)
class ExhaustiveRequest:
    """`goi props --exhaustive N` (or `--index SIZE:I`): which properties, on what."""

    names: tuple  # properties that take a program alone (exhaustive_properties)
    profile: str
    bound: Optional[int] = None  # every program of size ≤ bound …
    index: Optional[tuple] = None  # … or only this (size, index)
    order: int = 1  # the argument types' order (generators/enumerate.py)
    concrete: bool = False  # programs over the fixed constants instead of shapes


@dataclass(frozen=True)
class RandomRequest:
    """`goi props --shards K` (or `--cluster`): the random suite divided by seeds."""

    names: tuple
    profile: str
    examples: int  # in all, shared among the shards
    shards: int
    seed: int = 0  # the first shard's; the others count up from it
