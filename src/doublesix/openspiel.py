"""doublesix in OpenSpiel: importing this registers ``python_doublesix`` with ``pyspiel``.

Needs ``pip install doublesix[research]``; see ``doublesix.research.openspiel``.
"""

from doublesix.research.openspiel import NAME, DoublesixGame, DoublesixState, register, state_of

__all__ = ["NAME", "DoublesixGame", "DoublesixState", "register", "state_of"]
