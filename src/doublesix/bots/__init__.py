"""Bots: each decides from its seat's view only (see ``doublesix.rules.view``).

Levels a table offers (``table_bots()``): ``random``, ``greedy``, ``medium``,
``pimc``, ``expert`` (an information-set tree search weighing its deals by a
network's model of the others' choices, ``choice_net``, ``fitted``, ``ismcts``).
``omniscient`` (sees every hand), ``expert-2026`` (the expert of 2026, a
determinised search, frozen as a yardstick) and the candidates (``ismcts``;
``ismcts-fit``, the expert before the network, and ``expert-fit`` and
``ismcts-style``/``ismcts-style-play``, which weigh deals by a fitted model of
the others, ``fitted``; ``ismcts-net``, the expert under its earlier name, and
``ismcts-net-style``/``ismcts-net-style96``, ``choice_net``) are for the arena only
(``MEASUREMENT_BOTS``); ``make_bot`` makes any of them.
"""

from doublesix.bots import choice_net, expert, fitted, ismcts, medium, omniscient, pimc
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
    "choice_net",
    "expert",
    "fitted",
    "hint",
    "ismcts",
    "make_bot",
    "medium",
    "omniscient",
    "pimc",
    "table_bots",
]
