"""Loops forever on an iterated addition (+^L); correct otherwise."""

from common import program, run_correctly

text = program()
while "+^L" in text:
    pass
run_correctly(text)
