"""Where goi's packages live in the source tree: the design's top-level folders, installed
under the one import namespace `goi`. Read by setup.py (packaging) and by goi/__init__.py
(running from a checkout that was never installed) — the one copy of this mapping.

    goi/          -> goi              (the public API, the CLI, the equivalence decision)
    semantics/    -> goi.semantics    (front end, graphs, rules, machine, checks)
    generators/   -> goi.generators   (Hypothesis strategies)
    properties/   -> goi.properties   (the paper's theorems as properties)
    oracle/       -> goi.oracle       (oracle mode: other implementations against the machine)
    reports/      -> goi.reports      (soundness reports)
    tests/programs/ -> goi.corpus     (the example programs: data only, run first by goi oracle)
"""

FOLDERS = {"goi": "goi", "goi.semantics": "semantics", "goi.generators": "generators",
           "goi.properties": "properties", "goi.oracle": "oracle", "goi.reports": "reports"}
DATA = {"goi.corpus": "tests/programs"}  # data packages (their files: pyproject's package-data)

# The layers, from the bottom (CONTRIBUTING.md): a module imports only from its own layer and
# those below (tests/test_layers.py). A module is in the layer of the longest prefix naming it.
LAYERS = (
    ("goi.semantics",),  # the engine: syntax, types, graphs, rules, machine, checks
    ("goi.files", "goi.layout", "goi.version", "goi._checkout", "goi.folding", "goi.progress",
     "goi.declarations"),  # plain helpers
    ("goi.execution",),  # the pipeline: text → judgement → graph → run
    ("goi.equivalence",),  # z3 on symbolic runs
    ("goi.api",),  # the facade of the above
    ("goi.generators", "goi.enumerate", "goi.strategies", "goi.expected"),  # programs: generated, enumerated, expected
    ("goi.campaigns",),  # the campaign runner: shards, checkpoints, Dask (works given to it)
    ("goi.properties", "goi.laws"),  # the theorems and their campaigns' works; the laws and conjectures, theirs
    ("goi.oracle",),  # oracle mode: other implementations against the machine
    ("goi.reports",),  # reports, pictures, the stepper, the playground's entry
    ("goi.cli", "goi.doclists"),  # the command line, the docs' generated tables
    ("goi",),  # the package's root: `import goi` gives the whole API
)

