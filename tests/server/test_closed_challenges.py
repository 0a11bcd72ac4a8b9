"""A closed account's open challenges end at once, as if its player had left the site
(``Lobby.shut_out``, ``challenges.gone``): by its erasure, its own close or a ban, the others'
lobbies are told now — not when the challenge's minute runs out — and nothing stays open; by
``doublesix account close --redis`` too, on a site of two processes."""

from __future__ import annotations

import json
import time
from contextlib import ExitStack

import pytest

from doublesix.cli import main
from doublesix.server import schema

from .server_helpers import BOTH, TestClient
from .site_helpers import REDIS, Site
from .test_accounts import PASSWORD, rows
from .test_lobby_socket import Lobby, challenge
from .test_operator import appoint_on, shut
from .test_shut_out import CLOSED, browser, closed_remotely, cookie, logged_in


@pytest.fixture
def client(accounts_client: TestClient) -> TestClient:
    """A site where a player with no socket left is noticed only after a minute: what ends a
    challenge at once here is the close, not the leaving."""
    accounts_client.app.state.lobby.leave_seconds = 60.0  # type: ignore[attr-defined]
    return accounts_client


def close(client: TestClient, how: str, name: str) -> None:
    """The account ``name``, logged in, is closed ``how``: erased, closed by its player, or
    banned by the operator Olga."""
    if how == "ban":
        client.cookies.clear()
        assert client.post("/api/session", json={"name": "Olga", "password": PASSWORD}).is_success
        banned = client.post("/api/operator/close", json={"name": name, "reason": "abuse"})
        assert banned.json() == {"name": name, "already": False}
        return
    asked = client.post(f"/api/account/{how}", json={"password": PASSWORD})
    assert asked.is_success, asked.text


@BOTH
@pytest.mark.parametrize("how", ["erase", "close", "ban"])
@pytest.mark.parametrize("closing", ["challenger", "challenged"])
def test_a_closed_account_s_challenges_end_at_once(
    client: TestClient, how: str, closing: str
) -> None:
    """Anna challenges Boris; one of them is closed ``how``: the other's lobby gets the
    challenge's end at once — cancelled if Anna made it, left if Boris was sent it — and
    no challenge stays open (after an erasure, the stored one shows the pseudonym)."""
    anna, boris = logged_in(client, "Anna"), logged_in(client, "Boris")
    logged_in(client, "Olga")
    appoint_on(client, "Olga")
    with ExitStack() as stack:
        a, b = Lobby(client, stack, anna), Lobby(client, stack, boris)
        made = challenge(client, anna, to=["Boris"])
        assert made.is_success, made.text
        assert b.challenge("open")["id"] == a.challenge("open")["id"] == made.json()["id"]
        gone, stays = (a, b) if closing == "challenger" else (b, a)
        client.cookies.clear()
        client.cookies.update(anna if closing == "challenger" else boris)
        started = time.monotonic()
        close(client, how, "Anna" if closing == "challenger" else "Boris")
        ended = stays.next("challenge")["challenge"]
        assert time.monotonic() - started < 5  # not the minute of its expiry
        assert shut(gone.ws)[0] == CLOSED
    assert ended["id"] == made.json()["id"]
    if closing == "challenger":
        assert ended["status"] == "cancelled"
    else:
        assert (ended["status"], [p["left"] for p in ended["to"]]) == ("left", [True])
    [row] = rows(client, schema.challenges)
    assert row.status == ended["status"]
    if how == "erase":
        names = [row.name, *(i["name"] for i in row.invited)]
        assert "Anna" not in names if closing == "challenger" else "Boris" not in names


def test_the_command_line_s_ban_ends_its_challenges_on_every_process(
    site: Site, names: tuple[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    """Ben, on the second process, challenged Anna, on the first; ``doublesix account close
    Ben --redis`` ends the challenge before it shuts him out: Anna's lobby hears it cancelled
    while Ben is still online there (leaving would take 3 s without a socket)."""
    ours, _ = names
    one, two = site.start("--site", ours), site.start("--site", ours)
    anna, ben = browser(one, "Anna"), browser(two, "Ben")
    annas_lobby = one.socket("/ws/lobby", additional_headers=cookie(anna))
    bens_lobby = two.socket("/ws/lobby", additional_headers=cookie(ben))
    made = ben.post("/api/challenges", json={"to": ["Anna"], "preset": "draw"})
    assert made.status_code == 201, made.text
    while (frame := json.loads(annas_lobby.recv(timeout=15)))["type"] != "challenge":
        pass
    assert frame["challenge"]["status"] == "open"

    started = time.monotonic()
    options = ["--db", site.db, "--redis", REDIS, "--site", ours]
    assert main(["account", "close", "Ben", *options]) == 0
    capsys.readouterr()
    while (frame := json.loads(annas_lobby.recv(timeout=15)))["type"] != "challenge":
        gone = frame["type"] == "online" and "Ben" in str(frame.get("removed"))
        assert not gone, frame  # told before Ben leaves the online list
    assert time.monotonic() - started < 2.5
    ended = frame["challenge"]
    assert (ended["id"], ended["status"]) == (made.json()["id"], "cancelled")
    assert closed_remotely(bens_lobby)[0] == CLOSED
