"""The shell that runs one table: queue, store, publish, think, sleep.

A ``TableHost`` owns a ``TableState`` and is its only writer. Every command
goes through its queue and is handled by its single task, in order: the
state applies it (``TableState.apply``, pure), the host commits the new log
entries to the store, then publishes them — one frame per seat, each built
from that seat's view — and carries out the effects. Between commands it
sleeps until the table's next clock runs out, then applies ``Tick``. A bot's
move is found outside the task (``Thinking``) and comes back as a
``BotMove`` command for the version it was found at.

If a commit fails, the host rebuilds its state from the store, so memory
never runs ahead of the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

from doublesix.rules.view import SeatView
from doublesix.server.metrics import BOT_SECONDS, TABLE_COMMANDS
from doublesix.server.requests import Describe, Look, Reload, Request, Shell
from doublesix.server.store import StaleVersionError
from doublesix.server.workers import Busy
from doublesix.table import commands
from doublesix.table.errors import Refusal, TableError
from doublesix.table.frames import encode, event_frames
from doublesix.table.model import JSON, SEAT_KINDS, Entry, Table, TableStatus
from doublesix.table.state import Announce, OpenRematch, Outcome, TableState, Think, Unseat

log = logging.getLogger(__name__)


def listing(table: Table) -> tuple[object, ...]:
    """What the lobby's lists show of a table, but its version and time (every move's)."""
    seats = [(s.kind, s.name, s.bot) for s in table.seats]
    return (table.status, seats, table.scores, table.result)


def _counted(request: Request, outcome: str) -> None:
    """Count a table's command by its class and ``outcome`` (not the questions asked of the
    table: ``Look``, ``Describe``, ``Reload``)."""
    if not isinstance(request, Look | Describe | Reload):
        TABLE_COMMANDS.labels(type(request).__name__, outcome).inc()


@dataclass
class _Job:
    request: Request
    future: asyncio.Future[Any] | None = field(default=None, repr=False)


class TableHost:
    """The single writer of one table (see the module)."""

    def __init__(self, state: TableState, shell: Shell) -> None:
        self.state = state
        self.shell = shell
        self.table = state.table.copy()
        """The table as stored: what readers outside the task see (the state runs ahead
        of it while a commit is being written)."""
        self._queue: asyncio.Queue[_Job] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._thinking: tuple[Think, asyncio.Task[None]] | None = None
        self._rematching: asyncio.Task[None] | None = None
        self._finishing: asyncio.Task[None] | None = None

    @property
    def id(self) -> str:
        return self.state.table.id

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name=f"table-{self.id}")

    async def stop(self) -> None:
        self._think(None)
        if self._finishing is not None:  # the next start-up rates what it left
            self._finishing.cancel()
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        while not self._queue.empty():
            future = self._queue.get_nowait().future
            if future is not None and not future.done():
                future.set_exception(TableError(Refusal.CLOSED, "the server is stopping"))

    async def submit(self, request: Request) -> Any:
        """Hand ``request`` to the table's task; its answer, or the TableError it raised."""
        if not self.running:
            raise TableError(Refusal.CLOSED, "the table is not running")
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait(_Job(request, future))
        return await future

    async def hint(self, seat: int) -> list[JSON]:
        """The seat's legal moves, best first, from the expert's search in a worker."""
        if not self.table.hints:
            raise TableError(Refusal.HINTS_OFF, "this table plays without hints")
        view = await self.submit(Look(seat))
        if view is None or not view.my_turn:
            raise TableError(Refusal.NOT_YOUR_TURN, "a hint is for your own turn")
        try:
            return await self.shell.thinking.hints(view, table=self.id, seat=seat)
        except BrokenProcessPool:
            raise TableError(Refusal.NO_HINTS, "the hint's search stopped; ask again") from None
        except Busy:
            raise TableError(Refusal.NO_HINTS, "this table's hints are busy; ask again") from None

    def _later(self, command: commands.Command) -> None:
        self._queue.put_nowait(_Job(command))

    async def _run(self) -> None:
        await self._handle(_Job(commands.Start()))
        while True:
            try:
                job = await asyncio.wait_for(self._queue.get(), self._sleep())
            except TimeoutError:
                if self._retired():
                    return  # the manager loads the table again when asked
                job = _Job(commands.Tick())
            await self._handle(job)

    def _sleep(self) -> float | None:
        """Seconds until the next clock runs out; a finished table's time to retire."""
        if self.state.table.status in (TableStatus.FINISHED, TableStatus.CLOSED):
            return self.shell.idle_seconds
        wake = self.state.wake_at()
        return None if wake is None else max(0.0, wake - self.shell.clock())

    def _retired(self) -> bool:
        finished = self.state.table.status in (TableStatus.FINISHED, TableStatus.CLOSED)
        return finished and self._queue.empty() and not self.shell.hub.listeners(self.id)

    async def _handle(self, job: _Job) -> None:
        try:
            answer = await self._answer(job.request)
        except TableError as e:
            _counted(job.request, "refused")
            if job.future is not None and not job.future.done():
                job.future.set_exception(e)
        except Exception as e:  # a bug or the database: never leave the table broken
            _counted(job.request, "failed")
            if isinstance(e, StaleVersionError):  # another process runs the table now
                log.warning("table %s: %s", self.id, e)
            else:
                log.exception("table %s: %r failed", self.id, job.request)
            await self._rebuild()
            if job.future is not None and not job.future.done():
                job.future.set_exception(
                    TableError(Refusal.SERVER, "the change could not be stored; nothing changed")
                )
        else:
            _counted(job.request, "applied")
            if job.future is not None and not job.future.done():
                job.future.set_result(answer)

    async def _answer(self, request: Request) -> Any:
        state = self.state
        match request:
            case Look(seat=seat):
                return None if state.game is None else state.seat_view(seat)
            case Describe():
                return state.table.copy()
            case Reload():
                await self._rebuild()
                return None
            case commands.Rechat(chat=chat, said=None):  # its words are the stored log's
                said = await self.shell.store.entry(self.id, chat)
                return await self._apply(commands.Rechat(chat, said))
        return await self._apply(request)

    async def _apply(self, command: commands.Command) -> Any:
        outcome = self.state.apply(command, self.shell.clock())
        if outcome.entries:
            await self._commit(outcome.entries)
        self._carry_out(outcome)
        return outcome.answer

    async def _commit(self, entries: Sequence[Entry]) -> None:
        was = self.table.status
        finishing = was != TableStatus.FINISHED and self.state.table.status == TableStatus.FINISHED
        # the seats again at the end: each is stored with its outcome (store._outcomes)
        seats = finishing or any(e.kind in SEAT_KINDS for e in entries)
        shown = listing(self.table)
        await self.shell.store.commit(self.state.table, entries, seats=seats)
        self.table = self.state.table.copy()
        if finishing:
            self._finished(self.table.copy())
        if self.shell.listed is not None and listing(self.table) != shown:
            self.shell.listed(self.table.copy())
        hub = self.shell.hub
        if not hub.wanted(self.id):
            return
        state = self.state
        views = state.encoded_views()
        for entry in entries:
            hub.publish(self.id, entry.version, event_frames(entry, views, state.restored))

    def publish_again(self, count: int) -> None:
        """Publish the table's last ``count`` entries again. The process that takes a table
        over calls it: the one that died may have stored them and died before it sent
        them. A socket drops what it has already; one that missed more than these sees a
        gap in the versions and comes back with ``since``."""
        hub = self.shell.hub
        if not hub.wanted(self.id):
            return
        views = self.state.encoded_views()
        for entry in list(self.state.recent)[-count:]:
            hub.publish(self.id, entry.version, event_frames(entry, views, self.state.restored))

    def _carry_out(self, outcome: Outcome) -> None:
        for effect in outcome.effects:
            if isinstance(effect, Announce):
                presence = encode({"type": "presence", "away": self.state.away()})
                self.shell.hub.notify(self.id, presence)
            elif isinstance(effect, Unseat):
                self.shell.hub.unseat(self.id, effect.seat, effect.version)
            elif isinstance(effect, OpenRematch):
                self._rematching = asyncio.create_task(
                    self._open_rematch(effect.table), name=f"rematch-{self.id}"
                )
        self._think(outcome.think)

    def _finished(self, table: Table) -> None:
        """The game's end is stored: what follows it (its rating) runs outside the task."""
        if self.shell.finished is not None:
            self._finishing = asyncio.create_task(
                self._after_finish(self.shell.finished, table), name=f"finished-{self.id}"
            )

    async def _after_finish(
        self, finished: Callable[[Table], Awaitable[None]], table: Table
    ) -> None:
        try:
            await finished(table)
        except Exception:
            log.exception("table %s: what follows the game's end failed", self.id)

    async def _open_rematch(self, table: Table) -> None:
        try:
            self._later(commands.RematchOpened(await self.shell.rematch(table)))
        except Exception:
            log.exception("table %s: the rematch could not be made", self.id)

    async def _rebuild(self) -> None:
        """The state anew from the store (after a failed commit or a bug, or ``Reload``)."""
        store, shell = self.shell.store, self.shell
        try:
            table = await store.table(self.id)
            if table is None:
                raise RuntimeError(f"table {self.id} is gone from the store")
            entries = await store.events(self.id)
            now = shell.clock()
            sockets = tuple(self.state.sockets.items())
            self.state = TableState.rebuild(table, entries, shell.config, shell.levels, now)
            self.table = table.copy()
            self.state.apply(commands.Hold(sockets), now)
            self._think(self.state.think())
        except Exception:
            log.exception("table %s: could not rebuild", self.id)

    # --- bots ---------------------------------------------------------------------------

    def _think(self, think: Think | None) -> None:
        """Find the move the table waits for from a bot, unless it is being found already."""
        current = self._thinking
        if current is not None:
            if think is not None and current[0].key == think.key and not current[1].done():
                return
            current[1].cancel()
            self._thinking = None
        if think is not None:
            task = asyncio.create_task(self._find(think), name=f"table-{self.id}-{think.seat}")
            self._thinking = (think, task)

    async def _find(self, think: Think) -> None:
        """Let the bot choose outside the table's task; its move comes back as a command for
        the version it was found at (dropped if the table has moved on)."""
        if think.delay > 0:
            await asyncio.sleep(think.delay)
        view: SeatView = think.view
        try:
            watched = bool(self.state.sockets)  # a human seat has a socket open
            asked = time.perf_counter()
            move = await self.shell.thinking.choose(
                think.level, think.seed, view, table=self.id, watched=watched
            )
            BOT_SECONDS.labels(think.level).observe(time.perf_counter() - asked)
        except Exception:
            log.exception(
                "table %s: bot of seat %d failed; it plays its first move", self.id, think.seat
            )
            move = view.legal_moves[0]
        self._later(commands.BotMove(think.seat, move, think.version, think.stand))
