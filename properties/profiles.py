"""Hypothesis profiles of the project, registered here and loaded by tests/conftest.py.

- ci:   fast, for .ci/run (`pytest --hypothesis-profile=ci`).
- dev:  the default for a plain `pytest`.
- deep: the long, thorough run (`pytest --hypothesis-profile=deep`).
"""

from hypothesis import HealthCheck, settings

SUPPRESS = [HealthCheck.too_slow, HealthCheck.data_too_large]


def register() -> None:
    settings.register_profile("ci", max_examples=60, deadline=None, print_blob=True, suppress_health_check=SUPPRESS)
    settings.register_profile("dev", max_examples=200, deadline=None, print_blob=True, suppress_health_check=SUPPRESS)
    settings.register_profile("deep", max_examples=5000, deadline=None, print_blob=True, suppress_health_check=SUPPRESS)
