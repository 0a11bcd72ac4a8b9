"""A closed account is shut out of the site at once (``Lobby.shut_out``): its sockets, lobby
and table, are closed with 4410 on every process, it is online no more, its seat's token is
refused, and a bot takes its seat as for a player who left; the game goes on, rated as
ever. On one process (SQLite and PostgreSQL), then on two real processes through Redis,
by a ban on the web and by ``doublesix account close --redis``."""

from __future__ import annotations

import json
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection

from doublesix.cli import main

from .rating_helpers import wait_rated
from .server_helpers import BOTH, Command, Socket, TestClient
from .site_helpers import REDIS, Process, Site
from .test_accounts import PASSWORD, register
from .test_closed_accounts import SOCKETS_STAY
from .test_lobby_socket import Cookies, Lobby, as_player
from .test_operator import appoint_on, shut
from .test_site_lobby import LobbySocket

CLOSED = (4410, "this account is closed")
"""The code and reason of a closed account's sockets."""
TWO = [{"kind": "human"}, {"kind": "open"}]
"""The seats of a table for two."""


@pytest.fixture
def client(accounts_client: TestClient) -> TestClient:
    return accounts_client


def logged_in(client: TestClient, name: str) -> Cookies:
    """A new account named ``name``, logged in: its browser's cookies."""
    client.cookies.clear()
    register(client, name)
    return dict(client.cookies)


def table_of(client: TestClient, creator: Cookies, seated: Cookies, **body: Any) -> list[str]:
    """A table ``creator`` makes with ``body``, where ``seated`` takes a seat: its id and
    the two seats' tokens."""
    as_player(client, creator)
    made = client.post("/api/tables", json=body)
    assert made.status_code == 200, made.text
    as_player(client, seated)
    joined = client.post(f"/api/tables/{made.json()['id']}/join", json={})
    assert joined.status_code == 200, joined.text
    return [made.json()["id"], made.json()["token"], joined.json()["token"]]


def refused_hello(client: TestClient, table_id: str, token: str) -> dict[str, Any]:
    """The error frame a hello with ``token`` gets (the socket is closed with 4410 after)."""
    with client.websocket_connect(f"/ws/table/{table_id}") as ws:
        ws.send_json({"type": "hello", "token": token, "since": None})
        code, frames = shut(ws)
    assert code == CLOSED, code
    [frame] = frames
    return frame


@BOTH
def test_a_ban_shuts_the_account_out_at_once(client: TestClient) -> None:
    """Ben is banned in the middle of a rated game, with the lobby and the table open in his
    browser and the table in a client that sends his seat's token and no cookie: every one
    of his sockets is closed at once, he is online no more, his token takes no seat, and a
    bot plays for him at once (Anna is told he left) to the end; the game is rated."""
    anna, ben, olga = (logged_in(client, name) for name in ("Anna", "Ben", "Olga"))
    appoint_on(client, "Olga")
    rated = {"preset": "draw", "seats": TWO, "rated": True, "options": {"target": "round"}}
    table_id, *tokens = table_of(client, anna, ben, **rated)
    with ExitStack() as stack:
        lobby = Lobby(client, stack, anna)
        as_player(client, anna)
        a = Socket(client, stack, table_id, tokens[0])
        bens_lobby = Lobby(client, stack, ben)
        as_player(client, ben)
        tab = Socket(client, stack, table_id, tokens[1])
        as_player(client, None)
        bare = Socket(client, stack, table_id, tokens[1])  # his token, no cookie
        a.all_here()
        lobby.until_online({"Anna", "Ben"})
        assert a.view["status"] == "playing"

        as_player(client, olga)
        banned = client.post("/api/operator/close", json={"name": "Ben", "reason": "abuse"})
        assert banned.json() == {"name": "Ben", "already": False}
        assert shut(bens_lobby.ws)[0] == CLOSED
        for socket in (tab, bare):
            closed, frames = shut(socket.ws)
            assert closed == CLOSED
            assert frames[-1] == {
                "type": "error",
                "code": "account_closed",
                "message": "this account is closed",
            }
        assert a.update()["events"] == [{"seat": 1, "leave": True}]
        [gone] = a.receive_presence()["away"]  # as for a player who left
        assert (gone["seat"], gone["bot"], gone["left"]) == (1, True, True)
        lobby.until_online({"Anna"})

        as_player(client, ben)  # his browser: its session has ended
        assert refused_hello(client, table_id, tokens[1]) == {
            "type": "error",
            "code": "account_closed",
            "message": "this seat's account is closed: its token plays no more",
            "field": "token",
        }
        assert client.get("/api/me").json() == {"player": None}

        bot_moves = 0
        while a.view["status"] == "playing":  # Anna plays; a bot for Ben, who is not back
            if a.view["turn"] == 0:
                a.play(a.view["legal"][0])
            events = a.update()["events"]
            if events[0].get("seat") == 1:
                assert events[0] == {"seat": 1, "away": True}, events
                bot_moves += 1
        assert a.view["status"] == "finished" and bot_moves > 0
        assert [(s["seat"], s["bot"]) for s in a.away] == [(1, True)]
    assert len(wait_rated(client, table_id, 2)) == 2  # as any game a player left


def test_closing_one_s_own_account_closes_the_other_tabs(client: TestClient) -> None:
    """Ben closes his account in one tab: his other tabs' sockets, the lobby's and a waiting
    room's, are closed, and the seat he took there is free again."""
    anna, ben = logged_in(client, "Anna"), logged_in(client, "Ben")
    seats = [{"kind": "human"}, {"kind": "open"}, {"kind": "open"}]
    table_id, token, his = table_of(client, anna, ben, preset="draw", seats=seats)
    with ExitStack() as stack:
        as_player(client, anna)
        a = Socket(client, stack, table_id, token)
        tabs = [Lobby(client, stack, ben) for _ in range(2)]
        as_player(client, ben)
        waiting = Socket(client, stack, table_id, his)
        assert waiting.view["seat"] == 1
        closing = client.post("/api/account/close", json={"password": PASSWORD})
        assert closing.json() == {"player": None}
        for lobby in tabs:
            assert shut(lobby.ws)[0] == CLOSED
        assert shut(waiting.ws)[0] == CLOSED
        assert a.update()["events"] == [{"seat": 1, "join": None, "kind": "open"}]
    seated = client.get(f"/api/tables/{table_id}").json()["seats"]
    assert [s["kind"] for s in seated] == ["human", "open", "open"]


def test_the_command_line_s_ban_refuses_the_seat_and_the_web_s_closes_its_sockets(
    client: TestClient, account: Command
) -> None:
    """``doublesix account close`` without ``--redis`` reaches no server: Ben's open socket
    stays (its chat is refused), but his token takes his seat no more. A ban on the web of
    the account closed already changes nothing else, and closes that socket and hands his
    seat to a bot."""
    anna, ben, olga = (logged_in(client, name) for name in ("Anna", "Ben", "Olga"))
    appoint_on(client, "Olga")
    table_id, *tokens = table_of(client, anna, ben, preset="draw", seats=TWO)
    with ExitStack() as stack:
        as_player(client, anna)
        a = Socket(client, stack, table_id, tokens[0])
        as_player(client, ben)
        b = Socket(client, stack, table_id, tokens[1])
        a.all_here()
        assert account("close", "Ben") == (
            0,
            "Ben is closed: no login, no page, no rank; the name stays taken\n" + SOCKETS_STAY,
            "",
        )
        b.send({"type": "chat", "text": "still here?"})
        said = b.error()
        assert (said["code"], said["field"]) == ("chat", "closed")
        assert refused_hello(client, table_id, tokens[1])["field"] == "token"

        as_player(client, olga)
        again = client.post("/api/operator/close", json={"name": "Ben", "reason": "abuse"})
        assert again.json() == {"name": "Ben", "already": True}
        assert shut(b.ws)[0] == CLOSED
        assert a.update()["events"] == [{"seat": 1, "leave": True}]


@pytest.mark.parametrize(
    ("options", "code", "said"),
    [
        (["--site", "staging"], 2, "--site staging needs --redis"),
        (["--redis", REDIS, "--site", "a/b"], 2, "--site: 'a/b': a site's name is 1 to 32"),
        (["--redis", "127.0.0.1:6379"], 2, "--redis: '127.0.0.1:6379': Redis URL must"),
        (["--redis", "redis://127.0.0.1:1/0"], 1, "--redis redis://127.0.0.1:1/0: Error"),
    ],
)
def test_the_command_line_s_ban_refuses_bad_options_and_changes_nothing(
    client: TestClient, account: Command, options: list[str], code: int, said: str
) -> None:
    """Bad options are usage errors, as ``serve``'s; a Redis not reached is tried before
    the account is closed. Either way Ben is still logged in."""
    logged_in(client, "Ben")
    done, out, err = account("close", "Ben", *options)
    assert (done, out) == (code, "") and said in err, err
    if code == 1:
        assert err.endswith("; nothing changed\n")
    assert client.get("/api/me").json()["player"]["name"] == "Ben"


# --- two processes ------------------------------------------------------------------------


def browser(process: Process, name: str) -> httpx.Client:
    """A new account named ``name``, logged in on ``process``."""
    client = httpx.Client(base_url=process.url, timeout=30)
    made = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert made.status_code == 201, made.text
    return client


def cookie(client: httpx.Client) -> dict[str, str]:
    return {"Cookie": "; ".join(f"{k}={v}" for k, v in client.cookies.items())}


def hello(process: Process, table_id: str, token: str, client: httpx.Client) -> ClientConnection:
    ws = process.socket(f"/ws/table/{table_id}", additional_headers=cookie(client))
    ws.send(json.dumps({"type": "hello", "token": token, "since": None}))
    assert json.loads(ws.recv(timeout=15))["type"] == "snapshot"
    return ws


def closed_remotely(ws: ClientConnection) -> tuple[tuple[int, str], list[dict[str, Any]]]:
    frames = []
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            frames.append(json.loads(ws.recv(timeout=15)))
    assert closed.value.rcvd is not None
    return (closed.value.rcvd.code, closed.value.rcvd.reason), frames


@dataclass
class Playing:
    """Ben at Anna's 2-player Draw table, which the first process runs, through the second:
    Anna's and Ben's table sockets, Ben's lobby socket, and a visitor's lobby that sees both
    online."""

    a: ClientConnection
    b: ClientConnection
    bens_lobby: ClientConnection
    watching: LobbySocket


def ben_plays_through(one: Process, two: Process) -> Playing:
    anna, ben = browser(one, "Anna"), browser(two, "Ben")
    made = anna.post("/api/tables", json={"preset": "draw", "seats": TWO}).json()
    joined = ben.post(f"/api/tables/{made['id']}/join", json={}).json()
    watching = LobbySocket(one, None)
    a = hello(one, made["id"], made["token"], anna)
    bens_lobby = two.socket("/ws/lobby", additional_headers=cookie(ben))
    b = hello(two, made["id"], joined["token"], ben)
    watching.until_online({"Anna", "Ben"})
    return Playing(a, b, bens_lobby, watching)


def test_a_ban_on_one_process_closes_the_sockets_on_the_other(site: Site) -> None:
    """Ben plays through the second process; Olga bans him through the first: his sockets
    there close at once, the first process's lobby shows him gone, and Anna's table says
    he left."""
    one, two = site.start(), site.start()
    olga = browser(one, "Olga")
    assert main(["account", "operator", "Olga", "--db", site.db]) == 0
    playing = ben_plays_through(one, two)
    a, b, bens_lobby, watching = playing.a, playing.b, playing.bens_lobby, playing.watching

    banned = olga.post("/api/operator/close", json={"name": "Ben", "reason": "abuse"})
    assert banned.json() == {"name": "Ben", "already": False}
    assert closed_remotely(bens_lobby)[0] == CLOSED
    closed, frames = closed_remotely(b)
    assert closed == CLOSED and frames[-1]["code"] == "account_closed"
    watching.until_online({"Anna"})
    while True:
        frame = json.loads(a.recv(timeout=15))
        if frame["type"] == "update":
            assert frame["events"] == [{"seat": 1, "leave": True}], frame
            break


def test_the_command_line_s_ban_with_redis_shuts_the_account_out_of_a_running_site(
    site: Site, names: tuple[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    """``doublesix account close --redis URL --site NAME``, as the site's processes were
    started: Ben plays through the second process at Anna's table, which the first runs.
    Given another site's name, the command reaches no process, and says so: his sockets stay
    open (their chat refused). Given the site's, both processes hear it: the second closes
    his sockets, and the first, the table's owner, hands his seat to a bot at once (the
    grace period is 30 s)."""
    ours, other = names
    one, two = site.start("--site", ours), site.start("--site", ours)
    playing = ben_plays_through(one, two)
    a, b, bens_lobby, watching = playing.a, playing.b, playing.bens_lobby, playing.watching

    def close(site_name: str) -> list[str]:
        options = ["--db", site.db, "--redis", REDIS, "--site", site_name]
        assert main(["account", "close", "Ben", *options]) == 0
        out, err = capsys.readouterr()
        assert err == ""
        return out.splitlines()

    assert close(other) == [
        "Ben is closed: no login, no page, no rank; the name stays taken",
        "no server process of the site heard it on --redis (check it and --site): its open "
        "sockets, if any, stay until they close",
    ]
    b.send(json.dumps({"type": "chat", "text": "still here?"}))
    while (frame := json.loads(b.recv(timeout=15)))["type"] != "error":
        pass
    assert (frame["code"], frame["field"]) == ("chat", "closed")

    assert close(ours) == [
        "Ben was closed already; nothing changed",
        "its sockets on the site are closed and a bot takes its seats "
        "(2 server process(es) heard it)",
    ]
    assert closed_remotely(bens_lobby)[0] == CLOSED
    closed, frames = closed_remotely(b)
    assert closed == CLOSED and frames[-1]["code"] == "account_closed"
    watching.until_online({"Anna"})
    while (frame := json.loads(a.recv(timeout=15)))["type"] != "update":
        pass
    assert frame["events"] == [{"seat": 1, "leave": True}], frame
