"""Crashes (a traceback, exit status 1) on any program with a subtraction; correct otherwise."""

from common import program, run_correctly

text = program()
if " - " in text:
    raise NotImplementedError("subtraction is not implemented")
run_correctly(text)
