"""Campaign kinds as declarations (docs/CAMPAIGNS.md, "A campaign kind"). A kind says once
what a command's campaign is — how a request becomes shards and their work (`plan`), and
how the shards' results become the command's answer (`merge`) — and is declared in a module
of its package, found there by goi's one collector (goi/declarations.py):

    @declare("exhaustive", label="exhaustive")
    class ExhaustiveProperties:
        '''Every property that takes a program, on every program of size ≤ N.'''

        def plan(self, request, options) -> Plan: ...
        def merge(self, request, plan, results) -> object: ...

A command states the kind it runs by `package:name` (`goi.properties:exhaustive`) and hands
it its request and the campaign options (`Options`, checked in one place); `run` does the rest
for every kind alike: the refusals before any work, the checkpoint, the plan line with its
estimate, the cluster (a LocalCluster for a large plan that asks for one), the CPU time, and
the merge over the results in the plan's shard order.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Callable, Optional, Union

from .faults import CampaignFault

if TYPE_CHECKING:
    from .cpu import CpuSeconds

# The runner (goi/campaigns/runner.py) is imported by `run` and the options' limits, not here:
# a package that declares kinds is imported by every command that collects its other
# declarations (goi props' property scan imports goi/properties/campaign.py), and most of
# those never run a campaign.


class CampaignUsage(CampaignFault):
    """Campaign options that cannot go together (a usage error, said before any work)."""

    kind = "usage"
    exit = "USAGE"


@dataclass(frozen=True)
class Options:
    """The campaign options every command that campaigns takes (goi/cli/arguments.py
    `campaign_options`), checked together here and nowhere else."""

    cluster: Optional[str] = None
    checkpoint: Optional[str] = None
    resume: bool = False
    max_programs: Optional[int] = None  # programs past which a campaign is refused (None: runner.MAX_PROGRAMS)
    max_estimate: Union[float, None, str] = "default"  # one core's seconds past which a timed plan is refused
    # (None: no bound; "default": runner.MAX_ESTIMATE)
    wait: Optional[float] = None  # seconds to reach a scheduler and for a worker to join (None: runner.CLUSTER_WAIT)

    def __post_init__(self):
        if self.resume and self.checkpoint is None:
            raise CampaignUsage("--resume needs --checkpoint FILE")

    @classmethod
    def bounded(cls, max_campaign: Optional[int] = None, **options) -> "Options":
        """The options with `--max-campaign N` read: N programs at most, and no bound on the
        estimate (any N is a bound of the user's own); none given, the defaults."""
        if max_campaign is None:
            return cls(**options)
        return cls(max_programs=max_campaign, max_estimate=None, **options)

    @property
    def limit(self) -> int:
        from .runner import MAX_PROGRAMS

        return MAX_PROGRAMS if self.max_programs is None else self.max_programs

    @property
    def estimate_limit(self) -> Optional[float]:
        from .runner import MAX_ESTIMATE

        return MAX_ESTIMATE if self.max_estimate == "default" else self.max_estimate


@dataclass
class Plan:
    """What a kind's `plan` gives: the shards and their work, how many programs (or whatever
    `unit` names) they hold, the checkpoint's description of the campaign. A `timed` plan is
    estimated before it runs, on a few of its largest programs (runner.sample_of); a `large`
    one runs on a LocalCluster when no cluster is chosen (runner.default_cluster); `notes` is
    for the kind's merge (what it planned with)."""

    shards: list
    work: Callable
    programs: int
    description: dict
    unit: str = "programs"
    timed: bool = False
    large: bool = False
    notes: dict = field(default_factory=dict)


@dataclass(frozen=True)
class CampaignKind:
    name: str
    label: str  # what the campaign's lines on standard error call it ("exhaustive", "oracle campaign")
    summary: str  # the declaration's docstring, first line
    plan: Callable  # plan(request, options) -> Plan
    merge: Callable  # merge(request, plan, results in the plan's shard order) -> the command's answer
    progress: bool = True  # a progress line while it runs (the conjectures' rows say enough)


@dataclass
class Outcome:
    """A campaign run: the merge's answer, the plan, where it ran, and what it cost."""

    merged: object
    plan: Plan
    cluster: Optional[str]
    cpu: CpuSeconds


def declare(name: str, label: str, progress: bool = True):
    """Declare a class a campaign kind (the module's docstring): it has `plan(request, options)` and
    `merge(request, plan, results)`, and a docstring whose first line is its summary."""

    def register(cls):
        summary = (cls.__doc__ or "").strip().splitlines()
        if not summary:
            raise TypeError(f"campaign kind {name}: no docstring (its summary)")
        for method in ("plan", "merge"):
            if not callable(getattr(cls, method, None)):
                raise TypeError(f"campaign kind {name}: no {method}")
        made = cls()
        cls.campaign_kind = CampaignKind(name, label, summary[0], made.plan, made.merge, progress)
        return cls

    return register


@lru_cache(maxsize=None)
def kinds(package: str) -> dict:
    """name -> CampaignKind for every kind the package's modules declare."""
    from goi.declarations import declared

    return declared(package, "campaign_kind", CampaignKind)


class UnknownKind(LookupError):
    pass


def kind(qualified: str) -> CampaignKind:
    """The kind `package:name` (goi.properties:exhaustive)."""
    package, sep, name = qualified.partition(":")
    found = kinds(package) if sep else {}
    if name not in found:
        raise UnknownKind(f"no campaign kind {qualified!r}" + (f"; {package} declares {', '.join(found) or 'none'}"
                                                              if sep else " (package:name)"))
    return found[name]


def run(which, request, options: Options = Options(), *, warn: Optional[Callable[[str], None]] = None,
        progress: Optional[Callable] = None) -> Outcome:
    """Run a campaign of the kind `which` (a CampaignKind, or its `package:name`) on `request`:
    planned, run by runner.Campaign under `options`, merged. The plan, the checkpoint's
    warnings, a LocalCluster chosen for a large plan and the CPU time are said on `warn`."""
    from . import runner

    chosen = which if isinstance(which, CampaignKind) else kind(which)
    plan = chosen.plan(request, options)
    warn = warn or (lambda _line: None)
    cluster = runner.default_cluster(options.cluster, plan.programs) if plan.large else options.cluster
    if cluster != options.cluster:
        warn(f"{plan.programs:,} {plan.unit}: run on a Dask LocalCluster, one worker per core (--cluster to choose)")
    campaign = runner.Campaign(chosen.label, plan.shards, plan.work, plan.programs, plan.description, cluster=cluster,
                               checkpoint=options.checkpoint, resume=options.resume, limit=options.limit,
                               sample=runner.sample_of(plan.shards) if plan.timed else None,
                               warn=warn, wait=options.wait, unit=plan.unit, max_estimate=options.estimate_limit)
    if progress is None and not chosen.progress:
        progress = lambda *_: None  # noqa: E731
    results = campaign.run(progress=progress)
    merged = chosen.merge(request, plan, [results[s.key] for s in plan.shards])
    return Outcome(merged, plan, cluster, campaign.cpu)
