"""The step-through view's recorder (`goi view`, `goi.view`, the browser playground; the page
is reports/view.py's, which declares its budgets): a run of the literal machine, every
transition recorded as the page shows it — its rule, the token's link, direction, rewriting
flag, computation stack and box stack, and the source span of the term the token's link
belongs to.

Passes only move the token, so a picture of the graph (laid out by Graphviz) is drawn at the
start and after each rewrite that changed the graph: after every one when the run changes
its graph at most `every_change_up_to` times (by default: a picture at every step, as the
authors' visualiser has), else at most `max_frames` of them spread over the run; each step
shows the latest picture at or before it, with the token's link highlighted. The spread is
planned from the number of the run's changes, which a first run of the machine counts
(`graph_changes`, unwatched): keeping the graph at every change instead, to run once, costs
more than that run (benchmarks/README.md, "goi view"). The steps past the budget have no
picture, and the timeline says so. Nodes keep their place from one picture to the next
(reports/stable_layout.py); where Graphviz had to lay the graph out anew, the page says why
and animates the nodes to their new places.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Optional

from .escape import script_json

SHOWN_STACK = 20_000  # characters of one step's computation (or box) stack the page shows, at most


@dataclass
class Recording:
    """A run as the page shows it."""

    program: str
    steps: list = field(default_factory=list)  # one dict per transition (step 0: the initial state)
    frames: list = field(default_factory=list)  # SVG pictures (the page holds them packed: packed)
    packed: list = field(default_factory=list)  # per picture: its packed text, as the page holds it
    over_budget: int = 0  # pictures not drawn because the page's byte budget for pictures was spent
    relaid: list = field(default_factory=list)  # per picture: whether dot laid it out anew (else nodes kept their place)
    notes: list = field(default_factory=list)  # per picture: what its layout did, for people (StableLayout.note)
    unpictured: int = 0  # graph-changing steps past the picture budget
    checks: list = field(default_factory=list)  # the checks the run was watched by (--check), by name
    # per step: the indexes of the checks consulted on its state (the Monitor's runs); None
    # when sampled (a sampled check is consulted after every rewrite but looks only at some)
    consulted: Optional[list] = None
    result: object = None
    # the steps past the recording budget: None when every step is recorded, else
    # {"first": n, "last": n, "count": k, "rules": {rule: count}, "graph_changes": k, "why": text}
    unrecorded: Optional[dict] = None


@dataclass(frozen=True)
class Budgets:
    """What the page allows a run (reports/view.py declares it): the pictures — a picture after
    every change up to `every_change_up_to` changes, else `default_max_frames` spread over the
    run, and the `after_decoupling` steps after each decoupling pictured — and the page's bytes
    for the recorded steps, the pictures and the final state's picture; `progress_every`
    steps between two calls of the progress."""

    every_change_up_to: int
    default_max_frames: int
    after_decoupling: int
    step_bytes: int
    frame_bytes: int
    final_bytes: int
    progress_every: int


class Gap:
    """The steps past the recording budget: counted by rule, with the graph-changing ones,
    not recorded."""

    def __init__(self, first: int, why: str, version: int):
        self.first = self.last = first
        self.why, self.version = why, version  # the graph as the last step counted left it
        self.count, self.rules, self.graph_changes = 0, {}, 0
        self.final_rule: Optional[str] = None
        self.final_changed = False

    def step(self, number: int, rule: Optional[str], version: int) -> None:
        self.last, self.final_rule = number, rule
        self.count += 1
        self.rules[rule] = self.rules.get(rule, 0) + 1
        self.final_changed = version != self.version
        self.graph_changes += self.final_changed
        self.version = version

    def summary(self) -> Optional[dict]:
        """What the page says of the stretch, less its last step (the final state, recorded in
        full after it); None if that step was all of it."""
        rules = dict(self.rules)
        rules[self.final_rule] -= 1
        if self.count == 1:
            return None
        return {"first": self.first, "last": self.last - 1, "count": self.count - 1,
                "rules": {r: n for r, n in sorted(rules.items()) if n},
                "graph_changes": self.graph_changes - self.final_changed, "why": self.why}


class Pictures:
    """Which recorded steps have a picture — the budget spread over the run's graph changes,
    part of it kept for the steps after each decoupling, within the page's bytes for
    pictures — and their drawing, as the run goes."""

    def __init__(self, rec: Recording, graph, changes: int, decouplings: int, max_frames: Optional[int],
                 budgets: Budgets):
        from .stable_layout import StableLayout

        self.rec, self.graph, self.budgets = rec, graph, budgets
        self.layout = StableLayout()
        self.max_frames = (changes + 1 if changes <= budgets.every_change_up_to else budgets.default_max_frames) \
            if max_frames is None else max_frames
        # of a budget that cannot picture every change, up to a quarter is kept for the steps right
        # after each decoupling (where a reader looks hardest); the rest is spread evenly over the run
        self.reserve = 0 if changes < self.max_frames else min(self.max_frames // 4,
                                                               budgets.after_decoupling * decouplings)
        self.pictured = spread(changes, self.max_frames - self.reserve)
        self.changes = self.spread = self.near = self.near_left = self.bytes = 0
        self.drawn: Optional[int] = None  # the graph version of the last picture
        self.asked = graph.version  # the graph version of the last step looked at

    def frame(self, decoupling: bool) -> Optional[int]:
        """The picture a recorded step shows (an index of rec.frames), or None."""
        force = self._near_decoupling(decoupling, self.graph.version != self.asked)
        return self.picture(force)

    def _near_decoupling(self, decoupling: bool, changed: bool) -> bool:
        """A decoupling has its picture, and so have the AFTER_DECOUPLING steps after it while
        the part of the budget kept for them lasts (the spread leaves its gaps elsewhere)."""
        if decoupling:
            self.near_left = self.budgets.after_decoupling
            return True
        if self.near_left > 0:
            self.near_left -= 1
            if changed and self.near < self.reserve:
                self.near += 1
                return True
        return False

    def picture(self, force: bool = False, final: bool = False) -> Optional[int]:
        version = self.graph.version
        changed, self.asked = version != self.asked, version
        self.changes += changed
        if version == self.drawn:
            return len(self.rec.frames) - 1
        if not force and ((self.changes and not self.pictured(self.changes))
                          or self.spread >= self.max_frames - self.reserve):
            self.rec.unpictured += changed  # counted once per change of the graph, not per step
            return None
        if self.bytes >= self.budgets.frame_bytes and not final:  # spent: not even drawn
            return self._left_out(changed)
        svg, anew = self.layout.draw(self.graph)
        packed = _packed(svg)
        if self.bytes + len(packed) > self.budgets.frame_bytes + (self.budgets.final_bytes if final else 0):  # too much
            return self._left_out(changed)
        self.spread += not force
        self.bytes += len(packed)
        self.rec.frames.append(svg)
        self.rec.packed.append(packed)
        self.rec.relaid.append(anew)
        self.rec.notes.append(self.layout.note)
        self.drawn = version
        return len(self.rec.frames) - 1

    def _left_out(self, changed: bool) -> None:
        """The page's byte budget for pictures leaves this one out."""
        self.rec.unpictured += changed
        self.rec.over_budget += 1


class Recorder:
    """One run recorded for the page: the steps as they happen (`_step`; past the recording
    budget, counted in a `Gap`), each with its picture if it has one (`Pictures`, planned from
    the run's graph changes, which a first run counts: `graph_changes`)."""

    def __init__(self, program, max_frames: Optional[int], max_recorded_steps: int, budgets: Budgets,
                 progress: Optional[Callable], options: dict):
        from goi.execution import prepare
        from goi.semantics.rules import DECOUPLING

        self.decoupling = DECOUPLING
        self.program, self.options = program, options
        self.execution = prepare(program, **options)
        self.machine = self.execution.machine
        self.rec = Recording(self.execution.judgement.source)
        self.max_frames, self.max_recorded_steps, self.progress = max_frames, max_recorded_steps, progress
        self.budgets = budgets
        self.gap: Optional[Gap] = None
        self.step_bytes = 0  # what the recorded steps take of the page so far
        monitor = self.execution.monitor
        self.rec.checks = [c.name for c in monitor.checks] if monitor is not None else []
        self.per_step = 4 * len(self.rec.checks) + 4  # what a step's list of consulted checks may take of the page
        self.consulted_so_far: list = []  # per step: how many times each check had been consulted before that step's turn

    def run(self, max_steps: int) -> Recording:
        machine, rec = self.machine, self.rec
        # the picture budget is spread over the run's graph changes (a first run counts them);
        # the final state and every decoupling are pictured whatever the budget
        changes, decouplings = graph_changes(self.program, max_steps, self.max_recorded_steps, self.options)
        self.pictures = Pictures(rec, machine.graph, changes, decouplings, self.max_frames, self.budgets)
        self._step(0, None)
        # recorded before the checks look (they are called after it): a violating state is on the page
        machine.after.insert(0, lambda m, rule_id, redex: self._step(m.steps, rule_id))
        rec.result = self.execution.run(max_steps)
        if self.gap is not None:  # the final state: recorded in full after the stretch that was only counted
            rec.unrecorded = self.gap.summary()
            self._record(machine.steps, self.gap.final_rule)
        if rec.steps[-1]["frame"] is None:  # the final state has its picture, if it fits the page at all
            rec.unpictured -= 1
            rec.steps[-1]["frame"] = self._picture(final=True)
            rec.unpictured += rec.steps[-1]["frame"] is None
        # a step's state was seen by the checks consulted between it and the next step (the last
        # step's: until the run ended, their final looks; step 0's: their initial looks)
        self.consulted_so_far.append(self._runs())
        if self.options.get("check_mode", "exhaustive") != "sampled":
            pairs = zip(self.consulted_so_far, self.consulted_so_far[1:])
            rec.consulted = [[i for i, (a, b) in enumerate(zip(now, then)) if b > a] for now, then in pairs]
        return rec

    def _step(self, number: int, rule: Optional[str]) -> None:
        if self.gap is not None:
            self.gap.step(number, rule, self.machine.graph.version)
            return
        if len(self.rec.steps) >= self.max_recorded_steps or self.step_bytes > self.budgets.step_bytes:
            why = (f"more than {self.max_recorded_steps} steps" if len(self.rec.steps) >= self.max_recorded_steps
                   else f"the steps recorded reached the page's {self.budgets.step_bytes:,} bytes for them")
            self.gap = Gap(number, why, self.pictures.asked)  # the graph as the last recorded step left it
            self.gap.step(number, rule, self.machine.graph.version)
            return
        state = self._record(number, rule)
        self.step_bytes += _bytes(state) + self.per_step
        if self.progress is not None and number % self.budgets.progress_every == 0:
            self.progress(number, len(self.rec.frames))

    def _record(self, number: int, rule: Optional[str]) -> dict:
        """The step's state as the page shows it, with its picture."""
        from goi.semantics import show
        from goi.semantics.machine import source_span

        machine = self.machine
        t = machine.token
        span = source_span(t.position)
        rule_of = machine.rules.get(rule) if rule else None
        decoupling = bool(rule_of and rule_of.feature == self.decoupling)
        state = {
            "n": number,
            "rule": rule,
            "kind": rule_of.kind if rule_of else None,
            "decouple": decoupling,
            "link": t.position.id,
            "dir": t.direction,
            "flag": show.flag(t.flag),
            "stack": _capped(show.stack(t.stack, machine.field.show)),
            "boxes": _capped(show.box_stack(t.box_stack)),
            "span": [span.start, span.end] if span is not None else None,
            "frame": self._picture(decoupling=decoupling),
        }
        self.rec.steps.append(state)
        self.consulted_so_far.append(self._runs())
        return state

    def _picture(self, decoupling: bool = False, final: bool = False) -> Optional[int]:
        """This step's picture (Pictures.frame; the final state's: Pictures.picture), the
        progress told of each one drawn."""
        drawn = len(self.rec.frames)
        frame = self.pictures.picture(force=True, final=True) if final else self.pictures.frame(decoupling)
        if self.progress is not None and len(self.rec.frames) > drawn:
            self.progress(self.machine.steps, len(self.rec.frames))
        return frame

    def _runs(self) -> tuple:
        monitor = self.execution.monitor
        return tuple(monitor.runs[name] for name in self.rec.checks) if monitor is not None else ()


def graph_changes(program, max_steps: int, max_recorded_steps: int, options: dict) -> tuple[int, int]:
    """How many transitions change the graph among the first `max_recorded_steps` of the run,
    and how many of them decouple: a run of its own, unwatched by the checks (the recorder
    counts the same in its one run; this count is for those who want it alone)."""
    from goi.semantics.rules import DECOUPLING

    from goi.execution import prepare

    quiet = {k: v for k, v in options.items() if k not in ("checks", "check_mode")}
    execution = prepare(program, **quiet)
    machine = execution.machine
    seen = {"version": machine.graph.version, "changes": 0, "decouplings": 0}

    def count(m, rule_id, _redex) -> None:
        if m.graph.version != seen["version"] and m.steps <= max_recorded_steps:
            seen["changes"] += 1
            seen["decouplings"] += m.rules[rule_id].feature == DECOUPLING
        seen["version"] = m.graph.version

    machine.after.insert(0, count)
    execution.run(max_steps)
    return seen["changes"], seen["decouplings"]


def spread(changes: int, max_frames: int):
    """Which graph changes (numbered from 1) are pictured besides the initial state: all of
    them when the budget allows, else max_frames - 1 of them evenly spaced over the run."""
    room = max(0, max_frames - 1)
    if changes <= room:
        return lambda k: True
    return lambda k: (k * room) // changes != ((k - 1) * room) // changes


def _capped(text: str) -> str:
    """A stack as the page shows it: its top first, cut (and said so) past SHOWN_STACK characters."""
    if len(text) <= SHOWN_STACK:
        return text
    return text[:SHOWN_STACK] + f" … ({len(text) - SHOWN_STACK:,} more characters not shown)"


def _bytes(step: dict) -> int:
    """What a recorded step takes of the page: its JSON as the page holds it."""
    return len(script_json(step).encode("utf-8")) + 2


def _packed(svg: str) -> str:
    """An SVG picture gzip-compressed and base64-encoded: a tenth of its size; the page
    unpacks each when it is first shown (DecompressionStream)."""
    import base64
    import gzip

    return base64.b64encode(gzip.compress(svg.encode("utf-8"), 6, mtime=0)).decode("ascii")  # no timestamp: the same run, the same page
