"""``doublesix arena`` with variants of the candidates, named by what they change.

    python benchmarks/arena_variants.py --preset kozel \
        --bots ismcts-fit-c0.7-t4:30,expert-2026:30 --games 40 --seed 16 --log FILE

A bot named ``expert-c<C>-t<T>`` is the table's ``expert`` with those two
constants; one named ``ismcts-fit-c<C>-t<T>`` is ``ismcts-fit`` (``bots/fitted.py``)
with the exploration constant ``C`` (``C_PUCT``, in standard deviations of
the root's returns; 1.5 by default) and the prior's temperature ``T``
(``PRIOR_T``, in the playout policy's points; 4 by default: lower is a
sharper prior); ``-s<N>`` after them hands the decision to ``expert-fit``'s
search from ``N`` tiles left (hands and drawable boneyard) instead of
``ALWAYS_SOLVE``'s 10, where ``expert`` solves deals exactly. ``expert-fp``
is ``expert`` (``expert-fit-fp``: ``expert-fit``) with ``fitted_playout``:
every seat of a playout plays as the conditional logit fitted to
``expert``'s own choices would, not as ``smart_playout``.
``expert-peek<B>`` is ``expert`` whose deals' log-weights are raised by ``B`` for each
of the others' tiles a deal puts in the hand that truly holds it — a model of the hidden
hands that much truer than the network, ``belief.py --peek B`` scoring how much. It sees
the deal to do so, as ``omniscient`` does: a measuring instrument, not an honest seat.
``hint-net`` and ``hint-2026`` play the hint's first move (``HintBot``), its deals weighed by
``expert``'s model of the hands or by the 2026 expert's: what a player who always took the
hint would do.
``alphamu`` is αμ search (``benchmarks/alphamu.py``) on ``expert``'s weighted deals, two
players only: one move of the searching seat for all the deals it cannot tell apart, the
other seat's per deal, ``M`` of its own moves deep, deepened while the budget lasts;
``alphamu-m<M>`` searches ``M`` moves deep whatever the budget (``M`` = 1 is PIMC), and
``-w<N>`` after either searches ``N`` worlds instead of ``alphamu.WORLDS``; ``-p`` last
has the other seat play ``smart_playout``'s rule in each world instead of its best answer,
``-n`` last the tile ``expert``'s choice network finds likeliest from what that seat would
see in that world (``alphamu.net_move``).
The variants are registered in this process only (arena only, never at a
table); every other argument is the arena's, and the log's header names the
variant, so each run resumes only with its own parameters.
``arena_variants.py --table LOG...`` prints ``arena_table.py``'s table of
logs that name variants.
Run with ``--jobs 1`` (the default): other processes would not know the
variants.
"""

from __future__ import annotations

import random
import re
import sys
from collections.abc import Sequence

from alphamu import WORLDS, AlphaMuBot

from doublesix.bots.base import BOTS, Bot, register
from doublesix.bots.budget import Work
from doublesix.bots.choice_net import NetBot, expert_model
from doublesix.bots.core import BLOCKED, advance
from doublesix.bots.expert import ALWAYS_SOLVE, ExpertBot, OpponentModel
from doublesix.bots.fitted import ExpertFitBot, IsmctsFitBot
from doublesix.bots.hint import hint
from doublesix.bots.inference import Knowledge
from doublesix.bots.ismcts import IsmctsBot
from doublesix.bots.sampler import Sample
from doublesix.cli import main
from doublesix.rules.game import Game
from doublesix.rules.moves import Move
from doublesix.rules.view import SeatView
from doublesix.tiles import DOUBLES, OTHER, SUIT, VALUE

VARIANT = re.compile(r"ismcts-fit-c([0-9.]+)-t([0-9.]+)(?:-s([0-9]+))?")

EXPERT_VARIANT = re.compile(r"expert-c([0-9.]+)-t([0-9.]+)")
"""``expert`` (the table's, ``choice_net``) with another exploration constant and prior."""

ALPHAMU_VARIANT = re.compile(r"alphamu(?:-m([0-9]+))?(?:-w([0-9]+))?(-p|-n)?")
"""αμ search (``alphamu.AlphaMuBot``), ``M`` fixed or deepened, on ``N`` worlds, the other
seat by its best answer, the playout rule (``-p``) or the choice network (``-n``)."""

PEEK_VARIANT = re.compile(r"expert-peek([0-9.]+)")
"""``expert`` with its model of the hands made truer by a look at the deal (``PeekModel``)."""


class PeekModel(OpponentModel):
    """``inner``'s weight of a deal, its log raised by ``beta`` for each of the others' tiles
    the deal puts in the hand that holds it in ``game`` (set by ``PeekBot.see``)."""

    def __init__(self, inner: OpponentModel, beta: float) -> None:
        super().__init__()
        self.inner = inner
        self.beta = beta
        self.game: Game | None = None

    def right(self, k: Knowledge, sample: Sample) -> int:
        if self.game is None:
            raise RuntimeError("a peeking model must be shown the game first")
        truth = self.game.round.hands
        return sum(
            (sample.hands[s] & truth[s]).bit_count() for s in range(k.players) if s != k.seat
        )

    def weigh(self, k: Knowledge, sample: Sample) -> tuple[float, int]:
        log, heavy = self.inner.weigh(k, sample)
        return log + self.beta * self.right(k, sample), heavy

    def log_likelihood(self, k: Knowledge, sample: Sample) -> float:
        return self.weigh(k, sample)[0]


class PeekBot:
    """``expert`` (``NetBot``) weighing its deals, in the tree and in the endgame's exact
    search alike, by a ``PeekModel`` of its own model. A wrapper: the compiled ``NetBot``
    takes no new methods."""

    def __init__(self, inner: NetBot, beta: float, name: str) -> None:
        self.inner = inner
        self.name = name
        self.peek = PeekModel(inner.net_model, beta)
        inner.model = self.peek

    @property
    def ms_per_move(self) -> float:
        return self.inner.ms_per_move

    @ms_per_move.setter
    def ms_per_move(self, ms: float) -> None:
        self.inner.ms_per_move = ms

    @property
    def work(self) -> Work:
        return self.inner.work

    def see(self, game: Game) -> None:
        self.peek.game = game

    def choose(self, view: SeatView) -> Move:
        return self.inner.choose(view)


class HintBot:
    """Plays the hint's first move (``bots.hint``), its deals weighed by ``expert``'s model of
    the hands (``hint-net``; ``choice_net.expert_model``) or, as the hint did before, by the
    2026 expert's pips-only ``OpponentModel`` (``hint-2026``). What a player who always took
    the hint would do."""

    def __init__(self, rng: random.Random, name: str) -> None:
        self.rng = rng
        self.name = name
        self.ms_per_move = 100.0
        self.work = Work()

    def choose(self, view: SeatView) -> Move:
        model = OpponentModel() if self.name == "hint-2026" else expert_model(view)
        seed = self.rng.randrange(1 << 32)
        return hint(view, ms=self.ms_per_move, seed=seed, model=model)[0].move


PLAYOUT_WEIGHTS = (7, 105, -9, 51, 117)
"""(pips, a double, tiles kept that fit, tiles of the open number, the next seat cannot
answer), times 100: ``benchmarks/fit_opponent_model.py``'s fit "with the next hand" (both
games), the policy that best predicts ``expert``'s own choices when every hand is known."""


def fitted_playout(
    hands: list[int],
    left: int,
    right: int,
    turn: int,
    bone: Sequence[int],
    drawn: int,
    stop: int,
    draw_one: bool,
    n: int,
) -> tuple[bool, int, int]:
    """``search.smart_playout`` with the fitted weights: each seat plays its best-scored play."""
    w_pip, w_double, w_kept, w_open, w_block = PLAYOUT_WEIGHTS
    base = [w_pip * VALUE[x] + (w_double if DOUBLES >> x & 1 else 0) for x in range(28)]
    suit = SUIT
    other = OTHER
    plays = 0
    while True:
        h = hands[turn]
        sl = suit[left]
        sr = suit[right]
        p = h & (sl | sr)
        best = -(10**9)
        t = -1
        end = 0
        nh = hands[(turn + 1) % n]
        q = p
        while q:
            low = q & -q
            x = low.bit_length() - 1
            q ^= low
            rest = h ^ low
            b = base[x]
            if sl & low:
                new = suit[other[x][left]]
                ns = new | sr
                sc = (
                    b
                    + w_kept * (rest & ns).bit_count()
                    + w_open * (rest & new).bit_count()
                    + (0 if nh & ns else w_block)
                )
                if sc > best:
                    best, t, end = sc, x, 0
            if sr & low and left != right:
                new = suit[other[x][right]]
                ns = sl | new
                sc = (
                    b
                    + w_kept * (rest & ns).bit_count()
                    + w_open * (rest & new).bit_count()
                    + (0 if nh & ns else w_block)
                )
                if sc > best:
                    best, t, end = sc, x, 1
        h ^= 1 << t
        hands[turn] = h
        plays += 1
        if end == 0:
            left = other[t][left]
        else:
            right = other[t][right]
        if not h:
            return True, turn, plays
        last = turn
        turn, drawn = advance(
            hands, suit[left] | suit[right], (turn + 1) % n, bone, drawn, stop, draw_one, n
        )
        if turn == BLOCKED:
            return False, last, plays


def register_variants(argv: list[str]) -> None:
    """Register every variant that ``--bots`` in ``argv`` names."""
    for i, arg in enumerate(argv):
        if arg == "--bots" and i + 1 < len(argv):
            for spec in argv[i + 1].split(","):
                name = spec.partition(":")[0]
                m = VARIANT.fullmatch(name)
                if m:
                    solve_at = int(m.group(3)) if m.group(3) else ALWAYS_SOLVE
                    _register(name, float(m.group(1)), float(m.group(2)), solve_at)
                elif m := EXPERT_VARIANT.fullmatch(name):
                    _register_expert(name, float(m.group(1)), float(m.group(2)))
                elif name in ("expert-fp", "expert-fit-fp"):
                    _register_playout(name)
                elif m := PEEK_VARIANT.fullmatch(name):
                    _register_peek(name, float(m.group(1)))
                elif name in ("hint-2026", "hint-net"):
                    _register_hint(name)
                elif m := ALPHAMU_VARIANT.fullmatch(name):
                    fixed_m = int(m.group(1)) if m.group(1) else None
                    worlds = int(m.group(2)) if m.group(2) else WORLDS
                    _register_alphamu(name, fixed_m, worlds, m.group(3) or "")


def _register_alphamu(name: str, fixed_m: int | None, worlds: int, rule: str) -> None:
    def make(rng: random.Random) -> AlphaMuBot:
        return AlphaMuBot(rng, name, fixed_m, worlds, policy_min=rule == "-p", net_min=rule == "-n")

    register(name, table=False, ms=30.0)(make)


def _register_hint(name: str) -> None:
    register(name, table=False, ms=100.0)(lambda rng: HintBot(rng, name))


def _register_peek(name: str, beta: float) -> None:
    table_expert = BOTS["expert"]

    def make(rng: random.Random) -> Bot:
        bot = table_expert(rng)
        assert isinstance(bot, NetBot)
        return PeekBot(bot, beta, name)

    register(name, table=False, ms=30.0)(make)


def _register_playout(name: str) -> None:
    def make(rng: random.Random) -> ExpertBot:
        bot = ExpertFitBot(rng) if name == "expert-fit-fp" else ExpertBot(rng)
        bot.name = name
        bot.playout = fitted_playout
        return bot

    register(name, table=False, ms=100.0)(make)


def _register(name: str, c_puct: float, prior_t: float, solve_at: int) -> None:
    def make(rng: random.Random) -> IsmctsFitBot:
        bot = IsmctsFitBot(rng)
        bot.name = name
        bot.c_puct = c_puct
        bot.prior_t = prior_t
        bot.solve_at = solve_at
        return bot

    register(name, table=False, ms=100.0)(make)


def _register_expert(name: str, c_puct: float, prior_t: float) -> None:
    table_expert = BOTS["expert"]

    def make(rng: random.Random) -> Bot:
        bot = table_expert(rng)
        assert isinstance(bot, IsmctsBot)
        bot.name = name
        bot.c_puct = c_puct
        bot.prior_t = prior_t
        return bot

    register(name, table=False, ms=30.0)(make)


def table(paths: list[str]) -> None:
    """``arena_table.py`` of ``paths``, the variants their runs name known."""
    import json

    import arena_table

    for path in paths:
        with open(path) as log:
            header = json.loads(log.readline())
        register_variants(["--bots", ",".join(header["bots"])])
    sys.argv = [sys.argv[0], *paths]
    arena_table.main()


if __name__ == "__main__":
    args = sys.argv[1:]
    if args[:1] == ["--table"]:
        table(args[1:])
        sys.exit(0)
    register_variants(args)
    sys.exit(main(["arena", *args]))
