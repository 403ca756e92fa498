"""Profiles: `pytest --hypothesis-profile=NAME`, or HYPOTHESIS_PROFILE=NAME, or nothing (dev;
Hypothesis' own CI detection gives ci). See properties/profiles.py (goi.properties.profiles)."""

from goi.properties.profiles import load_selected

load_selected()
