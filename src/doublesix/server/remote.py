"""A table run by another process: its requests forwarded through Redis, as JSON.

The socket edge and the routes talk to a table through a link: the local
``TableHost``, or a ``RemoteTable`` that sends the same requests to the
owner's process (``Relay.call``) and turns its answer — or its refusal —
back into the values a local host would have given. Only what a client can
ask crosses: a bot's move, a clock's tick or a player's arrival are always
the owner's own.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any, Protocol

from doublesix.rules.moves import End, Move, Turn
from doublesix.server.relay import Relay, RelayError
from doublesix.server.requests import Describe, Request
from doublesix.table import commands
from doublesix.table.commands import Phrase, Player
from doublesix.table.errors import Refusal, TableError
from doublesix.table.model import JSON, Seat, SeatKind, Table, TableStatus
from doublesix.tiles import Tile


class TableLink(Protocol):
    """Where a table's requests go: its host here, or its owner elsewhere."""

    @property
    def id(self) -> str: ...

    async def submit(self, request: Request) -> Any: ...

    async def hint(self, seat: int) -> list[JSON]:
        """The seat's legal moves, best first (the table must allow hints; its turn)."""
        ...


def _player(player: Player | None) -> list[str | bool] | None:
    return None if player is None else [player.id, player.name, player.account]


def encode(request: Request) -> tuple[str, JSON]:
    """The operation and arguments that carry ``request`` to another process."""
    match request:
        case commands.Join(player=player, token=token, seat=seat, invite=invite):
            args = {"player": _player(player), "token": token, "seat": seat, "invite": invite}
            return "join", args
        case commands.Rekey(player=player_id, token=token):
            return "rekey", {"player": player_id, "token": token}
        case commands.SetBot(player=player, seat=seat, level=level):
            return "set_bot", {"player": player, "seat": seat, "level": level}
        case commands.Play(seat=seat, move=move, version=version, turn=turn):
            end = None if move.end is None else move.end.value
            way = None if turn is None else turn.value
            args = {"seat": seat, "tile": str(move.tile), "end": end, "version": version}
            return "play", args | {"turn": way}
        case commands.Straighten(seat=seat, at=at, turn=turn, version=version):
            args = {"seat": seat, "at": str(at), "turn": turn.value, "version": version}
            return "straighten", args
        case commands.Continue(seat=seat):
            return "continue", {"seat": seat}
        case commands.Chat(seat=seat, player=player, text=text, phrase=phrase):
            said = None if phrase is None else phrase.value
            return "chat", {"seat": seat, "player": _player(player), "text": text, "phrase": said}
        case commands.Rematch(seat=seat, agree=agree):
            return "rematch", {"seat": seat, "agree": agree}
        case commands.Leave(seat=seat, before_start=before_start):
            return "leave", {"seat": seat, "before_start": before_start}
        case commands.Unchat(chat=chat):
            return "unchat", {"chat": chat}
        case commands.Rechat(chat=chat):  # the owner reads its words (``TableHost``)
            return "rechat", {"chat": chat}
        case commands.Connect(socket=socket, seat=seat, since=since, token=token):
            return "connect", {"socket": socket, "seat": seat, "since": since, "token": token}
        case commands.Disconnect(socket=socket):
            return "disconnect", {"socket": socket}
        case commands.Hold(sockets=sockets):
            return "hold", {"sockets": [list(s) for s in sockets]}
        case Describe():
            return "describe", {}
    raise ValueError(f"{request!r} is never forwarded")


def _player_from(args: JSON) -> Player | None:
    """The player ``_player`` carried (a join's, a chat's; a bot's seating or a new token
    carries its player's id alone)."""
    return None if args["player"] is None else Player(*args["player"])


def decode(op: str, args: JSON) -> Request:
    """The request that ``encode`` carried."""
    match op:
        case "join":
            player = _player_from(args)
            assert player is not None
            return commands.Join(player, args["token"], args["seat"], args["invite"])
        case "rekey":
            return commands.Rekey(args["player"], args["token"])
        case "set_bot":
            return commands.SetBot(args["player"], args["seat"], args["level"])
        case "play":
            end = None if args["end"] is None else End(args["end"])
            move = Move(Tile.parse(args["tile"]), end)
            way = None if args.get("turn") is None else Turn(args["turn"])
            return commands.Play(args["seat"], move, args["version"], way)
        case "straighten":
            at, turn = Tile.parse(args["at"]), Turn(args["turn"])
            return commands.Straighten(args["seat"], at, turn, args["version"])
        case "continue":
            return commands.Continue(args["seat"])
        case "chat":
            phrase = None if args["phrase"] is None else Phrase(args["phrase"])
            return commands.Chat(args["seat"], _player_from(args), args["text"], phrase)
        case "rematch":
            return commands.Rematch(args["seat"], args["agree"])
        case "leave":
            return commands.Leave(args["seat"], args["before_start"])
        case "unchat":
            return commands.Unchat(args["chat"])
        case "rechat":
            return commands.Rechat(args["chat"])
        case "connect":
            return commands.Connect(args["socket"], args["seat"], args["since"], args["token"])
        case "disconnect":
            return commands.Disconnect(args["socket"])
        case "hold":
            return commands.Hold(tuple((key, seat) for key, seat in args["sockets"]))
        case "describe":
            return Describe()
    raise ValueError(f"no operation {op!r}")


def table_json(table: Table) -> JSON:
    return asdict(table)


def table_from(data: JSON) -> Table:
    seats = [Seat(**(s | {"kind": SeatKind(s["kind"])})) for s in data["seats"]]
    return Table(**(data | {"seats": seats, "status": TableStatus(data["status"])}))


def answer_json(answer: Any) -> Any:
    """A host's answer as JSON (tables as their fields, pairs as lists)."""
    if isinstance(answer, Table):
        return {"table": table_json(answer)}
    if isinstance(answer, tuple):
        return list(answer)
    return answer


def answer_from(request: Request, data: Any) -> Any:
    if isinstance(data, dict) and "table" in data:
        return table_from(data["table"])
    if isinstance(request, commands.Join | commands.Connect):
        return tuple(data)
    return data


class RemoteTable:
    """A ``TableLink`` to the table's owner in another process."""

    def __init__(self, relay: Relay, owner: str, table_id: str) -> None:
        self.relay = relay
        self.owner = owner
        self._id = table_id

    @property
    def id(self) -> str:
        return self._id

    async def submit(self, request: Request) -> Any:
        op, args = encode(request)
        return answer_from(request, await self._call(op, args))

    async def hint(self, seat: int) -> list[JSON]:
        moves: list[JSON] = await self._call("hint", {"seat": seat})
        return moves

    async def _call(self, op: str, args: JSON) -> Any:
        try:
            reply = await self.relay.call(self.owner, self._id, op, args)
        except RelayError as e:
            raise TableError(Refusal.SERVER, f"{e}; try again") from None
        error = reply.get("error")
        if error is not None:
            raise TableError(
                Refusal(error["code"]),
                error["message"],
                rule=error.get("rule"),
                field=error.get("field"),
            )
        return reply.get("ok")
