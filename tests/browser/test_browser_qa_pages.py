"""A demanding player's pass over the pages but the table: what they saw and the pages now do.

The lobby's cards head alike ("Players online" and "Lobby chat" stood out, bigger and lower);
the inbox's title, and a card's first line of text, sit at the top of their card; a phone's
bar shows every link in Russian; French keeps "« Message »" and "joueurs ;" on one line; the
challenge dialog shows "Send challenge" on a laptop; the tournament form and an open table's
row in the lobby show their Russian whole; on a phone on its side the new-table form stays
in its card and the greeting clear of the hero's tiles. The new-table form and the challenge
dialog show each of their choices whole, in every language; a phone's bar shows every link to an
operator too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from .browser_helpers import Requests, as_guest, person_name, register, watch_errors
from .conftest import serve
from .test_browser_operator import account_command

LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}

CARD_HEADINGS = """(selectors) => selectors.map((sel) => {
  const h = document.querySelector(sel);
  const card = h.closest('.card');
  const style = getComputedStyle(h);
  const gap = h.getBoundingClientRect().top - card.getBoundingClientRect().top - card.clientTop;
  return [sel, style.fontSize, Math.round(gap - parseFloat(getComputedStyle(card).paddingTop))];
})"""

LOBBY_HEADINGS = ["#seek h2", "#tournaments h2", "#online h2", "#lobby-chat h2", "#create h2"]


def test_the_lobby_cards_head_alike(new_context: Any) -> None:
    for viewport in (LAPTOP, PHONE):
        page = new_context(viewport=viewport).new_page()
        as_guest(page, person_name("Heidi"))
        page.wait_for_selector("#online h2")
        page.wait_for_selector("#lobby-chat h2")
        seen = page.evaluate(CARD_HEADINGS, LOBBY_HEADINGS)
        sizes = {size for _, size, _ in seen}
        assert len(sizes) == 1, seen  # one size of heading for every card
        # each heading at the top of its card, under its padding only
        assert [sel for sel, _, gap in seen if abs(gap) > 1] == [], seen


def test_the_inbox_title_sits_at_the_top_of_its_card(new_context: Any) -> None:
    page = new_context(viewport=LAPTOP).new_page()
    register(page, person_name("Ingrid"), "a long enough password")
    page.goto("/inbox")
    page.wait_for_selector("#inbox .card h1")
    [(_, _, gap)] = page.evaluate(CARD_HEADINGS, ["#inbox .card h1"])
    assert abs(gap) <= 1


NAV_CUT = """() => {
  const nav = document.querySelector('header.top nav');
  const right = Math.min(nav.getBoundingClientRect().right, document.documentElement.clientWidth);
  return [...nav.querySelectorAll('a')]
    .filter((a) => a.getBoundingClientRect().right > right + 1)
    .map((a) => a.textContent);
}"""


def test_an_account_on_a_phone_sees_every_link_of_the_bar(new_context: Any) -> None:
    # Russian's "Таблица лидеров" pushed "Сообщения" (the inbox, with its unread count) off
    # the phone's edge, the bar scrolling out of sight
    first = new_context(viewport=PHONE)
    register(first.new_page(), person_name("Olga"), "a long enough password")
    logged_in = first.storage_state()
    for locale in ("ru-RU", "de-DE", "fr-FR", "en-US"):
        page = new_context(viewport=PHONE, locale=locale, storage_state=logged_in).new_page()
        page.goto("/")
        page.wait_for_selector(f"html[lang={locale[:2]}] header.top nav a.inbox-link")
        assert page.evaluate(NAV_CUT) == [], locale


TORN_PUNCTUATION = """() => {
  // a word and the French spaced punctuation after it ("joueurs ;"), or an opening guillemet
  // and its word ("« Message"), on two lines
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    for (const m of n.data.matchAll(/\\S+[ \\u00a0\\u202f][;:»]|«[ \\u00a0\\u202f]\\S+/g)) {
      const r = document.createRange();
      r.setStart(n, m.index);
      r.setEnd(n, m.index + m[0].length);
      const rects = [...r.getClientRects()].filter((x) => x.width > 0);
      if (new Set(rects.map((x) => Math.round(x.top))).size > 1) out.push(m[0]);
    }
  }
  return out;
}"""


def test_french_never_starts_a_line_with_its_spaced_punctuation(new_context: Any) -> None:
    context = new_context(viewport=LAPTOP, locale="fr-FR")
    page = context.new_page()
    register(page, person_name("Odile"), "a long enough password")
    page.wait_for_selector("#create .field .help")
    assert page.evaluate(TORN_PUNCTUATION) == []
    page.set_viewport_size(PHONE)
    page.goto("/inbox")
    page.wait_for_selector("#inbox .card > p.muted")
    assert page.evaluate(TORN_PUNCTUATION) == []


IN_SIGHT = """(sel) => {
  const r = document.querySelector(sel).getBoundingClientRect();
  return r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth;
}"""


def test_the_challenge_dialog_shows_its_send_button_on_a_laptop(new_context: Any) -> None:
    # on a 1366×768 screen the dialog's fields ran below the fold, "Send challenge" with them
    anna = new_context(viewport=LAPTOP).new_page()
    ben = new_context(viewport=LAPTOP).new_page()
    a_name, b_name = person_name("Alla"), person_name("Boris")
    as_guest(anna, a_name)
    as_guest(ben, b_name)
    anna.click(f'#online .online-row[data-player="{b_name}"] .challenge-button')
    anna.wait_for_selector("#challenge-dialog[open]")
    assert anna.evaluate(IN_SIGHT, "#challenge-send")
    anna.select_option("#challenge-players", "4")  # a longer form yet: whom else to invite
    anna.wait_for_selector("#challenge-dialog .challenge-also")
    assert anna.evaluate(IN_SIGHT, "#challenge-send")
    anna.click("#challenge-send")
    ben.wait_for_selector(".challenge-toast.incoming")


CUT_SELECTS = """(root) => [...document.querySelectorAll(`${root} select`)].filter((s) => {
  // the chosen option's text, in the select's font, against the room left of its arrow
  const style = getComputedStyle(s);
  const span = document.createElement('span');
  span.style.font = style.font;
  span.style.whiteSpace = 'pre';
  span.textContent = s.options[s.selectedIndex].textContent;
  document.body.appendChild(span);
  const need = span.getBoundingClientRect().width + parseFloat(style.paddingLeft) + 20;
  span.remove();
  return need > s.clientWidth;
}).map((s) => s.options[s.selectedIndex].textContent)"""


def test_the_tournament_form_shows_its_choices_whole_in_russian(new_context: Any) -> None:
    # "С добором, 2 игро" and "Одиночные раунд": the form's five columns were too narrow
    page = new_context(viewport=LAPTOP, locale="ru-RU").new_page()
    register(page, person_name("Pavel"), "a long enough password")
    page.click("#tournament-create-open")
    page.wait_for_selector("#tournament-form select")
    assert page.evaluate(CUT_SELECTS, "#tournament-form") == []


WRAPPED = """(sel) => [...document.querySelectorAll(sel)].filter((e) => {
  const r = document.createRange();
  r.selectNodeContents(e);
  const rects = [...r.getClientRects()].filter((x) => x.width > 0);
  return new Set(rects.map((x) => Math.round(x.top))).size > 1;
}).map((e) => e.textContent)"""


def test_an_open_table_in_the_russian_lobby_keeps_its_seats_and_game_on_one_line(
    new_context: Any,
) -> None:
    # on a phone "2 свободных места" broke into a pill of three lines and "Без добора" into two,
    # squeezed by "Присоединиться"
    maker = new_context().new_page()
    maker.goto("/replay")
    maker.request.post("/api/guest", data={"name": person_name("Semyon")})
    seats = [{"kind": "human"}, {"kind": "open"}, {"kind": "open"}]
    seats.append({"kind": "bot", "bot": "greedy"})
    body = {"preset": "block", "options": {}, "seats": seats, "hints": False}
    answer = maker.request.post("/api/tables", data=body)
    assert answer.ok, answer.text()
    table = answer.json()["id"]
    page = new_context(viewport=PHONE, locale="ru-RU").new_page()
    page.goto("/")
    row = f'#tables .table-row[data-table="{table}"]'
    page.wait_for_selector(f"{row} .badge")
    assert page.evaluate(WRAPPED, f"{row} .badge, {row} .info strong, {row} .button") == []


SIDE = {"width": 844, "height": 390}

OUT_OF_CARD = """(sel) => {
  const card = document.querySelector(sel).getBoundingClientRect();
  return [...document.querySelectorAll(`${sel} select, ${sel} fieldset`)]
    .filter((e) => e.getBoundingClientRect().right > card.right + 1)
    .map((e) => e.id || e.tagName);
}"""

TEXT_UNDER_TILES = """() => {
  const r = document.createRange();
  r.selectNodeContents(document.getElementById('tagline'));
  const lines = [...r.getClientRects()];
  const tiles = [...document.querySelectorAll('#hero-art .tile')]
    .map((t) => t.getBoundingClientRect());
  const meets = (a, b) => a.left < b.right && b.left < a.right
    && a.top < b.bottom && b.top < a.bottom;
  return lines.filter((l) => tiles.some((t) => meets(l, t))).length;
}"""


def test_a_phone_on_its_side_keeps_the_new_table_form_in_its_card(new_context: Any) -> None:
    # at 844 px wide the seats' selects ran over the card's right edge
    page = new_context(viewport=SIDE).new_page()
    as_guest(page, person_name("Stepan"))
    page.wait_for_selector("#create #seat-1")
    assert page.evaluate(OUT_OF_CARD, "#create") == []


def test_the_lobby_greeting_never_runs_under_its_tiles(new_context: Any) -> None:
    # Russian's longer greeting ran under the dominoes drawn in the hero's corner
    for viewport in (SIDE, LAPTOP):
        page = new_context(viewport=viewport, locale="ru-RU").new_page()
        page.goto("/")
        page.wait_for_selector("#hero-art .tile")
        page.wait_for_function("document.getElementById('tagline').textContent.length > 0")
        assert page.evaluate(TEXT_UNDER_TILES) == 0, viewport


FIRST_LINE_GAP = """(sel) => {
  const card = document.querySelector(sel);
  let first = card.firstElementChild;
  while (first.firstElementChild && first.tagName === 'DIV') first = first.firstElementChild;
  const gap = first.getBoundingClientRect().top - card.getBoundingClientRect().top - card.clientTop;
  return Math.round(gap - parseFloat(getComputedStyle(card).paddingTop));
}"""


def test_a_card_that_opens_with_a_line_of_text_sets_it_at_its_top(
    new_context: Any, finished_game: str
) -> None:
    # the replay's, the leaderboard's and the game record's first cards opened with a gap twice
    # their padding: a paragraph's margin on top of it
    page = new_context(viewport=LAPTOP).new_page()
    for url, card in (
        ("/replay", "main .card"),
        ("/leaderboard/vog-goat", "#standings"),
        (f"/game/{finished_game}", "main .card.summary"),
    ):
        page.goto(url)
        page.wait_for_selector(f"{card} p")
        assert page.evaluate(FIRST_LINE_GAP, card) == 0, url


CUT_CHOICES = """(root) => [...document.querySelectorAll(`${root} select`)].flatMap((s) => {
  // every choice of every select, in the select's font, against the room left of its arrow
  const style = getComputedStyle(s);
  return [...s.options].filter((o) => {
    const span = document.createElement('span');
    span.style.font = style.font;
    span.style.whiteSpace = 'pre';
    span.textContent = o.textContent;
    document.body.appendChild(span);
    const need = span.getBoundingClientRect().width + parseFloat(style.paddingLeft) + 20;
    span.remove();
    return need > s.clientWidth;
  }).map((o) => `${s.id}: ${o.textContent}`);
})"""


def test_the_new_table_form_and_the_challenge_dialog_show_every_choice_whole(
    new_context: Any,
) -> None:
    # "1-1, затем тот, кто ходил последн…", "Le 1-1, puis le dernier à avo…" and "Winner takes
    # the rest (blocked: minus ow…)" were cut in their selects on a laptop and on a phone
    other = new_context().new_page()
    o_name = person_name("Olaf")
    as_guest(other, o_name)
    for locale in ("en-US", "de-DE", "fr-FR", "ru-RU"):
        page = new_context(viewport=PHONE, locale=locale).new_page()
        as_guest(page, person_name("Vera"))
        for preset in ("draw", "kozel"):  # the draw rule's select; Kozel's house rules
            page.select_option("#preset", preset)
            page.wait_for_selector("#create #draw_rule" if preset == "draw" else "#fish_charge")
            for viewport in (PHONE, LAPTOP, SIDE):
                page.set_viewport_size(viewport)
                assert page.evaluate(CUT_CHOICES, "#create") == [], (locale, preset, viewport)
        page.click(f'#online .online-row[data-player="{o_name}"] .challenge-button')
        page.wait_for_selector("#challenge-dialog[open] #challenge-scoring")
        for viewport in (PHONE, LAPTOP, SIDE):
            page.set_viewport_size(viewport)
            assert page.evaluate(CUT_CHOICES, "#challenge-dialog") == [], (locale, viewport)
        page.close()


@pytest.fixture
def own_site(browser: Any, tmp_path: Path) -> Iterator[tuple[Callable[..., Any], Path]]:
    """A server of the test's own, whose database the command line writes (an operator), and
    a maker of browser contexts on it, checked as ``new_context``'s."""
    site = serve(tmp_path, "--no-limits")
    base = next(site)
    made: list[tuple[Any, Requests]] = []
    errors: list[str] = []

    def make(**options: Any) -> Any:
        context = browser.new_context(base_url=base, reduced_motion="reduce", **options)
        requests = Requests()
        requests.watch(context)
        context.on("page", lambda page: watch_errors(page, errors))
        made.append((context, requests))
        return context

    try:
        yield make, tmp_path / "browser.sqlite3"
        for context, requests in made:
            context.close()
            assert requests.outside(base) == [], "a page loaded something from outside"
        assert errors == [], "a page raised an error"
    finally:
        site.close()


def test_a_phone_shows_every_link_of_the_bar_to_an_operator(
    own_site: tuple[Callable[..., Any], Path],
) -> None:
    # in Russian the operator's "Жалобы" pushed "Сообщения" off the right edge: the bar's
    # links take a second line on a phone, for a guest, an account and an operator alike
    new_context, db = own_site
    guest = new_context(viewport=PHONE)
    as_guest(guest.new_page(), person_name("Gleb"))
    account = new_context(viewport=PHONE)
    register(account.new_page(), person_name("Alisa"), "a long enough password")
    operator = new_context(viewport=PHONE)
    o_name = person_name("Oksana")
    register(operator.new_page(), o_name, "a long enough password")
    account_command(db, "operator", o_name)
    for who, made, link in (
        ("guest", guest, "a.rules-link"),
        ("account", account, "a.inbox-link"),
        ("operator", operator, "a.operator-link"),
    ):
        state = made.storage_state()
        for locale in ("ru-RU", "de-DE", "fr-FR", "en-US"):
            page = new_context(viewport=PHONE, locale=locale, storage_state=state).new_page()
            page.goto("/")
            page.wait_for_selector(f"html[lang={locale[:2]}] header.top nav {link}")
            if who != "guest":
                page.wait_for_selector("header.top nav a.inbox-link")
            for width in (440, 390, 360):
                page.set_viewport_size({"width": width, "height": 800})
                assert page.evaluate(NAV_CUT) == [], (who, locale, width)
            page.close()
