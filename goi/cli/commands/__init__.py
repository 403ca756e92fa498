"""The `goi` commands: one module each, declaring itself with `command(...)`.

A command module gives its name, its place in `goi --help`, a one-line help, whether it
reads one program (FILE or -e TEXT: the arguments are added for it), `add_arguments(parser)`
and `run(args, source, out) -> exit code`:

    def add_arguments(p): p.add_argument("--json", action="store_true", help=…)
    def run(args, source, out): …; return exitcodes.OK
    COMMAND = command("parse", order=10, help="parse a program and print it normalised",
                      takes_program=True, add_arguments=add_arguments, run=run)

`registry()` imports every module of this package, so adding a command is adding its module:
the parser, `goi --help`, the error's "command" field and docs/CLI.md's list (checked by a
test) follow from the declarations. A command's module is named after it (checked by a test),
so `named(name)` imports only that module: `goi run` does not load the other nine (issue 53).
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from typing import Callable, Collection, Optional

COMMANDS: dict[str, "Command"] = {}


@dataclass(frozen=True)
class Command:
    """A command of `goi`, as its module declares it (see the module's docstring)."""

    name: str
    order: int  # its place in `goi --help`
    help: str
    takes_program: bool  # reads one program: FILE | -e TEXT, --max-input-bytes, --json
    add_arguments: Callable  # add_arguments(parser): its own options
    run: Callable  # run(args, source, out) -> exit code (source: the program text, or None)


def command(name: str, order: int, help: str, add_arguments: Callable, run: Callable, takes_program: bool = False) -> Command:
    """Declare a command (see the module's docstring)."""
    if name in COMMANDS:
        raise ValueError(f"command {name} declared twice")
    declared = Command(name, order, help, takes_program, add_arguments, run)
    COMMANDS[name] = declared
    return declared


def module_names() -> list[str]:
    """The modules of this package (read from its folder; none is imported)."""
    return [module.name for module in pkgutil.iter_modules(__path__)]


def registry() -> dict[str, Command]:
    """Every command, by name, in the order of `goi --help`."""
    for name in module_names():
        importlib.import_module(f"{__name__}.{name}")
    return {name: COMMANDS[name] for name in sorted(COMMANDS, key=lambda n: COMMANDS[n].order)}


def named(word: str, modules: Optional[Collection[str]] = None) -> Optional[Command]:
    """The command called `word`, or None: its own module is imported, and only if that module
    does not declare it (a command that broke the naming rule) is every module. `modules`: the
    package's module names, when the caller has listed them already."""
    if word not in COMMANDS and word in (module_names() if modules is None else modules):
        importlib.import_module(f"{__name__}.{word}")
    if word not in COMMANDS:
        return registry().get(word)
    return COMMANDS[word]
