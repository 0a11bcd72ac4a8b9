"""The table core: ``TableState.apply(command, now) -> Outcome``, with no I/O at all.

A table's state is its settings and seats (``Table``), the game rebuilt from
its log, who has pressed Continue, which human seats have no socket (and
since when), and the log's last entries. ``apply`` checks a command against
the rules and the table, changes the state, and says what happened (the new
log entries) and what must be done (think for a seat, tell everyone who is
away, open a rematch). The shell around it stores the entries, publishes
them, runs the bots and wakes the table when a clock runs out; it never
decides anything itself. Time comes in as ``now``; nothing here reads a
clock, a socket or a database, so a table's behaviour is tested without a
server.

A refused command raises ``TableError`` and changes nothing.
"""

from __future__ import annotations

import dataclasses
import unicodedata
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from doublesix.names import bot_name
from doublesix.rules.game import Game
from doublesix.rules.moves import End, IllegalMoveError, InvalidMoveError, Move, Straighten, Turn
from doublesix.rules.record import game_result_record
from doublesix.rules.ruleset import Ruleset
from doublesix.rules.view import SeatView
from doublesix.table import clocks, commands
from doublesix.table.config import TableConfig
from doublesix.table.errors import Refusal, TableError
from doublesix.table.frames import EncodedViews, Viewer, chat_message, encode, entry_frame
from doublesix.table.model import (
    GAME_KINDS,
    JSON,
    SAID_KINDS,
    CloseReason,
    Entry,
    EventKind,
    Seat,
    SeatKind,
    Stand,
    Table,
    TableStatus,
    same_secret,
)
from doublesix.table.views import (
    TableInfo,
    event_json,
    own_json,
    round_events,
    shared_json,
    view_of,
)
from doublesix.tiles import Tile


@dataclass(frozen=True, eq=False)
class Think:
    """Effect: find a move for ``seat`` at ``version`` with a ``level`` bot, after ``delay``."""

    seat: int
    level: str
    seed: int
    version: int
    stand: Stand
    delay: float
    view: SeatView

    @property
    def key(self) -> tuple[int, int, str, str]:
        """Two effects with the same key ask for the same move."""
        return (self.version, self.seat, self.stand, self.level)


@dataclass(frozen=True)
class Announce:
    """Effect: tell every client who is away now (a ``presence`` frame)."""


@dataclass(frozen=True)
class Unseat:
    """Effect: the sockets that held ``seat`` before ``version`` (its entry freeing the seat, or
    giving it a new token) hold it no more; they watch from now on, and whoever sits there
    next, or holds its new token, gets its views."""

    seat: int
    version: int


@dataclass(frozen=True)
class OpenRematch:
    """Effect: make a new table with this one's seats and options, then ``RematchOpened``."""

    table: Table


Effect = Announce | Unseat | OpenRematch


@dataclass
class Outcome:
    entries: list[Entry] = field(default_factory=list)
    effects: list[Effect] = field(default_factory=list)
    answer: object = None
    think: Think | None = None
    """The move the table waits for from a bot now (None: none); set by ``apply``."""


def straightened_this_turn(game: Game) -> int:
    """How often the seat to move has straightened the line in this turn (R39)."""
    count = 0
    for event in reversed(game.round.events):
        if not isinstance(event, Straighten):
            break
        count += 1
    return count


JOINERS = frozenset("\u200c\u200d")
"""The format characters a message may hold: the zero-width (non-)joiner of emoji sequences
(a family, a flag) and of scripts such as Persian; every other one (bidi overrides, invisible
marks) is refused."""


def printable(text: str) -> bool:
    """No control, format (but the joiners), surrogate, private-use or line-break character:
    what a line of chat, at a table or in the lobby, may hold."""
    return not any(
        unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Zl", "Zp") and ch not in JOINERS
        for ch in text
    )


class TableState:
    """One table's state (see the module); only ``apply`` changes it."""

    def __init__(self, table: Table, config: TableConfig, levels: Sequence[str], now: float):
        self.table = table
        self.config = config
        self.levels = tuple(levels)
        """The bot levels a seat may have."""
        self.ruleset = Ruleset.from_dict(table.ruleset)
        self.game: Game | None = None
        self.ready: set[int] = set()
        """Human seats that pressed Continue since the round ended (R25)."""
        self.gone: dict[int, float] = {s: now for s in table.humans}
        """Human seats without a socket, and since when."""
        self.sockets: dict[str, int] = {}
        """The sockets of human seats, wherever they are: each one's key and seat."""
        self.stand_in: set[int] = set()
        """Away seats past their grace period: a bot plays for them until they are back."""
        self.left: set[int] = set()
        """Stand-in seats whose players said they were leaving (``commands.Leave``)."""
        self.late: int | None = None
        """The version at which the seat to move ran out of time, while its move is found."""
        self.game_version = 0
        """The version of the last entry that changed the game."""
        self.rematch: set[int] = set()
        """Human seats that would play again."""
        self.declined: set[int] = set()
        """Human seats that would rather not (until they agree after all)."""
        self.rematch_table: str | None = None
        self.closed: CloseReason | None = None
        self.recent: deque[Entry] = deque(maxlen=max(1, config.resume_events))
        self.chat: deque[Entry] = deque(maxlen=max(1, config.chat_kept))
        self.spoken: set[int] = set()
        """The versions of every chat entry of the log still shown: an operator removes any of
        them, however old (the table's pages show the last ``config.chat_kept``, the game's
        page every one), while ``chat`` keeps the words of the last few only."""
        self.unsaid: set[int] = set()
        """The chat entries an operator removed (or whose words an erasure took)."""
        self.restored: dict[int, Entry] = {}
        """The chat entries an operator restored, shown again, by version: their ``rechat``
        frames hold them (``frames.said_frame``), live and in a resume."""
        self._spoke: dict[str, deque[float]] = {}
        self._views: tuple[int, dict[Viewer, SeatView]] = (-1, {})

    # --- rebuilding from the log --------------------------------------------------------

    @classmethod
    def rebuild(
        cls,
        table: Table,
        entries: Iterable[Entry],
        config: TableConfig,
        levels: Sequence[str],
        now: float,
    ) -> TableState:
        """The state of ``table`` (as stored) after its log ``entries``, replayed in order.

        Replaying an entry re-applies its command to the engine (which is
        deterministic) and checks that it makes the events the entry holds.
        """
        state = cls(table, config, levels, now)
        log = list(entries)
        said = {e.version: e for e in log if e.kind == EventKind.CHAT}
        for entry in log:
            state._replay(entry, said)
        return state

    def _replay(self, entry: Entry, said: Mapping[int, Entry]) -> None:
        """Replay ``entry``; ``said``: the log's chat entries, by version (a ``rechat`` shows
        one again, however old)."""
        data = entry.data
        kind = entry.kind
        made: list[JSON] | None = None
        if kind == EventKind.START:
            self.game = Game(self.ruleset, self.table.seed)
            made = self._events_since(0)
        elif kind == EventKind.PLAY:
            assert self.game is not None and entry.seat is not None
            start = len(self.game.round.events)
            end, turn = data.get("end"), data.get("turn")
            self.game.play(
                Move(Tile.parse(data["tile"]), None if end is None else End(end)),
                turn=None if turn is None else Turn(turn),
            )
            made = self._events_since(start)
            self.ready = set()
        elif kind == EventKind.STRAIGHTEN:
            assert self.game is not None and entry.seat is not None
            start = len(self.game.round.events)
            self.game.straighten(entry.seat, Tile.parse(data["at"]), Turn(data["turn"]))
            made = self._events_since(start)
        elif kind == EventKind.CONTINUE:
            assert self.game is not None and entry.seat is not None
            self.ready.add(entry.seat)
            if data.get("next_round"):
                self.game.next_round()
                self.ready = set()
                made = self._events_since(0)
        elif kind == EventKind.CHAT:
            self._said(entry)
        elif kind == EventKind.REMATCH:
            if "table" in data:
                self.rematch_table = data["table"]
            elif entry.seat is not None:
                self._answer_rematch(entry.seat, data["agree"])
        elif kind == EventKind.CLOSE:
            self.closed = CloseReason(data["reason"])
        elif kind == EventKind.LEAVE:
            assert entry.seat is not None
            self._stand_in_for(entry.seat, entry.at)
        elif kind == EventKind.UNCHAT:
            self._unsay(data["chat"])
        elif kind == EventKind.RECHAT:
            restored = said.get(data["chat"])
            if restored is not None and not restored.data.get("removed"):
                self._resay(restored)  # not if an erasure took its words since
        if made is not None and data.get("events") != made:
            raise ValueError(f"table {self.table.id}: entry {entry.version} replays differently")
        if kind in GAME_KINDS:
            self.game_version = entry.version
        self.recent.append(entry)

    def _events_since(self, start: int) -> list[JSON]:
        """The current round's engine events from ``start`` on, with every tile (the log's)."""
        assert self.game is not None
        return [event_json(e) for e in self.game.round.events[start:]]

    # --- applying commands ----------------------------------------------------------------

    def apply(self, command: commands.Command, now: float) -> Outcome:
        """Apply ``command`` at ``now``: the entries it made and what is to be done.

        Raises ``TableError`` (and changes nothing) when the command is refused.
        """
        out = Outcome()
        match command:
            case commands.Join():
                out.answer = self._join(command, now, out)
            case commands.Rekey():
                out.answer = self._rekey(command, now, out)
            case commands.SetBot():
                self._set_bot(command, now, out)
                out.answer = self.table.copy()
            case commands.Play():
                self._play(command, now, out)
            case commands.Straighten():
                self._straighten(command, now, out)
            case commands.BotMove():
                self._bot_move(command, now, out)
            case commands.Continue():
                self._continue(command.seat, now, out, stand=None)
            case commands.Chat():
                self._chat(command, now, out)
            case commands.Rematch():
                self._rematch(command, now, out)
            case commands.Leave():
                self._leave(command.seat, command.before_start, now, out)
            case commands.Unchat():
                self._unchat(command.chat, now, out)
            case commands.Rechat():
                self._rechat(command, now, out)
            case commands.RematchOpened():
                if self.rematch_table is None:
                    self.rematch_table = command.table
                    self._log(out, EventKind.REMATCH, None, {"table": command.table}, now)
            case commands.Connect():
                if command.seat is not None:
                    self._need_token(command.seat, command.token)
                    self._hold(command.socket, command.seat, out)
                out.answer = self._greet(command.seat, command.since)
            case commands.Disconnect():
                self._release(command.socket, now, out)
            case commands.Hold():
                for socket, seat in command.sockets:
                    self._hold(socket, seat, out)
            case commands.Start():
                self._start_if_full(now, out)
            case commands.Tick():
                self._tick(now, out)
        self._stand_ins_continue(now, out)
        out.think = self.think()
        return out

    def _log(
        self, out: Outcome, kind: EventKind, seat: int | None, data: JSON, now: float
    ) -> Entry:
        """Add the next entry of the log, with the table's summary after it."""
        table = self.table
        entry = Entry(table.version + 1, kind, seat, data, now)
        table.version = entry.version
        table.updated_at = now
        game = self.game
        restart = kind in (EventKind.START, EventKind.PLAY, EventKind.CONTINUE) and (
            kind != EventKind.CONTINUE or bool(data.get("next_round"))
        )
        if kind in GAME_KINDS:
            self.game_version = entry.version
        if game is not None and table.status == TableStatus.PLAYING:
            table.scores = list(game.scores)
            if game.finished:
                table.status = TableStatus.FINISHED
                table.result = game_result_record(game.result)
        table.deadline = clocks.deadline(self, now, restart)
        self.recent.append(entry)
        out.entries.append(entry)
        return entry

    def _join(self, cmd: commands.Join, now: float, out: Outcome) -> tuple[int, str]:
        table = self.table
        seated = table.seat_of(cmd.player.id)
        if seated is not None:
            assert seated.token is not None
            return seated.number, seated.token  # seated already: the same seat again
        self._need_open()
        seat = self._free_seat(cmd.seat, cmd.invite)
        token = cmd.token
        self._seat(
            Seat(
                seat.number,
                SeatKind.HUMAN,
                None,
                cmd.player.id,
                cmd.player.name,
                token,
                invite=seat.invite,  # the seat is held for it again if its player stands up
                account=cmd.player.account,
            ),
            now,
            out,
        )
        self.gone[seat.number] = now  # until its socket says hello
        self._start_if_full(now, out)
        return seat.number, token

    def _rekey(self, cmd: commands.Rekey, now: float, out: Outcome) -> int | None:
        """The seat of the account ``cmd.player``, before or during the game, takes the token
        ``cmd.token`` (``commands.Rekey``): the sockets that held it with the old one hold it
        no more (``Unseat``: they watch, and a page of the account takes the seat back with
        ``Join``). The seat stays the account's and the game goes on: its clock runs as ever,
        and with no socket left the seat is away, so its grace period and then a bot apply as
        after a lost connection. The seat's number; None when the account sits nowhere here,
        or the game is over. The same command again (a forwarded request sent twice) changes
        nothing more."""
        if self.table.status not in (TableStatus.OPEN, TableStatus.PLAYING):
            return None
        seat = self.table.seat_of(cmd.player)
        if seat is None:
            return None
        if same_secret(seat.token, cmd.token):
            return seat.number
        seat.token = cmd.token
        held = [key for key, number in self.sockets.items() if number == seat.number]
        for socket in held:
            del self.sockets[socket]
        if held:  # its player is away now, as after a lost connection
            self.gone[seat.number] = now
            out.effects.append(Announce())
        entry = self._log(out, EventKind.REKEY, seat.number, {}, now)
        out.effects.append(Unseat(seat.number, entry.version))
        return seat.number

    def _need_open(self) -> None:
        status = self.table.status
        if status == TableStatus.CLOSED:
            raise TableError(Refusal.CLOSED, "the table is closed")
        if status != TableStatus.OPEN:
            raise TableError(Refusal.STARTED, "the game has started; watch instead")

    def _free_seat(self, number: int | None, invite: str | None) -> Seat:
        """The seat a newcomer takes: the one its invitation holds, the one asked for, or the
        first open one; an invited seat is taken only with its code."""
        seats = self.table.seats
        if invite is not None:
            for seat in seats:
                if seat.kind == SeatKind.INVITE and same_secret(seat.invite, invite):
                    return seat
            raise TableError(
                Refusal.INVITE, "that invitation is not for this table", field="invite"
            )
        if number is not None:
            if not 0 <= number < len(seats):
                raise TableError(Refusal.SEAT, f"no seat {number}", field="seat")
            seat = seats[number]
            if seat.kind == SeatKind.INVITE:
                raise TableError(
                    Refusal.INVITE, f"seat {number} is held for an invited player", field="invite"
                )
            if seat.kind != SeatKind.OPEN:
                raise TableError(Refusal.TAKEN, f"seat {number} is taken", field="seat")
            return seat
        free = [s for s in seats if s.kind == SeatKind.OPEN]
        if not free:
            if any(s.kind == SeatKind.INVITE for s in seats):
                raise TableError(
                    Refusal.INVITE, "the free seats are held for invited players", field="invite"
                )
            raise TableError(Refusal.FULL, "every seat is taken")
        return free[0]

    def _set_bot(self, cmd: commands.SetBot, now: float, out: Outcome) -> None:
        table = self.table
        if cmd.player is None or cmd.player != table.creator:
            raise TableError(Refusal.FORBIDDEN, "only the table's creator seats bots")
        self._need_open()
        if not 0 <= cmd.seat < len(table.seats):
            raise TableError(Refusal.SEAT, f"no seat {cmd.seat}", field="seat")
        if table.seats[cmd.seat].kind == SeatKind.HUMAN:
            raise TableError(Refusal.TAKEN, f"a player sits at seat {cmd.seat}", field="seat")
        if cmd.level not in self.levels:
            choices = ", ".join(self.levels)
            raise TableError(
                Refusal.BOT, f"no bot {cmd.level!r}; choose from {choices}", field="bot"
            )
        self._seat(Seat(cmd.seat, SeatKind.BOT, cmd.level, None, bot_name(cmd.seat)), now, out)
        self._start_if_full(now, out)

    def _seat(self, seat: Seat, now: float, out: Outcome) -> Entry:
        self.table.seats[seat.number] = seat
        public = {"kind": seat.kind.value, "name": seat.name, "bot": seat.bot}
        return self._log(out, EventKind.SEAT, seat.number, public, now)

    def _start_if_full(self, now: float, out: Outcome) -> None:
        """Start the game once every seat is taken."""
        table = self.table
        if table.status != TableStatus.OPEN or any(s.free for s in table.seats):
            return
        self.game = Game(self.ruleset, table.seed)
        table.status = TableStatus.PLAYING
        for seat in self.gone:  # the grace periods count from the start
            self.gone[seat] = now
        self._log(out, EventKind.START, None, {"events": self._events_since(0)}, now)

    def _playing(self) -> Game:
        if self.table.status == TableStatus.CLOSED:
            raise TableError(Refusal.CLOSED, "the table is closed")
        if self.game is None:
            raise TableError(Refusal.NOT_STARTED, "the game has not started yet")
        if self.game.finished:
            raise TableError(Refusal.FINISHED, "the game is over", rule="R30")
        return self.game

    def _to_move(self, seat: int | None, version: int, rule: str) -> tuple[Game, int]:
        """The game and ``seat``, if ``seat`` is to move and saw the game as it is now;
        ``rule`` names the rule that gives the turn (R6 a move, R39 a straightening)."""
        if seat is None:
            raise TableError(Refusal.SPECTATOR, "a spectator cannot play")
        game = self._playing()
        if not self.game_version <= version <= self.table.version:
            raise TableError(
                Refusal.STALE,
                f"you sent version {version}; the game changed at {self.game_version}",
            )
        if game.turn is None:
            raise TableError(Refusal.ILLEGAL, "the round is over; press Continue", rule="R25")
        if game.turn != seat:
            raise TableError(
                Refusal.NOT_YOUR_TURN, f"it is seat {game.turn}'s turn, not yours", rule=rule
            )
        return game, seat

    def _play(self, cmd: commands.Play, now: float, out: Outcome) -> None:
        _, seat = self._to_move(cmd.seat, cmd.version, "R6")
        self._apply_play(seat, cmd.move, cmd.turn, None, now, out)

    def _apply_play(
        self,
        seat: int,
        move: Move,
        turn: Turn | None,
        stand: Stand | None,
        now: float,
        out: Outcome,
    ) -> None:
        game = self.game
        assert game is not None
        start = len(game.round.events)
        try:
            game.play(move, seat, turn)
        except IllegalMoveError as e:
            raise TableError(Refusal.ILLEGAL, str(e), rule=e.rule) from None
        except InvalidMoveError as e:
            raise TableError(Refusal.BAD_FRAME, str(e)) from None
        self.ready = set()
        data: JSON = {
            "tile": str(move.tile),
            "end": None if move.end is None else move.end.value,
            "events": self._events_since(start),
        }
        if turn is not None:
            data["turn"] = turn.value
        if stand is not None and stand != Stand.BOT:
            data["stand"] = stand.value
        self._log(out, EventKind.PLAY, seat, data, now)

    def _bot_move(self, cmd: commands.BotMove, now: float, out: Outcome) -> None:
        if cmd.version != self.table.version or clocks.turn_seat(self) != cmd.seat:
            return  # the table has moved on
        if cmd.stand == Stand.AWAY and cmd.seat not in self.stand_in:
            return  # its player is back
        game = self.game
        assert game is not None
        move = cmd.move if cmd.move in game.legal_moves() else game.legal_moves()[0]
        self._apply_play(cmd.seat, move, None, cmd.stand, now, out)  # a bot lays straight on

    def _straighten(self, cmd: commands.Straighten, now: float, out: Outcome) -> None:
        """R39: the seat to move straightens the line; not a move, so its turn (and its
        clock) go on. A turn holds ``config.straightenings`` of them at most."""
        game, seat = self._to_move(cmd.seat, cmd.version, "R39")
        limit = self.config.straightenings
        if straightened_this_turn(game) >= limit:
            raise TableError(
                Refusal.RATE_LIMITED, f"at most {limit} straightenings in one turn; play a tile"
            )
        start = len(game.round.events)
        try:
            game.straighten(seat, cmd.at, cmd.turn)
        except IllegalMoveError as e:
            raise TableError(Refusal.ILLEGAL, str(e), rule=e.rule, field="at") from None
        except InvalidMoveError as e:
            raise TableError(Refusal.BAD_FRAME, str(e)) from None
        data: JSON = {
            "at": str(cmd.at),
            "turn": cmd.turn.value,
            "events": self._events_since(start),
        }
        self._log(out, EventKind.STRAIGHTEN, seat, data, now)

    def _continue(self, seat: int | None, now: float, out: Outcome, stand: Stand | None) -> None:
        """``seat`` presses Continue; ``stand`` marks a press made for it (away, timeout)."""
        if seat is None:
            raise TableError(Refusal.SPECTATOR, "a spectator has no Continue to press")
        game = self._playing()
        if game.turn is not None:
            raise TableError(Refusal.ILLEGAL, "the round is still being played", rule="R25")
        if seat in self.ready or self.table.seats[seat].kind != SeatKind.HUMAN:
            return  # pressed already: nothing changes
        self.ready.add(seat)
        data: JSON = {"next_round": False}
        if set(self.table.humans) <= self.ready:
            game.next_round()
            self.ready = set()
            data = {"next_round": True, "round": len(game.rounds), "events": self._events_since(0)}
        if stand is not None:
            data["stand"] = stand.value
        self._log(out, EventKind.CONTINUE, seat, data, now)

    def _stand_ins_continue(self, now: float, out: Outcome) -> None:
        """At a round's end, Continue is pressed for every seat a bot stands in for."""
        for seat in sorted(self.stand_in):
            if seat in clocks.waiting_to_continue(self):
                self._continue(seat, now, out, stand=Stand.AWAY)

    def _chat(self, cmd: commands.Chat, now: float, out: Outcome) -> None:
        if self.table.status == TableStatus.CLOSED:
            raise TableError(Refusal.CLOSED, "the table is closed")
        if cmd.seat is not None:
            name = self.table.seats[cmd.seat].name or f"seat {cmd.seat}"
            sender, channel = f"seat {cmd.seat}", "players"
        elif cmd.player is not None:
            name, sender, channel = cmd.player.name, f"player {cmd.player.id}", "spectators"
        else:
            raise TableError(Refusal.CHAT, "choose a name before you chat", field="name")
        data: JSON = {"from": name, "channel": channel}
        if cmd.phrase is not None:
            data["phrase"] = cmd.phrase.value
        else:
            data["text"] = self._chat_text(cmd.text)
        spoke = self._spoke.setdefault(sender, deque())
        while spoke and spoke[0] <= now - self.config.chat_window:
            spoke.popleft()
        if len(spoke) >= self.config.chat_burst:
            raise TableError(
                Refusal.RATE_LIMITED,
                f"at most {self.config.chat_burst} messages in {self.config.chat_window:g} s",
            )
        spoke.append(now)
        if cmd.player is not None:
            data["player"] = cmd.player.id
        self._said(self._log(out, EventKind.CHAT, cmd.seat, data, now))

    def _said(self, entry: Entry) -> None:
        """A chat entry of the log; one that holds the placeholder of a message whose words
        are gone (``removed``) has nothing left to remove."""
        self.chat.append(entry)
        (self.unsaid if entry.data.get("removed") else self.spoken).add(entry.version)

    def _unchat(self, version: int, now: float, out: Outcome) -> None:
        """One of the site's operators removes chat entry ``version`` (``commands.Unchat``),
        however old: the game's page shows every message of the log. The words of an old one
        are the stored log's, not the state's: the shell reads them there for the operators'
        log."""
        if version in self.unsaid:
            raise TableError(
                Refusal.NO_MESSAGE, f"message {version} was removed already", field="chat"
            )
        if version not in self.spoken:
            raise TableError(
                Refusal.NO_MESSAGE, f"entry {version} is no message of this table", field="chat"
            )
        self._unsay(version)
        self._log(out, EventKind.UNCHAT, None, {"chat": version}, now)

    def _unsay(self, version: int) -> None:
        """Chat entry ``version`` is shown nowhere from now on: it leaves the views' chat, and
        a resume sends a placeholder in its place (``removed``), so that no version is
        missing from it."""
        self.spoken.discard(version)
        self.unsaid.add(version)
        self.restored.pop(version, None)
        for entry in [e for e in self.chat if e.version == version]:
            self.chat.remove(entry)
        for i, entry in enumerate(self.recent):
            if entry.version == version and entry.kind == EventKind.CHAT:
                self.recent[i] = dataclasses.replace(entry, data={"removed": True})

    def _rechat(self, cmd: commands.Rechat, now: float, out: Outcome) -> None:
        """One of the site's operators restores chat entry ``cmd.chat``, which an operator
        removed (``commands.Rechat``): refused for a message shown, one whose words an
        account's erasure took (the log holds its placeholder), or no message at all."""
        version, said = cmd.chat, cmd.said
        if version in self.spoken:
            raise TableError(
                Refusal.NOT_REMOVED, f"message {version} is shown: nothing to restore", field="chat"
            )
        if version not in self.unsaid or said is None or said.kind != EventKind.CHAT:
            raise TableError(
                Refusal.NO_MESSAGE, f"entry {version} is no message of this table", field="chat"
            )
        if said.data.get("removed"):
            raise TableError(
                Refusal.ERASED,
                f"the words of message {version} were erased with its player's account",
                field="chat",
            )
        self._resay(said)
        self._log(out, EventKind.RECHAT, None, {"chat": version}, now)

    def _resay(self, said: Entry) -> None:
        """Chat entry ``said`` is shown again: in a resume, in its place, and in the views'
        chat if it is one of the last ``config.chat_kept`` messages shown."""
        version = said.version
        self.unsaid.discard(version)
        self.spoken.add(version)
        self.restored[version] = said
        for i, entry in enumerate(self.recent):
            if entry.version == version and entry.kind == EventKind.CHAT:
                self.recent[i] = said
        kept = self.chat.maxlen or 1
        if sum(1 for v in self.spoken if v > version) < kept:
            shown = sorted([*self.chat, said], key=lambda e: e.version)
            self.chat.clear()
            self.chat.extend(shown[-kept:])

    def _chat_text(self, text: str | None) -> str:
        cleaned = (text or "").strip()
        if not cleaned:
            raise TableError(Refusal.CHAT, "say something (the message is empty)", field="text")
        if len(cleaned) > self.config.chat_length:
            raise TableError(
                Refusal.CHAT,
                f"a message is at most {self.config.chat_length} characters",
                field="text",
            )
        if not printable(cleaned):
            raise TableError(Refusal.CHAT, "no control characters in a message", field="text")
        return cleaned

    def _rematch(self, cmd: commands.Rematch, now: float, out: Outcome) -> None:
        if cmd.seat is None:
            raise TableError(Refusal.SPECTATOR, "a spectator has no seat to keep")
        if self.table.status != TableStatus.FINISHED:
            raise TableError(Refusal.REMATCH, "a rematch is offered once the game is over")
        if self.table.tournament is not None:
            raise TableError(
                Refusal.TOURNAMENT, "no rematch at a tournament's table: it pairs you again"
            )
        said = self.rematch if cmd.agree else self.declined
        if cmd.seat in said or self.rematch_table is not None:
            return  # said already, or too late: the new table is open
        self._answer_rematch(cmd.seat, cmd.agree)
        self._log(out, EventKind.REMATCH, cmd.seat, {"agree": cmd.agree}, now)
        if set(self.table.humans) <= self.rematch:
            out.effects.append(OpenRematch(self.table.copy()))

    def _answer_rematch(self, seat: int, agree: bool) -> None:
        """``seat`` would play again, or would rather not: its last word counts."""
        (self.rematch if agree else self.declined).add(seat)
        (self.declined if agree else self.rematch).discard(seat)

    def _leave(self, seat: int | None, before_start: bool, now: float, out: Outcome) -> None:
        """``seat``'s player leaves (``commands.Leave``). During the game a bot plays for the
        seat at once, and its sockets no longer hold it, so that the player's next one takes
        the seat back."""
        if seat is None:
            raise TableError(Refusal.SPECTATOR, "only a seated player leaves")
        if self.table.status == TableStatus.OPEN:
            self._before_start(seat, now, out)
            return
        if before_start and self.table.status != TableStatus.CLOSED:
            raise TableError(Refusal.STARTED, "the game has started: leave it from the table")
        self._playing()
        if seat in self.left:
            return
        for socket in [key for key, held in self.sockets.items() if held == seat]:
            del self.sockets[socket]
        self._stand_in_for(seat, now)
        self._log(out, EventKind.LEAVE, seat, {}, now)
        out.effects.append(Announce())

    def _before_start(self, seat: int, now: float, out: Outcome) -> None:
        """Before the start the creator (seat 0) who leaves closes the table; anyone else
        stands up: the seat is free again (held for its invitation, if it was taken with
        one), and the sockets that held it watch from now on (``Unseat``), so that whoever
        sits there next is the only one who sees its hand."""
        if seat == 0:
            self.table.status = TableStatus.CLOSED
            self.closed = CloseReason.CANCELLED
            self._log(out, EventKind.CLOSE, None, {"reason": CloseReason.CANCELLED.value}, now)
            return
        invite = self.table.seats[seat].invite
        for socket in [key for key, held in self.sockets.items() if held == seat]:
            del self.sockets[socket]
        self.gone.pop(seat, None)
        kind = SeatKind.OPEN if invite is None else SeatKind.INVITE
        entry = self._seat(Seat(seat, kind, invite=invite), now, out)
        out.effects.append(Unseat(seat, entry.version))
        out.effects.append(Announce())

    def _stand_in_for(self, seat: int, now: float) -> None:
        self.gone[seat] = now
        self.stand_in.add(seat)
        self.left.add(seat)

    def _need_token(self, seat: int, token: str | None) -> None:
        """A socket plays for ``seat`` only with the seat's token of now."""
        if self.table.seat_with(token or "") != seat:
            raise TableError(Refusal.BAD_TOKEN, "that token holds no seat here")

    def _hold(self, socket: str, seat: int, out: Outcome) -> None:
        """A socket of ``seat`` is here: its player is back, if it was away or had left."""
        if self.table.seats[seat].kind != SeatKind.HUMAN:
            return
        self.sockets[socket] = seat
        if seat in self.gone:
            del self.gone[seat]
            self.stand_in.discard(seat)
            self.left.discard(seat)
            out.effects.append(Announce())

    def _release(self, socket: str, now: float, out: Outcome) -> None:
        """A socket closed: the seat's player is away once it has none left."""
        seat = self.sockets.pop(socket, None)
        if seat is not None and seat not in self.sockets.values():
            self.gone[seat] = now
            out.effects.append(Announce())

    def _greet(self, viewer: Viewer, since: int | None) -> tuple[int, list[str]]:
        frames = self.greeting(viewer, since) or [encode(self.snapshot(viewer))]
        return self.table.version, frames

    def _tick(self, now: float, out: Outcome) -> None:
        """Act on every clock that has run out by ``now``."""
        runs_out = clocks.turn_runs_out(self)
        if runs_out is not None and runs_out <= now:
            if clocks.clock_seat(self) is not None:
                self.late = self.table.version  # a bot finds its move (see ``think``)
            else:
                for seat in clocks.waiting_to_continue(self):
                    self._continue(seat, now, out, stand=Stand.TIMEOUT)
        grace = clocks.grace_ends(self)
        if grace is not None and grace <= now:
            for seat, since in sorted(self.gone.items()):
                if since + self.config.grace_seconds <= now:
                    self.stand_in.add(seat)  # a bot plays for it until its player is back
            out.effects.append(Announce())
        for when, reason in (
            (clocks.expires_at(self), CloseReason.EXPIRED),
            (clocks.abandoned_at(self), CloseReason.ABANDONED),
        ):
            if when is not None and when <= now:
                self.table.status = TableStatus.CLOSED
                self.closed = reason
                self._log(out, EventKind.CLOSE, None, {"reason": reason.value}, now)

    # --- what the table waits for ------------------------------------------------------

    def think(self) -> Think | None:
        """The move a bot is to find now: for a bot's seat, a seat out of time, or an away
        seat past its grace period; None when the table waits for a person (or nothing)."""
        seat = clocks.turn_seat(self)
        if seat is None:
            return None
        table = self.table
        if self.late == table.version and clocks.clock_seat(self) == seat:
            return self._think(seat, self.config.timeout_bot, Stand.TIMEOUT, 0.0)
        level = table.seats[seat].bot
        if level is not None:
            return self._think(seat, level, Stand.BOT, self.config.bot_delay)
        if seat in self.stand_in:
            return self._think(seat, self.config.timeout_bot, Stand.AWAY, self.config.bot_delay)
        return None

    def _think(self, seat: int, level: str, stand: Stand, delay: float) -> Think:
        version = self.table.version
        seed = self.table.seed + 1_000_003 * version + seat
        return Think(seat, level, seed, version, stand, delay, self.seat_view(seat))

    def wake_at(self) -> float | None:
        return clocks.wake_at(self)

    # --- what clients are sent --------------------------------------------------------

    def seat_view(self, viewer: Viewer) -> SeatView:
        """The engine's view for ``viewer`` now, built once per version."""
        assert self.game is not None
        version, views = self._views
        if version != self.table.version:
            views = {}
            self._views = (self.table.version, views)
        view = views.get(viewer)
        if view is None:
            view = views[viewer] = view_of(self.game, viewer)
        return view

    def away(self) -> list[JSON]:
        """The human seats without a socket while the game is on: since when, until when the
        seat is kept (seconds since the epoch), whether a bot plays for it by now, and whether
        its player said they were leaving."""
        if self.table.status != TableStatus.PLAYING:
            return []
        grace = self.config.grace_seconds
        return [
            {"seat": seat, "since": since, "until": since + grace}
            | {"bot": seat in self.stand_in, "left": seat in self.left}
            for seat, since in sorted(self.gone.items())
        ]

    def info(self) -> TableInfo:
        table = self.table
        return TableInfo(
            id=table.id,
            ruleset=self.ruleset,
            players=tuple(s.name for s in table.seats),
            hints=table.hints,
            timer=table.timer,
        )

    def view(self, viewer: Viewer) -> JSON:
        """The protocol's ``View`` for ``viewer``."""
        events = None if self.game is None else round_events(self.game)
        return self._shared_view() | self._own_view(viewer, events)

    def encoded_views(self) -> EncodedViews:
        """Every viewer's ``view``, encoded (``text(v)`` is ``encode(view(v))``): the part
        that all viewers share is built and encoded once, each one's own part apart."""
        events = None if self.game is None else round_events(self.game)
        shared = encode(self._shared_view())[:-1]  # '{"table": ...' without its '}'
        own = {v: encode(self._own_view(v, events))[1:] for v in self.viewers()}
        return EncodedViews(shared, own)

    def _shared_view(self) -> JSON:
        """The keys of the ``View`` that are the same for every viewer."""
        ready = self.ready | {s.number for s in self.table.seats if s.kind == SeatKind.BOT}
        deadline = self.table.deadline if clocks.clock_runs(self) else None
        seen = None if self.game is None else self.seat_view(0)  # what all seats see alike
        shared = shared_json(self.info(), self.game, seen, ready, deadline, self.away())
        return shared | {
            "bots": [s.bot for s in self.table.seats],
            "accounts": [s.account for s in self.table.seats],
            "chat": [chat_message(e) for e in self.chat],
            "rematch": {
                "agreed": sorted(self.rematch),
                "declined": sorted(self.declined),
                "table": self.rematch_table,
            },
            "closed": None if self.closed is None else self.closed.value,
        }

    def _own_view(self, viewer: Viewer, events: list[JSON] | None) -> JSON:
        """The keys of the ``View`` that are ``viewer``'s own (``views.OWN_KEYS``)."""
        seen = None if self.game is None else self.seat_view(viewer)
        return own_json(self.game, viewer, seen, events)

    def snapshot(self, viewer: Viewer) -> JSON:
        return {"type": "snapshot", "version": self.table.version, "view": self.view(viewer)}

    def greeting(self, viewer: Viewer, since: int | None) -> list[str] | None:
        """The frames after version ``since`` as ``viewer`` saw them — a ``resume``, the
        missing frames (the last update with the view now), a ``presence`` — or None when
        they are not all kept (the client then gets a snapshot)."""
        v = self.table.version
        if since is None or not 0 <= since <= v:
            return None
        kept = [e for e in self.recent if e.version > since]
        if since < v and (not kept or kept[0].version != since + 1):
            return None
        last_update = max((e.version for e in kept if e.kind not in SAID_KINDS), default=None)
        frames = [encode({"type": "resume", "since": since, "version": v})]
        for entry in kept:
            view = encode(self.view(viewer)) if entry.version == last_update else None
            frames.append(entry_frame(entry, viewer, view, self.restored))
        frames.append(encode({"type": "presence", "away": self.away()}))
        return frames

    def viewers(self) -> list[Viewer]:
        return [*range(self.ruleset.players), None]
