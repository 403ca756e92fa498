"""The `goi` command: the oracle's command-line interface (docs/CLI.md).

    goi parse     FILE | -e TEXT [--json]   the normalised program
    goi typecheck FILE | -e TEXT [--json]   the judgement A | Γ | p⃗ ⊢ t : T
    goi run       FILE | -e TEXT [--json] [--trace] [--max-steps N] [--dot DIR] ...
    goi props     [PROPERTY ...] [--profile P] [--examples N] [--seed N] [--replay BLOB] [--json]
    goi equiv     FILE0 FILE1 | -e P0 -e P1 [--terms] [--division D] [--timeout S] [--json]
    goi conjectures [LAW ...] [--profile P] [--json]
    goi oracle    --impl 'CMD …' [--notation N] [--fragment F] [--tolerance REL] [--out DIR] [--json] ...
    goi report    [--profile P] [--out DIR] [--properties P,…] [--from REPORT.json] [--json]
    goi test      PATH ... [--update] [--json]

Every command goes through goi.api. Contract: a wrong command line exits 2 (USAGE), bad
input 3 (BAD_INPUT), neither with a traceback; with --json exactly one JSON object is
printed on standard output (UTF-8), whatever happens, with a "schema" naming its format
(docs/schemas/).

Modules: `main` (the entry point and error reporting), `commands/` (one module per
command, each declared once), `io` (output, reading programs, folders), `arguments`
(argument types), `errors` (UsageError), `exitcodes`.
"""

from __future__ import annotations

from .main import build_parser, main

__all__ = ["build_parser", "main"]
