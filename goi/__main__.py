"""`python -m goi`: the same as the `goi` command."""

import sys

from .cli import main

sys.exit(main())
