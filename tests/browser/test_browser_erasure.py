"""An account's erasure from the lobby's identity box: a second step inside the page (the
name typed again) before the button may be pressed, the password's refusal next to its
field, and then the player is logged out, erased, and the name logs in no more. Before it,
"Download my data" saves what the site keeps about the account."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .browser_helpers import person_name, register
from .test_browser_accounts import PASSWORD, submit


def test_a_player_erases_their_account_and_data(new_context: Any) -> None:
    name = person_name("Erin")
    page = new_context().new_page()
    register(page, name, PASSWORD)
    page.click("#account-erase")
    assert "This cannot be undone." in page.inner_text("#identity")
    erase = page.locator("#account-erase-form button[type=submit]")
    assert erase.is_disabled()
    page.fill("#account-erase-password", PASSWORD)
    page.fill("#account-erase-confirm", "someone else")
    assert erase.is_disabled()  # the name typed again, or nothing is sent
    page.fill("#account-erase-confirm", name.lower())
    assert erase.is_enabled()
    submit(page, "erase", password="not my password")
    error = page.locator("#account-erase-password-error")
    error.wait_for()
    assert error.inner_text() == "That is not your current password."
    assert page.request.get("/api/me").json()["player"]["name"] == name  # nothing changed

    submit(page, "erase", password=PASSWORD)
    toast = "Your account and your data are erased. Goodbye!"
    page.locator("#toasts .toast", has_text=toast).wait_for()
    page.wait_for_selector("#guest-name")
    assert page.request.get("/api/me").json() == {"player": None}
    assert page.locator("#toasts .toast", has_text="This account is closed.").count() == 0
    page.click("#account-login")
    submit(page, "login", name=name, password=PASSWORD)
    refused = page.locator("#account-login-password-error")
    refused.wait_for()
    assert refused.inner_text() == "Wrong name or password."


def test_a_player_downloads_their_data(new_context: Any) -> None:
    name = person_name("Dana")
    page = new_context(accept_downloads=True).new_page()
    register(page, name, PASSWORD)
    link = page.locator("#account-data")
    assert link.inner_text() == "Download my data"
    with page.expect_download() as downloading:
        link.click()
    download = downloading.value
    assert download.suggested_filename == f"doublesix-{name}-data.json"
    document = json.loads(Path(download.path()).read_text(encoding="utf-8"))
    assert document["account"]["name"] == name
    assert page.request.get("/api/me").json()["player"]["name"] == name  # still here
