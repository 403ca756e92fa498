"""`python -m goi`: the same as the `goi` command."""

import sys

from .cli.main import program

sys.exit(program())
