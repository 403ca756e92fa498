"""Hypothesis profiles of the project, and what each means for the properties.

Registered by tests/conftest.py (and the CLI). Select with `pytest --hypothesis-profile=NAME`.

| profile | examples | term depth | checks (docs/INVARIANTS.md) | determinism orders per phase |
|---|---|---|---|---|
| ci   | 60   | 4 | sampled    | 4  |
| dev  | 200  | 5 | sampled    | 8  |
| deep | 2000 | 7 | exhaustive, stability replayed after every rewrite | 24 |
"""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import HealthCheck, settings

SUPPRESS = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]


@dataclass(frozen=True)
class Config:
    examples: int
    max_depth: int
    check_mode: str
    stability_mode: str
    determinism_paths: int
    max_steps: int = 2_000_000


CONFIGS = {
    "ci": Config(60, 4, "sampled", "sampled", 4),
    "dev": Config(200, 5, "sampled", "sampled", 8),
    "deep": Config(2000, 7, "exhaustive", "exhaustive", 24),
}


def shared_database():
    """Hypothesis' own Redis example database when GOI_HYPOTHESIS_REDIS=redis://host:port/db
    is set (for spreading a deep run over machines: they share failures and their shrinking);
    None (Hypothesis' default directory database) otherwise. Needs `pip install redis`."""
    import os

    url = os.environ.get("GOI_HYPOTHESIS_REDIS")
    if not url:
        return None
    from hypothesis.extra.redis import RedisExampleDatabase
    from redis import Redis

    return RedisExampleDatabase(Redis.from_url(url))


def register() -> None:
    database = shared_database()
    extra = {"database": database} if database is not None else {}
    for name, c in CONFIGS.items():
        settings.register_profile(name, max_examples=c.examples, deadline=None, print_blob=True, suppress_health_check=SUPPRESS, **extra)


def current() -> Config:
    """The configuration of the active Hypothesis profile (dev if it is not one of ours)."""
    getter = getattr(settings, "get_current_profile_name", None)
    name = getter() if getter else getattr(settings, "_current_profile", "dev")
    return CONFIGS.get(name, CONFIGS["dev"])
