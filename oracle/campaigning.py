"""Oracle mode as a campaign (docs/CAMPAIGNS.md): every program up to a size, or a survey
divided into seeded shards — the campaign kinds `goi.oracle:exhaustive` and
`goi.oracle:shards` (goi/campaigns/kinds.py) — run through the campaign runner
(goi.campaigns), each shard's record checked before it is counted."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, replace
from fractions import Fraction

from goi.campaigns.kinds import Options, Plan, declare, run
from goi.campaigns.runner import (check_division, exhaustive_counts, exhaustive_shards, seed_shards,
                                  space_fields)

from .cases import Case, OracleConfig, Report, Shrunk
from .classification import AGREE, BEYOND, CLASSES, FAILURES


class Campaigning:
    """Exhaustive and divided runs."""

    def space(self):
        """The enumeration's space for this target: its fragment, signed or not as drawn."""
        from goi.generators.enumerate import Space

        f = self.fragment
        whole, unsigned = f["integers"], f["non_negative"]
        third = (Fraction(2) if unsigned else Fraction(-1)) if whole else (Fraction(1, 2) if unsigned else Fraction(-1, 2))
        constants = (Fraction(0), Fraction(1), third)
        provisionals = (Fraction(1), third) if f["provisional"] else ()
        return Space(constants=constants, provisionals=provisionals, iterated=f["iterated"], division=f["division"],
                     vector_ops=f["vector_ops"], decoupling_values=f["decoupling_values"], decoupling=f["decoupling"],
                     signed=f["signed"], operators=f["operators"])

    def campaign(self, report: Report) -> None:
        """This run as the campaign its configuration asks for (`--exhaustive N`, or `--shards K`),
        its findings in `report`."""
        c = self.config
        if c.printer is not None:
            raise ValueError("a campaign prints with goi's notations (not --printer)")
        options = Options(cluster=c.cluster, checkpoint=c.checkpoint, resume=c.resume, max_programs=c.max_campaign,
                          max_estimate=c.max_estimate, wait=c.cluster_wait)
        kind = "goi.oracle:exhaustive" if c.exhaustive is not None else "goi.oracle:shards"
        report.cpu_seconds = run(kind, OracleRun(self, report), options, warn=self.warn).cpu.to_json()


@dataclass(frozen=True)
class OracleRun:
    """What an oracle campaign is asked for: the Oracle (its configuration, its classification
    and shrinkers) and the report its findings go to."""

    oracle: object
    report: Report


def _gather(report: Report, plan: Plan, results: list, first_key) -> tuple[dict, dict]:
    """The shards' counts into the report; per signature, its first failure (in shard order,
    then as the shard listed it) with `first_key(shard, failure)`, and how many failed so."""
    firsts: dict = {}
    counts: dict = {}
    for shard, r in zip(plan.shards, results):
        report.skipped += r["skipped"]
        report.duplicates += r.get("duplicates", 0)
        for k, n in r["counts"].items():
            report.counts[k] += n
        for f in r["failures"]:
            counts[f["signature"]] = counts.get(f["signature"], 0) + 1
            firsts.setdefault(f["signature"], (first_key(shard, f), f))
    report.programs = sum(report.counts.values())
    return firsts, counts


@declare("exhaustive", label="oracle exhaustive")
class ExhaustiveOracle:
    """Every program of size ≤ N, each bucket's first in size-and-index order its smallest: no shrinking is needed."""

    def plan(self, request: OracleRun, options) -> Plan:
        from goi.generators.enumerate import Enumeration

        oracle, c = request.oracle, request.oracle.config
        space = oracle.space()
        shards = exhaustive_shards(exhaustive_counts(Enumeration(space), c.exhaustive, options.limit))
        work = OracleWork(replace(c, exhaustive=None, cluster=None, checkpoint=None, database=None, corpus=False,
                                  printer=None), asdict(space), type(oracle))
        return Plan(shards, work, sum(s.stop - s.start for s in shards),
                    {"command": "oracle", "implementation": c.command, "notation": c.notation,
                     "fragments": sorted(c.all_fragments), "bound": c.exhaustive, "space": space_fields(space)},
                    timed=True, large=True)

    def merge(self, request: OracleRun, plan: Plan, results: list) -> Report:
        oracle, report = request.oracle, request.report
        firsts, counts = _gather(report, plan, results, lambda shard, f: (f["size"], f["index"]))
        report.exhaustive = {"bound": oracle.config.exhaustive, "programs": report.programs, "of": plan.programs,
                             "shards": len(plan.shards)}
        firsts = oracle.set_aside(report, firsts, counts.__getitem__)
        for sig in sorted(firsts, key=lambda sig: firsts[sig][0]):
            (size, index), f = firsts[sig]
            case = oracle.classify(f["text"]) or Case(f["text"], f["class"])
            case = replace(case, origin=f"size {size}, index {index}")
            report.shrunk[sig] = Shrunk(case, -1, counts[sig], 0.0, 0.0, 0, True, sig, case)
        return report


@declare("shards", label="oracle campaign")
class DividedSurvey:
    """The survey divided into shards, a seed each; each bucket's first program (lowest seed, then first drawn) reduced once, here."""

    def plan(self, request: OracleRun, options) -> Plan:
        oracle, c = request.oracle, request.oracle.config
        count = c.shards or 1
        check_division(count, "--shards", most=c.max_programs, of=f"the {c.max_programs:,} programs to share")
        per_shard = max(1, math.ceil(c.max_programs / count))
        work = SurveyWork(replace(c, shards=None, cluster=None, checkpoint=None, database=None, corpus=False,
                                  max_programs=per_shard, printer=None), type(oracle))
        return Plan(seed_shards(c.seed, count), work, per_shard * count,
                    {"command": "oracle", "implementation": c.command, "notation": c.notation,
                     "fragments": sorted(c.all_fragments), "programs": per_shard, "seeds": [c.seed, c.seed + count]})

    def merge(self, request: OracleRun, plan: Plan, results: list) -> Report:
        """Failures bucketed over all shards; each bucket's first program reduced once
        (oracle/reduction.py), keeping its signature."""
        oracle, report = request.oracle, request.report
        firsts, counts = _gather(report, plan, results, lambda shard, f: shard.start)
        firsts = oracle.set_aside(report, firsts, counts.__getitem__)
        for sig in sorted(firsts, key=lambda sig: (-counts[sig], firsts[sig][0])):
            seed_, f = firsts[sig]
            case = oracle.classify(f["text"])
            if case is None or case.signature != sig:  # it no longer fails so (a flaky implementation)
                continue
            reduced, seconds, calls, complete = oracle.shrinker(sig).reduced(case)
            report.shrunk[sig] = Shrunk(reduced, f["index"], counts[sig], f["seconds"], seconds, calls, complete, sig,
                                        replace(case, origin=f"seed {seed_}"))
        return report


@dataclass(frozen=True)
class OracleWork:
    """One shard of an exhaustive oracle run: every program of the range, printed, run by the
    implementation and classified (a session of its own per shard)."""

    config: OracleConfig
    space: dict
    oracle: type  # the Oracle class (pickled by name: the worker imports it)

    def __call__(self, shard) -> dict:
        from goi.generators.enumerate import Enumeration, Space

        oracle = self.oracle(self.config)
        counts = {k: 0 for k in CLASSES}
        failures, skipped = [], 0
        try:
            enumeration = Enumeration(Space(**self.space))
            for index, term in zip(range(shard.start, shard.stop), enumeration.programs(shard.size, shard.start, shard.stop)):
                text = oracle.text_of(term)
                if text is None:
                    skipped += 1
                    continue
                case = oracle.classify(text)
                assert case is not None
                if case.klass == BEYOND:  # goi's own budget: no expected outcome, not sent
                    skipped += 1
                    continue
                counts[case.klass] += 1
                if case.klass != AGREE:
                    failures.append({"size": shard.size, "index": index, "text": text, "class": case.klass,
                                     "signature": case.signature})
        finally:
            oracle.close()
        return {"programs": shard.stop - shard.start, "counts": counts, "failures": failures, "skipped": skipped}

    def check_result(self, shard, result: dict) -> None:
        """A recorded result this shard could have given (goi/campaigns/checkpoint.py)."""
        from goi.campaigns.checkpoint import need, programs_of_range, whole

        programs = programs_of_range(shard, result)
        counts = _checked_counts(shard, result)
        need(whole(result.get("skipped")) and sum(counts.values()) + result["skipped"] == programs,
             f"shard {shard.key}: its classes and skipped programs are not its {programs} programs")
        failures = _checked_failures(shard, result, counts)
        need(all(f.get("size") == shard.size and whole(f.get("index")) and shard.start <= f["index"] < shard.stop
                 for f in failures), f"shard {shard.key}: a failure that is not one of its programs")


@dataclass(frozen=True)
class SurveyWork:
    """One shard of a divided survey: the survey from the shard's seed, its failures as drawn
    (not shrunk: the campaign reduces each bucket once)."""

    config: OracleConfig
    oracle: type  # the Oracle class (pickled by name: the worker imports it)

    def __call__(self, shard) -> dict:
        oracle = self.oracle(replace(self.config, seed=shard.start))
        report = Report(oracle.config)
        try:
            drawn = oracle.survey(report)
        finally:
            oracle.close()
        cases = [oracle.cache[text] for _, text in drawn]
        counts = {k: 0 for k in CLASSES}
        for case in cases:
            counts[case.klass] += 1
        failures = [{"text": case.text, "class": case.klass, "signature": case.signature, "index": i,
                     "seconds": round(case.seconds, 3)} for i, case in enumerate(cases) if case.klass != AGREE]
        return {"programs": len(cases), "counts": counts, "failures": failures,
                "skipped": report.skipped + report.beyond_budget,
                "duplicates": report.duplicates}

    def check_result(self, shard, result: dict) -> None:
        """A recorded result this shard could have given (goi/campaigns/checkpoint.py)."""
        from goi.campaigns.checkpoint import need, whole

        need(result["programs"] <= self.config.max_programs,
             f"shard {shard.key}: {result['programs']} programs, more than its {self.config.max_programs}")
        counts = _checked_counts(shard, result)
        need(sum(counts.values()) == result["programs"], f"shard {shard.key}: its classes are not its programs")
        need(whole(result.get("skipped")) and whole(result.get("duplicates")), f"shard {shard.key}: bad skipped/duplicates")
        failures = _checked_failures(shard, result, counts)
        need(all(whole(f.get("index")) and f["index"] < result["programs"]
                 and isinstance(f.get("seconds"), (int, float)) for f in failures),
             f"shard {shard.key}: a failure that is not one of its programs")


def _checked_counts(shard, result: dict) -> dict:
    from goi.campaigns.checkpoint import counts_of, need

    counts = counts_of(result, "counts", CLASSES)
    need(set(result["counts"]) == set(CLASSES), f"shard {shard.key}: not a count per class")
    return counts


def _checked_failures(shard, result: dict, counts: dict) -> list:
    from goi.campaigns.checkpoint import list_of_objects, need

    failures = list_of_objects(result, "failures")
    need(all(isinstance(f.get("text"), str) and f.get("class") in FAILURES and isinstance(f.get("signature"), str)
             for f in failures), f"shard {shard.key}: a failure that is not one goi writes")
    need(len(failures) == sum(counts[k] for k in FAILURES), f"shard {shard.key}: its failures are not its failing programs")
    return failures
