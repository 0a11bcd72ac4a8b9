"""Sites by name on one Redis database (``serve --site``, ``channels.Space``): every key and
channel of a named site begins with its name and a slash; an unnamed site's are named as
before sites had names, byte for byte. On this machine's real Redis."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack

import pytest
from redis.asyncio import Redis

from doublesix.server.account_names import name_key
from doublesix.server.channels import SITE_LENGTH, Space
from doublesix.server.lobby_bus import RedisBus
from doublesix.server.lobby_chat import RedisHistory, message
from doublesix.server.logins import LoginLimits, Logins, site_counts
from doublesix.server.presence import OnlinePlayer, RedisPresence
from doublesix.server.relay import Relay

from .server_helpers import run_async
from .site_helpers import REDIS, require_services
from .test_logins import fail, refusal


@pytest.mark.parametrize("name", ["staging", "prod-2", "a_b", "A", "x" * SITE_LENGTH])
def test_a_site_s_name_is_letters_digits_dashes_and_underscores(name: str) -> None:
    assert Space(0, name).key("ds:lobby:chat") == f"{name}/ds:lobby:chat"


@pytest.mark.parametrize(
    "name", ["", "x" * (SITE_LENGTH + 1), "a/b", "a:b", "a b", "a*", "a?", "[a]", "é", "a\n"]
)
def test_a_site_s_name_holds_no_delimiter_nor_wildcard(name: str) -> None:
    with pytest.raises(ValueError, match=f"1 to {SITE_LENGTH} ASCII letters, digits, '-' or '_'"):
        Space(0, name)


async def _until(check: Callable[[], Awaitable[bool]]) -> None:
    """Redis confirms a subscription on its own time."""
    async with asyncio.timeout(5):
        while not await check():
            await asyncio.sleep(0.02)


@pytest.mark.parametrize("site", [None, "a"], ids=["unnamed", "named"])
def test_each_key_and_channel_of_a_site_is_named_in_its_space(site: str | None) -> None:
    """What the relay, the presence, the lobby's bus and chat and the login counts name in
    Redis: an unnamed site's names are those of before, byte for byte."""
    require_services()
    token = secrets.token_hex(4)
    process, table, player = f"test-{token}", f"T{token}", f"Carla{token}x"
    mine = "" if site is None else f"{site}/"

    async def story() -> None:
        async with AsyncExitStack() as stack:
            redis = Redis.from_url(REDIS)
            stack.push_async_callback(redis.aclose)
            space = Space.of(redis, site)
            db = space.database
            relay = Relay(redis, space, process)
            await relay.start()
            stack.push_async_callback(relay.close)
            await relay.follow(table)
            bus = RedisBus(redis, space)
            await bus.start()
            stack.push_async_callback(bus.close)
            presence = RedisPresence(redis, space, process)
            presence.here.add(OnlinePlayer(player, player, False), None, lobby=True)
            await presence.publish()
            stack.push_async_callback(presence.close)
            history = RedisHistory(redis, space)
            said = message(player, "hello", None, 1.0)
            await history.add(said)
            stack.push_async_callback(history.remove, said["id"])
            stack.push_async_callback(_forget_counts, redis, [token, name_key(player)])
            await Logins(LoginLimits(), site_counts(redis, space)).failed(player, token)

            channels = {
                f"db{db}:{mine}ds:p:{process}",
                f"db{db}:{mine}ds:t:{table}",
                f"db{db}:{mine}ds:lobby",
            }

            async def subscribed() -> bool:
                found = await redis.pubsub_channels(f"db{db}:*")
                return channels <= {c.decode() for c in found}

            await _until(subscribed)
            keys = [f"{mine}ds:alive:{process}", f"{mine}ds:online:{process}"]
            assert await redis.exists(*keys, f"{mine}ds:lobby:chat") == 3
            counts = await _counts(redis, [token, name_key(player)])
            assert len(counts) == 3  # per name and address, per name, per address
            assert all(key.startswith(f"{mine}doublesix-logins:") for key in counts), counts

    run_async(story())


def test_sites_on_one_database_share_no_presence_liveness_nor_login_counts() -> None:
    """The unnamed site, a site and a site whose name begins with the first's: each lists
    only its own players (its scan finds only its own hashes), knows only its own processes
    alive, and counts only its own failed logins."""
    require_services()
    token = secrets.token_hex(4)
    names = [None, f"t{token}", f"t{token}b"]
    limits = LoginLimits(per_name_and_address="2/minute")

    async def story() -> None:
        async with AsyncExitStack() as stack:
            redis = Redis.from_url(REDIS)
            stack.push_async_callback(redis.aclose)
            spaces = [Space.of(redis, name) for name in names]
            players = [f"{n}-{token}" for n in range(len(spaces))]
            processes = [f"test-{n}-{token}" for n in range(len(spaces))]
            presences, relays = [], []
            for space, player, process in zip(spaces, players, processes, strict=True):
                presence = RedisPresence(redis, space, process)
                presence.here.add(OnlinePlayer(player, player, False), None, lobby=True)
                await presence.publish()
                stack.push_async_callback(presence.close)
                presences.append(presence)
                relay = Relay(redis, space, process)
                await relay.start()
                stack.push_async_callback(relay.close)
                relays.append(relay)
            for presence, relay, player, process in zip(
                presences, relays, players, processes, strict=True
            ):
                online = await presence.online()
                assert player in online
                assert not online.keys() & (set(players) - {player})
                assert await relay.living(set(processes)) == {process}

            account, address = f"Anna{token}x", f"test-{token}"
            counts = [Logins(limits, site_counts(redis, space)) for space in spaces]
            stack.push_async_callback(_forget_counts, redis, [address, name_key(account)])
            await fail(counts[1], account, address, 2)
            assert await refusal(counts[1], account, address) is not None
            for others in (counts[0], counts[2]):
                assert await refusal(others, account, address) is None

    run_async(story())


async def _counts(redis: Redis, parts: list[str]) -> set[str]:
    """The failed logins' counts of every site that name one of ``parts``."""
    found = set()
    for part in parts:
        async for key in redis.scan_iter(f"*doublesix-logins:*{part}*"):
            found.add(key.decode())
    return found


async def _forget_counts(redis: Redis, parts: list[str]) -> None:
    keys = await _counts(redis, parts)
    if keys:
        await redis.delete(*keys)
