"""The table bots' fixed ratings (``doublesix.ratings.BOT_RATINGS``) from the arena's logs.

Every committed log in ``benchmarks/arena/`` between two table levels is a
measured Elo difference: A's win rate ``p`` over its games (a draw counts
half) gives ``400·log10(p / (1 − p))``, with the binomial standard error
of ``p`` carried through. The runs chain the levels: greedy against random,
medium against greedy, pimc and expert against greedy, expert against pimc
(Draw with 2 players, Block with 4, Kozel: every family together, for one
rating per level that players can learn). A weighted least-squares fit
(weights 1/variance) puts every level on one scale where ``medium`` — a club
player's rules of thumb — stands at 1500, a new player's rating; the fit's
standard error of each level is its ``sigma``. The scale of
``doublesix.ratings`` is Elo's, so the differences carry over as they are.

Runs of a searching bot below its table budget (``pimc:30``) are left out:
a table's bots think that long a move, and the longer runs lie within one
interval of the table budget's (README, "Default budgets"). ``omniscient``
never sits at a table; ``expert-2026``, the table's ``expert`` until the tree
search took the name, ``ismcts-fit``, that tree search until it weighed its
deals by a network, and ``ismcts-net``, that network's search until it read
each seat's style of play, no longer do, but their runs (at their table
budget of then, 100, 30 and 30 ms, or more) still link the levels they played
(``LINKS``): they are fitted with them, and left out of ``BOT_RATINGS``.
Single rounds (``--target round``) measure a round, not a game: left out too.

    python benchmarks/bot_ratings.py > benchmarks/bot_ratings.log
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from arena_table import budgets, levels, played

from doublesix.bots import BUDGETS, table_bots

ARENA = Path(__file__).parent / "arena"
ANCHOR = ("medium", 1500.0)
LINKS = {"expert-2026": 100.0, "ismcts-fit": 30.0, "ismcts-net": 30.0}
"""Levels fitted for the runs that link the table's levels, with their table budget of then."""
MYPYC_CORE = frozenset(
    {
        "block4-ismctsfit100-greedy",
        "block4-ismctsfit300-greedy",
        "draw2-ismctsfit100-expert2026-300",
        "draw2-ismctsfit100-greedy",
        "kozel-ismctsfit100-expert2026-300",
        "kozel-ismctsfit100-greedy",
        "kozel-ismctsfit100-greedy-1795c34",
        "kozel-ismctsfit300-greedy",
        "pilot-draw2-ismctsfit100-expert2026-100",
        "pilot-draw2-ismctsfit300-expert2026-300",
        "pilot-kozel-ismctsfit300-expert2026-300",
        "pilot2-draw2-ismctsfit100-expert2026-300",
        "pilot2-kozel-ismctsfit100-expert2026-300",
    }
)
"""``ismcts-fit``'s runs before its C core (commit 12a6ed9): the same search drawing a tenth
of the deals a millisecond, so in effect below its table budget, and left out as such runs
are."""
ELO = 400 / math.log(10)


@dataclass(frozen=True)
class Match:
    log: str
    a: str
    b: str
    games: int
    score: float
    """A's wins plus half its draws."""

    @property
    def rate(self) -> float:
        # a clean sweep is not infinitely strong: add half a game to each side
        return (self.score + 0.5) / (self.games + 1)

    @property
    def elo(self) -> float:
        p = self.rate
        return ELO * math.log(p / (1 - p))

    @property
    def variance(self) -> float:
        p = self.rate
        se_p = math.sqrt(p * (1 - p) / self.games)
        return (ELO * se_p / (p * (1 - p))) ** 2


def matches() -> list[Match]:
    rated = set(table_bots()) | set(LINKS)
    table_ms = {**BUDGETS, **LINKS}
    found = []
    for path in sorted(ARENA.glob("*.jsonl")):
        head, deals = played(path)
        a, b = levels(head)
        if a not in rated or b not in rated or a == b:
            continue  # a level against itself measures a budget, not a level
        if head["ruleset"]["target"] == "round" or path.stem in MYPYC_CORE:  # type: ignore[index]
            continue
        too_quick = any(
            ms is not None and ms < table_ms[name]
            for name, ms in zip((a, b), budgets(head), strict=True)
        )
        if too_quick:
            continue
        games = sum(d.games for d in deals.values())
        score = sum(d.a_wins + d.draws / 2 for d in deals.values())
        found.append(Match(path.stem, a, b, games, score))
    return found


def solve(rows: list[list[float]], rhs: list[float]) -> tuple[list[float], list[list[float]]]:
    """x of rows·x = rhs, and the inverse of rows (Gauss–Jordan; the system is small)."""
    n = len(rows)
    m = [rows[i][:] + [rhs[i]] + [1.0 if j == i else 0.0 for j in range(n)] for i in range(n)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        lead = m[col][col]
        m[col] = [v / lead for v in m[col]]
        for r in range(n):
            if r != col:
                factor = m[r][col]
                m[r] = [v - factor * w for v, w in zip(m[r], m[col], strict=True)]
    return [m[i][n] for i in range(n)], [m[i][n + 1 :] for i in range(n)]


def fit(found: list[Match]) -> dict[str, tuple[float, float]]:
    """Each level's rating and standard error, the anchor fixed."""
    anchor, at = ANCHOR
    free = sorted({x for m in found for x in (m.a, m.b)} - {anchor})
    index = {name: i for i, name in enumerate(free)}
    n = len(free)
    normal = [[0.0] * n for _ in range(n)]
    rhs = [0.0] * n
    for m in found:
        w = 1 / m.variance
        # the difference a − b is measured as m.elo; the anchor's rating is known
        known = m.elo - (at if m.a == anchor else 0.0) + (at if m.b == anchor else 0.0)
        terms = [(index[m.a], 1.0)] if m.a in index else []
        terms += [(index[m.b], -1.0)] if m.b in index else []
        for i, ci in terms:
            rhs[i] += w * ci * known
            for j, cj in terms:
                normal[i][j] += w * ci * cj
    x, inverse = solve(normal, rhs)
    out = {anchor: (at, 0.0)}
    for name, i in index.items():
        out[name] = (x[i], math.sqrt(inverse[i][i]))
    return out


def main() -> None:
    found = matches()
    print("runs (A vs B: games, A's score, Elo difference ± standard error):")
    for m in found:
        print(
            f"  {m.log}: {m.a} vs {m.b}: {m.games} games, {m.score / m.games:.1%}, "
            f"{m.elo:+.0f} ± {math.sqrt(m.variance):.0f}"
        )
    ratings = fit(found)
    order = {name: i for i, name in enumerate([*table_bots(), *LINKS])}
    print(f"\nfit ({ANCHOR[0]} = {ANCHOR[1]:.0f}): level rating ± standard error")
    for name in sorted(ratings, key=lambda n: order[n]):
        mu, se = ratings[name]
        print(f"  {name}: {mu:.0f} ± {se:.0f}")
    print("\nBOT_RATINGS (doublesix/ratings.py; sigma at least 25):")
    for name in sorted(set(ratings) - set(LINKS), key=lambda n: order[n]):
        mu, se = ratings[name]
        print(f'    "{name}": Skill({round(mu)}.0, {max(25, round(se))}.0),')


if __name__ == "__main__":
    main()
