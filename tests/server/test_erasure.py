"""An account's erasure (``server/erasure.py``, ``POST /api/account/erase``, ``doublesix
account erase``), on SQLite and PostgreSQL: the others' games stay whole and replay under a
pseudonym, the erased player's chat shows as removed, and no row of the database holds the
name or the player id any more — but ``accounts.name_key``, which keeps the name taken. A
game being played makes the erasure wait for its end."""

from __future__ import annotations

import random
import time
from contextlib import ExitStack

import pytest
import sqlalchemy as sa

from doublesix.rules.record import loads, replay
from doublesix.server import erasure, schema
from doublesix.server.account_names import AccountError, check_name, looks_erased, pseudonym

from .rating_helpers import wait_rated
from .server_helpers import BOTH, Command, Socket, TestClient, guest, play_out
from .test_accounts import PASSWORD, rows
from .test_lobby_socket import Cookies, Lobby, as_player
from .test_operator import appoint_on, shut
from .test_shut_out import CLOSED, TWO, logged_in, table_of

SHORT = {"target": "round"}
"""One round: a game played out in a few moves."""


@pytest.fixture
def client(accounts_client: TestClient) -> TestClient:
    return accounts_client


def mentions(client: TestClient, *needles: str) -> set[tuple[str, str]]:
    """Every ``(table, column)`` of the database whose text (a string or JSON column) holds
    one of ``needles`` in any case, but ``accounts.name_key`` and ``accounts.player_id``:
    what the erasure keeps."""
    kept = {("accounts", "name_key"), ("accounts", "player_id")}
    found = set()
    for table in schema.metadata.sorted_tables:
        texts = [c for c in table.columns if isinstance(c.type, sa.String | sa.Text | sa.JSON)]
        for row in rows(client, table):
            for column in texts:
                value = str(getattr(row, column.name)).casefold()
                if any(n.casefold() in value for n in needles):
                    found.add((table.name, column.name))
    return found - kept


def player_id(client: TestClient, name: str) -> str:
    [row] = [a for a in rows(client, schema.accounts) if a.name == name]
    return str(row.player_id)


def say(sockets: list[Socket], by: int, text: str) -> None:
    """Seat ``by`` says ``text`` at the table; every socket takes the chat frame (a log
    entry: the next update follows its version)."""
    sockets[by].send({"type": "chat", "text": text})
    for socket in sockets:
        frame = socket.receive()
        assert (frame["type"], frame["text"]) == ("chat", text), frame
        socket.version = frame["version"]


def sweep(client: TestClient) -> list[erasure.Erasing]:
    store = client.app.state.server.store  # type: ignore[attr-defined]
    assert client.portal is not None
    return client.portal.call(erasure.sweep, store, time.time())


def a_finished_game(client: TestClient, anna: Cookies, boris: Cookies) -> str:
    """A rated game of one round between Anna and Boris, with chat from both, played to its
    end and rated; its table's id."""
    rated = {"preset": "draw", "seats": TWO, "rated": True, "options": SHORT}
    table_id, *tokens = table_of(client, anna, boris, **rated)
    with ExitStack() as stack:
        sockets = []
        for cookies, token in zip((anna, boris), tokens, strict=True):
            as_player(client, cookies)
            sockets.append(Socket(client, stack, table_id, token))
        sockets[0].all_here()
        say(sockets, 0, "hello from the one who leaves")
        say(sockets, 1, "hello from Boris")
        play_out(sockets, [], random.Random(7))
    assert len(wait_rated(client, table_id, 2)) == 2
    return table_id


@BOTH
def test_an_erased_player_s_games_stay_whole_and_name_nobody(client: TestClient) -> None:
    anna, boris = logged_in(client, "Anna"), logged_in(client, "Boris")
    anna_id = player_id(client, "Anna")
    table_id = a_finished_game(client, anna, boris)
    with ExitStack() as stack:
        lobby = Lobby(client, stack, anna)
        lobby.ws.send_json({"type": "chat", "text": "bye all"})
        lobby.next("chat")
        as_player(client, boris)
        lobby = Lobby(client, stack, boris)
        lobby.ws.send_json({"type": "chat", "text": "hi all"})
        lobby.next("chat")
    said = {}  # a private message each way: Anna's is reported with its words
    for me, other, text in ((anna, "Boris", "Anna here: you cheat"), (boris, "Anna", "gg Anna")):
        as_player(client, me)
        answer = client.post("/api/messages", json={"to": other, "text": text})
        assert answer.status_code == 201, answer.text
        said[other] = answer.json()["id"]
    for me, other in ((anna, "Boris"), (boris, "Anna")):
        as_player(client, me)
        assert client.put(f"/api/account/following/{other}").status_code == 200
        reported = {
            "name": other,
            "reason": "abuse",
            "text": f"{other} was rude",
            "table": table_id,
        } | ({"message": said["Boris"]} if other == "Anna" else {})
        assert client.post("/api/reports", json=reported).status_code == 201
    as_player(client, boris)
    assert client.put("/api/account/muted/Anna").status_code == 200
    cup = {"name": "Anna's cup", "preset": "draw", "starts_in": 5, "minutes": 30}
    tournament = as_player(client, anna).post("/api/tournaments", json=cup).json()["id"]
    for me in (anna, boris):
        joined = as_player(client, me).post(f"/api/tournaments/{tournament}/join")
        assert joined.status_code == 200, joined.text
    before = mentions(client, "Anna", anna_id)
    assert {
        ("accounts", "name"),
        ("seats", "name"),
        ("seats", "player_id"),
        ("events", "data"),
        ("reports", "name"),
        ("reports", "reporter_name"),
        ("mutes", "name"),
        ("messages", "sender_id"),
        ("messages", "recipient_id"),
        ("messages", "text"),
        ("conversations", "player_id"),
        ("conversations", "other_id"),
        ("conversations", "started_by"),
        ("reports", "message"),
        ("tournaments", "name"),
        ("tournaments", "creator_id"),
        ("tournament_players", "player_id"),
    } <= before  # the scan finds what the erasure must take away

    as_player(client, anna)
    wrong = client.post("/api/account/erase", json={"password": "not my password"})
    assert (wrong.status_code, wrong.json()["field"]) == (401, "password")
    assert mentions(client, "Anna", anna_id) == before  # nothing changed
    erased = client.post("/api/account/erase", json={"password": PASSWORD})
    assert erased.status_code == 200, erased.text
    assert erased.json() == {"player": None, "erasure": "done"}
    assert 'ds_session=""' in erased.headers["set-cookie"]

    assert mentions(client, "Anna", anna_id) == set()
    [row] = [a for a in rows(client, schema.accounts) if a.name_key == "anna"]
    assert row.erased_at is not None and row.closed_by == "player" and looks_erased(row.name)

    as_player(client, boris)  # Boris's game, his page, his rating: whole, with a pseudonym
    seats = client.get(f"/api/tables/{table_id}").json()["seats"]
    alias = seats[0]["name"]
    assert looks_erased(alias) and alias != row.name and seats[1]["name"] == "Boris"
    assert [s["account"] for s in seats] == [False, True]
    chat = client.get(f"/api/games/{table_id}/chat").json()["chat"]
    assert [m.get("removed", False) for m in chat] == [True, False]
    assert chat[1]["from"] == "Boris" and chat[1]["text"] == "hello from Boris"
    record = loads(client.get(f"/api/games/{table_id}/record").text)
    assert record["players"] == [alias, "Boris"]
    assert replay(record).finished
    [game] = client.get("/api/players/Boris").json()["games"]
    assert [p["name"] for p in game["players"]] == [alias, "Boris"]
    assert game["rating_change"] is not None
    [change] = [c for c in rows(client, schema.rating_changes)]
    assert change.player_id == player_id(client, "Boris")
    with ExitStack() as stack:
        said = [m["text"] for m in Lobby(client, stack, boris).welcome["chat"]]
    assert said == ["hi all"]
    assert client.get("/api/account/following").json()["following"] == []
    assert client.get("/api/messages").json()["conversations"] == []
    assert rows(client, schema.messages) == [] and rows(client, schema.conversations) == []
    [kept] = [r for r in rows(client, schema.reports) if r.reporter_name == "Boris"]
    assert kept.message == ""  # a message was reported; its words went with its sender
    cup = client.get(f"/api/tournaments/{tournament}").json()
    assert (cup["creator"], cup["name"]) == (None, f"{alias}'s cup")
    assert [s["name"] for s in cup["standings"]] == ["Boris"]  # she left the standings

    client.cookies.clear()  # the name stays taken, and the pseudonym is nobody's
    login = client.post("/api/session", json={"name": "Anna", "password": PASSWORD})
    assert (login.status_code, login.json()["code"]) == (401, "wrong_password")
    again = client.post("/api/accounts", json={"name": "anna", "password": PASSWORD})
    assert again.status_code == 409
    for name, status in (("Anna", 409), (alias, 422), (alias.upper(), 422)):
        assert client.post("/api/guest", json={"name": name}).status_code == status
    assert sweep(client) == []  # a second sweep has nothing to do
    assert mentions(client, "Anna", anna_id) == set()


@BOTH
def test_a_game_being_played_makes_the_erasure_wait_for_its_end(client: TestClient) -> None:
    """Anna asks in the middle of a game: she is shut out at once and a bot plays for her;
    her name stays in the game until it ends, then the game's end erases it."""
    anna, boris = logged_in(client, "Anna"), logged_in(client, "Boris")
    anna_id = player_id(client, "Anna")
    table_id, *tokens = table_of(client, anna, boris, preset="draw", seats=TWO, options=SHORT)
    with ExitStack() as stack:
        as_player(client, boris)
        b = Socket(client, stack, table_id, tokens[1])
        as_player(client, anna)
        a = Socket(client, stack, table_id, tokens[0])
        b.all_here()
        say([a, b], 0, "I must go")
        asked = client.post("/api/account/erase", json={"password": PASSWORD})
        assert asked.json() == {"player": None, "erasure": "pending", "games": 1}
        assert shut(a.ws)[0] == CLOSED
        assert mentions(client, "Anna", anna_id) >= {("seats", "name"), ("events", "data")}
        assert [e.progress for e in sweep(client)] == [erasure.Progress.PENDING]
        assert mentions(client, "Anna", anna_id) >= {("seats", "name"), ("events", "data")}

        while b.view["status"] == "playing":  # Boris plays; a bot for Anna
            if b.view["turn"] == 1:
                b.play(b.view["legal"][0])
            b.update()
    deadline = time.monotonic() + 10
    while mentions(client, "Anna", anna_id) and time.monotonic() < deadline:
        time.sleep(0.05)  # the game's end erases her (``erasure.erase_seated``)
    assert mentions(client, "Anna", anna_id) == set()
    chat = client.get(f"/api/games/{table_id}/chat").json()["chat"]
    assert chat == [{"type": "chat", "version": chat[0]["version"], "removed": True}]


def test_what_a_process_derived_from_a_rewritten_game_goes(client: TestClient) -> None:
    """The record and the reviews a process keeps of a finished game (``routes.games``,
    ``Reviews``) are dropped once an erasure rewrote it (``Lobby._reread``): the record
    served then names the pseudonym, and the review is made again from it."""
    anna, boris = logged_in(client, "Anna"), logged_in(client, "Boris")
    table_id = a_finished_game(client, anna, boris)
    as_player(client, boris)
    assert loads(client.get(f"/api/games/{table_id}/record").text)["players"] == ["Anna", "Boris"]
    reviewed = client.get(f"/api/games/{table_id}/review", params={"seat": 1})
    assert reviewed.status_code == 200, reviewed.text
    reviews = client.app.state.server.reviews  # type: ignore[attr-defined]
    assert ("game:" + table_id, 1) in reviews._kept

    as_player(client, anna)
    assert client.post("/api/account/erase", json={"password": PASSWORD}).is_success
    as_player(client, boris)
    deadline = time.monotonic() + 5
    while ("game:" + table_id, 1) in reviews._kept and time.monotonic() < deadline:
        time.sleep(0.02)  # every process is told of the erasure (``Lobby.erased``)
    assert ("game:" + table_id, 1) not in reviews._kept
    [alias, _] = loads(client.get(f"/api/games/{table_id}/record").text)["players"]
    assert looks_erased(alias)
    again = client.get(f"/api/games/{table_id}/review", params={"seat": 1})
    assert again.json() == reviewed.json()  # the same moves: a review holds no names


@BOTH
def test_who_may_not_erase_and_nothing_changes(client: TestClient) -> None:
    logged_in(client, "Olga")
    appoint_on(client, "Olga")
    for who in ("nobody", "guest"):
        client.cookies.clear()
        if who == "guest":
            guest(client, "Gina")
        refused = client.post("/api/account/erase", json={"password": PASSWORD})
        assert (refused.status_code, refused.json()["code"]) == (401, "no_account")
    as_player(client, None)
    assert client.post("/api/session", json={"name": "Olga", "password": PASSWORD}).is_success
    refused = client.post("/api/account/erase", json={"password": PASSWORD})
    assert (refused.status_code, refused.json()["code"]) == (403, "operator")
    [olga] = rows(client, schema.accounts)
    assert (olga.closed_at, olga.erase_requested_at) == (None, None)
    assert client.get("/api/me").json()["player"]["name"] == "Olga"  # still logged in


def test_the_operator_erases_an_account_from_the_command_line(
    client: TestClient, account: Command
) -> None:
    """``doublesix account erase``: unknown names change nothing; a finished player is erased
    at once, the operators' log keeps the act under the pseudonym, and again changes nothing;
    nothing reopens it."""
    anna, boris = logged_in(client, "Anna"), logged_in(client, "Boris")
    anna_id = player_id(client, "Anna")
    a_finished_game(client, anna, boris)
    code, out, err = account("erase", "Nobody")
    assert (code, out) == (1, "") and "no account is named 'Nobody'; nothing changed" in err
    assert mentions(client, "Anna", anna_id)

    code, out, _ = account("erase", "anna")
    assert code == 0
    assert out.startswith("anna is erased: closed, its personal data gone; its name stays taken")
    assert mentions(client, "Anna", anna_id) == set()
    [entry] = rows(client, schema.moderation_log)
    assert entry.action == "erase" and looks_erased(entry.name) and entry.operator is None
    assert account("erase", "Anna")[:2] == (0, "Anna was erased already; nothing changed\n")
    code, _, err = account("reopen", "Anna")
    assert code == 1 and "is erased, or its erasure asked; nothing changed" in err
    as_player(client, boris)
    assert client.get("/api/players/Boris").json()["games"][0]["players"][1]["name"] == "Boris"


def test_the_command_line_s_erasure_waits_for_a_game_being_played(
    client: TestClient, account: Command
) -> None:
    anna, boris = logged_in(client, "Anna"), logged_in(client, "Boris")
    table_of(client, anna, boris, preset="draw", seats=TWO)
    code, out, _ = account("erase", "Anna")
    assert code == 0 and out.startswith(
        "Anna is closed; it is erased once its 1 game(s) being played end"
    )
    code, out, _ = account("erase", "Anna")
    assert out.startswith("Anna's erasure was asked already; it is erased once its 1 game(s)")
    as_player(client, anna)
    assert client.get("/api/me").json() == {"player": None}  # closed at once


def test_a_pseudonym_is_no_one_s_name() -> None:
    for _ in range(50):
        alias = pseudonym()
        assert looks_erased(alias)
        with pytest.raises(AccountError) as refused:
            check_name(alias)
        assert refused.value.field == "name"
    assert check_name("Eraser") == "Eraser" and not looks_erased("Rased")
