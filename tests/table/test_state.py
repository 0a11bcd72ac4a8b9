"""The table core without a server: commands in, log entries and effects out, at given times."""

from __future__ import annotations

import copy
import dataclasses
import json
from typing import Any

import pytest

from doublesix.rules.moves import Move
from doublesix.rules.record import replay
from doublesix.rules.ruleset import preset
from doublesix.table import commands
from doublesix.table.commands import Phrase, Player
from doublesix.table.config import TableConfig
from doublesix.table.errors import Refusal, TableError
from doublesix.table.frames import chat_message, chat_shown, entry_events, entry_frame
from doublesix.table.model import EventKind, Seat, SeatKind, Stand, Table, TableStatus
from doublesix.table.records import record_of
from doublesix.table.state import Announce, OpenRematch, TableState, Unseat

LEVELS = ("random", "greedy")
ANNA, BEN, CARLA = Player("a", "Anna"), Player("b", "Ben"), Player("c", "Carla")
TOKEN = "a-new-seat's-token"


def table(*seats: Seat, name: str = "block", timer: float | None = None, seed: int = 7) -> Table:
    ruleset = preset(name, len(seats))
    return Table(
        id="t",
        preset=name,
        ruleset=ruleset.to_dict(),
        seed=seed,
        timer=timer,
        hints=False,
        rated=False,
        creator="a",
        seats=list(seats),
        created_at=0.0,
        updated_at=0.0,
        scores=[0] * ruleset.sides,
    )


def anna() -> Seat:
    return Seat(0, SeatKind.HUMAN, None, "a", "Anna", "token-a")


def open_state(config: TableConfig | None = None, **kw: Any) -> TableState:
    """Anna at seat 0, seat 1 open (a 2-player block game)."""
    return TableState(
        table(anna(), Seat(1, SeatKind.OPEN), **kw), config or TableConfig(), LEVELS, 0.0
    )


def started(config: TableConfig | None = None, **kw: Any) -> TableState:
    state = open_state(config, **kw)
    state.apply(commands.Join(BEN, TOKEN), 1.0)
    assert state.table.status == TableStatus.PLAYING
    return state


def connect(
    state: TableState, socket: str, seat: int, since: int | None = None
) -> commands.Connect:
    """A socket of ``seat`` says hello with the seat's token."""
    return commands.Connect(socket, seat, since, state.table.seats[seat].token)


def mover(state: TableState) -> int:
    assert state.game is not None and state.game.turn is not None
    return state.game.turn


def first_move(state: TableState) -> Move:
    assert state.game is not None
    return state.game.legal_moves()[0]


def frozen(state: TableState) -> str:
    """What a refused command must leave as it was."""
    assert state.game is not None
    view = json.dumps([state.view(v) for v in state.viewers()], sort_keys=True)
    return view + repr(state.table) + repr(sorted(state.ready))


def test_joining_fills_the_seat_then_the_game_starts() -> None:
    state = open_state()
    out = state.apply(commands.Join(BEN, TOKEN), 1.0)
    seat, token = out.answer  # type: ignore[misc]
    assert seat == 1 and token == TOKEN  # the edge chose it: the core draws no secrets
    assert [e.kind for e in out.entries] == [EventKind.SEAT, EventKind.START]
    assert [e.version for e in out.entries] == [1, 2]
    assert state.table.status == TableStatus.PLAYING and state.table.version == 2
    again = state.apply(commands.Join(BEN, TOKEN), 2.0)
    assert again.answer == (1, token) and again.entries == []  # the same seat, nothing new
    with pytest.raises(TableError) as e:
        state.apply(commands.Join(CARLA, TOKEN), 2.0)
    assert e.value.code == Refusal.STARTED


def test_an_invited_seat_is_taken_only_with_its_code() -> None:
    state = TableState(
        table(anna(), Seat(1, SeatKind.INVITE, invite="code-1"), Seat(2, SeatKind.OPEN)),
        TableConfig(),
        LEVELS,
        0.0,
    )
    for asked in (commands.Join(CARLA, TOKEN, seat=1), commands.Join(CARLA, TOKEN, invite="guess")):
        with pytest.raises(TableError) as e:
            state.apply(asked, 1.0)
        assert e.value.code == Refusal.INVITE and e.value.field == "invite"
    assert state.apply(commands.Join(CARLA, TOKEN), 1.0).answer[0] == 2  # type: ignore[index]
    with pytest.raises(TableError) as e:
        state.apply(commands.Join(Player("d", "Dora"), TOKEN), 1.0)  # only the invited seat is left
    assert e.value.code == Refusal.INVITE
    assert state.apply(commands.Join(BEN, TOKEN, invite="code-1"), 2.0).answer[0] == 1  # type: ignore[index]
    assert state.table.status == TableStatus.PLAYING


def test_only_the_creator_seats_bots_and_only_known_levels() -> None:
    state = open_state()
    with pytest.raises(TableError) as e:
        state.apply(commands.SetBot("b", 1, "greedy"), 1.0)
    assert e.value.code == Refusal.FORBIDDEN
    with pytest.raises(TableError) as e:
        state.apply(commands.SetBot("a", 1, "omniscient"), 1.0)
    assert e.value.code == Refusal.BOT and e.value.field == "bot"
    out = state.apply(commands.SetBot("a", 1, "greedy"), 1.0)
    assert state.table.status == TableStatus.PLAYING
    assert out.think is not None or mover(state) == 0  # a bot to move is thought for at once


def test_a_refused_command_changes_nothing() -> None:
    state = started()
    before = frozen(state)
    seat = mover(state)
    for command in (
        commands.Play(1 - seat, first_move(state), state.table.version),  # not your turn (R6)
        commands.Play(seat, first_move(state), state.table.version - 1),  # stale
        commands.Play(None, first_move(state), state.table.version),  # a spectator
        commands.Continue(seat),  # the round is being played (R25)
        commands.Chat(seat, ANNA, text=" "),
        commands.Chat(seat, ANNA, text="x" * 301),
        commands.Chat(seat, ANNA, text="bell\x07"),
        commands.Chat(seat, ANNA, text="two\nlines"),
        commands.Chat(seat, ANNA, text="\u202egnp.exe"),  # a bidi override hides the name
        commands.Chat(seat, ANNA, text="a\u2028b"),  # a line separator
        commands.Chat(None, None, text="who am I"),
        commands.Rematch(seat),
    ):
        with pytest.raises(TableError):
            state.apply(command, 5.0)
        assert frozen(state) == before, command


def test_R5_an_illegal_move_is_refused_with_its_rule() -> None:
    state = started()
    seat = mover(state)
    assert state.game is not None
    hand = state.game.round.hand(seat)
    legal = {m.tile for m in state.game.legal_moves()}
    wrong = next(t for t in hand if t not in legal)  # seed 7 deals one
    with pytest.raises(TableError) as e:
        state.apply(commands.Play(seat, Move(wrong, None), state.table.version), 2.0)
    assert e.value.code == Refusal.ILLEGAL and e.value.rule is not None


def test_chat_does_not_make_a_move_stale_and_is_kept() -> None:
    state = started()
    seen = state.table.version
    out = state.apply(commands.Chat(1, BEN, text="  <b>hi</b>  "), 2.0)
    [entry] = out.entries
    assert entry.kind == EventKind.CHAT and entry.data["text"] == "<b>hi</b>"
    state.apply(commands.Chat(None, CARLA, phrase=Phrase.GOOD_GAME), 2.0)
    chat = state.view(None)["chat"]
    assert [(c["from"], c["channel"]) for c in chat] == [
        ("Ben", "players"),
        ("Carla", "spectators"),
    ]
    assert chat[1]["phrase"] == "good_game" and "text" not in chat[1]
    seat = mover(state)
    out = state.apply(commands.Play(seat, first_move(state), seen), 3.0)  # seen before the chat
    assert out.entries[0].kind == EventKind.PLAY


def test_chat_takes_300_characters_emoji_sequences_and_any_script() -> None:
    state = started()
    for text in (
        "x" * 300,
        "\U0001f468\u200d\U0001f469\u200d\U0001f467",
        "می\u200cخواهم",
        "Спасибо",
    ):
        [entry] = state.apply(commands.Chat(0, ANNA, text=text), 2.0).entries
        assert entry.data["text"] == text
    with pytest.raises(TableError) as e:
        state.apply(commands.Chat(0, ANNA, text="x" * 301), 2.0)
    assert e.value.code == Refusal.CHAT and e.value.field == "text" and "300" in str(e.value)


def test_players_and_spectators_write_in_their_own_channels_kept_in_the_log() -> None:
    state = started(TableConfig(resume_events=100_000))
    state.apply(commands.Chat(0, ANNA, phrase=Phrase.WELL_PLAYED), 2.0)
    state.apply(commands.Chat(None, CARLA, text="nice"), 2.0)
    frames = state.view(None)["chat"]
    assert [(f["seat"], f["channel"], f["from"]) for f in frames] == [
        (0, "players", "Anna"),
        (None, "spectators", "Carla"),
    ]
    assert all("player" not in f for f in frames)  # a spectator's id stays in the log
    rebuilt = TableState.rebuild(
        copy.deepcopy(state.table), list(state.recent), TableConfig(), LEVELS, 9.0
    )
    assert rebuilt.view(1)["chat"] == state.view(1)["chat"]


def test_a_closed_table_takes_no_chat_a_finished_one_does() -> None:
    state = started()
    play_to_the_end(state)
    state.apply(commands.Chat(1, BEN, phrase=Phrase.GOOD_GAME), 100.0)  # after the game
    state.table.status = TableStatus.CLOSED
    with pytest.raises(TableError) as e:
        state.apply(commands.Chat(1, BEN, text="hello?"), 101.0)
    assert e.value.code == Refusal.CLOSED


def test_chat_is_rate_limited_per_sender() -> None:
    state = started(TableConfig(chat_burst=3, chat_window=10.0))
    for k in range(3):
        state.apply(commands.Chat(0, ANNA, text=f"m{k}"), 1.0 + k)
    with pytest.raises(TableError) as e:
        state.apply(commands.Chat(0, ANNA, text="one more"), 5.0)
    assert e.value.code == Refusal.RATE_LIMITED
    state.apply(commands.Chat(1, BEN, text="my turn to speak"), 5.0)  # another sender
    state.apply(commands.Chat(0, ANNA, text="later"), 11.5)  # the window has moved on


def test_the_turn_timer_gives_the_move_to_a_bot_then_continue_is_pressed() -> None:
    state = started(TableConfig(continue_seconds=30.0), timer=20.0)
    deadline = state.table.deadline
    assert deadline == 1.0 + 20.0
    assert state.wake_at() == deadline
    seat = mover(state)
    early = state.apply(commands.Tick(), 10.0)
    assert early.think is None and early.entries == []
    late = state.apply(commands.Tick(), deadline)
    think = late.think
    assert think is not None and think.stand == Stand.TIMEOUT and think.seat == seat
    assert think.level == "greedy" and think.delay == 0
    out = state.apply(
        commands.BotMove(seat, think.view.legal_moves[0], think.version, think.stand), 22.0
    )
    assert out.entries[0].data["stand"] == "timeout"
    assert entry_events(out.entries[0], None)[0] == {"seat": seat, "timeout": True}
    stale = state.apply(
        commands.BotMove(seat, think.view.legal_moves[0], think.version, think.stand), 22.0
    )
    assert stale.entries == []  # the table has moved on: dropped


def test_an_away_player_gets_a_grace_period_then_a_stand_in() -> None:
    state = started(TableConfig(grace_seconds=60.0, bot_delay=0.5))
    assert state.apply(connect(state, "a", 0), 2.0).effects == [Announce()]
    state.apply(connect(state, "b", 1), 2.0)
    assert state.away() == [] and state.wake_at() is None
    seat = mover(state)
    state.apply(commands.Disconnect("ab"[seat]), 10.0)
    assert state.away() == [
        {"seat": seat, "since": 10.0, "until": 70.0, "bot": False, "left": False}
    ]
    assert state.wake_at() == 70.0
    out = state.apply(commands.Tick(), 70.0)
    assert Announce() in out.effects and state.away()[0]["bot"] is True
    assert out.think is not None and out.think.stand == Stand.AWAY and out.think.delay == 0.5
    back = state.apply(connect(state, "again", seat, since=0), 71.0)
    assert back.think is None and state.away() == []  # its player plays again


def test_a_player_who_leaves_has_a_stand_in_at_once_until_they_come_back() -> None:
    state = started(TableConfig(grace_seconds=60.0, bot_delay=0.5, resume_events=1000))
    state.apply(connect(state, "a", 0), 2.0)
    state.apply(connect(state, "a2", 0), 2.0)  # Anna in two tabs: leaving frees both
    state.apply(connect(state, "b", 1), 2.0)
    seat = mover(state)
    out = state.apply(commands.Leave(seat), 5.0)
    [entry] = out.entries
    assert entry.kind == EventKind.LEAVE and entry.seat == seat
    assert entry_events(entry, 1 - seat) == [{"seat": seat, "leave": True}]
    assert Announce() in out.effects
    assert state.away() == [{"seat": seat, "since": 5.0, "until": 65.0, "bot": True, "left": True}]
    assert out.think is not None and out.think.seat == seat and out.think.stand == Stand.AWAY
    assert state.apply(commands.Leave(seat), 6.0).entries == []  # once is enough
    for socket in ("a", "a2") if seat == 0 else ("b",):  # its sockets hold the seat no more
        state.apply(commands.Disconnect(socket), 7.0)
    assert state.away()[0]["since"] == 5.0

    # A server that restarts rebuilds the stand-in from the log.
    rebuilt = TableState.rebuild(
        copy.deepcopy(state.table), list(state.recent), state.config, LEVELS, 30.0
    )
    assert seat in rebuilt.stand_in and seat in rebuilt.left
    thought = rebuilt.think()
    assert thought is not None and thought.stand == Stand.AWAY

    back = state.apply(connect(state, "again", seat), 40.0)  # the player opens the table again
    assert back.think is None and state.away() == [] and state.left == set()


def test_before_the_start_the_creator_who_leaves_closes_the_table() -> None:
    waiting = TableState(
        table(anna(), Seat(1, SeatKind.OPEN), Seat(2, SeatKind.OPEN)), TableConfig(), LEVELS, 0.0
    )
    waiting.apply(commands.Join(BEN, TOKEN), 1.0)
    out = waiting.apply(commands.Leave(0), 4.0)
    assert [e.kind for e in out.entries] == [EventKind.CLOSE]
    assert waiting.table.status == TableStatus.CLOSED and waiting.view(1)["closed"] == "cancelled"
    with pytest.raises(TableError) as e:
        waiting.apply(commands.Join(CARLA, "carla's"), 5.0)
    assert e.value.code == Refusal.CLOSED


def test_before_the_start_anyone_else_who_leaves_frees_the_seat() -> None:
    state = TableState(
        table(
            anna(),
            Seat(1, SeatKind.OPEN),
            Seat(2, SeatKind.INVITE, invite="code"),
            Seat(3, SeatKind.OPEN),
        ),
        TableConfig(),
        LEVELS,
        0.0,
    )
    state.apply(commands.Join(BEN, TOKEN), 1.0)
    state.apply(commands.Join(CARLA, "carla's", invite="code"), 1.5)
    for socket, seat in (("a", 0), ("b", 1), ("b2", 1), ("c", 2)):  # Ben in two tabs
        state.apply(connect(state, socket, seat), 2.0)

    out = state.apply(commands.Leave(1), 3.0)
    [entry] = out.entries
    assert entry.kind == EventKind.SEAT and entry.seat == 1
    assert entry.data == {"kind": "open", "name": None, "bot": None}
    assert out.effects == [Unseat(1, entry.version), Announce()]
    assert state.table.seats[1] == Seat(1, SeatKind.OPEN)
    assert state.sockets == {"a": 0, "c": 2} and 1 not in state.gone
    assert state.table.status == TableStatus.OPEN
    before = repr(state.table)
    with pytest.raises(TableError) as e:  # his token holds no seat now
        state.apply(commands.Connect("b3", 1, None, TOKEN), 4.0)
    assert e.value.code == Refusal.BAD_TOKEN and repr(state.table) == before

    # A seat taken with an invitation is held for it again.
    state.apply(commands.Leave(2), 5.0)
    assert state.table.seats[2] == Seat(2, SeatKind.INVITE, invite="code")
    with pytest.raises(TableError) as e:
        state.apply(commands.Join(Player("d", "Dora"), "dora's", seat=2), 6.0)
    assert e.value.code == Refusal.INVITE

    # A restart rebuilds the waiting room as it is; then the seats fill and the game starts.
    rebuilt = TableState.rebuild(
        copy.deepcopy(state.table), list(state.recent), state.config, LEVELS, 7.0
    )
    assert rebuilt.table == state.table
    rebuilt.apply(commands.Join(Player("d", "Dora"), "dora's", seat=1), 8.0)
    rebuilt.apply(commands.Join(CARLA, "carla's again", invite="code"), 9.0)
    rebuilt.apply(commands.SetBot("a", 3, "greedy"), 10.0)
    assert rebuilt.table.status == TableStatus.PLAYING
    assert [s.player for s in rebuilt.table.seats] == ["a", "d", "c", None]


def test_an_operator_removes_a_chat_message_from_every_view_and_resume() -> None:
    state = started(TableConfig(resume_events=1000))
    said = state.apply(commands.Chat(0, ANNA, text="rude words"), 2.0).entries[0]
    kept = state.apply(commands.Chat(1, BEN, text="hello"), 3.0).entries[0]
    before = frozen(state) + repr(list(state.recent))
    for version in (kept.version + 1, 1):  # no such entry; an entry that is no message
        with pytest.raises(TableError) as e:
            state.apply(commands.Unchat(version), 4.0)
        assert e.value.code == Refusal.NO_MESSAGE and e.value.field == "chat"
        assert frozen(state) + repr(list(state.recent)) == before

    out = state.apply(commands.Unchat(said.version), 5.0)
    [entry] = out.entries
    assert entry.kind == EventKind.UNCHAT and entry.data == {"chat": said.version}
    unchat = {"type": "unchat", "version": entry.version, "chat": said.version}
    assert json.loads(entry_frame(entry, 0, None)) == unchat
    for viewer in state.viewers():
        assert [m.get("text") for m in state.view(viewer)["chat"]] == ["hello"]
    greeting = state.greeting(None, said.version - 1)
    assert greeting is not None and "rude words" not in "".join(greeting)
    frames = [json.loads(f) for f in greeting]
    assert frames[1] == {"type": "chat", "version": said.version, "removed": True}
    assert frames[2]["text"] == "hello" and frames[3] == unchat

    # The stored log keeps the words; whatever is rebuilt or read from it shows them nowhere.
    log = [said if e.version == said.version else e for e in state.recent]
    rebuilt = TableState.rebuild(copy.deepcopy(state.table), log, state.config, LEVELS, 6.0)
    assert rebuilt.view(None)["chat"] == state.view(None)["chat"]
    again = rebuilt.greeting(None, said.version - 1)
    assert again is not None and again[:-1] == greeting[:-1]  # but who is away since when
    assert chat_shown(log) == [chat_message(kept)]


def test_an_operator_removes_a_message_older_than_those_the_pages_show() -> None:
    """Any chat entry of the log, however old, even after the game and in a state rebuilt
    from the log; one removed already, or no message of the table, is refused alike."""
    config = TableConfig(chat_kept=3, chat_burst=100, resume_events=1000)
    state = started(config)
    said = [state.apply(commands.Chat(0, ANNA, text=f"line {n}"), 2.0).entries[0] for n in range(6)]
    play_to_the_end(state)
    assert [m["text"] for m in state.view(None)["chat"]] == ["line 3", "line 4", "line 5"]
    log = list(state.recent)
    rebuilt = TableState.rebuild(copy.deepcopy(state.table), log, config, LEVELS, 99.0)
    for table_state in (state, rebuilt):
        out = table_state.apply(commands.Unchat(said[0].version), 99.0)
        assert [(e.kind, e.data) for e in out.entries] == [
            (EventKind.UNCHAT, {"chat": said[0].version})
        ]
        assert out.answer is None  # the words are the stored log's (the shell reads them)
        before = frozen(table_state) + repr(list(table_state.recent))
        for version, why in (
            (said[0].version, f"message {said[0].version} was removed already"),
            (1, "entry 1 is no message of this table"),
            (table_state.table.version + 1, "is no message of this table"),
        ):
            with pytest.raises(TableError) as e:
                table_state.apply(commands.Unchat(version), 100.0)
            assert (e.value.code, e.value.field) == (Refusal.NO_MESSAGE, "chat")
            assert why in e.value.message
            assert frozen(table_state) + repr(list(table_state.recent)) == before
        greeting = table_state.greeting(None, said[0].version - 1)
        assert greeting is not None and "line 0" not in "".join(greeting)
        assert json.loads(greeting[1]) == {
            "type": "chat",
            "version": said[0].version,
            "removed": True,
        }
    removed = [*log, *out.entries]
    assert [m["text"] for m in chat_shown(removed)] == [f"line {n}" for n in range(1, 6)]
    again = TableState.rebuild(copy.deepcopy(state.table), removed, config, LEVELS, 101.0)
    with pytest.raises(TableError) as e:  # the log says it was removed
        again.apply(commands.Unchat(said[0].version), 102.0)
    assert "removed already" in e.value.message
    again.apply(commands.Unchat(said[1].version), 102.0)
    wordless = [  # a log whose entry holds the placeholder in place of the words
        dataclasses.replace(e, data={"removed": True}) if e.version == said[2].version else e
        for e in log
    ]
    rebuilt = TableState.rebuild(copy.deepcopy(state.table), wordless, config, LEVELS, 103.0)
    with pytest.raises(TableError) as e:
        rebuilt.apply(commands.Unchat(said[2].version), 104.0)
    assert "removed already" in e.value.message


def everything(state: TableState) -> str:
    """What a refused restore must leave as it was: the views, the table, the resume's
    entries and the state's chat sets."""
    chat = (sorted(state.spoken), sorted(state.unsaid), sorted(state.restored))
    return frozen(state) + repr(list(state.recent)) + repr(chat)


def test_an_operator_restores_a_message_removed_by_mistake() -> None:
    """It is shown again in its place: in the views, in a resume (its own frame and the
    ``rechat`` frame with its words), on the game's page, and in a state rebuilt from the
    log; removed again, it is gone again."""
    state = started(TableConfig(resume_events=1000))
    said = state.apply(commands.Chat(0, ANNA, text="fair words"), 2.0).entries[0]
    kept = state.apply(commands.Chat(1, BEN, text="hello"), 3.0).entries[0]
    unchat = state.apply(commands.Unchat(said.version), 4.0).entries[0]

    out = state.apply(commands.Rechat(said.version, said), 5.0)
    [entry] = out.entries
    assert entry.kind == EventKind.RECHAT and entry.data == {"chat": said.version}
    rechat = {
        "type": "rechat",
        "version": entry.version,
        "chat": said.version,
        "message": chat_message(said),
    }
    assert json.loads(entry_frame(entry, 0, None, state.restored)) == rechat
    for viewer in state.viewers():
        assert [m["text"] for m in state.view(viewer)["chat"]] == ["fair words", "hello"]
    assert (said.version in state.spoken, said.version in state.unsaid) == (True, False)
    greeting = state.greeting(None, said.version - 1)
    assert greeting is not None
    frames = [json.loads(f) for f in greeting]
    assert frames[1] == chat_message(said) and frames[2] == chat_message(kept)
    assert frames[3]["type"] == "unchat" and frames[4] == rechat

    log = list(state.recent)
    assert [m.get("text") for m in chat_shown(log)] == ["fair words", "hello"]
    assert chat_shown(log, removed=True) == chat_shown(log)
    rebuilt = TableState.rebuild(copy.deepcopy(state.table), log, state.config, LEVELS, 6.0)
    assert rebuilt.view(None)["chat"] == state.view(None)["chat"]
    assert rebuilt.greeting(None, said.version - 1)[:-1] == greeting[:-1]  # type: ignore[index]

    again = state.apply(commands.Unchat(said.version), 7.0).entries[0]
    assert [m["text"] for m in state.view(None)["chat"]] == ["hello"]
    greeting = state.greeting(None, unchat.version)
    assert greeting is not None and "fair words" not in "".join(greeting)
    removed = [*log, again]
    assert [m.get("text") for m in chat_shown(removed)] == ["hello"]
    assert chat_shown(removed, removed=True)[0] == {
        "type": "chat",
        "version": said.version,
        "removed": True,
        "restorable": True,
        "from": "Anna",
    }


def test_a_restore_is_refused_but_for_a_message_an_operator_removed() -> None:
    """A message shown, one whose words an erasure took (the stored log's placeholder), an
    entry that is no message, a version the log has not: refused, nothing changed. An old
    message restored comes back in its place in the views only if it is one of the last
    ``chat_kept`` shown."""
    config = TableConfig(chat_kept=3, chat_burst=100, resume_events=1000)
    state = started(config)
    said = [state.apply(commands.Chat(0, ANNA, text=f"line {n}"), 2.0).entries[0] for n in range(6)]
    for entry in (said[0], said[4]):
        state.apply(commands.Unchat(entry.version), 3.0)
    wordless = dataclasses.replace(said[0], data={"removed": True})
    seat = state.recent[0]
    before = everything(state)
    for command, code in (
        (commands.Rechat(said[1].version, said[1]), Refusal.NOT_REMOVED),
        (commands.Rechat(said[0].version, wordless), Refusal.ERASED),
        (commands.Rechat(seat.version, seat), Refusal.NO_MESSAGE),
        (commands.Rechat(said[0].version, None), Refusal.NO_MESSAGE),
        (commands.Rechat(state.table.version + 1, None), Refusal.NO_MESSAGE),
    ):
        with pytest.raises(TableError) as e:
            state.apply(command, 4.0)
        assert (e.value.code, e.value.field) == (code, "chat"), command
        assert everything(state) == before

    state.apply(commands.Rechat(said[0].version, said[0]), 5.0)  # older than the views show
    assert [m["text"] for m in state.view(None)["chat"]] == ["line 3", "line 5"]
    state.apply(commands.Rechat(said[4].version, said[4]), 6.0)
    assert [m["text"] for m in state.view(None)["chat"]] == ["line 3", "line 4", "line 5"]
    log = list(state.recent)
    assert [m["text"] for m in chat_shown(log)] == [f"line {n}" for n in range(6)]
    rebuilt = TableState.rebuild(copy.deepcopy(state.table), log, config, LEVELS, 7.0)
    assert rebuilt.view(None)["chat"] == state.view(None)["chat"]
    assert rebuilt.restored == state.restored

    # An erasure took the words of a restored message since: the log's rebuild shows it not.
    erased = [wordless if e.version == said[0].version else e for e in log]
    rebuilt = TableState.rebuild(copy.deepcopy(state.table), erased, config, LEVELS, 8.0)
    assert said[0].version in rebuilt.unsaid and said[0].version not in rebuilt.restored
    with pytest.raises(TableError) as e:
        rebuilt.apply(commands.Rechat(said[0].version, wordless), 9.0)
    assert e.value.code == Refusal.ERASED


def test_leaving_is_for_a_seated_player_at_a_table_not_over() -> None:
    state = started()
    before = frozen(state)
    with pytest.raises(TableError) as e:
        state.apply(commands.Leave(None), 2.0)
    assert e.value.code == Refusal.SPECTATOR and frozen(state) == before
    with pytest.raises(TableError) as e:  # a waiting room that the start overtook
        state.apply(commands.Leave(1, before_start=True), 2.0)
    assert e.value.code == Refusal.STARTED and frozen(state) == before
    assert state.left == set() and state.stand_in == set()
    play_to_the_end(state)
    with pytest.raises(TableError) as e:
        state.apply(commands.Leave(0), 99.0)
    assert e.value.code == Refusal.FINISHED


def test_a_table_everyone_left_closes_and_an_unfilled_one_expires() -> None:
    state = started(TableConfig(grace_seconds=1.0, abandon_seconds=100.0))
    state.apply(connect(state, "a", 0), 2.0)
    state.apply(commands.Disconnect("a"), 3.0)
    assert state.wake_at() is not None
    state.apply(commands.Tick(), 103.0)
    assert state.table.status == TableStatus.CLOSED and state.view(0)["closed"] == "abandoned"
    assert state.think() is None and state.wake_at() is None
    with pytest.raises(TableError) as e:
        state.apply(commands.Continue(0), 104.0)
    assert e.value.code == Refusal.CLOSED

    waiting = open_state(TableConfig(open_seconds=50.0))
    assert waiting.wake_at() == 50.0
    out = waiting.apply(commands.Tick(), 50.0)
    assert out.entries[0].kind == EventKind.CLOSE and waiting.table.status == TableStatus.CLOSED
    with pytest.raises(TableError) as e:
        waiting.apply(commands.Join(BEN, TOKEN), 51.0)
    assert e.value.code == Refusal.CLOSED


def play_to_the_end(state: TableState, now: float = 10.0) -> None:
    """Every seat plays its first legal move; Continue for everyone between rounds."""
    assert state.game is not None
    while state.table.status == TableStatus.PLAYING:
        game = state.game
        if game.turn is None:
            for seat in state.table.humans:
                state.apply(commands.Continue(seat), now)
        else:
            state.apply(commands.Play(game.turn, game.legal_moves()[0], state.table.version), now)
        now += 1.0


def test_a_finished_game_has_its_result_and_a_record_derived_from_the_log() -> None:
    state = started(TableConfig(resume_events=100_000))  # the whole log is kept
    play_to_the_end(state)
    assert state.table.status == TableStatus.FINISHED
    assert state.game is not None and state.table.result == {
        "finished": True,
        "losers": list(state.game.result.losers),
        "winners": list(state.game.result.winners),
        "dry_win": state.game.result.dry_win,
        "scores": list(state.game.result.scores),
    }
    record = record_of(state.table, state.recent)
    assert record is not None
    assert replay(record).result == state.game.result  # the engine agrees with the log


def test_a_rebuilt_table_is_the_same_table() -> None:
    state = started()
    entries = []
    original = copy.deepcopy(state.table)
    for _ in range(6):
        game = state.game
        assert game is not None and game.turn is not None
        entries += state.apply(
            commands.Play(game.turn, game.legal_moves()[0], state.table.version), 3.0
        ).entries
    entries = [*list(state.recent)]
    rebuilt = TableState.rebuild(copy.deepcopy(state.table), entries, TableConfig(), LEVELS, 9.0)
    assert original.version < rebuilt.table.version
    assert rebuilt.view(0) | {"away": []} == state.view(0) | {"away": []}
    assert rebuilt.game_version == state.game_version


def test_rematch_when_every_human_agrees() -> None:
    state = started()
    play_to_the_end(state)
    first = state.apply(commands.Rematch(0), 100.0)
    assert first.effects == [] and state.view(1)["rematch"]["agreed"] == [0]
    second = state.apply(commands.Rematch(1), 101.0)
    [effect] = second.effects
    assert isinstance(effect, OpenRematch) and effect.table.id == "t"
    out = state.apply(commands.RematchOpened("t2"), 102.0)
    assert entry_events(out.entries[0], 0) == [{"rematch": "t2"}]
    assert state.view(0)["rematch"] == {"agreed": [0, 1], "declined": [], "table": "t2"}


def test_a_declined_rematch_waits_until_the_player_agrees_after_all() -> None:
    state = started(TableConfig(resume_events=100_000))  # ``recent`` holds the whole log
    play_to_the_end(state)
    start = state.table.version
    state.apply(commands.Rematch(0), 100.0)
    no = state.apply(commands.Rematch(1, agree=False), 101.0)
    assert no.effects == [] and entry_events(no.entries[0], 0) == [{"seat": 1, "rematch": False}]
    assert state.view(0)["rematch"] == {"agreed": [0], "declined": [1], "table": None}
    assert state.apply(commands.Rematch(1, agree=False), 102.0).entries == []  # said already
    rebuilt = TableState.rebuild(  # the log keeps who declined
        copy.deepcopy(state.table), list(state.recent), TableConfig(), LEVELS, 103.0
    )
    assert rebuilt.view(0)["rematch"] == state.view(0)["rematch"]
    yes = state.apply(commands.Rematch(1), 104.0)  # after all
    [effect] = yes.effects
    assert isinstance(effect, OpenRematch)
    assert state.view(1)["rematch"] == {"agreed": [0, 1], "declined": [], "table": None}
    assert state.table.version == start + 3


def test_an_agreed_rematch_may_be_declined_before_the_others_agree() -> None:
    state = started()
    play_to_the_end(state)
    state.apply(commands.Rematch(0), 100.0)
    state.apply(commands.Rematch(0, agree=False), 101.0)
    assert state.view(1)["rematch"] == {"agreed": [], "declined": [0], "table": None}
    assert state.apply(commands.Rematch(1), 102.0).effects == []  # 0 no longer agrees


def test_a_resume_gives_exactly_the_missed_frames() -> None:
    state = started()
    since = state.table.version
    for _ in range(3):
        game = state.game
        assert game is not None and game.turn is not None
        state.apply(commands.Play(game.turn, game.legal_moves()[0], state.table.version), 3.0)
    state.apply(commands.Chat(0, ANNA, text="hello"), 4.0)
    frames = [json.loads(f) for f in state.greeting(1, since) or []]
    assert frames[0] == {"type": "resume", "since": since, "version": state.table.version}
    body = frames[1:-1]
    assert [f["version"] for f in body] == list(range(since + 1, state.table.version + 1))
    assert [f["type"] for f in body] == ["update", "update", "update", "chat"]
    assert ["view" in f for f in body] == [False, False, True, False]  # the last update's
    assert frames[-1]["type"] == "presence"
    assert state.greeting(1, -1) is None and state.greeting(1, None) is None


def test_draws_are_shown_to_the_drawer_only() -> None:
    state = TableState(
        table(anna(), Seat(1, SeatKind.OPEN), name="draw"), TableConfig(), LEVELS, 0.0
    )
    state.apply(commands.Join(BEN, TOKEN), 1.0)
    drawn = None
    for _ in range(200):
        game = state.game
        assert game is not None
        if game.turn is None:
            break
        out = state.apply(commands.Play(game.turn, game.legal_moves()[0], state.table.version), 2.0)
        draws = [e for e in out.entries[0].data["events"] if "draw" in e]
        if draws:
            drawn = (out.entries[0], draws[0]["seat"])
            break
    assert drawn is not None, "no draw in this deal"
    entry, drawer = drawn
    assert any(e.get("draw") for e in entry_events(entry, drawer))
    for viewer in (1 - drawer, None):
        assert all(e.get("draw") is None for e in entry_events(entry, viewer) if "draw" in e)
