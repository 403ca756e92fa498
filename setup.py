"""Packaging: the design's top-level folders installed under one import namespace, `goi`
(the mapping is goi/layout.py's, shared with running from a checkout).

Subpackages are found by walking each folder (no list kept by hand), the same way for
`pip install .` (a wheel) and `pip install -e .` (editable). Everything else is in
pyproject.toml.
"""

import runpy
from pathlib import Path

from setuptools import find_packages, setup

LAYOUT = runpy.run_path(str(Path(__file__).parent / "goi" / "layout.py"))  # a data file: goi itself is not imported
FOLDERS, DATA = LAYOUT["FOLDERS"], LAYOUT["DATA"]

packages = []
for package, folder in FOLDERS.items():
    packages.append(package)
    packages += [f"{package}.{sub}" for sub in find_packages(where=folder)]

# Data packages (DATA): the example programs, so an installed `goi oracle` has its corpus too.
# (The rule catalogue is the rules' own docstrings: an installed `goi view` shows each entry.)

setup(packages=packages + list(DATA), package_dir={**FOLDERS, **DATA})
