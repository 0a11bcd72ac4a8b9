"""A player with a name — guest or account — reports an account to the site's operator from
its page: a quiet "Report" button opens a dialog with the reason and a few words; sent, the
dialog closes and a toast thanks them; a second report about the same account, still open,
is refused inside the dialog. A visitor without a name, and the account on its own page, get
no button. The dialog speaks the reader's language and works under the site's policy."""

from __future__ import annotations

from typing import Any

from .browser_helpers import as_guest, person_name, register
from .test_browser_csp import _violation
from .test_browser_languages import check_page, switch

PASSWORD = "a long enough password"
PRESENCE = "#presence[data-status]"
DIALOG = "#report-dialog[open]"
THANKS = "Thank you: the site's operator will look at your report."


def open_page(page: Any, name: str) -> None:
    """Open the page of ``name`` and wait until it is drawn (its presence line read)."""
    page.goto(f"/player/{name}")
    page.wait_for_selector(PRESENCE)


def open_dialog(page: Any) -> Any:
    page.click("#report")
    page.wait_for_selector(DIALOG)
    return page.locator("#report-dialog")


def test_a_guest_reports_an_account_once_till_the_operator_looks(new_context: Any) -> None:
    a_name, b_name = person_name("Anna"), person_name("Ben")
    ben = new_context().new_page()
    register(ben, b_name, PASSWORD)
    open_page(ben, b_name)  # his own page: nobody to report
    assert ben.locator("#report").count() == 0
    visitor = new_context().new_page()  # no name yet: no report
    open_page(visitor, b_name)
    assert visitor.locator("#report").count() == 0

    anna = new_context().new_page()
    as_guest(anna, a_name)
    open_page(anna, b_name)
    button = anna.locator(".player-head #report")
    assert button.inner_text() == "Report" and "link-button" in button.get_attribute("class")
    assert button.get_attribute("title").startswith(f"Report {b_name} to the site's operator")
    assert anna.locator("#block").count() == 0  # a guest blocks nobody, but reports

    dialog = open_dialog(anna)
    assert dialog.locator("h2").inner_text() == f"Report {b_name} to the site's operator"
    reasons = dialog.locator("fieldset label").all_inner_texts()
    assert reasons == ["Abusive chat", "Cheating or stalling", "Spam", "Something else"]
    assert dialog.locator("input[type=radio]:checked").count() == 0  # a choice of one's own
    assert anna.get_attribute("#report-text", "maxlength") == "500"
    assert "The site's operator reads this" in dialog.locator("#report-note").inner_text()
    check_page(anna, "en")
    anna.click("#report-send")  # no reason yet: the dialog asks, the server is not asked
    anna.locator("#report-error", has_text="Choose what happened.").wait_for()
    assert anna.locator(DIALOG).count() == 1

    anna.get_by_label("Abusive chat").check()
    assert anna.inner_text("#report-error") == ""
    anna.fill("#report-text", "  He called me names at table 3.  ")
    with anna.expect_response("**/api/reports") as sent:
        anna.click("#report-send")
    assert sent.value.status == 201 and isinstance(sent.value.json()["id"], int)
    assert sent.value.request.post_data_json == {
        "name": b_name,
        "reason": "abuse",
        "text": "He called me names at table 3.",
        "table": None,
    }
    anna.locator("#toasts .toast", has_text=THANKS).wait_for()
    assert anna.locator("#report-dialog").count() == 0

    # Again, while the first is open: refused in the dialog, which stays, in our words.
    dialog = open_dialog(anna)
    assert dialog.locator("input[type=radio]:checked").count() == 0  # a new dialog
    anna.get_by_label("Spam").check()
    with anna.expect_response("**/api/reports") as sent:
        anna.click("#report-send")
    assert sent.value.status == 409
    refusal = anna.locator("#report-error")
    refusal.wait_for()
    expected = f"You have reported {b_name} already: the site's operator will look at it."
    assert refusal.inner_text() == expected
    assert anna.locator(DIALOG).count() == 1
    anna.click("#report-cancel")
    assert anna.locator("#report-dialog").count() == 0
    open_dialog(anna)
    anna.keyboard.press("Escape")  # Escape closes it too
    anna.locator("#report-dialog").wait_for(state="detached")


def test_the_report_dialog_speaks_the_readers_language(new_context: Any) -> None:
    b_name, c_name = person_name("Ben"), person_name("Cleo")
    register(new_context().new_page(), b_name, PASSWORD)
    cleo = new_context(locale="de-DE").new_page()  # an account reports too
    register(cleo, c_name, PASSWORD)
    open_page(cleo, b_name)
    assert cleo.inner_text("#report") == "Melden"
    dialog = open_dialog(cleo)
    assert dialog.locator("h2").inner_text() == f"{b_name} beim Betreiber der Seite melden"
    cleo.click("#report-send")
    cleo.locator("#report-error", has_text="Wähle aus").wait_for()
    check_page(cleo, "de")
    cleo.click("#report-cancel")
    switch(cleo, "fr")
    cleo.locator("#report", has_text="Signaler").wait_for()
    open_dialog(cleo)
    assert "Triche ou obstruction" in check_page(cleo, "fr")
    cleo.get_by_label("Triche ou obstruction").check()
    cleo.click("#report-send")
    told = "Merci : l’administrateur du site examinera votre signalement."
    cleo.locator("#toasts .toast", has_text=told).wait_for()
    open_dialog(cleo)
    cleo.get_by_label("Autre chose").check()
    cleo.click("#report-send")
    cleo.locator("#report-error", has_text="Vous avez déjà signalé").wait_for()
    check_page(cleo, "fr")


def test_the_report_dialog_works_under_the_sites_policy(new_context: Any) -> None:
    b_name = person_name("Ben")
    register(new_context().new_page(), b_name, PASSWORD)
    dora = new_context(bypass_csp=False).new_page()
    problems: list[str] = []
    dora.on("console", lambda m: _violation(m, problems))
    as_guest(dora, person_name("Dora"))
    open_page(dora, b_name)
    open_dialog(dora)
    dora.get_by_label("Something else").check()
    dora.fill("#report-text", "Asks for passwords in the chat.")
    dora.click("#report-send")
    dora.locator("#toasts .toast", has_text=THANKS).wait_for()
    assert problems == []
