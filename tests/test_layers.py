"""The package's structure: no import circle anywhere (imports inside functions included:
they only hide a circle at run time), and the layers as the design names them — the engine
(goi.semantics) imports nothing of the properties, the reports or the CLI."""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).parent.parent
# the installed package `goi` and the folders it is made of (setup.py)
FOLDERS = {"goi": "goi", "goi.semantics": "semantics", "goi.generators": "generators",
           "goi.properties": "properties", "goi.reports": "reports"}


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
