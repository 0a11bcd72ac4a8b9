"""doublesix as a PettingZoo AEC environment: ``env(preset=…, players=…)``.

Needs ``pip install doublesix[research]``; see ``doublesix.research.pettingzoo``.
"""

from doublesix.research.pettingzoo import DoublesixEnv, env

__all__ = ["DoublesixEnv", "env"]
