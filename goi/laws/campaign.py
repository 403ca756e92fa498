"""The conjectures' campaign (docs/CAMPAIGNS.md): a law of the catalogue on every instance up
to a bound, a shard per law (or per part of a law's instances), for the campaign runner
(goi/campaigns/runner.py); `goi conjectures --exhaustive` merges the parts (merge_parts)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from goi.campaigns.checkpoint import need, whole
from goi.campaigns.runner import Shard


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
