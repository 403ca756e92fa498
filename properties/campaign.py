"""Campaigns: a large piece of work divided into shards, run here or on a Dask cluster,
checkpointed shard by shard, and merged (docs/CAMPAIGNS.md).

One runner for every command that campaigns: a campaign is a list of `Shard`s (an index
range of the programs of one size, for an exhaustive run) and a picklable function from a
shard to its result (a JSON-able dict with at least `programs`); `run_campaign` runs the
shards not yet in the checkpoint — serially in this process, on a `LocalCluster` (one worker
process per core), or on an existing scheduler (`tcp://HOST:8786`) — records each finished
shard in the checkpoint at once (one JSON line, flushed), and returns every shard's result,
the checkpoint's included. A shard is counted once: a result is recorded when its future
completes, and a shard lost with a worker is computed again by Dask, not counted twice.

`exhaustive_props` is the campaign of `goi props --exhaustive N`: every property whose check
takes a program alone, on every program of size ≤ N (generators/enumerate.py).
"""

from __future__ import annotations

import inspect
import json
import os
import time
from dataclasses import asdict, dataclass
from typing import Callable, Iterable, Optional

SHARD_PROGRAMS = 400  # programs per shard of an exhaustive run
LARGE = 100_000  # programs: a campaign this large runs on a LocalCluster unless told otherwise (default_cluster)


@dataclass(frozen=True)
class Shard:
    size: int  # the programs' size (0: not an index range of one size)
    start: int
    stop: int
    label: str = ""  # a shard of something other than programs (a law of the conjecture catalogue)

    @property
    def key(self) -> str:
        return self.label or f"{self.size}:{self.start}-{self.stop}"


def exhaustive_shards(counts: dict, per_shard: int = SHARD_PROGRAMS) -> list[Shard]:
    """Index ranges over the programs of each size (counts: size -> how many), smallest first."""
    out = []
    for size in sorted(counts):
        for start in range(0, counts[size], per_shard):
            out.append(Shard(size, start, min(start + per_shard, counts[size])))
    return out


class Checkpoint:
    """Finished shards, one JSON line each ({"shard": key, "result": …}), appended and flushed
    as each finishes; a campaign of another description is refused (`describe`)."""

    def __init__(self, path: str, description: dict):
        self.path = path
        self.description = description

    def load(self) -> dict:
        if not os.path.exists(self.path):
            return {}
        done: dict = {}
        with open(self.path, encoding="utf-8") as handle:
            lines = [line for line in handle if line.strip()]
        if not lines:
            return {}
        head = json.loads(lines[0])
        if head.get("campaign") != self.description:
            raise ValueError(f"{self.path} is the checkpoint of another campaign ({head.get('campaign')}); "
                             "start this one with another --checkpoint or without --resume")
        for line in lines[1:]:
            try:
                entry = json.loads(line)
            except ValueError:
                continue  # a line cut short by an interruption: that shard is run again
            done[entry["shard"]] = entry["result"]
        return done

    def start(self, resume: bool) -> dict:
        done = self.load() if resume else {}
        if not resume or not os.path.exists(self.path):
            with open(self.path, "w", encoding="utf-8") as handle:
                handle.write(json.dumps({"campaign": self.description}) + "\n")
        return done

    def record(self, shard: Shard, result: dict) -> None:
        with open(self.path, "a", encoding="utf-8") as handle:
            handle.write(json.dumps({"shard": shard.key, "result": result}) + "\n")
            handle.flush()
            os.fsync(handle.fileno())


def client_for(cluster: str):
    """A Dask client: `local` starts a LocalCluster on this machine (loopback only, one worker
    process per core), an address connects to a running scheduler. Needs the `cluster` extra."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise RuntimeError("--cluster needs Dask: pip install 'goi-abductive[cluster]'") from None
    if cluster == "local":
        local = LocalCluster(n_workers=os.cpu_count() or 1, threads_per_worker=1, processes=True, host="127.0.0.1",
                             dashboard_address=None)
        return Client(local), local
    return Client(cluster), None


def default_cluster(cluster: Optional[str], programs: int) -> Optional[str]:
    """The cluster asked for; for a large campaign (LARGE programs) with none asked for, a
    LocalCluster when Dask is installed and this machine has more than one core."""
    if cluster is not None or programs < LARGE or (os.cpu_count() or 1) < 2:
        return cluster
    try:
        import distributed  # noqa: F401
    except ImportError:
        return None
    return "local"


class CampaignProgress:
    """A line every few seconds (properties/progress.py decides where, and whether): programs
    done of the total, the rate, the time left, and the Dask dashboard's address if there is one."""

    def __init__(self, label: str, total: int, dashboard: Optional[str] = None):
        from .progress import interval

        self.label, self.total, self.dashboard = label, total, dashboard
        self.started = time.perf_counter()
        self.last = self.started
        self.every = interval()
        self.first = None  # programs already done (a resumed campaign) when the clock started

    def __call__(self, done: int, of: int, programs: int) -> None:
        from .progress import PROGRESS, enabled, write

        now = time.perf_counter()
        if self.first is None:
            self.first = programs
        if PROGRESS.quiet or not enabled() or now - self.last < self.every and done < of:
            return
        self.last = now
        rate = (programs - self.first) / max(now - self.started, 1e-9)
        left = (self.total - programs) / rate if rate > 0 else float("inf")
        eta = "" if left == float("inf") else f", about {int(left // 60)}m{int(left % 60):02d}s left"
        where = f" (dashboard {self.dashboard})" if self.dashboard else ""
        write(f"[goi] {self.label}: {programs:,}/{self.total:,} programs, {done}/{of} shards, {rate:,.0f}/s{eta}{where}")


def run_campaign(shards: list, work: Callable, *, cluster: Optional[str] = None, client=None,
                 checkpoint: Optional[Checkpoint] = None, resume: bool = False,
                 progress: Optional[Callable[[int, int, int], None]] = None) -> dict:
    """Every shard's result by key (module docstring). `progress(shards done, of, programs done)`."""
    done = checkpoint.start(resume) if checkpoint is not None else {}
    pending = [s for s in shards if s.key not in done]
    results = dict(done)
    programs = sum(r.get("programs", 0) for r in results.values())

    def finished(shard: Shard, result: dict) -> None:
        nonlocal programs
        results[shard.key] = result
        programs += result.get("programs", 0)
        if checkpoint is not None:
            checkpoint.record(shard, result)
        if progress is not None:
            progress(len(results), len(shards), programs)

    if cluster is None and client is None:
        for shard in pending:
            finished(shard, work(shard))
        return results
    own = None
    if client is None:
        client, own = client_for(cluster)
    if progress is not None and getattr(progress, "dashboard", "") is None:
        try:
            progress.dashboard = client.dashboard_link  # the scheduler's diagnostic pages, when it serves them
        except Exception:  # no dashboard (a LocalCluster started without one, or no bokeh)
            pass
    try:
        from distributed import as_completed

        futures = {client.submit(work, shard, key=f"goi-{shard.key}-{id(work)}", pure=False, retries=2): shard
                   for shard in pending}
        for future in as_completed(futures):
            finished(futures[future], future.result())
    finally:
        if own is not None:
            client.close()
            own.close()
    return results


# ---- the exhaustive property campaign --------------------------------------------------------

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

    def __call__(self, shard: Shard) -> dict:
        from goi.generators.enumerate import Enumeration, Space
        from goi.semantics.pretty import pretty

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
        for index, term in zip(range(shard.start, shard.stop), enumeration.programs(shard.size, shard.start, shard.stop)):
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


# ---- random campaigns: seed ranges --------------------------------------------------------

def seed_shards(first_seed: int, count: int) -> list[Shard]:
    """One shard per seed (size 0: a random shard): first_seed, first_seed + 1, …"""
    return [Shard(0, seed, seed + 1) for seed in range(first_seed, first_seed + count)]


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


def distinct_failures(results: Iterable[dict]) -> list[dict]:
    """The failures of a random campaign's shards, one per property and folded message
    (properties/folding.py: the same bug found from two seeds is one), the lowest seed's."""
    from .folding import fold

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


def space_fields(space) -> dict:
    return {k: (list(map(str, v)) if isinstance(v, tuple) else v) for k, v in asdict(space).items()}


# ---- exhaustive conjectures: a shard per law ------------------------------------------------

@dataclass(frozen=True)
class LawWork:
    """One law of `goi conjectures --exhaustive`: every instance up to the bound."""

    bound: int
    context_size: int
    timeout: float
    parts: int = 1  # each law's instances divided into this many shards (law_shards)

    def __call__(self, shard: Shard) -> dict:
        from .conjectures import LAWS
        from .exhaustive_laws import decide_exhaustive

        law = shard.label.partition("#")[0]
        row = decide_exhaustive(LAWS[law], self.bound, self.context_size, self.timeout, part=(shard.start, self.parts))
        return {"programs": row.instances, "row": row.to_json()}


def law_shards(names: Iterable[str], parts: int) -> list[Shard]:
    """Each law's instances in `parts` shards (instance index k modulo parts)."""
    return [Shard(0, k, k + 1, label=f"{name}#{k}/{parts}") for name in names for k in range(parts)]
