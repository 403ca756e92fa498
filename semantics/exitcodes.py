"""Exit codes of the `goi` command (documented in docs/CLI.md)."""

OK = 0  # the command did what was asked (the program parsed / typed)
USAGE = 2  # the command line itself is wrong (argparse's convention)
BAD_INPUT = 3  # the program cannot be read, parsed or typed
INTERNAL = 70  # a bug in goi (EX_SOFTWARE): please report it, with the input
