"""Quiet logs under attack: the same line over and over is written a few times a minute.

Twenty thousand half-open connections once wrote 95 MB of the same
traceback. ``Quiet`` lets each kind of line (its logger and message
template) through ``BURST`` times, then ``PER_MINUTE`` a minute; the lines
it drops are counted and the next one it lets through says how many. Tracebacks
of repeated lines are dropped with them. ``log_config`` is uvicorn's logging
set-up with this filter on every handler, and a handler for the server's own
loggers.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from uvicorn.config import LOGGING_CONFIG

BURST = 20
"""Lines of one kind let through at once."""
PER_MINUTE = 6.0
"""Then this many a minute."""


class Quiet(logging.Filter):
    """A token bucket per kind of line; drops the rest and says how many it dropped."""

    def __init__(self, name: str = "") -> None:
        super().__init__(name)
        self._buckets: dict[tuple[str, str], tuple[float, float, int]] = {}
        """Kind → (tokens, when last counted, lines dropped since the last one shown)."""

    def filter(self, record: logging.LogRecord) -> bool:
        kind = (record.name, str(record.msg))
        now = time.monotonic()
        tokens, last, dropped = self._buckets.get(kind, (float(BURST), now, 0))
        tokens = min(float(BURST), tokens + (now - last) * PER_MINUTE / 60)
        if tokens < 1:
            self._buckets[kind] = (tokens, now, dropped + 1)
            return False
        self._buckets[kind] = (tokens - 1, now, 0)
        if dropped:
            record.msg = f"{record.msg} [{dropped} more like this dropped]"
        return True


def log_config(level: str) -> dict[str, Any]:
    """uvicorn's ``log_config`` with ``Quiet`` on every handler and the server's own
    loggers (``doublesix``, ``asyncio``) written like uvicorn's errors."""
    config: dict[str, Any] = {
        **LOGGING_CONFIG,
        "filters": {"quiet": {"()": Quiet}},
        "handlers": {
            name: {**handler, "filters": ["quiet"]}
            for name, handler in LOGGING_CONFIG["handlers"].items()
        },
        "loggers": {
            **LOGGING_CONFIG["loggers"],
            "doublesix": {"handlers": ["default"], "level": level.upper(), "propagate": False},
            "asyncio": {"handlers": ["default"], "level": "WARNING", "propagate": False},
        },
    }
    return config
