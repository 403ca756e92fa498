"""A correct implementation: goi's machine behind the oracle protocol."""

from common import program, run_correctly

run_correctly(program())
