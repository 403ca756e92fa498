"""Hypothesis strategies: surface syntax (here) and, later, well-typed terms."""
