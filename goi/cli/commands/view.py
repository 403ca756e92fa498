"""`goi view FILE | -e TEXT [-o FILE.html] [--max-frames N] [goi run's options]`: a
self-contained HTML page that steps through a run of the machine (reports/view.py)."""

from __future__ import annotations

import os

from .. import exitcodes
from ..arguments import add_machine_options, machine_options, non_negative_int, positive_int
from ..errors import UsageError
from ..io import say, schema, write_json
from . import command


# the defaults reports/view.py declares (EVERY_CHANGE_UP_TO, DEFAULT_MAX_FRAMES), spelt out:
# importing it would load goi.reports for every command (tests/test_view.py checks they agree)
def add_arguments(p) -> None:
    p.add_argument("-o", "--output", metavar="FILE.html", help="where to write the page (default: the program's name "
                   "with .html, or goi-view.html)")
    p.add_argument("--max-frames", type=non_negative_int, default=None, metavar="N",
                   help="pictures of the graph spread over the run's changes of the graph (default: one after every "
                   "change when the run changes its graph at most 100 times, else 60);"
                   " the final state and every decoupling have one besides; the steps without one are marked on the "
                   "timeline")
    p.add_argument("--max-recorded-steps", type=positive_int, default=None, metavar="N",
                   help="steps recorded in full at most (default 50000, which keeps the page under about 20 MB); "
                        "the rest are counted by rule, shown on the timeline, and the final state is recorded")
    add_machine_options(p)


def _output(args) -> str:
    if args.output:
        return args.output
    if args.file and args.file != "-":
        return os.path.splitext(os.path.basename(args.file))[0] + ".html"
    return "goi-view.html"


def run(args, source: str, out) -> int:
    from ... import api
    from ...reports.pictures import MissingExtra
    from ...reports.view import compose, save
    from ...semantics.errors import ReadError

    path = _output(args)
    if os.path.isdir(path):
        raise UsageError(f"-o {path}: a directory; name the page's file")
    judgement = api.check(source, max_characters=args.max_input_bytes)
    try:
        rec, page = compose(judgement, max_steps=args.max_steps, max_frames=args.max_frames,
                            max_recorded_steps=args.max_recorded_steps, title=f"goi view: {args.file or 'program'}",
                            **machine_options(args, judgement))
    except MissingExtra as exc:
        raise UsageError(str(exc)) from None
    try:
        size = save(page, path)
    except OSError as exc:
        raise ReadError(f"-o {path}: cannot write it: {exc.strerror}") from None
    result = rec.result
    if args.json:
        write_json({"schema": schema("view"), "status": result.status, "output": path, "bytes": size,
                    "steps": rec.steps[-1]["n"], "recorded": len(rec.steps), "frames": len(rec.frames),
                    "laid_out": sum(rec.relaid), "unpictured": rec.unpictured,
                    "decouplings": sum(s["decouple"] for s in rec.steps),
                    "unrecorded": None if rec.unrecorded is None else rec.unrecorded["count"]})
    else:
        gap = rec.unrecorded
        say(f"{path}: {rec.steps[-1]['n']} steps, {len(rec.frames)} pictures ({sum(rec.relaid)} laid out by Graphviz, "
            "the others keep the nodes' places)"
            + (f", {rec.unpictured} graph-changing steps without one (--max-frames spreads them over the run)" if rec.unpictured else "")
            + (f", steps {gap['first']} to {gap['last']} counted but not recorded (--max-recorded-steps)" if gap else "")
            + f", {size} bytes ({result.status})")
    return exitcodes.FOR_STATUS.get(result.status, exitcodes.OK)


COMMAND = command("view", order=35, help="write an HTML page stepping through a run (graph, token, program)",
                  takes_program=True, add_arguments=add_arguments, run=run)
