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

The runner knows nothing of what a shard computes: the works — the properties' (properties/
campaign.py), the conjectures', the oracle's (oracle/campaigning.py) — are given to it.
"""

from __future__ import annotations

import contextlib
import os
import time
from dataclasses import asdict, dataclass
from typing import Callable, Optional

from .checkpoint import Checkpoint
from .cpu import CpuClock, CpuSeconds
from .faults import CampaignFault, CampaignTooLarge, ClusterError

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


MAX_PROGRAMS = 100_000_000  # a campaign of more programs is refused unless --max-campaign allows it
MAX_SHARDS = 100_000  # shards (or parts) a campaign may be divided into
SAMPLE = 8  # programs timed for a campaign's estimate
MAX_ESTIMATE = 86400.0  # a campaign estimated at more than a day of one core's time is refused unless asked for


class IndexOutOfRange(CampaignFault):
    kind = "usage"
    exit = "USAGE"


def exhaustive_counts(enumeration, bound: int, limit: int = MAX_PROGRAMS) -> dict:
    """size -> count for every size ≤ bound, refused (CampaignTooLarge, before any work) past
    `limit` programs or past a size whose programs cannot even be counted."""
    from goi.generators.enumerate import TooLarge

    counts, total = {}, 0
    for n in range(1, bound + 1):
        try:
            counts[n] = enumeration.count(n)
        except TooLarge:
            raise CampaignTooLarge(f"every program of size ≤ {bound:,}: size {n} is beyond reach (its programs "
                                   f"cannot even be counted); size ≤ {n - 1} has {total:,}") from None
        total += counts[n]
        if total > limit:
            raise CampaignTooLarge(f"every program of size ≤ {bound:,}: more than {limit:,} programs ({total:,} of "
                                   f"size ≤ {n} alone); --max-campaign N allows a larger campaign") from None
    return counts


def index_shard(enumeration, size: int, index: int, unit: str = "program") -> "Shard":
    """The one-program (or one-shape) shard of `--index SIZE:I`, or a clear refusal."""
    from goi.generators.enumerate import TooLarge

    try:
        total = enumeration.count(size)
    except TooLarge:
        raise CampaignTooLarge(f"no {unit} {index:,} of size {size:,}: that size is beyond reach (its {unit}s "
                               "cannot even be counted)") from None
    if index >= total:
        raise IndexOutOfRange(f"no {unit} {index:,} of size {size:,}: there are {total:,}")
    return Shard(size, index, index + 1)


def check_division(count: int, option: str, limit: int = MAX_SHARDS, most: Optional[int] = None, of: str = "") -> None:
    """A number of shards or parts, checked against what it can mean before anything is built."""
    if count > limit:
        raise CampaignTooLarge(f"{option} {count:,}: a campaign is divided into at most {limit:,}")
    if most is not None and count > most:
        raise CampaignTooLarge(f"{option} {count:,}: more than {of} ({most:,}); each would be empty")


def exhaustive_shards(counts: dict, per_shard: int = SHARD_PROGRAMS) -> list[Shard]:
    """Index ranges over the programs of each size (counts: size -> how many), smallest first."""
    out = []
    for size in sorted(counts):
        for start in range(0, counts[size], per_shard):
            out.append(Shard(size, start, min(start + per_shard, counts[size])))
    return out


def client_for(cluster: str, wait: float = None):
    """A Dask client: `local` starts a LocalCluster on this machine (loopback only, one worker
    process per core), an address connects to a running scheduler. Needs the `cluster` extra.
    Every way this can fail is a ClusterError naming the address (properties/faults.py)."""
    wait = CLUSTER_WAIT if wait is None else wait
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise ClusterError("--cluster needs Dask: pip install 'goi-abductive[cluster]'") from None
    if cluster == "local":
        with _quiet_dask():
            try:
                local = LocalCluster(n_workers=os.cpu_count() or 1, threads_per_worker=1, processes=True,
                                     host="127.0.0.1", dashboard_address=None, preload=[WORKER_SETUP])
            except Exception as exc:
                raise ClusterError(f"cannot start a LocalCluster: {type(exc).__name__}: {exc}") from None
        return Client(local), local
    scheme, sep, _ = cluster.partition("://")
    if sep and scheme not in SCHEMES:
        raise ClusterError(f"--cluster {cluster}: goi connects to a scheduler by {' or '.join(s + '://' for s in SCHEMES)} "
                           f"(or local); not {scheme}://")
    try:
        with _quiet_dask():
            client = Client(cluster, timeout=wait)
    except Exception as exc:
        raise ClusterError(f"--cluster {cluster}: cannot connect to the scheduler ({type(exc).__name__}: "
                           f"{_first_line(exc)}; --cluster-wait {wait:g} s)") from None
    try:
        client.wait_for_workers(1, timeout=wait)
    except Exception:
        client.close()
        raise ClusterError(f"--cluster {cluster}: the scheduler has no worker, and none joined within {wait:g} s") from None
    return client, None


CLUSTER_WAIT = 30.0  # seconds to reach a scheduler, and for its first worker to join
SCHEMES = ("tcp", "tls")  # what an address may start with (tls with Dask's own TLS configuration)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0][:200] if text else ""


@contextlib.contextmanager
def _quiet_dask():
    """Dask's own log lines (connection retries, a closing cluster's warnings) are not goi's
    output: only its errors, which goi reports itself, would be news."""
    import logging

    names = [n for n in list(logging.root.manager.loggerDict) if n.split(".")[0] in ("distributed", "tornado", "asyncio")]
    loggers = [logging.getLogger(name) for name in sorted(set(names) | {"distributed", "tornado", "asyncio"})]
    before = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        for logger, level in zip(loggers, before):
            logger.setLevel(level)


WORKER_SETUP = "goi.campaigns.dask_worker"  # each LocalCluster worker leaves Ctrl-C to goi (that module)


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
        from goi.progress import interval

        self.label, self.total, self.dashboard = label, total, dashboard
        self.started = time.perf_counter()
        self.last = self.started
        self.every = interval()
        self.first = None  # programs already done (a resumed campaign) when the clock started

    def __call__(self, done: int, of: int, programs: int) -> None:
        from goi.progress import PROGRESS, enabled, write

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
                 progress: Optional[Callable[[int, int, int], None]] = None,
                 warn: Optional[Callable[[str], None]] = None, done: Optional[dict] = None,
                 wait: Optional[float] = None, clock: Optional[CpuClock] = None) -> dict:
    """Every shard's result by key (module docstring). `progress(shards done, of, programs done)`;
    `warn(line)` hears of each damaged checkpoint record (which is run again, never counted).
    The checkpoint's records are checked against the shards and by `work.check_result` if the
    work has one (properties/checkpoint.py). `clock` (campaigns/cpu.py) is told of the
    cluster, to count its workers' CPU time."""
    if done is None:  # a checkpoint not started yet (Campaign.run starts it before the plan)
        done = start_checkpoint(checkpoint, resume, shards, work, warn) if checkpoint is not None else {}
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
    own, made = None, client is None  # a client made here is closed here, with its LocalCluster if any
    where = cluster or "the given client"
    if client is None:
        client, own = client_for(cluster, wait)
    if clock is not None:  # a LocalCluster started here: its workers' whole time is the campaign's
        clock.attach(client, own is not None)
    if progress is not None and getattr(progress, "dashboard", "") is None:
        try:
            progress.dashboard = client.dashboard_link  # the scheduler's diagnostic pages, when it serves them
        except Exception:  # no dashboard (a LocalCluster started without one, or no bokeh)
            pass
    try:
        with _quiet_dask():
            _run_on(client, pending, work, finished, where, results, checkpoint)
            if clock is not None:
                clock.read_cluster(client)
    finally:
        if made:
            with _quiet_dask():
                for closing in (client, own):
                    try:
                        if closing is not None:
                            closing.close()
                    except BaseException:  # a cluster already gone (or a second Ctrl-C): nothing left to close
                        pass
    return results


def start_checkpoint(checkpoint: Checkpoint, resume: bool, shards: list, work: Callable, warn) -> dict:
    """The checkpoint started (properties/checkpoint.py): its records checked against the shards
    and by `work.check_result` when the work has one; each damaged line said on `warn`."""
    check = getattr(work, "check_result", None)
    by_key = {s.key: s for s in shards}
    done = checkpoint.start(resume, shards, (lambda key, result: check(by_key[key], result)) if check else None)
    for line in checkpoint.report():
        (warn or (lambda _line: None))(line)
    return done


class _TaskFailed(Exception):
    def __init__(self, future):
        self.future = future


def _run_on(client, pending: list, work: Callable, finished: Callable, where: str, results: dict, checkpoint) -> None:
    """The pending shards on the cluster, each recorded as it completes. A task that raised
    raises here as it did; anything else that stops the loop (a lost scheduler, a closed
    connection) is a ClusterError that says what the checkpoint kept."""
    import uuid

    from distributed import as_completed

    run = uuid.uuid4().hex[:12]  # this campaign's tasks only: a key a result of an earlier run still holds is not reused
    try:
        futures = {client.submit(work, shard, key=f"goi-{shard.key}-{run}", pure=False, retries=2): shard
                   for shard in pending}
        for future in as_completed(futures):
            if future.status == "error":
                raise _TaskFailed(future)
            finished(futures[future], future.result())
    except _TaskFailed as failed:
        failed.future.result()  # the work's own exception, as it was raised
        raise
    except (KeyboardInterrupt, CampaignFault):
        raise
    except Exception as exc:
        kept = (f"the checkpoint {checkpoint.path} keeps the {len(results):,} shards finished: --resume continues"
                if checkpoint is not None else "no --checkpoint was given: nothing was kept")
        raise ClusterError(f"lost the cluster ({where}): {type(exc).__name__}: {_first_line(exc)}; {kept}") from None


@dataclass
class Campaign:
    """A campaign as every command sets it up (docs/CAMPAIGNS.md): its shards and their work,
    how many programs they hold, the checkpoint's description; `run` checks the set-up, says
    the plan (count, shards, and an estimate timed on `sample`), runs, and warns of damaged
    checkpoint records, all on `warn` (standard error)."""

    label: str
    shards: list
    work: Callable
    programs: int
    description: dict
    cluster: Optional[str] = None
    checkpoint: Optional[str] = None
    resume: bool = False
    limit: int = MAX_PROGRAMS
    sample: Optional[Shard] = None  # a few of the programs, timed for the estimate (not counted)
    warn: Optional[Callable[[str], None]] = None
    wait: Optional[float] = None  # seconds to reach a scheduler and for a worker to join (CLUSTER_WAIT)
    unit: str = "programs"  # what the shards hold ("shapes": programs with their constants left open)
    max_estimate: Optional[float] = MAX_ESTIMATE  # seconds of one core's time past which it is refused (None: asked for)
    estimate: Optional[float] = None  # seconds of one core's time, once `plan` has timed the sample
    cpu: Optional[CpuSeconds] = None  # what the campaign cost every process that worked for it, once run

    def plan(self) -> str:
        where = f" on {self.cluster}" if self.cluster else ""
        unit = self.unit.removesuffix("s") if self.programs == 1 else self.unit
        shards = f"{len(self.shards):,} shard{'s' if len(self.shards) != 1 else ''}"
        line = f"[goi] {self.label}: {self.programs:,} {unit} in {shards}{where}"
        if self.sample is not None and self.sample.stop > self.sample.start:
            started = time.process_time()  # this process's CPU: what one core spends, whatever else the machine runs
            self.work(self.sample)
            each = (time.process_time() - started) / (self.sample.stop - self.sample.start)
            self.estimate = each * self.programs
            line += (f"; estimate: {_duration(self.estimate)} of one core's time (timed on "
                     f"{self.sample.stop - self.sample.start} {self.unit} of size {self.sample.size})")
        return line

    def run(self, progress: Optional[Callable] = None) -> dict:
        if self.programs > self.limit:
            raise CampaignTooLarge(f"{self.label}: {self.programs:,} programs, more than {self.limit:,}; "
                                   "--max-campaign N allows a larger campaign")
        check_division(len(self.shards), "shards")
        clock = CpuClock()
        warn = self.warn or (lambda _line: None)
        checkpoint, done = None, None
        if self.checkpoint is not None:  # refused or read before any work
            checkpoint = Checkpoint(self.checkpoint, self.description)
            done = start_checkpoint(checkpoint, self.resume, self.shards, self.work, warn)
        line = self.plan()
        if self.max_estimate is not None and self.estimate is not None and self.estimate > self.max_estimate:
            raise CampaignTooLarge(f"{line.removeprefix('[goi] ')}: more than {_duration(self.max_estimate)[6:]} of one "
                                   "core's time, refused before any shard ran; --max-campaign N (a bound of your own) "
                                   "runs it anyway")
        if done:
            line += f"; {len(done):,} shards ({sum(r['programs'] for r in done.values()):,} programs) already in the checkpoint"
        warn(line)
        results = run_campaign(self.shards, self.work, cluster=self.cluster, checkpoint=checkpoint, resume=self.resume,
                               progress=progress or CampaignProgress(self.label, self.programs), warn=warn, done=done,
                               wait=self.wait, clock=clock)
        self.cpu = clock.stop()
        warn(f"[goi] {self.label}: {self.cpu.describe()}")
        return results


def _duration(seconds: float) -> str:
    if seconds < 60:
        return f"about {seconds:.0f} s" if seconds >= 1 else "under a second"
    if seconds < 3600:
        return f"about {int(seconds // 60)}m{int(seconds % 60):02d}s"
    if seconds < 86400 * 3:
        return f"about {seconds / 3600:.1f} hours"
    return f"about {seconds / 86400:,.0f} days"


def sample_of(shards: list, count: int = SAMPLE) -> Optional[Shard]:
    """The first few programs of the largest size: what an estimate is timed on."""
    ranges = [s for s in shards if s.size and not s.label]
    if len(ranges) < 2:
        return None
    last = max(ranges, key=lambda s: (s.size, -s.start))
    return Shard(last.size, last.start, min(last.stop, last.start + count))


def seed_shards(first_seed: int, count: int) -> list[Shard]:
    """One shard per seed (size 0: a random shard): first_seed, first_seed + 1, …"""
    return [Shard(0, seed, seed + 1) for seed in range(first_seed, first_seed + count)]


def space_fields(space) -> dict:
    return {k: (list(map(str, v)) if isinstance(v, tuple) else v) for k, v in asdict(space).items()}
