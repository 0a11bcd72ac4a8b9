"""The tiles' tables (``doublesix.tiles``) as ``Final`` names, for the bots' compiled core.

Compiled by mypyc (``setup.py``), a module's ``Final`` names are kept in C statics, so a use
is a load; any other global is looked up by name in the module's dict at every use, and the
search reads these tables at every step. ``tiles`` itself is not compiled, so the core's
modules take them from here.
"""

from __future__ import annotations

from typing import Final

from doublesix import tiles

SUIT: Final = tiles.SUIT
OTHER: Final = tiles.OTHER
VALUE: Final = tiles.VALUE
DOUBLES: Final = tiles.DOUBLES
LOW: Final = tiles.LOW
HIGH: Final = tiles.HIGH
