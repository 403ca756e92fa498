"""Computes in IEEE floating point (the machine over a float field): right within a
tolerance, wrong exactly."""

from common import FloatField, correctly, serve


serve(lambda text: correctly(text, field=FloatField()))
