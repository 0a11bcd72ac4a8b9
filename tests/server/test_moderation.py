"""The operator's say over chat: a silenced account is refused in the lobby and at every
table until the silence ends or is lifted; ``serve --chat accounts`` keeps guests out of the
chat; on SQLite and PostgreSQL (the command line's side: ``test_account_cli``)."""

from __future__ import annotations

from contextlib import ExitStack

import pytest
from starlette.testclient import TestClient

from doublesix.server import moderation
from doublesix.server.store import SqlStore

from .server_helpers import AppFactory, Clock, Socket
from .test_lobby_socket import Cookies, Lobby, as_player, name, register


def refused(error: dict[str, object], field: str) -> None:
    assert (error["type"], error["code"], error["field"]) == ("error", "chat", field), error


def table_socket(client: TestClient, stack: ExitStack, cookies: Cookies) -> Socket:
    """A table of the player of ``cookies`` with one open seat: that player's socket."""
    as_player(client, cookies)
    body = {"preset": "draw", "seats": [{"kind": "human"}, {"kind": "open"}]}
    table = client.post("/api/tables", json=body).json()
    return Socket(client, stack, table["id"], table["token"])


@pytest.mark.parametrize("backend", ["sqlite", "postgres"], indirect=True)
def test_a_silenced_account_says_nothing_until_the_silence_ends(
    lobby: TestClient, clock: Clock
) -> None:
    anna = register(lobby, name(lobby, "Anna"), "Anna")
    store = lobby.app.state.server.store  # type: ignore[attr-defined]

    def silence(hours: float | None) -> None:
        until = None if hours is None else clock.now + hours * 3600
        called = lobby.portal.call  # type: ignore[union-attr]
        assert called(_silence, store, "ANNA", clock.now, until) == "Anna"

    with ExitStack() as stack:
        a = Lobby(lobby, stack, anna)
        at_table = table_socket(lobby, stack, anna)
        silence(hours=2)
        a.ws.send_json({"type": "chat", "text": "buy cheap tiles"})
        refused(a.next("error"), "silenced")
        at_table.send({"type": "chat", "phrase": "good_game"})
        refused(at_table.error(), "silenced")

        clock.now += 2 * 3600  # the silence is over
        a.ws.send_json({"type": "chat", "text": "sorry"})
        assert a.next("chat")["text"] == "sorry"
        at_table.send({"type": "chat", "text": "sorry"})
        assert at_table.receive()["text"] == "sorry"

        silence(hours=None)  # until lifted
        clock.now += 10 * 365 * 24 * 3600
        a.ws.send_json({"type": "chat", "text": "still here"})
        refused(a.next("error"), "silenced")
        assert lobby.portal.call(moderation.lift, store, "anna") == "Anna"  # type: ignore[union-attr]
        a.ws.send_json({"type": "chat", "text": "thank you"})
        assert a.next("chat")["text"] == "thank you"


async def _silence(store: SqlStore, who: str, now: float, until: float | None) -> str:
    return await moderation.silence(store, who, now=now, until=until, reason="spam")


def test_where_the_chat_is_for_accounts_a_guest_is_refused(make_app: AppFactory) -> None:
    with TestClient(make_app(chat_accounts_only=True)) as client, ExitStack() as stack:
        guest = name(client, "Gus")
        g = Lobby(client, stack, guest)
        g.ws.send_json({"type": "chat", "text": "hi"})
        refused(g.next("error"), "account")
        at_table = table_socket(client, stack, guest)
        at_table.send({"type": "chat", "text": "hi"})
        refused(at_table.error(), "account")
        anna = register(client, name(client, "Anna"), "Anna")
        a = Lobby(client, stack, anna)
        a.ws.send_json({"type": "chat", "text": "hi, I have an account"})
        assert a.next("chat")["text"] == "hi, I have an account"
