"""Check `stability`: the state is stable (Def. "Stable executions/states";
Prop. "Stability of executions"): a stable execution — one that never changes the graph —
leads from Init of the *current* graph to exactly the current state.

It is checked by replay: a scratch token starts at Init on the current graph and follows
the machine's transitions as long as they do not change the graph (passes, rw.op.keep,
box.close, copy.pass); the state is stable iff the current state (position, direction,
flag, computation stack, box stack) is met. A transition that keeps the graph keeps a
stable state stable (its stable execution is extended by that transition), so only
graph-changing transitions need a replay.

Policy: a replay costs O(length of the stable execution), so checking every rewrite is
quadratic over a run. `mode="exhaustive"` replays after every graph-changing transition;
the default `mode="sampled"` replays after the graph-changing transitions numbered 1..16
and then at powers of two (32, 64, 128, …), and on the final state: O(n log n) over a run.
"""

from __future__ import annotations

from ..token import NONE_FLAG, Token
from .base import Check, changes_graph, declare


def _same_state(t1: Token, t2: Token) -> bool:
    return (
        t1.position is t2.position
        and t1.direction == t2.direction
        and t1.flag == t2.flag
        and len(t1.stack) == len(t2.stack)
        and all(a is b or a == b for a, b in zip(t1.stack, t2.stack))
        and len(t1.box_stack) == len(t2.box_stack)
        and all(a is b for a, b in zip(t1.box_stack, t2.box_stack))
    )


def stable_replay(machine, bound: int) -> tuple[bool, str]:
    """Replay the stable execution from Init of the current graph; (reached, why not)."""
    from ..machine import Machine

    scratch = Machine(machine.graph, machine.field, rules=machine.rules)
    target, token = machine.token, scratch.token
    # the scratch machine's `enabled` and `apply`, without their bookkeeping (no observer, no
    # counts: only the token matters); two rewrites listed are enough to see a choice
    rules = scratch.rules
    by_id, pass_candidate, redexes = rules.by_id, rules.pass_candidate, rules.redexes
    for _ in range(bound):
        if _same_state(token, target):
            return True, ""
        if token.flag == NONE_FLAG:
            found = pass_candidate(scratch)
            options = [] if found is None else [found]
        else:
            options = redexes(scratch, 2)
        if not options:
            return False, f"the stable execution stops ({scratch.describe()}) before reaching the current state"
        rule_id, redex = options[0]
        if by_id[rule_id].changes_graph or len(options) > 1:
            return False, f"the stable execution would need {rule_id} (which changes the graph) at {scratch.describe()}"
        by_id[rule_id].apply(scratch, *redex)
    return False, f"the current state was not reached within {bound} stable transitions"


@declare
class Stability(Check):
    """The state is stable: a graph-keeping execution from Init of the current graph reaches it."""

    name = "stability"
    order = 50
    implements = "Def. C.1 \"Stable executions/states\"; Props. C.4, C.7 \"Stability of executions\""
    values = "compares: the state with its stable replay's, computation stacks (values) included"
    options = ("stability_mode",)

    def __init__(self, stability_mode: str = "sampled"):
        if stability_mode not in ("sampled", "exhaustive"):
            raise ValueError("stability_mode is sampled or exhaustive")
        self.mode = stability_mode
        self.rewrites = 0
        self.replays = 0

    def _due(self) -> bool:
        k = self.rewrites
        return self.mode == "exhaustive" or k <= 16 or (k & (k - 1)) == 0

    on_passes = False  # a pass extends the stable execution: nothing to replay

    def after(self, machine, rule_id, redex) -> None:
        if not changes_graph(machine.rules, rule_id):
            return
        self.rewrites += 1
        if self._due():
            self._check(machine)

    def at_end(self, machine, outcome) -> None:
        if outcome.status == "final":
            self._check(machine)

    def _check(self, machine) -> None:
        self.replays += 1
        reached, why = stable_replay(machine, 4 * machine.steps + 1000)
        if not reached:
            raise self.fail(f"unstable state: {why}")
