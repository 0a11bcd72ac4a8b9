"""Helpers of the rating tests: accounts (rows written here: registration is not tested
here), rated tables played to their end, and the ratings openskill gives directly."""

from __future__ import annotations

import math
import random
import time
from contextlib import ExitStack
from typing import Any

import sqlalchemy as sa
from openskill.models import PlackettLuce
from starlette.testclient import TestClient

from doublesix.server import schema
from doublesix.server.account_names import name_key
from doublesix.server.store import SqlStore

from .server_helpers import Socket, guest, play_out

BETA = 400 / (math.log(10) * math.sqrt(2))
MODEL = PlackettLuce(mu=1500.0, sigma=2 * BETA, beta=BETA, tau=2 * BETA / 100)
"""The model as docs/protocol.md describes it, built here apart from doublesix.ratings."""


def store_of(client: TestClient) -> SqlStore:
    store = client.app.state.server.store  # type: ignore[attr-defined]
    assert isinstance(store, SqlStore)
    return store


def run(client: TestClient, fn: Any, *args: Any) -> Any:
    """Run the coroutine function ``fn`` on the app's own loop (its engine lives there)."""
    return client.portal.call(fn, *args)  # type: ignore[union-attr]


def account(client: TestClient, name: str) -> str:
    """Become a guest named ``name`` that is an account too; its player id."""
    me = guest(client, name)

    async def insert() -> None:
        async with store_of(client).writing() as conn:
            await conn.execute(
                schema.accounts.insert().values(
                    player_id=me["id"],
                    name=name,
                    name_key=name_key(name),
                    password="$argon2id$not-a-real-hash",
                    created_at=1.0,
                    updated_at=1.0,
                )
            )

    run(client, insert)
    return str(me["id"])


def rated_table(
    client: TestClient, preset: str, names: list[str], seed: int, **body: Any
) -> tuple[str, list[str]]:
    """A rated table of these accounts (the first creates it), played to its end; its id
    and the players' ids by seat."""
    ids = [account(client, names[0])]
    seats = [{"kind": "human"}] + [{"kind": "open"}] * (len(names) - 1)
    body.setdefault("options", {"target": "round"})
    r = client.post("/api/tables", json={"preset": preset, "seats": seats, "rated": True, **body})
    assert r.status_code == 200, r.text
    table = r.json()
    tokens = [table["token"]]
    for name in names[1:]:
        ids.append(account(client, name))
        j = client.post(f"/api/tables/{table['id']}/join", json={})
        assert j.status_code == 200, j.text
        tokens.append(j.json()["token"])
    with ExitStack() as stack:
        sockets = [Socket(client, stack, table["id"], t) for t in tokens]
        play_out(sockets, [], random.Random(seed))
        assert sockets[0].view["status"] == "finished"
    return table["id"], ids


def changes(client: TestClient, table_id: str) -> list[Any]:
    async def read() -> list[Any]:
        c = schema.rating_changes
        async with store_of(client).engine.connect() as conn:
            query = sa.select(c).where(c.c.table_id == table_id).order_by(c.c.player_id)
            return list((await conn.execute(query)).all())

    result: list[Any] = run(client, read)
    return result


def ratings(client: TestClient) -> dict[tuple[str, str], Any]:
    async def read() -> dict[tuple[str, str], Any]:
        async with store_of(client).engine.connect() as conn:
            rows = (await conn.execute(sa.select(schema.ratings))).all()
        return {(row.player_id, row.variant): row for row in rows}

    result: dict[tuple[str, str], Any] = run(client, read)
    return result


def wait_rated(client: TestClient, table_id: str, players: int) -> list[Any]:
    """The table's rating changes once written (the host rates a game after its end)."""
    deadline = time.monotonic() + 20
    while True:
        found = changes(client, table_id)
        if len(found) == players or time.monotonic() > deadline:
            return found
        time.sleep(0.05)


def stored_result(client: TestClient, table_id: str) -> dict[str, Any]:
    table = client.get(f"/api/tables/{table_id}").json()
    assert table["status"] == "finished"
    result: dict[str, Any] = table["result"]
    return result
