"""Hypothesis profiles of the project, and what each means for the properties.

| profile | Hypothesis parent | examples | randomness | database | term depth | checks (docs/INVARIANTS.md) | determinism orders |
|---|---|---|---|---|---|---|---|
| ci   | Hypothesis' `ci`      | 60   | derandomised: the same examples on every run | none | 4 | sampled | 4 |
| dev  | Hypothesis' `default` | 200  | random | `.hypothesis/` (or Redis) | 5 | sampled | 8 |
| deep | Hypothesis' `default` | 2000 | random | `.hypothesis/` (or Redis) | 7 | exhaustive, stability replayed after every rewrite | 24 |

Each profile is registered with an explicit parent, so what it means never depends on the
profile loaded when it was registered. Ours `ci` *extends* Hypothesis' built-in `ci`
(derandomised, no database, deadline off, blobs printed), which Hypothesis loads by itself
when it detects a CI environment: CI gives the same verdict on every run, and randomness
belongs to `dev` and `deep`, whose failures are kept in the example database and replayed
first.

Plain `pytest` (no profile chosen, in CI or not) runs `ci`: the README's test command and
CI's are one. The project's own knobs (term depth, check mode, determinism orders) are a `Config` per
profile name: `config(name)` raises UnknownProfile for a name that has none (register one
with `register_config`). Hypothesis' `default` profile (nothing chosen, not in CI) has the
`dev` configuration.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from goi.semantics.errors import ReadError

# Hypothesis is imported when the profiles are registered, not with this module: naming them
# (`goi props --profile`) and reading their configuration cost no import of it.
SUPPRESSED = ("too_slow", "data_too_large", "filter_too_much")  # Hypothesis' health checks a profile suppresses
_HYPOTHESIS: dict = {}  # Hypothesis' own "default" and "ci" profiles, as it defines them (before ours replace "ci")


def _hypothesis_profiles() -> dict:
    from hypothesis import settings

    if not _HYPOTHESIS:
        _HYPOTHESIS.update(default=settings.get_profile("default"), ci=settings.get_profile("ci"))
    return _HYPOTHESIS


class UnknownProfile(ValueError):
    """A Hypothesis profile with no goi configuration."""


@dataclass(frozen=True)
class Config:
    examples: int
    max_depth: int
    check_mode: str
    stability_mode: str
    determinism_paths: int
    max_steps: int = 2_000_000


CONFIGS: dict[str, Config] = {
    "ci": Config(60, 4, "sampled", "sampled", 4),
    "dev": Config(200, 5, "sampled", "sampled", 8),
    "deep": Config(2000, 7, "exhaustive", "exhaustive", 24),
}
CONFIGS["default"] = CONFIGS["dev"]

PROFILES = ("ci", "dev", "deep")  # the profiles goi registers (and `goi props --profile` offers)


def shared_database():
    """Hypothesis' own Redis example database when GOI_HYPOTHESIS_REDIS=redis://host:port/db
    is set (for spreading a deep run over machines: they share failures and their shrinking);
    None (Hypothesis' default directory database) otherwise. Needs the `redis` extra."""
    url = os.environ.get("GOI_HYPOTHESIS_REDIS")
    if not url:
        return None
    try:
        from hypothesis.extra.redis import RedisExampleDatabase
        from redis import Redis
    except ImportError:
        raise UnknownProfile("GOI_HYPOTHESIS_REDIS is set, but the redis package is missing: "
                             "pip install 'goi-abductive[redis]'") from None
    try:
        client = Redis.from_url(url, socket_connect_timeout=REDIS_SECONDS, socket_timeout=REDIS_SECONDS)
    except ValueError as exc:
        raise UnknownProfile(f"GOI_HYPOTHESIS_REDIS={url!r} is not a Redis URL ({exc})") from None
    try:
        client.ping()  # unreachable: said now, not as a property that fails on its first example
    except Exception as exc:  # redis' ConnectionError, TimeoutError, AuthenticationError, …
        raise DatabaseUnreachable(f"GOI_HYPOTHESIS_REDIS={url!r}: cannot reach the Redis server ({exc})") from None
    return RedisExampleDatabase(client)


REDIS_SECONDS = 10  # to connect to the shared example database, and for each of its answers


class DatabaseUnreachable(ReadError):
    """The shared example database (GOI_HYPOTHESIS_REDIS) cannot be reached, or stopped
    answering during a run: an I/O error, never a property's failure."""


def database_unreachable(exc: BaseException) -> "DatabaseUnreachable | None":
    """The I/O error to report when Hypothesis' Redis database raised `exc` during a run."""
    if type(exc).__module__.split(".")[0] == "redis":
        return DatabaseUnreachable(f"the shared example database (GOI_HYPOTHESIS_REDIS) failed during the run: "
                                   f"{type(exc).__name__}: {exc}")
    return None


_REGISTERED: list = []  # the GOI_HYPOTHESIS_REDIS value the profiles were registered with


def register() -> None:
    """Register ci, dev and deep with Hypothesis. Idempotent: registered again only when
    GOI_HYPOTHESIS_REDIS changed, and then a loaded profile of ours is reloaded, so that the
    loaded settings are the registered ones."""
    from hypothesis import HealthCheck, settings

    url = os.environ.get("GOI_HYPOTHESIS_REDIS")
    if _REGISTERED and _REGISTERED[0] == url:
        return
    parents = _hypothesis_profiles()
    _REGISTERED[:] = [url]
    database = shared_database()
    stored = {"database": database} if database is not None else {}
    common = dict(deadline=None, print_blob=True, suppress_health_check=[getattr(HealthCheck, h) for h in SUPPRESSED])
    settings.register_profile("ci", parent=parents["ci"], max_examples=CONFIGS["ci"].examples, **common)
    for name in ("dev", "deep"):
        settings.register_profile(name, parent=parents["default"], max_examples=CONFIGS[name].examples, **common, **stored)
    if settings.get_current_profile_name() in PROFILES:
        settings.load_profile(settings.get_current_profile_name())


def register_config(name: str, config: Config) -> None:
    """Give a profile of your own (registered with Hypothesis) the project's knobs."""
    CONFIGS[name] = config


def config(name: str) -> Config:
    """The project's configuration for a Hypothesis profile name."""
    try:
        return CONFIGS[name]
    except KeyError:
        known = ", ".join(sorted(CONFIGS))
        raise UnknownProfile(
            f"the Hypothesis profile {name!r} has no goi configuration (known: {known}); "
            "choose one with --hypothesis-profile or HYPOTHESIS_PROFILE, or give yours one "
            "with goi.properties.profiles.register_config"
        ) from None


def current() -> Config:
    """The configuration of the loaded Hypothesis profile."""
    from hypothesis import settings

    return config(settings.get_current_profile_name())


def load_selected(environ=os.environ) -> str:
    """For test runners: load the profile named by HYPOTHESIS_PROFILE if set; otherwise keep
    what Hypothesis loaded by itself (its `ci` in a CI environment) and, where that is
    Hypothesis' `default` (nothing chosen), load `ci` too: plain `pytest` is what CI runs,
    derandomised, the same verdict on every run; `dev` and `deep` are one flag away.
    Returns the loaded profile's name.
    `--hypothesis-profile` (Hypothesis' pytest option) is applied by Hypothesis after this
    and wins over both."""
    from hypothesis import settings

    register()
    name = environ.get("HYPOTHESIS_PROFILE")
    if name:
        config(name)  # a clear error for a name goi does not know
        settings.load_profile(name)
    elif settings.get_current_profile_name() == "default":
        settings.load_profile("ci")
    return settings.get_current_profile_name()
