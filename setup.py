"""Packaging: the design's top-level folders installed under one import namespace, `goi`.

    goi/          -> goi              (the public API, the CLI)
    semantics/    -> goi.semantics    (front end, graphs, rules, machine, checks)
    generators/   -> goi.generators   (Hypothesis strategies)
    properties/   -> goi.properties   (the paper's theorems as properties)
    reports/      -> goi.reports      (soundness reports)
    tests/programs/ -> goi.corpus     (the paper's and the visualiser's example programs: data
                                       only, which `goi oracle` runs first)

Subpackages are found by walking each folder (no list kept by hand), the same way for
`pip install .` (a wheel) and `pip install -e .` (editable). Everything else is in
pyproject.toml.
"""

from setuptools import find_packages, setup

FOLDERS = {"goi": "goi", "goi.semantics": "semantics", "goi.generators": "generators",
           "goi.properties": "properties", "goi.reports": "reports"}

packages = []
for package, folder in FOLDERS.items():
    packages.append(package)
    packages += [f"{package}.{sub}" for sub in find_packages(where=folder)]

# The example programs ship as data, so an installed `goi oracle` has its corpus too.
CORPUS = {"goi.corpus": "tests/programs"}

setup(packages=packages + list(CORPUS), package_dir={**FOLDERS, **CORPUS})
