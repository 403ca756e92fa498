"""How often the survey's draw shows each planted bug of the zoo, stage by stage (issue 51; not
a test). Far cheaper and steadier than bench_bugfinding.py, which runs whole surveys and
shrinks: this one measures only the draw, the part a change of the generator moves.

For each implementation of bench_bugfinding.py's zoo, each survey stage's strategy (the
oracle's own, at the default settings: its depth, fragment, notation and search) draws
`--programs` examples under each of `--seeds` seeds; the distinct programs the notation can
write are then put to the implementation with one planted bug on at a time. Printed per bug
and stage: the programs that fail (any class but agreement), of the distinct programs drawn,
and the expected number of failing programs in one default survey (each stage's share times
its programs). A bug whose expected number is low is one a seed can miss.

    python benchmarks/bench_draw.py [--only NAME,…] [--programs 300] [--seeds 2] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_bugfinding import IMPLEMENTATIONS, config  # noqa: E402


def drawn(impl, programs: int, seeds: int) -> list[list[str]]:
    """The distinct texts each stage's strategy draws (Hypothesis, seeded, generation only)."""
    from hypothesis import HealthCheck, Phase, given, seed, settings

    from goi.oracle import Oracle

    oracle = Oracle(config(impl, 0, None, True))
    try:
        stages = []
        for stage in range(len(oracle.stages())):
            texts: dict[str, None] = {}

            @settings(max_examples=programs, database=None, phases=[Phase.generate], deadline=None,
                      suppress_health_check=list(HealthCheck))
            @given(oracle.strategy(stage))
            def draw(term):
                text = oracle.text_of(term)
                if text is not None:
                    texts.setdefault(text)

            for s in range(seeds):
                seed(s * 7 + stage)(draw)()
            stages.append(list(texts))
        return stages, oracle.stages()
    finally:
        oracle.close()


def failing(impl, bug: str, texts: list[str]) -> int:
    from goi.oracle import AGREE, Oracle
    from goi.oracle.classification import BEYOND

    os.environ["GOI_BUGS"] = bug
    oracle = Oracle(config(impl, 0, None, True))
    try:
        return sum(1 for t in texts if (c := oracle.classify(t)) is not None and c.klass not in (AGREE, BEYOND))
    finally:
        oracle.close()
        os.environ.pop("GOI_BUGS", None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="implementations, comma-separated")
    parser.add_argument("--programs", type=int, default=300, help="examples drawn per stage and seed")
    parser.add_argument("--seeds", type=int, default=2)
    parser.add_argument("--json", help="also write the rows to this file")
    args = parser.parse_args()
    only = set(args.only.split(",")) if args.only else None
    rows = []
    print("| implementation | bug | " + " | ".join(f"stage {i}" for i in range(3)) + " | expected in a survey |")
    print("|---|---|---|---|---|---|")
    for impl in IMPLEMENTATIONS:
        if only and impl.name not in only:
            continue
        stages, plan = drawn(impl, args.programs, args.seeds)
        for bug in impl.bugs:
            counts = [failing(impl, bug, texts) for texts in stages]
            shares = [n / max(1, len(texts)) for n, texts in zip(counts, stages)]
            expected = sum(share * programs for share, (_, programs) in zip(shares, plan))
            rows.append({"implementation": impl.name, "bug": bug, "failing": counts,
                         "drawn": [len(t) for t in stages], "expected": round(expected, 1)})
            cells = " | ".join(f"{n}/{len(t)} ({s:.1%})" for n, t, s in zip(counts, stages, shares))
            print(f"| {impl.name} | {bug} | {cells} | {expected:.1f} |", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps({"programs": args.programs, "seeds": args.seeds, "rows": rows},
                                              indent=1) + "\n")


if __name__ == "__main__":
    main()
