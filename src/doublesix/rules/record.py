"""The game record ``doublesix/1`` (docs/record.md): write, read and replay.

Replay rebuilds the game through the engine itself: the record's deals go
to a ``RecordedDealer`` and every recorded move to ``Game.play``. Each
recorded event is compared with what the engine does at that point, so the
forced events (the automatic opening tile, draws, passes) must stand exactly
where the engine makes them — a record is canonical — and every stated
result must equal the one the engine computes.

Reading happens in two steps: ``_parse_*`` turn the JSON into engine values
(an error there is a malformed field), then ``replay`` plays them (an error
there is a broken rule). Either way the error is a ``RecordError`` that
names the round, the event and the rule; replay never fails otherwise.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from doublesix.rules.deal import Deal, DealError, RecordedDealer
from doublesix.rules.game import Game, GameRound
from doublesix.rules.moves import (
    Draw,
    End,
    Event,
    IllegalMoveError,
    Move,
    Pass,
    Play,
    Straighten,
    Turn,
)
from doublesix.rules.round import Ending
from doublesix.rules.ruleset import RECORD_DOC, Opener, Ruleset, RulesetError, Scoring
from doublesix.rules.scoring import GameResult, ResultKind, RoundResult
from doublesix.rules.shapes import (
    breakdown_json,
    opening_json,
    play_json,
    redeal_json,
    straighten_json,
)
from doublesix.tiles import TILES, InvalidTileError, Tile, tiles_of

FORMAT = "doublesix/1"


class RecordError(ValueError):
    """A record that cannot be read or does not follow the rules.

    ``round`` and ``event`` count from 1, as the move list does (both None
    where they do not apply), ``field`` is the offending field if any,
    ``rule`` the R-number (or ``docs/record.md`` for the format itself).
    """

    def __init__(
        self,
        message: str,
        rule: str,
        *,
        round: int | None = None,
        event: int | None = None,
        field: str | None = None,
    ) -> None:
        where = [f"round {round}"] if round is not None else []
        if event is not None:
            where.append(f"event {event}")
        if field is not None:
            where.append(field)
        prefix = f"{', '.join(where)}: " if where else ""
        super().__init__(f"{prefix}{message} ({rule})")
        self.round = round
        self.event = event
        self.field = field
        self.rule = rule


# --- writing -------------------------------------------------------------------


def game_record(
    game: Game, players: Sequence[str], bots: Sequence[str | None] | None = None
) -> dict[str, Any]:
    """The ``doublesix/1`` record of ``game``, finished or running, as plain JSON values.

    ``players`` are the seats' display names; ``bots``, when known, each seat's bot
    level (None for a human), written as the record's ``bots``.
    """
    ruleset = game.ruleset
    if len(players) != ruleset.players:
        raise ValueError(f"{len(players)} player names for {ruleset.players} seats")
    record: dict[str, Any] = {
        "format": FORMAT,
        "ruleset": ruleset.to_dict(),
        "players": list(players),
    }
    if bots is not None:
        if len(bots) != ruleset.players:
            raise ValueError(f"{len(bots)} bot levels for {ruleset.players} seats")
        record["bots"] = list(bots)
    record["seed"] = game.seed
    if ruleset.opener is Opener.DRAW_FOR_LEAD:
        record["lead_draws"] = [{"seat": s, "tile": str(TILES[t])} for s, t in game.lead_draws]
    record["rounds"] = [_round_record(r) for r in game.rounds]
    record["result"] = game_result_record(game.result)
    return record


def _names(mask: int) -> list[str]:
    return [str(t) for t in tiles_of(mask)]


def _deal_record(deal: Deal) -> dict[str, Any]:
    return {
        "hands": [_names(h) for h in deal.hands],
        "boneyard": [str(TILES[t]) for t in deal.boneyard],
        "out": _names(deal.out),
    }


def _event_record(event: Event) -> dict[str, Any]:
    if isinstance(event, Play):
        return play_json(event)
    if isinstance(event, Draw):
        return {"seat": event.seat, "draw": str(event.tile)}
    if isinstance(event, Pass):
        return {"seat": event.seat, "pass": True}
    return straighten_json(event)


def _round_record(r: GameRound) -> dict[str, Any]:
    data: dict[str, Any] = {
        "deal": _deal_record(r.deal),
        "redeals": [{**_deal_record(d), **redeal_json(reason)} for d, reason in r.redeals],
        "opening": opening_json(r.opening),
        "events": [_event_record(e) for e in r.play.events],
    }
    if r.result is not None:
        data["result"] = round_result_record(r.result)
    return data


def round_result_record(result: RoundResult) -> dict[str, Any]:
    """A round's ``result`` object (docs/record.md)."""
    return {
        "kind": result.kind.value,
        "winner_seat": result.winner_seat,
        "hand_values": list(result.hand_values),
        "points": list(result.points),
        "eggs_carried": result.eggs_carried,
        "scores_after": list(result.scores_after),
        "eggs_used": result.eggs_used,
        "dropped": list(result.dropped),
        "eggs_laid": result.eggs_laid,
        "breakdown": breakdown_json(result.breakdown),
    }


def game_result_record(result: GameResult) -> dict[str, Any]:
    """The record's top-level ``result`` object."""
    return {
        "finished": result.finished,
        "losers": list(result.losers),
        "winners": list(result.winners),
        "dry_win": result.dry_win,
        "scores": list(result.scores),
    }


# --- JSON text -----------------------------------------------------------------


def loads(text: str) -> dict[str, Any]:
    """Read a record's JSON text; checks only that it is a ``doublesix/1`` object."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as e:
        raise RecordError(f"not JSON: {e}", RECORD_DOC) from None
    if not isinstance(data, dict):
        raise RecordError("a record is a JSON object", RECORD_DOC)
    _check_format(data)
    return data


_WIDTH = 96


def dumps(record: Mapping[str, Any]) -> str:
    """Stable, readable JSON: whatever fits on a line stays on one (so one event per line).

    A list of plain values (a hand, the boneyard) that does not fit fills its lines.
    """
    return _render(dict(record), 0, 0) + "\n"


def _render(value: Any, depth: int, column: int) -> str:
    """``value`` as JSON, starting at ``column`` of a line indented ``depth`` levels."""
    flat = json.dumps(value, ensure_ascii=False)
    if column + len(flat) + 1 <= _WIDTH or not isinstance(value, dict | list) or not value:
        return flat  # (+ 1: room for the comma after it)
    pad, close = "  " * (depth + 1), "  " * depth
    if isinstance(value, dict):
        items = []
        for k, v in value.items():
            key = f"{pad}{json.dumps(k, ensure_ascii=False)}: "
            items.append(key + _render(v, depth + 1, len(key)))
        return "{\n" + ",\n".join(items) + f"\n{close}}}"
    if not any(isinstance(v, dict | list) for v in value):
        lines = [pad]
        for v in value:
            item = json.dumps(v, ensure_ascii=False) + ","
            if lines[-1] != pad and len(lines[-1]) + 1 + len(item) > _WIDTH:
                lines.append(pad)
            lines[-1] += item if lines[-1] == pad else " " + item
        return "[\n" + "\n".join(lines).removesuffix(",") + f"\n{close}]"
    items = [pad + _render(v, depth + 1, len(pad)) for v in value]
    return "[\n" + ",\n".join(items) + f"\n{close}]"


# --- reading: JSON values to engine values ---------------------------------------


@dataclass(frozen=True)
class _Where:
    """Where in the record a value stands, for error messages."""

    round: int | None = None
    event: int | None = None

    def error(self, message: str, rule: str, field: str | None = None) -> RecordError:
        return RecordError(message, rule, round=self.round, event=self.event, field=field)


_TOP = _Where()


@dataclass(frozen=True)
class _Round:
    redeals: list[Deal]
    deal: Deal
    events: list[Event]
    result: Mapping[str, Any] | None
    stated_redeals: list[Mapping[str, Any]]
    """The record's ``redeals`` objects, whose reason fields replay compares."""
    opening: Mapping[str, Any] | None


def _check_format(data: Mapping[str, Any]) -> None:
    if data.get("format") != FORMAT:
        raise _TOP.error(f"{data.get('format')!r} is not {FORMAT!r}", RECORD_DOC, "format")


def _get(data: Mapping[str, Any], key: str, kind: type, where: _Where, field: str) -> Any:
    """``data[key]``, which must be there and of ``kind`` (``int`` excludes booleans)."""
    if key not in data:
        raise where.error("missing", RECORD_DOC, field)
    value = data[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise where.error(f"{value!r} is not {_KIND_NAMES[kind]}", RECORD_DOC, field)
    return value


_KIND_NAMES: dict[type, str] = {
    int: "a whole number",
    str: "a text",
    list: "a list",
    Mapping: "an object",
}


def _object(value: Any, where: _Where, field: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise where.error(f"{value!r} is not an object", RECORD_DOC, field)
    return value


def _tile(value: Any, where: _Where, field: str) -> int:
    try:
        return Tile.parse(value).index
    except InvalidTileError:
        raise where.error(f"{value!r} is not a tile", "R1", field) from None


def _seat(value: Any, ruleset: Ruleset, where: _Where, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise where.error(f"{value!r} is not a seat number", RECORD_DOC, field)
    if not 0 <= value < ruleset.players:
        raise where.error(
            f"{value!r} is not a seat of {ruleset.players} (0 to {ruleset.players - 1})",
            "R6",
            field,
        )
    return value


def _parse_deal(data: Any, ruleset: Ruleset, where: _Where, field: str) -> Deal:
    """A deal: the 28 tiles, each once, shared out as the ruleset says (R1, R12)."""
    data = _object(data, where, field)
    seen = 0

    def tiles(key: str, value: Any) -> list[int]:
        nonlocal seen
        if not isinstance(value, list):
            raise where.error(f"{value!r} is not a list of tiles", RECORD_DOC, key)
        found = []
        for i, text in enumerate(value):
            t = _tile(text, where, f"{key}[{i}]")
            if seen >> t & 1:
                raise where.error(f"{TILES[t]} appears twice in the deal", "R1", f"{key}[{i}]")
            seen |= 1 << t
            found.append(t)
        return found

    hands = _get(data, "hands", list, where, f"{field}.hands")
    masks = tuple(
        sum(1 << t for t in tiles(f"{field}.hands[{s}]", hand)) for s, hand in enumerate(hands)
    )
    boneyard = tuple(tiles(f"{field}.boneyard", data.get("boneyard", [])))
    out = sum(1 << t for t in tiles(f"{field}.out", data.get("out", [])))
    deal = Deal(masks, boneyard, out)
    try:
        deal.check(ruleset)
    except DealError as e:
        raise where.error(_bare(e, e.rule), e.rule, field) from None
    return deal


def _bare(error: Exception, rule: str) -> str:
    """An engine error's message without its trailing ``(rule)``."""
    return str(error).removesuffix(f" ({rule})")


_EVENT_KINDS = ("play", "draw", "pass", "straighten")


def _parse_event(data: Any, ruleset: Ruleset, where: _Where) -> Event:
    data = _object(data, where, "event")
    kinds = [k for k in _EVENT_KINDS if k in data]
    if len(kinds) != 1:
        found = ", ".join(kinds) or "none"
        raise where.error(
            f"an event has exactly one of play, draw, pass, straighten (found {found})",
            RECORD_DOC,
        )
    kind = kinds[0]
    seat = _seat(data.get("seat"), ruleset, where, "seat")
    if kind == "play":
        t = TILES[_tile(data["play"], where, "play")]
        turn = _turn(data["turn"], where, "turn") if "turn" in data else None
        if "end" not in data:
            return Play(seat, t, None, turn)
        try:
            return Play(seat, t, End(data["end"]), turn)
        except ValueError:
            raise where.error(f"{data['end']!r} is not left or right", "R4", "end") from None
    if kind == "draw":
        return Draw(seat, TILES[_tile(data["draw"], where, "draw")])
    if kind == "pass":
        if data["pass"] is not True:
            raise where.error(f"{data['pass']!r}: a pass is written as true", RECORD_DOC, "pass")
        return Pass(seat)
    straighten = _object(data["straighten"], where, "straighten")
    at = TILES[_tile(straighten.get("at"), where, "straighten.at")]
    return Straighten(seat, at, _turn(straighten.get("turn"), where, "straighten.turn"))


def _turn(value: Any, where: _Where, field: str) -> Turn:
    if isinstance(value, str):
        try:
            return Turn(value)
        except ValueError:
            pass
    raise where.error(f"{_short(value)} is not left or right", "R39", field)


def _parse_round(data: Any, ruleset: Ruleset, number: int) -> _Round:
    where = _Where(number)
    data = _object(data, where, "round")
    redeals = []
    raw_redeals = _get(data, "redeals", list, where, "redeals") if "redeals" in data else []
    for i, redeal in enumerate(raw_redeals):
        deal = _parse_deal(redeal, ruleset, where, f"redeals[{i}]")
        redeal = _object(redeal, where, f"redeals[{i}]")
        reason = redeal.get("reason", "")
        if not isinstance(reason, str):
            raise where.error(f"{reason!r} is not a text", RECORD_DOC, f"redeals[{i}].reason")
        if not ruleset.redeal:
            raise where.error("this ruleset has no redeals", "R13", f"redeals[{i}]")
        if deal.redeal_reason() is None:
            raise where.error(
                "no hand holds 5 doubles or 6 tiles of a number: this deal stands",
                "R13",
                f"redeals[{i}]",
            )
        redeals.append(deal)
    deal = _parse_deal(data.get("deal"), ruleset, where, "deal")
    reason = deal.redeal_reason() if ruleset.redeal else None
    if reason is not None:
        raise where.error(f"{reason}: this deal must be thrown in", "R13", "deal")
    raw = _get(data, "events", list, where, "events")
    events = [_parse_event(e, ruleset, _Where(number, k)) for k, e in enumerate(raw, 1)]
    result = data.get("result")
    if result is not None:
        result = _object(result, where, "result")
    opening = _object(data["opening"], where, "opening") if "opening" in data else None
    return _Round(redeals, deal, events, result, raw_redeals, opening)


def _parse_lead_draws(data: Mapping[str, Any], ruleset: Ruleset) -> list[tuple[int, int]]:
    if ruleset.opener is not Opener.DRAW_FOR_LEAD:
        if data.get("lead_draws"):
            raise _TOP.error(
                "only the draw_for_lead opener draws for the lead", "R21", "lead_draws"
            )
        return []
    draws = []
    for i, item in enumerate(_get(data, "lead_draws", list, _TOP, "lead_draws")):
        field = f"lead_draws[{i}]"
        item = _object(item, _TOP, field)
        draws.append(
            (
                _seat(item.get("seat"), ruleset, _TOP, f"{field}.seat"),
                _tile(item.get("tile"), _TOP, f"{field}.tile"),
            )
        )
    return draws


# --- replay ---------------------------------------------------------------------


def replay(data: Mapping[str, Any]) -> Game:
    """Rebuild the game of a record through the engine; RecordError unless it is exact.

    The returned game carries the record's seed (its deals come from the
    record, so a running game cannot be dealt further).
    """
    data = _object(data, _TOP, "record")
    _check_format(data)
    try:
        ruleset = Ruleset.from_dict(_ruleset_data(_object(data.get("ruleset"), _TOP, "ruleset")))
    except RulesetError as e:
        message = _bare(e, e.rule).removeprefix(f"{e.option}: ")
        raise _TOP.error(message, e.rule, f"ruleset.{e.option}") from None
    players = _get(data, "players", list, _TOP, "players")
    if len(players) != ruleset.players or not all(isinstance(p, str) for p in players):
        raise _TOP.error(f"need {ruleset.players} player names", RECORD_DOC, "players")
    _check_bots(data.get("bots"), ruleset)
    seed = data.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise _TOP.error(f"{seed!r} is not a whole number", "R15", "seed")
    raw_rounds = _get(data, "rounds", list, _TOP, "rounds")
    if not raw_rounds:
        raise _TOP.error("a game has at least one round", RECORD_DOC, "rounds")
    rounds = [_parse_round(r, ruleset, n) for n, r in enumerate(raw_rounds, 1)]
    stated = _object(data.get("result"), _TOP, "result")
    lead = _parse_lead_draws(data, ruleset)

    deals = [d for r in rounds for d in (*r.redeals, r.deal)]
    try:
        game = Game(ruleset, dealer=RecordedDealer(deals, lead))
    except DealError as e:
        raise _TOP.error(_bare(e, e.rule), e.rule, "lead_draws") from None
    if len(game.lead_draws) != len(lead):
        raise _TOP.error(
            f"{len(lead) - len(game.lead_draws)} draws after the opener was decided",
            "R21",
            "lead_draws",
        )
    game.seed = seed
    for number, r in enumerate(rounds, 1):
        if number > 1:
            _next_round(game, number)
        _check_reasons(game, number, r)
        _replay_events(game, number, r.events)
        _check_round_result(game, number, r.result)
    computed = game_result_record(game.result)
    _compare(stated, computed, _REQUIRED_GAME, _game_rules(ruleset), _TOP)
    return game


def _check_bots(bots: Any, ruleset: Ruleset) -> None:
    """``bots``, if there: a level (a short text) or null per seat."""
    if bots is None:
        return
    if not isinstance(bots, list) or len(bots) != ruleset.players:
        message = f"need a bot level or null for each of {ruleset.players} seats"
        raise _TOP.error(message, RECORD_DOC, "bots")
    for seat, level in enumerate(bots):
        if level is not None and not (isinstance(level, str) and 0 < len(level) <= 32):
            raise _TOP.error("a bot level is a short text, or null", RECORD_DOC, f"bots[{seat}]")


def _check_reasons(game: Game, number: int, r: _Round) -> None:
    """The stated opening (R16–R21) and redeal reasons (R13), where given, are the engine's."""
    where = _Where(number)
    current = game.rounds[-1]
    for i, ((_, reason), stated) in enumerate(zip(current.redeals, r.stated_redeals, strict=True)):
        computed = redeal_json(reason)
        for key in ("seat", "kind", "count", "number"):
            if key in stated and not _same(stated[key], computed[key]):
                raise where.error(
                    f"{json.dumps(stated[key], default=repr)} is stated, the deal shows "
                    f"{json.dumps(computed[key])} ({reason})",
                    "R13",
                    f"redeals[{i}].{key}",
                )
    if r.opening is not None:
        computed = opening_json(current.opening)
        rules = dict.fromkeys(computed, current.opening.rule)
        _compare(r.opening, computed, (), rules, where, "opening")


def _ruleset_data(data: Mapping[str, Any]) -> Mapping[str, Any]:
    """The record's ruleset, with R13's redeal implied by Kozel scoring when it is left out.

    Early records have no ``redeal`` option: the redeal is part of Kozel (R13), and
    the first version of the format's example had no such field. Read without it, a
    Kozel record's redeals would be refused and a deal with 5 doubles played.
    """
    if "redeal" in data:
        return data
    return {**data, "redeal": data.get("scoring") == Scoring.KOZEL.value}


def _next_round(game: Game, number: int) -> None:
    if game.finished:
        raise _Where(number).error(
            f"the game was decided after round {number - 1}; no round follows", "R30"
        )
    if game.round.ending is None:
        raise _Where(number - 1, len(game.round.events) + 1).error(
            "the events stop before the round ends, yet another round follows", "R22, R23"
        )
    game.next_round()


def _replay_events(game: Game, number: int, events: list[Event]) -> None:
    rnd = game.round
    for k, event in enumerate(events):
        where = _Where(number, k + 1)
        if k < len(rnd.events):  # the engine has already made this event itself
            made = rnd.events[k]
            if type(made) is not type(event) or made != event:
                raise _forced_mismatch(game, made, event, where)
            continue
        if rnd.ending is not None:
            rule = "R22" if rnd.ending is Ending.DOMINO else "R23"
            raise where.error(f"the round is over; nothing follows ({_said(event)})", rule)
        if isinstance(event, Pass | Draw):
            raise where.error(f"{_said(event)}, but seat {rnd.turn} is to play and can play", "R7")
        if event.seat != rnd.turn:
            raise where.error(f"{_said(event)}, but it is seat {rnd.turn}'s turn", "R6")
        try:
            if isinstance(event, Straighten):
                game.straighten(event.seat, event.at, event.turn)
            else:
                game.play(Move(event.tile, event.end), turn=event.turn)
        except IllegalMoveError as e:
            raise where.error(_bare(e, e.rule), e.rule) from None
    if len(rnd.events) > len(events):
        made = rnd.events[len(events)]
        raise _Where(number, len(events) + 1).error(
            f"the record ends before the forced event {_said(made)}", _forced_rule(game, made)
        )


def _said(event: Event) -> str:
    if isinstance(event, Play):
        at = "" if event.end is None else f" {event.end}"
        return f"seat {event.seat} plays {event.tile}{at}"
    if isinstance(event, Draw):
        return f"seat {event.seat} draws {event.tile}"
    if isinstance(event, Pass):
        return f"seat {event.seat} passes"
    return f"seat {event.seat} straightens the line at {event.at}"


def _forced_rule(game: Game, made: Event) -> str:
    if isinstance(made, Play):  # the automatic opening tile
        return "R18" if game.ruleset.opener is Opener.KOZEL else "R16"
    if isinstance(made, Draw) or game.ruleset.boneyard:
        return "R9"
    return "R10"


def _forced_mismatch(game: Game, made: Event, event: Event, where: _Where) -> RecordError:
    rule = _forced_rule(game, made)
    if isinstance(made, Play):
        if isinstance(event, Play) and event[:3] == made[:3]:
            return where.error(f"the round's first tile {made.tile} has no turn", "R39")
        if isinstance(event, Play) and event[:2] == made[:2]:
            return where.error(f"the round's first tile {made.tile} has no end", "R4")
        return where.error(f"the opening tile is forced: {_said(made)}, not {_said(event)}", rule)
    if isinstance(made, Draw):
        if isinstance(event, Draw) and event.seat == made.seat:
            return where.error(
                f"seat {made.seat} draws {made.tile}, the boneyard's next tile, not {event.tile}",
                rule,
            )
        return where.error(f"seat {made.seat} cannot play and must draw, not: {_said(event)}", rule)
    return where.error(f"seat {made.seat} cannot play and passes here, not: {_said(event)}", rule)


# --- results --------------------------------------------------------------------

_REQUIRED_ROUND = ("kind", "winner_seat", "hand_values", "points", "eggs_carried", "scores_after")
_REQUIRED_GAME = ("finished", "losers", "winners", "dry_win", "scores")


_SCORING_RULES = {
    Scoring.WINNER_TAKES: "R26",
    Scoring.WINNER_TAKES_ALL: "R27",
    Scoring.GOAT: "R28",
    Scoring.KOZEL: "R29",
}


def _scoring_rule(ruleset: Ruleset, result: RoundResult) -> str:
    """The rule that gives a round's points: R26–R28, or Kozel's R33–R36."""
    if ruleset.scoring is not Scoring.KOZEL:
        return _SCORING_RULES[ruleset.scoring]
    if any(result.dropped):
        return "R36"
    rule = {ResultKind.DOMINO: "R33", ResultKind.FISH: "R34"}.get(result.kind, "R35")
    return f"{rule}, R35" if result.eggs_used else rule


def _round_rules(ruleset: Ruleset, result: RoundResult) -> dict[str, str]:
    scoring = _scoring_rule(ruleset, result)
    kind = {ResultKind.DOMINO: "R22", ResultKind.FISH: "R34", ResultKind.EGGS: "R35"}
    return {
        "kind": kind.get(result.kind, "R23"),
        "winner_seat": "R17",
        "hand_values": "R2",
        "points": scoring,
        "eggs_carried": "R35",
        "scores_after": scoring,
        "eggs_used": "R35",
        "dropped": "R36",
        "eggs_laid": "R35",
        "breakdown": scoring,
    }


def _game_rules(ruleset: Ruleset) -> dict[str, str]:
    """The rule behind each field of the game's result: the target decides, the scoring adds up."""
    rule = "R30, R37" if ruleset.scoring is Scoring.KOZEL else "R30"
    rules = {key: rule for key in _REQUIRED_GAME}
    return rules | {"dry_win": "R37", "scores": _SCORING_RULES[ruleset.scoring]}


def _check_round_result(game: Game, number: int, stated: Mapping[str, Any] | None) -> None:
    where = _Where(number)
    result = game.rounds[-1].result
    if result is None:
        if stated is not None:
            raise _Where(number, len(game.round.events) + 1).error(
                "the events stop before the round is over, yet it has a result",
                "R22, R23",
                "result",
            )
        return
    if stated is None:
        raise where.error("missing for a round that is over", "R32", "result")
    computed = round_result_record(result)
    _compare(stated, computed, _REQUIRED_ROUND, _round_rules(game.ruleset, result), where)


def _compare(
    stated: Mapping[str, Any],
    computed: Mapping[str, Any],
    required: Sequence[str],
    rules: Mapping[str, str],
    where: _Where,
    name: str = "result",
) -> None:
    """Every stated field must equal the computed one; the ``required`` ones must be there."""
    for key, value in computed.items():
        if key not in stated:
            if key in required:
                raise where.error("missing", RECORD_DOC, f"{name}.{key}")
            continue
        if not _same(stated[key], value):
            raise where.error(
                f"{_short(stated[key])} is stated, the rules give {_short(value)}",
                rules[key],
                f"{name}.{key}",
            )


def _short(value: Any) -> str:
    """A JSON value for a message, cut to a readable length."""
    text = json.dumps(value, default=repr, ensure_ascii=False)
    return text if len(text) <= 120 else text[:117] + "…"


def _same(stated: Any, computed: Any) -> bool:
    """JSON equality that tells true from 1 and 1.0 from 1."""
    if isinstance(computed, list):
        return (
            isinstance(stated, list | tuple)
            and len(stated) == len(computed)
            and all(_same(s, c) for s, c in zip(stated, computed, strict=True))
        )
    if isinstance(computed, dict):
        return (
            isinstance(stated, Mapping)
            and stated.keys() == computed.keys()
            and all(_same(stated[k], c) for k, c in computed.items())
        )
    return type(stated) is type(computed) and stated == computed
