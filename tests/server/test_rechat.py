"""An operator restores a table's chat message an operator removed by mistake (``POST
/api/operator/tables/{table}/chat/{version}/restore``): during the game the pages at the table
hear a ``rechat`` frame with its words at once, and a page that comes back from before it
gets them in their place; at a finished table no process holds, the game's page shows it
again. The operators' log keeps the act. A message shown, one whose words an account's
erasure took, or no message: refused, and nothing changes."""

from __future__ import annotations

import random
import time
from contextlib import ExitStack

import pytest

from doublesix.server import schema

from .conftest import CHEAP
from .server_helpers import AppFactory, Clock, Socket, TestClient, human_table, play_out
from .test_accounts import rows
from .test_operator import as_account
from .test_unchat import MESSAGES, operator, path, say


def restore(table_id: str, version: int) -> str:
    return path(table_id, version) + "/restore"


@pytest.mark.parametrize("backend", ["sqlite", "postgres"], indirect=True)
def test_a_message_restored_during_the_game(make_app: AppFactory, clock: Clock) -> None:
    with TestClient(make_app(password_hasher=CHEAP, clock=clock)) as client:
        operator(client, "Olga")
        table_id, tokens = human_table(client, "block", 2, target="round")
        with ExitStack() as stack:
            sockets = [Socket(client, stack, table_id, t) for t in tokens]
            since = sockets[0].version
            said = say(sockets, clock, MESSAGES)
            first, last = said[0]["version"], said[-1]["version"]
            as_account(client, "Olga")
            assert client.delete(path(table_id, first)).json() == {"removed": first}
            for socket in sockets:
                assert socket.receive()["type"] == "unchat"
            watcher = Socket(client, stack, table_id, None)

            assert client.post(restore(table_id, first)).json() == {"restored": first}
            rechat = {"type": "rechat", "version": last + 2, "chat": first, "message": said[0]}
            assert [s.receive() for s in [*sockets, watcher]] == [rechat] * 3
            refused = client.post(restore(table_id, first))
            assert (refused.status_code, refused.json()["code"]) == (409, "not_removed")
            log = client.get("/api/operator/log").json()["log"]
            assert [(e["operator"], e["act"], e["name"]) for e in log] == [
                ("Olga", "restore", "Anna"),
                ("Olga", "unchat", "Anna"),
            ]
            assert log[0]["detail"] == {"table": table_id, "chat": first}

            with client.websocket_connect(f"/ws/table/{table_id}") as back:
                back.send_json({"type": "hello", "token": None, "since": since})
                frames = [back.receive_json() for _ in range(MESSAGES + 4)]
            assert [f["type"] for f in frames] == [
                "resume",
                *["chat"] * MESSAGES,
                "unchat",
                "rechat",
                "presence",
            ]
            assert frames[1:-3] == said and frames[-2] == rechat  # its words, in their place

            for socket in sockets:
                socket.version = rechat["version"]  # the chat's versions, read above
            watcher.close()
            play_out(sockets, [], random.Random(5))
        assert client.get(f"/api/games/{table_id}/chat").json()["chat"] == said


@pytest.mark.parametrize("backend", ["sqlite", "postgres"], indirect=True)
def test_a_message_restored_at_a_finished_table(make_app: AppFactory, clock: Clock) -> None:
    """The game is over and its table has left memory: the game's page shows an operator the
    removed message's place, with nothing of its words; restored, it shows them to everyone
    again. What is refused changes nothing."""
    settings = {"password_hasher": CHEAP, "clock": clock, "idle_seconds": 0.05}
    with TestClient(make_app(**settings)) as client:
        operator(client, "Olga")
        table_id, tokens = human_table(client, "block", 2, target="round")
        with ExitStack() as stack:
            sockets = [Socket(client, stack, table_id, t) for t in tokens]
            play_out(sockets, [], random.Random(7))
            said = say(sockets, clock, 3)
        first, second = said[0]["version"], said[1]["version"]
        game = f"/api/games/{table_id}/chat"
        places = game + "?removed=true"  # an operator's: the removed messages' places too
        as_account(client, "Olga")
        for version in (first, second):
            assert client.delete(path(table_id, version)).json() == {"removed": version}
        manager = client.app.state.server.manager  # type: ignore[attr-defined]
        deadline = time.monotonic() + 5
        while manager.hosts[table_id].running:
            assert time.monotonic() < deadline, "the finished table stayed in memory"
            time.sleep(0.02)
        place = {"type": "chat", "removed": True, "restorable": True, "from": "Anna"}
        assert client.get(game).json()["chat"] == [said[2]]
        assert client.get(places).json()["chat"] == [
            place | {"version": first},
            place | {"version": second},
            said[2],
        ]
        # An account's erasure took the second one's words since (``erasure._rewrite``).
        store = client.app.state.server.store  # type: ignore[attr-defined]
        e = schema.events
        erased = (
            e.update()
            .where(e.c.table_id == table_id, e.c.version == second)
            .values(data={"removed": True})
        )

        async def erase() -> None:
            async with store.writing() as conn:
                await conn.execute(erased)

        assert client.portal is not None
        client.portal.call(erase)
        erased_place = {"type": "chat", "version": second, "removed": True}
        assert client.get(places).json()["chat"][1] == erased_place  # nothing to restore

        version = client.get(f"/api/tables/{table_id}").json()["version"]
        for url, status, code in (
            (restore(table_id, second), 409, "erased"),
            (restore(table_id, said[2]["version"]), 409, "not_removed"),
            (restore(table_id, 1), 404, "no_message"),  # a seat taken
            (restore(table_id, version), 404, "no_message"),  # the unchat entry
            (restore(table_id, 10**6), 404, "no_message"),
            (restore("nope", first), 404, "not_found"),
        ):
            refused = client.post(url)
            assert (refused.status_code, refused.json()["code"]) == (status, code), url
            assert refused.json().get("field") == (None if code == "not_found" else "chat")
        assert client.get(f"/api/tables/{table_id}").json()["version"] == version
        assert len(client.get("/api/operator/log").json()["log"]) == 2

        client.cookies.clear()
        refused = client.post(restore(table_id, first))
        assert (refused.status_code, refused.json()["code"]) == (401, "no_guest")
        assert client.get(places).json()["chat"] == [said[2]]  # nobody else's page shows a place

        as_account(client, "Olga")
        assert client.post(restore(table_id, first)).json() == {"restored": first}
        client.cookies.clear()
        assert client.get(game).json()["chat"] == [said[0], said[2]]
        stored = [r for r in rows(client, schema.events) if r.version == version + 1]
        assert [(r.kind, r.data) for r in stored] == [("rechat", {"chat": first})]
