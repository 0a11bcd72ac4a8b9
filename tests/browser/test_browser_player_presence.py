"""A player's page says whether its account is on the site now: free, with "Challenge", which
opens the lobby's dialog for them; at a table, with "Watch"; or not online."""

from __future__ import annotations

from typing import Any

from .browser_helpers import as_guest, person_name, register

PRESENCE = "#presence[data-status='{}']"


def reload_until(page: Any, selector: str) -> None:
    """The page reads who is online when it opens: open it again until it shows `selector`."""
    for _ in range(40):
        page.reload()
        page.wait_for_selector("#presence[data-status]")
        if page.locator(selector).count():
            return
        page.wait_for_timeout(250)
    raise AssertionError(f"{selector} never showed on {page.url}")


def test_a_players_page_says_where_they_are_and_challenges_them(new_context: Any) -> None:
    a_name, b_name = person_name("Anna"), person_name("Boris")
    boris = new_context().new_page()
    register(boris, b_name, "a long enough password")
    anna = new_context().new_page()  # a visitor with no name yet

    boris_page = new_context().new_page()  # Boris's own page, in a tab of his own browser
    boris_page.goto(f"/player/{b_name.lower()}")  # any case finds the account
    boris_page.wait_for_selector(PRESENCE.format("free"))
    assert boris_page.locator("#presence").inner_text().startswith("●")

    anna.goto(f"/player/{b_name}")
    presence = anna.locator(PRESENCE.format("free"))
    presence.wait_for()
    assert "Online now" in presence.inner_text()
    month = anna.evaluate("new Date().toLocaleDateString('en', {year: 'numeric', month: 'long'})")
    assert anna.inner_text(".player-since") == f"Playing here since {month}"
    anna.click("#presence .challenge-link")
    anna.wait_for_url("**/?challenge=*")
    anna.fill("#guest-name", a_name)  # the lobby asks for a name first, then for the game
    anna.click("#guest-form button[type=submit]")
    anna.wait_for_selector("#challenge-dialog[open]")
    assert "challenge=" not in anna.url  # asked once: a reload does not ask again
    assert b_name in anna.locator("#challenge-dialog").inner_text()
    anna.select_option("#challenge-preset", "draw")
    anna.click("#challenge-send")
    boris.locator(".challenge-toast.incoming button.accept").click()
    for page in (anna, boris):
        page.wait_for_url("**/table/**")
    table = anna.url.split("/")[-1]

    watcher = new_context().new_page()
    watcher.goto(f"/player/{b_name}")
    reload_until(watcher, PRESENCE.format("seated"))
    assert "Playing at a table now" in watcher.locator("#presence").inner_text()
    assert watcher.locator("#presence .challenge-link").count() == 0
    watch = watcher.locator("#presence a", has_text="Watch")
    assert watch.get_attribute("href") == f"/table/{table}"

    as_guest(watcher, person_name("Cleo"))
    watcher.goto(f"/?challenge={b_name}")  # a link from a page read a while ago: not free now
    watcher.locator("#toasts .toast", has_text=f"{b_name} is not free to play just now.").wait_for()
    assert watcher.locator("#challenge-dialog[open]").count() == 0

    boris.close()
    boris_page.close()
    watcher.goto(f"/player/{b_name}")
    reload_until(watcher, PRESENCE.format("offline"))
    assert watcher.locator("#presence").inner_text().endswith("Not online")
    assert watcher.locator("#presence a").count() == 0


def test_an_account_follows_a_player_and_the_lobby_says_when_they_come(new_context: Any) -> None:
    a_name, b_name = person_name("Anna"), person_name("Boris")
    boris_browser = new_context()
    boris = boris_browser.new_page()
    register(boris, b_name, "a long enough password")
    boris.goto(f"/player/{b_name}")
    boris.wait_for_selector("#presence[data-status]")
    assert boris.locator("#follow").count() == 0  # nobody follows themselves
    boris.goto("/")  # online: the lobby's socket is open
    visitor = new_context().new_page()
    as_guest(visitor, person_name("Gina"))
    visitor.goto(f"/player/{b_name}")
    visitor.wait_for_selector("#presence[data-status]")
    assert visitor.locator("#follow").count() == 0  # a guest follows nobody

    anna = new_context().new_page()
    register(anna, a_name, "a long enough password")
    anna.goto(f"/player/{b_name}")
    follow = anna.locator("#follow")
    assert follow.get_attribute("aria-pressed") == "false" and follow.inner_text() == "Follow"
    follow.click()
    anna.locator("#follow[aria-pressed='true']").wait_for()
    assert follow.inner_text() == "Following ✓"
    assert follow.get_attribute("title") == f"Stop following {b_name}"
    anna.reload()
    anna.locator("#follow[aria-pressed='true']").wait_for()  # kept by the site, not the page

    anna.goto("/")
    first = anna.locator("#online .online-row").first  # however many are online: Boris first
    first.locator(".followed").wait_for()
    assert first.get_attribute("data-player") == b_name
    assert first.locator(".followed").get_attribute("title") == f"You follow {b_name}"

    boris.close()  # Boris leaves the site, and comes back
    anna.wait_for_selector(f'#online .online-row[data-player="{b_name}"]', state="detached")
    boris_browser.new_page().goto("/")
    anna.locator("#toasts .toast", has_text=f"★ {b_name} is online").wait_for()

    anna.goto(f"/player/{a_name}")  # her own page: whom she follows, and where they are
    followed = anna.locator("#following li")
    followed.first.wait_for()
    assert followed.count() == 1 and followed.get_attribute("data-status") == "free"
    assert followed.locator("a").get_attribute("href") == f"/player/{b_name}"
    assert anna.locator("#follow").count() == 0

    anna.goto(f"/player/{b_name}")
    anna.click("#follow[aria-pressed='true']")
    anna.locator("#follow[aria-pressed='false']").wait_for()
    anna.goto(f"/player/{a_name}")
    anna.locator("#following", has_text="You follow nobody yet").wait_for()
    anna.goto("/")
    anna.wait_for_selector(f'#online .online-row[data-player="{b_name}"]')
    assert anna.locator("#online .followed").count() == 0
