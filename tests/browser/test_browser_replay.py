"""Issue 4: a finished game's page and the replay viewer, stepping event by event.

The game page shows the result, the JSON download and the readable move
list; its viewer steps forward and back and jumps to a round. The replay
page takes an uploaded record, which the server checks, and shows it the
same way, with its review; a record with an illegal event is refused with the
server's reason.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import httpx


def tiles_on_board(page: Any) -> int:
    return int(page.locator("#viewer .board .line-tile").count())


def test_game_page_and_viewer_step_through_a_finished_game(
    new_context: Any, server: str, finished_game: str
) -> None:
    record = httpx.get(f"{server}/api/games/{finished_game}/record").json()
    rounds = record["rounds"]
    page = new_context().new_page()
    page.goto(f"/game/{finished_game}")
    page.wait_for_selector(".move-list .move-round")
    # The move list: one line per event, every round.
    assert page.locator(".move-round").count() == len(rounds)
    assert page.locator(".move-round").first.locator(".events li").count() == len(
        rounds[0]["events"]
    )
    assert "win the game" in page.locator("#summary").inner_text()
    names = page.locator("#game-players")  # bots and guests: names without a page
    assert names.inner_text().startswith("Players: ") and names.locator("a").count() == 0
    link = page.locator("#download-json")
    assert link.get_attribute("href") == f"/api/games/{finished_game}/record"
    with page.expect_download() as download:
        link.click()
    assert json.loads(Path(download.value.path()).read_text())["format"] == "doublesix/1"

    # The viewer: the deal, then one event per step.
    where = page.locator("#replay-where")
    said = page.locator("#replay-event")
    assert tiles_on_board(page) == 0
    assert page.locator("#replay-back").is_disabled()
    first = rounds[0]["events"][0]
    page.click("#replay-forward")
    assert tiles_on_board(page) == 1
    assert first["play"] in said.inner_text()
    plays = 1
    for event in rounds[0]["events"][1:8]:
        page.click("#replay-forward")
        plays += "play" in event
        assert tiles_on_board(page) == plays
    assert where.inner_text() == f"Round 1 · move 8 of {len(rounds[0]['events'])}"
    page.click("#replay-back")
    page.click("#replay-back")
    assert where.inner_text().startswith("Round 1 · move 6 ")
    page.keyboard.press("ArrowRight")  # the keyboard steps too
    assert where.inner_text().startswith("Round 1 · move 7 ")
    # Every hand is face up: the seats hold the tiles not yet played.
    hands = page.locator("#viewer .seat .seat-tiles svg").count()
    assert hands + tiles_on_board(page) == dealt(rounds[0]) + drawn_before(rounds[0], 7)
    # To the end of the first round: its result shows.
    page.select_option("#replay-round", str(len(rounds) - 1))
    assert where.inner_text().startswith(f"Round {len(rounds)} · move 0 ")
    page.click("#replay-end")
    assert page.locator("#replay-forward").is_disabled()
    assert "win the game" in page.locator("#viewer .replay-below").inner_text()
    page.click("#replay-start")
    assert where.inner_text().startswith("Round 1 · move 0 ")


def test_game_page_reviews_a_players_moves(
    new_context: Any, server: str, finished_game: str
) -> None:
    """The post-game review: one row per move of the chosen player, mistakes marked,
    and a row shows the position before that move in the viewer."""
    page = new_context().new_page()
    page.goto(f"/game/{finished_game}")
    page.wait_for_selector("#review-start")
    page.select_option("#review-seat", "2")
    page.click("#review-start")
    rows = page.locator(".review-table tbody tr")
    rows.first.wait_for(timeout=60000)
    found = httpx.get(
        f"{server}/api/games/{finished_game}/review", params={"seat": 2}, timeout=60
    ).json()
    assert rows.count() == len(found["moves"]) > 0
    status = page.locator("#review-status").inner_text()
    choices = sum(1 for m in found["moves"] if m["choices"] > 1)
    moves = "move" if choices == 1 else "moves"  # the summary speaks English: 1 move
    assert f"{choices} {moves} with a choice, {found['differ']} differ" in status
    assert (
        page.locator(".review-table tr.differs, .review-table tr.blunder").count()
        == (found["differ"])
    )
    for i, move in enumerate(found["moves"]):
        text = rows.nth(i).inner_text()
        assert move["played"]["tile"] in text
        if move["choices"] < 2:
            assert "forced" in text
        elif move["loss"] > 0:
            assert move["best"]["tile"] in text
        else:
            assert "the same" in text
    last = found["moves"][-1]
    rows.nth(len(found["moves"]) - 1).click()
    where = page.locator("#replay-where").inner_text()
    assert where.startswith(f"Round {last['round']} · move {last['event']} of")
    # The position before the reviewed move: the reviewed player is the one to move.
    assert page.locator("#viewer .seat.turn").get_attribute("data-seat") == "2"


def dealt(round_: dict[str, Any]) -> int:
    return sum(len(h) for h in round_["deal"]["hands"])


def drawn_before(round_: dict[str, Any], n: int) -> int:
    return sum("draw" in e for e in round_["events"][:n])


def test_replay_page_checks_an_uploaded_record(
    new_context: Any, server: str, finished_game: str, tmp_path: Path
) -> None:
    record = httpx.get(f"{server}/api/games/{finished_game}/record").json()
    good = tmp_path / "game.json"
    good.write_text(json.dumps(record))
    page = new_context().new_page()
    page.goto("/replay")
    page.set_input_files("#record-file", str(good))
    page.wait_for_selector("#viewer .board")
    assert "replayed and checked" in page.locator("#upload-result").inner_text()
    page.click("#replay-forward")
    assert page.locator("#viewer .board .line-tile").count() == 1
    assert page.locator(".move-round").count() == len(record["rounds"])
    # The uploaded game has its post-game review too.
    page.select_option("#review-seat", "1")
    page.click("#review-start")
    rows = page.locator(".review-table tbody tr")
    rows.first.wait_for(timeout=60000)
    found = httpx.post(
        f"{server}/api/records/review", params={"seat": 1}, json=record, timeout=60
    ).json()
    assert rows.count() == len(found["moves"]) > 0
    assert found["differ"] == page.locator(".review-table tr.differs, tr.blunder").count()

    # An illegal event: the second play of round 1 becomes a tile nobody can lay there.
    bad = copy.deepcopy(record)
    events = bad["rounds"][0]["events"]
    second = next(i for i, e in enumerate(events) if "play" in e and i > 0)
    events[second] = {"seat": events[second]["seat"], "play": "0-0", "end": "left"}
    if record["rounds"][0]["events"][0].get("play") == "0-0":
        events[second]["play"] = "6-6"
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(bad))
    page.set_input_files("#record-file", str(broken))
    page.wait_for_selector("#upload-result.error")
    message = page.locator("#upload-result").inner_text()
    assert message.startswith("The record was refused:")
    assert "R" in message.split(":", 1)[1]  # the server names the rule
    assert page.locator("#viewer").is_hidden() and page.locator("#review").is_hidden()
