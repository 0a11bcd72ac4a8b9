"""Issue 11: who is online, challenges and the lobby's chat, on one process (SQLite; the
challenges' storage on PostgreSQL too).

Several players share one ``TestClient`` (one event loop for the app): each
request and socket is made with that player's cookie (``as_player``).
"""

from __future__ import annotations

import time
from contextlib import ExitStack
from typing import Any

import pytest

from .server_helpers import Clock, TestClient, WebSocketTestSession, apply_online

Cookies = dict[str, str]


def name(client: TestClient, player: str) -> Cookies:
    """A new guest named ``player``: its cookies."""
    client.cookies.clear()
    r = client.post("/api/guest", json={"name": player})
    assert r.status_code == 200, r.text
    return dict(client.cookies)


def as_player(client: TestClient, cookies: Cookies | None) -> TestClient:
    client.cookies.clear()
    for key, value in (cookies or {}).items():
        client.cookies.set(key, value)
    return client


def register(client: TestClient, guest: Cookies, player: str) -> Cookies:
    """The guest registers an account (and keeps its id): its cookies now."""
    as_player(client, guest)
    r = client.post("/api/accounts", json={"name": player, "password": "correct horse"})
    assert r.status_code == 201, r.text
    return dict(client.cookies)


class Lobby:
    """A lobby socket: its welcome, then the frames that follow."""

    def __init__(self, client: TestClient, stack: ExitStack, cookies: Cookies | None) -> None:
        as_player(client, cookies)
        self._own = ExitStack()
        stack.callback(self._own.close)
        socket = client.websocket_connect("/ws/lobby")
        self.ws: WebSocketTestSession = self._own.enter_context(socket)
        self.welcome = self.ws.receive_json()
        assert self.welcome["type"] == "welcome", self.welcome
        self.players = self.welcome["players"]

    def close(self) -> None:
        self._own.close()

    def next(self, kind: str) -> dict[str, Any]:
        """The next frame of ``kind`` (online lists before it are kept)."""
        while True:
            frame: dict[str, Any] = self.ws.receive_json()
            if frame["type"] == "online":
                self.players = apply_online(self.players, frame)
            if frame["type"] == "error" and kind != "error":
                raise AssertionError(frame)
            if frame["type"] == kind:
                return frame

    def until_online(self, names: set[str]) -> list[dict[str, Any]]:
        """Online lists until the names online are ``names``."""
        while {p["name"] for p in self.players} != names:
            self.next("online")
        return list(self.players)

    def challenge(self, status: str) -> dict[str, Any]:
        while True:
            found: dict[str, Any] = self.next("challenge")["challenge"]
            if found["status"] == status:
                return found


def challenge(client: TestClient, cookies: Cookies, **body: Any) -> Any:
    as_player(client, cookies)
    return client.post("/api/challenges", json={"preset": "draw"} | body)


# --- who is online ----------------------------------------------------------------------


def test_players_online_come_and_go(lobby: TestClient) -> None:
    anna, ben = name(lobby, "Anna"), name(lobby, "Ben")
    with ExitStack() as stack:
        a = Lobby(lobby, stack, anna)
        assert a.welcome["you"] == {"name": "Anna", "account": False}
        a.until_online({"Anna"})  # the welcome's list, then what changed: Anna came
        b = Lobby(lobby, stack, ben)
        assert {p["name"] for p in b.players} <= {"Anna", "Ben"}
        b.until_online({"Anna", "Ben"})
        assert a.until_online({"Anna", "Ben"}) == [
            {"name": "Anna", "account": False, "status": "free", "table": None},
            {"name": "Ben", "account": False, "status": "free", "table": None},
        ]
        visitor = Lobby(lobby, stack, None)  # no name: sees the list, is not on it
        assert visitor.welcome["you"] is None
        assert {p["name"] for p in visitor.players} == {"Anna", "Ben"}
        b.close()
        a.until_online({"Anna"})
        assert as_player(lobby, None).get("/api/online").json()["players"][0]["name"] == "Anna"


def test_an_account_online_shows_its_rating_in_every_variant(lobby: TestClient) -> None:
    anna = register(lobby, name(lobby, "Anna"), "Anna")
    ben = name(lobby, "Ben")
    with ExitStack() as stack:
        a = Lobby(lobby, stack, anna)
        Lobby(lobby, stack, ben)
        online = {p["name"]: p for p in a.until_online({"Anna", "Ben"})}
    assert "ratings" not in online["Ben"]  # a guest plays unrated
    ratings = online["Anna"]["ratings"]
    assert set(ratings) == {"draw", "block", "kozel", "vog-talon", "vog-block", "vog-goat"}
    assert ratings["kozel"] == {"rating": 1500, "provisional": True, "games": 0}


def test_a_seated_player_is_online_at_the_table(lobby: TestClient) -> None:
    anna, ben = name(lobby, "Anna"), name(lobby, "Ben")
    as_player(lobby, anna)
    table = lobby.post("/api/tables", json={"preset": "draw", "options": {"players": 2}}).json()
    with ExitStack() as stack:
        b = Lobby(lobby, stack, ben)
        as_player(lobby, anna)
        seat = stack.enter_context(lobby.websocket_connect(f"/ws/table/{table['id']}"))
        seat.send_json({"type": "hello", "token": table["token"], "since": None})
        assert seat.receive_json()["type"] == "snapshot"
        online = b.until_online({"Anna", "Ben"})
        assert online[0] == {
            "name": "Anna",
            "account": False,
            "status": "seated",
            "table": table["id"],
        }
        seat.close()
        b.until_online({"Ben"})


def test_a_player_who_stands_up_before_the_start_is_free_while_the_page_watches(
    lobby: TestClient,
) -> None:
    anna, ben = name(lobby, "Anna"), name(lobby, "Ben")
    as_player(lobby, anna)
    body = {"preset": "draw", "options": {"players": 3}}
    table = lobby.post("/api/tables", json=body).json()
    as_player(lobby, ben)
    joined = lobby.post(f"/api/tables/{table['id']}/join", json={}).json()
    with ExitStack() as stack:
        a = Lobby(lobby, stack, anna)
        as_player(lobby, ben)
        seat = stack.enter_context(lobby.websocket_connect(f"/ws/table/{table['id']}"))
        seat.send_json({"type": "hello", "token": joined["token"], "since": None})
        assert seat.receive_json()["type"] == "snapshot"
        seated = {"name": "Ben", "account": False, "status": "seated", "table": table["id"]}
        while seated not in a.players:
            a.next("online")
        seat.send_json({"type": "leave"})
        while seat.receive_json()["type"] != "unseat":
            pass
        free = seated | {"status": "free", "table": None}
        deadline = time.monotonic() + 10
        while free not in lobby.get("/api/online").json()["players"]:  # his page watches on
            assert time.monotonic() < deadline, "Ben is still seated at the table he left"
            time.sleep(0.05)
        while free not in a.players:  # and every lobby is told
            a.next("online")


# --- the lists of tables ----------------------------------------------------------------


def test_every_lobby_socket_hears_a_table_change_its_lists_show(lobby: TestClient) -> None:
    """Made, a seat taken, started; a move, which changes nothing listed, sends nothing."""
    anna, ben = name(lobby, "Anna"), name(lobby, "Ben")
    with ExitStack() as stack:
        visitor = Lobby(lobby, stack, None)  # no name: hears the lists too
        as_player(lobby, anna)
        seats = [{"kind": "human"}, {"kind": "invite"}]
        body = {"preset": "draw", "options": {"players": 2}, "seats": seats}
        made = lobby.post("/api/tables", json=body).json()
        table = visitor.next("table")["table"]
        assert table["id"] == made["id"] and table["status"] == "open"
        assert [s["kind"] for s in table["seats"]] == ["human", "invite"]
        assert "invites" not in table  # the creator's codes are for the creator's eyes
        as_player(lobby, ben)
        joined = lobby.post(
            f"/api/tables/{made['id']}/join", json={"invite": made["invites"][0]["invite"]}
        )
        assert joined.status_code == 200, joined.text
        seated = visitor.next("table")["table"]
        assert [s["name"] for s in seated["seats"]] == ["Anna", "Ben"]
        started = seated if seated["status"] == "playing" else visitor.next("table")["table"]
        assert started["status"] == "playing" and started["id"] == made["id"]
        assert lobby.get("/api/tables").json()["playing"][0]["id"] == made["id"]

        tokens = {0: (anna, made["token"]), 1: (ben, joined.json()["token"])}
        spectator = stack.enter_context(lobby.websocket_connect(f"/ws/table/{made['id']}"))
        spectator.send_json({"type": "hello", "token": None, "since": None})
        turn = spectator.receive_json()["view"]["turn"]
        as_player(lobby, tokens[turn][0])
        seat = stack.enter_context(lobby.websocket_connect(f"/ws/table/{made['id']}"))
        seat.send_json({"type": "hello", "token": tokens[turn][1], "since": None})
        snapshot = seat.receive_json()
        move = snapshot["view"]["legal"][0]
        seat.send_json({"type": "play", "version": snapshot["version"]} | move)
        update = seat.receive_json()
        assert update["type"] == "update" and update["view"]["status"] == "playing", update
        a = Lobby(lobby, stack, anna)
        a.ws.send_json({"type": "chat", "text": "after a move"})
        # the move was stored and published before the chat line: a table frame for it
        # would come first
        frame = visitor.ws.receive_json()
        while frame["type"] == "online":
            frame = visitor.ws.receive_json()
        assert frame["type"] == "chat" and frame["text"] == "after a move", frame


# --- challenges -------------------------------------------------------------------------


@pytest.mark.parametrize("backend", ["sqlite", "postgres"], indirect=True)
def test_an_accepted_challenge_starts_a_table_with_their_seats(lobby: TestClient) -> None:
    anna, ben = name(lobby, "Anna"), name(lobby, "Ben")
    with ExitStack() as stack:
        a, b = Lobby(lobby, stack, anna), Lobby(lobby, stack, ben)
        r = challenge(lobby, anna, to=["ben"], options={"target": 50}, timer=30)
        assert r.status_code == 201, r.text
        made = r.json()
        assert made["from"] == "Anna" and made["to"] == [
            {"name": "Ben", "answer": None, "left": False}
        ]
        assert made["status"] == "open" and made["expires_in"] == 60 and made["mine"] is True
        incoming = b.challenge("open")
        assert incoming["id"] == made["id"] and incoming["mine"] is False
        assert a.challenge("open")["mine"] is True
        as_player(lobby, ben)
        assert [c["id"] for c in lobby.get("/api/challenges").json()["challenges"]] == [made["id"]]
        r = lobby.post(f"/api/challenges/{made['id']}/accept")
        assert r.status_code == 200, r.text
        table_id = r.json()["table"]
        assert table_id and r.json()["challenge"]["status"] == "accepted"
        assert a.challenge("accepted")["table"] == table_id
        assert b.challenge("accepted")["table"] == table_id
        table = lobby.get(f"/api/tables/{table_id}").json()
        assert table["status"] == "playing" and table["timer"] == 30
        assert table["ruleset"]["target"] == 50
        seats = [(s["name"], s["kind"]) for s in table["seats"]]
        assert seats == [("Anna", "human"), ("Ben", "human")]
        assert lobby.post(f"/api/tables/{table_id}/join", json={}).json()["seat"] == 1
        as_player(lobby, anna)
        assert lobby.post(f"/api/tables/{table_id}/join", json={}).json()["seat"] == 0
        assert lobby.get("/api/challenges").json()["challenges"] == []


def test_seats_left_over_take_bots_and_every_player_must_accept(lobby: TestClient) -> None:
    anna, ben, cleo = name(lobby, "Anna"), name(lobby, "Ben"), name(lobby, "Cleo")
    with ExitStack() as stack:
        for who in (anna, ben, cleo):
            Lobby(lobby, stack, who)
        made = challenge(lobby, anna, to=["Ben", "Cleo"], players=4, bot="random").json()
        as_player(lobby, ben)
        first = lobby.post(f"/api/challenges/{made['id']}/accept").json()
        assert first["table"] is None and first["challenge"]["status"] == "open"
        assert first["challenge"]["to"] == [
            {"name": "Ben", "answer": "accept", "left": False},
            {"name": "Cleo", "answer": None, "left": False},
        ]
        as_player(lobby, cleo)
        table_id = lobby.post(f"/api/challenges/{made['id']}/accept").json()["table"]
        seats = lobby.get(f"/api/tables/{table_id}").json()["seats"]
        assert [(s["name"], s["kind"], s["bot"]) for s in seats] == [
            ("Anna", "human", None),
            ("Ben", "human", None),
            ("Cleo", "human", None),
            ("Bot 3", "bot", "random"),
        ]


def test_a_declined_challenge_is_over_for_everyone(lobby: TestClient) -> None:
    anna, ben, cleo = name(lobby, "Anna"), name(lobby, "Ben"), name(lobby, "Cleo")
    with ExitStack() as stack:
        a = Lobby(lobby, stack, anna)
        Lobby(lobby, stack, ben), Lobby(lobby, stack, cleo)
        made = challenge(lobby, anna, to=["Ben", "Cleo"], players=3).json()
        as_player(lobby, cleo)
        r = lobby.post(f"/api/challenges/{made['id']}/decline")
        assert r.status_code == 200 and r.json()["status"] == "declined"
        assert a.challenge("declined")["to"][1] == {
            "name": "Cleo",
            "answer": "decline",
            "left": False,
        }
        as_player(lobby, ben)
        r = lobby.post(f"/api/challenges/{made['id']}/accept")
        assert r.status_code == 409 and "declined" in r.json()["error"]
        assert lobby.get("/api/tables").json()["playing"] == []


@pytest.mark.parametrize("backend", ["sqlite", "postgres"], indirect=True)
def test_a_challenge_expires_after_a_minute(lobby: TestClient, clock: Clock) -> None:
    anna, ben = name(lobby, "Anna"), name(lobby, "Ben")
    with ExitStack() as stack:
        a, b = Lobby(lobby, stack, anna), Lobby(lobby, stack, ben)
        made = challenge(lobby, anna, to=["Ben"]).json()
        b.challenge("open")
        clock.now += 59.9
        as_player(lobby, ben)
        assert lobby.get("/api/challenges").json()["challenges"][0]["expires_in"] == 0.1
        clock.now += 0.1
        assert b.challenge("expired")["id"] == made["id"]
        assert a.challenge("expired")["id"] == made["id"]
        r = lobby.post(f"/api/challenges/{made['id']}/accept")
        assert r.status_code == 409, r.text
        assert lobby.get("/api/tables").json()["playing"] == []


def test_an_answer_after_the_minute_is_refused_before_the_sweep(
    lobby: TestClient, clock: Clock
) -> None:
    anna, ben = name(lobby, "Anna"), name(lobby, "Ben")
    lobby.app.state.lobby.sweep_seconds = 3600  # type: ignore[attr-defined]
    with ExitStack() as stack:
        Lobby(lobby, stack, anna), Lobby(lobby, stack, ben)
        made = challenge(lobby, anna, to=["Ben"]).json()
        clock.now += 61
        as_player(lobby, ben)
        r = lobby.post(f"/api/challenges/{made['id']}/accept")
        assert r.status_code == 409 and r.json()["error"] == "this challenge has expired"


def test_a_challenge_ends_when_its_challenger_leaves(lobby: TestClient) -> None:
    anna, ben = name(lobby, "Anna"), name(lobby, "Ben")
    with ExitStack() as stack:
        a, b = Lobby(lobby, stack, anna), Lobby(lobby, stack, ben)
        made = challenge(lobby, anna, to=["Ben"]).json()
        b.challenge("open")
        a.close()
        assert b.challenge("cancelled")["id"] == made["id"]
        as_player(lobby, ben)
        assert lobby.post(f"/api/challenges/{made['id']}/accept").status_code == 409


@pytest.mark.parametrize("backend", ["sqlite", "postgres"], indirect=True)
def test_a_challenge_ends_when_a_challenged_player_leaves(lobby: TestClient) -> None:
    anna, ben, cleo = name(lobby, "Anna"), name(lobby, "Ben"), name(lobby, "Cleo")
    with ExitStack() as stack:
        a, b, c = Lobby(lobby, stack, anna), Lobby(lobby, stack, ben), Lobby(lobby, stack, cleo)
        made = challenge(lobby, anna, to=["Ben", "Cleo"]).json()
        b.challenge("open")
        as_player(lobby, ben)
        accepted = lobby.post(f"/api/challenges/{made['id']}/accept").json()
        assert accepted["table"] is None and accepted["challenge"]["status"] == "open"
        b.close()  # Ben accepted, then left: the table would have his seat empty
        ended = a.challenge("left")
        assert ended["id"] == made["id"] and ended["table"] is None
        assert [(p["name"], p["answer"], p["left"]) for p in ended["to"]] == [
            ("Ben", "accept", True),
            ("Cleo", None, False),
        ]
        assert c.challenge("left")["id"] == made["id"]
        as_player(lobby, cleo)
        r = lobby.post(f"/api/challenges/{made['id']}/accept")
        assert r.status_code == 409 and r.json()["error"] == "this challenge is over: Ben left"
        as_player(lobby, anna)
        assert lobby.post(f"/api/challenges/{made['id']}/cancel").status_code == 409
        assert lobby.get("/api/challenges").json()["challenges"] == []


def test_the_challenger_may_withdraw_and_only_the_challenger(lobby: TestClient) -> None:
    anna, ben = name(lobby, "Anna"), name(lobby, "Ben")
    with ExitStack() as stack:
        Lobby(lobby, stack, anna)
        b = Lobby(lobby, stack, ben)
        made = challenge(lobby, anna, to=["Ben"]).json()
        as_player(lobby, ben)
        assert lobby.post(f"/api/challenges/{made['id']}/cancel").status_code == 403
        as_player(lobby, anna)
        assert lobby.post(f"/api/challenges/{made['id']}/cancel").json()["status"] == "cancelled"
        assert b.challenge("cancelled")["id"] == made["id"]
        assert lobby.post(f"/api/challenges/{made['id']}/cancel").status_code == 409


@pytest.mark.parametrize(
    ("body", "field", "status"),
    [
        ({"to": ["Anna"]}, "to.0", 422),  # oneself
        ({"to": ["Nobody"]}, "to.0", 422),  # unknown
        ({"to": ["Dora"]}, "to.0", 422),  # a guest who is not online
        ({"to": ["Ben", "ben"], "players": 3}, "to.1", 422),
        ({"to": ["Ben", "Cleo"], "preset": "kozel", "players": 3}, "players", 422),
        ({"to": ["Ben", "Cleo"], "players": 2}, "to", 422),
        ({"to": ["Ben"], "preset": "kozel"}, "players", 422),  # kozel is for 4
        ({"to": ["Ben"], "options": {"target": -5}}, "options.target", 422),
        ({"to": ["Ben"], "options": {"no_such": 1}}, "options.no_such", 422),
        ({"to": ["Ben"], "preset": "chess"}, "preset", 422),
        ({"to": ["Ben"], "timer": 1}, "timer", 422),
        ({"to": ["Ben"], "bot": "nobody", "players": 3}, "bot", 422),
        ({"to": ["Ben"], "rated": True}, "rated", 422),  # Anna is a guest
        ({"to": []}, "to", 422),
        ({"to": ["x" * 33]}, "to.0", 422),
    ],
)
def test_a_bad_challenge_is_refused_and_changes_nothing(
    lobby: TestClient, body: dict[str, Any], field: str, status: int
) -> None:
    anna, ben, cleo = name(lobby, "Anna"), name(lobby, "Ben"), name(lobby, "Cleo")
    name(lobby, "Dora")
    with ExitStack() as stack:
        for who in (anna, ben, cleo):
            Lobby(lobby, stack, who)
        r = challenge(lobby, anna, **body)
        assert r.status_code == status, r.text
        assert r.json()["field"] == field, r.json()
        assert lobby.get("/api/challenges").json()["challenges"] == []
        as_player(lobby, ben)
        assert lobby.get("/api/challenges").json()["challenges"] == []


@pytest.mark.parametrize("backend", ["sqlite", "postgres"], indirect=True)
def test_a_rated_challenge_is_between_accounts(lobby: TestClient) -> None:
    anna, ben, cleo = name(lobby, "Anna"), name(lobby, "Ben"), name(lobby, "Cleo")
    anna, ben = register(lobby, anna, "Anna"), register(lobby, ben, "Ben")
    with ExitStack() as stack:
        a = Lobby(lobby, stack, anna)
        assert a.welcome["you"] == {"name": "Anna", "account": True}
        Lobby(lobby, stack, ben), Lobby(lobby, stack, cleo)
        online = {p["name"]: p["account"] for p in a.until_online({"Anna", "Ben", "Cleo"})}
        assert online == {"Anna": True, "Ben": True, "Cleo": False}
        r = challenge(lobby, anna, to=["Ben", "Cleo"], players=3, rated=True)
        assert r.status_code == 422 and r.json()["field"] == "rated"
        assert "Cleo is a guest" in r.json()["error"]
        r = challenge(lobby, anna, to=["Ben"], rated=True)
        assert r.status_code == 201 and r.json()["rated"] is True
        as_player(lobby, ben)
        table_id = lobby.post(f"/api/challenges/{r.json()['id']}/accept").json()["table"]
        table = lobby.get(f"/api/tables/{table_id}").json()
        assert table["rated"] is True
        assert [(s["name"], s["account"]) for s in table["seats"]] == [
            ("Anna", True),
            ("Ben", True),
        ]
        # a guest challenges an account: each seat says which of them has a page
        r = challenge(lobby, cleo, to=["Anna"])
        assert r.status_code == 201, r.text
        as_player(lobby, anna)
        table_id = lobby.post(f"/api/challenges/{r.json()['id']}/accept").json()["table"]
        seats = lobby.get(f"/api/tables/{table_id}").json()["seats"]
        assert [(s["name"], s["account"]) for s in seats] == [("Cleo", False), ("Anna", True)]


@pytest.mark.parametrize("backend", ["sqlite", "postgres"], indirect=True)
def test_answers_are_for_the_challenged_and_given_once(lobby: TestClient) -> None:
    anna, ben, cleo = name(lobby, "Anna"), name(lobby, "Ben"), name(lobby, "Cleo")
    with ExitStack() as stack:
        for who in (anna, ben, cleo):
            Lobby(lobby, stack, who)
        made = challenge(lobby, anna, to=["Ben", "Cleo"], players=3).json()
        for who in (anna, name(lobby, "Eve")):
            as_player(lobby, who)
            r = lobby.post(f"/api/challenges/{made['id']}/accept")
            assert r.status_code == 403, r.text
        as_player(lobby, ben)
        assert lobby.post(f"/api/challenges/{made['id']}/accept").status_code == 200
        r = lobby.post(f"/api/challenges/{made['id']}/accept")
        assert r.status_code == 409 and "answered" in r.json()["error"]
        assert lobby.post(f"/api/challenges/{made['id']}/decline").status_code == 409
        assert lobby.post("/api/challenges/nope/accept").status_code == 404
        as_player(lobby, None)
        assert lobby.post(f"/api/challenges/{made['id']}/accept").status_code == 401


def test_a_challenger_has_three_challenges_waiting_at_most(lobby: TestClient) -> None:
    anna, ben = name(lobby, "Anna"), name(lobby, "Ben")
    with ExitStack() as stack:
        Lobby(lobby, stack, anna), Lobby(lobby, stack, ben)
        for _ in range(3):
            assert challenge(lobby, anna, to=["Ben"]).status_code == 201
        r = challenge(lobby, anna, to=["Ben"])
        assert r.status_code == 429, r.text


def test_a_challenger_makes_ten_challenges_a_minute_at_most(lobby: TestClient) -> None:
    anna, ben = name(lobby, "Anna"), name(lobby, "Ben")
    with ExitStack() as stack:
        Lobby(lobby, stack, anna), Lobby(lobby, stack, ben)
        for _ in range(10):  # each withdrawn: 3 may wait at once
            made = challenge(lobby, anna, to=["Ben"])
            assert made.status_code == 201, made.text
            assert lobby.post(f"/api/challenges/{made.json()['id']}/cancel").status_code == 200
        r = challenge(lobby, anna, to=["Ben"])
        assert r.status_code == 429, r.text
        assert r.json()["code"] == "too_many_challenges"
        assert "10 challenges a minute" in r.json()["error"]  # not 3 waiting at once
        assert lobby.get("/api/challenges").json()["challenges"] == []


# --- the lobby's chat -------------------------------------------------------------------


def test_lobby_chat_is_text_phrases_and_kept_for_newcomers(lobby: TestClient) -> None:
    anna, ben = name(lobby, "Anna"), name(lobby, "Ben")
    payload = '<img src=x onerror="alert(1)"> <b>hi</b>'
    with ExitStack() as stack:
        a = Lobby(lobby, stack, anna)
        a.ws.send_json({"type": "chat", "text": f"  {payload}  "})
        said = a.next("chat")
        assert said["from"] == "Anna" and said["text"] == payload and "at" in said
        a.ws.send_json({"type": "chat", "phrase": "good_game"})
        assert a.next("chat")["phrase"] == "good_game"
        b = Lobby(lobby, stack, ben)
        assert [m.get("text", m.get("phrase")) for m in b.welcome["chat"]] == [payload, "good_game"]
        b.ws.send_json({"type": "chat", "text": "hello"})
        assert a.next("chat") == b.next("chat")


@pytest.mark.parametrize(
    ("frame", "code", "field"),
    [
        ({"type": "chat", "text": "x" * 301}, "chat", "text"),
        ({"type": "chat", "text": "a\u0007b"}, "chat", "text"),
        ({"type": "chat", "text": "   "}, "chat", "text"),
        ({"type": "chat", "phrase": "hurry"}, "bad_frame", None),
        ({"type": "chat", "text": 5}, "bad_frame", None),
        ({"type": "play", "tile": "6-6", "version": 1}, "bad_frame", None),
        ({"type": "hello"}, "bad_frame", None),
    ],
)
def test_a_bad_lobby_frame_is_refused(
    lobby: TestClient, frame: dict[str, Any], code: str, field: str | None
) -> None:
    anna = name(lobby, "Anna")
    with ExitStack() as stack:
        a = Lobby(lobby, stack, anna)
        a.ws.send_json(frame)
        error = a.next("error")
        assert error["code"] == code and error.get("field") == field, error
        a.ws.send_text("not json")
        assert a.next("error")["code"] == "bad_frame"
        a.ws.send_text("{" * 5000)
        assert "at most" in a.next("error")["message"]
        a.ws.send_json({"type": "chat", "text": "still here"})
        said = a.next("chat")
        assert said["text"] == "still here"
    with ExitStack() as stack:
        newcomer = Lobby(lobby, stack, None)
    assert newcomer.welcome["chat"] == [
        {"type": "chat", "id": said["id"], "from": "Anna", "text": "still here", "at": 1_000_000.0}
    ]


def test_lobby_chat_is_rate_limited_and_a_visitor_only_reads(lobby: TestClient) -> None:
    anna = name(lobby, "Anna")
    with ExitStack() as stack:
        a = Lobby(lobby, stack, anna)
        for n in range(5):
            a.ws.send_json({"type": "chat", "text": f"m{n}"})
            assert a.next("chat")["text"] == f"m{n}"
        a.ws.send_json({"type": "chat", "text": "one too many"})
        assert a.next("error")["code"] == "rate_limited"
        visitor = Lobby(lobby, stack, None)
        visitor.ws.send_json({"type": "chat", "text": "hi"})
        assert visitor.next("error") | {"message": ""} == {
            "type": "error",
            "code": "chat",
            "message": "",
            "field": "name",
        }
        assert len(visitor.welcome["chat"]) == 5


def test_the_lobby_keeps_the_last_fifty_messages(lobby: TestClient) -> None:
    room = lobby.app.state.lobby  # type: ignore[attr-defined]

    async def unlimited(player: str) -> None:
        """The rate limit is tested above."""

    room.speakers.speak = unlimited
    anna = name(lobby, "Anna")
    with ExitStack() as stack:
        a = Lobby(lobby, stack, anna)
        for n in range(55):
            a.ws.send_json({"type": "chat", "text": f"m{n}"})
            a.next("chat")
        kept = Lobby(lobby, stack, None).welcome["chat"]
        assert [m["text"] for m in kept] == [f"m{n}" for n in range(5, 55)]
