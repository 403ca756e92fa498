"""The paper's theorems as executable properties (see docs/ once they land)."""
