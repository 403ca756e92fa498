"""Open findings of the deep run (2026-11-21), kept as strict expected failures: each test
states what should hold and fails today; when the machine (or the check) is fixed, it
passes, xfail(strict=True) turns that into a failure, and the marker must go.

- gc_pass_sequence.goi: with and without garbage collection the value is the same (0), but
  the run with GC passes one provisional contraction fewer (pass transition 166: `pass.pbang.up`
  against `pass.pcon.up`). Either the `gc` check's notion of observable behaviour is
  stricter than the paper's bisimulation (which relates states up to the collected part), or
  a GC rule changes live structure.
- determinism_final_states.goi: the first strategy and a random one (seed 108) reach the same
  value in the same 2296 steps, but their final graphs (3257 nodes) are judged
  non-isomorphic by the canonical form; not yet confirmed by VF2 (too slow at this size).
"""

from pathlib import Path

import pytest

import goi
from goi.properties import determinism
from goi.properties.profiles import config

FINDINGS = Path(__file__).parent / "findings"
OPEN = pytest.mark.xfail(strict=True, reason="open finding of the deep run, 2026-11-21 (see the module docstring)")


@OPEN
def test_gc_keeps_the_observable_token_behaviour_on_the_deep_run_finding():
    result = goi.run((FINDINGS / "gc_pass_sequence.goi").read_text(encoding="utf-8"), checks=["gc"], gc=True)
    assert result.status == "final", result.reason


@OPEN
def test_two_strategies_reach_isomorphic_final_states_on_the_deep_run_finding():
    program = goi.check((FINDINGS / "determinism_final_states.goi").read_text(encoding="utf-8")).surface
    determinism(program, config("ci"), seed=108)
