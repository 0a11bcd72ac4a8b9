"""The table: what players sit at, as a pure value (``TableState``) and its log.

``state.TableState.apply(command, now)`` is the whole of a table's logic:
commands in (``commands``), log entries and effects out (``model``), clocks
as pure functions (``clocks``), every frame a client gets built from the
log and the seat's view (``frames``, ``views``). The server's shell runs it
(``doublesix.server.host``).
"""
