"""Profiles: `pytest --hypothesis-profile=NAME`, or HYPOTHESIS_PROFILE=NAME, or nothing (dev;
Hypothesis' own CI detection gives ci). See properties/profiles.py (goi.properties.profiles)."""

from goi.properties.profiles import load_selected

load_selected()


def pytest_configure(config):
    config.addinivalue_line("markers", "properties: the long property tests (the paper's theorems on generated programs); "
                            "`pytest -m 'not properties'` runs the fast tests alone")


def pytest_collection_modifyitems(session, config, items):
    """The fast tests first, the long properties last: a failure in the front end shows in
    seconds, not after an hour of a deep run."""
    items.sort(key=lambda item: item.get_closest_marker("properties") is not None)
