"""The personal lobby socket (``/ws/lobby?only=me``) of a page without the lobby: its welcome
(open challenges, an account's unread messages), the challenges and private messages
addressed to its player and nothing of the lobby's (no online list, chat, tables, seeks);
its player is online but not in the lobby, so Play now does not pair them; it refuses every
frame and closes with 4410 with its account. On SQLite and PostgreSQL; across two
``doublesix serve`` processes through Redis at the end."""

from __future__ import annotations

import json
import time
from contextlib import ExitStack
from typing import Any

import httpx
import pytest
from starlette.websockets import WebSocketDisconnect

from doublesix.server.deps import SESSION_COOKIE
from doublesix.server.settings import Limits

from .server_helpers import BOTH, AppFactory, TestClient, WebSocketTestSession
from .site_helpers import Process, Site
from .test_accounts import PASSWORD
from .test_lobby_socket import Cookies, Lobby, as_player, challenge, name
from .test_messages import account_on, sent
from .test_operator import shut
from .test_shut_out import CLOSED, logged_in

ONLY_ME = "/ws/lobby?only=me"


class Personal:
    """A personal socket: its welcome, then each frame as it comes (none is passed over)."""

    def __init__(self, client: TestClient, stack: ExitStack, cookies: Cookies | None) -> None:
        as_player(client, cookies)
        self.ws: WebSocketTestSession = stack.enter_context(client.websocket_connect(ONLY_ME))
        self.welcome = self.next()
        assert (self.welcome["type"], self.welcome["only"]) == ("welcome", "me"), self.welcome

    def next(self) -> dict[str, Any]:
        frame: dict[str, Any] = self.ws.receive_json()
        return frame


@pytest.fixture
def client(accounts_client: TestClient) -> TestClient:
    return accounts_client


def accept(client: TestClient, cookies: Cookies, challenge_id: str) -> Any:
    as_player(client, cookies)
    answer = client.post(f"/api/challenges/{challenge_id}/accept", json={})
    assert answer.status_code == 200, answer.text
    return answer.json()


@BOTH
def test_challenges_reach_the_personal_sockets_of_both_players(client: TestClient) -> None:
    """Anna challenges Ben, who is on a page without the lobby (he is online by it), then she
    goes to such a page too: each socket is welcomed with the challenge open, Ben's is told
    of it as it is made, and Anna's of its acceptance, with the table both are seated at."""
    anna, ben = logged_in(client, "Anna"), logged_in(client, "Ben")
    with ExitStack() as stack:
        b = Personal(client, stack, ben)
        assert b.welcome == {
            "type": "welcome",
            "only": "me",
            "you": {"name": "Ben", "account": True},
            "challenges": [],
            "unread": 0,
        }
        made = challenge(client, anna, to=["Ben"])
        assert made.status_code == 201, made.text
        told = b.next()
        assert told["type"] == "challenge"
        assert (told["challenge"]["id"], told["challenge"]["from"]) == (made.json()["id"], "Anna")
        assert (told["challenge"]["status"], told["challenge"]["mine"]) == ("open", False)

        a = Personal(client, stack, anna)
        [waiting] = a.welcome["challenges"]
        assert (waiting["id"], waiting["mine"], waiting["status"]) == (
            told["challenge"]["id"],
            True,
            "open",
        )
        table_id = accept(client, ben, waiting["id"])["table"]
        assert table_id
        for socket, mine in ((a, True), (b, False)):
            accepted = socket.next()["challenge"]
            assert (accepted["status"], accepted["table"], accepted["mine"]) == (
                "accepted",
                table_id,
                mine,
            )
    seats = client.get(f"/api/tables/{table_id}").json()["seats"]
    assert [s["name"] for s in seats] == ["Anna", "Ben"]


@BOTH
def test_a_private_message_reaches_the_personal_socket_with_the_unread_count(
    client: TestClient,
) -> None:
    anna, ben = logged_in(client, "Anna"), logged_in(client, "Ben")
    sent(client, anna, "Ben", "are you there?")
    with ExitStack() as stack:
        b, a = Personal(client, stack, ben), Personal(client, stack, anna)
        assert b.welcome["unread"] == 1  # as the header's badge reads it
        as_player(client, ben)
        assert client.get("/api/account/unread").json() == {"unread": 1}
        assert a.welcome["unread"] == 0
        kept = sent(client, anna, "Ben", "rematch at 8?")
        assert b.next() == {"type": "message", "message": kept, "with": "Anna", "unread": 2}
        assert a.next() == {"type": "message", "message": kept, "with": "Ben"}  # her other tab


def test_a_guest_s_welcome_has_no_unread_count_and_a_visitor_is_told_nothing(
    client: TestClient,
) -> None:
    ben = name(client, "Ben")
    with ExitStack() as stack:
        guest = Personal(client, stack, ben)
        assert guest.welcome == {
            "type": "welcome",
            "only": "me",
            "you": {"name": "Ben", "account": False},
            "challenges": [],
        }
        visitor = Personal(client, stack, None)
        assert visitor.welcome == {"type": "welcome", "only": "me", "you": None, "challenges": []}
        assert len(client.app.state.lobby.personal) == 1  # type: ignore[attr-defined]
        online = as_player(client, None).get("/api/online").json()["players"]
        assert [p["name"] for p in online] == ["Ben"]  # the visitor is on nobody's list


def test_a_personal_socket_gets_none_of_the_lobby_s_frames(lobby: TestClient) -> None:
    """Ben has a page without the lobby and the lobby open: Cleo comes, chats, makes a table,
    Ben seeks a game; his lobby hears all of it, his personal socket nothing, so the first
    frame it gets is Anna's challenge, which both get."""
    anna, ben, cleo = name(lobby, "Anna"), name(lobby, "Ben"), name(lobby, "Cleo")
    with ExitStack() as stack:
        mine = Personal(lobby, stack, ben)
        full = Lobby(lobby, stack, ben)
        c = Lobby(lobby, stack, cleo)
        full.until_online({"Ben", "Cleo"})
        c.ws.send_json({"type": "chat", "text": "hello lobby"})
        assert full.next("chat")["text"] == "hello lobby"
        as_player(lobby, cleo)
        made = lobby.post("/api/tables", json={"preset": "draw", "options": {"players": 2}})
        assert full.next("table")["table"]["id"] == made.json()["id"]
        as_player(lobby, ben)
        assert lobby.post("/api/seeks", json={"preset": "block"}).status_code == 201
        assert full.next("seek")["seek"]["preset"] == "block"
        full.next("pool")
        Lobby(lobby, stack, anna)
        full.until_online({"Anna", "Ben", "Cleo"})

        made = challenge(lobby, anna, to=["Ben"])
        assert made.status_code == 201, made.text
        first = mine.next()
        assert first["type"] == "challenge" and first["challenge"]["id"] == made.json()["id"]
        assert full.next("challenge") == first


def seek_of(client: TestClient, cookies: Cookies) -> Any:
    as_player(client, cookies)
    return client.get("/api/seeks").json()["seek"]


def test_a_player_on_a_personal_socket_is_online_but_not_in_the_lobby(
    lobby: TestClient,
) -> None:
    """Listed online and free, but not in the lobby: a seek of his is not paired (Anna, in
    the lobby, seeks the same game and waits) and ends as a seek of a player gone from the
    lobby does."""
    anna, ben = name(lobby, "Anna"), name(lobby, "Ben")
    with ExitStack() as stack:
        Personal(lobby, stack, ben)
        a = Lobby(lobby, stack, anna)
        online = a.until_online({"Anna", "Ben"})
        assert online[1] == {"name": "Ben", "account": False, "status": "free", "table": None}
        [here] = [p for p in lobby.app.state.lobby.presence.here.players() if p.name == "Ben"]  # type: ignore[attr-defined]
        assert here.lobby is False

        as_player(lobby, anna)
        assert lobby.post("/api/seeks", json={"preset": "draw"}).json()["table"] is None
        as_player(lobby, ben)
        assert lobby.post("/api/seeks", json={"preset": "draw"}).json()["table"] is None
        deadline = time.monotonic() + 10
        while seek_of(lobby, ben) is not None:  # the sweep ends it: he is in no lobby
            assert time.monotonic() < deadline, "Ben's seek was never ended"
            time.sleep(0.05)
        assert seek_of(lobby, anna)["preset"] == "draw"  # Anna still waits: nobody was paired


def test_closing_the_account_closes_its_personal_socket(client: TestClient) -> None:
    ben = logged_in(client, "Ben")
    with ExitStack() as stack:
        b = Personal(client, stack, ben)
        as_player(client, ben)
        assert client.post("/api/account/close", json={"password": PASSWORD}).status_code == 200
        assert shut(b.ws)[0] == CLOSED
    assert as_player(client, None).get("/api/online").json()["players"] == []


def test_every_frame_sent_on_a_personal_socket_is_refused_and_changes_nothing(
    make_app: AppFactory,
) -> None:
    with TestClient(make_app(limits=Limits(frames_per_second=0.01, burst=4))) as client:
        ben = name(client, "Ben")
        with ExitStack() as stack:
            b = Personal(client, stack, ben)
            b.ws.send_json({"type": "chat", "text": "hello lobby"})
            b.ws.send_text("not json")
            b.ws.send_bytes(b"\x00\x01")
            b.ws.send_text("{" * 5000)
            for _ in range(4):
                error = b.next()
                assert (error["type"], error["code"]) == ("error", "bad_frame"), error
            b.ws.send_json({"type": "chat", "text": "one too many"})
            assert b.next()["code"] == "rate_limited"
            assert Lobby(client, stack, None).welcome["chat"] == []  # nothing was said
            assert as_player(client, None).get("/api/online").json()["players"][0]["name"] == "Ben"


@pytest.mark.parametrize("only", ["you", "", "ME"])
def test_another_mode_is_refused_and_the_socket_closed(client: TestClient, only: str) -> None:
    with client.websocket_connect(f"/ws/lobby?only={only}") as ws:
        assert ws.receive_json() == {
            "type": "error",
            "code": "bad_frame",
            "message": "only=me is the one mode",
            "field": "only",
        }
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
    assert closed.value.code == 1008
    assert client.get("/api/online").json()["players"] == []


# --- two processes ------------------------------------------------------------------------


def personal_on(process: Process, client: httpx.Client) -> Any:
    cookie = f"{SESSION_COOKIE}={client.cookies[SESSION_COOKIE]}"
    ws = process.socket(ONLY_ME, additional_headers={"Cookie": cookie})
    welcome = json.loads(ws.recv(timeout=30))
    assert (welcome["type"], welcome["only"]) == ("welcome", "me"), welcome
    return ws


def next_frame(ws: Any) -> dict[str, Any]:
    frame: dict[str, Any] = json.loads(ws.recv(timeout=30))
    return frame


def test_a_message_and_a_challenge_made_on_one_process_reach_a_personal_socket_on_the_other(
    site: Site,
) -> None:
    one, two = site.start(), site.start()
    anna, ben = account_on(one, "Anna"), account_on(two, "Ben")
    on_two, anna_on_one = personal_on(two, ben), personal_on(one, anna)
    made = anna.post("/api/messages", json={"to": "Ben", "text": "game at 8?"})
    assert made.status_code == 201, made.text
    told = next_frame(on_two)
    assert told == {"type": "message", "message": made.json(), "with": "Anna", "unread": 1}
    assert next_frame(anna_on_one)["with"] == "Ben"

    deadline = time.monotonic() + 15  # the site's list of who is online, through Redis
    while (
        r := anna.post("/api/challenges", json={"to": ["Ben"], "preset": "draw"})
    ).status_code != 201:
        assert time.monotonic() < deadline, r.text
        time.sleep(0.2)
    challenged = next_frame(on_two)["challenge"]
    assert (challenged["id"], challenged["from"]) == (r.json()["id"], "Anna")
    next_frame(anna_on_one)  # her own challenge, open
    accepted = ben.post(f"/api/challenges/{challenged['id']}/accept", json={})
    assert accepted.status_code == 200, accepted.text
    told = next_frame(anna_on_one)["challenge"]
    assert (told["status"], told["table"]) == ("accepted", accepted.json()["table"])
