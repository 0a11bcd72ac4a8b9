"""Bots: each decides from its seat's view only (see ``doublesix.rules.view``).

Levels a table offers (``table_bots()``): ``random``, ``greedy``, ``medium``,
``pimc``, ``expert``. ``omniscient`` (sees every hand), ``expert-2026`` (the
expert of 2026, frozen as a yardstick) and ``ismcts`` (a candidate for the
next expert, not yet shown stronger) are for the arena only
(``MEASUREMENT_BOTS``); ``make_bot`` makes any of them.
"""

from doublesix.bots import expert, ismcts, medium, omniscient, pimc
from doublesix.bots.base import BOTS, BUDGETS, MEASUREMENT_BOTS, Bot, make_bot, table_bots
from doublesix.bots.hint import Hint, hint
from doublesix.bots.simple import GreedyBot, RandomBot

__all__ = [
    "BOTS",
    "BUDGETS",
    "MEASUREMENT_BOTS",
    "Bot",
    "GreedyBot",
    "Hint",
    "RandomBot",
    "expert",
    "hint",
    "ismcts",
    "make_bot",
    "medium",
    "omniscient",
    "pimc",
    "table_bots",
]
