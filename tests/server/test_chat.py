"""Chat at a table through the socket, and the finished game's chat (``/api/games/{id}/chat``).

Players write in the players' channel, a named spectator in the spectators' one, and
everyone at the table reads both; bad messages are refused with the field and change
nothing; the game's page gets every message once the game is over, on SQLite and PostgreSQL.
"""

from __future__ import annotations

import random
from contextlib import ExitStack
from typing import Any

import pytest
from starlette.testclient import TestClient

from .server_helpers import Socket, guest, human_table, new_table, play_out

HTML = "<img src=x onerror=alert(1)>"


def chat_frame(socket: Socket) -> dict[str, Any]:
    frame = socket.receive()
    assert frame["type"] == "chat", frame
    assert frame["version"] == socket.version + 1
    socket.version = frame["version"]
    return frame


@pytest.mark.parametrize("backend", ["sqlite", "postgres"], indirect=True)
def test_chat_in_both_channels_then_on_the_game_page(client: TestClient) -> None:
    table_id, tokens = human_table(client, "block", 2, target=20)
    assert client.get(f"/api/games/{table_id}/chat").status_code == 409  # being played
    with ExitStack() as stack:
        anna, ben = (Socket(client, stack, table_id, t) for t in tokens)
        guest(client, "Carla")
        carla = Socket(client, stack, table_id, None)
        everyone = [anna, ben, carla]

        anna.send({"type": "chat", "text": f"  {HTML}  "})
        for s in everyone:
            frame = chat_frame(s)
            assert frame["text"] == HTML and frame["from"] == "Anna"
            assert frame["channel"] == "players" and frame["seat"] == 0
        ben.send({"type": "chat", "phrase": "good_game"})
        for s in everyone:
            frame = chat_frame(s)
            assert frame["phrase"] == "good_game" and "text" not in frame
        carla.send({"type": "chat", "text": "go Player 1"})
        for s in everyone:
            frame = chat_frame(s)
            assert (frame["from"], frame["channel"], frame["seat"]) == ("Carla", "spectators", None)

        version = anna.version
        for bad, field in (({"text": "x" * 301}, "text"), ({"text": "a\u202eb"}, "text")):
            anna.send({"type": "chat"} | bad)
            error = anna.error()
            assert (error["code"], error["field"]) == ("chat", field), error
        anna.send({"type": "chat", "phrase": "insults"})
        assert anna.error()["code"] == "bad_frame"
        client.cookies.clear()
        nobody = Socket(client, stack, table_id, None)
        nobody.send({"type": "chat", "text": "who am I"})
        error = nobody.error()
        assert (error["code"], error["field"]) == ("chat", "name")
        assert anna.version == version  # nothing was said

        play_out([anna, ben], [carla], random.Random(5))
        assert anna.view["status"] == "finished"
        ben.send({"type": "chat", "phrase": "thanks"})  # after the game, still at the table
        assert chat_frame(anna)["phrase"] == "thanks"

    answer = client.get(f"/api/games/{table_id}/chat")
    assert answer.status_code == 200, answer.text
    chat = answer.json()["chat"]
    said = [(c["from"], c["channel"], c.get("text"), c.get("phrase")) for c in chat]
    assert said == [
        ("Anna", "players", HTML, None),
        ("Player 1", "players", None, "good_game"),
        ("Carla", "spectators", "go Player 1", None),
        ("Player 1", "players", None, "thanks"),
    ]
    assert all("player" not in c for c in chat)  # who a spectator is stays in the log
    assert client.get("/api/games/no-such-table/chat").status_code == 404


def test_a_sender_writes_five_messages_in_ten_seconds(client: TestClient) -> None:
    table_id, tokens = human_table(client, "block", 2, target=20)
    with ExitStack() as stack:
        anna = Socket(client, stack, table_id, tokens[0])
        for k in range(5):
            anna.send({"type": "chat", "text": f"message {k}"})
            assert chat_frame(anna)["text"] == f"message {k}"
        anna.send({"type": "chat", "phrase": "thanks"})
        assert anna.error()["code"] == "rate_limited"


def test_chat_in_the_waiting_room_then_at_the_started_game(client: TestClient) -> None:
    """The socket opens before the game: the players seated so far and a named visitor talk
    while the table waits; a player who sits down meanwhile is told of it, and the game's
    start reaches every socket already open."""
    seats = [{"kind": "human"}, {"kind": "open"}]
    table = new_table(client, preset="draw", seats=seats)
    with ExitStack() as stack:
        anna = Socket(client, stack, table["id"], table["token"])
        assert anna.view["status"] == "waiting" and anna.view["seat"] == 0
        guest(client, "Ben")
        ben = Socket(client, stack, table["id"], None)  # on the page, not seated yet
        ben.send({"type": "chat", "text": "room for me?"})
        for s in (anna, ben):
            frame = chat_frame(s)
            assert (frame["from"], frame["channel"]) == ("Ben", "spectators")
        anna.send({"type": "chat", "phrase": "your_turn"})
        for s in (anna, ben):
            assert chat_frame(s)["channel"] == "players"

        r = client.post(f"/api/tables/{table['id']}/join", json={"seat": 1})  # Ben sits down
        assert r.status_code == 200, r.text
        for s in (anna, ben):
            update = s.receive()
            while update["type"] != "update" or update["view"]["status"] != "playing":
                update = s.receive()
            s.version, s.view = update["version"], update["view"]
        assert anna.view["players"] == ["Anna", "Ben"] and ben.view["seat"] is None
        assert [a["seat"] for a in anna.view["away"]] == [1]  # Ben's socket holds no seat
        said = [(c["from"], c.get("text"), c.get("phrase")) for c in anna.view["chat"]]
        assert said == [("Ben", "room for me?", None), ("Anna", None, "your_turn")]
