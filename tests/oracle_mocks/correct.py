"""A correct implementation: goi's machine behind the oracle protocol."""

from common import correctly, serve

serve(correctly)
