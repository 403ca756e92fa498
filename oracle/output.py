"""What a run of oracle mode says (docs/ORACLE.md): its summary lines, its JSON (the body of
`goi.oracle/2`), the files of `--out`, each bucket's stem and each case's expected and
actual outcome as text. The command line (`goi oracle`) only prints them."""

from __future__ import annotations

import json
import os
from collections import Counter

from goi.semantics.errors import ReadError
from goi.semantics.show import to_text as _show

from .cases import PRINTER_WARNING
from .classification import CLASSES, FAILURES, exception_line, looks_like_parser


def stems(report) -> dict:
    """Each bucket's file stem under --out: its class, numbered from the class's second bucket
    on (implementation-error, implementation-error-2, …), in the report's order."""
    out, per_class = {}, Counter()
    for sig, s in report.shrunk.items():
        klass = s.case.klass
        per_class[klass] += 1
        out[sig] = klass if per_class[klass] == 1 else f"{klass}-{per_class[klass]}"
    return out


def decimal_text(x) -> str:
    """A rational as a person wrote it: a decimal where it has one (1/1000000000 is 0.000000001)."""
    from decimal import Decimal, localcontext

    d = x.denominator
    while d % 2 == 0:
        d //= 2
    while d % 5 == 0:
        d //= 5
    if d != 1:
        return str(x)
    with localcontext() as context:
        context.prec = max(28, len(str(x.numerator)) + len(str(x.denominator)))
        return format(Decimal(x.numerator) / Decimal(x.denominator), "f")


_decimal = decimal_text


def report_json(report, replay_for=None) -> dict:
    c = report.config
    names = stems(report)
    return {
        "implementation": c.command,
        "notation": c.notation,
        "parenthesize": c.parenthesize,
        "printer": getattr(c.printer, "spec", None) if c.printer is not None else None,
        "fragments": sorted(c.all_fragments),
        "tolerance": None if c.tolerance is None else _decimal(c.tolerance),
        "division": c.division,
        "ill_typed": c.ill_typed,
        "seed": c.seed,
        "search": sorted(c.search),
        "programs": report.programs,
        "skipped": report.skipped,
        "beyond_budget": report.beyond_budget,
        "unconfirmed_hangs": sum(report.unconfirmed.values()),
        "max_nodes": c.max_nodes,
        "duplicates": report.duplicates,
        "counts": report.counts,
        "corpus": {"run": report.corpus_run, "skipped": report.corpus_skipped,
                   "failures": [case.to_json() for case in report.corpus]},
        "buckets": [{**s.to_json(sig), "file": names[sig], "replay": replay_for(names[sig], s.case.text) if replay_for else ""}
                    for sig, s in report.shrunk.items()],
        "messages": {k: [{"message": m, "count": n} for m, n in top] for k, top in messages(report).items()},
        "protocol": c.protocol,
        "seconds": round(report.seconds, 3),
        "survey_seconds": round(report.survey_seconds, 3),
        "exhaustive": report.exhaustive,
        "shards": c.shards,
        "cpu_seconds": report.cpu_seconds,
        "target": None if report.exhaustive is not None else report.config.max_programs,
        "defects": len(report.defects),
        "new_buckets": report.new_buckets,
        "known": [{"signature": sig, "count": n} for sig, n in report.known.items()],
    }


MESSAGES_SHOWN = 3


def messages(report) -> dict:
    """Per failure class of the survey, its most frequent implementation messages (first line,
    numbers folded to N, so that one cause counts once) with their counts."""
    import re


    counts: dict = {}
    for case in report.cases:
        if case.klass in FAILURES and case.answer is not None and case.answer.message:
            first = case.answer.message.strip().splitlines()[0][:160]
            counts.setdefault(case.klass, Counter())[re.sub(r"\d+", "N", first)] += 1
    return {k: c.most_common(MESSAGES_SHOWN) for k, c in counts.items()}


def notation_hints(report) -> list[str]:
    """The hint that the notation may be wrong, for each bucket that looks like the
    implementation's parser rejecting our text (a rejection, or an error speaking of parsing)
    and fills a quarter of the survey — never for the implementation's own errors."""

    lines = []
    for sig, s in report.shrunk.items():
        if looks_like_parser(sig) and s.count >= 0.25 * max(1, report.programs):
            lines.append(f"  {s.count} of {report.programs} programs fail as '{sig}': if it is the implementation's "
                         "parser, the notation is not what it reads (--notation, docs/ORACLE.md, Notations)")
    return lines


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, …, 11th, 12th, 13th, 21st, 22nd, 23rd, …"""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def summary_lines(report, replay_for=None) -> list[str]:

    if report.exhaustive is not None:
        e = report.exhaustive
        first = (f"all {e['of']:,} programs of size ≤ {e['bound']} ({e['programs']:,} sent, {report.skipped} not "
                 f"expressible in the notation; docs/CAMPAIGNS.md)" if e["programs"] + report.skipped == e["of"] else
                 f"{e['programs']:,} of the {e['of']:,} programs of size ≤ {e['bound']}")
    else:
        first = (f"{report.programs} generated programs ({report.skipped} more drawn but not expressible in the notation, "
                 f"{report.duplicates} repeats not sent again)")
        if report.short_of_target:  # said first: a run that tested less than asked (exit 9 when nothing failed)
            first = f"SHORT of the {report.config.max_programs} programs asked for: " + first
        if report.config.shards is not None:
            first += f" in {report.config.shards} shards (seeds {report.config.seed}–{report.config.seed + report.config.shards - 1})"
    lines = [first + f", {report.corpus_run} corpus programs ({report.corpus_skipped} not expressible or outside the "
             f"fragment), {report.seconds:.1f} s"]
    lines.append("  " + ", ".join(f"{k} {report.counts[k]}" for k in CLASSES))
    if report.unconfirmed:
        n = sum(report.unconfirmed.values())
        lines.append(f"  {n} program{'s' if n != 1 else ''} timed out once but answered when asked again at the full "
                     "--timeout: not reported as a hang (a busy machine, or an implementation that is not deterministic)")
    if report.beyond_budget:
        lines.append(f"  {report.beyond_budget} program{'s' if report.beyond_budget != 1 else ''} drawn beyond goi's own "
                     f"budget (--max-nodes {report.config.max_nodes}, --max-steps {report.config.max_steps}): not sent")
    if report.config.printer is not None and report.skipped_share > PRINTER_WARNING:
        lines.append(f"  warning: the printer could not write {report.skipped_share:.0%} of the programs drawn: what it "
                     "refuses is never tested (raise Inexpressible only for what the implementation cannot read)")
    lines += notation_hints(report)
    for case in report.corpus:
        lines.append(f"corpus {case.origin}: {case.klass}: expected {expected_text(case)}, got {answer_text(case.answer)}")
    if report.known_signatures:
        lines.append(f"  {report.new_buckets} new bucket{'s' if report.new_buckets != 1 else ''}; "
                     f"{len(report.known)} known set aside ({sum(report.known.values())} programs, not shrunk)"
                     + "".join(f"\n    known: {sig} ({n})" for sig, n in report.known.items()))
    if report.shrunk:
        defects = len(report.defects)
        same = sum(1 for s in report.shrunk.values() if s.same_defect_as is not None)  # buckets and #k alike
        extra = len(report.shrunk) - defects - same
        lines.append(f"{defects} defect{'s' if defects != 1 else ''} (buckets by signature, "
                     + ("each with its smallest program" if report.exhaustive is not None else "each shrunk on its own")
                     + (f"; {same} more minimal program{'s' if same != 1 else ''} of the same defect"
                        f"{'s' if defects != 1 else ''}" if same else "")
                     + (f"; and {extra} more minimal program{'s' if extra != 1 else ''} that may show another defect "
                        "behind the same signature" if extra else "") + "):")
    names = stems(report)
    for n, (sig, s) in enumerate(report.shrunk.items(), 1):
        case = s.case
        where = (f"{s.count} of the survey, the first after {s.found_after} programs and {s.find_seconds:.1f} s"
                 if s.found_after >= 0 else "kept in the example database from an earlier run")
        if report.exhaustive is not None:
            where = f"{s.count} of the programs; the smallest is the first in size order: {case.origin}"
            how = "not shrunk: none smaller fails so"
        elif report.config.shards is not None:
            where = f"{s.count} of the shards' programs, the first from {s.first.origin if s.first else '?'}"
            how = (f"reduced once in {s.shrink_seconds:.1f} s with {s.calls} calls; "
                   + _minimality(s))
        elif s.unmasked is not None:
            where = (f"hidden behind bucket {s.unmasked[0]!r}: its member, the {ordinal(s.found_after + 1)} of the survey, "
                     f"with {s.unmasked[1]} fails so; reduced on its own")
            how = _minimality(s)
        elif s.same_defect_as is not None:
            where = (f"{s.count if sig == s.signature else 'another program'} of the survey; the same defect as "
                     f"[{list(report.shrunk).index(s.same_defect_as) + 1}]: {s.same_because or 'it needs the same constructs'}")
            how = _minimality(s)
        elif sig != s.signature:
            where = (f"another member of bucket {sig.rpartition(' #')[0]!r} ({s.count} programs), the "
                     f"{ordinal(s.found_after + 1)} of the survey, reduced on its own: perhaps another bug")
            how = _minimality(s)
        elif not s.shrunk:
            how = "not shrunk: more buckets than the run shrinks"
        else:
            how = (f"shrunk in {s.shrink_seconds:.1f} s with {s.calls} calls; "
                   + _minimality(s))
        lines += [
            f"[{n}] {sig.upper() if ': ' not in sig else sig.partition(': ')[0].upper() + ': ' + sig.partition(': ')[2]}",
            f"  ({where}; {how})",
            f"  program:  {case.text}",
            f"  expected: {expected_text(case)}",
            f"  got:      {answer_text(case.answer)}",
        ]
        if replay_for is not None:
            lines.append(f"  replay:   {replay_for(names[sig], case.text)}")
    if not report.failures:
        lines.append("no disagreement found")
    return lines


def _minimality(s) -> str:
    return "1-minimal" if s.complete else "shrink budget reached: not known to be minimal"


def expected_text(case) -> str:
    """Our outcome: a value with the transitions that gave it, or the rejection of an ill-typed program."""
    if isinstance(case.expected, str) and case.expected.startswith("ill-typed"):
        return f"a rejection ({case.expected})"
    top = sorted(((n, r) for r, n in case.rules.items() if n), reverse=True)[:5]
    return (f"{_show(case.expected)} ({case.transitions} transitions: " + ", ".join(f"{r} {n}" for n, r in top) + ")")


def answer_text(answer) -> str:

    if answer is None:
        return "-"
    if answer.kind == "value":
        return _show(answer.value)
    named = exception_line(answer.stderr or "") if answer.kind == "crash" else None
    if named and named not in answer.message:
        return f"{answer.kind}: {answer.message} ({named})"
    return f"{answer.kind}: {answer.message}" if answer.message else answer.kind


def write_out(directory: str, report) -> None:
    """Each bucket's shrunk failure (and each corpus failure) as a standalone program and its
    expectation, in `directory` (made and tried by the command before the run): CLASS.goi for a
    class's first bucket, CLASS-2.goi for its second, and so on (stems)."""
    names = stems(report)
    items = [(names[sig], s.case, {"signature": sig, "count": s.count}) for sig, s in report.shrunk.items()]
    items += [(f"corpus-{case.origin.replace('/', '-').removesuffix('.goi')}", case, {}) for case in report.corpus]
    for stem, case, extra in items:
        meta = {**case.to_json(), **extra, "schema": "goi.oracle-case/1"}
        _write(os.path.join(directory, stem + ".goi"), case.text + "\n")
        _write(os.path.join(directory, stem + ".json"), json.dumps(meta, ensure_ascii=False, indent=2) + "\n")


def _write(path: str, text: str) -> None:
    from goi.files import write_file

    write_file(path, text, "--out")
