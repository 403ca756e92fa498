"""The properties' campaigns (docs/CAMPAIGNS.md): the works the campaign runner
(goi/campaigns/runner.py) runs shard by shard — every exhaustive property on every program of a
size range (`goi props --exhaustive N`), the suite from a seed (`goi props --cluster`) — and
the two campaign kinds that plan them and merge their results (`goi.properties:exhaustive`,
`goi.properties:random`; goi/campaigns/kinds.py). The works and the kinds' requests are
written in properties/_shards.py and reached through this module (`PropsWork`,
`RandomPropsWork`, `ExhaustiveRequest`, `RandomRequest`). The conjectures' kind is
goi/laws/campaign.py's.
"""

from __future__ import annotations

import inspect
import math
from dataclasses import asdict
from typing import TYPE_CHECKING, Iterable, Optional

from goi.campaigns.kinds import Plan
from goi.campaigns.kinds import declare as declare_kind

if TYPE_CHECKING:
    from ._shards import ExhaustiveRequest, RandomRequest

# The runner and the checkpoint's readers are imported where a campaign plans or checks a
# shard, and the shards' works and the requests (properties/_shards.py, which the property
# scan does not import) where a campaign is asked for: `goi props` imports this module with
# every property module (the property scan), and most of its runs are no campaign (the four
# frozen dataclasses were 1.7 % of `goi props soundness --examples 1`'s instructions).
_SHARDS = ("PropsWork", "RandomPropsWork", "ExhaustiveRequest", "RandomRequest", "RANDOM_STATUSES")


def __getattr__(name: str):
    if name in _SHARDS:
        from . import _shards

        return getattr(_shards, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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


# ---- random campaigns: seed ranges --------------------------------------------------------

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


# ---- the kinds: what `goi props` runs as a campaign (goi/campaigns/kinds.py) ----------------

@declare_kind("exhaustive", label="exhaustive")
class ExhaustiveProperties:
    """Every property that takes a program, on every shape (or program) of size ≤ N, or on one by index."""

    def plan(self, request: ExhaustiveRequest, options) -> Plan:
        from goi.campaigns.runner import exhaustive_counts, exhaustive_shards, index_shard, space_fields
        from goi.generators.enumerate import Enumeration, Space
        from goi.generators.shapes import shape_space

        from ._shards import PropsWork

        concrete = Space(order=request.order)
        shapes = not request.concrete
        unit = "shape" if shapes else "program"
        space = shape_space(concrete) if shapes else concrete
        enumeration = Enumeration(space)
        if request.index is not None:
            shards = [index_shard(enumeration, *request.index, unit)]
        else:
            shards = exhaustive_shards(exhaustive_counts(enumeration, request.bound, options.limit))
        bound = request.bound if request.index is None else None
        return Plan(shards, PropsWork(request.names, request.profile, asdict(space), shapes),
                    sum(s.stop - s.start for s in shards),
                    {"command": "props", "properties": list(request.names), "profile": request.profile,
                     "bound": bound, "space": space_fields(space), "shapes": shapes,
                     "shards": [s.key for s in shards] if bound is None else len(shards)},
                    timed=True, unit=unit + "s", large=True,
                    notes={"space": space, "concrete": concrete, "shapes": shapes, "bound": bound})

    def merge(self, request: ExhaustiveRequest, plan: Plan, results: list) -> dict:
        """The shards as one (merge), each property's verdict, the first counterexample and its
        replay, and for which constants the verdicts hold."""
        from .suite import registry

        names, shapes, bound = list(request.names), plan.notes["shapes"], plan.notes["bound"]
        merged = merge(results, names)
        first = merged["failures"][0] if merged["failures"] else None
        props = registry()
        return {**merged, "of": plan.programs, "bound": bound, "shapes": shapes,
                "space": plan.notes["space"].describe(shapes), "first": first,
                "replay": first and f"goi props {first['property']} --profile {request.profile} "
                                    f"--index {first['size']}:{first['index']}",
                "status": {n: ("failed" if any(f["property"] == n for f in merged["failures"]) else
                               "budget" if merged["undecided"][n] else "held") for n in names},
                "covers": {n: covers(props[n], shapes) for n in names},
                "programs_over_constants": (_programs_over_constants(plan.notes["concrete"], bound)
                                            if shapes and bound is not None else None)}


def _programs_over_constants(space, bound: int):
    """How many programs over the space's fixed constants the shapes of size ≤ bound stand
    for (None if they cannot be counted)."""
    from goi.generators.enumerate import Enumeration, TooLarge

    try:
        return Enumeration(space).count_upto(bound)
    except TooLarge:
        return None


@declare_kind("random", label="props campaign")
class RandomProperties:
    """The random suite divided into seeded shards; each distinct failure shrunk once, from the lowest seed that found it."""

    def plan(self, request: RandomRequest, options) -> Plan:
        from goi.campaigns.runner import check_division, seed_shards

        from ._shards import RandomPropsWork

        count, total = request.shards, request.examples
        check_division(count, "--shards", most=total, of=f"the {total:,} examples to share")
        per_shard = max(1, math.ceil(total / count))
        return Plan(seed_shards(request.seed, count), RandomPropsWork(request.names, request.profile, per_shard),
                    per_shard * count * len(request.names),
                    {"command": "props", "properties": list(request.names), "profile": request.profile,
                     "examples": per_shard, "seeds": [request.seed, request.seed + count]},
                    notes={"per_shard": per_shard})

    def merge(self, request: RandomRequest, plan: Plan, results: list) -> dict:
        """Each distinct failure shrunk once, here, from its seed; runs, time and verdict per property."""
        from . import driver

        per_shard = plan.notes["per_shard"]
        shrunk = [{**failure, "shrunk": driver.run_property(failure["property"], request.profile, per_shard,
                                                            failure["seed"]).to_json()}
                  for failure in distinct_failures(results)]
        properties = {}
        for name in request.names:
            mine = [f for f in shrunk if f["property"] == name]
            properties[name] = {
                "status": ("failed" if any(f["status"] == "failed" for f in mine) else "budget" if mine else "passed"),
                "runs": sum(r["properties"][name]["runs"] for r in results if name in r["properties"]),
                "seconds": round(sum(r["properties"][name]["seconds"] for r in results if name in r["properties"]), 3),
                "distinct_failures": len(mine)}
        return {"examples_per_shard": per_shard, "properties": properties, "failures": shrunk}
