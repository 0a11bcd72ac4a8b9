"""Uploaded records (the /replay page): read, replayed and written anew in worker processes.

Replaying a record costs up to a second of CPU (2 MB, ``record_bounds``):
on the event loop it would stop every table meanwhile. So the whole of it —
JSON parsing, the bounds, the replay and the JSON answer — runs in a pool
of its own (one process at a lower priority than the server and the bots),
``UPLOAD_SECONDS`` at most, with a bounded queue shared out by client
address: a client that posts many records waits behind its own ones.

The worker functions answer ``(status, body)``: the HTTP status and the
answer's JSON, an error (with ``field``, ``round``, ``event``, ``rule``, or
``limit``) as the routes would give it.
"""

from __future__ import annotations

import json
from typing import Any

from doublesix import record_bounds
from doublesix.record_bounds import RecordTooLarge
from doublesix.rules.record import RecordError, game_record, replay
from doublesix.server.errors import Refused, record_error_body
from doublesix.server.metrics import refused
from doublesix.server.workers import Busy, Workers, WorkTimeout
from doublesix.table.views import JSON

UPLOAD_SECONDS = 20.0
"""A record's reading and replay at most (its worker is killed past it)."""
WAITING = 8
"""Uploads waiting for the worker at most; more are answered busy (503)."""
PER_CLIENT = 2
"""Uploads of one address being read or waiting at most; more are answered 429."""
NICE = 10
"""The workers' priority below the server's (a Unix ``nice`` increment)."""


def too_large_body(e: RecordTooLarge) -> JSON:
    return {"error": str(e), "field": e.field, "limit": e.limit}


def read_record(body: bytes) -> dict[str, Any]:
    """The record in ``body`` replayed by the engine and written anew.

    Raises RecordTooLarge, RecordError, or ValueError (not a JSON object).
    """
    try:
        data = record_bounds.parse(body)
    except RecordTooLarge:
        raise
    except ValueError as e:
        raise ValueError("not JSON" if "nested" not in str(e) else f"not JSON: {e}") from None
    if not isinstance(data, dict):
        raise ValueError("a record is a JSON object")
    record_bounds.check(data)
    game = replay(data)
    players = data.get("players")
    names = (
        [str(p) for p in players]
        if isinstance(players, list) and len(players) == game.ruleset.players
        else [f"seat {s}" for s in range(game.ruleset.players)]
    )
    return game_record(game, names)


def refusal(e: Exception) -> tuple[int, JSON] | None:
    """The answer to a record that could not be read, or None for another error."""
    if isinstance(e, RecordTooLarge):
        return 413, too_large_body(e)
    if isinstance(e, RecordError):
        return 422, record_error_body(e)
    if isinstance(e, ValueError):
        return 422, {"error": str(e), "field": None}
    return None


def replayed(body: bytes) -> tuple[int, bytes]:
    """``POST /api/records``: (status, the JSON answer's bytes); runs in a worker."""
    try:
        found: tuple[int, Any] = (200, read_record(body))
    except Exception as e:
        refused = refusal(e)
        if refused is None:
            raise
        found = refused
    return found[0], json.dumps(found[1], separators=(",", ":")).encode()


def busy(e: Busy, what: str, per_client: int) -> Refused:
    """The answer to a full queue (503) or a client over its share of it (429), counted
    as ``queue:<what>`` or ``address:<what>``."""
    refused(f"{'address' if e.per_key else 'queue'}:{what}")
    if e.per_key:
        return Refused(
            429,
            {
                "error": f"{per_client} {what} of one address at a time at most; "
                "wait for the answer",
                "limit": per_client,
            },
        )
    return Refused(503, {"error": f"too many {what} are waiting; ask again soon"})


class Uploads:
    """The server's record uploads, replayed in a worker process of their own."""

    def __init__(self) -> None:
        self._workers = Workers(1, nice=NICE, waiting=WAITING, per_key=PER_CLIENT)

    async def replay(self, body: bytes, client: str) -> tuple[int, bytes]:
        """(status, JSON bytes) of the upload ``body`` from the address ``client``."""
        try:
            return await self._workers.run(replayed, body, key=client, timeout=UPLOAD_SECONDS)
        except Busy as e:
            raise busy(e, "uploads", PER_CLIENT) from None
        except WorkTimeout:
            raise Refused(
                413, {"error": f"the record took over {UPLOAD_SECONDS:.0f} s to replay"}
            ) from None

    def close(self) -> None:
        self._workers.close()
