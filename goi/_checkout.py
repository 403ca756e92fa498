"""Running goi from a source checkout that was never installed (`python -c "import goi"` at
the repository's root): the subpackages live in sibling folders (goi/layout.py), so a small
finder maps `goi.semantics`, `goi.properties`, … and the data package `goi.corpus` to them,
as an editable install does. Installed (a wheel, or `pip install -e .`), it does nothing."""

from __future__ import annotations

import os
import sys

from .layout import DATA, FOLDERS

# os.path, not pathlib: every command imports this module, and pathlib (with the modules it
# imports) was a tenth of `goi run -e 1`'s start-up (benchmarks/README.md, issue 53)
HERE = os.path.dirname(os.path.realpath(__file__))
ROOT = os.path.dirname(HERE)


class CheckoutFinder:
    """A meta path finder (importlib.abc.MetaPathFinder's protocol: `find_spec`; the ABC itself
    and importlib.util are not imported by every command, only by a checkout's first import)."""

    def __init__(self, mapping: dict[str, str]):
        self.mapping = mapping

    def find_spec(self, fullname, path=None, target=None):
        folder = self.mapping.get(fullname)
        if folder is None:
            return None
        import importlib.machinery
        import importlib.util

        init = os.path.join(folder, "__init__.py")
        if os.path.isfile(init):
            return importlib.util.spec_from_file_location(fullname, init, submodule_search_locations=[folder])
        spec = importlib.machinery.ModuleSpec(fullname, None, is_package=True)  # a data folder (goi.corpus)
        spec.submodule_search_locations = [folder]
        return spec


def install() -> None:
    """Map the sibling folders when they are not inside the installed `goi` package."""
    if os.path.isdir(os.path.join(HERE, "semantics")) or not os.path.isfile(os.path.join(ROOT, "setup.py")):
        return  # an installed wheel, or not a checkout
    mapping = {name: os.path.join(ROOT, *folder.split("/")) for name, folder in {**FOLDERS, **DATA}.items() if name != "goi"}
    if not all(os.path.isdir(folder) for folder in mapping.values()):
        return
    if not any(isinstance(f, CheckoutFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, CheckoutFinder(mapping))
