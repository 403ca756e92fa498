"""Exhaustive campaigns: programs per size, programs per second with 1 and 2 local Dask workers
(scaling efficiency), the largest size checked completely within a time budget, and that
projected to more cores from the measured cost per program (issue 32; not a test).

    python benchmarks/bench_campaign.py [--properties soundness,invariants,…] [--profile deep]
        [--rate-bound 5] [--budget-seconds 600] [--cores 64]
"""

from __future__ import annotations

import argparse
import dataclasses
import time

from goi.generators.enumerate import Enumeration, Space
from goi.properties.campaign import PropsWork, exhaustive_properties, merge
from goi.campaigns.runner import Shard, exhaustive_shards, run_campaign


def timed(shards, work, cluster=None) -> tuple[float, dict]:
    started = time.perf_counter()
    results = run_campaign(shards, work, cluster=cluster)
    return time.perf_counter() - started, results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--properties", default="soundness,invariants")
    parser.add_argument("--profile", default="deep", help="the checks' thoroughness (deep: every check after every step)")
    parser.add_argument("--rate-bound", type=int, default=5, help="the campaign whose rate is measured: sizes ≤ this")
    parser.add_argument("--budget-seconds", type=float, default=600.0)
    parser.add_argument("--cores", type=int, default=64)
    parser.add_argument("--sample", type=int, default=300, help="programs sampled per size for the cost per program")
    parser.add_argument("--upto", type=int, default=8, help="the largest size sampled")
    args = parser.parse_args()
    names = tuple(exhaustive_properties(args.properties.split(",")))
    enumeration = Enumeration()
    print("| size | programs | up to this size |\n|---:|---:|---:|")
    for n in range(1, 11):
        print(f"| {n} | {enumeration.count(n):,} | {enumeration.count_upto(n):,} |")
    work = PropsWork(names, args.profile, dataclasses.asdict(Space()))
    shards = exhaustive_shards({n: enumeration.count(n) for n in range(1, args.rate_bound + 1)}, per_shard=200)
    total = enumeration.count_upto(args.rate_bound)
    serial, _ = timed(shards, work)
    rows = [("in process", serial)]
    for workers in (1, 2):
        from distributed import Client, LocalCluster

        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                          dashboard_address=None) as cluster, Client(cluster) as client:
            client.wait_for_workers(workers)
            started = time.perf_counter()
            results = run_campaign(shards, work, client=client)
            seconds = time.perf_counter() - started
            assert merge(results.values(), names)["programs"] == total
            rows.append((f"{workers} local worker{'s' if workers > 1 else ''}", seconds))
    print(f"\n{', '.join(names)} ({args.profile} checks) on all {total:,} programs of size ≤ {args.rate_bound}:\n")
    print("| where | seconds | programs/s | efficiency |\n|---|---:|---:|---:|")
    one = rows[1][1]
    for label, seconds in rows:
        workers = 2 if label.startswith("2") else 1
        print(f"| {label} | {seconds:.1f} | {total / seconds:,.0f} | "
              f"{(one / seconds) / workers:.0%} |" if "worker" in label else f"| {label} | {seconds:.1f} | {total / seconds:,.0f} | — |")
    # the cost per program grows with size: measured per size on a sample, then the largest N
    # whose every program fits the budget on 2 cores, and on `cores`
    per_program = {}
    for n in range(1, args.upto + 1):
        count = enumeration.count(n)
        if not count:
            per_program[n] = 0.0
            continue
        sample = min(count, args.sample)
        step = max(1, count // sample)
        indices = list(range(0, count, step))[:sample]
        started = time.perf_counter()
        for i in indices:
            work(Shard(n, i, i + 1))
        per_program[n] = (time.perf_counter() - started) / len(indices)
    efficiency = (rows[1][1] / rows[2][1]) / 2
    print("\n| size | seconds per program (one core) | all programs ≤ size, 2 cores | on "
          f"{args.cores} cores |\n|---:|---:|---:|---:|")
    cumulative = 0.0
    for n in range(1, args.upto + 1):
        cumulative += per_program[n] * enumeration.count(n)
        two = cumulative / (2 * efficiency)
        many = cumulative / (args.cores * efficiency)
        print(f"| {n} | {per_program[n] * 1000:.2f} ms | {two:,.0f} s | {many:,.0f} s |")
    fits = [n for n in range(1, args.upto + 1)
            if sum(per_program[k] * enumeration.count(k) for k in range(1, n + 1)) / (2 * efficiency) <= args.budget_seconds]
    print(f"\nbudget {args.budget_seconds:.0f} s; efficiency of 2 workers {efficiency:.0%} (used for the projection); "
          f"largest size whose every program fits the budget on 2 cores (projected): {max(fits) if fits else 0}")


if __name__ == "__main__":
    main()
