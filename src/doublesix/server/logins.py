"""Login attempts, limited per account name and per client address (``limits``).

Only failed attempts count (a player who logs in and out is never held up),
but a name or an address over its limit is refused before its password is
checked. The counts live in this process's memory: with several processes
each counts its own, so a name may be tried as many times more as there are
processes.
"""

from __future__ import annotations

from dataclasses import dataclass

from limits import RateLimitItem, parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from doublesix.server.account_names import AccountError, Refusal, name_key


@dataclass(frozen=True)
class LoginLimits:
    """Failed login attempts allowed (``limits`` notation)."""

    per_name: str = "10/5 minutes"
    per_address: str = "30/5 minutes"


def said(item: RateLimitItem) -> str:
    """``10 per 5 minutes``."""
    unit = item.GRANULARITY.name
    return (
        f"{item.amount} per {item.multiples} {unit}s"
        if item.multiples != 1
        else (f"{item.amount} per {unit}")
    )


class Logins:
    """Counts failed logins and refuses a name or address over its limit."""

    def __init__(self, limits: LoginLimits) -> None:
        self.per_name = parse(limits.per_name)
        self.per_address = parse(limits.per_address)
        self._limiter = MovingWindowRateLimiter(MemoryStorage())

    def check(self, name: str, address: str) -> None:
        """AccountError ``rate_limited`` naming the limit if ``name`` or ``address`` is over it."""
        if not self._limiter.test(self.per_name, "name", name_key(name)):
            raise AccountError(
                Refusal.RATE_LIMITED,
                f"too many failed logins for this name: at most {said(self.per_name)}; "
                "wait a little",
                "name",
            )
        if not self._limiter.test(self.per_address, "address", address):
            raise AccountError(
                Refusal.RATE_LIMITED,
                f"too many failed logins from your address: at most {said(self.per_address)}; "
                "wait a little",
            )

    def failed(self, name: str, address: str) -> None:
        self._limiter.hit(self.per_name, "name", name_key(name))
        self._limiter.hit(self.per_address, "address", address)
