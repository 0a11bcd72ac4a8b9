"""Bots: each decides from its seat's view only (see ``doublesix.rules.view``)."""

from doublesix.bots.base import BOTS, Bot, make_bot
from doublesix.bots.simple import GreedyBot, RandomBot

__all__ = ["BOTS", "Bot", "GreedyBot", "RandomBot", "make_bot"]
