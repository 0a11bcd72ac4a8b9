"""A seat's view as numbers and as text: what a learning agent or a search may see.

Everything here is built from ``seat_view`` (the seat's own hand, the line,
counts, scores and the public events), and, for a whole game, from the
public part of the rounds already played (R25: every hand is shown when a
round ends). Nothing else of the game is read, so a seat's observation
holds nothing of the hidden tiles (the tests shuffle them to check).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from doublesix.bots.inference import infer
from doublesix.rules.game import Game
from doublesix.rules.moves import Draw, Event, Pass, Play, Straighten
from doublesix.rules.ruleset import Ruleset
from doublesix.rules.view import SeatView
from doublesix.tiles import TILES, tiles_of

Array = npt.NDArray[np.float32]


@dataclass(frozen=True)
class Layout:
    """The named pieces of an observation vector, in order: (name, shape)."""

    pieces: tuple[tuple[str, tuple[int, ...]], ...]

    @property
    def size(self) -> int:
        return sum(int(np.prod(shape)) for _, shape in self.pieces)

    def views(self, flat: Array) -> dict[str, Array]:
        """Named, reshaped views into ``flat`` (writing a view writes ``flat``)."""
        out: dict[str, Array] = {}
        start = 0
        for name, shape in self.pieces:
            size = int(np.prod(shape))
            out[name] = flat[start : start + size].reshape(shape)
            start += size
        return out


def layout(ruleset: Ruleset, private: bool = True, public: bool = True) -> Layout:
    """The pieces: the seat (one-hot), its hand (28 bits), then the public part.

    Public: the seat to move (one-hot), the tiles on the line (28 bits), each
    end's pip (two one-hots of 7), each seat's tile count, the boneyard's
    count, the numbers each seat is known to hold none of (7 bits a seat,
    from its passes and draws), the scores of the sides and Kozel's eggs.
    """
    n = ruleset.players
    pieces: list[tuple[str, tuple[int, ...]]] = [("seat", (n,))]
    if private:
        pieces.append(("hand", (len(TILES),)))
    if public:
        pieces += [
            ("turn", (n,)),
            ("line", (len(TILES),)),
            ("ends", (2, 7)),
            ("counts", (n,)),
            ("boneyard", (1,)),
            ("voids", (n, 7)),
            ("scores", (ruleset.sides,)),
            ("eggs", (1,)),
        ]
    return Layout(tuple(pieces))


def encode(view: SeatView | None, seat: int, pieces: dict[str, Array]) -> None:
    """Write ``seat``'s observation into ``pieces`` (from ``Layout.views``); None: nothing dealt."""
    for array in pieces.values():
        array.fill(0.0)
    pieces["seat"][seat] = 1.0
    if view is None:
        return
    if "hand" in pieces:
        for t in view.hand:
            pieces["hand"][t.index] = 1.0
    if "turn" not in pieces:
        return
    if view.turn is not None:
        pieces["turn"][view.turn] = 1.0
    for t in view.played:
        pieces["line"][t.index] = 1.0
    if view.ends is not None:
        pieces["ends"][0, view.ends[0]] = 1.0
        pieces["ends"][1, view.ends[1]] = 1.0
    pieces["counts"][:] = view.hand_counts
    pieces["boneyard"][0] = view.boneyard_count
    if view.ends is not None and view.round_result is None:
        knowledge = infer(view)
        for s in range(view.ruleset.players):
            void = knowledge.void(s)
            for pip in range(7):
                pieces["voids"][s, pip] = float(void >> pip & 1)
    pieces["scores"][:] = view.scores
    pieces["eggs"][0] = view.eggs


def observation_text(view: SeatView | None, seat: int, private: bool = True) -> str:
    """The same as a line of text (the current round only)."""
    if view is None:
        return f"seat {seat}; nothing dealt"
    parts = [f"seat {seat}", f"round {view.round_number}"]
    if private:
        parts.append("hand " + " ".join(map(str, view.hand)))
    line = " ".join(f"{a}|{b}" for a, b in view.line)
    parts += [
        f"line {line or '-'}",
        "counts " + ",".join(map(str, view.hand_counts)),
        f"boneyard {view.boneyard_count}",
        "scores " + ",".join(map(str, view.scores)) + f" eggs {view.eggs}",
        f"turn {'-' if view.turn is None else view.turn}",
    ]
    return "; ".join(parts)


def history_text(game: Game | None, seat: int | None) -> str:
    """Everything ``seat`` has seen of the game, round by round (perfect recall).

    ``seat`` None gives the public part only. Each round: the reasons deals
    were thrown in (R13), the lead draws (R21), its events as the seat saw
    them (another seat's draw hides the tile), and once it is over every
    hand (R25) and its points; then the seat's hand now.
    """
    if game is None:
        return "nothing dealt"
    lines = []
    if game.lead_draws:
        lines.append("lead " + " ".join(f"{s}:{TILES[t]}" for s, t in game.lead_draws))
    for number, current in enumerate(game.rounds, start=1):
        rnd = current.play
        text = [f"round {number}"]
        text += [f"redeal ({reason})" for _, reason in current.redeals]
        text += [_event_text(e, seat) for e in rnd.events]
        if current.result is not None:
            hands = " / ".join(" ".join(map(str, tiles_of(h))) or "-" for h in rnd.hands)
            points = ",".join(map(str, current.result.points))
            text.append(f"end {current.result.kind} hands {hands} points {points}")
        lines.append("; ".join(text))
    if seat is not None:
        lines.append("hand " + " ".join(map(str, tiles_of(game.round.hands[seat]))))
    return "\n".join(lines)


def _event_text(event: Event, seat: int | None) -> str:
    if isinstance(event, Play):
        return f"{event.seat}:{event.tile}" + ("" if event.end is None else f" {event.end}")
    if isinstance(event, Draw):
        return f"{event.seat} draws" + (f" {event.tile}" if event.seat == seat else "")
    if isinstance(event, Pass):
        return f"{event.seat} passes"
    assert isinstance(event, Straighten)
    return f"{event.seat} straightens"
