"""Failed logins are counted per name from one address, per name and per address, and with
Redis by the whole site: two processes' ``Logins`` on this machine's real Redis."""

from __future__ import annotations

import secrets
from collections.abc import Iterator

import pytest
from redis.asyncio import Redis

from doublesix.server.account_names import AccountError, Refusal
from doublesix.server.channels import Space
from doublesix.server.logins import LoginLimits, Logins, site_counts

from .server_helpers import run_async
from .site_helpers import REDIS, require_services

LIMITS = LoginLimits(per_name_and_address="3/minute", per_name="5/minute", per_address="8/minute")


async def refusal(logins: Logins, name: str, address: str) -> AccountError | None:
    try:
        await logins.check(name, address)
    except AccountError as e:
        return e
    return None


async def fail(logins: Logins, name: str, address: str, times: int) -> None:
    for _ in range(times):
        assert await refusal(logins, name, address) is None
        await logins.failed(name, address)


def test_a_stranger_guessing_a_name_locks_out_only_the_stranger() -> None:
    async def story() -> None:
        logins = Logins(LIMITS)
        await fail(logins, "Anna", "10.0.0.9", 3)
        stranger = await refusal(logins, "anna", "10.0.0.9")
        assert stranger is not None and stranger.code is Refusal.RATE_LIMITED
        assert stranger.field == "name" and "3 per minute" in str(stranger)
        assert await refusal(logins, "Anna", "10.0.0.1") is None  # Anna, at home
        assert await refusal(logins, "Ben", "10.0.0.9") is None  # another name

    run_async(story())


def test_a_name_tried_from_many_addresses_is_held_for_all() -> None:
    async def story() -> None:
        logins = Logins(LIMITS)
        for n in range(5):
            await fail(logins, "Anna", f"10.0.1.{n}", 1)
        held = await refusal(logins, "Anna", "10.0.0.1")
        assert held is not None and held.field == "name" and "5 per minute" in str(held)

    run_async(story())


def test_an_address_trying_many_names_is_held() -> None:
    async def story() -> None:
        logins = Logins(LIMITS)
        for n in range(8):
            await fail(logins, f"Name{n}", "10.0.0.9", 1)
        held = await refusal(logins, "Anna", "10.0.0.9")
        assert held is not None and "from your address" in str(held) and held.field is None

    run_async(story())


@pytest.fixture
def own_site() -> Iterator[str]:
    """A site's name of the test's own on the real Redis, its keys deleted after it."""
    require_services()
    name = f"test-logins-{secrets.token_hex(4)}"
    yield name

    async def clean() -> None:
        redis = Redis.from_url(REDIS)
        keys = [key async for key in redis.scan_iter(Space.of(redis, name).key("*"))]
        if keys:
            await redis.delete(*keys)
        await redis.aclose()

    run_async(clean())


def test_the_processes_of_a_site_count_together_in_redis(own_site: str) -> None:
    async def story() -> None:
        one, two = Redis.from_url(REDIS), Redis.from_url(REDIS)
        try:
            first = Logins(LIMITS, site_counts(one, Space.of(one, own_site)))
            second = Logins(LIMITS, site_counts(two, Space.of(two, own_site)))
            await fail(first, "Anna", "10.0.0.9", 2)
            await fail(second, "Anna", "10.0.0.9", 1)
            for logins in (first, second):
                held = await refusal(logins, "Anna", "10.0.0.9")
                assert held is not None and "3 per minute" in str(held)
            assert await refusal(Logins(LIMITS), "Anna", "10.0.0.9") is None  # not in memory
        finally:
            await one.aclose()
            await two.aclose()

    run_async(story())


def test_without_redis_a_process_counts_alone() -> None:
    async def story() -> None:
        away = Redis.from_url("redis://127.0.0.1:1/0", socket_connect_timeout=1)
        try:
            logins = Logins(LIMITS, site_counts(away, Space.of(away)))
            await fail(logins, "Anna", "10.0.0.9", 3)
            held = await refusal(logins, "Anna", "10.0.0.9")
            assert held is not None and "3 per minute" in str(held)
        finally:
            await away.aclose()

    run_async(story())
