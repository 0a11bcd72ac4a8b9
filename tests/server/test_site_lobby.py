"""Issue 11 on several processes: who is online and a challenge across two real ``doublesix
serve`` processes on PostgreSQL and Redis (see ``site_helpers.py``)."""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from redis import Redis

from doublesix.server.logins import KEY_PREFIX, LoginLimits

from .server_helpers import apply_online
from .site_helpers import REDIS, Process, Site, new_database


def guest(process: Process, name: str) -> httpx.Client:
    client = httpx.Client(base_url=process.url, timeout=10)
    assert client.post("/api/guest", json={"name": name}).status_code == 200
    return client


class LobbySocket:
    def __init__(self, process: Process, client: httpx.Client | None) -> None:
        cookie = "" if client is None else f"ds_guest={client.cookies['ds_guest']}"
        headers = {"Cookie": cookie} if cookie else {}
        self.ws = process.socket("/ws/lobby", additional_headers=headers)
        self.welcome = self.receive()
        assert self.welcome["type"] == "welcome", self.welcome
        self.players = self.welcome["players"]

    @property
    def names(self) -> set[str]:
        return {p["name"] for p in self.players}

    def receive(self) -> dict[str, Any]:
        frame: dict[str, Any] = json.loads(self.ws.recv(timeout=30))
        if frame["type"] == "online":
            self.players = apply_online(self.players, frame)
        return frame

    def next(self, kind: str) -> dict[str, Any]:
        while True:
            frame = self.receive()
            if frame["type"] == kind:
                return frame

    def until_online(self, names: set[str]) -> None:
        while self.names != names:
            self.next("online")


def test_presence_and_a_challenge_across_two_processes(site: Site) -> None:
    one, two = site.start(), site.start()
    anna, ben = guest(one, "Anna"), guest(two, "Ben")
    a = LobbySocket(one, anna)
    b = LobbySocket(two, ben)
    a.until_online({"Anna", "Ben"})
    b.until_online({"Anna", "Ben"})

    r = anna.post("/api/challenges", json={"to": ["Ben"], "preset": "draw"})
    assert r.status_code == 201, r.text
    challenge = b.next("challenge")["challenge"]
    assert challenge["id"] == r.json()["id"] and challenge["from"] == "Anna"
    accepted = ben.post(f"/api/challenges/{challenge['id']}/accept")
    assert accepted.status_code == 200, accepted.text
    table_id = accepted.json()["table"]
    told = a.next("challenge")["challenge"]
    while told["status"] == "open":
        told = a.next("challenge")["challenge"]
    assert told["status"] == "accepted" and told["table"] == table_id
    table = anna.get(f"/api/tables/{table_id}").json()  # made by the other process
    assert table["status"] == "playing"
    assert [s["name"] for s in table["seats"]] == ["Anna", "Ben"]

    b.ws.send(json.dumps({"type": "chat", "text": "<b>hello</b> from two"}))
    said = a.next("chat")
    assert said["from"] == "Ben" and said["text"] == "<b>hello</b> from two"
    assert LobbySocket(one, None).welcome["chat"][-1]["text"] == "<b>hello</b> from two"

    two.kill()  # its players' entries expire: no ghost
    a.until_online({"Anna"})
    three = site.start()
    visitor = LobbySocket(three, None)
    assert visitor.names == {"Anna"}


def test_a_lobby_on_one_process_hears_the_tables_of_the_other(site: Site) -> None:
    """A table made, joined and started on one process shows in the lists of a lobby
    socket on the other, a change at a time (through Redis)."""
    one, two = site.start(), site.start()
    visitor = LobbySocket(two, None)
    anna = guest(one, "Anna")
    made = anna.post("/api/tables", json={"preset": "draw", "options": {"players": 2}}).json()
    table = visitor.next("table")["table"]
    assert (table["id"], table["status"]) == (made["id"], "open")
    ben = guest(one, "Ben")
    assert ben.post(f"/api/tables/{made['id']}/join", json={}).status_code == 200
    while table["status"] != "playing":
        table = visitor.next("table")["table"]
        assert table["id"] == made["id"]
    assert [s["name"] for s in table["seats"]] == ["Anna", "Ben"]


def test_a_challenge_ends_when_its_challengers_process_dies(site: Site) -> None:
    """Killed, Anna's process cannot say she left; the other process's sweep finds her online
    nowhere and cancels her challenge (not left to expire at the end of its minute)."""
    one, two = site.start(), site.start()
    anna, ben = guest(one, "Anna"), guest(two, "Ben")
    LobbySocket(one, anna)
    b = LobbySocket(two, ben)
    b.until_online({"Anna", "Ben"})
    made = anna.post("/api/challenges", json={"to": ["Ben"], "preset": "draw"})
    assert made.status_code == 201, made.text
    assert b.next("challenge")["challenge"]["status"] == "open"
    one.kill()
    told = b.next("challenge")["challenge"]
    assert (told["id"], told["status"]) == (made.json()["id"], "cancelled"), told
    b.until_online({"Ben"})


def test_seekers_on_two_processes_share_one_pool(site: Site) -> None:
    """Four seekers of Kozel, two on each process, sit at one table made by whichever
    process saw the fourth; a seeker whose process dies leaves the pool."""
    one, two = site.start(), site.start()
    clients = [guest(p, n) for p, n in ((one, "Anna"), (two, "Ben"), (one, "Cleo"), (two, "Dan"))]
    sockets = [LobbySocket(p, c) for p, c in zip((one, two, one, two), clients, strict=True)]
    sockets[1].until_online({"Anna", "Ben", "Cleo", "Dan"})
    for n, client in enumerate(clients[:3], 1):
        assert client.post("/api/seeks", json={"preset": "kozel"}).json()["table"] is None
        count = sockets[1].next("pool")["pool"]
        while count != [{"preset": "kozel", "players": 4, "rated": False, "seeking": n}]:
            count = sockets[1].next("pool")["pool"]
    table_id = clients[3].post("/api/seeks", json={"preset": "kozel"}).json()["table"]
    assert table_id
    for socket in sockets:
        told = socket.next("seek")
        while told["table"] is None:
            told = socket.next("seek")
        assert told == {"type": "seek", "seek": None, "table": table_id}
    table = clients[0].get(f"/api/tables/{table_id}").json()
    assert sorted(s["name"] for s in table["seats"]) == ["Anna", "Ben", "Cleo", "Dan"]
    assert table["status"] == "playing"

    eve = guest(one, "Eve")
    e = LobbySocket(one, eve)
    assert eve.post("/api/seeks", json={"preset": "draw", "players": 2}).status_code == 201
    assert e.next("seek")["seek"]["players"] == 2
    while sockets[1].next("pool")["pool"] != [
        {"preset": "draw", "players": 2, "rated": False, "seeking": 1}
    ]:
        pass
    one.kill()
    while sockets[1].next("pool")["pool"] != []:
        pass


def test_failed_logins_on_one_process_count_on_the_other(site: Site) -> None:
    one, two = site.start(), site.start()
    # the counts outlive the test in Redis; the last letter keeps the hex from ending in "b07",
    # which registration reads as "bot"
    name = f"Carla{secrets.token_hex(3)}x"
    carla = httpx.Client(base_url=one.url, timeout=10)
    registered = carla.post("/api/accounts", json={"name": name, "password": "a long secret"})
    assert registered.status_code in (200, 201), registered.text
    tries = int(LoginLimits().per_name_and_address.split("/")[0])
    try:
        for n in range(tries):
            process = (one, two)[n % 2]
            wrong = httpx.post(
                f"{process.url}/api/session", json={"name": name, "password": "a wrong guess"}
            )
            assert wrong.status_code == 401, wrong.text
        for process in (one, two):
            held = httpx.post(
                f"{process.url}/api/session", json={"name": name, "password": "a long secret"}
            )
            assert held.status_code == 429 and held.json()["field"] == "name", held.text
    finally:  # this address's count too, so the next run starts afresh
        redis = Redis.from_url(REDIS)
        stale = list(redis.scan_iter(f"{KEY_PREFIX}*"))
        if stale:
            redis.delete(*stale)
        redis.close()


@pytest.fixture
def other_site(tmp_path: Path) -> Iterator[Site]:
    """Another site on the same Redis database, with a PostgreSQL database of its own."""
    folder = tmp_path / "other"
    folder.mkdir()
    with new_database() as db, Site(db, folder) as other:
        yield other


def test_two_sites_on_one_redis_database_by_name(
    site: Site, other_site: Site, names: tuple[str, str]
) -> None:
    """``serve --site``: two sites on the same Redis URL, each with its own PostgreSQL
    database, neither list each other's players nor hear each other's lobby chat."""
    one = site.start("--site", names[0])
    two = other_site.start("--site", names[1])
    anna, ben = LobbySocket(one, guest(one, "Anna")), LobbySocket(two, guest(two, "Ben"))
    for socket, name in ((anna, "Anna"), (ben, "Ben")):
        while name not in socket.names:  # read from its site's hashes in Redis
            socket.next("online")
    # a newcomer on each site: each list is read again, with both players' hashes in Redis
    for socket, process, newcomer in ((anna, one, "Cleo"), (ben, two, "Dan")):
        LobbySocket(process, guest(process, newcomer))
        while newcomer not in socket.names:
            socket.next("online")
    assert (anna.names, ben.names) == ({"Anna", "Cleo"}, {"Ben", "Dan"})

    # Redis hands a message to every subscriber as it publishes it: had Ben's reached Anna's
    # process, it would have come before her own, said after Ben heard his
    ben.ws.send(json.dumps({"type": "chat", "text": "from two"}))
    assert ben.next("chat")["text"] == "from two"
    anna.ws.send(json.dumps({"type": "chat", "text": "from one"}))
    assert anna.next("chat")["text"] == "from one"
    for process, said in ((one, "from one"), (two, "from two")):
        assert [m["text"] for m in LobbySocket(process, None).welcome["chat"]] == [said]
