"""Exit codes of the `goi` command (documented in docs/CLI.md)."""

OK = 0  # the command did what was asked (parsed, typed, or the run reached a final state; equiv: equivalent)
NOT_EQUIVALENT = 1  # goi equiv: a replayed witness (or a separating context) shows they differ; goi conjectures: a law missed its expected status
USAGE = 2  # the command line itself is wrong (argparse's convention)
BAD_INPUT = 3  # the program (or --params) cannot be read, parsed or typed
STUCK = 4  # the run got stuck (no rule applies to a non-final state), or an invariant failed
BUDGET = 5  # the run reached its step limit (--max-steps)
UNDEFINED = 6  # a division by zero under --division strict
NOT_COMPARABLE = 7  # goi equiv: parameter vectors that are not permutations of each other, or not programs of type F
UNDECIDED = 8  # goi equiv: unknown (timeout, budget, irrational-only witness), or no separating context found
SHORT = 9  # tested less than asked: goi oracle's survey sent fewer programs than asked for (or none); goi conjectures: a law had no instance
DATA = 65  # a campaign's checkpoint is not this campaign's (another campaign's, not a checkpoint, its head damaged) (EX_DATAERR)
UNAVAILABLE = 69  # the --cluster cannot be used or was lost: no scheduler, no worker, an unsupported address (EX_UNAVAILABLE)
CANT_CREATE = 73  # a file goi would create is already there (a fresh campaign's --checkpoint): nothing is overwritten (EX_CANTCREAT)
IO = 74  # a file goi writes or reads back (a checkpoint) cannot be read or written, or is no regular file (EX_IOERR)
INTERRUPTED = 130  # Ctrl-C (128 + SIGINT); `goi props` first prints what finished
BROKEN_PIPE = 141  # the reader of standard output went away (128 + SIGPIPE): stopped quietly
INTERNAL = 70  # a bug in goi (EX_SOFTWARE): please report it, with the input

FOR_STATUS = {"final": OK, "stuck": STUCK, "violation": STUCK, "budget": BUDGET, "undefined": UNDEFINED}
