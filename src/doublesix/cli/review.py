"""``doublesix review FILE``: each move of one seat beside the expert's choice and its cost."""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from doublesix.bots.hint import hint
from doublesix.cli.common import CommandError, Subparsers, UsageError
from doublesix.rules import record
from doublesix.rules.deal import RecordedDealer
from doublesix.rules.game import Game
from doublesix.rules.moves import Move, Play, Straighten
from doublesix.rules.view import seat_view


def add_parser(subparsers: Subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "review",
        help="a seat's moves beside the expert's",
        description="Replays a doublesix/1 record and prints, for one seat, each of its "
        "moves with the expert's best move and the estimated loss (points of the round, "
        "by the expert's search from that seat's view only) where they differ.",
    )
    parser.add_argument("file", metavar="FILE", help="a doublesix/1 record (JSON)")
    parser.add_argument("--seat", type=int, default=0, metavar="N", help="the seat (default 0)")
    parser.add_argument(
        "--ms", type=float, default=300.0, metavar="M", help="search per move in ms (default 300)"
    )
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="search seed (default 0)")
    parser.add_argument("--json", action="store_true", help="print the review as JSON")
    return parser


@dataclass(frozen=True)
class Reviewed:
    round: int
    event: int
    seat: int
    played: Move
    best: Move
    loss: float
    """Estimated points lost against the best move (0 when they agree or it was forced)."""
    choices: int
    win_chance: float
    best_win_chance: float

    def as_dict(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "event": self.event,
            "seat": self.seat,
            "played": str(self.played),
            "best": str(self.best),
            "loss": round(self.loss, 2),
            "choices": self.choices,
            "win_chance": round(self.win_chance, 3),
            "best_win_chance": round(self.best_win_chance, 3),
        }


def review(game: Game, seat: int, ms: float = 300.0, seed: int = 0) -> list[Reviewed]:
    """Walk the (replayed) ``game`` again and review every move ``seat`` chose."""
    deals = [d for r in game.rounds for d in (*(deal for deal, _ in r.redeals), r.deal)]
    again = Game(game.ruleset, dealer=RecordedDealer(deals, game.lead_draws))
    out: list[Reviewed] = []
    for number, played_round in enumerate(game.rounds, 1):
        if number > 1:
            again.next_round()
        rnd = again.round
        for index, event in enumerate(played_round.play.events):
            if index < len(rnd.events):
                continue  # forced: the engine made it itself
            if isinstance(event, Straighten):
                rnd.straighten(event.at)
                continue
            assert isinstance(event, Play)
            move = Move(event.tile, event.end)
            if event.seat == seat:
                view = seat_view(again, seat)
                if len(view.legal_moves) == 1:
                    out.append(Reviewed(number, index, seat, move, move, 0.0, 1, 0.0, 0.0))
                    again.play(move)
                    continue
                ranked = hint(view, ms=ms, seed=seed + index)
                if ranked:
                    best = ranked[0]
                    mine = next(h for h in ranked if h.move == move)
                    loss = 0.0 if mine.value >= best.value else best.value - mine.value
                    out.append(
                        Reviewed(
                            number,
                            index,
                            seat,
                            move,
                            best.move if loss > 0 else move,
                            loss,
                            len(view.legal_moves),
                            mine.win_chance,
                            best.win_chance,
                        )
                    )
            again.play(move)
    return out


def run(args: argparse.Namespace) -> int:
    path = Path(args.file)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise CommandError(f"cannot read {path}: {e.strerror or e}") from None
    try:
        game = record.replay(record.loads(text))
    except record.RecordError as e:
        raise CommandError(f"{path}: {e}") from None
    if not 0 <= args.seat < game.ruleset.players:
        raise UsageError(f"--seat: no seat {args.seat} at a table of {game.ruleset.players}")
    if args.ms <= 0:
        raise UsageError(f"--ms: {args.ms}; give a positive number")
    rows = review(game, args.seat, args.ms, args.seed)
    total = sum(r.loss for r in rows)
    if args.json:
        print(
            json.dumps(
                {"seat": args.seat, "moves": [r.as_dict() for r in rows], "total_loss": total}
            )
        )
        return 0
    print(f"review of seat {args.seat} ({game.ruleset.preset}, {game.ruleset.players} players)")
    for r in rows:
        where = f"R{r.round} · {r.event + 1}."
        if r.choices == 1:
            print(f"{where} {r.played} (forced)")
        elif r.loss <= 0:
            print(f"{where} {r.played} — the expert agrees (round won {r.win_chance:.0%})")
        else:
            print(
                f"{where} {r.played} — expert: {r.best}, estimated loss {r.loss:.1f} points "
                f"(round won {r.win_chance:.0%} vs {r.best_win_chance:.0%})"
            )
    differ = sum(1 for r in rows if r.loss > 0)
    print(f"{len(rows)} moves, {differ} differ from the expert, estimated loss {total:.1f} points")
    return 0
