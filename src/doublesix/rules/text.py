"""A record as a readable move list: one line per event, redeal, lead draw and result.

The record is public once the game is over, so draws show their tiles. The
lines come from the replayed game, so the text never says more than the
engine agrees with (a bad record raises ``RecordError``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from doublesix.rules.game import Game, GameRound
from doublesix.rules.moves import Draw, Event, Pass, Play
from doublesix.rules.record import replay
from doublesix.rules.ruleset import FishCharge, Opener, Ruleset, Scoring
from doublesix.rules.scoring import ResultKind, RoundResult, lone_hand_value
from doublesix.tiles import TILES, Tile


def record_lines(record: Mapping[str, Any]) -> list[str]:
    """The move list of a ``doublesix/1`` record.

    For example ``R1 · 3. Carla (seat 2) plays 4-6 on the right``.
    """
    game = replay(record)
    names: Sequence[str] = record["players"]
    lines = []
    for seat, t in game.lead_draws:
        lines.append(f"R1 · {_seat(names, seat)} draws {TILES[t]} for the lead (R21)")
    for number, r in enumerate(game.rounds, 1):
        head = f"R{number} ·"
        lines += [f"{head} redeal: {reason} (R13)" for _, reason in r.redeals]
        automatic = _automatic_opening(game, number)
        for k, event in enumerate(r.play.events):
            said = _event_text(event, automatic=automatic)
            lines.append(f"{head} {k + 1}. {_seat(names, event.seat)} {said}")
        if r.result is not None:
            lines.append(f"{head} {_result_text(game.ruleset, names, r, r.result)}")
    lines.append(_game_text(game, names))
    return lines


def _seat(names: Sequence[str], seat: int) -> str:
    return f"{names[seat]} (seat {seat})"


def _side(ruleset: Ruleset, names: Sequence[str], side: int) -> str:
    if ruleset.pairs:
        return " & ".join(names[s] for s in ruleset.seats_of(side))
    return _seat(names, side)


def _automatic_opening(game: Game, number: int) -> str | None:
    """The rule that played round ``number``'s first tile automatically, if one did."""
    opener = game.ruleset.opener
    previous = game.rounds[number - 2].result if number > 1 else None
    if opener is Opener.KOZEL and number == 1:
        return "R18"
    if opener is Opener.HIGHEST_DOUBLE and (previous is None or previous.tied):
        return "R16"
    return None


def _event_text(event: Event, automatic: str | None) -> str:
    """One event; only the round's first tile has no end (R4)."""
    if isinstance(event, Play):
        if event.end is not None:
            return f"plays {event.tile} on the {event.end}"
        return f"opens with {event.tile}" + (f" (automatic, {automatic})" if automatic else "")
    if isinstance(event, Draw):
        return f"draws {event.tile}"
    if isinstance(event, Pass):
        return "knocks"
    at = f" at {event.at}" if isinstance(event.at, Tile) else ""
    return f"straightens the line{at} (R39)"


def _scores(ruleset: Ruleset, names: Sequence[str], scores: Sequence[int]) -> str:
    return "scores " + ", ".join(
        f"{_side(ruleset, names, side)} {score}" for side, score in enumerate(scores)
    )


def _sum(values: Sequence[int]) -> str:
    return " + ".join(map(str, values)) if len(values) > 1 else str(values[0])


def _result_text(ruleset: Ruleset, names: Sequence[str], r: GameRound, result: RoundResult) -> str:
    """How the round ended and how it was scored (R22–R37)."""
    values = result.hand_values
    if ruleset.scoring is Scoring.KOZEL:
        how, scored = _kozel_text(ruleset, names, r, result)
    else:
        how = _ending_text(names, result)
        scored = _scored_text(ruleset, names, result)
    hands = "hands " + ", ".join(map(str, values))
    return f"{how}; {hands}; {scored}; {_scores(ruleset, names, result.scores_after)}"


def _ending_text(names: Sequence[str], result: RoundResult) -> str:
    if result.winner_seat is None:
        return f"blocked, the lowest hand value is shared ({min(result.hand_values)})"
    winner = _seat(names, result.winner_seat)
    if result.kind is ResultKind.DOMINO:
        return f"domino: {winner} goes out"
    return f"blocked: {winner} holds the lowest hand ({result.hand_values[result.winner_seat]})"


def _scored_text(ruleset: Ruleset, names: Sequence[str], result: RoundResult) -> str:
    """R26–R28."""
    if result.winner_seat is None:
        return "tied, nobody scores (R23)"
    won = ruleset.side_of(result.winner_seat)
    if ruleset.scoring is Scoring.GOAT:
        charged = [
            f"{_side(ruleset, names, side)} {'are' if ruleset.pairs else 'is'} charged {points}"
            for side, points in enumerate(result.points)
            if side != won
        ]
        return ", ".join(charged) + ": their own hands (R28)"
    values = result.hand_values
    sums = _sum([v for s, v in enumerate(values) if ruleset.side_of(s) != won])
    if ruleset.scoring is Scoring.WINNER_TAKES and result.kind is ResultKind.BLOCKED:
        sums += " − " + _sum([v for s, v in enumerate(values) if ruleset.side_of(s) == won])
    rule = "R26" if ruleset.scoring is Scoring.WINNER_TAKES else "R27"
    verb = "score" if ruleset.pairs else "scores"
    return f"{_side(ruleset, names, won)} {verb} {result.points[won]} = {sums} ({rule})"


def _kozel_text(
    ruleset: Ruleset, names: Sequence[str], r: GameRound, result: RoundResult
) -> tuple[str, str]:
    """R33–R36: how the round ended, and who is charged what, with eggs and the 13-rule."""
    pips = [sum(result.hand_values[s] for s in ruleset.seats_of(side)) for side in (0, 1)]
    if result.kind is ResultKind.EGGS:
        carried = result.eggs_carried
        return f"eggs: both pairs hold {pips[0]} pips", f"{carried} carried to the next round (R35)"
    assert result.winner_seat is not None
    loser = 1 - ruleset.side_of(result.winner_seat)
    pair = _side(ruleset, names, loser)
    if result.kind is ResultKind.DOMINO:
        how = f"domino: {_seat(names, result.winner_seat)} goes out"
        counts = [lone_hand_value(ruleset, r.play.hands[s]) for s in ruleset.seats_of(loser)]
        why = f"their hands {_sum(counts)} (R33)"
        charge = sum(counts)
    else:
        how = f"fish: {pair} hold more pips ({pips[loser]} to {pips[1 - loser]})"
        if ruleset.fish_charge is FishCharge.OWN_HANDS:
            charge, why = pips[loser], f"their own pips {pips[loser]} (R34, own_hands)"
        else:
            charge, why = sum(pips), f"all four hands {pips[0]} + {pips[1]} (R34)"
    if result.eggs_used:
        charge += result.eggs_used
        why += f" + {result.eggs_used} eggs (R35)"
    if result.dropped[loser]:
        return how, f"{pair} would be charged {charge} = {why}: below 13 at 0 points, dropped (R36)"
    return how, f"{pair} are charged {charge} = {why}"


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
