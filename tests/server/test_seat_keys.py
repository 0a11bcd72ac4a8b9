"""A new password gives every seat its account holds at a table not over a new token
(``seat_keys``): the old one holds the seat no more — its sockets watch, closing at once if
their session ended with the password (a thief's), and a hello with it is refused with 4401 —
while the seat stays the account's, its game goes on and its player takes the new token by
the usual join. A log-out changes no token. On SQLite and PostgreSQL; the command line's
reset without ``--redis``, which reaches no server; then two ``doublesix serve`` processes
through Redis, by the web and by the command line."""

from __future__ import annotations

import io
import json
from contextlib import ExitStack
from typing import Any

import httpx
import pytest
from starlette.testclient import WebSocketTestSession

from doublesix.cli import main
from doublesix.server import schema

from .server_helpers import BOTH, Command, Socket, TestClient
from .site_helpers import REDIS, Process, Site
from .test_accounts import PASSWORD, rows
from .test_lobby_socket import as_player, name
from .test_operator import shut
from .test_session_sockets import SIGNED_OUT, another_session
from .test_shut_out import TWO, browser, closed_remotely, hello, logged_in, table_of

NEW = "a brand new secret"
REKEYED = [{"seat": 1, "rekey": True}]
"""The events of the entry that gives seat 1 a new token."""
BAD_TOKEN = {"type": "error", "code": "bad_token", "message": "that token holds no seat here"}


@pytest.fixture
def client(accounts_client: TestClient) -> TestClient:
    return accounts_client


def refused_hello(ws: WebSocketTestSession, token: str) -> tuple[int, list[dict[str, Any]]]:
    """The close code and frames a hello with ``token`` gets."""
    ws.send_json({"type": "hello", "token": token, "since": None})
    (code, _), frames = shut(ws)
    return code, frames


def told_rekeyed(frames: list[dict[str, Any]]) -> bool:
    """Whether a seat socket's last frames are the new token's entry, then ``unseat``."""
    told = [f for f in frames if f["type"] != "presence"]
    return [(f["type"], f.get("events")) for f in told] == [("update", REKEYED), ("unseat", None)]


@BOTH
def test_a_new_password_takes_a_stolen_session_s_seat_and_gives_it_back_to_its_player(
    client: TestClient,
) -> None:
    """A thief logged in with Ben's password plays Ben's seat against Anna, a guest, with
    the token that session was given. Ben changes his password: the usual join answers him
    his seat with a new token; the thief's socket gets the entry that gives it, then
    ``unseat``, and closes with 4411 (its session ended with the password); the old token is
    refused (4401) and the thief's cookie joins no more. Anna's game goes on, Ben's seat away
    meanwhile, its clock unchanged, until Ben plays it with the new token. No entry holds a
    token."""
    anna, ben = name(client, "Anna"), logged_in(client, "Ben")
    thief = another_session(client, "Ben")
    timed = {"preset": "draw", "seats": TWO, "timer": 60}
    table_id, token, stolen = table_of(client, anna, thief, **timed)
    with ExitStack() as stack:
        as_player(client, anna)
        a = Socket(client, stack, table_id, token)
        as_player(client, thief)
        t = Socket(client, stack, table_id, stolen)
        a.all_here()
        assert (t.seat, a.view["status"]) == (1, "playing")
        deadline = a.view["timer"]["deadline"]

        as_player(client, ben)
        changed = client.post("/api/account/password", json={"old": PASSWORD, "new": NEW})
        assert changed.status_code == 200, changed.text
        joined = client.post(f"/api/tables/{table_id}/join", json={}).json()
        assert joined["seat"] == 1 and joined["token"] not in (token, stolen)
        closed, frames = shut(t.ws)
        assert closed == SIGNED_OUT and told_rekeyed(frames), frames
        assert a.update()["events"] == REKEYED
        [away] = a.receive_presence()["away"]
        assert (away["seat"], away["bot"], away["left"]) == (1, False, False)
        assert a.view["timer"]["deadline"] == deadline

        with client.websocket_connect(f"/ws/table/{table_id}") as ws:
            assert refused_hello(ws, stolen) == (4401, [BAD_TOKEN])
        as_player(client, thief)
        assert client.post(f"/api/tables/{table_id}/join", json={}).status_code == 401

        as_player(client, ben)
        b = Socket(client, stack, table_id, joined["token"])
        assert b.seat == 1
        a.all_here()
        for _ in range(2):  # Anna's move and Ben's, in either order
            mover = a if a.view["turn"] == 0 else b
            mover.play(mover.view["legal"][0])
            assert a.update()["events"][0]["seat"] == b.update()["events"][0]["seat"]
        assert b.view["status"] == "playing"

    logged = json.dumps([list(row) for row in rows(client, schema.events)])
    assert '"rekey"' in logged and stolen not in logged and joined["token"] not in logged


@BOTH
def test_a_log_out_keeps_the_seat_s_token_and_a_new_password_keeps_the_seat_waiting(
    client: TestClient,
) -> None:
    """Ben sits at Anna's table for three before the start and logs out: his token still
    takes his seat, and once he is back the join answers the same one. He then changes his
    password: the seat stays his, with a new token the join answers; his socket with the old
    one watches from then on (its session is the one that changed the password: it stays
    open, and speaks as a spectator), and a hello with the old one is refused. Changing it
    again gives yet another."""
    anna, ben = name(client, "Anna"), logged_in(client, "Ben")
    seats = [{"kind": "human"}, {"kind": "open"}, {"kind": "open"}]
    table_id, token, his = table_of(client, anna, ben, preset="draw", seats=seats)
    as_player(client, ben)
    assert client.delete("/api/session").json() == {"player": None}
    ben = another_session(client, "Ben")
    again = client.post(f"/api/tables/{table_id}/join", json={}).json()
    assert again == {"seat": 1, "token": his}
    with ExitStack() as stack:
        as_player(client, anna)
        a = Socket(client, stack, table_id, token)
        as_player(client, ben)
        b = Socket(client, stack, table_id, his)
        assert b.seat == 1

        changed = client.post("/api/account/password", json={"old": PASSWORD, "new": NEW})
        assert changed.status_code == 200, changed.text
        seated = client.get(f"/api/tables/{table_id}").json()
        assert [s["name"] for s in seated["seats"]] == ["Anna", "Ben", None]
        joined = client.post(f"/api/tables/{table_id}/join", json={}).json()
        assert joined["seat"] == 1 and joined["token"] != his
        assert b.update()["events"] == REKEYED
        assert b.receive() == {"type": "unseat", "seat": 1}
        b.send({"type": "chat", "text": "watching now"})
        said = b.receive()
        assert (said["from"], said["channel"]) == ("Ben", "spectators")
        assert a.update()["events"] == REKEYED
        with client.websocket_connect(f"/ws/table/{table_id}") as ws:
            assert refused_hello(ws, his) == (4401, [BAD_TOKEN])
        assert Socket(client, stack, table_id, joined["token"]).seat == 1

        changed = client.post("/api/account/password", json={"old": NEW, "new": PASSWORD})
        assert changed.status_code == 200, changed.text
        anew = client.post(f"/api/tables/{table_id}/join", json={}).json()
        assert anew["seat"] == 1 and anew["token"] not in (his, joined["token"])


def test_the_command_line_s_reset_without_redis_leaves_the_seats_tokens(
    client: TestClient, account: Command
) -> None:
    """``doublesix account password`` without ``--redis`` reaches no server: it says that
    Ben's seat keeps its token, which still takes it."""
    anna, ben = name(client, "Anna"), logged_in(client, "Ben")
    table_id, _, his = table_of(client, anna, ben, preset="draw", seats=TWO)
    assert account("password", "Ben", typed=NEW) == (
        0,
        "the password of Ben is replaced; 1 session(s) ended\n"
        "its seats at 1 table(s) not over keep their tokens, and play on: pass --redis to "
        "give them new ones now\n",
        "",
    )
    with ExitStack() as stack:
        assert Socket(client, stack, table_id, his).seat == 1


# --- two processes ------------------------------------------------------------------------


def seated_through(one: Process, two: Process) -> tuple[str, httpx.Client, httpx.Client, str]:
    """Anna makes a table for two on the first process; Ben and a thief with his password,
    both on the second, where the thief takes Ben's seat: the table, Ben's browser, the
    thief's, and the thief's token."""
    anna, ben = browser(one, "Anna"), browser(two, "Ben")
    thief = httpx.Client(base_url=two.url, timeout=30)
    logged = thief.post("/api/session", json={"name": "Ben", "password": PASSWORD})
    assert logged.status_code == 200, logged.text
    made = anna.post("/api/tables", json={"preset": "draw", "seats": TWO}).json()
    joined = thief.post(f"/api/tables/{made['id']}/join", json={}).json()
    assert joined["seat"] == 1
    return made["id"], ben, thief, joined["token"]


def refused_remotely(process: Process, table_id: str, token: str) -> tuple[int, list[Any]]:
    ws = process.socket(f"/ws/table/{table_id}")
    ws.send(json.dumps({"type": "hello", "token": token, "since": None}))
    (code, _), frames = closed_remotely(ws)
    return code, frames


def test_a_new_password_on_one_process_gives_a_new_token_at_the_table_the_other_runs(
    site: Site,
) -> None:
    """The thief plays Ben's seat through the second process at a table the first runs. Ben
    changes his password through the second: the first gives the seat a new token (asked
    through the relay); the thief's socket is unseated and closes with 4411, the old token
    is refused on both processes, and Ben's join through the second answers the new one,
    which plays his seat there."""
    one, two = site.start(), site.start()
    table_id, ben, thief, stolen = seated_through(one, two)
    t = hello(two, table_id, stolen, thief)

    changed = ben.post("/api/account/password", json={"old": PASSWORD, "new": NEW})
    assert changed.status_code == 200, changed.text
    closed, frames = closed_remotely(t)
    assert closed == SIGNED_OUT and told_rekeyed(frames), frames
    for process in (one, two):
        assert refused_remotely(process, table_id, stolen) == (4401, [BAD_TOKEN])

    joined = ben.post(f"/api/tables/{table_id}/join", json={}).json()
    assert joined["seat"] == 1 and joined["token"] != stolen
    b = hello(two, table_id, joined["token"], ben)
    b.send(json.dumps({"type": "chat", "text": "mine again"}))
    while (frame := json.loads(b.recv(timeout=30)))["type"] != "chat":
        pass
    assert (frame["from"], frame["channel"], frame["seat"]) == ("Ben", "players", 1)


def test_the_operator_s_reset_with_redis_gives_new_tokens_on_every_process(
    site: Site,
    names: tuple[str, str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The operator resets Ben's password with ``--redis`` while the thief plays his seat
    through the second process at a table the first runs: the first gives it a new token, the
    thief's socket is unseated and closes, and the old token is refused; the command says
    so."""
    ours, _ = names
    one, two = site.start("--site", ours), site.start("--site", ours)
    table_id, _, thief, stolen = seated_through(one, two)
    t = hello(two, table_id, stolen, thief)

    monkeypatch.setattr("sys.stdin", io.StringIO(f"{NEW}\n"))
    options = ["--db", site.db, "--redis", REDIS, "--site", ours]
    assert main(["account", "password", "Ben", *options]) == 0
    said = capsys.readouterr().out.splitlines()
    assert said == [
        "the password of Ben is replaced; 2 session(s) ended",
        "their pages' sockets are closed and its seats at 1 table(s) not over take new tokens "
        "(2 server process(es) heard it)",
    ]
    closed, frames = closed_remotely(t)
    assert closed == SIGNED_OUT and told_rekeyed(frames), frames
    assert refused_remotely(two, table_id, stolen) == (4401, [BAD_TOKEN])
    assert thief.post(f"/api/tables/{table_id}/join", json={}).status_code == 401
