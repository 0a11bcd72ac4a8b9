"""Reports to the site's operator (``server/reports.py``): a player reports an account
(``POST /api/reports``, on SQLite and PostgreSQL), what is refused leaves nothing behind, and
the operator lists and closes them (``doublesix reports``) while the site runs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from doublesix.cli import main
from doublesix.server import reports, schema

from .server_helpers import BOTH, TestClient, guest
from .test_accounts import register, rows
from .test_seeks import bodies


@pytest.fixture
def client(accounts_client: TestClient) -> TestClient:
    return accounts_client


def report(client: TestClient, **body: Any) -> Any:
    return client.post("/api/reports", json={"name": "Ben", "reason": "abuse"} | body)


@BOTH
def test_a_player_reports_an_account_and_what_is_refused(client: TestClient) -> None:
    register(client, "Ben")
    client.cookies.clear()
    guest(client, "Anna")
    table = client.post("/api/tables", json={"preset": "draw"})
    table_id = table.json()["id"]
    made = report(client, name="BEN", text="  rude\nagain  ", table=table_id)
    assert made.status_code == 201, made.text
    (row,) = rows(client, schema.reports)
    assert (row.reporter_name, row.name, row.reason, row.text, row.table_id) == (
        "Anna",
        "Ben",
        "abuse",
        "rude\nagain",
        table_id,
    )
    assert row.id == made.json()["id"] and row.closed_at is None
    for body, status, field in [
        ({}, 409, "name"),  # an open report about Ben already
        ({"name": "nobody"}, 404, "name"),
        ({"reason": "rudeness"}, 422, "reason"),
        ({"text": "x" * 501}, 422, "text"),
        ({"text": "a\x00b"}, 422, "text"),
        ({"text": "a\u202eb"}, 422, "text"),  # a bidi override
        ({"table": "nosuchtable"}, 422, "table"),
    ]:
        refused = report(client, **body)
        assert refused.status_code == status, (body, refused.text)
        assert field in str(refused.json().get("field") or refused.json()), refused.json()
    assert len(rows(client, schema.reports)) == 1
    client.cookies.clear()
    assert report(client).status_code == 401  # a visitor without a name
    register(client, "Carla")
    refused = report(client, name="carla")
    assert (refused.status_code, refused.json()["code"]) == (422, "self")


def test_a_player_makes_so_many_reports_a_day(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(reports, "PER_DAY", 2)
    for name in ("Ben", "Carla", "Dora"):
        client.cookies.clear()
        register(client, name)
    guest(client, "Anna")
    french = "Il triche\u202f! Encore\u00a0une fois 👨\u200d👩\u200d👧"  # no control characters
    assert report(client, name="Ben", text=french).status_code == 201
    assert report(client, name="Carla").status_code == 201
    refused = report(client, name="Dora")
    assert (refused.status_code, refused.json()["code"]) == (429, "too_many_reports")
    assert [row.text for row in rows(client, schema.reports)] == [french, ""]


def test_the_operator_lists_and_closes_reports(
    client: TestClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = ["--db", f"sqlite:///{tmp_path / 'doublesix.sqlite3'}"]
    register(client, "Ben")
    guest(client, "Anna")
    report(client, reason="cheating", text="stalls every game\nfor minutes")
    assert main(["reports", "list", *db]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert listed[0].startswith("#1 ") and listed[0].endswith(" UTC  Anna reports Ben: cheating")
    assert listed[1:] == ["    stalls every game", "    for minutes"]

    assert main(["reports", "close", "1", "--note", "silenced for a day", *db]) == 0
    assert capsys.readouterr().out == "report 1 about Ben is closed\n"
    assert main(["reports", "list", *db]) == 0
    assert capsys.readouterr().out == "no open reports\n"
    assert main(["reports", "list", "--all", *db]) == 0
    assert capsys.readouterr().out.splitlines()[-1].endswith(" UTC: silenced for a day")
    assert main(["reports", "close", "1", *db]) == 1
    assert capsys.readouterr().err == (
        "doublesix reports: error: id: no open report 1; nothing changed\n"
    )
    assert report(client).status_code == 201  # closed: Anna may report Ben again


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    body=bodies
    | st.fixed_dictionaries(
        {},
        optional={
            "name": st.sampled_from(["Ben", "ben", "Anna", ""]) | bodies,
            "reason": st.sampled_from(["abuse", "other", "ABUSE"]) | bodies,
            "text": st.text(max_size=600) | bodies,
            "table": st.none() | st.text(max_size=40) | bodies,
        },
    )
)
def test_any_body_gets_a_report_or_a_refusal(client: TestClient, body: Any) -> None:
    """Whatever comes, a report is kept or refused with its reason, and a refusal keeps
    nothing."""
    if not rows(client, schema.accounts):
        register(client, "Ben")
    before = len(rows(client, schema.reports))
    guest(client, "Anna")
    r = client.post("/api/reports", json=body)
    assert r.status_code in (201, 404, 422), r.text
    assert len(rows(client, schema.reports)) == before + (r.status_code == 201)
    if r.status_code != 201:
        assert r.json()["error"]
