"""The arena: bot A against bot B on duplicate deals, with honest statistics.

A bot is given as ``level`` or ``level:ms`` (``base.parse_spec``): each side
may have its own time budget per move, so two budgets of one level, or two
levels at different budgets, meet on the same deals.

Every deal (a seed, so every round's deal of a whole game) is played in
every seating: two seatings with the hands swapped between the sides when
there are two sides or four players (A at seats 0 and 2, then at 1 and 3);
six in a 3-player game (A alone at each seat, then B alone at each seat).
Luck of the deal cancels, and A and B play the same number of games on
each side. The bot at a seat gets the same seed in every seating of a
deal, so a bot against itself replays each game mirrored (exactly 50%).

The win rate counts a draw as half a win; its 95% interval is Wilson's
score interval; the Elo difference is ``400·log10(p / (1 − p))``.
Time per move is CPU time of the process (``time.process_time``), so the
figures do not depend on what else runs on the machine.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from functools import partial
from typing import Any

from doublesix.bots.base import Bot, budget_of, make_bot
from doublesix.rules.game import Game
from doublesix.rules.ruleset import Ruleset
from doublesix.rules.view import seat_view

MAX_ROUNDS = 300
"""A game still running after this many rounds counts as a draw."""


def seatings(ruleset: Ruleset) -> list[tuple[int, ...]]:
    """Each seating as a tuple per seat: 0 where bot A sits, 1 where bot B sits."""
    n = ruleset.players
    if n == 3:
        alone = [tuple(0 if s == i else 1 for s in range(n)) for i in range(n)]
        return alone + [tuple(1 - x for x in seating) for seating in alone]
    first = tuple(ruleset.side_of(s) % 2 if ruleset.pairs else s % 2 for s in range(n))
    return [first, tuple(1 - x for x in first)]


def wilson(wins: float, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """Wilson's 95% score interval for a rate of ``wins`` out of ``n`` (draws as halves)."""
    if n <= 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def elo(rate: float, n: int) -> float:
    """The Elo difference for a score rate, clamped half a game from 0% and 100%."""
    if n <= 0:
        return 0.0
    eps = 0.5 / n
    p = min(max(rate, eps), 1 - eps)
    return 400 * math.log10(p / (1 - p))


@dataclass
class Timing:
    """CPU time of one bot's moves; ``choices`` counts those with two legal moves or more."""

    moves: int = 0
    total: float = 0.0
    max: float = 0.0
    choices: int = 0
    choice_total: float = 0.0

    def add(self, seconds: float, choice: bool = True) -> None:
        self.moves += 1
        self.total += seconds
        self.max = max(self.max, seconds)
        if choice:
            self.choices += 1
            self.choice_total += seconds

    def merge(self, other: Timing) -> None:
        self.moves += other.moves
        self.total += other.total
        self.max = max(self.max, other.max)
        self.choices += other.choices
        self.choice_total += other.choice_total

    @property
    def mean_ms(self) -> float:
        return 1000 * self.total / self.moves if self.moves else 0.0

    @property
    def choice_mean_ms(self) -> float:
        """Mean over the moves that were a choice (a forced move costs nothing)."""
        return 1000 * self.choice_total / self.choices if self.choices else 0.0

    @property
    def max_ms(self) -> float:
        return 1000 * self.max


@dataclass
class ArenaResult:
    preset: str
    players: int
    bots: tuple[str, str]
    """The two bots as given (``level`` or ``level:ms``)."""
    penalties: bool = False
    """Points are penalties (Kozel, goat): fewer is better."""
    budgets: tuple[float | None, float | None] = (None, None)
    """Each side's time budget per move in ms (None: a bot that does not search)."""
    games: int = 0
    a_wins: int = 0
    b_wins: int = 0
    draws: int = 0
    rounds: int = 0
    a_points: float = 0.0
    """Sum over games of the final score of A's seats (a seat's side, averaged over A's seats)."""
    b_points: float = 0.0
    a_round_points: float = 0.0
    """Sum over rounds of the points A's side scored in it (averaged over A's seats)."""
    b_round_points: float = 0.0
    timing: tuple[Timing, Timing] = field(default_factory=lambda: (Timing(), Timing()))

    def merge(self, other: ArenaResult) -> None:
        """Add the games of ``other`` (same preset and bots) to this result."""
        self.games += other.games
        self.a_wins += other.a_wins
        self.b_wins += other.b_wins
        self.draws += other.draws
        self.rounds += other.rounds
        self.a_points += other.a_points
        self.b_points += other.b_points
        self.a_round_points += other.a_round_points
        self.b_round_points += other.b_round_points
        for mine, theirs in zip(self.timing, other.timing, strict=True):
            mine.merge(theirs)

    def to_json(self) -> dict[str, Any]:
        """Every raw count and sum, unrounded (``from_json`` reads it back)."""
        data = asdict(self)
        data["bots"] = list(self.bots)
        data["budgets"] = list(self.budgets)
        data["timing"] = [asdict(t) for t in self.timing]
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ArenaResult:
        fields = dict(data)
        a, b = fields.pop("bots")
        ta, tb = (Timing(**t) for t in fields.pop("timing"))
        ba, bb = fields.pop("budgets", (None, None))
        return cls(bots=(a, b), timing=(ta, tb), budgets=(ba, bb), **fields)

    @property
    def a_win_rate(self) -> float:
        return (self.a_wins + 0.5 * self.draws) / self.games if self.games else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        return wilson(self.a_wins + 0.5 * self.draws, self.games)

    @property
    def elo(self) -> float:
        return elo(self.a_win_rate, self.games)

    def as_dict(self) -> dict[str, Any]:
        ta, tb = self.timing
        lo, hi = self.ci95
        g = self.games or 1
        r = self.rounds or 1
        return {
            "preset": self.preset,
            "players": self.players,
            "bots": list(self.bots),
            "budgets": list(self.budgets),
            "games": self.games,
            "a_wins": self.a_wins,
            "b_wins": self.b_wins,
            "draws": self.draws,
            "a_win_rate": round(self.a_win_rate, 4),
            "ci95": [round(lo, 4), round(hi, 4)],
            "elo": round(self.elo, 1),
            "rounds": self.rounds,
            "a_points_per_game": round(self.a_points / g, 2),
            "b_points_per_game": round(self.b_points / g, 2),
            "a_points_per_round": round(self.a_round_points / r, 2),
            "b_points_per_round": round(self.b_round_points / r, 2),
            "ms_per_move_mean": round(ta.mean_ms, 2),
            "ms_per_move_max": round(ta.max_ms, 2),
            "b_ms_per_move_mean": round(tb.mean_ms, 2),
            "b_ms_per_move_max": round(tb.max_ms, 2),
            "ms_per_choice_mean": round(ta.choice_mean_ms, 2),
            "b_ms_per_choice_mean": round(tb.choice_mean_ms, 2),
            "timing": {"a": asdict(ta), "b": asdict(tb)},
        }


def _mean_over(seats: Sequence[int], values: Sequence[float]) -> float:
    return sum(values[s] for s in seats) / len(seats) if seats else 0.0


def play_game(
    ruleset: Ruleset,
    seed: int,
    bots: Sequence[Bot],
    timings: Sequence[Timing] | None = None,
) -> Game:
    """One whole game, ``bots[s]`` at seat ``s``; each move's CPU time goes to ``timings[s]``."""
    game = Game(ruleset, seed=seed)
    rounds = 1
    while not game.finished:
        rnd = game.round
        if rnd.ending is not None:
            if rounds >= MAX_ROUNDS:
                break
            game.next_round()
            rounds += 1
            continue
        seat = rnd.turn
        bot = bots[seat]
        see = getattr(bot, "see", None)
        if see is not None:
            see(game)
        view = seat_view(game, seat)
        start = time.process_time()
        move = bot.choose(view)
        spent = time.process_time() - start
        if timings is not None:
            timings[seat].add(spent, len(view.legal_moves) > 1)
        game.play(move, seat)
    return game


def configure(bot: Bot, ms_per_move: float | None) -> Bot:
    """Give a searching bot its time budget per move (None, and bots without one, ignore it)."""
    if ms_per_move is not None and hasattr(bot, "ms_per_move"):
        bot.ms_per_move = ms_per_move
    return bot


def deal_seed(seed: int, deal: int) -> int:
    """The seed of deal number ``deal`` (from 0) of an arena run with ``seed``."""
    return seed * 1_000_003 + deal


def deals_for(ruleset: Ruleset, games: int) -> int:
    """How many deals make at least ``games`` games (every deal is played in every seating)."""
    return -(-games // len(seatings(ruleset)))


def play_deal(
    ruleset: Ruleset,
    a: str,
    b: str,
    seed: int,
    ms_per_move: float | None = None,
    make: Callable[[str, int], Bot] = make_bot,
) -> ArenaResult:
    """One deal (``seed``, a whole game's deals) played in every seating: its part of a result.

    ``a`` and ``b`` are bots as ``level`` or ``level:ms``; ``ms_per_move`` is the
    budget of a searching bot given without one (else its level's default).
    """
    result = _empty(ruleset, a, b, ms_per_move)
    names = (a, b)
    for seating in seatings(ruleset):
        bots = [
            configure(make(names[who], seed * 97 + s), result.budgets[who])
            for s, who in enumerate(seating)
        ]
        seat_timings = [Timing() for _ in seating]
        game = play_game(ruleset, seed, bots, seat_timings)
        _tally(result, ruleset, game, seating, seat_timings)
    return result


def run_arena(
    ruleset: Ruleset,
    a: str,
    b: str,
    games: int,
    seed: int = 0,
    ms_per_move: float | None = None,
    progress: Callable[[ArenaResult], None] | None = None,
    make: Callable[[str, int], Bot] = make_bot,
    *,
    jobs: int = 1,
    done: Mapping[int, ArenaResult] | None = None,
    on_deal: Callable[[int, ArenaResult], None] | None = None,
) -> ArenaResult:
    """Play at least ``games`` games (whole deals in every seating) of ``a`` against ``b``.

    Deal ``d`` always has the seed ``deal_seed(seed, d)`` and every bot is
    seeded from it, so a deal's games do not depend on which process plays
    them or when: ``jobs`` worker processes give the same games as one, and
    ``done`` (deals already played, by number, e.g. from an ``ArenaLog``)
    lets a long run resume. ``on_deal`` sees each newly played deal.
    """
    done = dict(done or {})
    count = deals_for(ruleset, games)
    todo = [d for d in range(count) if d not in done]
    play = partial(_play_numbered_deal, ruleset, a, b, seed, ms_per_move, make)
    result = _empty(ruleset, a, b, ms_per_move)
    for d in range(count):
        if d in done:
            result.merge(done[d])
    if progress is not None and done:
        progress(result)
    with _pool(jobs) as pool:
        played = pool.map(play, todo) if pool is not None else map(play, todo)
        for d, part in zip(todo, played, strict=True):
            if on_deal is not None:
                on_deal(d, part)
            result.merge(part)
            if progress is not None:
                progress(result)
    return result


def _empty(ruleset: Ruleset, a: str, b: str, ms_per_move: float | None) -> ArenaResult:
    """A result with no game yet, naming the bots and the budget each side plays with."""
    budgets = (budget_of(a, ms_per_move), budget_of(b, ms_per_move))
    return ArenaResult(ruleset.preset, ruleset.players, (a, b), ruleset.scoring.penalties, budgets)


def _play_numbered_deal(
    ruleset: Ruleset,
    a: str,
    b: str,
    seed: int,
    ms_per_move: float | None,
    make: Callable[[str, int], Bot],
    deal: int,
) -> ArenaResult:
    return play_deal(ruleset, a, b, deal_seed(seed, deal), ms_per_move, make)


@contextmanager
def _pool(jobs: int) -> Iterator[ProcessPoolExecutor | None]:
    """Worker processes for ``jobs`` > 1; results still come back in deal order."""
    if jobs <= 1:
        yield None
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield pool


def _tally(
    result: ArenaResult,
    ruleset: Ruleset,
    game: Game,
    seating: Sequence[int],
    seat_timings: Sequence[Timing],
) -> None:
    result.games += 1
    n = ruleset.players
    a_seats = [s for s in range(n) if seating[s] == 0]
    b_seats = [s for s in range(n) if seating[s] == 1]
    winners = {ruleset.seats_of(side) for side in game.result.winners}
    winning_seats = {s for seats in winners for s in seats}
    a_won = bool(winning_seats & set(a_seats))
    b_won = bool(winning_seats & set(b_seats))
    if not game.finished or a_won == b_won:
        result.draws += 1
    elif a_won:
        result.a_wins += 1
    else:
        result.b_wins += 1
    seat_scores = [float(game.scores[ruleset.side_of(s)]) for s in range(n)]
    result.a_points += _mean_over(a_seats, seat_scores)
    result.b_points += _mean_over(b_seats, seat_scores)
    for r in game.rounds:
        if r.result is None:
            continue
        result.rounds += 1
        pts = [float(r.result.points[ruleset.side_of(s)]) for s in range(n)]
        result.a_round_points += _mean_over(a_seats, pts)
        result.b_round_points += _mean_over(b_seats, pts)
    for s in range(n):
        result.timing[seating[s]].merge(seat_timings[s])


def summary(result: ArenaResult) -> str:
    """The arena's result as a few lines of text."""
    d = result.as_dict()
    a, b = result.bots
    lo, hi = d["ci95"]
    penalties = " (penalties)" if result.penalties else ""
    return "\n".join(
        [
            f"{a} vs {b} — {result.preset}, {result.players} players, {d['games']} games "
            f"({d['rounds']} rounds)",
            f"wins: {a} {d['a_wins']}, {b} {d['b_wins']}, draws {d['draws']}",
            f"{a} win rate: {100 * d['a_win_rate']:.1f}% "
            f"(95% CI {100 * lo:.1f}–{100 * hi:.1f}%), Elo difference {d['elo']:+.0f}",
            f"points per game{penalties}: {a} {d['a_points_per_game']}, "
            f"{b} {d['b_points_per_game']}",
            f"points per round{penalties}: {a} {d['a_points_per_round']}, "
            f"{b} {d['b_points_per_round']}",
            f"budget per move: {a} {_ms(result.budgets[0])}, {b} {_ms(result.budgets[1])}",
            f"ms per move (CPU): {a} mean {d['ms_per_move_mean']} max {d['ms_per_move_max']}; "
            f"{b} mean {d['b_ms_per_move_mean']} max {d['b_ms_per_move_max']}",
            f"ms per move with a choice (2+ legal moves): {a} mean {d['ms_per_choice_mean']}; "
            f"{b} mean {d['b_ms_per_choice_mean']}",
        ]
    )


def _ms(budget: float | None) -> str:
    return "none (no search)" if budget is None else f"{budget:g} ms"
