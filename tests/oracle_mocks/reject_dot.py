"""Rejects every program with a dot product, as if it were not in its language."""

from common import answer, program, run_correctly

text = program()
if "•" in text:
    answer({"rejected": "dot products are not supported"})
else:
    run_correctly(text)
