"""What one process asks of a table another runs crosses as JSON and comes back whole."""

from __future__ import annotations

import json

import pytest

from doublesix.rules.moves import Move, Turn
from doublesix.server.remote import decode, encode
from doublesix.server.requests import Describe, Request
from doublesix.table import commands
from doublesix.table.commands import Phrase, Player
from doublesix.tiles import Tile

ANNA = Player("p-anna", "Anna", True)

FORWARDED: list[Request] = [
    commands.Join(ANNA, "token-a", 1, "invite-1"),
    commands.Join(Player("g-ben", "Ben"), "token-b"),
    commands.Rekey("p-anna", "token-c"),
    commands.SetBot("p-anna", 2, "expert"),
    commands.SetBot(None, 3, "greedy"),
    commands.Play(0, Move(Tile(2, 5), None), 3, None),
    commands.Play(1, Move.parse("5-6 right"), 4, Turn.LEFT),
    commands.Straighten(1, Tile(5, 6), Turn.RIGHT, 5),
    commands.Continue(0),
    commands.Chat(0, ANNA, "hello", None),
    commands.Chat(None, None, None, Phrase(next(iter(Phrase)).value)),
    commands.Rematch(1, False),
    commands.Leave(2, True),
    commands.Unchat(7),
    commands.Rechat(7),
    commands.Connect("socket-1", 0, 12, "token-a"),
    commands.Connect("socket-2", None),
    commands.Disconnect("socket-1"),
    commands.Hold((("socket-1", 0), ("socket-3", 2))),
    Describe(),
]


@pytest.mark.parametrize("request_", FORWARDED, ids=lambda r: type(r).__name__)
def test_a_forwarded_request_crosses_whole(request_: Request) -> None:
    """Each request a link forwards, through JSON as Redis carries it: a bot seated by its
    creator's id, or a seat's new token, crosses as well as a join or a chat."""
    op, args = encode(request_)
    assert decode(op, json.loads(json.dumps(args))) == request_
