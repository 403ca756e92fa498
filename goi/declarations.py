"""One collector for what goi's packages declare: a declaration is a value in a module of its
package carrying its record in one attribute (a property's `property`, a campaign kind's
`campaign_kind`), and adding one is writing it in a module of that package — nothing is
registered anywhere. The collector imports every module of the package and gathers the
records declared there (not those a module imported from elsewhere), by name. A module whose
name starts with `_` is the package's own business and declares nothing: it is not imported
(properties/_shards.py: the campaign works, which `goi props` need not make to find its
properties).

The engine's own declarations (rules, checks) are found the same way by the engine itself,
which sits below this module (goi/layout.py); goi's commands too (goi/cli/commands).
"""

from __future__ import annotations

import importlib
import pkgutil


def modules_of(package: str) -> list:
    """Every module of the package but those named private (`_…`), imported, in the order of
    their names."""
    root = importlib.import_module(package)
    return [importlib.import_module(f"{package}.{info.name}") for info in pkgutil.iter_modules(root.__path__)
            if not info.name.startswith("_")]


def declared(package: str, attribute: str, record: type) -> dict:
    """name -> record for every value of the package's modules whose `attribute` is a
    `record` (which has a `name`) and that was declared in that module; a name declared twice
    is an error, said with both modules."""
    found: dict = {}
    where: dict = {}
    for module in modules_of(package):
        for value in vars(module).values():
            mark = getattr(value, attribute, None)
            if not isinstance(mark, record) or getattr(value, "__module__", None) != module.__name__:
                continue
            if mark.name in found:
                raise ValueError(f"{attribute.replace('_', ' ')} {mark.name} declared twice: in {where[mark.name]} "
                                 f"and in {module.__name__}")
            found[mark.name], where[mark.name] = mark, module.__name__
    return found
