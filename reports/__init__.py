"""Soundness reports (Markdown/HTML/JSON): arrives with the properties."""
