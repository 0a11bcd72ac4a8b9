"""An operator removes any message of a table's chat (``DELETE
/api/operator/tables/{table}/chat/{version}``): one older than the last messages the table's
pages show, during the game, and one at a finished table that no process holds any more,
which is loaded again for it. The game's page leaves it out from then on and the operators'
log has its words; what is refused changes nothing."""

from __future__ import annotations

import random
import time
from contextlib import ExitStack
from typing import Any

import pytest

from doublesix.server import schema
from doublesix.server.moderation import appoint
from doublesix.table.config import TableConfig

from .conftest import CHEAP
from .server_helpers import (
    AppFactory,
    Clock,
    Socket,
    TestClient,
    human_table,
    new_table,
    play_out,
)
from .test_accounts import register, rows
from .test_operator import as_account

MESSAGES = 60
"""More than a table's pages show (``TableConfig.chat_kept``)."""


def operator(client: TestClient, name: str) -> None:
    """An account the command line made one of the site's operators."""
    client.cookies.clear()
    register(client, name, "a long enough password")
    store = client.app.state.server.store  # type: ignore[attr-defined]
    assert client.portal is not None
    client.portal.call(lambda: appoint(store, name, operator=True))


def say(sockets: list[Socket], clock: Clock, count: int) -> list[dict[str, Any]]:
    """Seat 0 says ``count`` lines, every socket reads each; the clock moves on between bursts
    (a sender may write ``chat_burst`` messages in any ``chat_window`` seconds)."""
    config = TableConfig()
    said = []
    for n in range(count):
        if n and n % config.chat_burst == 0:
            clock.now += config.chat_window
        sockets[0].send({"type": "chat", "text": f"line {n}"})
        frames = [socket.receive() for socket in sockets]
        assert frames[0] == frames[1] and frames[0]["text"] == f"line {n}", frames
        said.append(frames[0])
    return said


def path(table_id: str, version: int) -> str:
    return f"/api/operator/tables/{table_id}/chat/{version}"


@pytest.mark.parametrize("backend", ["sqlite", "postgres"], indirect=True)
def test_the_first_of_60_messages_of_a_game_being_played(
    make_app: AppFactory, clock: Clock
) -> None:
    """Removed during the game: the pages at the table hear it at once, a page that comes
    back from before it gets a placeholder, and the game's page leaves it out at the end."""
    with TestClient(make_app(password_hasher=CHEAP, clock=clock)) as client:
        operator(client, "Olga")
        table_id, tokens = human_table(client, "block", 2, target="round")
        with ExitStack() as stack:
            sockets = [Socket(client, stack, table_id, t) for t in tokens]
            since = sockets[0].version
            said = say(sockets, clock, MESSAGES)
            first = said[0]["version"]
            watcher = Socket(client, stack, table_id, None)
            assert watcher.view["chat"] == said[-TableConfig().chat_kept :]  # not the first
            as_account(client, "Olga")
            assert client.delete(path(table_id, first)).json() == {"removed": first}
            unchat = {"type": "unchat", "version": said[-1]["version"] + 1, "chat": first}
            assert [s.receive() for s in [*sockets, watcher]] == [unchat] * 3
            [logged] = client.get("/api/operator/log").json()["log"]
            assert (logged["operator"], logged["act"], logged["name"]) == ("Olga", "unchat", "Anna")
            assert logged["detail"] == {"table": table_id, "text": "line 0"}

            with client.websocket_connect(f"/ws/table/{table_id}") as back:
                back.send_json({"type": "hello", "token": None, "since": since})
                frames = [back.receive_json() for _ in range(MESSAGES + 3)]
            assert [f["type"] for f in frames] == [
                "resume",
                *["chat"] * MESSAGES,
                "unchat",
                "presence",
            ]
            assert frames[1] == {"type": "chat", "version": first, "removed": True}
            assert frames[2:-2] == said[1:] and frames[-2] == unchat
            assert "line 0" not in str(frames)

            for socket in sockets:
                socket.version = unchat["version"]  # the chat's versions, read above
            watcher.close()
            play_out(sockets, [], random.Random(5))
        chat = client.get(f"/api/games/{table_id}/chat").json()["chat"]
        assert chat == said[1:]


@pytest.mark.parametrize("backend", ["sqlite", "postgres"], indirect=True)
def test_a_message_at_a_finished_table_no_process_holds(make_app: AppFactory, clock: Clock) -> None:
    """The game is over and its table has left memory: the removal loads it again and logs
    ``unchat``, and the game's page leaves the message out. A version that is no message, one
    removed already, a table that does not exist, anyone but an operator: refused, and
    nothing changes."""
    with TestClient(make_app(password_hasher=CHEAP, clock=clock, idle_seconds=0.05)) as client:
        operator(client, "Olga")
        table_id, tokens = human_table(client, "block", 2, target="round")
        with ExitStack() as stack:
            sockets = [Socket(client, stack, table_id, t) for t in tokens]
            play_out(sockets, [], random.Random(7))
            said = say(sockets, clock, 55)
        manager = client.app.state.server.manager  # type: ignore[attr-defined]
        deadline = time.monotonic() + 5
        while manager.hosts[table_id].running:
            assert time.monotonic() < deadline, "the finished table stayed in memory"
            time.sleep(0.02)
        game = f"/api/games/{table_id}/chat"
        assert client.get(game).json()["chat"] == said

        first = said[0]["version"]
        refused = client.delete(path(table_id, first))  # the last guest, Player 1
        assert (refused.status_code, refused.json()["code"]) == (403, "operator")
        client.cookies.clear()
        refused = client.delete(path(table_id, first))
        assert (refused.status_code, refused.json()["code"]) == (401, "no_guest")

        as_account(client, "Olga")
        version = client.get(f"/api/tables/{table_id}").json()["version"]
        assert client.delete(path(table_id, first)).json() == {"removed": first}
        assert client.get(game).json()["chat"] == said[1:]
        [logged] = client.get("/api/operator/log").json()["log"]
        assert (logged["operator"], logged["act"], logged["name"]) == ("Olga", "unchat", "Anna")
        assert logged["detail"] == {"table": table_id, "text": "line 0"}
        [stored] = [r for r in rows(client, schema.events) if r.version == version + 1]
        assert (stored.table_id, stored.kind, stored.data) == (table_id, "unchat", {"chat": first})

        for url, why, field in (
            (path(table_id, first), "removed already", "chat"),
            (path(table_id, 1), "no message", "chat"),  # a seat taken
            (path(table_id, version + 1), "no message", "chat"),  # the unchat entry
            (path(table_id, 10**6), "no message", "chat"),
            (path("nope", first), "no table", None),
        ):
            refused = client.delete(url)
            assert refused.status_code == 404, refused.text
            assert why in refused.json()["error"] and refused.json().get("field") == field
        assert client.get(f"/api/tables/{table_id}").json()["version"] == version + 1
        assert len(client.get("/api/operator/log").json()["log"]) == 1
        assert client.get(game).json()["chat"] == said[1:]


@pytest.mark.parametrize("backend", ["sqlite", "postgres"], indirect=True)
def test_a_message_of_a_waiting_room_its_creator_closed(accounts_client: TestClient) -> None:
    """A table closed before its start keeps its chat on its game's page: removed from there
    too."""
    client = accounts_client
    operator(client, "Olga")
    table = new_table(client, preset="block", seats=[{"kind": "human"}, {"kind": "open"}])
    with ExitStack() as stack:
        anna = Socket(client, stack, table["id"], table["token"])
        anna.send({"type": "chat", "text": "something vile"})
        said = anna.receive()
        anna.send({"type": "leave"})
        closed = anna.receive()
        assert (closed["type"], closed["events"]) == ("update", [{"close": "cancelled"}])
    game = f"/api/games/{table['id']}/chat"
    assert client.get(game).json()["chat"] == [said]
    as_account(client, "Olga")
    assert client.delete(path(table["id"], said["version"])).json() == {"removed": said["version"]}
    assert client.get(game).json()["chat"] == []
    assert client.get(f"/api/tables/{table['id']}").json()["status"] == "closed"
