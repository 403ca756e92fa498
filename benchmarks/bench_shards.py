"""What a shard costs to schedule (issue 41, item 5): one exhaustive campaign run in this
process and on 1 and 2 local Dask workers (started and warmed before the clock), at several
shard sizes. Not a test; figures only.

    python benchmarks/bench_shards.py [--properties soundness] [--profile ci] [--bound 5]
        [--concrete] [--sizes 50,100,200,400,800,1600] [--repeat 2]

For each shard size: seconds in process (best of --repeat), on one worker and on two, the
scheduling overhead per shard on one worker ((one worker − in process) / shards), and that
overhead as a share of a shard's own work (in process / shards): the issue asks < 10 %.
"""

from __future__ import annotations

import argparse
import dataclasses

from bench_startup import best
from goi.campaigns.runner import exhaustive_shards, run_campaign
from goi.generators.enumerate import Enumeration, Space
from goi.generators.shapes import shape_space
from goi.properties.campaign import PropsWork, merge


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--properties", default="soundness")
    ap.add_argument("--profile", default="ci")
    ap.add_argument("--bound", type=int, default=5)
    ap.add_argument("--concrete", action="store_true", help="programs over the five constants instead of shapes")
    ap.add_argument("--sizes", default="50,100,200,400,800,1600")
    ap.add_argument("--repeat", type=int, default=2)
    args = ap.parse_args()
    space = Space() if args.concrete else shape_space(Space())
    names = tuple(args.properties.split(","))
    work = PropsWork(names, args.profile, dataclasses.asdict(space), not args.concrete)
    enumeration = Enumeration(space)
    counts = {n: enumeration.count(n) for n in range(1, args.bound + 1)}
    total = sum(counts.values())
    from distributed import Client, LocalCluster

    clusters = {}
    try:
        for workers in (1, 2):
            cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                                   dashboard_address=None)
            client = Client(cluster)
            client.wait_for_workers(workers)
            run_campaign(exhaustive_shards({1: counts[1]}, per_shard=1), work, client=client)  # warm: imports
            clusters[workers] = (cluster, client)
        print(f"{', '.join(names)} ({args.profile}) on {total:,} {'programs' if args.concrete else 'shapes'} of size "
              f"≤ {args.bound}, best of {args.repeat}\n")
        print("| per shard | shards | in process s | 1 worker s | 2 workers s | overhead per shard ms | "
              "share of a shard's work | 2-worker efficiency |\n|---:|---:|---:|---:|---:|---:|---:|---:|")
        for per in map(int, args.sizes.split(",")):
            shards = exhaustive_shards(counts, per_shard=per)
            here = best(lambda: run_campaign(shards, work), args.repeat)
            on = {}
            for workers, (_cluster, client) in clusters.items():
                def go(client=client):
                    results = run_campaign(shards, work, client=client)
                    assert merge(results.values(), names)["programs"] == total
                on[workers] = best(go, args.repeat)
            per_shard = (on[1] - here) / len(shards)
            share = per_shard / (here / len(shards))
            print(f"| {per} | {len(shards)} | {here:.2f} | {on[1]:.2f} | {on[2]:.2f} | {per_shard * 1e3:.1f} | "
                  f"{share:.0%} | {on[1] / on[2] / 2:.0%} |", flush=True)
    finally:
        for cluster, client in clusters.values():
            client.close()
            cluster.close()


if __name__ == "__main__":
    main()
