"""The package's structure: no import circle anywhere (imports inside functions included:
they only hide a circle at run time), and the layers as the design names them
(goi/layout.py's LAYERS, as CONTRIBUTING.md states them): no module imports from a layer
above its own."""

from __future__ import annotations

import ast
import runpy
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).parent.parent
# the installed package `goi`, the folders it is made of and its layers: goi/layout.py, the one copy
LAYOUT = runpy.run_path(str(ROOT / "goi" / "layout.py"))
FOLDERS, LAYERS = LAYOUT["FOLDERS"], LAYOUT["LAYERS"]


def modules() -> dict[str, Path]:
    found = {}
    for package, folder in FOLDERS.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = list(path.relative_to(ROOT / folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join([package, *parts])] = path
    return found


def import_graph() -> nx.DiGraph:
    """module -> the goi modules it imports, at any depth of its code."""
    found = modules()
    graph = nx.DiGraph()
    for name, path in found.items():
        graph.add_node(name)
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            targets = []
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")
                    base = base[: len(base) - (node.level - 1)]
                    origin = ".".join(base + ([node.module] if node.module else []))
                else:
                    origin = node.module or ""
                for alias in node.names:
                    sub = f"{origin}.{alias.name}"
                    targets.append(sub if sub in found else origin)
            elif isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            graph.add_edges_from((name, t) for t in targets if t in found and t != name)
    return graph


def test_the_import_graph_is_read():
    graph = import_graph()
    assert graph.has_edge("goi.cli.main", "goi.cli.commands")
    assert graph.has_edge("goi.semantics.machine", "goi.semantics.rules")
    assert graph.number_of_nodes() > 100


def test_no_import_circle_anywhere():
    graph = import_graph()
    circles = sorted(sorted(c) for c in nx.strongly_connected_components(graph) if len(c) > 1)
    assert circles == []


def _imports_from(graph, prefix: str, forbidden: tuple[str, ...]) -> list[tuple[str, str]]:
    return sorted((a, b) for a, b in graph.edges if a.startswith(prefix) and b.startswith(forbidden))


def test_the_engine_imports_no_upper_layer():
    graph = import_graph()
    assert _imports_from(graph, "goi.semantics", ("goi.properties", "goi.reports", "goi.cli", "goi.api",
                                                    "goi.generators", "goi.equivalence")) == []


def test_the_api_and_properties_do_not_import_the_cli():
    graph = import_graph()
    assert _imports_from(graph, "goi.api", ("goi.cli",)) == []
    assert _imports_from(graph, "goi.properties", ("goi.cli",)) == []
    assert _imports_from(graph, "goi.reports", ("goi.cli",)) == []


def layer(module: str) -> int:
    """The layer of a module: that of the longest prefix naming it."""
    found = [(len(prefix), i) for i, prefixes in enumerate(LAYERS) for prefix in prefixes
             if module == prefix or module.startswith(prefix + ".")]
    assert found, f"{module} is in no layer of goi/layout.py's LAYERS"
    return max(found)[1]


def test_every_module_has_a_layer():
    for module in import_graph().nodes:
        layer(module)


def test_no_module_imports_from_a_layer_above_its_own():
    graph = import_graph()
    upward = sorted((a, b) for a, b in graph.edges if layer(b) > layer(a))
    assert upward == []


def test_the_layers_are_those_contributing_states():
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    stated = text.split("Layers, from the bottom:", 1)[1].split("\n\n", 1)[0]
    named = [prefix for prefixes in LAYERS for prefix in prefixes if prefix != "goi"]
    positions = [stated.find(f"`{prefix}`") for prefix in named]
    assert all(p >= 0 for p in positions), [n for n, p in zip(named, positions) if p < 0]
    firsts = [stated.find(f"`{prefixes[0]}`") for prefixes in LAYERS if prefixes[0] != "goi"]
    assert firsts == sorted(firsts), "CONTRIBUTING.md names the layers in goi/layout.py's order"

