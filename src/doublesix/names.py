"""How a bot's seat is named: a display name and a level, kept apart.

A bot at seat 2 is called ``Bot 2``; its level (``expert``) is a field of
its own. Shown together they read ``Bot 2 · expert``. The command line and
the record name bots this way (the record's ``players`` and ``bots``).
"""

from __future__ import annotations

from collections.abc import Sequence


def bot_name(seat: int) -> str:
    """The display name of the bot at ``seat``: ``Bot 2``."""
    return f"Bot {seat}"


def seat_label(name: str, level: str | None) -> str:
    """A seat as shown to people: ``Bot 2 · expert`` for a bot, the name alone for a human."""
    return name if level is None else f"{name} · {level}"


def seat_labels(names: Sequence[str], levels: Sequence[str | None] | None) -> list[str]:
    """Every seat's label; without levels (an older record), the names alone."""
    if levels is None:
        return list(names)
    return [seat_label(n, level) for n, level in zip(names, levels, strict=True)]
