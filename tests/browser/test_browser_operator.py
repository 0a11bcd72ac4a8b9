"""The site's operators' page (/operator): an account that the command line made an operator
reads the reports players sent — who about whom, why, where, their words — silences the
account reported for a day, and closes the report with a note; the closed ones show when
asked. It closes an account (a ban: why, and the name typed again) from a report or by name,
lists it and reopens it. Anyone else is told that the page is not theirs."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .browser_helpers import as_guest, create_table, person_name, play_bot_game, register
from .conftest import serve
from .test_browser_languages import check_page

PASSWORD = "a long enough password"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """A server of this module's own, and its database (the command line writes there)."""
    folder = tmp_path_factory.mktemp("operator")
    for base in serve(folder, "--no-limits"):
        yield base, folder / "browser.sqlite3"


@pytest.fixture
def server(site: tuple[str, Path]) -> str:
    return site[0]


def account_command(db: Path, *args: str) -> str:
    """``doublesix account ARGS --db`` on the site's database, as its operator runs it."""
    exe = shutil.which("doublesix", path=str(Path(sys.executable).parent))
    assert exe is not None, "doublesix is installed beside this Python"
    command = [exe, "account", *args, "--db", f"sqlite:///{db}"]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_an_operator_reads_silences_and_closes_a_report(
    new_context: Any, site: tuple[str, Path], screenshots: Path
) -> None:
    _, db = site
    b_name, o_name, a_name = person_name("Ben"), person_name("Olga"), person_name("Anna")
    ben = new_context().new_page()
    register(ben, b_name, PASSWORD)
    anna = new_context().new_page()
    as_guest(anna, a_name)
    made = anna.request.post(
        "/api/reports", data={"name": b_name, "reason": "abuse", "text": "rude <b>twice</b>"}
    )
    assert made.status == 201, made.text()

    olga = new_context(viewport={"width": 1000, "height": 900}).new_page()
    register(olga, o_name, PASSWORD)
    olga.goto("/operator")
    olga.locator("#operator .card", has_text="This page is for the site's operators.").wait_for()
    assert olga.locator("header.top a.operator-link").count() == 0
    said = account_command(db, "operator", o_name)
    assert said == f"{o_name} is one of the site's operators\n"

    olga.goto("/")  # the header links the operators' page, for an operator only
    olga.click("header.top a.operator-link")
    item = olga.locator("#reports .report-item").first
    item.wait_for()
    assert olga.locator("h1").inner_text() == "Reports to the site's operators"
    assert item.locator(".report-who").inner_text() == f"{a_name} → {b_name} Abusive chat"
    assert item.locator(f".report-who a[href='/player/{b_name}']").count() == 1
    assert item.locator(".report-text").inner_text() == "rude <b>twice</b>"  # text, not HTML
    assert item.locator(".report-text b").count() == 0
    check_page(olga, "en")

    # A ban from the report: why, and the name typed again, before it may be sent.
    item.locator("button.ban").click()
    step = item.locator(".ban-step")
    step.wait_for()
    assert item.locator("button.ban").is_disabled()  # while its step is open
    assert step.locator(".ban-what").inner_text().startswith(f"Close {b_name}'s account: ")
    submit = step.locator("button.ban-submit")
    assert submit.inner_text() == f"Close {b_name}'s account" and submit.is_disabled()
    step.locator("input.ban-reason").fill("spam in every chat")
    step.locator("input.ban-confirm").fill(b_name[:-1])
    assert submit.is_disabled()  # not the name yet
    assert step.locator("input.ban-confirm").get_attribute("placeholder") == (
        f"Type {b_name} to confirm"
    )
    step.locator("input.ban-confirm").fill(b_name.lower())  # the name, in any case
    assert submit.is_enabled()
    check_page(olga, "en")
    olga.screenshot(path=str(screenshots / "operator.png"))
    step.locator("button.ban-cancel").click()  # not now: nothing was sent
    step.wait_for(state="detached")
    assert item.locator("button.ban").is_enabled()
    assert olga.locator("#banned p", has_text="No account is closed.").count() == 1

    assert item.locator(".silence-length").input_value() == "24"  # a day, unless chosen
    with olga.expect_response("**/api/operator/silence") as silenced:
        item.locator("button.silence").click()
    assert silenced.value.status == 200
    assert silenced.value.request.post_data_json["hours"] == 24
    olga.locator("#toasts .toast", has_text=f"{b_name} is silenced until").wait_for()
    now = item.locator(".silenced-now")  # the report says so, and offers to lift it
    now.wait_for()
    assert now.inner_text().startswith(f"{b_name} is silenced until ")
    listed = olga.locator(f"#silenced li[data-name='{b_name}']")  # so does the list
    assert listed.locator(".silence-reason").inner_text() == "report 1"
    item.locator("button.lift").click()
    olga.locator("#toasts .toast", has_text=f"{b_name} may chat again.").wait_for()
    item.locator("button.silence").wait_for()
    assert listed.count() == 0

    item.locator("input.note").fill("silenced for a day")
    item.locator("button.close-report").click()
    olga.locator("#operator .card", has_text="No open reports.").wait_for()
    olga.check("#show-closed")
    closed = olga.locator("#reports .report-item.closed")
    closed.wait_for()
    assert closed.locator(".report-note").inner_text() == "silenced for a day"
    assert closed.locator("button").count() == 0

    entries = olga.locator("#operator-log .log-entry")  # what the operators did, latest first
    assert entries.locator(".log-what").all_inner_texts()[:4] == [
        f"{o_name} closed a report about {b_name}",
        f"{o_name} lifted {b_name}'s silence",
        f"{o_name} silenced {b_name}",
        f"The command line made {o_name} an operator",
    ]
    assert "report #1 · silenced for a day" in entries.nth(0).inner_text()
    assert entries.nth(2).inner_text().endswith(" · report 1")  # until when, and why

    olga.fill("#log-name", b_name[:5].lower())  # the beginning of a name will do
    olga.click("#operator-log .log-search button[type=submit]")
    olga.wait_for_function(
        "() => document.querySelectorAll('#operator-log .log-entry').length === 3"
    )
    assert entries.locator(".log-what").all_inner_texts() == [
        f"{o_name} closed a report about {b_name}",
        f"{o_name} lifted {b_name}'s silence",
        f"{o_name} silenced {b_name}",
    ]
    olga.fill("#log-name", a_name)  # what was done by or about one name: nothing about Anna
    olga.click("#operator-log .log-search button[type=submit]")
    olga.locator(
        "#operator-log p",
        has_text=f"Nothing was done by or about a name that begins with {a_name}.",
    ).wait_for()
    olga.fill("#log-name", b_name.upper())  # an account's name, in any case
    olga.click("#operator-log .log-search button[type=submit]")
    olga.wait_for_function("() => document.querySelectorAll('#operator-log .log-entry').length")
    assert entries.locator(".log-what").all_inner_texts() == [
        f"{o_name} closed a report about {b_name}",
        f"{o_name} lifted {b_name}'s silence",
        f"{o_name} silenced {b_name}",
    ]
    assert olga.locator("#log-older").count() == 0  # no more of them
    olga.click("#log-all")
    olga.locator("#log-all").wait_for(state="detached")
    assert entries.count() == 4

    def first_page_of_one(route: Any) -> None:  # as if the log were longer than a page
        if "before=" in route.request.url:
            route.continue_()
            return
        answer = route.fetch()
        data = answer.json()
        data["log"], data["more"] = data["log"][:1], True
        route.fulfill(response=answer, json=data)

    olga.route("**/api/operator/log*", first_page_of_one)
    olga.reload()
    olga.locator("#log-older").click()  # the real API, after the one entry shown
    olga.wait_for_function("() => document.querySelectorAll('#operator-log .log-entry').length > 1")
    assert entries.count() == 4 and olga.locator("#log-older").count() == 0
    olga.unroute("**/api/operator/log*")


def test_an_operator_removes_a_lobby_message_from_every_lobby(
    new_context: Any, site: tuple[str, Path]
) -> None:
    _, db = site
    o_name, a_name = person_name("Olga"), person_name("Anna")
    olga = new_context().new_page()
    register(olga, o_name, PASSWORD)
    account_command(db, "operator", o_name)
    olga.reload()
    anna = new_context().new_page()
    as_guest(anna, a_name)
    assert anna.locator("#lobby-chat-lines .chat-remove").count() == 0
    anna.fill("#lobby-chat-input", "something vile")
    anna.press("#lobby-chat-input", "Enter")
    vile = olga.locator("#lobby-chat-lines .chat-line", has_text="something vile")
    vile.wait_for()
    assert anna.locator("#lobby-chat-lines .chat-remove").count() == 0  # a player has none
    remove = vile.locator(".chat-remove")
    assert remove.get_attribute("title") == f"Remove {a_name}'s message from the lobby (operators)"
    remove.click()
    vile.wait_for(state="detached")
    anna.locator("#lobby-chat-lines .chat-line", has_text="something vile").wait_for(
        state="detached"
    )
    newcomer = new_context().new_page()
    newcomer.goto("/")
    newcomer.wait_for_selector("#lobby-chat-lines")
    newcomer.wait_for_timeout(500)
    assert "something vile" not in newcomer.inner_text("#lobby-chat-lines")


def test_an_operator_removes_a_table_chat_message(new_context: Any, site: tuple[str, Path]) -> None:
    """At a table, an operator's "✕" on a line removes it from every page at the table; the
    operator's page keeps its place, whose "Restore" shows it again, in its place, on every
    page."""
    _, db = site
    o_name, a_name = person_name("Olga"), person_name("Anna")
    olga = new_context().new_page()
    register(olga, o_name, PASSWORD)
    account_command(db, "operator", o_name)
    anna = new_context().new_page()
    as_guest(anna, a_name)
    table = create_table(anna, "draw", 2)
    anna.wait_for_selector("#hand .hand-tile")  # the socket is open: a line said now is sent
    for text in ("something vile", "anyone for a game?"):
        anna.fill("#chat-input", text)
        anna.press("#chat-input", "Enter")
        anna.locator("#chat-list .chat-line", has_text=text).wait_for()
    assert anna.locator("#chat-list .chat-remove").count() == 0  # a player has none
    olga.goto(f"/table/{table}")
    vile = olga.locator("#chat-list .chat-line", has_text="something vile")
    remove = vile.locator(".chat-remove")
    remove.wait_for()
    assert remove.get_attribute("title") == f"Remove {a_name}'s message from the table (operators)"
    remove.click()
    vile.wait_for(state="detached")
    anna.locator("#chat-list .chat-line", has_text="something vile").wait_for(state="detached")
    assert anna.locator("#chat-list .chat-line", has_text="anyone for a game?").count() == 1
    place = olga.locator("#chat-list .chat-line.removed")
    assert place.locator(".chat-text").inner_text() == "Message removed"
    place.locator(".chat-restore").click()
    for page in (olga, anna):
        page.locator("#chat-list .chat-line", has_text="something vile").wait_for()
        texts = page.locator("#chat-list .chat-line .chat-text").all_inner_texts()
        assert texts == ["something vile", "anyone for a game?"], texts
    assert place.count() == 0
    vile.locator(".chat-remove").click()
    anna.locator("#chat-list .chat-line", has_text="something vile").wait_for(state="detached")
    olga.reload()
    olga.locator("#chat-list .chat-line", has_text="anyone for a game?").wait_for()
    assert "something vile" not in olga.inner_text("#chat-list")


def test_an_operator_removes_a_line_on_a_finished_game_s_page_and_restores_it(
    new_context: Any, site: tuple[str, Path]
) -> None:
    """On a finished game's page, an operator's "✕" removes a line of the table's chat: the
    line says it was removed, with a "Restore"; the page read again leaves it out for others
    and keeps its place for the operator, whose "Restore" shows it again to everyone. Nobody
    else has a "✕" or a "Restore"."""
    base, db = site
    game = f"/game/{play_bot_game(base, said=('something vile', 'good game'))}"
    o_name = person_name("Olga")
    olga = new_context().new_page()
    register(olga, o_name, PASSWORD)
    account_command(db, "operator", o_name)
    anna = new_context().new_page()
    as_guest(anna, person_name("Anna"))
    anna.goto(game)
    anna.locator("#game-chat .chat-line", has_text="something vile").wait_for()
    assert anna.locator("#game-chat .chat-remove").count() == 0  # a player has none

    olga.goto(game)
    vile = olga.locator("#game-chat .chat-line", has_text="something vile")
    remove = vile.locator(".chat-remove")
    remove.wait_for()
    assert remove.get_attribute("title") == "Remove Vera's message from the table (operators)"
    with olga.expect_response("**/api/operator/tables/**") as removed:
        remove.click()
    assert removed.value.status == 200, removed.value.text()
    gone = olga.locator("#game-chat .chat-line.removed")
    gone.wait_for()
    assert gone.locator(".chat-text").inner_text() == "Message removed"
    assert gone.locator(".chat-restore").inner_text() == "Restore"
    assert "something vile" not in olga.inner_text("#game-chat")
    kept = olga.locator("#game-chat .chat-line", has_text="good game")
    assert kept.locator(".chat-remove").count() == 1
    for page in (olga, anna):
        page.reload()
        page.locator("#game-chat .chat-line", has_text="good game").wait_for()
        assert "something vile" not in page.inner_text("#game-chat")
    assert anna.locator("#game-chat .chat-line").count() == 1  # left out, not shown
    assert anna.locator("#game-chat .chat-restore").count() == 0

    with olga.expect_response("**/restore") as restored:
        gone.locator(".chat-restore").click()
    assert restored.value.status == 200, restored.value.text()
    vile.wait_for()
    assert olga.locator("#game-chat .chat-line .chat-text").all_inner_texts() == [
        "something vile",
        "good game",
    ]
    assert gone.count() == 0
    anna.reload()
    anna.locator("#game-chat .chat-line", has_text="something vile").wait_for()
    assert anna.locator("#game-chat .chat-line").count() == 2


def test_an_operator_closes_an_account_by_name_and_from_a_report_and_reopens_it(
    new_context: Any, site: tuple[str, Path]
) -> None:
    """A ban takes effect at once (the player's browser is logged out), is listed with who
    closed the account, when and why, and is in the operators' log; "Reopen" ends it."""
    _, db = site
    b_name, o_name, a_name = person_name("Ben"), person_name("Olga"), person_name("Anna")
    ben = new_context().new_page()
    register(ben, b_name, PASSWORD)
    olga = new_context(viewport={"width": 1000, "height": 900}).new_page()
    register(olga, o_name, PASSWORD)
    account_command(db, "operator", o_name)
    olga.goto("/operator")
    form = olga.locator("#banned .ban-by-name")
    form.wait_for()

    olga.fill("#ban-name", b_name)  # nobody reported Ben: a ban by name
    form.locator("button[type=submit]").click()
    step = olga.locator("#banned .ban-step")
    step.wait_for()
    assert olga.locator("#ban-name").get_attribute("readonly") is not None
    submit = step.locator("button.ban-submit")
    step.locator("input.ban-confirm").fill(b_name.lower())  # in any case
    assert submit.is_disabled()  # no reason yet
    step.locator("input.ban-reason").fill("  spam after the silence ")
    assert submit.is_enabled()
    with olga.expect_response("**/api/operator/close") as banned:
        submit.click()
    assert banned.value.status == 200, banned.value.text()
    assert banned.value.request.post_data_json == {
        "name": b_name,
        "reason": "spam after the silence",
    }
    olga.locator("#toasts .toast", has_text=f"{b_name}'s account is closed.").wait_for()
    listed = olga.locator(f"#banned li[data-name='{b_name}']")
    listed.wait_for()  # drawn with the log, after both were read again
    assert listed.locator(".banned-when").inner_text().startswith("closed ")
    assert listed.locator(".banned-when").inner_text().endswith(f" by {o_name}")
    assert listed.locator(".banned-reason").inner_text() == "spam after the silence"
    entries = olga.locator("#operator-log .log-entry")
    assert entries.first.locator(".log-what").inner_text() == f"{o_name} closed {b_name}'s account"
    assert entries.first.inner_text().endswith(" · spam after the silence")
    assert ben.request.get("/api/me").json() == {"player": None}  # logged out at once
    ben.locator("#toasts .toast", has_text="This account is closed.").wait_for()  # his lobby
    ben.wait_for_selector("#guest-name")  # its socket closed by the server: the page says so
    check_page(olga, "en")

    listed.locator("button.reopen").click()
    olga.locator("#toasts .toast", has_text=f"{b_name}'s account is open again.").wait_for()
    olga.locator("#banned p", has_text="No account is closed.").wait_for()
    assert listed.count() == 0
    assert entries.first.locator(".log-what").inner_text() == (
        f"{o_name} reopened {b_name}'s account"
    )

    anna = new_context().new_page()  # now a report, and a ban from it
    as_guest(anna, a_name)
    made = anna.request.post("/api/reports", data={"name": b_name, "reason": "cheating"})
    assert made.status == 201, made.text()
    olga.reload()
    item = olga.locator("#reports .report-item").first
    item.locator("button.ban").click()
    step = item.locator(".ban-step")
    step.locator("input.ban-reason").fill("stalls every game")
    step.locator("input.ban-confirm").fill(b_name)
    step.locator("button.ban-submit").click()
    closed_now = item.locator(".closed-now")  # the report says so, and offers no ban
    closed_now.wait_for()
    assert closed_now.inner_text().startswith(f"{b_name}'s account was closed ")
    assert item.locator("button.ban, button.silence").count() == 0
    listed.locator(".banned-reason", has_text="stalls every game").wait_for()
    login = ben.request.post("/api/session", data={"name": b_name, "password": PASSWORD})
    assert (login.status, login.json()["code"]) == (403, "closed")
    switch_to_russian = olga.locator(".lang-switch button[data-lang='ru']")
    switch_to_russian.click()
    olga.locator("#banned h2", has_text="Закрыты администраторами").wait_for()
    check_page(olga, "ru")


def test_a_ban_turns_the_player_s_table_page_into_a_spectator_s(
    new_context: Any, site: tuple[str, Path]
) -> None:
    """Ben is at a table with Anna when he is banned: his page says the account is closed,
    forgets the seat's token and watches; Anna's says he left, and a bot plays for him."""
    _, db = site
    a_name, b_name, o_name = person_name("Anna"), person_name("Ben"), person_name("Olga")
    anna, ben, olga = (new_context().new_page() for _ in range(3))
    as_guest(anna, a_name)
    register(ben, b_name, PASSWORD)
    register(olga, o_name, PASSWORD)
    account_command(db, "operator", o_name)
    create_table(anna, "draw", 2, seat_1="invite")
    anna.wait_for_selector(".waiting-card")
    ben.goto(anna.input_value("#invite-link-1"))
    for page in (anna, ben):
        page.wait_for_selector("#hand .hand-tile", timeout=15000)

    banned = olga.request.post("/api/operator/close", data={"name": b_name, "reason": "abuse"})
    assert banned.status == 200, banned.text()
    closed = "This account is closed: you can only watch now."
    ben.locator("#toasts .toast", has_text=closed).wait_for()
    ben.wait_for_selector("#hand .hand-tile", state="detached")  # a spectator's view
    table_id = ben.url.split("/table/")[1].split("?")[0]
    assert ben.evaluate("(id) => localStorage.getItem('ds_token_' + id)", table_id) is None
    anna.locator(
        "#toasts .toast", has_text=f"{b_name} left the game: a bot plays for them"
    ).wait_for()
