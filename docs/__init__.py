"""The project's documentation; installed as the data package goi.docs with the rule
catalogue RULES.md only, which goi view shows beside each step's rule (goi/catalogue.py)."""
