"""Bots: each decides from its seat's view only (see ``doublesix.rules.view``).

Levels a table offers (``table_bots()``): ``random``, ``greedy``, ``medium``,
``pimc``, ``expert``. ``omniscient`` (sees every hand), ``expert-2026`` (the
expert of 2026, frozen as a yardstick) and the candidates for the next
expert (``ismcts``; ``expert-fit``, ``ismcts-fit``, ``ismcts-seen`` and
``ismcts-style``/``ismcts-style-play``, which weigh deals by a fitted model of
the others, ``fitted``; ``expert-race``, which stops valuing beaten moves,
``racing``) are for the arena only (``MEASUREMENT_BOTS``); ``make_bot`` makes
any of them. The README's "Strength that grows with time" says where each stands.
"""

from doublesix.bots import expert, fitted, ismcts, medium, omniscient, pimc, racing
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
    "fitted",
    "hint",
    "ismcts",
    "make_bot",
    "medium",
    "omniscient",
    "pimc",
    "racing",
    "table_bots",
]
