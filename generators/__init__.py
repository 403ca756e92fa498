"""Hypothesis strategies: surface syntax (syntax), well-typed terms (typed), graphs (graphs);
failing examples are shown as program text (display)."""

from . import display  # noqa: F401  (generated terms are shown as program text in failures)
