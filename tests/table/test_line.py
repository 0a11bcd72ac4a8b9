"""The hand-laid line (R39) at a table: a play's turn and a straightening, as commands.

The deal (``vog-block``, 2 players, seed 7): seat 1 opens; with every tile that may
turn laid to the left, seat 0 may straighten the line at its third turn.
"""

from __future__ import annotations

import copy
import json

import pytest

from doublesix.rules.moves import Straighten, Turn
from doublesix.rules.record import replay
from doublesix.rules.text import record_lines
from doublesix.table import commands
from doublesix.table.config import TableConfig
from doublesix.table.errors import Refusal, TableError
from doublesix.table.frames import entry_events
from doublesix.table.model import EventKind, Seat, SeatKind, Stand, TableStatus
from doublesix.table.records import record_of
from doublesix.table.state import Outcome, TableState

from .test_state import BEN, LEVELS, TOKEN, anna, frozen, mover, table


def manual(config: TableConfig | None = None, timer: float | None = None) -> TableState:
    """Anna and Ben at a started ``vog-block`` table (the line laid by hand)."""
    state = TableState(
        table(anna(), Seat(1, SeatKind.OPEN), name="vog-block", timer=timer),
        config or TableConfig(resume_events=100_000),
        LEVELS,
        0.0,
    )
    state.apply(commands.Join(BEN, TOKEN), 1.0)
    assert state.ruleset.line == "manual" and state.table.status == TableStatus.PLAYING
    return state


def lay(state: TableState, now: float = 2.0) -> None:
    """The seat to move lays its first legal tile, turned left where it may turn."""
    seat = mover(state)
    view = state.seat_view(seat)
    turn = Turn.LEFT if view.may_turn[0] else None
    state.apply(commands.Play(seat, view.legal_moves[0], state.table.version, turn), now)


def until_straightening(state: TableState) -> tuple[int, Straighten]:
    """Lay tiles until the seat to move may straighten; that seat and its first one."""
    for _ in range(20):
        seat = mover(state)
        offered = state.seat_view(seat).straightenings
        if offered:
            at, turn = offered[0]
            return seat, Straighten(seat, at, turn)
        lay(state)
    raise AssertionError("no straightening in this deal")


def straighten(
    state: TableState, seat: int | None, s: Straighten, version: int | None = None
) -> Outcome:
    """``seat`` sends straightening ``s``, having seen ``version`` (None: the latest)."""
    v = state.table.version if version is None else version
    return state.apply(commands.Straighten(seat, s.at, s.turn, v), 5.0)


def test_R39_a_play_turns_and_its_entry_view_and_record_say_so() -> None:
    state = manual()
    lay(state)  # the first tile: no turn
    seat = mover(state)
    view = state.seat_view(seat)
    k = view.may_turn.index(True)
    move = view.legal_moves[k]
    out = state.apply(commands.Play(seat, move, state.table.version, Turn.RIGHT), 3.0)
    [entry] = out.entries
    assert entry.kind == EventKind.PLAY and entry.data["turn"] == "right"
    played = {"seat": seat, "play": str(move.tile), "end": move.end, "turn": "right"}
    assert entry_events(entry, None)[0] == played
    assert state.view(None)["events"][-len(entry.data["events"]) :][0] == played
    record = record_of(state.table, state.recent)
    assert record is not None
    assert record["rounds"][0]["events"][1] == played


def test_R39_a_turn_where_the_rules_allow_none_is_refused_and_changes_nothing() -> None:
    state = manual()
    seat = mover(state)
    before = frozen(state)
    move = state.seat_view(seat).legal_moves[0]
    with pytest.raises(TableError) as e:  # the round's first tile has no turn
        state.apply(commands.Play(seat, move, state.table.version, Turn.LEFT), 2.0)
    assert (e.value.code, e.value.rule) == (Refusal.ILLEGAL, "R39")
    assert frozen(state) == before


def test_R39_a_straightening_is_not_a_move_the_same_seat_plays_on() -> None:
    state = manual(timer=60.0)
    seat, s = until_straightening(state)
    game = state.game
    assert game is not None
    deadline, played = state.table.deadline, len(game.round.plays)
    out = straighten(state, seat, s)
    [entry] = out.entries
    assert entry.kind == EventKind.STRAIGHTEN and entry.seat == seat
    assert entry.data == {
        "at": str(s.at),
        "turn": s.turn.value,
        "events": [{"seat": seat, "straighten": {"at": str(s.at), "turn": s.turn.value}}],
    }
    assert entry_events(entry, None) == entry.data["events"]
    assert mover(state) == seat and len(game.round.plays) == played
    assert state.table.deadline == deadline  # its clock runs on: the same turn
    assert state.view(seat)["events"][-1] == entry.data["events"][0]
    with pytest.raises(TableError) as e:  # a play that saw the version before it is stale
        state.apply(commands.Play(seat, game.legal_moves()[0], entry.version - 1), 6.0)
    assert e.value.code == Refusal.STALE
    lay(state, 6.0)
    assert mover(state) != seat


def test_R39_a_straightening_is_refused_with_its_rule_and_changes_nothing() -> None:
    state = manual()
    seat, s = until_straightening(state)
    game = state.game
    assert game is not None
    first = game.round.plays[0].tile
    not_laid = next(t for t in game.round.hand(seat))
    v = state.table.version
    before = frozen(state)
    refused = [
        (None, s, v, Refusal.SPECTATOR, None, None),
        (1 - seat, s, v, Refusal.NOT_YOUR_TURN, "R39", None),
        (seat, s, v - 1, Refusal.STALE, None, None),
        (seat, s, v + 1, Refusal.STALE, None, None),
        (seat, s._replace(at=first), v, Refusal.ILLEGAL, "R39", "at"),  # the first tile
        (seat, s._replace(at=not_laid), v, Refusal.ILLEGAL, "R39", "at"),  # not on the line
    ]
    for who, asked, version, code, rule, field in refused:
        with pytest.raises(TableError) as e:
            straighten(state, who, asked, version)
        assert (e.value.code, e.value.rule, e.value.field) == (code, rule, field), asked
        assert e.value.message
        assert frozen(state) == before, asked


def test_R39_a_table_that_lays_the_line_itself_refuses_turns_and_straightenings() -> None:
    state = TableState(table(anna(), Seat(1, SeatKind.OPEN)), TableConfig(), LEVELS, 0.0)
    state.apply(commands.Join(BEN, TOKEN), 1.0)
    for _ in range(3):
        lay(state)  # line: auto — nothing may turn, so every tile goes straight on
    seat = mover(state)
    game = state.game
    assert game is not None and state.ruleset.line == "auto"
    before = frozen(state)
    at = game.round.plays[-1].tile
    move = game.legal_moves()[0]
    for command in (
        commands.Straighten(seat, at, Turn.LEFT, state.table.version),
        commands.Play(seat, move, state.table.version, Turn.LEFT),
    ):
        with pytest.raises(TableError) as e:
            state.apply(command, 3.0)
        assert (e.value.code, e.value.rule) == (Refusal.ILLEGAL, "R39")
        assert "line: auto" in e.value.message
        assert frozen(state) == before


def test_a_turn_holds_a_bounded_number_of_straightenings() -> None:
    state = manual(TableConfig(straightenings=3))
    seat, s = until_straightening(state)
    back = s._replace(turn=Turn.RIGHT if s.turn is Turn.LEFT else Turn.LEFT)
    for k in range(3):
        straighten(state, seat, s if k % 2 == 0 else back)
    before = frozen(state)
    with pytest.raises(TableError) as e:
        straighten(state, seat, back)
    assert e.value.code == Refusal.RATE_LIMITED and "3 straightenings" in e.value.message
    assert frozen(state) == before
    lay(state)  # the tile is laid; the next turn has its own straightenings
    seat, s = until_straightening(state)
    straighten(state, seat, s)


def test_R39_the_log_rebuilds_the_line_and_the_record_replays_it() -> None:
    state = manual()
    seat, s = until_straightening(state)
    straighten(state, seat, s)
    while state.table.status == TableStatus.PLAYING:
        if state.game is not None and state.game.turn is None:
            for human in state.table.humans:
                state.apply(commands.Continue(human), 9.0)
        else:
            lay(state, 9.0)
    rebuilt = TableState.rebuild(
        copy.deepcopy(state.table), list(state.recent), TableConfig(), LEVELS, 10.0
    )
    assert rebuilt.view(0) | {"away": []} == state.view(0) | {"away": []}
    record = record_of(state.table, state.recent)
    assert record is not None
    events = record["rounds"][0]["events"]
    assert {"seat": seat, "straighten": {"at": str(s.at), "turn": s.turn.value}} in events
    assert any("turn" in e for e in events)
    assert state.game is not None and replay(record).result == state.game.result
    text = "\n".join(record_lines(record))
    assert "straightened" in text


def test_R39_a_resume_replays_the_straightening() -> None:
    state = manual()
    seat, s = until_straightening(state)
    since = state.table.version
    straighten(state, seat, s)
    frames = [json.loads(f) for f in state.greeting(1 - seat, since) or []]
    assert [f["type"] for f in frames] == ["resume", "update", "presence"]
    assert frames[1]["events"] == [
        {"seat": seat, "straighten": {"at": str(s.at), "turn": s.turn.value}}
    ]
    assert frames[1]["view"]["events"][-1] == frames[1]["events"][0]


def test_R39_a_bot_lays_straight_on_at_a_manual_table() -> None:
    state = TableState(
        table(anna(), Seat(1, SeatKind.OPEN), name="vog-block"), TableConfig(), LEVELS, 0.0
    )
    state.apply(commands.SetBot("a", 1, "greedy"), 1.0)
    for _ in range(6):
        think = state.think()
        if think is None:
            if state.game is None or state.game.turn is None:
                break
            lay(state)
            continue
        out = state.apply(
            commands.BotMove(think.seat, think.view.legal_moves[0], think.version, Stand.BOT), 3.0
        )
        [entry] = out.entries
        assert entry.kind == EventKind.PLAY and "turn" not in entry.data
    assert state.game is not None and len(state.game.round.plays) >= 4
