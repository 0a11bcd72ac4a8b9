"""Private messages between accounts (``server/messages.py``, ``/api/messages``), on SQLite
and PostgreSQL: a message is kept and told at once to its recipient's lobby sockets, read in
the inbox and its thread (which marks it read, and writes nothing when nothing is unread;
asking whether one may write reads nothing), hidden from a reader who mutes its sender;
every refusal keeps nothing; a received message is reported with its words; and across two
``doublesix serve`` processes, the recipient's socket on the other one hears it."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from contextlib import ExitStack, asynccontextmanager
from functools import partial
from typing import Any

import httpx
import pytest
from limits import RateLimitItemPerSecond

from doublesix.server import messages, schema
from doublesix.server.deps import SESSION_COOKIE
from doublesix.server.moderation import silence
from doublesix.server.player_limits import LocalPlayerLimits
from doublesix.server.store import Guest, SqlStore

from .server_helpers import BOTH, TestClient, guest
from .site_helpers import Process, Site
from .test_accounts import PASSWORD, rows
from .test_lobby_socket import Cookies, Lobby, as_player
from .test_shut_out import logged_in


@pytest.fixture
def client(accounts_client: TestClient) -> TestClient:
    return accounts_client


def write(client: TestClient, cookies: Cookies | None, to: str, text: str) -> Any:
    as_player(client, cookies)
    return client.post("/api/messages", json={"to": to, "text": text})


def sent(client: TestClient, cookies: Cookies, to: str, text: str) -> dict[str, Any]:
    answer = write(client, cookies, to, text)
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def read(client: TestClient, cookies: Cookies, path: str) -> dict[str, Any]:
    as_player(client, cookies)
    answer = client.get(path)
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def stored(client: TestClient) -> tuple[int, int]:
    return len(rows(client, schema.messages)), len(rows(client, schema.conversations))


@BOTH
def test_a_message_reaches_the_recipient_at_once_and_reading_marks_it_read(
    client: TestClient,
) -> None:
    anna, ben = logged_in(client, "Anna"), logged_in(client, "Ben")
    with ExitStack() as stack:
        b, a = Lobby(client, stack, ben), Lobby(client, stack, anna)
        kept = sent(client, anna, "BEN", "  <b>rematch</b> tomorrow?\r\nsay when  ")
        text = "<b>rematch</b> tomorrow?\nsay when"
        assert (kept["from"], kept["to"], kept["text"]) == ("Anna", "Ben", text)
        told = b.next("message")
        assert told == {"type": "message", "message": kept, "with": "Anna", "unread": 1}
        mine = a.next("message")  # the sender's other tabs
        assert mine == {"type": "message", "message": kept, "with": "Ben"}

    assert read(client, ben, "/api/account/unread") == {"unread": 1}
    inbox = read(client, ben, "/api/messages")
    assert inbox["unread"] == 1 and inbox["more"] is False
    [conversation] = inbox["conversations"]
    assert conversation == {
        "with": "Anna",
        "closed": False,
        "last": {"id": kept["id"], "mine": False, "text": "<b>rematch</b> tomorrow? say when"},
        "at": kept["at"],
        "unread": 1,
    }
    [theirs] = read(client, anna, "/api/messages")["conversations"]
    assert (theirs["with"], theirs["last"]["mine"], theirs["unread"]) == ("Ben", True, 0)

    thread = read(client, ben, "/api/messages/anna")
    assert thread["with"] == {"name": "Anna", "closed": False, "blocked": False}
    assert thread["messages"] == [{k: kept[k] for k in ("id", "from", "text", "at")}]
    assert (thread["more"], thread["unread"]) == (False, 0)
    [row] = rows(client, schema.messages)
    assert row.read_at is not None
    assert read(client, ben, "/api/account/unread") == {"unread": 0}

    answer = sent(client, ben, "Anna", "gg, tomorrow at 8")
    assert [m["text"] for m in read(client, anna, "/api/messages/Ben")["messages"]] == [
        text,
        "gg, tomorrow at 8",
    ]
    [latest] = read(client, ben, "/api/messages")["conversations"]
    assert latest["last"] == {"id": answer["id"], "mine": True, "text": "gg, tomorrow at 8"}


def writes(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Each transaction the app's store writes from now on appends to the list returned."""
    store: SqlStore = client.app.state.server.store  # type: ignore[attr-defined]
    writing, entered = store.writing, []

    @asynccontextmanager
    async def counted() -> AsyncIterator[Any]:
        entered.append(1)
        async with writing() as conn:
            yield conn

    monkeypatch.setattr(store, "writing", counted)
    return entered


@BOTH
def test_reading_a_thread_with_nothing_unread_writes_nothing(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    anna, ben = logged_in(client, "Anna"), logged_in(client, "Ben")
    sent(client, anna, "Ben", "one")
    sent(client, ben, "Anna", "two")
    read(client, ben, "/api/messages/Anna")  # marks Anna's read
    read(client, anna, "/api/messages/Ben")  # and Ben's
    before = rows(client, schema.messages), rows(client, schema.conversations)
    entered = writes(client, monkeypatch)
    for reader, other in ((ben, "Anna"), (anna, "Ben"), (anna, "Ben")):
        thread = read(client, reader, f"/api/messages/{other}")
        assert [m["text"] for m in thread["messages"]] == ["one", "two"]
        assert thread["unread"] == 0
    assert read(client, ben, "/api/messages/Anna?before=10000")["unread"] == 0
    assert entered == []  # the database's writer (SQLite's one lock) never taken
    assert (rows(client, schema.messages), rows(client, schema.conversations)) == before
    assert {row.unread for row in before[1]} == {0}

    sent(client, anna, "Ben", "three")  # something unread: the next reading marks it
    entered.clear()
    thread = read(client, ben, "/api/messages/Anna")
    assert (thread["messages"][-1]["text"], thread["unread"]) == ("three", 0)
    assert entered == [1]
    assert all(row.read_at is not None for row in rows(client, schema.messages))


@BOTH
def test_asking_whether_one_may_write_reads_nothing(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    anna, ben, cleo = (logged_in(client, n) for n in ("Anna", "Ben", "Cleo"))
    logged_in(client, "Dora")  # then closes its account
    assert client.post("/api/account/close", json={"password": PASSWORD}).status_code == 200
    as_player(client, cleo)
    assert client.put("/api/account/blocked/Ben").status_code == 200
    gina = guest(client, "Gina")
    sent(client, anna, "Ben", "unread")
    entered = writes(client, monkeypatch)
    for reader, other, answer in [
        (ben, "anna", {"name": "Anna", "closed": False, "blocked": False}),
        (ben, "CLEO", {"name": "Cleo", "closed": False, "blocked": True}),
        (anna, "Dora", {"name": "Dora", "closed": True, "blocked": False}),
    ]:
        assert read(client, reader, f"/api/messages/{other}/with") == answer
    for who, other, status, code in [
        (None, "Anna", 401, "no_account"),
        ({"ds_guest": gina["id"]}, "Anna", 401, "no_account"),
        (ben, "Nobody", 404, "not_found"),
        (ben, "ben", 422, "self"),
    ]:
        as_player(client, who)
        refused = client.get(f"/api/messages/{other}/with")
        assert (refused.status_code, refused.json()["code"]) == (status, code), refused.text
    assert entered == []
    assert read(client, ben, "/api/account/unread") == {"unread": 1}
    assert read(client, ben, "/api/messages")["conversations"][0]["unread"] == 1
    assert [row.read_at for row in rows(client, schema.messages)] == [None]
    assert read(client, ben, "/api/messages/Anna")["unread"] == 0  # the thread reads it


@BOTH
def test_every_refusal_keeps_nothing(client: TestClient) -> None:
    anna, ben, cleo = (logged_in(client, n) for n in ("Anna", "Ben", "Cleo"))
    logged_in(client, "Dora")  # then closes its account
    assert client.post("/api/account/close", json={"password": PASSWORD}).status_code == 200
    as_player(client, cleo)
    assert client.put("/api/account/blocked/Ben").status_code == 200
    gina = guest(client, "Gina")
    for who, to, text, status, code, field in [
        (None, "Ben", "hi", 401, "no_account", None),
        ({"ds_guest": gina["id"]}, "Ben", "hi", 401, "no_account", None),
        (anna, "anna", "hi", 422, "self", "to"),
        (anna, "Nobody", "hi", 404, "not_found", "to"),
        (anna, "Dora", "hi", 410, "closed", "to"),
        (anna, "Ben", "   \n ", 422, "text", "text"),
        (anna, "Ben", "x" * 1001, 422, "text", "text"),
        (anna, "Ben", "ring\x07", 422, "text", "text"),
        (anna, "Ben", "a\u202eb", 422, "text", "text"),  # a bidi override
        (anna, "Ben", "tab\there", 422, "text", "text"),
        (cleo, "Ben", "hi", 422, "blocked", "to"),
        (ben, "Cleo", "hi", 422, "blocked", "to"),
    ]:
        refused = write(client, who, to, text)
        assert refused.status_code == status, (to, text, refused.text)
        body = refused.json()
        assert (body.get("code"), body.get("field")) == (code, field), body
    assert write(client, ben, "Cleo", "hi").json()["error"] == "Cleo does not take your messages"
    assert write(client, cleo, "Ben", "hi").json()["error"] == "you have blocked Ben"
    too_long = write(client, anna, "Ben", "x" * 2001)
    assert (too_long.status_code, too_long.json()["field"]) == (422, "text")
    assert stored(client) == (0, 0)
    for reader, other, blocked in [(cleo, "Ben", True), (ben, "Cleo", True), (anna, "Ben", False)]:
        assert read(client, reader, f"/api/messages/{other}")["with"]["blocked"] is blocked
    as_player(client, None)
    assert client.get("/api/messages").status_code == 401
    assert client.get("/api/messages/Ben").status_code == 401
    assert client.get("/api/account/unread").status_code == 401


@BOTH
def test_a_silenced_account_writes_nothing(client: TestClient) -> None:
    anna, _ = logged_in(client, "Anna"), logged_in(client, "Ben")
    store = client.app.state.server.store  # type: ignore[attr-defined]
    assert client.portal is not None
    forever = partial(silence, store, "Anna", now=time.time(), until=None, reason=None)
    assert client.portal.call(forever) == "Anna"
    refused = write(client, anna, "Ben", "buy cheap tiles")
    assert (refused.status_code, refused.json()["code"]) == (403, "silenced")
    assert stored(client) == (0, 0)


def test_a_sender_has_a_rate_and_new_conversations_a_day(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(messages, "NEW_PER_DAY", 2)
    monkeypatch.setattr(messages, "RATE", RateLimitItemPerSecond(4, 600))
    anna = logged_in(client, "Anna")
    for name in ("Ben", "Cleo", "Dora"):
        logged_in(client, name)
    sent(client, anna, "Ben", "one")
    sent(client, anna, "Cleo", "two")
    refused = write(client, anna, "Dora", "three")
    assert (refused.status_code, refused.json()["code"]) == (429, "too_many_conversations")
    assert stored(client) == (2, 4)
    sent(client, anna, "Ben", "an old conversation goes on")
    refused = write(client, anna, "Ben", "five")  # the fifth hit in the window
    assert (refused.status_code, refused.json()["code"]) == (429, "rate_limited")
    assert stored(client) == (3, 4)


@BOTH
def test_first_messages_sent_at_once_keep_the_daily_cap(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Sends of one sender that start conversations at the same time count one after the
    other (the sender's account row locked on PostgreSQL, one writer at a time on SQLite):
    never more than ``NEW_PER_DAY``."""
    monkeypatch.setattr(messages, "RATE", RateLimitItemPerSecond(1000, 1))
    logged_in(client, "Anna")
    readers = [f"Reader{n}" for n in range(messages.NEW_PER_DAY + 5)]
    for name in readers:
        logged_in(client, name)
    [anna] = [row for row in rows(client, schema.accounts) if row.name == "Anna"]
    sender = Guest(anna.player_id, anna.name, anna.created_at, account=True)
    store = client.app.state.server.store  # type: ignore[attr-defined]

    async def at_once() -> list[Any]:
        bodies = [messages.MessageIn(to=name, text="hi") for name in readers]
        limits, now = LocalPlayerLimits(), time.time()
        sends = [messages.send(store, sender, body, now, limits) for body in bodies]
        return await asyncio.gather(*sends, return_exceptions=True)

    assert client.portal is not None
    refused = [e for e in client.portal.call(at_once) if isinstance(e, BaseException)]
    assert [getattr(e, "code", e) for e in refused] == ["too_many_conversations"] * 5
    assert stored(client) == (messages.NEW_PER_DAY, 2 * messages.NEW_PER_DAY)


@BOTH
def test_a_muted_name_s_messages_are_kept_and_never_shown(client: TestClient) -> None:
    anna, ben, cleo = (logged_in(client, n) for n in ("Anna", "Ben", "Cleo"))
    as_player(client, ben)
    assert client.put("/api/account/muted/Anna").status_code == 200
    sent(client, ben, "Anna", "before I muted you")
    with ExitStack() as stack:
        b = Lobby(client, stack, ben)
        sent(client, anna, "Ben", "you will not read this")
        from_cleo = sent(client, cleo, "Ben", "hello Ben")
        told = b.next("message")  # Anna's was published first: it would come before
        assert told["message"] == from_cleo and told["unread"] == 1
    assert stored(client)[0] == 3
    inbox = read(client, ben, "/api/messages")
    assert [c["with"] for c in inbox["conversations"]] == ["Cleo"] and inbox["unread"] == 1
    thread = read(client, ben, "/api/messages/Anna")
    assert [m["text"] for m in thread["messages"]] == ["before I muted you"]
    assert client.delete("/api/account/muted/Anna").status_code == 200
    assert read(client, ben, "/api/account/unread") == {"unread": 2}
    thread = read(client, ben, "/api/messages/Anna")
    assert [m["text"] for m in thread["messages"]][-1] == "you will not read this"


def test_threads_and_inboxes_are_read_a_page_at_a_time(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(messages, "RATE", RateLimitItemPerSecond(1000, 1))
    monkeypatch.setattr(messages, "LIST_PAGE", 2)
    anna, ben = logged_in(client, "Anna"), logged_in(client, "Ben")
    for n in range(55):
        sent(client, (anna, ben)[n % 2], ("Ben", "Anna")[n % 2], f"line {n}")
    page = read(client, ben, "/api/messages/Anna")
    assert [m["text"] for m in page["messages"]] == [f"line {n}" for n in range(5, 55)]
    assert page["more"] is True
    older = read(client, ben, f"/api/messages/Anna?before={page['messages'][0]['id']}")
    assert [m["text"] for m in older["messages"]] == [f"line {n}" for n in range(5)]
    assert older["more"] is False

    for name in ("Cleo", "Dora"):
        sent(client, logged_in(client, name), "Ben", f"hi from {name}")
    inbox = read(client, ben, "/api/messages")
    assert [c["with"] for c in inbox["conversations"]] == ["Dora", "Cleo"] and inbox["more"]
    last = inbox["conversations"][-1]["last"]["id"]
    rest = read(client, ben, f"/api/messages?before={last}")
    assert [c["with"] for c in rest["conversations"]] == ["Anna"] and not rest["more"]


@BOTH
def test_a_received_message_is_reported_with_its_words(client: TestClient) -> None:
    anna, ben, cleo = (logged_in(client, n) for n in ("Anna", "Ben", "Cleo"))
    rude = sent(client, anna, "Ben", "you play like a <i>bot</i>")
    to_cleo = sent(client, anna, "Cleo", "hello Cleo")
    as_player(client, cleo)
    for who, body in [
        (cleo, {"name": "Anna", "message": rude["id"]}),  # not sent to her
        (ben, {"name": "Anna", "message": to_cleo["id"]}),  # not sent to him
        (ben, {"name": "Cleo", "message": rude["id"]}),  # not Cleo's
        (ben, {"name": "Anna", "message": 10_000}),
    ]:
        as_player(client, who)
        refused = client.post("/api/reports", json={"reason": "abuse"} | body)
        assert (refused.status_code, refused.json()["field"]) == (422, "message"), body
    as_player(client, ben)  # a message cheats at no game
    cheating = {"name": "Anna", "reason": "cheating", "message": rude["id"]}
    refused = client.post("/api/reports", json=cheating)
    assert (refused.status_code, refused.json()["code"], refused.json()["field"]) == (
        422,
        "reason",
        "reason",
    )
    assert rows(client, schema.reports) == []
    made = client.post(
        "/api/reports", json={"name": "Anna", "reason": "abuse", "message": rude["id"]}
    )
    assert made.status_code == 201, made.text
    [report] = rows(client, schema.reports)
    assert (report.name, report.message, report.text) == ("Anna", rude["text"], "")


@BOTH
def test_a_closed_account_shows_closed_and_receives_nothing(client: TestClient) -> None:
    anna, ben = logged_in(client, "Anna"), logged_in(client, "Ben")
    sent(client, anna, "Ben", "see you")
    as_player(client, ben)
    assert client.post("/api/account/close", json={"password": PASSWORD}).status_code == 200
    [conversation] = read(client, anna, "/api/messages")["conversations"]
    assert (conversation["with"], conversation["closed"]) == ("Ben", True)
    thread = read(client, anna, "/api/messages/Ben")
    assert thread["with"] == {"name": "Ben", "closed": True, "blocked": False}
    assert len(thread["messages"]) == 1
    refused = write(client, anna, "Ben", "are you there?")
    assert (refused.status_code, refused.json()["code"]) == (410, "closed")
    assert stored(client) == (1, 2)


# --- two processes ------------------------------------------------------------------------


def account_on(process: Process, name: str) -> httpx.Client:
    client = httpx.Client(base_url=process.url, timeout=10)
    made = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert made.status_code == 201, made.text
    return client


def lobby_on(process: Process, client: httpx.Client) -> Any:
    cookie = f"{SESSION_COOKIE}={client.cookies[SESSION_COOKIE]}"
    ws = process.socket("/ws/lobby", additional_headers={"Cookie": cookie})
    assert json.loads(ws.recv(timeout=30))["type"] == "welcome"
    return ws


def next_message(ws: Any) -> dict[str, Any]:
    """The next ``message`` frame (the online lists and others before it are passed)."""
    while True:
        frame: dict[str, Any] = json.loads(ws.recv(timeout=30))
        if frame["type"] == "message":
            return frame


def test_a_message_reaches_the_recipient_on_the_other_process(site: Site) -> None:
    one, two = site.start(), site.start()
    anna, ben = account_on(one, "Anna"), account_on(two, "Ben")
    on_two, also_on_one = lobby_on(two, ben), lobby_on(one, ben)
    made = anna.post("/api/messages", json={"to": "Ben", "text": "<script>1</script> hi"})
    assert made.status_code == 201, made.text
    for ws in (on_two, also_on_one):
        told = next_message(ws)
        assert told["message"] == made.json() and (told["with"], told["unread"]) == ("Anna", 1)
    assert ben.get("/api/account/unread").json() == {"unread": 1}
