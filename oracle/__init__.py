"""Oracle mode: another implementation of the calculus run on generated programs against goi's
machine, every disagreement, crash or hang put into a bucket by its signature and shrunk to a
minimal program (docs/ORACLE.md). One module per concern:

- protocols:      what an implementation is given and what an answer is; the one-shot protocol
- sessions:       the persistent protocol (one process, program after program)
- reaping:        ending every process an implementation started
- cputime:        an implementation's own CPU time (its process group): hangs no load can fake
- printing:       a --printer run in a process of its own, waited on with a budget
- notations:      the program as the implementation reads it (the paper's, the visualiser's)
- target:         a target as one declaration (a TOML file): command, notation, fragment, arithmetic, answers
- fragment:       what an implementation lacks, as one value (Fragment)
- arithmetic:     what it computes with, declared (Declared)
- known:          buckets set aside (--known): counted, never shrunk, steered away from
- classification: the class of an outcome (a plain function) and the failure's signature (its bucket)
- reduction:      structural reduction of a failing program, keeping its signature
- shrinking:      one Shrinker per bucket, owning its budget
- kept:           each bucket's minimal program, kept between runs
- cases:          a run's configuration, cases, buckets and report
- survey:         the run: corpus, survey (the search), a loop over the buckets, exhaustive and divided runs
- drawing:        the survey's draw: stages, the search's techniques, feedback from goi's run
- steering:       away from dominant and known buckets, and the shapes fed back to the draw
- asking:         putting a program to the implementation
- classifying:    goi's expected outcome beside the answer: the case
- splitting:      a bucket's other members, reduced when they may show another defect (#k)
- unmasking:      a bucket's program rewritten past a masking defect
- campaigning:    exhaustive and divided runs as campaigns (goi.campaigns)
- corpus:         the example programs run first
- output:         what a run says: summary, JSON, files

    from goi.oracle import Oracle, OracleConfig
    report = Oracle(OracleConfig(command=["python3", "impl.py"])).run()
"""

from __future__ import annotations

import importlib

# the public names, by module: loaded on first use (the survey imports Hypothesis; the
# command line's start-up must not pay for it)
_EXPORTS = {
    "cases": ("FRAGMENTS", "SEARCH", "Case", "OracleConfig", "Report", "Shrunk"),
    "classification": ("AGREE", "CLASSES", "FAILURES", "klass", "signature"),
    "fragment": ("Fragment",),
    "shrinking": ("Shrinker",),
    "corpus": ("corpus_files",),
    "notations": ("Inexpressible", "render"),
    "protocols": ("Answer", "call", "parse_answer"),
    "sessions": ("Session",),
    "survey": ("Oracle", "OracleWork", "SurveyWork"),
}
_WHERE = {name: module for module, names in _EXPORTS.items() for name in names}


def __getattr__(name: str):
    if name in _WHERE:
        return getattr(importlib.import_module(f".{_WHERE[name]}", __name__), name)
    raise AttributeError(f"module 'goi.oracle' has no attribute {name!r}")


__all__ = sorted(_WHERE)
