"""Shared helpers: hand-built deals, scripted play, state snapshots, the benchmark scripts."""

from __future__ import annotations

import dataclasses
import importlib.util
import os
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from hypothesis import settings

from doublesix import Deal, Draw, Game, Move, Round, Ruleset, SeatView, Tile
from doublesix.rules.deal import RecordedDealer
from doublesix.tiles import TILES, mask_of

# CI explores the same examples on every run, so that a landing is never decided by
# chance; a developer's runs explore new ones (HYPOTHESIS_PROFILE=ci to repeat CI's).
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI") or os.environ.get("HYPOTHESIS_PROFILE") == "ci":
    settings.load_profile("ci")

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def benchmark_script(name: str) -> Any:
    """``benchmarks/<name>.py`` as a module (the scripts are no package): run with its
    neighbours importable, and kept in ``sys.modules``, where its dataclasses look it up."""
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    sys.path.insert(0, str(BENCHMARKS))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(BENCHMARKS))
    return module


def T(text: str) -> Tile:
    """``T("2-5")``: one tile."""
    return Tile.parse(text)


def tiles(text: str) -> list[Tile]:
    """``tiles("1-1 2-6")``: tiles in the order written."""
    return [Tile.parse(t) for t in text.split()]


def hand(text: str) -> int:
    """``hand("1-1 2-6")``: a hand as the engine's mask."""
    return mask_of(tiles(text))


def idx(text: str) -> int:
    return T(text).index


def make_deal(ruleset: Ruleset, *hands: str, boneyard: str = "") -> Deal:
    """A deal of the given hands; ``boneyard`` is the start of the draw order.

    Every tile not named goes after the named boneyard tiles (a draw game) or
    out of play (no boneyard), in the set's order.
    """
    masks = tuple(hand(h) for h in hands)
    named = [T(t).index for t in boneyard.split()]
    used = sum(masks) | mask_of(TILES[i] for i in named)
    rest = [i for i in range(len(TILES)) if not used >> i & 1]
    if ruleset.boneyard:
        return Deal(masks, (*named, *rest), 0)
    assert not named, "a game without boneyard puts the rest out of play"
    return Deal(masks, (), sum(1 << i for i in rest))


def game_of(ruleset: Ruleset, *deals: Deal, lead_draws: Iterable[tuple[int, str]] = ()) -> Game:
    """A game dealt from the given deals (and lead draws, R21) in order."""
    draws = [(seat, idx(t)) for seat, t in lead_draws]
    return Game(ruleset, dealer=RecordedDealer(list(deals), draws))


def mv(text: str) -> Move:
    """``mv("2-5 left")`` or ``mv("2-5")`` for the first tile."""
    return Move.parse(text)


def play(target: Game | Round, *moves: str) -> None:
    """Play moves in order, each for the seat whose turn it is."""
    for m in moves:
        target.play(mv(m))


def finish_round(game: Game) -> None:
    """Play the current round to its end, always the first legal move."""
    while game.turn is not None:
        game.play(game.legal_moves()[0])


def round_state(r: Round) -> tuple[Any, ...]:
    """Everything a round holds, as plain comparable values."""
    return tuple(
        tuple(v) if isinstance(v, list) else v
        for v in (getattr(r, name) for name in Round.__slots__)
        if not isinstance(v, Ruleset)
    )


def snapshot(game: Game) -> tuple[Any, ...]:
    """Everything a game holds, as plain comparable values."""
    return (
        tuple(game.scores),
        game.eggs,
        game.result,
        tuple(game.lead_draws),
        tuple(
            (gr.deal, gr.opener, tuple(gr.redeals), gr.result, round_state(gr.play))
            for gr in game.rounds
        ),
    )


def view_tiles(value: object) -> Iterator[Tile]:
    """Every Tile anywhere inside a seat's view (dataclasses, tuples, named tuples)."""
    if isinstance(value, Tile):
        yield value
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from view_tiles(getattr(value, f.name))
    elif isinstance(value, (tuple, list)):
        for item in value:
            yield from view_tiles(item)


def allowed_tiles(game: Game, view: SeatView) -> set[Tile]:
    """The tiles a seat may know: its hand, the line, its own draws, the public lead draws."""
    rnd = game.round
    known = set(rnd.hand(view.seat))
    known |= {TILES[t] for t, _, _ in rnd.line}
    known |= {e.tile for e in rnd.events if isinstance(e, Draw) and e.seat == view.seat}
    known |= {TILES[t] for _, t in game.lead_draws}
    for gr in game.rounds[:-1]:  # earlier rounds were shown to everyone (R25)
        known |= {TILES[t] for t, _, _ in gr.play.line}
        known |= {t for s in range(game.ruleset.players) for t in gr.play.hand(s)}
    if rnd.ending is not None:
        known |= {t for s in range(game.ruleset.players) for t in rnd.hand(s)}
    return known
