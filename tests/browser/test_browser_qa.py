"""A player's-eye pass over the table: what a demanding player saw and the table now does.

The round's log never shows its top line cut across; the score pad's header breaks no name
in the middle of a word, even with four players and bots' long names; the round's end shows
every name whole; and a keyboard player finds "Continue" focused when a round ends.
"""

from __future__ import annotations

from typing import Any

from .browser_helpers import play_until

LAPTOP = {"width": 1366, "height": 768}


def open_table(context: Any, preset: str, players: int, bot: str = "greedy", **options: Any) -> Any:
    """A table of ours (seat 0) with bots of level ``bot`` in the other seats, through the
    API; the page that holds our seat."""
    page = context.new_page()
    page.goto("/replay")
    page.request.post("/api/guest", data={"name": "Marguerite"})
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
        page.wait_for_selector("#continue:disabled, #overlay.hidden")
    else:  # the game ended with its first round: the card's first button
        assert page.evaluate(focused)
