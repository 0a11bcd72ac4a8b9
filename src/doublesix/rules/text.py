"""A record as a readable move list: one line per event, redeal, lead draw and result.

The record is public once the game is over, so draws show their tiles. The
lines come from the replayed game, so the text never says more than the
engine agrees with (a bad record raises ``RecordError``). Every reason —
who opened and why, why a deal was thrown in, how the points were made up —
is a value of the engine (``Opening``, ``Redeal``, the result's breakdown);
this module only puts it into words.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from doublesix.names import seat_labels
from doublesix.rules.breakdown import Basis, HandCount, SideScore
from doublesix.rules.deal import Redeal, RedealKind
from doublesix.rules.game import Game
from doublesix.rules.moves import Draw, Event, Pass, Play
from doublesix.rules.opening import Opening, OpeningReason
from doublesix.rules.record import replay
from doublesix.rules.ruleset import Ruleset
from doublesix.rules.scoring import ResultKind, RoundResult
from doublesix.tiles import TILES


def record_lines(record: Mapping[str, Any]) -> list[str]:
    """The move list of a ``doublesix/1`` record.

    For example ``R1 · 3. Carla (seat 2) plays 4-6 on the right``.
    """
    game = replay(record)
    names = seat_labels(record["players"], record.get("bots"))
    lines = []
    for seat, t in game.lead_draws:
        lines.append(f"R1 · {_seat(names, seat)} draws {TILES[t]} for the lead (R21)")
    for number, r in enumerate(game.rounds, 1):
        head = f"R{number} ·"
        lines += [f"{head} redeal: {redeal_text(reason)} (R13)" for _, reason in r.redeals]
        for k, event in enumerate(r.play.events):
            said = _event_text(event, r.opening if k == 0 else None)
            lines.append(f"{head} {k + 1}. {_seat(names, event.seat)} {said}")
        if r.result is not None:
            lines.append(f"{head} {_result_text(game.ruleset, names, r.result)}")
    lines.append(_game_text(game, names))
    return lines


def _seat(names: Sequence[str], seat: int) -> str:
    return f"{names[seat]} (seat {seat})"


def _side(ruleset: Ruleset, names: Sequence[str], side: int) -> str:
    if ruleset.pairs:
        return " & ".join(names[s] for s in ruleset.seats_of(side))
    return _seat(names, side)


def redeal_text(redeal: Redeal) -> str:
    """R13's reason in words: ``seat 2 holds 5 doubles``."""
    if redeal.kind is RedealKind.DOUBLES:
        return f"seat {redeal.seat} holds {redeal.count} doubles"
    return f"seat {redeal.seat} holds {redeal.count} tiles showing {redeal.number}"


def opening_text(opening: Opening) -> str:
    """Why a seat opens, e.g. ``the highest double, laid automatically (R16)``."""
    t = opening.tile
    held = f"holds {t}, " if t is not None and not opening.forced else "holds "
    why = {
        OpeningReason.HIGHEST_DOUBLE: "the highest double",
        OpeningReason.HEAVIEST_TILE: "no double dealt: the heaviest tile"
        if opening.forced
        else f"{held}the heaviest tile",
        OpeningReason.PREVIOUS_WINNER: "won the last round",
        OpeningReason.ONE_ONE: "holds 1-1",
        OpeningReason.LAST_PLACER: "laid the last tile of the last round",
        OpeningReason.LOWEST_DOUBLE: f"{held}the lowest double but 0-0",
        OpeningReason.LOWEST_TILE: f"{held}the lowest tile (no double but 0-0 dealt)",
        OpeningReason.LEAD_DRAW: "drew the highest tile for the lead"
        if t is None
        else f"drew {t}, the highest tile, for the lead",
        OpeningReason.LEAD_PASSES: "the lead passes one seat on",
    }[opening.reason]
    how = ", laid automatically" if opening.forced else ""
    return f"{why}{how} ({opening.rule})"


def _event_text(event: Event, opening: Opening | None) -> str:
    """One event; only the round's first tile has no end (R4)."""
    if isinstance(event, Play):
        if event.end is not None:
            turning = "" if event.turn is None else f", turning {event.turn} (R39)"
            return f"plays {event.tile} on the {event.end}{turning}"
        return f"opens with {event.tile}" + (f": {opening_text(opening)}" if opening else "")
    if isinstance(event, Draw):
        return f"draws {event.tile}"
    if isinstance(event, Pass):
        return "knocks"
    return f"straightened the line at {event.at}, its tail a quarter turn {event.turn} (R39)"


def _scores(ruleset: Ruleset, names: Sequence[str], scores: Sequence[int]) -> str:
    return "scores " + ", ".join(
        f"{_side(ruleset, names, side)} {score}" for side, score in enumerate(scores)
    )


def _sum(values: Sequence[int]) -> str:
    return " + ".join(map(str, values)) if len(values) > 1 else str(values[0])


def hand_text(count: HandCount) -> str:
    """A hand's counted value; a lone double says so: ``25 (0-0 alone)``."""
    if count.lone is None:
        return str(count.counted)
    return f"{count.counted} ({count.tiles[0]} alone)"


def _hands(rows: Sequence[SideScore]) -> str:
    texts = [hand_text(c) for row in rows for c in row.hands]
    return " + ".join(texts) if len(texts) > 1 else texts[0]


def _result_text(ruleset: Ruleset, names: Sequence[str], result: RoundResult) -> str:
    """How the round ended and how it was scored (R22–R37a), from the result's breakdown."""
    hands = "hands " + ", ".join(map(str, result.hand_values))
    scored = "; ".join(_row_text(ruleset, names, result, row) for row in _scored_rows(result))
    how = _ending_text(ruleset, names, result)
    return f"{how}; {hands}; {scored}; {_scores(ruleset, names, result.scores_after)}"


def _scored_rows(result: RoundResult) -> list[SideScore]:
    """The rows to tell: those with points or a dropped charge, else the first (a tie)."""
    rows = [row for row in result.breakdown if row.basis is not Basis.NOTHING]
    return rows or list(result.breakdown[:1])


def _ending_text(ruleset: Ruleset, names: Sequence[str], result: RoundResult) -> str:
    totals = [row.total for row in result.breakdown]
    if result.kind is ResultKind.EGGS:
        return f"eggs: both pairs hold {totals[0]} pips"
    if result.winner_seat is None:
        return f"blocked, the lowest hand value is shared ({min(totals)})"
    winner = _seat(names, result.winner_seat)
    if result.kind is ResultKind.DOMINO:
        return f"domino: {winner} goes out"
    if result.kind is ResultKind.FISH:
        loser = next(row for row in result.breakdown if row.basis is not Basis.NOTHING)
        other = next(row for row in result.breakdown if row is not loser)
        pair = _side(ruleset, names, loser.side)
        return f"fish: {pair} hold more pips ({loser.total} to {other.total})"
    return f"blocked: {winner} holds the lowest hand ({result.hand_values[result.winner_seat]})"


def _row_text(ruleset: Ruleset, names: Sequence[str], result: RoundResult, row: SideScore) -> str:
    """One side's points: what they rest on, eggs, the 13-rule (R23–R37a)."""
    side = _side(ruleset, names, row.side)
    plural = ruleset.pairs
    others = [other for other in result.breakdown if other.side != row.side]
    if row.basis is Basis.NOTHING:
        if result.kind is ResultKind.EGGS:
            return f"{result.eggs_carried} carried to the next round ({row.rule})"
        return f"tied, nobody scores ({row.rule})"
    if row.basis is Basis.OPPONENTS:
        verb = "score" if plural else "scores"
        return f"{side} {verb} {row.points} = {_hands(others)} ({row.rule})"
    if row.basis is Basis.OPPONENTS_LESS_OWN:
        verb = "score" if plural else "scores"
        return f"{side} {verb} {row.points} = {_hands(others)} − {_hands([row])} ({row.rule})"
    if row.basis is Basis.ALL_HANDS:
        why = f"all four hands {_sum([r.total for r in result.breakdown])} ({row.rule})"
    elif result.kind is ResultKind.FISH:
        why = f"their own pips {row.total} ({row.rule}, own_hands)"
    else:
        why = f"{'their' if plural else 'its'} hands {_hands([row])} ({row.rule})"
    charge = row.base
    if row.eggs:
        charge += row.eggs
        why += f" + {row.eggs} eggs (R35)"
    verb = "are" if plural else "is"
    if row.dropped:
        return f"{side} would be charged {charge} = {why}: below 13 at 0 points, dropped (R36)"
    return f"{side} {verb} charged {charge} = {why}"


def _game_text(game: Game, names: Sequence[str]) -> str:
    ruleset, result = game.ruleset, game.result
    scores = _scores(ruleset, names, result.scores)
    if not result.finished:
        return f"Game running: {scores}"
    if not result.winners:
        return f"Game over: the round is tied, nobody wins (R40); {scores}"
    winners = ", ".join(_side(ruleset, names, s) for s in result.winners)
    losers = ", ".join(_side(ruleset, names, s) for s in result.losers)
    goat = " (the Goat)" if ruleset.scoring.penalties else ""
    dry = "; a dry win (R37)" if result.dry_win else ""
    return f"Game over: {winners} won, {losers} lost{goat}{dry}; {scores}"
