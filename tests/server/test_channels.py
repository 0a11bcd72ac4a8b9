"""Redis's channels belong to no database: each site's are named in its own space, its
database's and its name's (``channels.Space``), so two sites on one Redis, on two database
numbers or under two names on one, hear only their own lobby and tables."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest
from pytest import MonkeyPatch
from redis.asyncio import Redis

from doublesix.server.channels import Space
from doublesix.server.lobby_bus import RedisBus
from doublesix.table.model import JSON

from . import site_helpers
from .server_helpers import run_async
from .site_helpers import REDIS, require_services

BASE = REDIS.rsplit("/", 1)[0]


def test_a_channel_is_named_in_its_database_space() -> None:
    assert Space.of(Redis.from_url(f"{BASE}/3")) == Space(3)
    assert Space.of(Redis.from_url(BASE), "staging") == Space(0, "staging")
    assert Space(3).channel("ds:lobby") == "db3:ds:lobby"
    assert Space(0, "staging").channel("ds:lobby") == "db0:staging/ds:lobby"


@pytest.mark.parametrize(
    "sites",
    [((1, None), (1, None), (2, None)), ((1, "a"), (1, "a"), (1, "ab"))],
    ids=["two-databases", "two-names-on-one-database"],
)
def test_two_sites_on_one_redis_hear_only_their_own_messages(
    sites: tuple[tuple[int, str | None], ...],
) -> None:
    """Two processes of a site and one of another site: on databases 1 and 2, or named
    ``a`` and ``ab`` on database 1 (a name that begins the other's).

    Each first says "ready" on its site until every process there has heard it (Redis
    confirms a subscription on its own time). Then Redis hands each message to every
    subscriber while it publishes it, in the order of publishing: once the first site has
    heard its first numbered message, the second site would have had it before its own, and
    the first site the second's before its own second one."""
    require_services()
    heard: dict[str, list[JSON]] = {"one": [], "one-too": [], "two": []}

    async def until(names: tuple[str, ...], count: int, again: Callable[[], None]) -> None:
        async with asyncio.timeout(10):
            while any(len(heard[n]) < count for n in names):
                again()
                await asyncio.sleep(0.05)

    async def main() -> None:
        clients = [Redis.from_url(f"{BASE}/{db}") for db, _ in sites]
        buses = [
            RedisBus(client, Space.of(client, name))
            for client, (_, name) in zip(clients, sites, strict=True)
        ]
        for name, bus in zip(heard, buses, strict=True):
            bus.on_message = heard[name].append
            await bus.start()
        one, two = ("one", "one-too"), ("two",)
        try:
            await until(one, 1, lambda: buses[0].publish({"site": 1, "ready": True}))
            await until(two, 1, lambda: buses[2].publish({"site": 2, "ready": True}))
            counts = {name: len(heard[name]) for name in heard}
            buses[0].publish({"site": 1, "n": 1})
            await until(one, counts["one"] + 1, lambda: None)
            buses[2].publish({"site": 2, "n": 1})
            await until(two, counts["two"] + 1, lambda: None)
            buses[1].publish({"site": 1, "n": 2})
            await until(one, counts["one"] + 2, lambda: None)
        finally:
            for bus in buses:
                await bus.close()
            for client in clients:
                await client.aclose()

    run_async(main())
    for name, site in (("one", 1), ("one-too", 1), ("two", 2)):
        assert {m["site"] for m in heard[name]} == {site}, name
    numbered = {name: [m["n"] for m in heard[name] if "n" in m] for name in heard}
    assert numbered == {"one": [1, 2], "one-too": [1, 2], "two": [1]}


def test_each_test_worker_has_a_redis_database_of_its_own(monkeypatch: MonkeyPatch) -> None:
    """Files on two xdist workers run at once: each worker is a site of its own."""
    monkeypatch.setenv("DOUBLESIX_TEST_REDIS", "redis://example:6379/0")
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    assert site_helpers._redis() == "redis://example:6379/0"
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw0")
    assert site_helpers._redis() == "redis://example:6379/8"
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw1")
    assert site_helpers._redis() == "redis://example:6379/9"
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw8")
    with pytest.raises(RuntimeError, match="gw8"):
        site_helpers._redis()
