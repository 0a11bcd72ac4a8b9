"""The limits per player that protect the others (``server/player_limits.py``) are the site's
with several processes: across two real ``doublesix serve`` processes on PostgreSQL and
Redis, an account's 6th private message in 10 s, a player's 11th challenge in a minute,
21st seek in a minute and 6th lobby message in 10 s, and a guest's 11th new table in a
minute, are refused on the process that counted none of the others, and
nothing of them is kept; a guest's 6th unfinished table, 3 made on one process and 2 on the
other, is refused on either (counted in the database).
Two sites named on one Redis count apart, as do two limits of one rate. A Redis that does
not answer, refusing or silent, leaves a process counting alone, and a send goes through
when the site's Redis goes away mid-run. (Without Redis, the tests of each limit run on
``LocalPlayerLimits``: ``test_messages``, ``test_lobby``, ``test_lobby_socket``.)"""

from __future__ import annotations

import asyncio
import json
import logging
import socket
from collections.abc import Iterator

import httpx
import pytest
import sqlalchemy as sa
from redis.asyncio import Redis

from doublesix.server import lobby_chat, messages, player_limits, schema, seeking
from doublesix.server.channels import Space
from doublesix.server.errors import CommandError
from doublesix.server.player_limits import RedisPlayerLimits
from doublesix.server.routes import tables
from doublesix.server.store import SqlStore

from .conftest import CHEAP
from .server_helpers import AppFactory, TestClient, run_async
from .site_helpers import REDIS, Process, Site, require_services
from .test_messages import account_on, write
from .test_shut_out import logged_in
from .test_site_lobby import LobbySocket, guest


def kept(db: str, table: sa.Table) -> int:
    """The rows of ``table`` in the site's database."""

    async def count() -> int:
        store = SqlStore(db)
        try:
            async with store.engine.connect() as conn:
                return int(
                    (await conn.execute(sa.select(sa.func.count()).select_from(table))).scalar_one()
                )
        finally:
            await store.close()

    return run_async(count())


def same_player(client: httpx.Client, process: Process) -> httpx.Client:
    """The browser of ``client`` sent to ``process`` (a proxy that deals requests round)."""
    return httpx.Client(base_url=process.url, cookies=client.cookies, timeout=10)


def test_an_account_s_messages_are_counted_by_the_site(site: Site, names: tuple[str, str]) -> None:
    one, two = site.start("--site", names[0]), site.start("--site", names[0])
    anna, _ = account_on(one, "Anna"), account_on(two, "Ben")
    for n in range(messages.RATE.amount):
        assert anna.post("/api/messages", json={"to": "Ben", "text": f"m{n}"}).status_code == 201
    refused = same_player(anna, two).post("/api/messages", json={"to": "Ben", "text": "more"})
    assert refused.status_code == 429, refused.text
    assert refused.json()["code"] == "rate_limited"
    assert kept(site.db, schema.messages) == messages.RATE.amount


def test_a_player_s_challenges_are_counted_by_the_site(site: Site, names: tuple[str, str]) -> None:
    one, two = site.start("--site", names[0]), site.start("--site", names[0])
    anna, ben = guest(one, "Anna"), guest(two, "Ben")
    lobbies = LobbySocket(one, anna), LobbySocket(two, ben)
    lobbies[0].until_online({"Anna", "Ben"})  # the first process sees Ben online
    for _ in range(10):  # each withdrawn: 3 may wait at once
        made = anna.post("/api/challenges", json={"to": ["Ben"], "preset": "draw"})
        assert made.status_code == 201, made.text
        assert anna.post(f"/api/challenges/{made.json()['id']}/cancel").status_code == 200
        for lobby in lobbies:  # read: a socket's queue is bounded
            told = [lobby.next("challenge")["challenge"]["status"] for _ in range(2)]
            assert told == ["open", "cancelled"]
    challenge = {"to": ["Ben"], "preset": "draw"}
    refused = same_player(anna, two).post("/api/challenges", json=challenge)
    assert refused.status_code == 429, refused.text
    assert refused.json()["code"] == "too_many_challenges"
    assert "10 challenges a minute" in refused.json()["error"]  # not 3 waiting at once
    assert kept(site.db, schema.challenges) == 10


def test_a_player_s_lobby_chat_is_counted_by_the_site(site: Site, names: tuple[str, str]) -> None:
    one, two = site.start("--site", names[0]), site.start("--site", names[0])
    anna = guest(one, "Anna")
    here, there = LobbySocket(one, anna), LobbySocket(two, anna)  # two tabs
    for n in range(lobby_chat.RATE.amount):
        here.ws.send(json.dumps({"type": "chat", "text": f"m{n}"}))
        assert here.next("chat")["text"] == f"m{n}"
    there.ws.send(json.dumps({"type": "chat", "text": "more"}))
    assert there.next("error")["code"] == "rate_limited"
    assert [m["text"] for m in LobbySocket(two, None).welcome["chat"]][-1] == "m4"


def test_a_player_s_seeks_are_counted_by_the_site(site: Site, names: tuple[str, str]) -> None:
    one, two = site.start("--site", names[0]), site.start("--site", names[0])
    anna = guest(one, "Anna")
    kind = {"preset": "draw", "players": 2}
    for _ in range(seeking.SEEKS.amount):  # each replaces the last
        assert anna.post("/api/seeks", json=kind).status_code == 201
    refused = same_player(anna, two).post("/api/seeks", json=kind)
    assert refused.status_code == 429, refused.text
    assert refused.json()["code"] == "too_many_seeks"


def test_a_guest_s_unfinished_tables_are_counted_by_the_site(
    site: Site, names: tuple[str, str]
) -> None:
    """3 of a guest's tables made on one process, 2 on the other: the 6th is refused on
    either (each runs fewer than ``TABLES_AT_ONCE`` of them)."""
    one, two = site.start("--site", names[0]), site.start("--site", names[0])
    anna = guest(one, "Anna")
    browsers = anna, same_player(anna, two)  # one browser, on each process
    for browser, made in zip(browsers, (3, 2), strict=True):
        for _ in range(made):
            created = browser.post("/api/tables", json={"preset": "draw"})
            assert created.status_code == 200, created.text
    for browser in browsers:
        refused = browser.post("/api/tables", json={"preset": "draw"})
        assert refused.status_code == 429, refused.text
        assert refused.json()["code"] == "too_many_tables"
        assert f"{tables.TABLES_AT_ONCE} unfinished tables" in refused.json()["error"]
    assert kept(site.db, schema.tables) == tables.TABLES_AT_ONCE


def test_a_guest_s_new_tables_are_counted_by_the_site(names: tuple[str, str]) -> None:
    """The site's count of ``CREATIONS`` a minute refuses the next one, whichever process
    counted the others."""
    require_services()

    async def story() -> None:
        one, two = Redis.from_url(REDIS), Redis.from_url(REDIS)
        try:
            here = RedisPlayerLimits(one, Space.of(one, names[0]))
            there = RedisPlayerLimits(two, Space.of(two, names[0]))
            for _ in range(tables.CREATIONS.amount):
                await tables.check_rate(here, "anna")
            with pytest.raises(CommandError) as refused:
                await tables.check_rate(there, "anna")
            assert refused.value.code == "too_many_tables"
            assert f"{tables.CREATIONS.amount} tables a minute" in str(refused.value)
        finally:
            await one.aclose()
            await two.aclose()

    run_async(story())


def test_a_site_s_processes_count_together_and_two_sites_apart(names: tuple[str, str]) -> None:
    require_services()

    async def story() -> None:
        one, two = Redis.from_url(REDIS), Redis.from_url(REDIS)
        try:
            ours = RedisPlayerLimits(one, Space.of(one, names[0]))
            also_ours = RedisPlayerLimits(two, Space.of(two, names[0]))
            theirs = RedisPlayerLimits(two, Space.of(two, names[1]))  # its name begins with ours
            for _ in range(messages.RATE.amount):
                assert await ours.hit(messages.RATE, "anna")
            assert not await also_ours.hit(messages.RATE, "anna")
            assert await also_ours.hit(lobby_chat.RATE, "anna")  # the same rate, counted apart
            assert await theirs.hit(messages.RATE, "anna")
        finally:
            await one.aclose()
            await two.aclose()

    run_async(story())


@pytest.fixture
def silent_redis() -> Iterator[str]:
    """A Redis URL whose server takes connections and never answers."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        yield f"redis://127.0.0.1:{listener.getsockname()[1]}/0"


@pytest.mark.parametrize("away", ["closed", "silent"])
def test_a_process_counts_alone_while_redis_does_not_answer(
    away: str,
    silent_redis: str,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    monkeypatch.setattr(player_limits, "ANSWER_SECONDS", 0.2)
    url = "redis://127.0.0.1:1/0" if away == "closed" else silent_redis

    async def story() -> list[bool]:
        redis = Redis.from_url(url, socket_connect_timeout=1)
        try:
            limits = RedisPlayerLimits(redis, Space.of(redis))
            return [await limits.hit(messages.RATE, "anna") for _ in range(6)]
        finally:
            await redis.aclose()

    with caplog.at_level(logging.WARNING, logger=player_limits.__name__):
        # A silent Redis never answers: without the process's own timeout this hangs.
        assert run_async(asyncio.wait_for(story(), 30)) == [True] * 5 + [False]
    assert "this process counts alone" in caplog.text


def redis_at(client: TestClient, port: int) -> int:
    """The app's Redis connections, but those in use, made again to ``port`` from now on
    (1: Redis went away); the port they were made to."""
    pool = client.app.state.server.redis.connection_pool  # type: ignore[attr-defined]
    assert client.portal is not None
    client.portal.call(pool.disconnect, False)
    pool.reset()
    was, pool.connection_kwargs["port"] = pool.connection_kwargs["port"], port
    return int(was)


@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
def test_a_send_goes_through_when_redis_goes_away(
    make_app: AppFactory, names: tuple[str, str], caplog: pytest.LogCaptureFixture
) -> None:
    require_services()
    with TestClient(make_app(redis_url=REDIS, site=names[0], password_hasher=CHEAP)) as client:
        anna, _ = logged_in(client, "Anna"), logged_in(client, "Ben")
        assert write(client, anna, "Ben", "before").status_code == 201
        port = redis_at(client, 1)
        try:
            sends = [write(client, anna, "Ben", f"m{n}").status_code for n in range(6)]
        finally:
            redis_at(client, port)
    assert sends == [201] * 5 + [429]  # counted by this process alone meanwhile
    assert "this process counts alone" in caplog.text
