"""A package's docstring that lists its modules (or its declared properties) lists all of them and
nothing else (issue 55; the model is Hypothesis' check of its own exports): a list a reader
trusts, which a module added or renamed would otherwise leave stale."""

from __future__ import annotations

import importlib
import pkgutil
import re

import pytest

# package -> how its docstring lists its modules: "- name:" bullets, or an indented table "    name   what"
LISTED = {
    "goi.oracle": re.compile(r"^- (\w+):", re.M),
    "goi.laws": re.compile(r"^    (\w+) {2,}\S", re.M),
    "goi.equivalence": re.compile(r"^    (\w+) {2,}\S", re.M),
}


@pytest.mark.parametrize("package", sorted(LISTED))
def test_a_package_docstring_lists_every_module_it_holds(package):
    module = importlib.import_module(package)
    listed = LISTED[package].findall(module.__doc__)
    held = sorted(m.name for m in pkgutil.iter_modules(module.__path__))
    assert len(listed) == len(set(listed)), f"{package} lists a module twice"
    assert sorted(listed) == held, (f"{package}'s docstring lists {sorted(set(listed) - set(held))} that it does not "
                                    f"hold, and misses {sorted(set(held) - set(listed))}")


def test_the_properties_docstring_lists_every_declared_property():
    import goi.properties
    from goi.properties.suite import names

    listed = re.findall(r"^    (\w+) {2,}\S", goi.properties.__doc__, re.M)
    assert listed == list(names()), "properties/__init__.py lists the declared properties, in the suite's order"
