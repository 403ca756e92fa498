"""Every well-typed closed program by size (docs/CAMPAIGNS.md): the public face of
goi.generators.enumerate.

    from goi.enumerate import Enumeration
    e = Enumeration()
    e.count(5)            # 9935 programs of size 5
    e.program(5, 1234)    # the 1234th of them (a surface term)
    for term in e.programs(5, 0, 100): ...
"""

from .generators.enumerate import Enumeration, Space, size

__all__ = ["Enumeration", "Space", "size"]
