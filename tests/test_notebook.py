"""The machine where researchers work (issue 43): the cells docs/API.md shows under "In a
notebook", executed as a Jupyter notebook by nbclient with a real kernel; a Result renders as
a table and goi.view as the stepper in a frame, every text escaped."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

nbformat = pytest.importorskip("nbformat", reason="the notebook test needs the dev extra (nbclient, nbformat, ipykernel)")
nbclient = pytest.importorskip("nbclient", reason="the notebook test needs the dev extra (nbclient, nbformat, ipykernel)")


def doc_cells() -> list[str]:
    text = (ROOT / "docs/API.md").read_text(encoding="utf-8")
    section = text.split("## In a notebook", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", section, re.S)


def executed(cells: list[str]):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(code) for code in cells]
    nbclient.NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(ROOT)}}).execute()
    return [cell.outputs for cell in nb.cells]


def html_of(outputs) -> str:
    (result,) = [o for o in outputs if o.output_type == "execute_result"]
    return result.data["text/html"]


def test_the_notebook_of_the_api_doc_shows_the_result_and_the_stepper():
    cells = doc_cells()
    assert len(cells) == 2
    outputs = executed(cells + ["goi.run('(* <script>alert(1)</script> *) 1 + 1')"])
    table = html_of(outputs[0])
    assert "<b>10</b>" in table and "(λy. p • p)" in table and "3" in table  # value 10, parameter 3
    frame = html_of(outputs[1])
    assert frame.startswith('<iframe class="goi-view" srcdoc="') and 'sandbox="allow-scripts"' in frame
    assert "&lt;script" in frame and "<script" not in frame.split('srcdoc="', 1)[1].split('"', 1)[0]  # the page, escaped
    plain = [o for o in outputs[1] if o.get("output_type") == "execute_result"][0]["data"]["text/plain"]
    assert plain.startswith("<goi.view page: ") and len(plain) < 200, plain[:300]  # the page is stored once (issue 54)
    hostile = html_of(outputs[2])
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in hostile and "<script>" not in hostile
