"""Campaigns (properties/campaign.py): an exhaustive run divided into shards gives the same
result serially, on a LocalCluster and on a real Dask scheduler with two workers on localhost
— one of them killed mid-campaign — and resumes from its checkpoint without counting a shard
twice. The servers listen on 127.0.0.1 only and are stopped by the tests."""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from goi.cli import exitcodes, main
from goi.generators.enumerate import Enumeration, Space
from goi.properties.campaign import PropsWork, merge
from goi.campaigns.runner import Checkpoint, exhaustive_shards, run_campaign
from goi.campaigns.faults import CheckpointRefused

distributed = pytest.importorskip("distributed", reason="the cluster extra: pip install 'goi-abductive[cluster]'")

NAMES = ("soundness", "agreement")
BOUND = 5


def campaign():
    enumeration = Enumeration()
    shards = exhaustive_shards({n: enumeration.count(n) for n in range(1, BOUND + 1)}, per_shard=500)
    work = PropsWork(NAMES, "ci", dataclasses.asdict(Space()))
    return shards, work, enumeration.count_upto(BOUND)


def test_serial_and_local_cluster_give_one_result():
    shards, work, total = campaign()
    serial = merge(run_campaign(shards, work).values(), NAMES)
    assert serial["programs"] == total == 10260 and serial["held"] == {n: total for n in NAMES} and not serial["failures"]
    local = merge(run_campaign(shards, work, cluster="local").values(), NAMES)
    assert {k: local[k] for k in ("programs", "held", "undecided", "failures")} == \
        {k: serial[k] for k in ("programs", "held", "undecided", "failures")}


class Interrupt(Exception):
    pass


def test_an_interrupted_campaign_resumes_where_it_stopped(tmp_path):
    shards, work, total = campaign()
    calls = []

    def stopping(shard):
        if len(calls) == 5:
            raise Interrupt()
        calls.append(shard.key)
        return work(shard)

    checkpoint = Checkpoint(str(tmp_path / "c.jsonl"), {"bound": BOUND, "names": list(NAMES)})
    with pytest.raises(Interrupt):
        run_campaign(shards, stopping, checkpoint=checkpoint)
    assert len(checkpoint.load()) == 5
    again = []

    def counting(shard):
        again.append(shard.key)
        return work(shard)

    results = run_campaign(shards, counting, checkpoint=checkpoint, resume=True)
    assert len(again) == len(shards) - 5 and not set(again) & set(calls)  # nothing done twice
    assert merge(results.values(), NAMES)["programs"] == total
    with pytest.raises(CheckpointRefused, match="another campaign"):
        Checkpoint(str(tmp_path / "c.jsonl"), {"bound": BOUND + 1}).start(resume=True)


@pytest.fixture
def two_workers(tmp_path):
    """A real scheduler and two worker processes (no nanny: a killed worker stays dead), on
    loopback, stopped at the end."""
    dask = str(Path(sys.executable).parent / "dask")
    scheduler_file = tmp_path / "scheduler.json"
    logs = [open(tmp_path / f"{name}.log", "w") for name in ("scheduler", "worker0", "worker1")]
    procs = [subprocess.Popen([dask, "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                               "--scheduler-file", str(scheduler_file)], stdout=logs[0], stderr=logs[0],
                              start_new_session=True)]
    try:
        for _ in range(600):  # the scheduler writes its file once it listens
            if scheduler_file.exists() and scheduler_file.stat().st_size:
                break
            time.sleep(0.1)
        address = json.loads(scheduler_file.read_text())["address"]
        assert address.startswith("tcp://127.0.0.1:")
        for i in (1, 2):
            procs.append(subprocess.Popen([dask, "worker", address, "--host", "127.0.0.1", "--nthreads", "1",
                                           "--no-nanny", "--no-dashboard", "--name", f"w{i}"],
                                          stdout=logs[i], stderr=logs[i], start_new_session=True))
        yield address, procs
    finally:
        for proc in procs:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in procs:
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
        for log in logs:
            log.close()


def test_a_campaign_on_two_localhost_workers_survives_one_killed(two_workers, tmp_path):
    address, procs = two_workers
    from distributed import Client

    shards, work, total = campaign()
    client = Client(address)
    try:
        client.wait_for_workers(2)
        killed = []

        def progress(done, of, programs):
            if done == 2 and not killed:  # two shards in: one worker dies, its shards are redone
                os.killpg(procs[1].pid, signal.SIGKILL)
                killed.append(done)

        checkpoint = Checkpoint(str(tmp_path / "c.jsonl"), {"bound": BOUND})
        results = run_campaign(shards, work, client=client, checkpoint=checkpoint, progress=progress)
    finally:
        client.close()
    assert killed and procs[1].wait(timeout=30) is not None
    assert sorted(results) == sorted(s.key for s in shards)  # every shard once
    lines = (tmp_path / "c.jsonl").read_text().splitlines()[1:]
    assert len(lines) == len(shards) and len({json.loads(l)["shard"] for l in lines}) == len(shards)
    merged = merge(results.values(), NAMES)
    assert merged["programs"] == total and merged["held"] == {n: total for n in NAMES}


def test_goi_props_exhaustive_states_its_bound_and_replays_by_index(capsys):
    code = main(["props", "soundness", "--exhaustive", "3", "--profile", "ci", "--concrete"])
    out = capsys.readouterr().out
    assert code == exitcodes.OK and "soundness      held    on all 160 programs of size ≤ 3\n" in out
    assert "space: closed programs of type F" in out and "the constants 0, 1, -1/2, {1}, {-1/2}" in out
    assert main(["props", "soundness", "--index", "3:154", "--profile", "ci", "--concrete"]) == exitcodes.OK
    assert "program 3:154" in capsys.readouterr().out
    assert main(["props", "soundness", "--index", "3:155", "--concrete"]) == exitcodes.USAGE  # there are 155


def test_goi_props_exhaustive_runs_shapes_and_says_for_which_constants_each_verdict_holds(capsys):
    code = main(["props", "soundness", "invariants", "--exhaustive", "3", "--profile", "ci"])
    out = capsys.readouterr().out
    assert code == exitcodes.OK
    assert "soundness      held    on all 28 shapes of size ≤ 3, for any rational constants (total division)" in out
    # invariants: its value-independent checks cover every constant, the value-comparing ones the generic ones
    assert ("invariants     held    on all 28 shapes of size ≤ 3, for any rational constants for validity, "
            "productivity, dataflow (total division), the generic constants of generators/shapes.py for form, "
            "stability (they compare values)") in out
    assert "a placeholder for any rational constant" in out and "stand for the 160 programs over the constants" in out
    assert main(["props", "soundness", "--index", "3:25", "--profile", "ci"]) == exitcodes.OK  # 26 shapes of size 3
    assert "shape 3:25" in capsys.readouterr().out
    assert main(["props", "soundness", "--index", "3:26"]) == exitcodes.USAGE
    assert main(["props", "soundness", "--concrete"]) == exitcodes.USAGE  # --concrete is for --exhaustive
    assert main(["props", "contractions", "--exhaustive", "3"]) == exitcodes.USAGE  # takes a graph, not a program
    assert main(["props", "--exhaustive", "3", "--examples", "5"]) == exitcodes.USAGE


def test_goi_props_exhaustive_json(capsys):
    from test_cli_contract import validate

    code = main(["props", "soundness", "gc", "--exhaustive", "4", "--profile", "ci", "--json"])
    data = json.loads(capsys.readouterr().out)
    validate(data)
    run = data["exhaustive"]
    assert code == exitcodes.OK and run["bound"] == 4 and run["programs"] == run["of"] == 58 and run["shapes"]
    assert run["programs_over_constants"] == 325 and "placeholder" in run["space"]
    assert run["covers"] == {"soundness": "any rational constants (total division)",
                             "gc": "the generic constants of generators/shapes.py"}
    assert run["status"] == {"soundness": "held", "gc": "held"} and run["first"] is None
    code = main(["props", "soundness", "--exhaustive", "4", "--profile", "ci", "--json", "--concrete"])
    data = json.loads(capsys.readouterr().out)
    validate(data)
    run = data["exhaustive"]
    assert code == exitcodes.OK and run["programs"] == run["of"] == 325 and not run["shapes"]
    assert run["programs_over_constants"] is None and run["covers"] == {"soundness": "the constants listed"}


def test_goi_oracle_exhaustive_gives_each_bucket_its_smallest_program(capsys, tmp_path):
    """Every program of size ≤ 3 put to the two-bug mock: both buckets, each with the first
    failing program in size order (no shrinking needed), through a checkpoint."""
    from test_cli_contract import validate

    mock = Path(__file__).parent / "oracle_mocks" / "two_errors.py"
    argv = ["oracle", "--impl", f"{sys.executable} {mock} --lines", "--protocol", "lines", "--exhaustive", "3",
            "--no-corpus", "--no-database", "--checkpoint", str(tmp_path / "c.jsonl"), "--json"]
    code = main(argv)
    data = json.loads(capsys.readouterr().out)
    validate(data)
    assert code == exitcodes.NOT_EQUIVALENT and data["exhaustive"]["bound"] == 3 and data["exhaustive"]["of"] == 160
    assert data["programs"] == 160 and sum(data["counts"].values()) == 160
    assert [b["program"] for b in data["buckets"]] == ["0 - 0", "0 * 0"]
    assert sum(b["count"] for b in data["buckets"]) == data["counts"]["implementation-error"]
    assert main(argv + ["--resume"]) == exitcodes.NOT_EQUIVALENT  # every shard from the checkpoint: the same report
    again = json.loads(capsys.readouterr().out)
    assert again["counts"] == data["counts"] and [b["program"] for b in again["buckets"]] == ["0 - 0", "0 * 0"]
    assert main(["oracle", "--impl", "x", "--checkpoint", str(tmp_path / "x.jsonl")]) == exitcodes.USAGE  # not without a campaign


def test_goi_conjectures_exhaustive_tries_every_instance_smallest_first(capsys, tmp_path):
    """Up to size 3 (contexts up to 3): the laws expected to fail are refuted by their smallest
    instance, those expected to hold survive every instance, counted."""
    from test_cli_contract import validate

    code = main(["conjectures", "distinct-sharing", "plus-commutes", "let-floating", "let-floating-definitive",
                 "--exhaustive", "3", "--context-size", "3", "--json"])
    data = json.loads(capsys.readouterr().out)
    validate(data)
    rows = {r["law"]: r for r in data["laws"]}
    assert code == exitcodes.OK and data["exhaustive"] == {"bound": 3, "context_size": 3}
    assert rows["plus-commutes"]["verdict"] == "survived" and rows["plus-commutes"]["instances"] == 25  # 5 × 5 leaves
    assert rows["let-floating-definitive"]["verdict"] == "survived" and rows["let-floating-definitive"]["instances"] > 300
    floating = rows["let-floating"]
    assert floating["verdict"] == "refuted" and floating["counterexample"]["verdict"] == "not equivalent"
    assert "{1}" in floating["counterexample"]["left"]  # the smallest: a's one provisional constant
    sharing = rows["distinct-sharing"]
    assert sharing["verdict"] == "refuted" and sharing["counterexample"]["context"] is not None
    assert main(["conjectures", "--context-size", "3"]) == exitcodes.USAGE
    checkpoint = str(tmp_path / "laws.jsonl")  # each law a shard of one campaign: resumed, the same rows
    argv = ["conjectures", "plus-commutes", "distinct-left", "--exhaustive", "3", "--checkpoint", checkpoint, "--json"]
    assert main(argv) == exitcodes.OK
    first = json.loads(capsys.readouterr().out)["laws"]
    assert main(argv + ["--resume"]) == exitcodes.OK and json.loads(capsys.readouterr().out)["laws"] == first
    assert len(Path(checkpoint).read_text().splitlines()) == 3  # the campaign's line and a law each
    assert main(["conjectures", "plus-commutes", "let-floating", "--exhaustive", "3", "--parts", "3", "--json"]) == exitcodes.OK
    parted = {r["law"]: r for r in json.loads(capsys.readouterr().out)["laws"]}
    assert parted["plus-commutes"]["instances"] == 25  # three parts, every instance once
    assert parted["let-floating"]["counterexample"]["left"] == floating["counterexample"]["left"]  # the smallest of all


def test_a_law_with_no_instance_up_to_the_bound_is_untested_not_a_surprise(capsys):
    """let-floating, expected to fail, has no instance of size 2: it was reported as a law
    that did not meet its expected status (exit 1: a surprise, from a law never tried). It is
    untested — neither survived nor refuted — and the run, which tested less than asked, does
    not exit 0 either."""
    argv = ["conjectures", "let-floating", "plus-commutes", "--exhaustive", "2", "--context-size", "1"]
    assert main(argv + ["--json"]) == exitcodes.SHORT
    rows = {r["law"]: r for r in json.loads(capsys.readouterr().out)["laws"]}
    assert rows["let-floating"]["instances"] == 0
    assert (rows["let-floating"]["verdict"], rows["let-floating"]["surprising"]) == ("untested", False)
    assert (rows["plus-commutes"]["verdict"], rows["plus-commutes"]["instances"]) == ("survived", 25)
    assert main(argv) == exitcodes.SHORT
    out = capsys.readouterr().out
    assert "1 law(s) not tested, no instance decided up to size 2: let-floating" in out
    assert "did not meet" not in out
    assert main(["conjectures", "plus-commutes", "--exhaustive", "2", "--context-size", "1"]) == exitcodes.OK


def test_a_random_campaign_finds_one_bug_from_several_seeds_and_shrinks_it_once(capsys, monkeypatch):
    """A seeded rule mistake (rw.op.fold leaves the left operand's constant: wrong once an
    operation is evaluated again): the agreement property fails from several of the shards'
    seeds; the campaign reports one distinct failure, shrunk once, from the lowest seed."""
    from test_mutants import mutated

    from goi.properties import driver
    from goi.semantics import graph as G
    from goi.semantics.rules import DEFAULT

    original = DEFAULT["rw.op.fold"].apply

    def fold_left(m, op):  # the rule, then the new constant given the left operand's value (scalars)
        left, in_link = op.outs[0].dst, op.ins[0]
        kept = left.data if left.kind == G.CONST and not isinstance(m.token.stack[-1], tuple) else None
        original(m, op)
        if kept is not None:
            in_link.dst.data = kept

    shrinks = []  # the campaign's shrinking runs (the shards' own runs do not shrink)
    real = driver.run_property

    def counted(name, profile, examples=None, seed=None, replay=None, shrink=True):
        if shrink:
            shrinks.append(seed)
        return real(name, profile, examples, seed, replay, shrink)

    monkeypatch.setattr(driver, "run_property", counted)
    with mutated("rw.op.fold", fold_left):
        code = main(["props", "agreement", "--profile", "ci", "--shards", "4", "--examples", "120", "--json"])
    data = json.loads(capsys.readouterr().out)["campaign"]
    assert code == exitcodes.STUCK and data["properties"]["agreement"]["status"] == "failed"
    assert data["properties"]["agreement"]["runs"] >= 4  # every shard ran
    (failure,) = data["failures"]  # one distinct failure, found from several seeds …
    assert failure["count"] >= 2 and failure["shrunk"]["status"] == "failed"
    assert shrinks == [failure["seed"]]  # … shrunk once, from the lowest of them
    assert len(failure["shrunk"]["program"]) <= len(failure["program"])


def test_a_random_campaign_on_a_local_cluster_runs_every_shard():
    from goi.properties.campaign import RandomPropsWork
    from goi.campaigns.runner import seed_shards

    results = run_campaign(seed_shards(10, 3), RandomPropsWork(NAMES, "ci", 5), cluster="local")
    assert sorted(r["seed"] for r in results.values()) == [10, 11, 12]
    assert all(r["properties"][n]["status"] == "passed" and r["properties"][n]["runs"] == 5
               for r in results.values() for n in NAMES)


def test_a_divided_oracle_survey_on_a_local_cluster_buckets_over_all_shards():
    from goi.oracle import Oracle, OracleConfig

    mock = Path(__file__).parent / "oracle_mocks" / "two_errors.py"
    config = OracleConfig(command=[sys.executable, str(mock), "--lines"], protocol="lines", max_programs=60, shards=3,
                          cluster="local", database=None, corpus=False)
    report = Oracle(config).run()
    assert report.programs == sum(report.counts.values()) >= 50  # the shards' programs, each counted once
    # each bucket shrunk to one operation of two constants, the operator of its bug
    from goi.semantics import syntax as S
    from goi.semantics.parser import parse

    shrunk = [parse(s.case.text) for s in report.shrunk.values()]
    assert sorted(t.op for t in shrunk) == ["*", "-"]
    assert all(isinstance(t.left, S.Const) and isinstance(t.right, S.Const) for t in shrunk)
    assert all(s.complete for s in report.shrunk.values())
    assert sum(s.count for s in report.shrunk.values()) == report.counts["implementation-error"]


@pytest.mark.parametrize("size", [1, 2, 3])
def test_conjectures_exhaustive_tries_each_instance_in_every_context_up_to_the_context_size(capsys, size):
    """--context-size M reaches the runner: a context law is tried on every instance in every
    context of size ≤ M (and not one of size M + 1), counted."""
    from goi.generators.enumerate import Enumeration
    from goi.laws.conjectures import LAWS
    from goi.laws.exhaustive import contexts, instances

    code = main(["conjectures", "eta-value", "--exhaustive", "2", "--context-size", str(size), "--json"])
    row = json.loads(capsys.readouterr().out)["laws"][0]
    law, enum = LAWS["eta-value"], Enumeration()
    expected = len(list(instances(law, enum, 2))) * len(list(contexts(enum, law.type, size)))
    assert row["instances"] == expected and (size < 3 or expected > 0)
    assert (code, row["verdict"]) == ((exitcodes.OK, "survived") if expected else (exitcodes.SHORT, "untested"))


def test_a_campaign_never_takes_a_result_the_client_already_holds_for_its_shard():
    """A task's key named its shard and its work object, so a campaign on a client that still
    held a result under that key (an earlier campaign's, released but not yet forgotten)
    got it back without running — seen in benchmarks/bench_shards.py as a 0.03 s campaign.
    Here a result is held under exactly that key on purpose: the campaign runs its own."""
    from distributed import Client, LocalCluster

    def work(shard):
        return {"programs": shard.stop - shard.start}

    shards = exhaustive_shards({1: 5, 3: 155}, per_shard=50)
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None) as cluster, Client(cluster) as client:
        held = [client.submit(lambda: {"programs": 999}, key=f"goi-{shard.key}-{id(work)}", pure=False) for shard in shards]
        client.gather(held)
        results = run_campaign(shards, work, client=client)
        assert sum(r["programs"] for r in results.values()) == 160  # not 999 a shard


def test_a_campaign_counts_the_cpu_time_of_every_process_that_worked_for_it():
    """Issue 53, item 6: a campaign says what it cost in CPU time — this process alone when it
    runs here; on a LocalCluster started for it, its workers' time too (from their start:
    their imports are the campaign's cost) — and says it on standard error with the plan."""
    from goi.campaigns.runner import Campaign

    shards, work, _ = campaign()
    shards = shards[3:5]  # a thousand programs of size 5
    said = []
    here = Campaign("exhaustive", shards, work, 1000, {}, warn=said.append)
    here.run(progress=lambda *_: None)
    assert here.cpu.workers == 0 and here.cpu.scheduler is None and here.cpu.left == 0
    assert here.cpu.total == here.cpu.here > 0  # a thousand programs cost some CPU time, on any machine
    assert said[-1].startswith("[goi] exhaustive: CPU time ") and "this process" in said[-1]
    local = Campaign("exhaustive", shards, work, 1000, {}, cluster="local", warn=said.append)
    from goi.campaigns.cpu import process_cpu

    before = process_cpu()
    local.run(progress=lambda *_: None)
    spent = process_cpu() - before  # this process and its finished children: the closed cluster's workers among them
    assert local.cpu.workers > 0 and local.cpu.total == local.cpu.here + local.cpu.workers
    # each worker counted once: as a worker, not again as a child of this process once it finished
    # (a size-8 campaign had said 3,734 CPU-s where the process tree spent 1,907)
    assert local.cpu.total <= spent + 0.01, (local.cpu.to_json(), spent)
    assert local.cpu.to_json()["workers"] == round(local.cpu.workers, 3) and "workers " in said[-1]
