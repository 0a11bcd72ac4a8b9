"""A tournament on two real ``doublesix serve`` processes on PostgreSQL and Redis (see
``site_helpers.py``): both sweep every second and either may pair; players joined on either
process are each seated once, at one table, and told on their own process's lobby socket."""

from __future__ import annotations

import json
import time
from typing import Any

import httpx

from .site_helpers import Process, Site

PAIRED_WAIT = 30.0
QUIET = 3.0
"""Seconds of both processes' sweeps (three each) in which no player may be paired again."""


def account(process: Process, name: str) -> httpx.Client:
    client = httpx.Client(base_url=process.url, timeout=20)
    assert client.post("/api/guest", json={"name": name}).status_code == 200
    made = client.post("/api/accounts", json={"name": name, "password": "correct horse"})
    assert made.status_code == 201, made.text
    return client


class LobbySocket:
    def __init__(self, process: Process, client: httpx.Client) -> None:
        cookie = "; ".join(f"{k}={v}" for k, v in client.cookies.items())
        self.ws = process.socket("/ws/lobby", additional_headers={"Cookie": cookie})
        assert self.receive(PAIRED_WAIT)["type"] == "welcome"

    def receive(self, timeout: float) -> dict[str, Any]:
        frame: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        return frame


def paired(
    sockets: dict[str, LobbySocket], within: float, *, all_once: bool = False
) -> dict[str, list[dict[str, Any]]]:
    """The ``tournament_paired`` frames each socket gets within ``within`` seconds, or
    until each has one (``all_once``); every socket is read in turn, so that none fills up
    meanwhile."""
    found: dict[str, list[dict[str, Any]]] = {name: [] for name in sockets}
    deadline = time.monotonic() + within
    while time.monotonic() < deadline and not (all_once and all(found.values())):
        for name, socket in sockets.items():
            try:
                frame = socket.receive(0.05)
            except TimeoutError:
                continue
            if frame["type"] == "tournament_paired":
                found[name].append(frame)
    return found


def test_players_on_two_processes_are_paired_once(site: Site) -> None:
    one, two = site.start(), site.start()
    where = {"Anna": one, "Ben": two, "Cleo": one, "Dan": two}
    clients = {name: account(process, name) for name, process in where.items()}
    body = {"preset": "draw", "players": 2, "starts_in": 0, "minutes": 30}
    made = clients["Anna"].post("/api/tournaments", json=body)
    assert made.status_code == 201, made.text
    tid = made.json()["id"]
    for client in clients.values():
        assert client.post(f"/api/tournaments/{tid}/join").status_code == 200
    sockets = {name: LobbySocket(where[name], client) for name, client in clients.items()}

    first = paired(sockets, PAIRED_WAIT, all_once=True)
    assert all(first.values()), (first, clients["Anna"].get(f"/api/tournaments/{tid}").json())
    again = paired(sockets, QUIET)  # both processes sweep again, three times each
    assert all(len(told) == 1 for told in first.values()) and not any(again.values()), again
    tables = {name: told[0]["table"] for name, told in first.items()}
    assert {told[0]["tournament"] for told in first.values()} == {tid}
    assert len(set(tables.values())) == 2
    for table in set(tables.values()):
        seats = clients["Anna"].get(f"/api/tables/{table}").json()["seats"]
        assert sorted(s["name"] for s in seats) == sorted(
            n for n, t in tables.items() if t == table
        )
    detail = clients["Ben"].get(f"/api/tournaments/{tid}").json()
    assert (len(detail["games"]), detail["playing"]) == (2, 2)
    assert {s["name"]: s["table"] for s in detail["standings"]} == tables
