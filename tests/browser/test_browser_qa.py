"""A player's-eye pass over the table: what a demanding player saw and the table now does.

The round's log never shows its top line cut across; the score pad's header breaks no name
in the middle of a word, even with four players and bots' long names; the round's end shows
every name whole; and a keyboard player finds "Continue" focused when a round ends. A second
pass: less motion holds back no size a script sets; a laptop shows a Kozel round's whole
explanation and the scores without scrolling the card; a phone on its side keeps our name in
the bar whole (or "…" with a tooltip); the plates beside the felt never leave a bot's "·"
dangling at a line's end.
"""

from __future__ import annotations

from typing import Any

import pytest

from .browser_helpers import hidden_parts, play_until

LAPTOP = {"width": 1366, "height": 768}


def open_table(
    context: Any,
    preset: str,
    players: int,
    bot: str = "greedy",
    name: str = "Marguerite",
    **options: Any,
) -> Any:
    """A table of ``name``'s (seat 0) with bots of level ``bot`` in the other seats, through
    the API; the page that holds our seat."""
    page = context.new_page()
    page.goto("/replay")
    page.request.post("/api/guest", data={"name": name})
    seats = [{"kind": "human"}] + [{"kind": "bot", "bot": bot}] * (players - 1)
    body = {"preset": preset, "options": options, "seats": seats, "hints": False}
    answer = page.request.post("/api/tables", data=body)
    assert answer.ok, answer.text()
    table = answer.json()
    keep = "([id, seat, token]) =>"
    keep += " localStorage.setItem(`ds_token_${id}`, JSON.stringify({seat, token}))"
    page.evaluate(keep, [table["id"], table["seat"], table["token"]])
    page.goto(f"/table/{table['id']}")
    page.wait_for_selector("#hand .hand-tile")
    return page


LOG_TOP_CUT = """async () => {
  // as painted: after the next frame, when the page has answered a change of the list's size
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  const log = document.getElementById('log');
  if (log.scrollHeight <= log.clientHeight) return null;  // nothing scrolled away yet
  const top = log.getBoundingClientRect().top + log.clientTop;
  const cut = [...log.children].find((li) => {
    const r = li.getBoundingClientRect();
    return r.top < top - 1 && r.bottom > top + 1;  // not a pixel's rounding
  });
  return cut ? cut.textContent : '';
}"""


def test_the_round_log_never_shows_its_top_line_cut(new_context: Any) -> None:
    page = open_table(new_context(viewport=LAPTOP), "kozel", 4, target=100)
    seen: list[str] = []  # on each of our turns with a scrolled log: the line cut at its top

    def done() -> bool:
        if page.locator("#hand.my-turn .hand-tile.playable").count():
            cut = page.evaluate(LOG_TOP_CUT)
            if cut is not None:
                seen.append(cut)
        return len(seen) >= 5 or page.locator("#game-end").count() > 0

    play_until(page, done, circles=False)
    assert seen, "the log never scrolled"
    assert [cut for cut in seen if cut] == []


BROKEN_WORDS = """() => {
  const out = [];
  for (const th of document.querySelectorAll('#pad th.pad-side')) {
    const walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      for (const m of n.data.matchAll(/\\S+/g)) {
        const r = document.createRange();
        r.setStart(n, m.index);
        r.setEnd(n, m.index + m[0].length);
        if (r.getClientRects().length > 1) out.push(m[0]);  // the word on two lines
      }
    }
  }
  return out;
}"""

CUT_NAMES = """(sel) => [...document.querySelectorAll(sel)]
  .filter((e) => e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1)
  .map((e) => e.textContent)"""


def test_the_score_pad_of_four_players_breaks_no_name_in_a_word(new_context: Any) -> None:
    page = open_table(new_context(viewport=LAPTOP), "block", 4)
    page.wait_for_selector("#pad th.pad-side")
    assert page.locator("#pad th.pad-side").count() == 4
    assert page.evaluate(BROKEN_WORDS) == []
    assert page.evaluate(CUT_NAMES, "#pad th.pad-side, #pad .pad-name") == []
    assert "Bot 1 · greedy" in page.locator("#pad th.pad-side").nth(1).inner_text()


def test_the_round_end_shows_every_name_whole(new_context: Any) -> None:
    # Russian names a random bot "Bot 1 · случайный": a long name, never cut to "…".
    context = new_context(viewport=LAPTOP, locale="ru-RU")
    page = open_table(context, "block", 2, bot="random")
    play_until(page, lambda: page.locator("#round-end, #game-end").count() > 0, circles=False)
    page.wait_for_selector(".hand-row .who")
    assert "Bot 1 · случайный" in page.locator(".hand-row .who").all_inner_texts()
    assert page.evaluate(CUT_NAMES, ".hand-row .who") == []


def _press_a_move(page: Any) -> None:
    """Our turn by keyboard alone: the arrows to a playable tile, Enter, and an end if asked."""
    in_hand = "document.activeElement.classList.contains('hand-tile')"
    if not page.evaluate(in_hand):
        page.keyboard.press("ArrowRight")  # into the hand
    for _ in range(10):
        if page.evaluate("document.activeElement.classList.contains('playable')"):
            break
        page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    if page.locator("#board .target").count():  # both ends: the left one, else where it goes
        page.keyboard.press("ArrowLeft")
        if page.locator("#board .target").count():
            page.keyboard.press("Enter")


def test_a_keyboard_player_finds_continue_focused_at_the_round_end(new_context: Any) -> None:
    page = open_table(new_context(viewport=LAPTOP), "block", 2)
    for _ in range(200):
        if page.locator("#round-end, #game-end").count():
            break
        if page.locator("#hand.my-turn .hand-tile.playable").count():
            _press_a_move(page)
        page.wait_for_timeout(80)
    card = page.locator("#round-end, #game-end")
    card.wait_for()
    focused = "document.activeElement.closest('#overlay .actions') ? document.activeElement.id"
    focused += " || document.activeElement.textContent : null"
    if page.locator("#round-end").count():
        assert page.evaluate(focused) == "continue"
        page.keyboard.press("Enter")  # the keyboard goes on to the next round
        # waiting for the others, or (the bots quick) the next round already: the card gone
        page.wait_for_selector("#continue:disabled, #overlay.hidden", state="attached")
    else:  # the game ended with its first round: the card's first button
        assert page.evaluate(focused)


SIZE_AT_ONCE = """() => {
  // a size set from a script, read back at once: what the page lays out before the next frame
  const off = {};
  for (const sel of ['#log .log-room', '#status', '#my-name']) {
    const e = document.querySelector(sel);
    const before = e.style.height;
    const from = Math.round(e.getBoundingClientRect().height);
    e.style.height = `${from}px`;  // a length, not "auto": a change from it can be animated
    e.getBoundingClientRect();
    e.style.height = `${from + 17}px`;
    off[sel] = Math.round(e.getBoundingClientRect().height) - from - 17;
    e.style.height = before;
  }
  return off;
}"""


def test_less_motion_lays_out_a_size_from_a_script_at_once(new_context: Any) -> None:
    # The reader asks for less motion (new_context's default): motion ends at once, and an
    # element that the CSS does not animate is not held back a frame, as the log's room was.
    context = new_context(viewport=LAPTOP, reduced_motion="reduce")
    page = open_table(context, "kozel", 4, target=100)
    page.wait_for_selector("#log .log-room", state="attached")
    assert page.evaluate("matchMedia('(prefers-reduced-motion: reduce)').matches")
    assert page.evaluate(SIZE_AT_ONCE) == {"#log .log-room": 0, "#status": 0, "#my-name": 0}
    # and what the CSS does animate still ends at once: a tile lifted from the hand
    lift = "getComputedStyle(document.querySelector('#hand .hand-tile')).transitionDuration"
    assert {float(s.strip().rstrip("s")) for s in page.evaluate(lift).split(",")} == {0.001}


CARD_FITS = """() => {
  const card = document.querySelector('#round-end, #game-end');
  const body = card.querySelector('.card-body');
  const r = card.getBoundingClientRect();
  return {
    scrolls: body.scrollHeight > body.clientHeight + 1,
    inside: r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth,
  };
}"""


def test_a_laptop_shows_the_whole_round_end_without_scrolling(new_context: Any) -> None:
    # 1366 × 768, Kozel's four players: the hands, every line of how each side scored and the
    # score pad's totals, all in sight at once: the card does not scroll.
    page = open_table(new_context(viewport=LAPTOP), "kozel", 4, target=100)
    seen: list[dict[str, bool]] = []

    def round_end() -> None:
        if len(seen) < 2:
            page.wait_for_selector("#round-end .side-part")
            seen.append(page.evaluate(CARD_FITS))
            parts = ["#round-end .explain-head", "#round-end .side-part li:last-child"]
            parts += ["#round-end .result-scores tfoot", "#round-end #continue"]
            assert hidden_parts(page, parts) == []

    def ended() -> bool:
        return len(seen) >= 2 or page.locator("#game-end").count() > 0

    play_until(page, ended, circles=False, at_round_end=round_end)
    if page.locator("#game-end").count():
        seen.append(page.evaluate(CARD_FITS))
        assert hidden_parts(page, ["#game-end .result-scores tfoot", "#to-record"]) == []
    assert seen and all(s == {"scrolls": False, "inside": True} for s in seen), seen


BAR_LINES = """() => [...document.querySelectorAll('#my-name > *')].map((part) => {
  const range = document.createRange();
  range.selectNodeContents(part);
  const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
  const cut = part.scrollWidth > part.clientWidth + 1;
  return { text: part.textContent, lines: lines.size, cut, title: part.title };
})"""


def test_a_phone_on_its_side_keeps_our_name_whole_at_the_game_end(new_context: Any) -> None:
    # 844 × 390, four players each with a score in the bar beside a long, hyphenated name:
    # each part of the bar on one line, the name never broken; if there is no room for it
    # whole, "…" and the whole name in its tooltip.
    context = new_context(viewport={"width": 844, "height": 390}, is_mobile=True, has_touch=True)
    page = open_table(context, "block", 4, name="Marie-Testerbird", target=20)
    play_until(page, lambda: page.locator("#game-end").count() > 0, circles=False)
    parts = page.evaluate(BAR_LINES)
    assert parts[0]["text"] == "Marie-Testerbird", parts
    assert parts[-1]["text"].count(":") == 3, parts  # the four players' scores
    assert [p for p in parts if p["lines"] != 1] == []
    assert [p for p in parts if p["cut"] and p["title"] != p["text"]] == []


PLATE_LINES = """() => [...document.querySelectorAll('.seat.pos-left .name, .seat.pos-right .name')]
  .map((name) => {
    // the plate's name as it reads: its characters grouped by the line they sit on
    const lines = new Map();
    const walker = document.createTreeWalker(name, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      for (let i = 0; i < n.data.length; i++) {
        const r = document.createRange();
        r.setStart(n, i);
        r.setEnd(n, i + 1);
        const rect = r.getClientRects()[0];
        if (!rect || !rect.width) continue;  // not drawn
        const top = Math.round(rect.top);
        lines.set(top, (lines.get(top) || '') + n.data[i]);
      }
    }
    return [...lines.entries()].sort((a, b) => a[0] - b[0]).map(([, t]) => t.trim());
  })"""


@pytest.mark.parametrize(
    ("locale", "bot", "level"), [("en-US", "greedy", "greedy"), ("ru-RU", "random", "случайный")]
)
def test_the_seat_plates_beside_the_felt_read_a_bots_name_whole(
    new_context: Any, locale: str, bot: str, level: str
) -> None:
    # A laptop's plates left and right: "Bot 1 · greedy" on a line, or (Russian's longer
    # "случайный") "Bot 1" over "случайный", never "Bot 1 ·" over the level.
    page = open_table(new_context(viewport=LAPTOP, locale=locale), "kozel", 4, bot=bot)
    page.wait_for_selector(".seat.pos-right .name")
    plates = page.evaluate(PLATE_LINES)
    whole = [[f"Bot {n} · {level}"] for n in (1, 3)]
    split = [[f"Bot {n}", level] for n in (1, 3)]
    assert plates in (whole, split), plates
    if locale == "en-US":  # the room there is for it
        assert plates == whole
