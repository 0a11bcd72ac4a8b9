"""A session that ends closes the lobby sockets opened with it, full and personal, and the
table sockets that watch with it, with 4411 (``Lobby.sign_out``): a log-out, a new password
(the account's other sessions), a log-in over an old session. Nothing else changes: the
account's other sessions' sockets stay and hear what they are sent, its challenges stay open,
its seats' sockets play on (a seat is its token's) until they leave their seat, it stays
online through them, and a guest's sockets are nobody's session's. On SQLite and PostgreSQL;
across two ``doublesix serve`` processes through Redis at the end."""

from __future__ import annotations

import io
import json
import time
from contextlib import ExitStack

import httpx
import pytest
from websockets.sync.client import ClientConnection

from doublesix.cli import main
from doublesix.server.deps import SESSION_COOKIE

from .server_helpers import BOTH, Socket, TestClient
from .site_helpers import REDIS, Process, Site
from .test_accounts import PASSWORD
from .test_lobby_socket import Cookies, Lobby, as_player, challenge, name
from .test_messages import account_on, lobby_on
from .test_operator import shut
from .test_personal_socket import Personal, accept, personal_on
from .test_shut_out import TWO, closed_remotely, cookie, hello, logged_in, table_of

SIGNED_OUT = (4411, "this session has ended")
"""The code and reason of a socket whose session ended."""


@pytest.fixture
def client(accounts_client: TestClient) -> TestClient:
    return accounts_client


def another_session(client: TestClient, player: str) -> Cookies:
    """The account ``player`` logged in on a browser of its own: the cookies of a session of
    its own."""
    client.cookies.clear()
    r = client.post("/api/session", json={"name": player, "password": PASSWORD})
    assert r.status_code == 200, r.text
    return dict(client.cookies)


def sockets_left(client: TestClient, count: int) -> None:
    """Wait until the app holds ``count`` sockets, lobby and table (``Lobby.in_session``):
    those closed have left the lobby (and their player's presence)."""
    lobby = client.app.state.lobby  # type: ignore[attr-defined]
    deadline = time.monotonic() + 10
    while len(lobby.session_sockets) != count:
        assert time.monotonic() < deadline, f"{len(lobby.session_sockets)} sockets left"
        time.sleep(0.02)


def online(client: TestClient) -> set[str]:
    """The names of everyone online, as a visitor reads them."""
    return {p["name"] for p in as_player(client, None).get("/api/online").json()["players"]}


@BOTH
def test_a_log_out_closes_that_session_s_sockets_and_no_other(client: TestClient) -> None:
    """Ben is logged in on two browsers, each with the lobby and a personal socket open, and
    has challenged Anna, a guest. He logs out on the first: its two sockets close with 4411,
    sent nothing before; the second's stay, and hear the challenge accepted — it was still
    open, as Ben is still online — and Anna's guest sockets are untouched."""
    anna = name(client, "Anna")
    ben = logged_in(client, "Ben")
    elsewhere = another_session(client, "Ben")
    with ExitStack() as stack:
        a = Lobby(client, stack, anna)
        annas_personal = Personal(client, stack, anna)
        made = challenge(client, ben, to=["Anna"])
        assert made.status_code == 201, made.text
        first, first_personal = Lobby(client, stack, ben), Personal(client, stack, ben)
        second = Lobby(client, stack, elsewhere)
        second_personal = Personal(client, stack, elsewhere)
        for lobby in (a, first, second):
            lobby.until_online({"Anna", "Ben"})  # no frame is on its way to any of them now

        as_player(client, ben)
        assert client.delete("/api/session").json() == {"player": None}
        assert shut(first.ws) == (SIGNED_OUT, [])
        assert shut(first_personal.ws) == (SIGNED_OUT, [])
        sockets_left(client, 4)
        assert online(client) == {"Anna", "Ben"}

        table_id = accept(client, anna, made.json()["id"])["table"]
        for socket in (second.next("challenge"), second_personal.next()):
            assert socket["challenge"]["status"] == "accepted", socket
            assert socket["challenge"]["table"] == table_id
        while (told := annas_personal.next()["challenge"])["status"] != "accepted":
            assert told["status"] == "open", told
        assert a.challenge("accepted")["table"] == table_id


@BOTH
def test_a_new_password_closes_the_other_sessions_sockets_and_not_the_changer_s(
    client: TestClient,
) -> None:
    """A thief has Ben's password and the lobby open with it; Ben changes it: the thief's
    sockets close with 4411, and what the thief says as the close comes is not said; Ben's
    own lobby stays, and speaks as Ben."""
    anna = name(client, "Anna")
    ben = logged_in(client, "Ben")
    thief = another_session(client, "Ben")
    with ExitStack() as stack:
        a = Lobby(client, stack, anna)
        mine = Lobby(client, stack, ben)
        stolen, stolen_personal = Lobby(client, stack, thief), Personal(client, stack, thief)
        for lobby in (a, mine, stolen):
            lobby.until_online({"Anna", "Ben"})

        as_player(client, ben)
        changed = client.post("/api/account/password", json={"old": PASSWORD, "new": "a new one!"})
        assert changed.status_code == 200, changed.text
        stolen.ws.send_json({"type": "chat", "text": "send me your rating points"})
        assert shut(stolen.ws) == (SIGNED_OUT, [])
        assert shut(stolen_personal.ws) == (SIGNED_OUT, [])

        mine.ws.send_json({"type": "chat", "text": "password changed"})
        said = mine.next("chat")
        assert (said["from"], said["text"]) == ("Ben", "password changed")
        assert a.next("chat")["text"] == "password changed"  # the thief's was never said


@BOTH
def test_a_log_in_over_an_old_session_closes_that_session_s_sockets(client: TestClient) -> None:
    """Ben's browser, with the lobby and a personal socket open, logs in as Cleo: the sockets
    of Ben's session close with 4411, and the browser's next socket is Cleo's."""
    logged_in(client, "Cleo")
    ben = logged_in(client, "Ben")
    with ExitStack() as stack:
        lobby, personal = Lobby(client, stack, ben), Personal(client, stack, ben)
        as_player(client, ben)
        cleo = client.post("/api/session", json={"name": "Cleo", "password": PASSWORD})
        assert cleo.json() == {"player": {"name": "Cleo", "account": True}}
        assert shut(lobby.ws)[0] == SIGNED_OUT
        assert shut(personal.ws) == (SIGNED_OUT, [])
        now = Personal(client, stack, {SESSION_COOKIE: cleo.cookies[SESSION_COOKIE]})
        assert now.welcome["you"] == {"name": "Cleo", "account": True}


# --- table sockets ------------------------------------------------------------------------


@BOTH
def test_a_log_out_closes_the_session_s_table_socket_that_watches_and_not_its_seat_s(
    client: TestClient,
) -> None:
    """Ben plays Anna, a guest, with the table open in one tab of his browser; in another he
    watches it, beside Cleo, a guest who watches too. He logs out: the watching tab's socket
    closes with 4411, and what it says in the spectators' chat as the close comes is never
    said; his seat's socket plays on, he stays online through it, and Cleo's socket is
    untouched: she speaks, and everyone at the table hears her."""
    ben = logged_in(client, "Ben")
    anna, cleo = name(client, "Anna"), name(client, "Cleo")
    table_id, *tokens = table_of(client, ben, anna, preset="draw", seats=TWO)
    with ExitStack() as stack:
        as_player(client, anna)
        a = Socket(client, stack, table_id, tokens[1])
        as_player(client, ben)
        b = Socket(client, stack, table_id, tokens[0])
        watching = Socket(client, stack, table_id, None)
        as_player(client, cleo)
        c = Socket(client, stack, table_id, None)
        a.all_here()
        assert (b.seat, watching.seat, b.view["status"]) == (0, None, "playing")

        as_player(client, ben)
        assert client.delete("/api/session").json() == {"player": None}
        watching.send({"type": "chat", "text": "send me your rating points"})
        closed, frames = shut(watching.ws)
        assert closed == SIGNED_OUT
        assert [f for f in frames if f["type"] == "chat"] == []
        sockets_left(client, 3)
        assert online(client) == {"Anna", "Ben", "Cleo"}

        while b.view["turn"] != b.seat:  # Anna's move first
            a.play(a.view["legal"][0])
            for socket in (a, b, c):
                socket.update()
        b.play(b.view["legal"][0])
        for socket in (a, b, c):  # a chat frame before it would fail here: none was said
            assert socket.update()["events"][0]["seat"] == 0

        c.send({"type": "chat", "text": "still watching"})
        for socket in (a, b, c):
            said = socket.receive()
            assert (said["from"], said["channel"], said["text"]) == (
                "Cleo",
                "spectators",
                "still watching",
            )
            assert said["version"] == socket.version + 1


@BOTH
def test_a_seat_s_socket_whose_session_ended_closes_once_it_leaves_the_seat(
    client: TestClient,
) -> None:
    """Ben sits at Anna's table before the start, and logs out in another tab: his seat's
    socket stays (the seat is his token's) and speaks as his seat. Once he leaves the seat it
    would watch as the ended session's player: it closes with 4411, after its ``unseat``."""
    anna, ben = name(client, "Anna"), logged_in(client, "Ben")
    seats = [{"kind": "human"}, {"kind": "open"}, {"kind": "open"}]
    table_id, token, his = table_of(client, anna, ben, preset="draw", seats=seats)
    with ExitStack() as stack:
        as_player(client, anna)
        a = Socket(client, stack, table_id, token)
        as_player(client, ben)
        b = Socket(client, stack, table_id, his)
        assert b.seat == 1

        assert client.delete("/api/session").json() == {"player": None}
        b.send({"type": "chat", "text": "back soon"})
        said = b.receive()
        assert (said["from"], said["channel"], said["text"]) == ("Ben", "players", "back soon")

        b.send({"type": "leave", "before_start": True})
        closed, frames = shut(b.ws)
        assert closed == SIGNED_OUT
        assert [f["type"] for f in frames if f["type"] != "presence"] == ["update", "unseat"]
        assert frames[-1] == {"type": "unseat", "seat": 1}
        assert a.receive()["text"] == "back soon"
        assert a.receive()["events"] == [{"seat": 1, "join": None, "kind": "open"}]


# --- two processes ------------------------------------------------------------------------


def table_on(process: Process, table_id: str, client: httpx.Client) -> ClientConnection:
    """A socket that watches ``table_id`` on ``process`` with ``client``'s cookies."""
    ws = process.socket(f"/ws/table/{table_id}", additional_headers=cookie(client))
    ws.send(json.dumps({"type": "hello", "token": None, "since": None}))
    assert json.loads(ws.recv(timeout=15))["type"] == "snapshot"
    return ws


def test_a_log_out_on_one_process_closes_the_session_s_sockets_on_the_other(site: Site) -> None:
    """Ben logged in through the first process and keeps his lobby and a personal socket on
    the second, beside the lobby of another session of his: he logs out through the first,
    and the second closes his session's sockets at once; the other session's lobby speaks
    on."""
    one, two = site.start(), site.start()
    ben = account_on(one, "Ben")
    elsewhere = httpx.Client(base_url=two.url, timeout=10)
    logged = elsewhere.post("/api/session", json={"name": "Ben", "password": PASSWORD})
    assert logged.status_code == 200, logged.text
    lobby, personal, kept = lobby_on(two, ben), personal_on(two, ben), lobby_on(two, elsewhere)

    assert ben.delete("/api/session").json() == {"player": None}
    assert closed_remotely(lobby)[0] == SIGNED_OUT
    assert closed_remotely(personal) == (SIGNED_OUT, [])
    kept.send(json.dumps({"type": "chat", "text": "still here"}))
    while (frame := json.loads(kept.recv(timeout=30)))["type"] != "chat":
        pass
    assert (frame["from"], frame["text"]) == ("Ben", "still here")


def test_a_log_out_on_one_process_closes_the_session_s_watching_table_socket_on_the_other(
    site: Site,
) -> None:
    """Ben made a table through the first process and has it open on the second twice: his
    seat's socket, and one that watches. He logs out through the first: the second closes the
    watching socket at once, and his seat's plays on, speaking as his seat."""
    one, two = site.start(), site.start()
    ben = account_on(one, "Ben")
    made = ben.post("/api/tables", json={"preset": "draw", "seats": TWO})
    assert made.status_code == 200, made.text
    table_id = made.json()["id"]
    seat, watching = hello(two, table_id, made.json()["token"], ben), table_on(two, table_id, ben)

    assert ben.delete("/api/session").json() == {"player": None}
    assert closed_remotely(watching)[0] == SIGNED_OUT
    seat.send(json.dumps({"type": "chat", "text": "still here"}))
    while (frame := json.loads(seat.recv(timeout=30)))["type"] != "chat":
        pass
    assert (frame["from"], frame["channel"], frame["text"]) == ("Ben", "players", "still here")


def test_the_operator_s_new_password_signs_the_account_s_pages_out_on_every_process(
    site: Site,
    names: tuple[str, str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Ben forgot his password; the operator sets one with ``doublesix account password Ben
    --redis`` while Ben's two sessions have a lobby and a personal socket open on both
    processes: every one of them closes at once (the sessions ended), as after a log-out."""
    ours, _ = names
    one, two = site.start("--site", ours), site.start("--site", ours)
    ben = account_on(one, "Ben")
    elsewhere = httpx.Client(base_url=two.url, timeout=10)
    logged = elsewhere.post("/api/session", json={"name": "Ben", "password": PASSWORD})
    assert logged.status_code == 200, logged.text
    sockets = [lobby_on(one, ben), personal_on(two, ben), lobby_on(two, elsewhere)]

    monkeypatch.setattr("sys.stdin", io.StringIO("a new long secret\n"))
    options = ["--db", site.db, "--redis", REDIS, "--site", ours]
    assert main(["account", "password", "Ben", *options]) == 0
    said = capsys.readouterr().out.splitlines()
    assert said == [
        "the password of Ben is replaced; 2 session(s) ended",
        "their pages' sockets are closed (2 server process(es) heard it)",
    ]
    for socket in sockets:
        assert closed_remotely(socket)[0] == SIGNED_OUT
