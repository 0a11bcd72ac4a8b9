"""``doublesix account erase NAME --redis URL [--site NAME]`` on a site of two real server
processes, one PostgreSQL database and one Redis: the account is shut out of both at once,
its open challenge ends (its players told now), its lobby messages leave the site's chat, and
once it is erased every process reads the games it rewrote again; an erasure that waits for a
game is done by the game's end. A Redis not reached, or one where no process of the site
listens (another site's ``--site``), changes nothing."""

from __future__ import annotations

import json
import time
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection

from doublesix.cli import main
from doublesix.rules.record import loads
from doublesix.server import schema
from doublesix.server.account_names import looks_erased

from .server_helpers import TestClient
from .site_helpers import REDIS, Process, Site
from .test_accounts import rows
from .test_shut_out import CLOSED, browser, closed_remotely, cookie, logged_in
from .test_site_lobby import LobbySocket

SHORT = {"target": "round"}
"""One round: a game that bots play out in a moment."""
AGAINST_A_BOT = {"preset": "draw", "seats": [{"kind": "human"}, {"kind": "bot"}], "options": SHORT}
"""A table its creator plays against a bot."""
HEARD = (
    "its sockets on the site are closed, a bot takes its seats and its lobby messages are "
    "gone (2 server process(es) heard it)"
)
"""What ``erase --redis`` says when both processes of the site heard it."""


class Listening(LobbySocket):
    """A lobby socket with an account's session (``LobbySocket`` sends a guest's cookie)."""

    def __init__(self, process: Process, client: httpx.Client | None) -> None:
        headers = {} if client is None else cookie(client)
        self.ws = process.socket("/ws/lobby", additional_headers=headers)
        self.welcome = self.receive()
        assert self.welcome["type"] == "welcome", self.welcome
        self.players = self.welcome["players"]


def erase(site: Site, capsys: pytest.CaptureFixture[str], name: str, *options: str) -> list[str]:
    """``doublesix account erase name --db … options``, which succeeds: what it says."""
    assert main(["account", "erase", name, "--db", site.db, *options]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return out.splitlines()


def table_hello(
    process: Process, table_id: str, token: str | None, client: httpx.Client
) -> ClientConnection:
    """A table socket with ``client``'s session, seated with ``token`` or watching."""
    ws = process.socket(f"/ws/table/{table_id}", additional_headers=cookie(client))
    ws.send(json.dumps({"type": "hello", "token": token, "since": None}))
    assert json.loads(ws.recv(timeout=15))["type"] == "snapshot"
    return ws


def until(ws: ClientConnection, kind: str) -> dict[str, Any]:
    """The next frame of type ``kind`` on ``ws``, the others read past."""
    while (frame := json.loads(ws.recv(timeout=15)))["type"] != kind:
        pass
    return frame  # type: ignore[no-any-return]


def status(client: httpx.Client, table_id: str, wanted: str) -> dict[str, Any]:
    """The table once its status is ``wanted`` (bots play with no delay)."""
    deadline = time.monotonic() + 30
    while (table := client.get(f"/api/tables/{table_id}").json())["status"] != wanted:
        assert time.monotonic() < deadline, table
        time.sleep(0.1)
    return table  # type: ignore[no-any-return]


def a_game_left_to_a_bot(one: Process, anna: httpx.Client) -> str:
    """Anna plays against a bot on ``one``, says hello at the table and leaves it: a bot plays
    her seat to the end. The finished game's id."""
    made = anna.post("/api/tables", json=AGAINST_A_BOT)
    assert made.status_code == 200, made.text
    table_id = made.json()["id"]
    ws = table_hello(one, table_id, made.json()["token"], anna)
    ws.send(json.dumps({"type": "chat", "text": "hello, bot"}))
    assert until(ws, "chat")["text"] == "hello, bot"
    ws.send(json.dumps({"type": "leave"}))
    status(anna, table_id, "finished")
    ws.close()
    return table_id


def players(process: Process, table_id: str) -> list[str]:
    """The players a finished game's record names, as ``process`` serves it (and keeps it)."""
    record = httpx.get(f"{process.url}/api/games/{table_id}/record", timeout=30)
    assert record.status_code == 200, record.text
    return list(loads(record.text)["players"])


def test_the_command_line_s_erasure_reaches_every_process(
    site: Site, names: tuple[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    """Anna, on the first process, finished a game, said goodbye in the lobby and challenged
    Boris, on the second, where she also watches her finished game; the second process keeps
    its record. ``erase Anna --redis --site``: both processes heard it; her sockets close on
    both, Boris hears the challenge cancelled at once (before she leaves the online list),
    every lobby drops her message, and the second process serves the record again, under her
    pseudonym."""
    ours, _ = names
    one, two = site.start("--site", ours), site.start("--site", ours)
    anna, boris = browser(one, "Anna"), browser(two, "Boris")
    table_id = a_game_left_to_a_bot(one, anna)
    assert players(two, table_id)[0] == "Anna"  # kept by the second process

    annas_lobby = Listening(one, anna)
    watching_her_game = table_hello(two, table_id, None, anna)
    boris_lobby = Listening(two, boris)
    visitor = Listening(one, None)
    boris_lobby.until_online({"Anna", "Boris"})
    annas_lobby.ws.send(json.dumps({"type": "chat", "text": "bye all"}))
    said = visitor.next("chat")
    assert (said["from"], said["text"]) == ("Anna", "bye all")
    made = anna.post("/api/challenges", json={"to": ["Boris"], "preset": "draw"})
    assert made.status_code == 201, made.text
    assert boris_lobby.next("challenge")["challenge"]["status"] == "open"

    started = time.monotonic()
    assert erase(site, capsys, "Anna", "--redis", REDIS, "--site", ours) == [
        "Anna is erased: closed, its personal data gone; its name stays taken",
        HEARD,
    ]
    assert closed_remotely(annas_lobby.ws)[0] == CLOSED
    assert closed_remotely(watching_her_game)[0] == CLOSED
    while (frame := boris_lobby.receive())["type"] != "challenge":
        assert "Anna" in boris_lobby.names, frame  # told before she leaves the online list
    assert time.monotonic() - started < 2.5  # not when she has had no socket for 3 s
    assert (frame["challenge"]["id"], frame["challenge"]["status"]) == (
        made.json()["id"],
        "cancelled",
    )
    for lobby in (boris_lobby, visitor):
        assert lobby.next("unchat")["id"] == said["id"]
    assert [m["text"] for m in Listening(two, None).welcome["chat"]] == []

    deadline = time.monotonic() + 10
    while (alias := players(two, table_id)[0]) == "Anna" and time.monotonic() < deadline:
        time.sleep(0.05)  # the second process drops what it kept (``Lobby._reread``)
    assert looks_erased(alias) and players(one, table_id)[0] == alias
    chat = boris.get(f"/api/games/{table_id}/chat").json()["chat"]
    assert [m.get("removed", False) for m in chat] == [True]

    assert erase(site, capsys, "anna", "--redis", REDIS, "--site", ours) == [
        "anna was erased already; nothing changed",
        HEARD,
    ]


def test_the_erasure_waits_for_the_game_and_its_end_does_it(
    site: Site, names: tuple[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    """Anna plays a bot at a table the first process runs, through the second: ``erase``
    says it is pending for one game and shuts her out of it, a bot plays her seat to the end,
    and the end of the game erases her (not the minute's sweep)."""
    ours, _ = names
    one, two = site.start("--site", ours), site.start("--site", ours)
    anna = browser(one, "Anna")
    made = anna.post("/api/tables", json=AGAINST_A_BOT)
    assert made.status_code == 200, made.text
    table_id = made.json()["id"]
    ws = table_hello(two, table_id, made.json()["token"], anna)
    assert status(anna, table_id, "playing")["seats"][0]["name"] == "Anna"

    assert erase(site, capsys, "Anna", "--redis", REDIS, "--site", ours) == [
        "Anna is closed; it is erased once its 1 game(s) being played end (a server does it "
        "within minutes of their end)",
        HEARD,
    ]
    assert closed_remotely(ws)[0] == CLOSED
    finished = status(httpx.Client(base_url=two.url, timeout=30), table_id, "finished")
    deadline = time.monotonic() + 10
    while (name := finished["seats"][0]["name"]) == "Anna" and time.monotonic() < deadline:
        time.sleep(0.05)  # the game's end erases her (``erasure.erase_seated``)
        finished = httpx.get(f"{two.url}/api/tables/{table_id}", timeout=30).json()
    assert looks_erased(name)
    assert looks_erased(players(two, table_id)[0])


def test_another_site_s_name_hears_nothing_and_changes_nothing(
    site: Site, names: tuple[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    """Given another site's ``--site``, no process listens: the command says so and changes
    nothing, since it could not remove her lobby messages nor have the processes read her
    games again, nor do it later; the site's name then erases her."""
    ours, other = names
    one = site.start("--site", ours)
    anna = browser(one, "Anna")
    annas_lobby, visitor = Listening(one, anna), Listening(one, None)
    annas_lobby.ws.send(json.dumps({"type": "chat", "text": "bye all"}))
    said = visitor.next("chat")

    options = ["--db", site.db, "--redis", REDIS, "--site", other]
    assert main(["account", "erase", "Anna", *options]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.endswith(
        f"no server process of the site {other!r} listens on --redis {REDIS}: check it and "
        "--site; nothing changed\n"
    ), err
    assert anna.get("/api/me").json()["player"]["name"] == "Anna"  # not closed
    assert Listening(one, None).welcome["chat"][-1]["id"] == said["id"]

    assert erase(site, capsys, "Anna", "--redis", REDIS, "--site", ours)[0].startswith(
        "Anna is erased"
    )
    assert closed_remotely(annas_lobby.ws)[0] == CLOSED
    assert visitor.next("unchat")["id"] == said["id"]


@pytest.fixture
def client(accounts_client: TestClient) -> TestClient:
    return accounts_client


def test_a_redis_not_reached_changes_nothing(
    client: TestClient, capsys: pytest.CaptureFixture[str], tmp_path: Any
) -> None:
    """Redis is reached before the account is touched: a closed port, exit 1, and Anna is
    neither closed nor asked to be erased."""
    logged_in(client, "Anna")
    db = f"sqlite:///{tmp_path / 'doublesix.sqlite3'}"
    url = "redis://127.0.0.1:1/0"
    assert main(["account", "erase", "Anna", "--db", db, "--redis", url]) == 1
    out, err = capsys.readouterr()
    assert out == "" and f"--redis {url}: Error" in err and err.endswith("; nothing changed\n"), err
    [row] = rows(client, schema.accounts)
    assert (row.closed_at, row.erase_requested_at, row.erased_at) == (None, None, None)
    assert client.get("/api/me").json()["player"]["name"] == "Anna"
