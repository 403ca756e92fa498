"""Start-up (issue 41): a command imports what it uses. A fresh process runs each command
and reports the modules it loaded; the heavy libraries and the layers the command does not
use must not be among them (the module list is asserted, never a time:
benchmarks/bench_startup.py measures the time)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

HEAVY = ("hypothesis", "pytest", "_pytest", "dask", "distributed", "z3", "trio", "pygments", "networkx")
LAYERS = ("goi.properties", "goi.oracle", "goi.generators", "goi.reports", "goi.equivalence.solver")

PROBE = """
import json, sys
from goi.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
sys.__stderr__.write("\\nMODULES " + json.dumps(sorted(sys.modules)) + "\\n")
"""


def loaded(*argv: str) -> set:
    import os

    env = {k: v for k, v in os.environ.items() if k != "HYPOTHESIS_NO_PLUGINS"}  # as a user's shell has it
    done = subprocess.run([sys.executable, "-c", PROBE, *argv], capture_output=True, text=True, timeout=600, env=env)
    line = [ln for ln in done.stderr.splitlines() if ln.startswith("MODULES ")]
    assert line, done.stderr
    return set(json.loads(line[-1][len("MODULES "):]))


def check_modules() -> set:
    from goi.semantics.checks import registry

    return {cls.__module__ for cls in registry().values()}


def offending(modules: set, also: tuple = ()) -> list:
    prefixes = (*LAYERS, *also)
    return sorted(m for m in modules if m.split(".")[0] in HEAVY or any(m == p or m.startswith(p + ".") for p in prefixes))


@pytest.mark.parametrize("argv", [
    ("run", "-e", "let f @ p = {1} * {2} in f p"), ("typecheck", "-e", "(λx. x + x) {1}"), ("parse", "-e", "1 + 2"),
    ("--help",), ("run", "--help"), ("view", "--help"), ("test", "--help"), ("equiv", "--help"), ("props", "--help"),
    ("oracle", "--help"),
])
def test_a_command_imports_no_test_or_solver_library_and_no_check_it_was_not_asked_for(argv):
    modules = loaded(*argv)
    assert "goi.cli" in modules  # the probe ran the command
    # `props` and `oracle` set up options their own layers name (profiles, fragments): no heavy library even so
    layers_used = ("goi.properties", "goi.oracle") if argv[0] in ("props", "oracle") else ()
    assert offending(modules - {m for m in modules if m.startswith(layers_used or ("-",))}) == [], offending(modules)
    assert not modules & check_modules(), sorted(modules & check_modules())
    assert "importlib.metadata" not in modules  # the version is read only for --version


@pytest.mark.parametrize("argv, needed", [
    (("props", "soundness", "--examples", "2", "--profile", "ci"), {"hypothesis"}),
    (("oracle", "--max-programs", "2", "--no-corpus", "--impl", f"{sys.executable} tests/oracle_mocks/correct.py"),
     {"hypothesis"}),
    (("equiv", "-e", "{1} + {1}", "-e", "2 * {1}"), {"z3"}),
])
def test_a_command_doing_its_work_loads_only_the_heavy_libraries_that_work_needs(argv, needed):
    """Issue 53: `goi props` draws (Hypothesis) but decides nothing (no z3), the oracle draws
    and runs other implementations (no z3), two programs are compared without a draw (no
    Hypothesis); none loads the test runner, trio or Dask — Hypothesis' plugins (trio's brings
    pytest) are not loaded by goi's commands."""
    modules = loaded(*argv)
    tops = {m.split(".")[0] for m in modules}
    assert "goi.cli" in modules and needed <= tops  # the probe ran the command, and did its work
    assert sorted(tops & set(HEAVY) - needed) == []


# The probe as a checkout never installed would run it (`python -S`: no .pth file, so no editable
# install's finder, which imports pathlib itself), with the libraries' folders on the path.
CHECKOUT_PROBE = """
import json, sys
sys.path[:0] = [sys.argv.pop(1), *json.loads(sys.argv.pop(1))]
""" + PROBE + """
sys.__stderr__.write("FROM " + sys.modules["goi"].__file__ + "\\n")
"""


def loaded_from_the_checkout(*argv: str) -> set:
    import site
    from pathlib import Path

    root = str(Path(__file__).resolve().parent.parent)
    libraries = json.dumps(site.getsitepackages())  # one or several folders (a Debian Python has four)
    done = subprocess.run([sys.executable, "-S", "-c", CHECKOUT_PROBE, root, libraries, *argv], capture_output=True,
                          text=True, timeout=600)
    line = [ln for ln in done.stderr.splitlines() if ln.startswith("MODULES ")]
    assert line, done.stderr
    assert done.stderr.splitlines()[-1] == f"FROM {root}/goi/__init__.py"  # this checkout's goi, not an installed one
    return set(json.loads(line[-1][len("MODULES "):]))


def test_each_command_lives_in_the_module_of_its_name():
    """So that `goi run` imports its own module and not the other commands' (goi.cli.commands.named)."""
    from goi.cli.commands import module_names, registry

    commands = registry()
    assert sorted(commands) == sorted(m for m in module_names() if not m.startswith("_"))
    for name, declared in commands.items():
        assert declared.run.__module__ == f"goi.cli.commands.{name}", name


COMMAND_LINES = [("--help", "run"), ("-h", "run"), ("run", "--help"), ("run", "--bogus", "-e", "1"), ("foo", "run", "-e", "1"),
                 ("run", "--max-stpes", "3", "-e", "1"), ("run",), ("--json", "run", "--bogus"), ("run", "--json", "--bogus"),
                 ("run", "-e", "1", "--check", "nonsense"), ("run", "-e", "1 +"), ("run", "-e", "{1} * 2", "--json"),
                 ("typecheck", "-e", "1"), ("view",), ("props", "--bogus"), ()]


@pytest.mark.parametrize("argv", COMMAND_LINES)
def test_a_command_parsed_alone_says_what_the_parser_with_every_command_says(argv, capsys, monkeypatch):
    """`goi run …` builds a parser with the run command alone (its module only): its output,
    errors and exit code are those of the parser with every command, as the line stands."""
    import importlib

    cli = importlib.import_module("goi.cli.main")  # the module (goi.cli.main is also the name of its function)

    def said() -> tuple:
        try:
            code = cli.main(list(argv))
        except SystemExit as exc:  # --help
            code = exc.code
        out, err = capsys.readouterr()
        return code, out, err

    alone = said()
    every = cli.build_parser
    monkeypatch.setattr(cli, "build_parser", lambda only=None, alone=False: every(only))
    assert alone == said()


@pytest.mark.parametrize("argv", [("run", "-e", "let f @ p = {1} * {2} in f p"), ("typecheck", "-e", "1"),
                                  ("parse", "-e", "1 + 2"), ("run", "--help"), ("run", "--max-steps", "x", "-e", "1")])
def test_a_command_that_reads_a_program_loads_neither_pathlib_nor_another_commands_module(argv):
    """Issue 53: pathlib and importlib.resources (with urllib, ipaddress, zipfile) were a tenth of
    `goi run -e 1`'s start-up, the nine other commands' modules another few percent, and Lark
    with the standard library it loads a quarter. A wrong command line is told with every
    command listed, so it loads them all."""
    modules = loaded_from_the_checkout(*argv)
    assert "goi.cli" in modules
    commands = {m for m in modules if m.startswith("goi.cli.commands.")}
    if argv[1] == "--max-steps":  # a usage error: told as `goi` tells it, every command listed
        assert len(commands) == 10
    else:
        assert commands == {f"goi.cli.commands.{argv[0]}"}
        assert not modules & {"pathlib", "importlib.resources", "zipfile", "urllib.parse"}, sorted(modules)
        if "--help" not in argv:  # a program read by the shipped tables (semantics/lalr.py), not by Lark
            assert not {m for m in modules if m.split(".")[0] == "lark"}, sorted(modules)


def test_a_program_that_does_not_parse_is_worded_by_lark():
    """The driver never words an error: Lark reads a rejected program again, and says what it
    expected where (semantics/lalr.py)."""
    done = subprocess.run([sys.executable, "-m", "goi", "run", "-e", "let x = in x"], capture_output=True, text=True, timeout=600)
    assert done.returncode != 0 and "1:9" in done.stderr and "expected" in done.stderr, done.stderr
    assert "lark" in loaded_from_the_checkout("run", "-e", "let x = in x")


def test_goi_props_finds_its_properties_without_making_the_campaign_works():
    """The property scan imports every module of goi.properties but the private ones: the
    campaign's works and requests (properties/_shards.py) are made when a campaign is asked for."""
    assert "goi.properties._shards" not in loaded("props", "soundness", "--examples", "2", "--profile", "ci")
    assert "goi.properties._shards" in loaded("props", "soundness", "--exhaustive", "2", "--concrete")


def test_a_check_is_loaded_when_asked_for():
    modules = loaded("run", "-e", "1 + 2", "--check", "graph")
    assert "goi.semantics.checks.graph_criterion" in modules
    assert offending(modules) == []


def test_import_goi_loads_no_check_module_and_no_heavy_library():
    done = subprocess.run([sys.executable, "-c", "import goi, json, sys; print(json.dumps(sorted(sys.modules)))"],
                          capture_output=True, text=True, timeout=600, check=True)
    modules = set(json.loads(done.stdout))
    assert offending(modules) == [] and not modules & check_modules()


# Lark's tables are loaded only where the shipped ones (semantics/lalr.py) reject a program: Lark
# reads it again to word the error. The cache is tried with such a program; what goi says of it
# is fixed here, apart from goi.
REJECTED = "let x = in x"
REJECTED_SAYS = "<-e>:1:9: parse error: unexpected 'in'; expected a term\n  let x = in x\n          ^\n"


def test_the_grammar_tables_are_kept_between_runs_and_a_bad_cache_costs_nothing_but_time(tmp_path):
    """Lark's LALR tables are written once to the cache directory and loaded after (the
    file is not rewritten: it loaded); a corrupt file is analysed again and replaced, a
    directory that cannot be made or an empty GOI_CACHE_DIR means no cache — every time the
    same answer and nothing else on standard error."""
    import os

    def goi_run(cache, **more) -> subprocess.CompletedProcess:
        env = {**os.environ, "GOI_CACHE_DIR": str(cache), **more}
        done = subprocess.run([sys.executable, "-m", "goi", "run", "-e", REJECTED], capture_output=True,
                              text=True, timeout=600, env=env)
        assert done.returncode == 3 and done.stdout == "" and done.stderr == REJECTED_SAYS, done
        return done

    cache = tmp_path / "cache"
    goi_run(cache)
    (table,) = cache.iterdir()
    stamp = table.stat().st_mtime_ns
    os.utime(table, ns=(stamp - 10**9, stamp - 10**9))  # a rewrite would move it on
    goi_run(cache)
    assert table.stat().st_mtime_ns == stamp - 10**9  # loaded, not analysed again
    table.write_bytes(b"not a table\n")
    goi_run(cache)
    assert table.stat().st_size > 1000  # replaced by a table
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    goi_run(blocked / "cache")  # cannot be made
    goi_run("", XDG_CACHE_HOME=str(tmp_path / "xdg"))  # empty: none, not the user's cache directory
    assert not (tmp_path / "xdg").exists()
    # unset: the user's cache directory, (XDG_CACHE_HOME)/goi
    env = {k: v for k, v in os.environ.items() if k != "GOI_CACHE_DIR"}
    done = subprocess.run([sys.executable, "-m", "goi", "run", "-e", REJECTED], capture_output=True, text=True,
                          timeout=600, env={**env, "XDG_CACHE_HOME": str(tmp_path / "xdg")})
    assert done.returncode == 3 and [p.parent.name for p in (tmp_path / "xdg").rglob("*.cache")] == ["goi"]


def test_the_grammar_cache_never_writes_through_a_link_nor_reads_what_is_not_its_own(tmp_path):
    """Issue 52: at the cache file's name, a link to a user's file, a dangling link, a FIFO and
    a link to a device are neither read nor written (the user's file keeps its bytes, the
    dangling link's target is not made, nothing blocks, nothing is read whole); a directory
    others may write to is not used (the tables are a pickle). Each run gives the same error,
    with nothing else on standard error."""
    import os

    from goi.semantics import parser_cache

    def goi_run(cache) -> None:
        env = {**os.environ, "GOI_CACHE_DIR": str(cache)}
        done = subprocess.run([sys.executable, "-m", "goi", "run", "-e", REJECTED], capture_output=True, text=True,
                              timeout=600, env=env, stdin=subprocess.DEVNULL)
        assert done.returncode == 3 and done.stdout == "" and done.stderr == REJECTED_SAYS, done

    first = tmp_path / "first"
    goi_run(first)
    (table,) = first.iterdir()
    name = table.name
    precious = tmp_path / "precious.txt"
    for kind in ("link", "dangling", "fifo", "device"):
        cache = tmp_path / kind
        cache.mkdir(mode=0o700)
        precious.write_text("the user's own\n")
        at = cache / name
        if kind == "link":
            at.symlink_to(precious)
        elif kind == "dangling":
            at.symlink_to(tmp_path / "made-by-nobody")
        elif kind == "fifo":
            os.mkfifo(at)
        else:
            at.symlink_to("/dev/zero")
        goi_run(cache)
        assert precious.read_text() == "the user's own\n", kind
        assert not (tmp_path / "made-by-nobody").exists()
        assert sorted(p.name for p in cache.iterdir()) == [name], kind  # no stray temporary file either
        assert parser_cache.readable_tables(at) is False
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    goi_run(shared)
    assert list(shared.iterdir()) == []
    assert not parser_cache.usable_directory(shared)
    large = tmp_path / "large"
    large.mkdir(mode=0o700)
    (large / name).write_bytes(b"\0" * (parser_cache.MAX_CACHE_BYTES + 1))
    assert parser_cache.readable_tables(large / name) is False
    goi_run(large)


HEAP_PROBE = """
import gc, sys
import goi.oracle.survey, goi.properties.driver
from goi.cli.main import main, program

seen = []  # the objects frozen when a command's Hypothesis work starts

def spy(owner, name):
    original = getattr(owner, name)
    def spied(*args, **kwargs):
        seen.append(gc.get_freeze_count())
        return original(*args, **kwargs)
    setattr(owner, name, spied)

spy(goi.properties.driver, "run_suite")
spy(goi.oracle.survey.Oracle, "run")
how, argv = sys.argv[1], sys.argv[2:]
if how == "frozen-before":  # a caller that froze objects of its own
    gc.freeze()
before = gc.get_freeze_count()
if how == "program":
    sys.argv = ["goi", *argv]
    program()
else:
    main(argv)
print("HEAP", before, seen, gc.get_freeze_count(), file=sys.__stderr__)
"""


def heap(how: str, *argv: str) -> tuple:
    done = subprocess.run([sys.executable, "-c", HEAP_PROBE, how, *argv], capture_output=True, text=True, timeout=600)
    line = [ln for ln in done.stderr.splitlines() if ln.startswith("HEAP ")]
    assert line, done.stderr
    before, rest = line[-1][len("HEAP "):].split(" ", 1)
    seen, after = rest.rsplit(" ", 1)
    return int(before), json.loads(seen), int(after)


@pytest.mark.parametrize("argv", [
    ("props", "soundness", "--examples", "2", "--profile", "ci"),
    ("oracle", "--max-programs", "2", "--no-corpus", "--no-database", "--impl", f"{sys.executable} tests/oracle_mocks/correct.py"),
])
def test_what_a_command_loaded_is_out_of_the_collectors_sight_during_its_work_and_handed_back_after(argv):
    """Issue 53, item 1 (goi/cli/heap.py): Hypothesis' first test makes a full collection,
    which walked everything the imports made; during the work it is frozen, after it the
    process is as it was (the tests run commands in their own process)."""
    before, seen, after = heap("main", *argv)
    assert before == 0 and len(seen) == 1 and seen[0] > 1000, (before, seen)
    assert after == 0


def test_a_caller_that_froze_objects_of_its_own_is_left_as_it_was():
    before, seen, after = heap("frozen-before", "props", "soundness", "--examples", "2", "--profile", "ci")
    # nothing more frozen by goi, nothing handed back (a frozen object that dies leaves the count)
    assert before > 1000 and len(seen) == 1 and 0.9 * before < after <= seen[0] <= before, (before, seen, after)


def test_the_goi_program_spares_the_exit_a_walk_of_what_is_left():
    before, seen, after = heap("program", "run", "-e", "1 + 2")
    assert before == 0 and seen == [] and after > 1000
