"""Profiles: `pytest --hypothesis-profile=NAME`, or HYPOTHESIS_PROFILE=NAME, or nothing: ci,
derandomised (plain `pytest` is what CI runs). See properties/profiles.py (goi.properties.profiles)."""

import pytest

from goi.properties.profiles import load_selected

load_selected()


def pytest_configure(config):
    config.addinivalue_line("markers", "properties: the long property tests (the paper's theorems on generated programs); "
                            "`pytest -m 'not properties'` runs the fast tests alone")


def pytest_collection_modifyitems(session, config, items):
    """The fast tests first, the long properties last: a failure in the front end shows in
    seconds, not after an hour of a deep run."""
    items.sort(key=lambda item: item.get_closest_marker("properties") is not None)


# ---- pytest --goi-report DIR: a soundness report of this very run (docs/REPORTS.md) ----------

def pytest_addoption(parser):
    parser.addoption("--goi-report", metavar="DIR", default=None,
                     help="write a soundness report of the property tests of this run to DIR (goi report's format)")


_PROPERTY_RUNS: list = []


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    if item.config.getoption("--goi-report") is None or item.get_closest_marker("properties") is None:
        yield
        return
    import time

    from goi.properties import coverage
    from goi.properties.driver import PropertyResult
    from goi.properties.runner import BudgetFinding, Finding

    runs_before, start = coverage.current().run_count, time.perf_counter()
    outcome = yield
    status, finding, program = "passed", None, None
    if outcome.excinfo is not None:
        exc = outcome.excinfo[1]
        while isinstance(exc, BaseExceptionGroup):
            exc = exc.exceptions[0]
        status = "budget" if isinstance(exc, BudgetFinding) else "failed"
        finding = str(exc) if isinstance(exc, Finding) else f"{type(exc).__name__}: {exc}"
        program = getattr(exc, "program", None) or None
    callspec = getattr(item, "callspec", None)  # test_property[soundness]: the property's own name
    name = callspec.params["prop"] if callspec is not None and "prop" in callspec.params else item.name
    _PROPERTY_RUNS.append(PropertyResult(name, status, coverage.current().run_count - runs_before,
                                         time.perf_counter() - start, finding, program, None))


def pytest_sessionfinish(session, exitstatus):
    out = session.config.getoption("--goi-report")
    if out is None or not _PROPERTY_RUNS:
        return
    import os

    from goi.properties.profiles import current
    from goi.reports import build, write
    from goi.reports.collect import environment

    worker = getattr(session.config, "workerinput", {}).get("workerid")
    profile = os.environ.get("HYPOTHESIS_PROFILE") or session.config.getoption("--hypothesis-profile", None) or "ci"
    data = build(_PROPERTY_RUNS, environment(profile, None, current().examples))
    if worker is not None:  # pytest-xdist: each worker writes its share; `goi report --from …` merges them
        out = os.path.join(out, worker)
    write(data, out)


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """The generated programs a budget stopped: not counterexamples, not passes either
    (properties.runner.undecided) — listed, so that a run never hides them."""
    from goi.properties import coverage

    budgets = coverage.current().budgets
    if not budgets:
        return
    terminalreporter.section("goi: programs a budget stopped (not decided)")
    for prop, message, program in budgets[:20]:
        terminalreporter.write_line(f"[{prop}] {message}")
        terminalreporter.write_line(f"    program: {program[:400]}")
    if len(budgets) > 20:
        terminalreporter.write_line(f"… and {len(budgets) - 20} more")


def hear_ctrl_c() -> None:
    """For a child a test sends SIGINT: the default disposition. A shell starts a background
    job with SIGINT ignored (`bash .ci/run &`), the child would inherit that, and Python then
    never raises KeyboardInterrupt: the test would depend on how CI was started."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)
