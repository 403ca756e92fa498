"""Campaign kinds are declarations (goi/campaigns/kinds.py): a toy kind, declared in a module
of a package of its own, is found by the collector and run by the one runner — planned,
checkpointed, resumed, merged — with nothing else written for it; and the kinds goi's
commands run are found the same way."""

from __future__ import annotations

import json
import sys
import textwrap

import pytest

from goi.campaigns import kinds
from goi.campaigns.faults import CheckpointRefused
from goi.campaigns.kinds import CampaignUsage, Options, UnknownKind

TOY = '''
"""A toy campaign kind: the multiples of `every` below `below`, counted in shards."""

from dataclasses import dataclass

from goi.campaigns.kinds import Plan, declare
from goi.campaigns.runner import Shard

CALLS = []  # the shards worked on, in this process


@dataclass(frozen=True)
class Count:
    every: int

    def __call__(self, shard):
        CALLS.append(shard.key)
        found = [n for n in range(shard.start, shard.stop) if n % self.every == 0]
        return {"programs": shard.stop - shard.start, "found": found}


@declare("multiples", label="multiples")
class Multiples:
    """The multiples of a number below a bound, a shard per ten numbers."""

    def plan(self, request, options):
        every, below = request
        shards = [Shard(1, start, min(start + 10, below)) for start in range(0, below, 10)]
        return Plan(shards, Count(every), below, {"command": "toy", "every": every, "below": below}, unit="numbers")

    def merge(self, request, plan, results):
        return [n for r in results for n in r["found"]]
'''


@pytest.fixture
def toy(tmp_path, monkeypatch):
    package = tmp_path / "toy_campaigns"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "counting.py").write_text(textwrap.dedent(TOY))
    monkeypatch.syspath_prepend(str(tmp_path))
    kinds.kinds.cache_clear()
    yield package
    kinds.kinds.cache_clear()
    for name in [m for m in sys.modules if m.startswith("toy_campaigns")]:
        del sys.modules[name]


def test_a_kind_declared_in_a_module_of_its_package_is_found_and_run(toy):
    found = kinds.kinds("toy_campaigns")
    assert list(found) == ["multiples"]
    assert found["multiples"].summary == "The multiples of a number below a bound, a shard per ten numbers."
    lines = []
    outcome = kinds.run("toy_campaigns:multiples", (7, 45), warn=lines.append)
    assert outcome.merged == [0, 7, 14, 21, 28, 35, 42]  # the multiples of 7 below 45, written out by hand
    assert [s.key for s in outcome.plan.shards] == ["1:0-10", "1:10-20", "1:20-30", "1:30-40", "1:40-45"]
    assert lines[0] == "[goi] multiples: 45 numbers in 5 shards"
    assert outcome.cpu is not None and outcome.cluster is None


def test_a_kind_is_checkpointed_and_resumed_by_the_runner_with_nothing_of_its_own(toy, tmp_path):
    checkpoint = str(tmp_path / "toy.ckpt")
    first = kinds.run("toy_campaigns:multiples", (4, 30), Options(checkpoint=checkpoint))
    records = [json.loads(line) for line in open(checkpoint, encoding="utf-8")]
    assert len(records) == 1 + 3  # its description, then one record per shard
    calls = sys.modules["toy_campaigns.counting"].CALLS
    calls.clear()
    again = kinds.run("toy_campaigns:multiples", (4, 30), Options(checkpoint=checkpoint, resume=True))
    assert calls == []  # every shard was in the checkpoint: none is worked on again
    assert again.merged == first.merged == [0, 4, 8, 12, 16, 20, 24, 28]
    with pytest.raises(CheckpointRefused):  # a checkpoint of another campaign (another number) is refused
        kinds.run("toy_campaigns:multiples", (5, 30), Options(checkpoint=checkpoint, resume=True))


def test_the_campaign_options_are_checked_in_one_place():
    with pytest.raises(CampaignUsage, match="--resume needs --checkpoint"):
        Options(resume=True)
    bounded = Options.bounded(500)
    assert (bounded.limit, bounded.estimate_limit) == (500, None)  # a bound of the user's own lifts the estimate's
    from goi.campaigns import runner

    assert (Options().limit, Options().estimate_limit) == (runner.MAX_PROGRAMS, runner.MAX_ESTIMATE)


def test_a_kind_is_refused_when_unknown_declared_twice_or_incomplete(toy):
    with pytest.raises(UnknownKind, match="toy_campaigns declares multiples"):
        kinds.kind("toy_campaigns:nothing")
    with pytest.raises(UnknownKind, match="package:name"):
        kinds.kind("multiples")
    (toy / "again.py").write_text(textwrap.dedent(TOY))
    kinds.kinds.cache_clear()
    with pytest.raises(ValueError, match="multiples declared twice"):
        kinds.kinds("toy_campaigns")
    with pytest.raises(TypeError, match="no merge"):
        @kinds.declare("half", label="half")
        class Half:
            """Only a plan."""

            def plan(self, request, options):
                return None


def test_a_module_named_private_is_not_imported_by_the_collector_and_declares_nothing(toy):
    """goi/declarations.py: `_…` modules are their package's own business (properties/_shards.py
    keeps the campaign works out of every `goi props`' property scan)."""
    (toy / "_private.py").write_text(textwrap.dedent(TOY).replace('"multiples"', '"private"'))
    kinds.kinds.cache_clear()
    assert sorted(kinds.kinds("toy_campaigns")) == ["multiples"]
    assert "toy_campaigns._private" not in sys.modules and "toy_campaigns.counting" in sys.modules


def test_the_commands_kinds_are_declarations_found_by_the_collector():
    declared = {package: sorted(kinds.kinds(package)) for package in ("goi.properties", "goi.laws", "goi.oracle")}
    assert declared == {"goi.properties": ["exhaustive", "random"], "goi.laws": ["exhaustive"],
                        "goi.oracle": ["exhaustive", "shards"]}
