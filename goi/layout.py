"""Where goi's packages live in the source tree: the design's top-level folders, installed
under the one import namespace `goi`. Read by setup.py (packaging) and by goi/__init__.py
(running from a checkout that was never installed) — the one copy of this mapping.

    goi/          -> goi              (the public API, the CLI, the equivalence decision)
    semantics/    -> goi.semantics    (front end, graphs, rules, machine, checks)
    generators/   -> goi.generators   (Hypothesis strategies)
    properties/   -> goi.properties   (the paper's theorems as properties)
    reports/      -> goi.reports      (soundness reports)
    tests/programs/ -> goi.corpus     (the example programs: data only, run first by goi oracle)
    docs/           -> goi.docs       (data only: the rule catalogue RULES.md, which goi view shows)
"""

FOLDERS = {"goi": "goi", "goi.semantics": "semantics", "goi.generators": "generators",
           "goi.properties": "properties", "goi.reports": "reports"}
DATA = {"goi.corpus": "tests/programs", "goi.docs": "docs"}  # data packages (their files: pyproject's package-data)
