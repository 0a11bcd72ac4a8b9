"""Failed logins, limited per name from one address, per name, and per address (``limits``).

Only failed attempts count (a player who logs in and out is never held up),
but a name or an address over its limit is refused before its password is
checked. A name has two limits: a tight one for the tries from one address,
so that a stranger guessing at a name locks out only that stranger, and a
loose one for the tries from every address together, for a name under
attack from many.

The counts are the site's: in Redis when the processes share one (``serve
--redis``; named in the site's space, ``channels.Space``), so a name may not be
tried N times more on N processes. When Redis does not answer, this process
counts alone until it does: a login is never refused, nor let through
unlimited, because Redis is away.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from limits import RateLimitItem, parse
from limits.aio.storage import MemoryStorage, RedisStorage, Storage
from limits.aio.strategies import MovingWindowRateLimiter
from limits.errors import StorageError
from redis.asyncio import Redis

from doublesix.server.account_names import AccountError, Refusal, name_key
from doublesix.server.channels import Space
from doublesix.server.metrics import refused

log = logging.getLogger(__name__)

KEY_PREFIX = "doublesix-logins"
"""Where the counts live in Redis (in the site's space)."""


@dataclass(frozen=True)
class LoginLimits:
    """Failed login attempts allowed (``limits`` notation)."""

    per_name_and_address: str = "10/5 minutes"
    per_name: str = "100/5 minutes"
    per_address: str = "30/5 minutes"


def said(item: RateLimitItem) -> str:
    """``10 per 5 minutes``."""
    unit = item.GRANULARITY.name
    return (
        f"{item.amount} per {item.multiples} {unit}s"
        if item.multiples != 1
        else (f"{item.amount} per {unit}")
    )


def site_counts(redis: Redis, space: Space) -> Storage:
    """Counts that every process of the site shares on ``redis`` (through its connection
    pool), named in its ``space``."""
    pool: dict[str, Any] = {"connection_pool": redis.connection_pool}  # typed as a URL's options
    prefix = space.key(KEY_PREFIX)
    return RedisStorage(
        "async+redis://", implementation="redispy", key_prefix=prefix, wrap_exceptions=True, **pool
    )


class Logins:
    """Counts failed logins and refuses a name or address over its limit.

    ``counts``: the site's counts (``site_counts``); this process's memory without.
    """

    def __init__(self, limits: LoginLimits, counts: Storage | None = None) -> None:
        self.per_name_and_address = parse(limits.per_name_and_address)
        self.per_name = parse(limits.per_name)
        self.per_address = parse(limits.per_address)
        self._site = MovingWindowRateLimiter(counts or MemoryStorage())
        self._alone = MovingWindowRateLimiter(MemoryStorage())
        """Where this process counts while the site's counts do not answer."""

    def _keys(self, name: str, address: str) -> tuple[tuple[RateLimitItem, tuple[str, ...]], ...]:
        key = name_key(name)
        return (
            (self.per_name_and_address, ("name-address", key, address)),
            (self.per_name, ("name", key)),
            (self.per_address, ("address", address)),
        )

    async def check(self, name: str, address: str) -> None:
        """AccountError ``rate_limited`` naming the limit if ``name`` or ``address`` is over it."""
        for item, keys in self._keys(name, address):
            if await self._test(item, keys):
                continue
            refused(f"{keys[0]}:failed-logins")  # name-address, name, address
            if item is self.per_address:
                raise AccountError(
                    Refusal.RATE_LIMITED,
                    f"too many failed logins from your address: at most {said(item)}; "
                    "wait a little",
                )
            raise AccountError(
                Refusal.RATE_LIMITED,
                f"too many failed logins for this name: at most {said(item)}; wait a little",
                "name",
            )

    async def failed(self, name: str, address: str) -> None:
        for item, keys in self._keys(name, address):
            try:
                await self._site.hit(item, *keys)
            except StorageError as e:
                _away(e)
                await self._alone.hit(item, *keys)

    async def _test(self, item: RateLimitItem, keys: tuple[str, ...]) -> bool:
        try:
            return await self._site.test(item, *keys)
        except StorageError as e:
            _away(e)
            return await self._alone.test(item, *keys)


def _away(error: StorageError) -> None:
    log.warning("login counts: Redis did not answer (%s); this process counts alone", error)
