"""How often a player may do what reaches other players — write a private message, make a
challenge, speak in the lobby's chat — counted per player (an account, or a guest's id) in
moving windows (``limits`` notation).

Alone, a process counts in its memory (``LocalPlayerLimits``, on ``windows.MovingWindows``).
With several processes (``serve --redis``) the counts are the site's, in its Redis
(``RedisPlayerLimits``: ``limits``' moving window, its keys named in the site's space,
``channels.Space``), so a player whose requests a proxy deals round N processes may not do
N times as much. When Redis does not answer (an error, or no answer within
``ANSWER_SECONDS``), the process counts alone until it does, and says so in the log (a few
lines a minute at most: ``quietlog``): a request is never failed, held up longer than that,
nor let through unlimited because Redis is away.

The limits per client address are not here: each process keeps its own (``addresses.py``),
as each defends its own sockets.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Protocol

from limits import RateLimitItem
from limits.aio.storage import RedisStorage
from limits.aio.strategies import MovingWindowRateLimiter
from limits.errors import StorageError
from redis.asyncio import Redis

from doublesix.server.channels import Space
from doublesix.server.metrics import redis_failed, refused
from doublesix.server.windows import MovingWindows

log = logging.getLogger(__name__)

KEY_PREFIX = "doublesix-players"
"""Where the counts live in Redis (in the site's space)."""
ANSWER_SECONDS = 1.0
"""How long a count waits for Redis before this process counts alone."""


class PlayerLimits(Protocol):
    async def hit(self, limit: RateLimitItem, player_id: str) -> bool:
        """Count a hit of ``player_id`` against ``limit`` if its window has room; whether it
        had. ``limit.namespace`` names what is limited: limits of one namespace, amount and
        window share their counts."""
        ...


class LocalPlayerLimits:
    """This process's counts."""

    def __init__(self) -> None:
        self._windows = MovingWindows()

    async def hit(self, limit: RateLimitItem, player_id: str) -> bool:
        return _counted(limit, self._windows.hit(limit, limit.key_for(player_id)))


class RedisPlayerLimits:
    """The site's counts, on ``redis`` (through its connection pool) in the site's ``space``;
    this process's own while Redis does not answer."""

    def __init__(self, redis: Redis, space: Space) -> None:
        # ``connection_pool`` is typed as one of a URL's options, which it is not
        pool: dict[str, Any] = {"connection_pool": redis.connection_pool}
        storage = RedisStorage(
            "async+redis://",
            implementation="redispy",
            key_prefix=space.key(KEY_PREFIX),
            wrap_exceptions=True,
            **pool,
        )
        self._site = MovingWindowRateLimiter(storage)
        self._alone = MovingWindows()

    async def hit(self, limit: RateLimitItem, player_id: str) -> bool:
        try:
            async with asyncio.timeout(ANSWER_SECONDS):
                room = await self._site.hit(limit, player_id)
        except (StorageError, TimeoutError) as e:
            log.warning("player limits: Redis did not answer (%r); this process counts alone", e)
            redis_failed("player_limits", timeout=isinstance(e, TimeoutError))
            room = self._alone.hit(limit, limit.key_for(player_id))
        return _counted(limit, room)


def _counted(limit: RateLimitItem, room: bool) -> bool:
    """``room``, a refusal by ``limit`` counted (``player:<its namespace>``) if there was none."""
    if not room:
        refused(f"player:{limit.namespace}")
    return room
