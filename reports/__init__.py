"""Soundness reports: what a run of the properties checked, its coverage, and every
counterexample with pictures of its graphs — as HTML, Markdown and JSON (docs/REPORTS.md).

    data = goi.reports.collect(["soundness", "invariants"], "ci")   # runs the properties
    goi.reports.write(data, "report/")                               # index.html, report.md, report.json
"""

from .collect import SCHEMA, build, collect
from .render import to_html, to_markdown, write

__all__ = ["SCHEMA", "build", "collect", "to_html", "to_markdown", "write"]
