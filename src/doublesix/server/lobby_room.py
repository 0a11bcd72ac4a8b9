"""The lobby of the whole site: who is online, challenges, seeks, chat, tables, and whom to
tell.

``Lobby`` keeps this process's lobby sockets and, through the ``LobbyBus``,
hears what every process changed: a player came or went (the online list is
worked out again, at most every ``SETTLE_SECONDS``, and what changed is sent:
``online_list``), a chat message, a table's entry in the lists changed (sent to
every socket), a challenge changed (sent to the sockets of the players it
involves), a private message (sent to its recipient's and sender's sockets).
It also ends the challenges that are due: after
``challenges.SECONDS`` (``sweep``), or when their challenger or one of the
challenged has had no socket anywhere for ``LEAVE_SECONDS`` (a page reload
is no leaving). Its pool of seeks is ``seeking.Seeking``'s; the lobby pairs them at each
sweep, tells their sockets, and ends the seek of a player who left the lobby. Its
tournaments are ``touring.Touring``'s: each sweep starts and ends those due and pairs their
free players, and every lobby hears of their changes (``tournament``) and each player of
being paired (``tournament_paired``). A page without the lobby keeps a personal socket
(``/ws/lobby?only=me``, ``personal``): it hears only the frames addressed to its player that
every page shows (``PERSONAL_FRAMES``), and is not in the lobby. A closed
account is shut out of the site at once (``shut_out``, or ``doublesix account close
--redis``, which sends the same message): its challenges end as if it had left (the others
are told at once), every process closes its sockets, lobby and table, and a bot takes its
seats at the tables the process runs. A session that ends (a log-out, a new password, a log-in
over it) closes the lobby sockets opened with it on every process, and the table sockets that
watch with it (``sign_out``), and nothing else: its player stays online through their other
sockets. A new password also gives the account's seats new tokens (``new_password``). An
erased account's lobby messages are removed (``forget_chat_of``), and every process reads
again the tables the erasure rewrote (``erased``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable, Collection, Coroutine, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from typing import Protocol

from limits import RateLimitItemPerMinute

from doublesix.server import online_list
from doublesix.server.account_lists import BLOCKS
from doublesix.server.challenges import (
    OPEN_AT_ONCE,
    Answer,
    Challenge,
    ChallengeIn,
    Status,
    answer,
    new_challenge,
    over,
)
from doublesix.server.errors import CommandError
from doublesix.server.lobby import table_json
from doublesix.server.lobby_bus import (
    LobbyBus,
    LocalBus,
    RedisBus,
    account_closed,
    challenge_changed,
    sessions_ended,
    tables_erased,
)
from doublesix.server.lobby_chat import (
    History,
    LocalHistory,
    RedisHistory,
    Speakers,
    clean_text,
    forget,
    message,
)
from doublesix.server.lobby_sql import Book
from doublesix.server.manager import TableManager
from doublesix.server.messages import Sent
from doublesix.server.metrics import refused
from doublesix.server.player_limits import LocalPlayerLimits, PlayerLimits, RedisPlayerLimits
from doublesix.server.presence import (
    ONLINE_SECONDS,
    LocalPresence,
    OnlinePlayer,
    Presence,
    RedisPresence,
)
from doublesix.server.rating_store import shown_ratings
from doublesix.server.relay import Relay
from doublesix.server.requests import Describe, Reload
from doublesix.server.seat_keys import rekey, rekey_here
from doublesix.server.seek_sql import Pool
from doublesix.server.seeking import Seeking
from doublesix.server.settings import Settings
from doublesix.server.store import Guest, SqlStore, Store
from doublesix.server.touring import Touring
from doublesix.table import commands
from doublesix.table.commands import Phrase, Player
from doublesix.table.errors import TableError
from doublesix.table.model import JSON, Table

log = logging.getLogger(__name__)

SETTLE_SECONDS = 0.2
"""Changes of who is online within this long go out as one list."""
RENEW_SECONDS = ONLINE_SECONDS / 3
"""How often a process renews its players in Redis (and looks at everyone's)."""
LEAVE_SECONDS = 3.0
"""A player without a socket this long has left: the challenges they made are cancelled,
the open ones sent to them end ``left``."""
SWEEP_SECONDS = 1.0
"""How often the challenges that are due are looked for."""
CHALLENGES = RateLimitItemPerMinute(10, namespace="challenges")
"""Challenges one player may make per minute (the site's count: ``player_limits``)."""
PERSONAL_FRAMES = frozenset({"challenge", "message"})
"""The frames a personal lobby socket (``/ws/lobby?only=me``) is sent: those addressed to its
player that every page shows. Never the site's broadcasts, nor Play now's or the tournaments'
frames (such a socket is not in the lobby: neither pairs its player)."""


@dataclass
class Place:
    """Where a socket inside ``Lobby.present`` puts its player: at ``table``, or nowhere."""

    player: Guest | None
    table: str | None


class LobbyListener(Protocol):
    """A lobby socket: whose it is, and how to hand it a frame (must not block)."""

    @property
    def player(self) -> str | None: ...

    def send(self, frame: JSON) -> None: ...


class PlayerSocket(Protocol):
    """A socket of this process, the lobby's or a table's: whose it is, and how to close it
    once that account is closed (must not block)."""

    def belongs_to(self, player_id: str) -> bool: ...

    def account_closed(self) -> None:
        """Close the socket at once (``ws.CLOSE_ACCOUNT_CLOSED``); handle nothing more."""
        ...


class SessionSocket(Protocol):
    """A socket of this process, the lobby's or a table's: the session it was opened with, and
    how to close it once that session ends (must not block)."""

    @property
    def session(self) -> str | None:
        """The key of the session of its cookie (``accounts.session_key``), if it had one."""
        ...

    def signed_out(self) -> None:
        """Close the socket at once (``ws.CLOSE_SIGNED_OUT``) and handle nothing more; a
        table's socket that holds a seat plays on (``ws.Connection.signed_out``)."""
        ...


class Lobby:
    def __init__(
        self,
        book: Book,
        manager: TableManager,
        settings: Settings,
        presence: Presence,
        bus: LobbyBus,
        history: History,
        limits: PlayerLimits,
        *,
        leave_seconds: float = LEAVE_SECONDS,
        sweep_seconds: float = SWEEP_SECONDS,
        forget: Callable[[str], None] = lambda table_id: None,
    ) -> None:
        """``forget(table_id)``: this process drops what it keeps of a finished game, derived
        from its log (its record, its reviews): an erasure rewrote it (``_reread``)."""
        self.book, self.manager, self.settings = book, manager, settings
        self.presence, self.bus, self.history = presence, bus, history
        self.leave_seconds, self.sweep_seconds = leave_seconds, sweep_seconds
        self.forget = forget
        self.listeners: set[LobbyListener] = set()
        """The lobby's sockets: every frame of the lobby."""
        self.personal: set[LobbyListener] = set()
        """The personal sockets of named players (``/ws/lobby?only=me``): only the
        ``PERSONAL_FRAMES`` addressed to their player."""
        self.sockets: set[PlayerSocket] = set()
        """Every socket of this process inside ``present``, the visitors' too."""
        self.session_sockets: set[SessionSocket] = set()
        """Every socket of this process inside ``in_session``, lobby and table."""
        self.seeking = Seeking(Pool(book.store), manager, settings, presence, bus, limits)
        self.touring = Touring(book.store, manager, settings, presence, bus)
        self.limits = limits
        """How often each player speaks in the lobby, challenges (``CHALLENGES``) and writes
        private messages (``messages.RATE``): the site's counts with several processes."""
        self.speakers = Speakers(limits)
        self._dirty = asyncio.Event()
        self._players: list[JSON] = []
        self._tasks: list[asyncio.Task[None]] = []
        self._leaving: set[asyncio.Task[None]] = set()
        self._absent: dict[str, float] = {}
        """Players of open challenges online nowhere, since when (``time.monotonic``)."""
        self._away: dict[str, float] = {}
        """Seekers in the lobby nowhere, since when: their seeks end after ``leave_seconds``."""
        self._closed = False

    async def start(self) -> None:
        self.bus.on_message = self._receive
        await self.bus.start()
        try:  # the site's players of before, for the first sockets' welcome
            self._players = await self.players()
        except Exception:
            log.warning("lobby: could not read who is online", exc_info=True)
        self._tasks = [
            asyncio.create_task(self._watch_online(), name="lobby-online"),
            asyncio.create_task(self._sweep(), name="lobby-sweep"),
        ]

    async def close(self) -> None:
        self._closed = True  # sockets closing after this tell no one (no entry outlives us)
        for task in [*self._tasks, *self._leaving]:
            task.cancel()
        for task in [*self._tasks, *self._leaving]:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.bus.close()
        await self.presence.close()

    # --- presence ---------------------------------------------------------------------

    @asynccontextmanager
    async def present(
        self, player: Guest | None, table: str | None, socket: PlayerSocket, lobby: bool = False
    ) -> AsyncIterator[Place]:
        """While inside, ``socket`` is closed if its account is (``shut_out``), and ``player``
        (if any) is online, seated at ``table`` (if any) until ``stand_up``, in the lobby
        (``lobby``: the lobby's socket)."""
        place = Place(player, table)
        self.sockets.add(socket)
        try:
            if player is None:
                yield place
                return
            self.presence.here.add(
                OnlinePlayer(player.id, player.name, player.account), table, lobby
            )
            await self._changed(player.id)
            try:
                yield place
            finally:
                last = self.presence.here.remove(player.id, place.table, lobby)
                await self._changed(player.id)
                if last and not self._closed:
                    self._soon(self._left(player.id))
        finally:
            self.sockets.discard(socket)

    def stand_up(self, place: Place) -> None:
        """The seat of a socket inside ``present`` was left (the socket stays, watching): its
        player sits there no more, for every lobby at once (Play now's ``seated`` too)."""
        if place.player is None or place.table is None:
            return
        self.presence.here.stand(place.player.id, place.table)
        place.table = None
        if not self._closed:
            self._soon(self._changed(place.player.id))

    def _soon(self, work: Coroutine[None, None, None]) -> None:
        """Run ``work`` in a task of its own, which ``close`` cancels if it is not done."""
        task = asyncio.create_task(work)
        self._leaving.add(task)
        task.add_done_callback(self._leaving.discard)

    async def players(self) -> list[JSON]:
        """Everyone online on the site, as the lobby shows them, by name; an account with its
        rating in every variant (the lobby shows the one of the variant it shows)."""
        online = await self.presence.online()
        ratings = await shown_ratings(self.book.store, [p.id for p in online.values() if p.account])
        shown = []
        for player in online.values():
            public = player.public()
            if player.id in ratings:
                public["ratings"] = {f.value: r.to_json() for f, r in ratings[player.id].items()}
            shown.append(public)
        return sorted(shown, key=lambda p: p["name"].casefold())

    def shown(self) -> list[JSON]:
        """The list this process's lobby sockets were last told (``players`` as of the last
        ``online`` frame): a new socket starts from it, so the changes that follow apply to
        what it holds."""
        return list(self._players)

    async def _changed(self, player_id: str) -> None:
        if self._closed:
            return
        try:
            await self.presence.publish(player_id)
        except Exception:
            log.warning("lobby: could not tell the site who is online here", exc_info=True)
        self.bus.publish({"k": "online"})

    async def _watch_online(self) -> None:
        renewed = time.monotonic()
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._dirty.wait(), RENEW_SECONDS)
            if time.monotonic() - renewed >= RENEW_SECONDS:
                renewed = time.monotonic()
                try:
                    await self.presence.publish()  # everyone again, before it expires
                except Exception:
                    log.warning("lobby: could not renew who is online here", exc_info=True)
            await asyncio.sleep(SETTLE_SECONDS)
            self._dirty.clear()
            try:
                players = await self.players()
            except Exception:
                log.warning("lobby: could not read who is online", exc_info=True)
                continue
            changed = online_list.change(self._players, players)
            if changed is not None:
                self._players = players
                self._broadcast({"type": "online", **changed})

    async def _left(self, player_id: str) -> None:
        await asyncio.sleep(self.leave_seconds)
        if self.presence.here.has(player_id) or player_id in await self.presence.online():
            return
        await self._gone(player_id)

    async def _gone(self, player_id: str) -> None:
        """``player_id`` has left the site, or its account was closed: end the challenges it
        made or was sent (``Book.left``), and its seek."""
        await self.seeking.left(player_id)
        for challenge in await self.book.left(player_id):
            self._tell(challenge)

    # --- what every process hears ---------------------------------------------------

    def _receive(self, data: JSON) -> None:
        kind = data.get("k")
        if kind == "online":
            self._dirty.set()
        elif kind == "chat":
            self._broadcast(data["m"])
        elif kind == "unchat":
            self._broadcast({"type": "unchat", "id": data["id"]})
        elif kind == "table":
            self._broadcast({"type": "table", "table": data["t"]})
        elif kind == "pool":
            self._broadcast({"type": "pool", "pool": data["f"]})
        elif kind == "seek":
            self._to(data["p"], {"type": "seek", "seek": data["f"], "table": data["t"]})
        elif kind == "message":
            self._to(data["p"], data["f"])
        elif kind == "tournament":
            self._broadcast({"type": "tournament", "id": data["id"], "summary": data["f"]})
        elif kind == "paired":
            paired = {"type": "tournament_paired", "tournament": data["t"], "table": data["table"]}
            self._to(data["p"], paired)
        elif kind == "closed":
            self._shut(data["p"])
        elif kind == "signed_out":
            self._signed_out(data["s"])
        elif kind == "rekey":
            self._soon(rekey_here(self.manager, data["p"]))
        elif kind == "erased":
            self._soon(self._reread(data["t"]))
        elif kind == "to":
            people, challenger = set(data["p"]), data["c"]
            for listener in self._addressed("challenge"):
                if listener.player in people:
                    challenge = data["f"] | {"mine": listener.player == challenger}
                    listener.send({"type": "challenge", "challenge": challenge})

    # --- a closed account -------------------------------------------------------------

    async def shut_out(self, player_id: str) -> None:
        """The account ``player_id`` was closed (a ban, its player's own close, its erasure):
        its challenges and seek end at once, as if it had left (``_gone``: the others are
        told now, not when the challenge expires; an erasure then finds none open), and every
        process of the site, this one too, is told to shut it out (``_shut``). ``doublesix
        account close --redis`` does the same from outside the site's processes
        (``cli.account.shutting_out``)."""
        if self._closed:
            return
        try:
            await self._gone(player_id)
        except Exception:  # the shut-out goes on: the sweep ends them once it is gone
            log.warning("lobby: could not end a closed account's challenges", exc_info=True)
        self.bus.publish(account_closed(player_id))

    def _shut(self, player_id: str) -> None:
        """This process's part of shutting the account ``player_id`` out: it closes its
        sockets, lobby and table, at once (their players go offline; a table socket's seat
        is away), then a bot takes each seat the account holds at the tables this process
        runs, as for a player who leaves (``commands.Leave``: before the start the seat is
        free again, or the table is closed if the account made it). A table's owner hands
        its seat over wherever the account's sockets were. Its seats' tokens are refused
        from then on (``ws.table_socket``), so it takes none of them back.

        A table that no process runs just then (its process died, and no other has taken
        its lease yet) hears nothing: the process that takes it over finds the seat away,
        as every seat of it, and no token takes it back, so once a game's grace period runs
        out a bot plays for it (``serve --grace``), as for any player gone."""
        for socket in list(self.sockets):
            if socket.belongs_to(player_id):
                socket.account_closed()
        if not self._closed:
            self._soon(self._hand_over(player_id))

    async def _hand_over(self, player_id: str) -> None:
        """A bot in every seat ``player_id`` holds at the tables this process runs."""
        for host, seat in self.manager.seats_of(player_id):
            with contextlib.suppress(TableError):  # over meanwhile, or stopping
                await host.submit(commands.Leave(seat))

    # --- ended sessions ---------------------------------------------------------------

    @contextmanager
    def in_session(self, socket: SessionSocket) -> Iterator[None]:
        """While inside, ``socket`` is closed once the session it was opened with ends
        (``sign_out``). Entered before the session is read: one that ends meanwhile closes
        it too."""
        self.session_sockets.add(socket)
        try:
            yield
        finally:
            self.session_sockets.discard(socket)

    def sign_out(self, sessions: Collection[str]) -> None:
        """The sessions of these keys have ended (a log-out, a new password, a log-in over
        one): every process of the site, this one too, closes the sockets opened with them,
        lobby and watching tables (``_signed_out``). Nothing is ended here, unlike
        ``shut_out``: the account's challenges, seek and seats go on while its player has
        another socket, as after a tab closed (``present``). A seat's socket stays: a seat is
        its token's (but for a new password's: ``new_password``)."""
        if sessions and not self._closed:
            self.bus.publish(sessions_ended(list(sessions)))

    async def new_password(self, player_id: str, sessions: Collection[str]) -> None:
        """The account ``player_id`` has a new password, which ended these sessions: they are
        signed out (``sign_out``), and every seat the account holds at a table not over takes
        a new token at the table's owner, the old one's sockets watching from then on
        (``seat_keys.rekey``): a seat taken with a stolen session plays no more. (The command
        line's reset sends ``lobby_bus.password_changed`` instead.)"""
        self.sign_out(sessions)
        await rekey(self.book.store, self.manager, player_id)

    def _signed_out(self, sessions: list[str]) -> None:
        """This process's part of ``sign_out``."""
        ended = set(sessions)
        for socket in list(self.session_sockets):
            if socket.session in ended:
                socket.signed_out()

    # --- an erased account ------------------------------------------------------------

    async def forget_chat_of(self, name: str) -> None:
        """An erased account's words leave the lobby's chat, as by an operator's removal:
        what a new lobby socket is sent, and every lobby's list now."""
        for message_id in await forget(self.history, name):
            self.bus.publish({"k": "unchat", "id": message_id})

    async def erased(self, tables: list[str]) -> None:
        """An erasure rewrote the seats or logs of ``tables``: every process, this one too,
        reads those it holds again (``_reread``)."""
        if tables and not self._closed:
            self.bus.publish(tables_erased(tables))

    async def _reread(self, tables: list[str]) -> None:
        """This process's part of ``erased``: a table it runs reads its seats and log again,
        then what it keeps of those tables (a finished game's record and reviews,
        ``forget``) is dropped — after, so that a record is not made again meanwhile from
        the seats the host still held."""
        for table_id in tables:
            host = self.manager.hosts.get(table_id)
            if host is not None:
                with contextlib.suppress(TableError):  # stopping
                    await host.submit(Reload())
            self.forget(table_id)

    # --- the lists of tables ------------------------------------------------------------

    def table_changed(self, table: Table) -> None:
        """Tell every lobby socket on the site what its lists now show of ``table``."""
        if not self._closed:
            self.bus.publish({"k": "table", "t": table_json(table)})

    def _broadcast(self, frame: JSON) -> None:
        for listener in list(self.listeners):
            listener.send(frame)

    def _to(self, player_id: str, frame: JSON) -> None:
        """``frame`` to this process's lobby sockets of ``player_id`` (their personal ones
        too, for a frame of ``PERSONAL_FRAMES``)."""
        for listener in self._addressed(frame["type"]):
            if listener.player == player_id:
                listener.send(frame)

    def _addressed(self, kind: str) -> list[LobbyListener]:
        """This process's sockets that take a frame of type ``kind`` addressed to their
        player: every lobby socket, and the personal ones for ``PERSONAL_FRAMES``."""
        personal = self.personal if kind in PERSONAL_FRAMES else set()
        return [*self.listeners, *personal]

    def _tell(self, challenge: Challenge) -> None:
        """Send the challenge as it is now to everyone it involves, on every process."""
        self.bus.publish(challenge_changed(challenge, self.settings.clock()))

    # --- chat -------------------------------------------------------------------------

    async def chat(self, player: Player, text: str | None, phrase: Phrase | None) -> None:
        """Say ``text`` or ``phrase`` to the lobby; TableError if it may not be said."""
        said = None if text is None else clean_text(text)
        await self.speakers.speak(player.id)
        frame = message(player.name, said, phrase, self.settings.clock())
        await self.history.add(frame)
        self.bus.publish({"k": "chat", "m": frame})

    async def unsay(self, message_id: str) -> JSON:
        """One of the site's operators removes a message: from what a new lobby socket is
        sent, and from every lobby's list now; the message. 404 if it is not kept (any
        more)."""
        said = await self.history.remove(message_id)
        if said is None:
            raise CommandError(
                "not_found", f"no lobby message {message_id!r}", field="id", status=404
            )
        self.bus.publish({"k": "unchat", "id": message_id})
        return said

    # --- private messages ---------------------------------------------------------------

    def message_sent(self, sent: Sent) -> None:
        """A private message kept: a ``message`` frame to the recipient's lobby sockets, their
        personal ones too, on every process, with their unread count (none if they mute the
        sender's name), and to the sender's (their other tabs' threads)."""
        frame = {"type": "message", "message": sent.message}
        if not sent.muted:
            told = frame | {"with": sent.sender.name, "unread": sent.unread}
            self.bus.publish({"k": "message", "p": sent.recipient.id, "f": told})
        mine = frame | {"with": sent.recipient.name}
        self.bus.publish({"k": "message", "p": sent.sender.id, "f": mine})

    # --- challenges -------------------------------------------------------------------

    async def mine(self, player_id: str) -> list[JSON]:
        """The open challenges ``player_id`` made or was sent, as their lobby shows them."""
        now = self.settings.clock()
        return [
            c.public(now) | {"mine": c.player == player_id}
            for c in await self.book.open()
            if c.involves(player_id) and now < c.expires_at
        ]

    async def challenge(self, body: ChallengeIn, who: Guest) -> Challenge:
        now = self.settings.clock()
        waiting = [c for c in await self.book.open() if c.player == who.id and now < c.expires_at]
        if len(waiting) >= OPEN_AT_ONCE:
            refused("player:open-challenges")
            raise CommandError(
                "too_many_challenges",
                f"at most {OPEN_AT_ONCE} challenges wait for answers at once",
                status=429,
            )
        challenge = new_challenge(body, who, await self.presence.online(), now)
        await self._unblocked(challenge)
        if not await self.limits.hit(CHALLENGES, who.id):
            raise CommandError(
                "too_many_challenges",
                f"at most {CHALLENGES.amount} challenges a minute",
                status=429,
            )
        await self.book.add(challenge)
        self._tell(challenge)
        return challenge

    async def _unblocked(self, challenge: Challenge) -> None:
        """Refuse (field ``to.N``) a challenge between a player and one it blocks or is
        blocked by."""
        blocks = await BLOCKS.among(self.book.store, challenge.people())
        for n, invited in enumerate(challenge.invited):
            if (challenge.player, invited.id) in blocks:
                raise CommandError(
                    "blocked", f"you have blocked {invited.name}", field=f"to.{n}", status=422
                )
            if (invited.id, challenge.player) in blocks:
                raise CommandError(
                    "blocked",
                    f"{invited.name} does not take your challenges",
                    field=f"to.{n}",
                    status=422,
                )

    async def answer(self, challenge_id: str, who: Guest, given: Answer) -> Challenge:
        """``who`` accepts or declines; the challenge as it is then (with its table once
        everyone accepted)."""
        now, seed = self.settings.clock(), self.settings.new_seed()
        changed = await self.book.change(
            challenge_id, lambda c: answer(c, who.id, given, now, seed)
        )
        if changed is None:
            raise CommandError("not_found", f"no challenge {challenge_id!r}", status=404)
        challenge, outcome = changed
        if outcome.table is not None:
            host = await self.manager.create(outcome.table)
            await host.submit(Describe())  # once it has started (and stored so)
        self._tell(challenge)
        if challenge.status == Status.EXPIRED:
            raise CommandError("expired", "this challenge has expired", status=409)
        return challenge

    async def withdraw(self, challenge_id: str, who: Guest) -> Challenge:
        """The challenger takes the challenge back."""
        found = await self.book.get(challenge_id)
        if found is None:
            raise CommandError("not_found", f"no challenge {challenge_id!r}", status=404)
        if found.player != who.id:
            raise CommandError("forbidden", "only its challenger withdraws a challenge", status=403)
        ended = await self.book.end([challenge_id], Status.CANCELLED, lambda c: True)
        if not ended:
            raise over(await self.book.get(challenge_id) or found)
        self._tell(ended[0])
        return ended[0]

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(self.sweep_seconds)
            try:
                await self.expire()
            except Exception:
                log.warning("lobby: could not expire the challenges that are due", exc_info=True)
            try:
                await self.seeking.pair()
            except Exception:
                log.warning("lobby: could not pair the seeks", exc_info=True)
            try:
                await self.touring.sweep()
            except Exception:
                log.warning("lobby: could not run the tournaments", exc_info=True)

    async def expire(self) -> None:
        """End the challenges whose minute is over, and tell everyone involved; then those of
        the players who left the site from a process that could not say so (``_vanished``)."""
        now = self.settings.clock()
        waiting = await self.book.open()
        due = [c.id for c in waiting if now >= c.expires_at]
        if due:
            ended = await self.book.end(due, Status.EXPIRED, lambda c: now >= c.expires_at)
            for challenge in ended:
                self._tell(challenge)
        await self._vanished([c for c in waiting if c.id not in due])

    async def _vanished(self, waiting: list[Challenge]) -> None:
        """A player leaving is noticed by the process that held its last socket (``present``);
        if that process died, by this sweep on every other one: a player of an open challenge
        found online nowhere for ``leave_seconds`` has left. A seeker found in the lobby
        nowhere that long has left the pool (a reload is not leaving)."""
        involved = {p for c in waiting for p in c.people()}
        seekers = await self.seeking.seekers()
        if not involved and not seekers:
            self._absent.clear()
            self._away.clear()
            return
        online = await self.presence.online()
        now = time.monotonic()
        away = {p for p in seekers if p not in online or not online[p].lobby}
        self._away = {p: self._away.get(p, now) for p in away}
        for player_id, since in list(self._away.items()):
            if now - since >= self.leave_seconds:
                del self._away[player_id]
                await self.seeking.left(player_id)
        self._absent = {p: self._absent.get(p, now) for p in involved if p not in online}
        for player_id, since in list(self._absent.items()):
            if now - since >= self.leave_seconds:
                del self._absent[player_id]
                await self._gone(player_id)


@asynccontextmanager
async def open_lobby(
    store: Store,
    manager: TableManager,
    settings: Settings,
    relay: Relay | None,
    forget: Callable[[str], None],
) -> AsyncIterator[Lobby]:
    """The lobby of this process: in memory alone, through Redis beside others; ``forget``
    as ``Lobby``'s."""
    if not isinstance(store, SqlStore):
        raise ValueError("the lobby keeps its challenges in the SQL store")
    if relay is None:
        lobby = Lobby(
            Book(store),
            manager,
            settings,
            LocalPresence(),
            LocalBus(),
            LocalHistory(),
            LocalPlayerLimits(),
            forget=forget,
        )
    else:
        lobby = Lobby(
            Book(store),
            manager,
            settings,
            RedisPresence(relay.redis, relay.space, relay.process),
            RedisBus(relay.redis, relay.space),
            RedisHistory(relay.redis, relay.space),
            RedisPlayerLimits(relay.redis, relay.space),
            forget=forget,
        )
    await lobby.start()
    try:
        yield lobby
    finally:
        await lobby.close()
