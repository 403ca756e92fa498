"""The property registry: each of the paper's theorems (and each second opinion) is one
declaration, on its check, in its own module:

    @declare("soundness", order=10, statement="Theorem 6.1", examples=programs_of)
    def soundness(term, config):
        '''A program's run ends in a final state holding a value of its type.'''
        …

`examples(config)` is a Hypothesis strategy of the check's other arguments, by name (a dict);
a check that draws as it goes (a point of the right length, a choice during its run) takes
`data` too (Hypothesis' `st.data()`). The Hypothesis test of a property is derived from the
declaration (`Property.build`): every example is put to the check under the progress line and
the coverage record, and a check's outcome can be noted as an event (`note`). From the
declarations follow pytest's tests (tests/test_properties.py), `goi props` and `goi report`
(their names, order and the error for an unknown one), the API's `goi.properties.PROPERTIES`
and the docs' list (docs/REPORTS.md, generated and checked by a test). Each derived test has
its own example-database key (the property's name and its check's source): a failure found
by `goi props soundness` is replayed first by pytest's test_soundness, and the other way
round; changing a check forgets what was kept for it.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Callable, Optional


@dataclass(frozen=True)
class Property:
    name: str
    order: int  # its place in the suite
    statement: str  # what of the paper it checks ("Theorem 6.1", "Prop. 7.6", "second opinion")
    summary: str  # the check's docstring, first line
    check: Callable  # the property on one example: check(term, config, …) raises a Finding
    examples: Callable  # examples(config) -> a strategy of the check's other arguments, by name
    note: Optional[Callable] = None  # note(outcome) -> an event to count (hypothesis.event), or None
    # "independent": its verdict on a program's shape at any constants is its verdict at every
    # constants (it reads outcomes and the kinds of values, never a value: docs/INVARIANTS.md
    # "Values"); "compares": it compares values, so a shape's run decides it at those values
    values: str = "compares"
    checks: tuple = ()  # the invariant checks it runs, if any: their own `values` say which of them read values

    def build(self, config) -> Callable:
        """The Hypothesis test of this property under `config` (no settings applied)."""
        from hypothesis import event, given
        from hypothesis import strategies as st

        from . import coverage
        from goi.progress import PROGRESS
        from .runner import undecided

        name, check, note = self.name, self.check, self.note
        takes_data = "data" in inspect.signature(check).parameters
        # the example remembered for a property that raises (driver: the program it raised on),
        # outside property_test: its source seeds the derandomised draw, which stays as it was
        check = _remembering(check)

        def property_test(example, data):
            coverage.current().property = name  # the runs of this example are recorded under it
            PROGRESS.tick(name, config.examples)
            with undecided(name):  # an example a budget stopped is passed over (runner.undecided)
                outcome = check(config=config, **example, **({"data": data} if takes_data else {}))
                if note is not None:
                    event(note(outcome))

        property_test.__name__ = property_test.__qualname__ = f"{name}_property"
        # Hypothesis keys a test's example database by its source; the property's own key
        property_test._hypothesis_internal_add_digest = f"{name}\n{inspect.getsource(self.check)}".encode()
        return given(self.examples(config), st.data())(property_test)


def _remembering(check: Callable) -> Callable:
    """`check`, which first records its example in the session's recorder (coverage.Recorder.example)."""

    def remembered(**arguments):
        from . import coverage

        recorder = coverage.current()
        recorder.example = {k: v for k, v in arguments.items() if k not in ("config", "data")}
        recorder.last_run = None  # no run of this example yet
        return check(**arguments)

    return remembered


class UnknownProperty(ValueError):
    pass


def declare(name: str, order: int, statement: str, examples: Callable, note: Optional[Callable] = None,
            values: str = "compares", checks: tuple = ()):
    """Declare `check` the property `name` (see the module's docstring); registers nothing: the
    suite collects the declarations from the modules of this package (properties.suite)."""

    def register(check):
        summary = (check.__doc__ or "").strip().splitlines()
        if not summary:
            raise TypeError(f"property {name}: its check has no docstring (its summary)")
        if values not in ("independent", "compares"):
            raise ValueError(f"property {name}: values is 'independent' or 'compares', not {values!r}")
        check.property = Property(name, order, statement, summary[0], check, examples, note, values, tuple(checks))
        return check

    return register
