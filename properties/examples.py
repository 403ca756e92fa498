"""The examples a property's check is put to (properties.registry): strategies of its
arguments, by name, for a profile's configuration.

Strategies are built only when the suite asks for them: a property module imports neither
Hypothesis nor the generators, so `goi.properties` (and `goi.reports`, which counts rule
coverage through it) loads where only the machine is — the browser playground bundles no
Hypothesis (tests/test_playground.py checks what it imports)."""

from __future__ import annotations


def programs_of(config, **more):
    """A generated program as `term` (at the profile's depth), and the strategies `more` for
    the check's other arguments."""
    from hypothesis import strategies as st

    from goi.generators.typed import programs

    return st.fixed_dictionaries({"term": programs(max_depth=config.max_depth), **more})
