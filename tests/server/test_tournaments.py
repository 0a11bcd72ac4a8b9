"""Tournaments' pure rules (``server/tournaments.py``): scoring with streaks, the standings'
order, who sits down with whom, who was absent from a game, the table a group gets, its
default name. The server's side:
``test_tournaments_server.py``."""

from __future__ import annotations

import json

import pytest

from doublesix.ratings import Outcome
from doublesix.rules.ruleset import NAMES, PRESETS
from doublesix.server.app import WEB
from doublesix.server.errors import CommandError
from doublesix.server.seeks import FILL_SECONDS
from doublesix.server.store import Guest
from doublesix.server.tournaments import (
    Free,
    Score,
    Status,
    TournamentIn,
    absent,
    groups,
    new_tournament,
    scored,
    standing_key,
    table_of,
)

NOW = 10_000.0
ANNA = Guest("a", "Anna", 0.0, account=True)
W, D, L = Outcome.WIN, Outcome.DRAW, Outcome.LOSS


def points(outcomes: list[Outcome]) -> tuple[list[int], Score]:
    tally, got = Score(), []
    for outcome in outcomes:
        tally, scored_now = scored(tally, outcome)
        got.append(scored_now)
    return got, tally


def test_two_wins_in_a_row_set_a_player_on_fire_until_a_game_is_not_won() -> None:
    got, tally = points([W, W, W, W, L, W])
    assert got == [2, 2, 4, 4, 0, 2]
    assert tally == Score(score=14, games=6, wins=5, streak=1) and not tally.fire
    got, tally = points([W, W, D, W, W, W])
    assert got == [2, 2, 1, 2, 2, 4]  # a draw puts the fire out too
    assert tally.streak == 3 and tally.fire
    assert points([D, D, L]) == ([1, 1, 0], Score(2, 3, 0, 0))


def test_the_standings_order_score_then_wins_then_fewer_games_then_who_joined_first() -> None:
    entrants = {
        "fewer games": (Score(6, 3, 2, 0), 5.0),
        "more wins": (Score(6, 4, 3, 0), 9.0),
        "most points": (Score(8, 9, 2, 0), 9.0),
        "joined first": (Score(6, 4, 2, 0), 1.0),
        "joined later": (Score(6, 4, 2, 0), 2.0),
    }
    order = sorted(entrants, key=lambda n: standing_key(*entrants[n], n))
    assert order == ["most points", "more wins", "fewer games", "joined first", "joined later"]


def free(name: str, since: float = NOW, last: str = "") -> Free:
    return Free(name, name.upper(), since, frozenset(last))


def names(made: list[list[Free]]) -> list[str]:
    return ["".join(f.player for f in group) for group in made]


def test_groups_are_neighbours_in_the_standings() -> None:
    players = [free(n) for n in "abcdef"]
    assert names(groups(players, 2, NOW)) == ["ab", "cd", "ef"]
    assert names(groups(players, 4, NOW)) == ["abcd"]  # e and f wait (not a minute yet)
    assert names(groups(players, 3, NOW)) == ["abc", "def"]


def test_not_the_same_opponent_twice_running_when_another_is_free() -> None:
    a, b, c = free("a", last="ab"), free("b", last="ab"), free("c")
    assert names(groups([a, b, c], 2, NOW)) == ["ac"]  # b waits for another
    assert names(groups([a, b], 2, NOW)) == ["ab"]  # nobody else: they play again
    d = free("d", last="cd")
    c = free("c", last="cd")
    assert names(groups([a, b, c, d], 2, NOW)) == ["ac", "bd"]


def test_players_of_whom_one_blocks_the_other_never_sit_together() -> None:
    players = [free(n) for n in "abcd"]
    assert names(groups(players, 2, NOW, {("b", "a")})) == ["ac", "bd"]
    assert groups(players[:2], 2, NOW, {("a", "b")}) == []


def test_bots_fill_a_table_of_three_or_four_once_two_have_waited_a_minute() -> None:
    early = NOW - FILL_SECONDS
    assert groups([free("a", early), free("b", early + 1)], 4, NOW) == []
    assert names(groups([free("a", early), free("b", early)], 4, NOW)) == ["ab"]
    waited = [free(n, early) for n in "abc"]
    assert names(groups(waited, 4, NOW)) == ["abc"]
    assert names(groups(waited, 3, NOW)) == ["abc"]  # enough: no bot
    assert groups([free("a", early)], 4, NOW) == []  # one alone never plays bots here
    assert groups([free("a", early), free("b", early)], 4, NOW, {("a", "b")}) == []


def test_nothing_when_fewer_than_two_are_free() -> None:
    assert groups([], 2, NOW) == []
    assert groups([free("a", NOW - 600)], 2, NOW) == []


def body(**changed: object) -> TournamentIn:
    return TournamentIn.model_validate({"preset": "draw", "starts_in": 0, "minutes": 30} | changed)


def test_a_tournament_s_table_seats_its_group_and_bots_in_random_order() -> None:
    tournament = new_tournament(body(preset="kozel"), ANNA, NOW)
    assert tournament.name == "Kozel arena" and tournament.players == 4
    assert tournament.options == {"target": "round"} and tournament.timer == 60
    assert tournament.status == Status.RUNNING and tournament.ends_at == NOW + 1800
    table = table_of(tournament, [free("a"), free("b")], NOW, seed=3)
    assert table.tournament == tournament.id and table.tournament_name == "Kozel arena"
    humans = sorted(str(s.player) for s in table.seats if s.kind.value == "human")
    assert humans == ["a", "b"] and all(s.account for s in table.seats if s.player)
    assert sorted(str(s.bot) for s in table.seats if s.kind.value == "bot") == ["medium"] * 2
    assert [s.number for s in table.seats] == [0, 1, 2, 3] and table.timer == 60
    assert table.ruleset["target"] == "round"
    upcoming = new_tournament(body(starts_in=10, minutes=5, name="  Cup  of  Tea "), ANNA, NOW)
    assert (upcoming.status, upcoming.starts_at, upcoming.ends_at) == (
        Status.UPCOMING,
        NOW + 600,
        NOW + 900,
    )
    assert upcoming.name == "Cup of Tea"


def test_whole_games_are_played_to_the_target_chosen() -> None:
    """A target as a table's (``lobby.new_table``: 1 to 10,000, or ``"round"``), kept and
    played at every table of the tournament."""
    for target in (50, 150, 1, 10_000):
        tournament = new_tournament(body(options={"target": target}), ANNA, NOW)
        assert tournament.options == {"target": target}
        assert table_of(tournament, [free("a"), free("b")], NOW, seed=3).ruleset["target"] == target


@pytest.mark.parametrize(
    ("changed", "field"),
    [
        ({"preset": "chess"}, "preset"),
        ({"players": 3, "preset": "kozel"}, "players"),
        ({"players": 5}, "players"),
        ({"options": {"target": 0}}, "options.target"),
        ({"options": {"target": "twice"}}, "options.target"),
        ({"options": {"target": 10_001}}, "options.target"),
        ({"options": {"target": 1.5}}, "options.target"),
        ({"options": {"target": True}}, "options.target"),
        ({"options": {"target": "100"}}, "options.target"),
        ({"options": {"tiles": 3}}, "options.tiles"),
        ({"timer": 1}, "timer"),
        ({"timer": 7200}, "timer"),
        ({"minutes": 4}, "minutes"),
        ({"minutes": 241}, "minutes"),
        ({"starts_in": -1}, "starts_in"),
        ({"starts_in": 1441}, "starts_in"),
        ({"name": "x" * 41}, "name"),
        ({"name": "   "}, "name"),
        ({"name": "bell\x07"}, "name"),
    ],
)
def test_a_bad_tournament_is_refused_naming_its_field(
    changed: dict[str, object], field: str
) -> None:
    with pytest.raises(CommandError) as refused:
        new_tournament(body(**changed), ANNA, NOW)
    assert (refused.value.field, refused.value.status) == (field, 422)


def test_a_seat_is_absent_when_the_server_made_every_play_of_it() -> None:
    """A seat's plays as its log keeps them: ``(seat, stand)``, ``stand`` None for its
    player's own play."""
    assert absent([(0, "timeout"), (1, None), (0, "away"), (1, "timeout")]) == {0}
    assert absent([(0, None), (0, "timeout"), (1, None)]) == set()  # one of its own is enough
    assert absent([(0, None)]) == set()  # seat 1 never laid a tile: not absent
    assert absent([]) == set()


def test_a_tournament_is_named_after_its_game_unless_named() -> None:
    assert new_tournament(body(preset="vog-talon"), ANNA, NOW).name == "VOG with boneyard arena"
    assert new_tournament(body(name=" Friday\tcup "), ANNA, NOW).name == "Friday cup"
    catalog = json.loads((WEB / "i18n" / "en.json").read_text())
    assert {p: catalog[f"preset.{p}"] for p in PRESETS} == NAMES  # the pages' English names
