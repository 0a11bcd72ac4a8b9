"""How large a record read from outside may be: bytes, rounds, events, names.

A record names its own length: a game of Draw to the highest target
(10,000) holds about a thousand rounds, 1.4 MB. What reads one from a stranger (the server's upload,
``doublesix replay`` and ``review``) reads at most ``MAX_BYTES`` and refuses,
before replaying it, a record over these bounds — replaying costs about a
second of CPU per 1.5 MB. ``RecordTooLarge`` names the bound that was passed.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, BinaryIO

MAX_BYTES = 4_000_000
"""Bytes of a record's JSON text."""
MAX_ROUNDS = 3_000
"""Rounds of one game (with its redeals)."""
MAX_EVENTS = 300_000
"""Events of all rounds together."""
MAX_NAME = 64
"""Characters of a player's name."""


class RecordTooLarge(ValueError):
    """A record over one of the bounds: ``field`` names it, ``limit`` is its value."""

    def __init__(self, field: str, limit: int, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.limit = limit

    def __reduce__(self) -> tuple[Any, ...]:
        return (RecordTooLarge, (self.field, self.limit, str(self)))


def too_many_bytes() -> RecordTooLarge:
    return RecordTooLarge("bytes", MAX_BYTES, f"a record is at most {MAX_BYTES:,} bytes")


def read_bounded(stream: BinaryIO) -> bytes:
    """The whole of ``stream``, or RecordTooLarge once it passes ``MAX_BYTES`` (never more
    than that is read: ``/dev/zero`` is refused at once)."""
    data = stream.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise too_many_bytes()
    return data


def parse(text: bytes | str) -> Any:
    """The JSON value of ``text`` (``MAX_BYTES`` at most); ValueError if it is not JSON,
    nested too deeply included."""
    if len(text) > MAX_BYTES:
        raise too_many_bytes()
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("nested too deeply") from None


def check(data: Mapping[str, Any]) -> None:
    """RecordTooLarge if the record ``data`` passes a bound (its shape is checked later,
    by the replay: here only what is too large)."""
    rounds = data.get("rounds")
    if isinstance(rounds, list):
        if len(rounds) > MAX_ROUNDS:
            raise RecordTooLarge(
                "rounds", MAX_ROUNDS, f"a record has at most {MAX_ROUNDS:,} rounds"
            )
        events = sum(
            len(r[part])
            for r in rounds
            if isinstance(r, dict)
            for part in ("events", "redeals")
            if isinstance(r.get(part), list)
        )
        if events > MAX_EVENTS:
            raise RecordTooLarge(
                "rounds", MAX_EVENTS, f"a record has at most {MAX_EVENTS:,} events"
            )
    players = data.get("players")
    if isinstance(players, list):
        for n, name in enumerate(players):
            if isinstance(name, str) and len(name) > MAX_NAME:
                raise RecordTooLarge(
                    f"players.{n}", MAX_NAME, f"a player's name is at most {MAX_NAME} characters"
                )
