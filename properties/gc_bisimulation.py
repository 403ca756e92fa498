"""Prop. 7.6 (Garbage collection): runs with and without the collector agree on the outcome
and on the observable token behaviour (check `gc`)."""

from __future__ import annotations

from .examples import programs_of
from .registry import declare
from .runner import Finding, run
from .sharing import active, alone


@declare("gc", order=40, statement="Prop. 7.6 (garbage collection)", examples=programs_of)
def gc_bisimulation(term, config):
    """Collecting garbage changes neither the outcome nor the observable token behaviour."""
    if active() is None:  # the property's run collects, so that a report counts the collector's rules
        return run(term, "gc", config, checks=["gc"], gc=True)[2]
    # In an exhaustive shard (runs counted, not reported) the check watches the shared run,
    # without the collector, and makes the run that collects itself: one run of the program
    # fewer. The check tells the two runs apart by which collects, whichever it watches; but a
    # failure's step is the watched run's, and a budget may stop one run and not the other, so
    # anything but a pass is decided again as outside a shard.
    try:
        return run(term, "gc", config, checks=["gc"], gc=False)[2]
    except Finding:
        with alone():
            return run(term, "gc", config, checks=["gc"], gc=True)[2]
