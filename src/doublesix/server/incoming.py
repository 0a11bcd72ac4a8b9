"""What a client may send on a table socket, parsed once at the edge into typed frames.

``parse_frame`` is the only reader of client text (as lila-ws's
``ClientOut.parse``): a frame that does not parse is refused here with a
``bad_frame`` error and never reaches the table.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from doublesix.rules.moves import End, Move, Turn
from doublesix.table.commands import Phrase
from doublesix.table.errors import Refusal, TableError
from doublesix.tiles import InvalidTileError, Tile

MAX_FRAME = 4096
"""Characters in one client frame; a longer one is refused."""


@dataclass(frozen=True)
class Hello:
    token: str | None
    since: int | None


@dataclass(frozen=True)
class PlayFrame:
    move: Move
    version: int
    turn: Turn | None = None
    """R39: the tile turns left or right (None: straight on)."""


@dataclass(frozen=True)
class StraightenFrame:
    """R39: rotate the tail of the line beyond ``at`` a quarter ``turn``."""

    at: Tile
    turn: Turn
    version: int


@dataclass(frozen=True)
class ContinueFrame:
    pass


@dataclass(frozen=True)
class HintFrame:
    pass


@dataclass(frozen=True)
class ChatFrame:
    text: str | None
    phrase: Phrase | None


@dataclass(frozen=True)
class RematchFrame:
    agree: bool = True


@dataclass(frozen=True)
class LeaveFrame:
    before_start: bool = False
    """Only while the game has not started (the waiting room's buttons)."""


Frame = (
    Hello
    | PlayFrame
    | StraightenFrame
    | ContinueFrame
    | HintFrame
    | ChatFrame
    | RematchFrame
    | LeaveFrame
)


def bad(message: str) -> TableError:
    return TableError(Refusal.BAD_FRAME, message)


def parse_frame(text: str | None) -> Frame:
    """The client's frame as a typed value; TableError(``bad_frame``) if it is not one."""
    data = _object(text)
    kind = data["type"]
    if kind == "hello":
        token, since = data.get("token"), data.get("since")
        if token is not None and not isinstance(token, str):
            raise bad('"token" must be a string or null')
        return Hello(token, None if since is None else _version(since))
    if kind == "play":
        if "tile" not in data or "version" not in data:
            raise bad('play needs "tile" and "version" (and "end" once the line has one)')
        turn = data.get("turn")
        return PlayFrame(
            _move(data["tile"], data.get("end")),
            _version(data["version"]),
            None if turn is None else _turn(turn),
        )
    if kind == "straighten":
        if not all(key in data for key in ("at", "turn", "version")):
            raise bad('straighten needs "at", "turn" and "version"')
        return StraightenFrame(
            _tile(data["at"], "at"), _turn(data["turn"]), _version(data["version"])
        )
    if kind == "continue":
        return ContinueFrame()
    if kind == "hint":
        return HintFrame()
    if kind == "chat":
        return _chat(data)
    if kind == "rematch":
        agree = data.get("agree", True)
        if not isinstance(agree, bool):
            raise bad('"agree" must be true or false')
        return RematchFrame(agree)
    if kind == "leave":
        before_start = data.get("before_start", False)
        if not isinstance(before_start, bool):
            raise bad('"before_start" must be true or false')
        return LeaveFrame(before_start)
    raise bad(f"unknown frame type {kind!r}")


def _object(text: str | None) -> dict[str, Any]:
    if text is None:
        raise bad("frames are JSON text, not binary")
    if len(text) > MAX_FRAME:
        raise bad(f"a frame is at most {MAX_FRAME} characters")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise bad("not JSON") from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise bad('a frame is an object with a "type"')
    return data


def _version(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise bad('"version" must be the last version you saw, a whole number')
    return value


def _tile(value: Any, key: str) -> Tile:
    if not isinstance(value, str):
        raise TableError(
            Refusal.BAD_FRAME,
            f"{key!r} must be a tile written a-b, halves 0 to 6 (R1)",
            rule="R1",
            field=key,
        )
    try:
        return Tile.parse(value)
    except InvalidTileError as e:
        raise TableError(Refusal.BAD_FRAME, str(e), rule="R1", field=key) from None


def _turn(value: Any) -> Turn:
    if value not in ("left", "right"):
        raise TableError(
            Refusal.BAD_FRAME,
            '\'turn\' must be "left" or "right" (straight on: no turn)',
            rule="R39",
            field="turn",
        )
    return Turn(value)


def _move(tile: Any, end: Any) -> Move:
    t = _tile(tile, "tile")
    if end is None:
        return Move(t, None)
    if end not in ("left", "right"):
        raise bad('\'end\' must be "left", "right" or null')
    return Move(t, End(end))


def _chat(data: dict[str, Any]) -> ChatFrame:
    text, phrase = data.get("text"), data.get("phrase")
    if (text is None) == (phrase is None):
        raise bad('chat needs "text" or "phrase" (one of them)')
    if phrase is not None:
        try:
            return ChatFrame(None, Phrase(phrase if isinstance(phrase, str) else ""))
        except ValueError:
            choices = ", ".join(p.value for p in Phrase)
            raise bad(f"no phrase {phrase!r}; choose from {choices}") from None
    if not isinstance(text, str):
        raise bad('"text" must be a string')
    return ChatFrame(text, None)
