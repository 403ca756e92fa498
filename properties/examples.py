"""The examples a property's check is put to (properties.registry): strategies of its
arguments, by name, for a profile's configuration."""

from __future__ import annotations

from hypothesis import strategies as st

from goi.generators.typed import programs


def programs_of(config, **more):
    """A generated program as `term` (at the profile's depth), and the strategies `more` for
    the check's other arguments."""
    return st.fixed_dictionaries({"term": programs(max_depth=config.max_depth), **more})
