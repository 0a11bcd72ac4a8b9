"""The site's operators on the web (``routes/operator.py``): only accounts the command line
made operators (``doublesix account operator NAME``) read and close the reports, silence an
account and close one (a ban) or reopen it; anyone else is refused, and what is refused
changes nothing."""

from __future__ import annotations

import random
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from redis.asyncio import Redis
from starlette.websockets import WebSocketDisconnect

from doublesix.server import moderation_log, schema
from doublesix.server.channels import Space
from doublesix.server.lobby_chat import HISTORY, RedisHistory, message
from doublesix.server.moderation import appoint
from doublesix.server.moderation_log import Act
from doublesix.table.model import JSON

from .server_helpers import (
    BOTH,
    Command,
    Socket,
    TestClient,
    WebSocketTestSession,
    guest,
    human_table,
    play_out,
    run_async,
)
from .site_helpers import REDIS, require_services
from .test_accounts import register, rows
from .test_closed_accounts import SOCKETS_STAY
from .test_lobby_socket import Lobby, as_player, name
from .test_lobby_socket import register as lobby_register
from .test_store import _store, icu_plan


def shut(ws: WebSocketTestSession) -> tuple[tuple[int, str], list[dict[str, Any]]]:
    """How the server closed the socket, and the frames it sent before."""
    frames = []
    with pytest.raises(WebSocketDisconnect) as closed:
        while True:
            frames.append(ws.receive_json())
    return (closed.value.code, closed.value.reason), frames


@pytest.fixture
def client(accounts_client: TestClient) -> TestClient:
    return accounts_client


def as_account(client: TestClient, name: str) -> None:
    client.cookies.clear()
    r = client.post("/api/session", json={"name": name, "password": "a long enough password"})
    assert r.status_code == 200, r.text


def test_an_operator_reads_closes_and_silences(client: TestClient, account: Command) -> None:
    for account_name in ("Ben", "Olga"):
        client.cookies.clear()
        register(client, account_name, "a long enough password")
    client.cookies.clear()
    guest(client, "Anna")
    r = client.post("/api/reports", json={"name": "Ben", "reason": "abuse", "text": "rude"})
    assert r.status_code == 201, r.text
    assert client.get("/api/operator/reports").status_code == 403  # a guest
    client.cookies.clear()
    assert client.get("/api/operator/reports").json()["code"] == "no_guest"  # nobody: 401
    as_account(client, "Olga")
    refused = client.get("/api/operator/reports")
    assert (refused.status_code, refused.json()["code"]) == (403, "operator")
    assert client.get("/api/me").json() == {"player": {"name": "Olga", "account": True}}

    assert account("operator", "olga") == (0, "Olga is one of the site's operators\n", "")
    me = client.get("/api/me").json()["player"]  # her session sees it at once
    assert me == {"name": "Olga", "account": True, "operator": True}
    [shown] = client.get("/api/operator/reports").json()["reports"]
    assert shown | {"at": 0} == {
        "id": shown["id"],
        "at": 0,
        "reporter": "Anna",
        "name": "Ben",
        "reason": "abuse",
        "text": "rude",
        "table": None,
        "closed_at": None,
        "note": None,
        "message": None,
        "silenced": None,
        "account_closed": None,
    }

    for body, status, field in [
        ({"name": "Ben", "hours": 5}, 422, "hours"),
        ({"name": "nobody", "hours": 24}, 404, "name"),
        ({"name": "Ben", "reason": "x" * 201}, 422, "reason"),
        ({"name": ""}, 422, "name"),
    ]:
        r = client.post("/api/operator/silence", json=body)
        assert r.status_code == status, (body, r.text)
        assert field in str(r.json()), r.json()
    assert all(row.silenced_at is None for row in rows(client, schema.accounts))
    r = client.post("/api/operator/silence", json={"name": "ben", "hours": 24})
    assert r.status_code == 200, r.text
    assert r.json()["name"] == "Ben"
    [ben] = [row for row in rows(client, schema.accounts) if row.name == "Ben"]
    assert ben.silenced_until == r.json()["until"] and ben.silenced_until > ben.silenced_at
    [shown] = client.get("/api/operator/reports").json()["reports"]
    assert shown["silenced"] == {"since": ben.silenced_at, "until": ben.silenced_until} | {
        "reason": None
    }
    assert client.get("/api/operator/silenced").json() == {
        "silenced": [{"name": "Ben"} | shown["silenced"]]
    }
    assert client.post("/api/operator/unsilence", json={"name": "nobody"}).status_code == 404
    assert client.post("/api/operator/unsilence", json={"name": "BEN"}).json() == {"name": "Ben"}
    assert client.get("/api/operator/reports").json()["reports"][0]["silenced"] is None
    assert client.get("/api/operator/silenced").json() == {"silenced": []}
    r = client.post("/api/operator/silence", json={"name": "Ben", "reason": "report 1"})
    assert r.json() == {"name": "Ben", "until": None}  # until lifted
    [shown] = client.get("/api/operator/reports").json()["reports"]
    assert shown["silenced"]["until"] is None

    path = f"/api/operator/reports/{shown['id']}/close"
    assert client.post(path, json={"note": "x" * 501}).status_code == 422
    closed = client.post(path, json={"note": "silenced a day"})
    assert closed.status_code == 200, closed.text
    assert closed.json()["report"]["note"] == "silenced a day"
    assert client.post(path, json={}).status_code == 404  # closed already
    assert client.post("/api/operator/reports/999/close", json={}).status_code == 404
    assert client.get("/api/operator/reports").json()["reports"] == []
    [again] = client.get("/api/operator/reports?closed=true").json()["reports"]
    assert again["closed_at"] is not None and again["note"] == "silenced a day"

    # The operators' log: who did what to whom, the latest first; refusals left nothing.
    log = client.get("/api/operator/log").json()["log"]
    assert [(e["operator"], e["act"], e["name"]) for e in log] == [
        ("Olga", "close_report", "Ben"),
        ("Olga", "silence", "Ben"),
        ("Olga", "unsilence", "Ben"),
        ("Olga", "silence", "Ben"),
        (None, "appoint", "Olga"),  # the command line
    ]
    assert log[0]["detail"] == {"report": shown["id"], "note": "silenced a day"}
    assert log[1]["detail"] == {"until": None, "reason": "report 1"}
    assert log[3]["detail"]["until"] == ben.silenced_until and log[0]["at"] >= log[-1]["at"]

    assert account("operator", "Olga", "--revoke") == (
        0,
        "Olga is no longer a site's operators\n",
        "",
    )
    assert client.get("/api/operator/reports").status_code == 403
    assert client.get("/api/operator/silenced").status_code == 403
    assert client.get("/api/operator/log").status_code == 403
    code, out, err = account("operator", "nobody")
    assert (code, out) == (1, "") and "no account is named 'nobody'" in err


def test_an_operator_removes_a_lobby_message_from_every_lobby(
    lobby: TestClient, account: Command
) -> None:
    anna = name(lobby, "Anna")
    olga = lobby_register(lobby, name(lobby, "Olga"), "Olga")
    assert account("operator", "Olga")[0] == 0
    with ExitStack() as stack:
        a = Lobby(lobby, stack, anna)
        o = Lobby(lobby, stack, olga)
        assert o.welcome["you"] == {"name": "Olga", "account": True, "operator": True}
        a.ws.send_json({"type": "chat", "text": "something vile"})
        said = a.next("chat")
        assert o.next("chat") == said and said["id"]
        a.ws.send_json({"type": "chat", "text": "sorry"})
        kept = a.next("chat")
        as_player(lobby, anna)
        refused = lobby.delete(f"/api/operator/lobby-chat/{said['id']}")
        assert (refused.status_code, refused.json()["code"]) == (403, "operator")
        as_player(lobby, olga)
        assert lobby.delete(f"/api/operator/lobby-chat/{said['id']}").json() == {
            "removed": said["id"]
        }
        [logged] = lobby.get("/api/operator/log").json()["log"][:1]
        assert (logged["operator"], logged["act"], logged["name"]) == ("Olga", "unchat", "Anna")
        assert logged["detail"] == {"table": None, "text": "something vile"}
        for socket in (a, o):
            assert socket.next("unchat") == {"type": "unchat", "id": said["id"]}
        gone = lobby.delete(f"/api/operator/lobby-chat/{said['id']}")
        assert (gone.status_code, gone.json()["field"]) == (404, "id")
        newcomer = Lobby(lobby, stack, name(lobby, "Ben"))
        assert [m["id"] for m in newcomer.welcome["chat"]] == [kept["id"]]


def test_the_lobby_history_on_redis_forgets_a_removed_message() -> None:
    """Several processes keep the lobby's chat in Redis: a removed message goes from it."""
    require_services()
    redis = Redis.from_url(REDIS)
    history = RedisHistory(redis, Space.of(redis))
    first, second = message("Anna", "one", None, 1.0), message("Ben", "twö", None, 2.0)

    async def check() -> tuple[JSON | None, JSON | None, list[str]]:
        await redis.delete(HISTORY)
        try:
            for said in (first, second):
                await history.add(said)
            removed = await history.remove(first["id"])
            again = await history.remove(first["id"])
            return removed, again, [m["id"] for m in await history.last()]
        finally:
            await redis.delete(HISTORY)
            await redis.aclose()

    assert run_async(check()) == (first, None, [second["id"]])


@pytest.mark.parametrize("backend", ["sqlite", "postgres"], indirect=True)
def test_the_operators_routes_on_both_databases(client: TestClient) -> None:
    for account_name in ("Ben", "Olga"):
        client.cookies.clear()
        register(client, account_name, "a long enough password")
    store = client.app.state.server.store  # type: ignore[attr-defined]
    assert client.portal is not None
    assert client.portal.call(lambda: appoint(store, "OLGA", operator=True)) == "Olga"
    client.post("/api/reports", json={"name": "Ben", "reason": "spam"})  # from Olga
    silenced = client.post("/api/operator/silence", json={"name": "Ben", "hours": 168})
    assert silenced.status_code == 200, silenced.text
    [shown] = client.get("/api/operator/reports").json()["reports"]
    assert (shown["reporter"], shown["name"], shown["reason"]) == ("Olga", "Ben", "spam")
    assert shown["silenced"]["until"] == silenced.json()["until"]
    closed = client.post(f"/api/operator/reports/{shown['id']}/close", json={"note": "a week"})
    assert closed.json()["report"]["closed_at"] is not None
    assert client.post("/api/operator/unsilence", json={"name": "Ben"}).status_code == 200
    assert client.get("/api/operator/reports?closed=true").json()["reports"][0]["silenced"] is None
    log = client.get("/api/operator/log").json()["log"]
    assert [e["act"] for e in log] == ["unsilence", "close_report", "silence"]


@pytest.mark.parametrize("backend", ["sqlite", "postgres"], indirect=True)
def test_an_operator_removes_a_table_chat_message_everywhere(client: TestClient) -> None:
    """A line of a finished game's chat, removed by an operator: the pages at the table take
    it away (``unchat``), a page that comes back after it never gets its words, and the
    game's page leaves it out. Nobody else may; a message not kept is not found."""
    client.cookies.clear()
    register(client, "Olga", "a long enough password")
    store = client.app.state.server.store  # type: ignore[attr-defined]
    assert client.portal is not None
    client.portal.call(lambda: appoint(store, "Olga", operator=True))
    table_id, tokens = human_table(client, "block", 2, target="round")
    with ExitStack() as stack:
        sockets = [Socket(client, stack, table_id, t) for t in tokens]
        play_out(sockets, [], random.Random(5))
        since = sockets[0].version
        for text in ("something vile", "good game"):
            sockets[0].send({"type": "chat", "text": text})
            said = [socket.receive() for socket in sockets]
            assert said[0] == said[1] and said[0]["text"] == text
        vile = since + 1
        path = f"/api/operator/tables/{table_id}/chat/{vile}"
        assert client.delete(path).status_code == 403  # the last player (a guest)
        as_account(client, "Olga")
        assert client.delete(path).json() == {"removed": vile}
        [logged] = client.get("/api/operator/log").json()["log"][:1]
        assert (logged["operator"], logged["act"], logged["name"]) == ("Olga", "unchat", "Anna")
        assert logged["detail"] == {"table": table_id, "text": "something vile"}
        unchat = {"type": "unchat", "version": vile + 2, "chat": vile}
        assert [socket.receive() for socket in sockets] == [unchat, unchat]
        for gone, field in ((path, "chat"), (f"/api/operator/tables/nope/chat/{vile}", None)):
            refused = client.delete(gone)
            assert refused.status_code == 404 and refused.json().get("field") == field

        with client.websocket_connect(f"/ws/table/{table_id}") as back:
            back.send_json({"type": "hello", "token": None, "since": since})
            frames = [back.receive_json() for _ in range(5)]
        assert [f["type"] for f in frames] == ["resume", "chat", "chat", "unchat", "presence"]
        assert frames[1] == {"type": "chat", "version": vile, "removed": True}
        assert frames[2]["text"] == "good game" and frames[3] == unchat
    chat = client.get(f"/api/games/{table_id}/chat").json()["chat"]
    assert [m["text"] for m in chat] == ["good game"]


@pytest.mark.parametrize("backend", ["sqlite", "postgres"], indirect=True)
def test_the_operators_log_a_page_at_a_time_and_by_name(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from doublesix.server import moderation_log

    monkeypatch.setattr(moderation_log, "SHOWN", 2)
    for account_name in ("Ben", "Boris", "Olga", "Pia"):
        client.cookies.clear()
        register(client, account_name, "a long enough password")
    store = client.app.state.server.store  # type: ignore[attr-defined]
    assert client.portal is not None
    for operator in ("Olga", "Pia"):
        client.portal.call(lambda o=operator: appoint(store, o, operator=True))
    acts = [("Olga", "Ben"), ("Pia", "Boris"), ("Olga", "Boris"), ("Pia", "Ben"), ("Olga", "Ben")]
    for operator, silenced in acts:
        as_account(client, operator)
        answer = client.post("/api/operator/silence", json={"name": silenced, "hours": 1})
        assert answer.status_code == 200, answer.text

    def pages(**params: str) -> list[tuple[str, str]]:
        """Every entry asked for, a page at a time: (operator, name), the latest first."""
        seen: list[tuple[str, str]] = []
        while True:
            answer = client.get("/api/operator/log", params=params)
            assert answer.status_code == 200, answer.text
            page = answer.json()
            assert len(page["log"]) <= 2
            seen += [(e["operator"], e["name"]) for e in page["log"]]
            if not page["more"]:
                return seen
            params = params | {"before": str(page["log"][-1]["id"])}

    assert pages() == acts[::-1]
    assert pages(name="BORIS") == [("Olga", "Boris"), ("Pia", "Boris")]  # an account, any case
    assert pages(name="pia") == [("Pia", "Ben"), ("Pia", "Boris")]  # by the operator too
    assert pages(name="bo") == [("Olga", "Boris"), ("Pia", "Boris")]  # a name's beginning
    assert pages(name="B") == acts[::-1]  # every page of them, two at a time
    assert pages(name="Nobody") == []
    for params in ({"before": "0"}, {"before": "x"}, {"name": ""}, {"name": "x" * 65}):
        refused = client.get("/api/operator/log", params=params)
        assert refused.status_code == 422, params


def store_of(client: TestClient) -> Any:
    return client.app.state.server.store  # type: ignore[attr-defined]


def appoint_on(client: TestClient, *names: str) -> None:
    assert client.portal is not None
    for operator in names:
        client.portal.call(lambda o=operator: appoint(store_of(client), o, operator=True))


def account_row(client: TestClient, name: str) -> Any:
    [row] = [a for a in rows(client, schema.accounts) if a.name == name]
    return row


@BOTH
def test_an_operator_closes_an_account_and_reopens_it(client: TestClient) -> None:
    """A ban on the web: with a reason, at once (sessions, login, sockets), in the operators'
    log and in the list of closed accounts; a second one changes nothing, and a reopen
    undoes it. Everything refused leaves every account as it was."""
    for account_name in ("Ben", "Olga", "Pia", "Carl"):
        client.cookies.clear()
        register(client, account_name, "a long enough password")
    appoint_on(client, "Olga", "Pia")
    client.cookies.clear()
    guest(client, "Anna")
    r = client.post("/api/reports", json={"name": "Ben", "reason": "spam"})
    assert r.status_code == 201, r.text
    as_account(client, "Carl")  # Carl closes his own account: no ban, not listed
    assert client.post(
        "/api/account/close", json={"password": "a long enough password"}
    ).json() == {"player": None}
    as_account(client, "Ben")
    bens_browser = dict(client.cookies)
    ban = {"name": "Ben", "reason": "spam in every chat"}

    with ExitStack() as stack:
        lobby = Lobby(client, stack, bens_browser)  # Ben in the lobby when banned
        refused = client.post("/api/operator/close", json=ban)  # a player, himself
        assert (refused.status_code, refused.json()["code"]) == (403, "operator")
        client.cookies.clear()
        guest(client, "Gina")
        assert client.post("/api/operator/close", json=ban).json()["code"] == "operator"
        assert client.get("/api/operator/closed").status_code == 403
        assert client.post("/api/operator/reopen", json={"name": "Carl"}).status_code == 403
        client.cookies.clear()
        nobody = client.post("/api/operator/close", json=ban)
        assert (nobody.status_code, nobody.json()["code"]) == (401, "no_guest")

        as_account(client, "Olga")
        for body, status, field in [
            ({"name": "Ben"}, 422, "reason"),
            ({"name": "Ben", "reason": ""}, 422, "reason"),
            ({"name": "Ben", "reason": " \t\n "}, 422, "reason"),
            ({"name": "Ben", "reason": "x" * 201}, 422, "reason"),
            ({"name": "Ben", "reason": None}, 422, "reason"),
            ({"reason": "spam"}, 422, "name"),
            ({"name": "", "reason": "spam"}, 422, "name"),
            ({"name": "Nobody", "reason": "spam"}, 404, "name"),
            ({"name": "0LGA", "reason": "spam"}, 422, "name"),  # herself, as names compare
            ({"name": "pia", "reason": "spam"}, 409, "name"),  # an operator: the command's
        ]:
            r = client.post("/api/operator/close", json=body)
            assert (r.status_code, r.json()["field"]) == (status, field), (body, r.text)
        assert (
            client.post("/api/operator/close", json={"name": "olga", "reason": "x"}).json()["code"]
            == "self"
        )
        assert (
            client.post("/api/operator/close", json={"name": "Pia", "reason": "x"}).json()["code"]
            == "operator_account"
        )
        assert [(a.name, a.closed_by) for a in rows(client, schema.accounts) if a.closed_at] == [
            ("Carl", "player")
        ]
        assert client.get("/api/operator/log").json()["log"] == []
        assert client.get("/api/operator/closed").json() == {"closed": []}
        ben_id = account_row(client, "Ben").player_id
        assert ben_id in {s.player_id for s in rows(client, schema.sessions)}  # logged in
        assert (
            client.post("/api/operator/reopen", json={"name": "Nobody"}).json()["field"] == "name"
        )

        banned = client.post("/api/operator/close", json=ban | {"name": "bEn", "reason": " spam "})
        assert banned.status_code == 200, banned.text
        assert banned.json() == {"name": "Ben", "already": False}
        ben = account_row(client, "Ben")
        assert (ben.closed_by, ben.closed_at is not None) == ("operator", True)
        assert ben_id not in {s.player_id for s in rows(client, schema.sessions)}
        closed, _ = shut(lobby.ws)  # his socket is closed at once, after the frames queued
        assert closed == (4410, "this account is closed")
    [logged] = client.get("/api/operator/log").json()["log"]
    assert (logged["operator"], logged["act"], logged["name"]) == ("Olga", "close", "Ben")
    assert logged["detail"] == {"reason": "spam"}  # trimmed
    closed = {"name": "Ben", "at": ben.closed_at, "operator": "Olga", "reason": "spam"}
    assert client.get("/api/operator/closed").json() == {"closed": [closed]}  # not Carl
    [report] = client.get("/api/operator/reports").json()["reports"]
    assert report["name"] == "Ben" and report["account_closed"] == ben.closed_at

    again = client.post("/api/operator/close", json={"name": "BEN", "reason": "once more"})
    assert again.json() == {"name": "Ben", "already": True}  # closed already: nothing changes
    assert account_row(client, "Ben").closed_at == ben.closed_at
    assert len(client.get("/api/operator/log").json()["log"]) == 1
    assert client.get("/api/operator/closed").json() == {"closed": [closed]}

    client.cookies.clear()
    for key, value in bens_browser.items():
        client.cookies.set(key, value)
    assert client.get("/api/me").json() == {"player": None}  # his session ended
    login = client.post("/api/session", json={"name": "Ben", "password": "a long enough password"})
    assert (login.status_code, login.json()["code"]) == (403, "closed")

    as_account(client, "Pia")  # another operator ends the ban
    assert client.post("/api/operator/reopen", json={"name": "ben"}).json() == {
        "name": "Ben",
        "already": False,
    }
    assert client.post("/api/operator/reopen", json={"name": "Ben"}).json() == {
        "name": "Ben",
        "already": True,
    }
    log = client.get("/api/operator/log").json()["log"]
    assert [(e["operator"], e["act"], e["name"]) for e in log] == [
        ("Pia", "reopen", "Ben"),
        ("Olga", "close", "Ben"),
    ]
    assert client.get("/api/operator/closed").json() == {"closed": []}
    assert client.get("/api/operator/reports").json()["reports"][0]["account_closed"] is None
    as_account(client, "Ben")  # logs in again
    assert client.get("/api/me").json()["player"]["name"] == "Ben"


def test_the_closed_list_reads_each_ban_s_latest_reason(
    client: TestClient, account: Command
) -> None:
    """A ban of the command line has its reason (``--reason``) or none, and no operator; a
    ban after a reopen shows its own reason, not the first one's."""
    for account_name in ("Ben", "Boris", "Olga"):
        client.cookies.clear()
        register(client, account_name, "a long enough password")
    assert account("operator", "Olga")[0] == 0
    assert account("close", "boris") == (
        0,
        "Boris is closed: no login, no page, no rank; the name stays taken\n" + SOCKETS_STAY,
        "",
    )
    assert account("close", "Boris", "--reason", "cheats") == (
        0,
        "Boris was closed already; nothing changed\n" + SOCKETS_STAY,
        "",
    )
    code, out, err = account("close", "Ben", "--reason", "x" * 201)
    assert (code, out) == (2, "") and "--reason: at most 200 characters" in err
    as_account(client, "Olga")
    for reason in ("first", "second"):
        r = client.post("/api/operator/close", json={"name": "Ben", "reason": reason})
        assert r.json() == {"name": "Ben", "already": False}, r.text
        if reason == "first":
            assert client.post("/api/operator/reopen", json={"name": "Ben"}).status_code == 200
    shown = client.get("/api/operator/closed").json()["closed"]
    assert [(c["name"], c["operator"], c["reason"]) for c in shown] == [
        ("Ben", "Olga", "second"),  # the latest first
        ("Boris", None, None),
    ]
    assert shown[0]["at"] >= shown[1]["at"]
    acts = [
        (e["operator"], e["act"], e["name"]) for e in client.get("/api/operator/log").json()["log"]
    ]
    assert acts == [
        ("Olga", "close", "Ben"),
        ("Olga", "reopen", "Ben"),
        ("Olga", "close", "Ben"),
        (None, "close", "Boris"),  # once: the second command changed nothing
        (None, "appoint", "Olga"),
    ]
    assert account("reopen", "boris") == (0, "Boris is open again\n", "")
    assert account("reopen", "Boris") == (0, "Boris was open; nothing changed\n", "")
    assert account("close", "Boris", "--reason", "  cheats ")[0] == 0
    [boris] = [
        c for c in client.get("/api/operator/closed").json()["closed"] if c["name"] == "Boris"
    ]
    assert (boris["operator"], boris["reason"]) == (None, "cheats")


@BOTH
def test_the_operators_log_finds_names_by_their_beginning(client: TestClient) -> None:
    """A name looked for in the log is the beginning of one: an account's in any case and
    look-alikes folded, a guest's in any case; ``%`` and ``_`` are letters, not wildcards."""
    for account_name in ("Ben", "Boris", "Bogdan", "B_rt", "Bxrt", "Olga"):
        client.cookies.clear()
        register(client, account_name, "a long enough password")
    appoint_on(client, "Olga")
    as_account(client, "Olga")
    for silenced in ("Ben", "Boris", "Bogdan", "B_rt", "Bxrt"):
        assert client.post("/api/operator/silence", json={"name": silenced}).status_code == 200
    assert client.portal is not None
    for sender in ("50%off", "500ff", "Gina_x", "Ginax"):  # guests' removed messages
        client.portal.call(
            lambda s=sender: moderation_log.write(
                store_of(client), 1.0, "Olga", Act.UNCHAT, s, table=None, text="vile"
            )
        )

    def about(name: str) -> list[str]:
        answer = client.get("/api/operator/log", params={"name": name})
        assert answer.status_code == 200, answer.text
        return [e["name"] for e in answer.json()["log"]]

    assert about("bo") == ["Bogdan", "Boris"]
    assert about("BO") == about("bO") == ["Bogdan", "Boris"]
    assert about("b0r") == ["Boris"]  # look-alikes fold, as names are compared
    assert about("b") == ["Bxrt", "B_rt", "Bogdan", "Boris", "Ben"]
    assert about("b_") == ["B_rt"]  # not Bxrt: "_" is no wildcard
    assert about("B%") == []
    assert about("50%") == ["50%off"]  # not 500ff
    assert about("gina_") == ["Gina_x"]
    assert about("GI") == ["Ginax", "Gina_x"]
    assert about("benjamin") == []
    everything = about("ol")  # by Olga: all of it
    assert len(everything) == 9 and about("0L") == everything
    assert about("%") == about("_") == []


def test_the_log_looks_for_a_name_in_a_range_of_the_name_index(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """On PostgreSQL under a collation that is not C, the accounts whose names begin with
    the letters looked for (an escaped ``_`` among them) are a range of the pattern index,
    as "Find a player" reads them, and the log is read by its key, the latest first."""
    m = schema.moderation_log
    query = sa.select(m).where(moderation_log.naming("b_r")).order_by(m.c.id.desc()).limit(101)
    shown = icu_plan(_store("postgres", tmp_path, request), query)
    assert "ix_accounts_name_key_pattern" in shown and "~>=~" in shown, shown
    assert "moderation_log_pkey" in shown, shown
