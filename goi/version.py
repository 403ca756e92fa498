"""goi's version, as installed (the wheel's metadata), for the CLI, reports and `goi.__version__`."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version as _version

try:
    __version__ = _version("goi-abductive")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0+unknown"
