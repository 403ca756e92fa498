"""The conjectures' campaign (docs/CAMPAIGNS.md): a law of the catalogue on every instance up
to a bound, a shard per law (or per part of a law's instances), for the campaign runner
(goi/campaigns/runner.py), declared as the campaign kind `goi.laws:exhaustive`
(goi/campaigns/kinds.py), whose merge gives one row per law (merge_parts)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Iterable, Optional

from goi.campaigns.checkpoint import need, whole
from goi.campaigns.kinds import Plan, declare
from goi.campaigns.runner import Shard, check_division


# ---- exhaustive conjectures: a shard per law ------------------------------------------------

@dataclass(frozen=True)
class LawWork:
    """One law of `goi conjectures --exhaustive`: every instance up to the bound."""

    bound: int
    context_size: int
    timeout: object  # each program check's budget (goi.equivalence.deadline: seconds, or Work)
    parts: int = 1  # each law's instances divided into this many shards (law_shards)

    def __call__(self, shard: Shard) -> dict:
        from .conjectures import LAWS
        from .exhaustive import decide_exhaustive

        law = shard.label.partition("#")[0]
        row = decide_exhaustive(LAWS[law], self.bound, self.context_size, self.timeout, part=(shard.start, self.parts))
        return {"programs": row.instances, "row": row.to_json()}

    def check_result(self, shard: Shard, result: dict) -> None:
        row = result.get("row")
        need(isinstance(row, dict), f"shard {shard.key}: no row")
        law = shard.label.partition("#")[0]
        need(row.get("law") == law, f"shard {shard.key}: the row is not law {law}'s")
        for k in ("instances", "proven", "unknown", "skipped"):
            need(whole(row.get(k)), f"shard {shard.key}: the row's {k} is not a whole number ≥ 0")
        need(row["instances"] == result["programs"] and row["proven"] <= row["instances"]
             and row["unknown"] <= row["instances"], f"shard {shard.key}: the row's counts do not add up")
        example = row.get("counterexample")
        need(example is None or (isinstance(example, dict)
                                 and all(isinstance(example.get(k), str) for k in ("left", "right", "verdict"))
                                 and isinstance(example.get("context") or "", str)
                                 and all(isinstance(w, str) for w in example.get("witness") or [])),
             f"shard {shard.key}: the row's counterexample is not one goi writes")
        for k in ("statement", "expected", "verdict"):
            need(isinstance(row.get(k), str), f"shard {shard.key}: the row's {k} is not text")
        need(isinstance(row.get("seconds"), (int, float)) and "counterexample" in row and "paper" in row,
             f"shard {shard.key}: the row lacks a field goi writes")


def law_shards(names: Iterable[str], parts: int) -> list[Shard]:
    """Each law's instances in `parts` shards (instance index k modulo parts)."""
    return [Shard(0, k, k + 1, label=f"{name}#{k}/{parts}") for name in names for k in range(parts)]


@dataclass(frozen=True)
class LawsRequest:
    """`goi conjectures --exhaustive N`: which laws, on what."""

    names: tuple
    bound: int
    context_size: int = 3
    profile: str = "ci"  # each check's budget (conjectures.BUDGETS)
    parts: Optional[int] = None  # shards per law (None: 1, or twice the cores on a cluster)


@declare("exhaustive", label="conjectures", progress=False)
class ExhaustiveLaws:
    """Each law of the catalogue on every instance up to size N, in every context up to size M; a row per law."""

    def plan(self, request: LawsRequest, options) -> Plan:
        from .conjectures import BUDGETS

        budget = BUDGETS.get(request.profile, BUDGETS["dev"])
        parts = request.parts or (2 * (os.cpu_count() or 1) if options.cluster else 1)
        checks = checks_up_to(request.names, request.bound, request.context_size, options.limit)
        check_division(parts, "--parts", most=max(1, min(checks.values())), of="the instances of the smallest law")
        return Plan(law_shards(request.names, parts), LawWork(request.bound, request.context_size, budget.timeout, parts),
                    sum(checks.values()),
                    {"command": "conjectures", "laws": list(request.names), "parts": parts, "bound": request.bound,
                     "context_size": request.context_size})

    def merge(self, request: LawsRequest, plan: Plan, results: list) -> list:
        """One row per law, in the request's order, its parts merged (exhaustive.merge_parts)."""
        from .conjectures import Row
        from .exhaustive import merge_parts

        pieces: dict = {name: [] for name in request.names}
        for shard, result in zip(plan.shards, results):
            data = result["row"]
            pieces[shard.label.partition("#")[0]].append(Row(
                data["law"], data["statement"], data["expected"], data["verdict"], data["instances"], data["proven"],
                data["unknown"], data["skipped"], data["counterexample"], data["seconds"], data["paper"]))
        return [merge_parts(pieces[name]) for name in request.names]


def checks_up_to(names, bound: int, context_size: int, limit: int) -> dict:
    """law -> at most how many instance-in-context checks it takes, refused (before any work)
    past `limit` in all or past what can be counted."""
    from goi.campaigns.faults import CampaignTooLarge
    from goi.generators.enumerate import Enumeration, TooLarge

    from .conjectures import LAWS
    from .exhaustive import context_count, instance_bound

    enum = Enumeration()
    out = {}
    try:
        for name in names:
            law = LAWS[name]
            contexts = context_count(enum, law.type, context_size) if law.level == "context" else 1
            out[name] = instance_bound(law, enum, bound) * contexts
            if sum(out.values()) > limit:
                raise CampaignTooLarge(f"--exhaustive {bound:,} --context-size {context_size:,}: more than {limit:,} "
                                       f"instance-in-context checks ({sum(out.values()):,} up to law {name}); "
                                       "--max-campaign N allows a larger campaign")
    except TooLarge:
        raise CampaignTooLarge(f"--exhaustive {bound:,} --context-size {context_size:,}: beyond reach (the terms of "
                               "that size cannot even be counted)") from None
    return out
