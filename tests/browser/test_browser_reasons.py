"""Issue 14: the browser displays the engine's reasons, it never works them out.

A Kozel game whose first two rounds are eggs (tests/golden/r35) gets a third
round, played by greedy bots on a deal chosen so that a losing hand is the
lone 0-0: the round's explanation shows that hand counting 25 on its own row,
the eggs of the earlier rounds on theirs, and the points written down — not
one sum with everything folded in; and the round says who opened and why.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from doublesix.bots import make_bot
from doublesix.rules import record
from doublesix.rules.deal import RecordedDealer, deal_from
from doublesix.rules.view import seat_view

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


def kozel_eggs_then_a_lone_zero_zero() -> dict[str, Any]:
    """The r35 eggs rounds, then the first seeded deal whose round ends with a lone 0-0
    in a losing hand (greedy bots; a few tries at most)."""
    golden = json.loads((GOLDEN / "r35_kozel_eggs_twice_then_charged.json").read_text())
    running = {"finished": False, "losers": [], "winners": [], "dry_win": False, "scores": [0, 0]}
    eggs = dict(golden, rounds=golden["rounds"][:2], result=running)
    for seed in range(200):
        game = record.replay(eggs)
        order = list(range(28))
        random.Random(seed).shuffle(order)
        game.dealer = RecordedDealer([deal_from(game.ruleset, order)])
        game.next_round()
        bots = [make_bot("greedy", seed * 4 + s) for s in range(4)]
        while game.round.ending is None:
            seat = game.turn
            assert seat is not None
            game.play(bots[seat].choose(seat_view(game, seat)), seat)
        result = game.rounds[-1].result
        assert result is not None
        lone = any(h.lone == "lone_zero_zero" for b in result.breakdown for h in b.hands)
        if result.eggs_used and lone and result.kind == "domino":
            names = ["Anna", "Bot 2", "Carla", "Bot 4"]
            return record.game_record(game, names, [None, "expert", None, "greedy"])
    raise AssertionError("no deal of 200 left a lone 0-0 after the eggs")


def test_kozel_round_shows_lone_zero_zero_and_eggs_each_on_its_row(
    new_context: Any, tmp_path: Path
) -> None:
    game = kozel_eggs_then_a_lone_zero_zero()
    result = game["rounds"][2]["result"]
    loser = next(b for b in result["breakdown"] if b["points"])
    lone = next(h for h in loser["hands"] if h["lone"] == "lone_zero_zero")
    path = tmp_path / "kozel.json"
    path.write_text(json.dumps(game))
    page = new_context().new_page()
    page.goto("/replay")
    page.set_input_files("#record-file", str(path))
    page.wait_for_selector("#viewer .board")
    page.select_option("#replay-round", "2")
    page.click("#replay-end")
    part = page.locator(f"#viewer .replay-below .side-part[data-side='{loser['side']}']")
    row = part.locator(f".hand-row[data-seat='{lone['seat']}']")
    assert row.locator(".value").inner_text() == "25"  # not 0: the lone 0-0 counts 25 (R33)
    assert row.locator(".tag").inner_text() == "the lone 0-0 counts 25"
    assert part.locator(".row-base").inner_text() == f"Its own hands: {loser['base']} (R33)"
    assert part.locator(".row-eggs").inner_text() == f"Eggs of earlier rounds: +{loser['eggs']}"
    assert part.locator(".row-points").inner_text() == f"Written down: {loser['points']}"
    assert loser["points"] == loser["base"] + loser["eggs"] > loser["eggs"] > 0
    assert part.locator("h4 .side-points").inner_text() == str(loser["points"])
    # Who opened the round, and by which rule.
    opening = page.locator(".move-round[data-round='3'] .opening").inner_text()
    assert opening.endswith("(R18)") and "opens" in opening
