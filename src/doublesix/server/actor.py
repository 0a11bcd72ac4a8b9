"""One writer per table: the table actor, and the manager that keeps one per table.

A ``TableActor`` owns a table's ``Game``. Every change — a seat taken, the
start, a play, a Continue, a bot's move, a move made when the clock ran out
— goes through its queue and is handled by its single task, in order:

1. check the command (the version it expects, the seat, the rules) and apply
   it to the game; a refused command changes nothing;
2. commit it to the store as the table's next numbered event, together with
   the table's new state (status, scores, deadline, round results, record);
3. publish it: one ``update`` frame per seat, each built from that seat's view.

If the commit fails, the actor rebuilds its game from the store, so memory
never runs ahead of the database.

The actor also keeps, in memory, the last events as each seat saw them, so
that a client that comes back with ``since: v`` gets exactly the events after
``v`` (or a full snapshot when they are gone), and who is connected: a seat
whose player has no socket left is *away*; it keeps the seat for a grace
period that every client is shown, then a bot plays for it (moves and
Continue) until its player is back, so a table never waits forever.

On start-up a table is rebuilt as after a failed commit: a ``Game`` from the stored seed
and ruleset, then every stored command replayed in order (the engine is
deterministic), checked against the engine events stored with them.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from doublesix.bots import table_bots
from doublesix.rules.game import Game
from doublesix.rules.moves import End, IllegalMoveError, InvalidMoveError, Move
from doublesix.rules.record import game_record, round_result_record
from doublesix.rules.ruleset import Ruleset
from doublesix.rules.view import SeatView
from doublesix.server.hub import Hub, Listener
from doublesix.server.store import (
    EventRecord,
    Guest,
    RoundRecord,
    SeatRecord,
    Store,
    TableRecord,
)
from doublesix.server.thinking import Thinking
from doublesix.server.views import (
    JSON,
    TableInfo,
    event_json,
    update_events,
    view_json,
    view_of,
)
from doublesix.tiles import InvalidTileError, Tile

log = logging.getLogger(__name__)


def available_bots() -> list[str]:
    """The bot levels a table may seat, weakest first (never one that sees hidden tiles)."""
    return table_bots()


@dataclass
class Settings:
    bot_delay: float = 0.6
    """Seconds a bot waits before its move, so that people can follow the game."""
    timeout_bot: str = "greedy"
    """The level that plays for a seat whose time ran out."""
    clock: Callable[[], float] = time.time
    """Wall-clock seconds; deadlines are stored in these."""
    new_seed: Callable[[], int] = field(default=lambda: secrets.randbits(62))
    """The seed that deals a new table's game (tests make it predictable)."""
    idle_seconds: float = 300.0
    """A finished table nobody watches leaves memory after this long (it stays stored)."""
    grace_seconds: float = 60.0
    """A disconnected player keeps the seat this long; then a bot plays for it until it is back."""
    resume_events: int = 100
    """Events each table keeps in memory for clients that come back with ``since``."""
    review_ms: float = 100.0
    """The expert's search per decision in a post-game review (ms of one core)."""
    continue_seconds: float = 30.0
    """At a table with a turn timer: how long the players have to press Continue after a
    round; then it is pressed for those who did not."""
    think_workers: int = field(default_factory=lambda: max(1, (os.cpu_count() or 2) - 1))
    """Worker processes for the searching bots and the hints (default: a core each but one)."""


class CommandError(Exception):
    """A refused command: ``code`` for the protocol's error frame, ``status`` for HTTP."""

    def __init__(
        self,
        code: str,
        message: str,
        *,
        rule: str | None = None,
        field: str | None = None,
        status: int = 400,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.rule = rule
        self.field = field
        self.status = status

    def frame(self) -> JSON:
        out: JSON = {"type": "error", "code": self.code, "message": self.message}
        if self.rule is not None:
            out["rule"] = self.rule
        return out

    def body(self) -> JSON:
        out: JSON = {"error": self.message}
        if self.field is not None:
            out["field"] = self.field
        return out


# --- commands ------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayCommand:
    seat: int | None
    tile: str
    end: str | None
    version: int
    """The last version the sender saw; any other is stale."""


BOT = "bot"
TIMEOUT = "timeout"
AWAY = "away"
Why = str
"""Why a bot moves: ``bot`` (a bot's seat), ``timeout`` (a human seat out of time) or
``away`` (a human seat whose player is gone beyond the grace period)."""


@dataclass(frozen=True)
class BotMoveCommand:
    """A bot's move for ``seat``, found on the table at ``version``."""

    seat: int
    move: Move
    version: int
    why: Why = BOT


@dataclass(frozen=True)
class AutoContinueCommand:
    """Continue for ``seat``, away beyond its grace period, at the table's ``version``."""

    seat: int
    version: int


@dataclass(frozen=True)
class ContinueClockCommand:
    """The Continue clock ran out at the table's ``version``: press it for every human seat
    that has not."""

    version: int


@dataclass(frozen=True)
class ContinueCommand:
    seat: int | None


@dataclass(frozen=True)
class JoinCommand:
    guest: Guest
    seat: int | None = None
    invite: str | None = None


@dataclass(frozen=True)
class SetBotCommand:
    guest_id: str | None
    seat: int
    bot: str


class Client(Listener, Protocol):
    """A socket at the table: the actor starts it with its first frames, then publishes."""

    def start(self, version: int, frames: Sequence[str]) -> None:
        """Queue ``frames`` (a snapshot, or a resume and the missing updates) of ``version``."""
        ...


@dataclass(frozen=True, eq=False)
class ConnectCommand:
    """A socket says hello: its first frames, and from now on every update of the table."""

    client: Client
    since: int | None = None


@dataclass(frozen=True, eq=False)
class DisconnectCommand:
    client: Client


@dataclass(frozen=True)
class SnapshotCommand:
    seat: int | None


@dataclass(frozen=True)
class ViewCommand:
    seat: int


@dataclass(frozen=True)
class DescribeCommand:
    pass


Command = (
    PlayCommand
    | BotMoveCommand
    | AutoContinueCommand
    | ContinueClockCommand
    | ConnectCommand
    | DisconnectCommand
    | ContinueCommand
    | JoinCommand
    | SetBotCommand
    | SnapshotCommand
    | ViewCommand
    | DescribeCommand
)


@dataclass
class _Job:
    command: Command
    future: asyncio.Future[Any] = field(repr=False)


# --- the actor -----------------------------------------------------------------------


def _move_data(move: Move) -> JSON:
    return {"tile": str(move.tile), "end": None if move.end is None else move.end.value}


def _parse_move(tile: object, end: object) -> Move:
    if not isinstance(tile, str):
        raise CommandError("bad_frame", "'tile' must be a tile written a-b, halves 0 to 6 (R1)")
    try:
        t = Tile.parse(tile)
    except InvalidTileError as e:
        raise CommandError("bad_frame", str(e), rule="R1") from None
    if end is None:
        return Move(t, None)
    if end not in ("left", "right"):
        raise CommandError("bad_frame", '\'end\' must be "left", "right" or null')
    return Move(t, End(end))


class TableActor:
    """The single writer of one table (see the module)."""

    def __init__(
        self, table: TableRecord, store: Store, hub: Hub, settings: Settings, thinking: Thinking
    ) -> None:
        self.store = store
        self.hub = hub
        self.settings = settings
        self.thinking = thinking
        self.table = table
        self.ruleset = Ruleset.from_dict(table.ruleset)
        self.game: Game | None = None
        self.ready: set[int] = set()
        """Human seats that pressed Continue since the round ended (R25)."""
        self._rounds_stored = 0
        self._thinking: asyncio.Task[None] | None = None
        self._thinking_why: Why | None = None
        self._late: int | None = None
        """The version at which the seat to move ran out of time, while its move is found."""
        self._queue: asyncio.Queue[_Job] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._recent: deque[tuple[int, dict[int | None, str]]] = deque(
            maxlen=max(1, settings.resume_events)
        )
        """The last events as each seat saw them: (version, JSON of its events per seat)."""
        self._views: tuple[int, dict[int | None, SeatView]] = (-1, {})
        """Seat views of the game at one version (see ``_seat_view``)."""
        self._clients: dict[int, set[Client]] = {}
        """The open sockets of each seat."""
        now = settings.clock()
        self._gone: dict[int, float] = {s.seat: now for s in table.seats if s.kind == "human"}
        """Human seats without a socket, and since when (the grace period counts from it)."""
        self._stand_in: set[int] = set()
        """Away seats past their grace period: a bot plays for them until they are back."""

    @property
    def id(self) -> str:
        return self.table.id

    # --- rebuilding ------------------------------------------------------------------

    def replay(self, events: Sequence[EventRecord]) -> None:
        """Rebuild the game from the table's stored events (the table record is current)."""
        self.game = None
        self.ready = set()
        self._recent.clear()  # a client behind this point gets a full snapshot
        self._views = (-1, {})
        for event in events:
            self._replay_one(event)
        game = self.game
        self._rounds_stored = (
            0 if game is None else sum(1 for r in game.rounds if r.result is not None)
        )
        if game is not None and list(game.scores) != list(self.table.scores):
            log.error(
                "table %s: rebuilt scores %s != stored %s", self.id, game.scores, self.table.scores
            )

    def _replay_one(self, event: EventRecord) -> None:
        data = event.data
        if event.kind == "start":
            self.game = Game(self.ruleset, self.table.seed)
            made = self._round_events(0)
        elif event.kind == "play":
            assert self.game is not None and event.seat is not None
            start = len(self.game.round.events)
            self.game.play(_parse_move(data["tile"], data.get("end")), event.seat)
            made = self._round_events(start)
            self.ready = set()
        elif event.kind == "continue":
            assert self.game is not None and event.seat is not None
            self.ready.add(event.seat)
            made = []
            if data.get("next_round"):
                self.game.next_round()
                self.ready = set()
                made = self._round_events(0)
        else:
            return
        if data.get("events", made) != made:
            log.error("table %s: event %d replays differently", self.id, event.version)

    def _round_events(self, start: int) -> list[JSON]:
        """The current round's engine events from ``start`` on, with every tile (stored only)."""
        assert self.game is not None
        return [event_json(e) for e in self.game.round.events[start:]]

    async def reload(self) -> None:
        table = await self.store.table(self.id)
        if table is None:
            raise RuntimeError(f"table {self.id} is gone from the store")
        self.table = table
        self.replay(await self.store.events(self.id))
        self._schedule()

    # --- running ---------------------------------------------------------------------

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name=f"table-{self.id}")

    async def stop(self) -> None:
        self._stop_thinking()
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        while not self._queue.empty():
            job = self._queue.get_nowait()
            if not job.future.done():
                job.future.set_exception(CommandError("closed", "the server is stopping"))

    async def submit(self, command: Command) -> Any:
        """Hand ``command`` to the table's task; its answer, or the CommandError it raised."""
        if self._task is None or self._task.done():
            raise CommandError("closed", "the table is not running", status=503)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        await self._queue.put(_Job(command, future))
        return await future

    async def _run(self) -> None:
        try:
            await self._settle()
        except Exception:
            log.exception("table %s: could not start", self.id)
        self._schedule()
        while True:
            if self._tick():
                continue
            wake = self._wake_in()
            finished = self.table.status == "finished"
            try:
                job = await asyncio.wait_for(
                    self._queue.get(), self.settings.idle_seconds if finished else wake
                )
            except TimeoutError:
                if finished and self._queue.empty() and not self.hub.listeners(self.id):
                    return  # retired: the manager loads the table again when asked
                continue
            try:
                result = await self._handle(job.command)
            except CommandError as e:
                if not job.future.done():
                    job.future.set_exception(e)
            except Exception as e:  # a bug or the database: never leave the table broken
                log.exception("table %s: %r failed", self.id, job.command)
                if not job.future.done():
                    job.future.set_exception(
                        CommandError("server", f"server error: {e}", status=500)
                    )
                await self._recover()
            else:
                if not job.future.done():
                    job.future.set_result(result)

    async def _recover(self) -> None:
        try:
            await self.reload()
        except Exception:
            log.exception("table %s: could not reload", self.id)

    def _turn(self) -> int | None:
        if self.game is None or self.game.finished:
            return None
        return self.game.turn

    def _clock_seat(self) -> int | None:
        """The human seat to move, when the table has a timer."""
        seat = self._turn()
        if self.table.timer is None or seat is None or self.table.seats[seat].kind != "human":
            return None
        return seat

    def _waiting_to_continue(self) -> list[int]:
        """The human seats that have not pressed Continue at a round's end (R25)."""
        game = self.game
        if game is None or game.finished or game.turn is not None:
            return []
        return [s.seat for s in self.table.seats if s.kind == "human" and s.seat not in self.ready]

    def _clock_runs(self) -> bool:
        """Whether a clock runs: the human seat to move's, or everyone's for Continue."""
        if self.table.timer is None:
            return False
        return self._clock_seat() is not None or bool(self._waiting_to_continue())

    def _clock_in(self) -> float | None:
        """Seconds until the clock runs out (the turn's or Continue's); None if none runs."""
        if self.table.deadline is None or not self._clock_runs():
            return None
        if self._late == self.table.version:
            return None  # its move is being made
        return self.table.deadline - self.settings.clock()

    def _grace_in(self) -> float | None:
        """Seconds until the next away seat's grace period ends; None if none is running."""
        if self.table.status != "playing":
            return None
        ends = [t for s, t in self._gone.items() if s not in self._stand_in]
        if not ends:
            return None
        return min(ends) + self.settings.grace_seconds - self.settings.clock()

    def _wake_in(self) -> float | None:
        """Seconds until a clock runs out (the turn's or a grace period); None if none runs."""
        clocks = [w for w in (self._clock_in(), self._grace_in()) if w is not None]
        return min(clocks) if clocks else None

    def _tick(self) -> bool:
        """Act on every clock that has run out; whether one had."""
        acted = False
        wake = self._clock_in()
        if wake is not None and wake <= 0:
            self._run_out()
            acted = True
        wake = self._grace_in()
        if wake is not None and wake <= 0:
            now = self.settings.clock()
            grace = self.settings.grace_seconds
            for seat, since in sorted(self._gone.items()):
                if seat not in self._stand_in and since + grace <= now:
                    self._stand_in.add(seat)  # a bot plays for it until its player is back
            self._announce()
            self._schedule(keep=True)
            acted = True
        return acted

    def _run_out(self) -> None:
        """The clock ran out: a bot finds the move of the seat to move, or Continue is
        pressed for those who have not (the table says so)."""
        self._late = self.table.version
        seat = self._clock_seat()
        if seat is not None:
            self._think(seat, self.settings.timeout_bot, 0.0, why=TIMEOUT)
            return
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait(_Job(ContinueClockCommand(self.table.version), future))

    def _schedule(self, *, keep: bool = False) -> None:
        """After every change: let a bot think if one is to move, or play for an away seat;
        an away seat past its grace period presses Continue at the round's end.

        ``keep``: the table has not changed (someone came or went); a move being
        found for it is left alone.
        """
        if keep and self._thinking is not None and not self._thinking.done():
            return
        self._stop_thinking()
        game = self.game
        if game is None or game.finished:
            return
        seat = game.turn
        if seat is not None:
            if self.table.seats[seat].kind == "bot":
                self._think(seat, self._level(seat), self.settings.bot_delay, why=BOT)
            elif seat in self._stand_in:
                self._think(seat, self._level(seat), self.settings.bot_delay, why=AWAY)
            return
        for away in sorted(self._stand_in - self.ready):
            future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
            self._queue.put_nowait(_Job(AutoContinueCommand(away, self.table.version), future))
            return

    def _level(self, seat: int) -> str:
        """The bot level that plays for ``seat``: its own, or the stand-in's for a human."""
        return self.table.seats[seat].bot or self.settings.timeout_bot

    def _think(self, seat: int, level: str, delay: float, *, why: Why) -> None:
        """Let a ``level`` bot choose for ``seat`` outside the table's task, on the seat's
        view now.

        The table goes on answering while it thinks; its move comes back as a
        command for this version, dropped if the table has moved on since. The
        bot's seed comes from the table's, the seat and the version, so the same
        position gets the same move after a restart.
        """
        assert self.game is not None
        view = view_of(self.game, seat)
        version = self.table.version
        seed = self.table.seed + 1_000_003 * version + seat

        async def think() -> None:
            if delay > 0:
                await asyncio.sleep(delay)
            try:
                humans = [s.seat for s in self.table.seats if s.kind == "human"]
                watched = any(s not in self._gone for s in humans)
                move = await self.thinking.choose(level, seed, view, table=self.id, watched=watched)
            except Exception:
                log.exception(
                    "table %s: bot of seat %d failed; it plays its first move", self.id, seat
                )
                move = view.legal_moves[0]
            future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
            self._queue.put_nowait(_Job(BotMoveCommand(seat, move, version, why), future))

        self._thinking = asyncio.create_task(think(), name=f"table-{self.id}-seat-{seat}")
        self._thinking_why = why

    def _stop_thinking(self) -> None:
        if self._thinking is not None:
            self._thinking.cancel()
            self._thinking = None
            self._thinking_why = None

    async def _bot_play(self, cmd: BotMoveCommand) -> None:
        if cmd.version != self.table.version or self._turn() != cmd.seat:
            return  # the table has moved on
        if cmd.why == AWAY and cmd.seat not in self._stand_in:
            return  # its player is back
        try:
            await self._apply_play(cmd.seat, cmd.move, why=cmd.why)
        except CommandError as e:
            assert self.game is not None
            log.error("table %s: bot of seat %d chose %s: %s", self.id, cmd.seat, cmd.move, e)
            await self._apply_play(cmd.seat, self.game.legal_moves()[0], why=cmd.why)

    async def _auto_continue(self, cmd: AutoContinueCommand) -> None:
        game = self.game
        if cmd.version != self.table.version or cmd.seat not in self._stand_in:
            return  # the table has moved on, or the player is back
        if game is None or game.finished or game.turn is not None or cmd.seat in self.ready:
            return
        await self._continue(ContinueCommand(cmd.seat), why=AWAY)

    async def _continue_clock(self, cmd: ContinueClockCommand) -> None:
        if cmd.version != self.table.version:
            return  # someone pressed in time
        for seat in self._waiting_to_continue():
            await self._continue(ContinueCommand(seat), why=TIMEOUT)

    # --- who is connected ----------------------------------------------------------------

    def away(self) -> list[JSON]:
        """The human seats without a socket while the game is on: since when, until when
        the seat is kept (seconds since the epoch), and whether a bot plays for it by now."""
        if self.table.status != "playing":
            return []
        grace = self.settings.grace_seconds
        return [
            {"seat": seat, "since": since, "until": since + grace, "bot": seat in self._stand_in}
            for seat, since in sorted(self._gone.items())
        ]

    def _announce(self) -> None:
        """Tell every client who is away now (a ``presence`` frame; no event, no number)."""
        if self.hub.listeners(self.id):
            self.hub.notify(self.id, json.dumps({"type": "presence", "away": self.away()}))

    def _connect(self, cmd: ConnectCommand) -> None:
        client, seat = cmd.client, cmd.client.seat
        back = False
        if seat is not None and self.table.seats[seat].kind == "human":
            self._clients.setdefault(seat, set()).add(client)
            if seat in self._gone:
                del self._gone[seat]
                self._stand_in.discard(seat)
                back = True
        client.start(self.table.version, self._greeting(seat, cmd.since))
        if back:
            if self._thinking_why == AWAY:
                self._stop_thinking()  # its player plays again
            self._announce()
            self._schedule(keep=True)
        self.hub.subscribe(self.id, client)

    def _disconnect(self, cmd: DisconnectCommand) -> None:
        client, seat = cmd.client, cmd.client.seat
        self.hub.unsubscribe(self.id, client)
        clients = None if seat is None else self._clients.get(seat)
        if seat is None or clients is None or client not in clients:
            return
        clients.discard(client)
        if not clients:
            del self._clients[seat]
            self._gone[seat] = self.settings.clock()
            self._announce()

    def _greeting(self, seat: int | None, since: int | None) -> list[str]:
        """A client's first frames: the events it missed since ``since``, else a snapshot."""
        missing = self._missing(seat, since)
        if missing is None:
            return [self.snapshot(seat)[1]]
        resume = {"type": "resume", "since": since, "version": self.table.version}
        presence = {"type": "presence", "away": self.away()}
        return [json.dumps(resume), *missing, json.dumps(presence)]

    def _missing(self, seat: int | None, since: int | None) -> list[str] | None:
        """The update frames after version ``since`` as ``seat`` saw them; None unless every
        one of them is still kept. Only the last (the current version) carries the view."""
        v = self.table.version
        if since is None or not 0 <= since <= v:
            return None
        if since == v:
            return []
        kept = [(k, events) for k, events in self._recent if k > since]
        if not kept or kept[0][0] != since + 1 or kept[-1][0] != v:
            return None
        frames = [
            f'{{"type": "update", "version": {k}, "events": {events[seat]}}}'
            for k, events in kept[:-1]
        ]
        frames.append(self._update_frame(v, kept[-1][1][seat], seat))
        return frames

    # --- commands ----------------------------------------------------------------------

    async def _handle(self, command: Command) -> Any:
        if isinstance(command, SnapshotCommand):
            return self.snapshot(command.seat)
        if isinstance(command, DescribeCommand):
            return self.table.copy()
        if isinstance(command, ViewCommand):
            return None if self.game is None else view_of(self.game, command.seat)
        if isinstance(command, PlayCommand):
            return await self._play(command)
        if isinstance(command, BotMoveCommand):
            return await self._bot_play(command)
        if isinstance(command, AutoContinueCommand):
            return await self._auto_continue(command)
        if isinstance(command, ContinueClockCommand):
            return await self._continue_clock(command)
        if isinstance(command, ConnectCommand):
            return self._connect(command)
        if isinstance(command, DisconnectCommand):
            return self._disconnect(command)
        if isinstance(command, ContinueCommand):
            return await self._continue(command)
        if isinstance(command, JoinCommand):
            return await self._join(command)
        return await self._set_bot(command)

    def snapshot(self, seat: int | None) -> tuple[int, str]:
        """The ``snapshot`` frame for ``seat`` at the table's current version."""
        v = self.table.version
        return v, json.dumps({"type": "snapshot", "version": v, "view": self.view(seat)})

    def view(self, seat: int | None) -> JSON:
        ready = self.ready | {s.seat for s in self.table.seats if s.kind == "bot"}
        deadline = self.table.deadline if self._clock_runs() else None
        seen = None if self.game is None else self._seat_view(seat)
        return view_json(self.info(), self.game, seat, ready, deadline, self.away(), seen)

    def _seat_view(self, seat: int | None) -> SeatView:
        """``view_of(game, seat)`` at the table's version, built once per version and seat
        (a change of the game is always committed as a new version before it is shown)."""
        assert self.game is not None
        version, views = self._views
        if version != self.table.version:
            views = {}
            self._views = (self.table.version, views)
        view = views.get(seat)
        if view is None:
            view = views[seat] = view_of(self.game, seat)
        return view

    def info(self) -> TableInfo:
        return TableInfo(
            id=self.id,
            ruleset=self.ruleset,
            players=tuple(s.name for s in self.table.seats),
            hints=self.table.hints,
            timer=self.table.timer,
        )

    def seat_of_token(self, token: str) -> int | None:
        given = token.encode("utf-8", "surrogatepass")  # compare_digest takes only ASCII str
        for seat in self.table.seats:
            if seat.token is not None and secrets.compare_digest(seat.token.encode(), given):
                return seat.seat
        return None

    async def _play(self, cmd: PlayCommand) -> None:
        move = _parse_move(cmd.tile, cmd.end)
        game = self.game
        if cmd.seat is None:
            raise CommandError("spectator", "a spectator cannot play")
        if game is None:
            raise CommandError("not_started", "the game has not started yet")
        if cmd.version != self.table.version:
            raise CommandError(
                "stale", f"you sent version {cmd.version}; the table is at {self.table.version}"
            )
        if game.finished:
            raise CommandError("finished", "the game is over", rule="R30")
        if game.turn is None:
            raise CommandError("illegal", "the round is over; press Continue", rule="R25")
        if game.turn != cmd.seat:
            raise CommandError(
                "not_your_turn", f"it is seat {game.turn}'s turn, not yours", rule="R6"
            )
        await self._apply_play(cmd.seat, move, why=None)

    async def _apply_play(self, seat: int, move: Move, *, why: Why | None) -> None:
        """Play ``move`` for ``seat``: its player's, or a bot's (``why``, see ``Why``)."""
        game = self.game
        assert game is not None
        start = len(game.round.events)
        try:
            game.play(move, seat)
        except IllegalMoveError as e:
            raise CommandError("illegal", str(e), rule=e.rule) from None
        except InvalidMoveError as e:
            raise CommandError("bad_frame", str(e)) from None
        self.ready = set()
        data = _move_data(move) | {"events": self._round_events(start)}
        marker: list[JSON] = []
        if why == TIMEOUT:
            data["auto"] = True
            marker = [{"seat": seat, "timeout": True}]
        elif why == AWAY:
            data["away"] = True
            marker = [{"seat": seat, "away": True}]

        def events(viewer: int | None) -> list[JSON]:
            return marker + update_events(game, viewer, start, self._seat_view(viewer))

        await self._commit("play", seat, data, events, started_turn=True)

    async def _continue(self, cmd: ContinueCommand, *, why: Why | None = None) -> None:
        """``cmd.seat`` presses Continue; ``why`` marks a press made for it (away, timeout)."""
        game, seat = self.game, cmd.seat
        if seat is None:
            raise CommandError("spectator", "a spectator has no Continue to press")
        if game is None:
            raise CommandError("not_started", "the game has not started yet")
        if game.finished:
            raise CommandError("finished", "the game is over", rule="R30")
        if game.turn is not None:
            raise CommandError("illegal", "the round is still being played", rule="R25")
        if seat in self.ready or self.table.seats[seat].kind != "human":
            return  # pressed already: nothing changes
        self.ready.add(seat)
        humans = {s.seat for s in self.table.seats if s.kind == "human"}
        data: JSON = {"next_round": False}
        if humans <= self.ready:
            game.next_round()
            self.ready = set()
            data = {"next_round": True, "events": self._round_events(0)}
        number = len(game.rounds)
        pressed: JSON = {"seat": seat, "continue": True}
        if why is not None:
            data[why] = pressed[why] = True

        def events(viewer: int | None) -> list[JSON]:
            out: list[JSON] = [dict(pressed)]
            if data["next_round"]:
                out += [{"round": number}, *update_events(game, viewer, 0, self._seat_view(viewer))]
            return out

        await self._commit("continue", seat, data, events, started_turn=bool(data["next_round"]))

    async def _join(self, cmd: JoinCommand) -> tuple[int, str]:
        table = self.table
        for seat in table.seats:
            if seat.kind == "human" and seat.guest_id == cmd.guest.id:
                assert seat.token is not None
                return seat.seat, seat.token  # seated already: the same seat again
        if cmd.invite is not None and not secrets.compare_digest(cmd.invite, table.invite):
            raise CommandError(
                "invite", "that invitation is not for this table", field="invite", status=403
            )
        if table.status != "open":
            raise CommandError("started", "the game has started; watch instead", status=409)
        if cmd.seat is not None:
            if not 0 <= cmd.seat < len(table.seats):
                raise CommandError("seat", f"no seat {cmd.seat}", field="seat", status=422)
            if table.seats[cmd.seat].kind != "open":
                raise CommandError("taken", f"seat {cmd.seat} is taken", field="seat", status=409)
            number = cmd.seat
        else:
            free = [s.seat for s in table.seats if s.kind == "open"]
            if not free:
                raise CommandError("full", "every seat is taken", status=409)
            number = free[0]
        token = secrets.token_urlsafe(24)
        changed = SeatRecord(number, "human", None, cmd.guest.id, cmd.guest.name, token)
        await self._change_seat(changed)
        self._gone[number] = self.settings.clock()  # until its socket says hello
        await self._settle()
        return number, token

    async def _set_bot(self, cmd: SetBotCommand) -> TableRecord:
        table = self.table
        if cmd.guest_id is None or cmd.guest_id != table.creator:
            raise CommandError("forbidden", "only the table's creator seats bots", status=403)
        if table.status != "open":
            raise CommandError("started", "the game has started", status=409)
        if not 0 <= cmd.seat < len(table.seats):
            raise CommandError("seat", f"no seat {cmd.seat}", field="seat", status=422)
        if table.seats[cmd.seat].kind == "human":
            raise CommandError(
                "taken", f"a player sits at seat {cmd.seat}", field="seat", status=409
            )
        if cmd.bot not in available_bots():
            raise CommandError(
                "bot",
                f"no bot {cmd.bot!r}; choose from {', '.join(available_bots())}",
                field="bot",
                status=422,
            )
        await self._change_seat(SeatRecord(cmd.seat, "bot", cmd.bot, None, f"{cmd.bot} bot"))
        await self._settle()
        return self.table.copy()

    async def _change_seat(self, seat: SeatRecord) -> None:
        public: JSON = {"seat": seat.seat, "kind": seat.kind, "name": seat.name, "bot": seat.bot}

        def events(viewer: int | None) -> list[JSON]:
            return [{"seat": seat.seat, "join": seat.name, "kind": seat.kind}]

        await self._commit("seat", seat.seat, public, events, changed_seat=seat)

    async def _settle(self) -> None:
        """Start the game once every seat is taken."""
        table = self.table
        if table.status != "open" or any(s.kind == "open" for s in table.seats):
            return
        game = self.game = Game(self.ruleset, table.seed)
        data = {"events": self._round_events(0)}
        now = self.settings.clock()
        for seat in self._gone:  # the grace periods count from the start
            self._gone[seat] = now

        def events(viewer: int | None) -> list[JSON]:
            seen = self._seat_view(viewer)
            return [{"start": True}, {"round": 1}, *update_events(game, viewer, 0, seen)]

        await self._commit("start", None, data, events, started_turn=True)

    # --- commit and publish ------------------------------------------------------------

    async def _commit(
        self,
        kind: str,
        seat: int | None,
        data: JSON,
        events: Callable[[int | None], list[JSON]],
        *,
        changed_seat: SeatRecord | None = None,
        started_turn: bool = False,
    ) -> None:
        """Store the change just applied as the next event, then send it to every listener."""
        now = self.settings.clock()
        table = self.table.copy()
        table.version += 1
        table.updated_at = now
        if changed_seat is not None:
            table.seats[changed_seat.seat] = changed_seat
        game = self.game
        rounds: list[RoundRecord] = []
        if game is not None:
            table.status = "finished" if game.finished else "playing"
            table.scores = list(game.scores)
            for number, played in enumerate(game.rounds, 1):
                result = played.result
                if number > self._rounds_stored and result is not None:
                    rounds.append(
                        RoundRecord(number, round_result_record(result), list(result.scores_after))
                    )
            if game.finished:
                table.record = self._record(game, table)
        table.deadline = self._deadline(table, now, started_turn)
        event = EventRecord(table.version, kind, seat, data, now)
        try:
            await self.store.commit(table, event, seats=changed_seat is not None, rounds=rounds)
        except Exception:
            log.exception("table %s: could not store event %d", self.id, event.version)
            await self._recover()
            raise CommandError(
                "server", "the change could not be stored; nothing changed", status=503
            ) from None
        self.table = table
        self._rounds_stored += len(rounds)
        self._schedule()
        self._publish(events)

    def _record(self, game: Game, table: TableRecord) -> JSON | None:
        """The finished game's ``doublesix/1`` record (a failure here must not stop the table)."""
        try:
            return game_record(game, [s.name or f"seat {s.seat}" for s in table.seats])
        except Exception:
            log.exception("table %s: could not write the game's record", self.id)
            return None

    def _deadline(self, table: TableRecord, now: float, started_turn: bool) -> float | None:
        """When the human seat to move runs out of time, or the players' time to press
        Continue after a round; None without a timer or when no human is waited for."""
        if table.timer is None:
            return None
        seat = self._turn()
        if seat is not None:
            if table.seats[seat].kind != "human":
                return None
            duration = table.timer
        elif self._waiting_to_continue():
            duration = self.settings.continue_seconds
        else:
            return None
        if started_turn or table.deadline is None:
            return now + duration
        return table.deadline

    def _publish(self, events: Callable[[int | None], list[JSON]]) -> None:
        """Keep the event as each seat sees it (for ``since``), and send every listener the
        ``update`` of its seat: one encoding per seat, shared by that seat's sockets."""
        v = self.table.version
        viewers = [*range(self.ruleset.players), None]
        seen = {viewer: json.dumps(events(viewer)) for viewer in viewers}
        self._recent.append((v, seen))
        if not self.hub.listeners(self.id):
            return
        frames = {viewer: self._update_frame(v, seen[viewer], viewer) for viewer in viewers}
        self.hub.publish(self.id, v, frames)

    def _update_frame(self, version: int, events: str, viewer: int | None) -> str:
        """The ``update`` of ``version`` for ``viewer``: its events (JSON) and its view now."""
        view = json.dumps(self.view(viewer))
        return f'{{"type": "update", "version": {version}, "events": {events}, "view": {view}}}'
