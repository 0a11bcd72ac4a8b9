"""How much of a seat's hand its choices tell: a richer model of the expert's choices.

    python benchmarks/choice_model.py --data FILE --save src/doublesix/bots/choice_net.json

``FittedModel`` weighs a sampled deal by how likely it makes the plays the
others were seen to choose, with a conditional logit on four features of a
tile (``fit_opponent_model.py``). On held-out choices it scores -0.907 nats a
choice against -1.025 for a uniform choice: it tells the search little. This
script asks whether a richer model of the same choices tells much more:
it plays whole games with BOT in every seat (Kozel and 2-player Draw), keeps
each choice between two or more tiles with what the chooser saw then (its
hand, the ends, the tiles on the line, the hand counts, the boneyard, the
numbers each other seat is known to lack), and fits on four games in five:

- the four-feature logit (``FittedModel``'s features, refitted here);
- a logit on fourteen features of a tile (those four, and what the public
  state adds: how many unseen tiles show the number it opens and the other
  end's, whether the next seat or the partner is known to lack it, the hand's
  size, its doubles, the boneyard);
- a small network on the same fourteen (one hidden layer of tanh units).

It prints the mean log-likelihood of a held-out choice (every fifth game) and
how often each model's likeliest tile is the one chosen, next to a uniform
choice. ``--data`` keeps the recorded choices (JSON lines) and reuses them.
"""

from __future__ import annotations

import argparse
import json
import os
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np

from doublesix.bots import make_bot
from doublesix.bots.arena import play_game
from doublesix.bots.choice_net import FEATURES, features
from doublesix.bots.inference import infer
from doublesix.rules.ruleset import preset
from doublesix.tiles import HIGH, LOW, SUIT, mask_of

KINDS = (("kozel", None), ("draw", 2))


class Recorder:
    """A bot that keeps each of its choices between two or more tiles."""

    def __init__(self, bot: Any, kind: str, out: list[dict[str, Any]]) -> None:
        self.bot = bot
        self.name = bot.name
        self.kind = kind
        self.out = out

    def choose(self, view: Any) -> Any:
        move = self.bot.choose(view)
        if len({m.tile.index for m in view.legal_moves}) > 1:
            n = view.ruleset.players
            k = infer(view)
            played = 0
            for a, b in view.line:
                played |= 1 << (LOW_OF[min(a, b), max(a, b)])
            left, right = view.ends if view.ends is not None else (-1, -1)
            self.out.append(
                {
                    "kind": self.kind,
                    "n": n,
                    "hand": mask_of(view.hand),
                    "left": left,
                    "right": right,
                    "tile": move.tile.index,
                    "played": played,
                    "boneyard": view.boneyard_count,
                    # the other seats from the chooser's left: hand counts and known voids
                    "counts": [view.hand_counts[(view.seat + i) % n] for i in range(1, n)],
                    "voids": [k.void((view.seat + i) % n) for i in range(1, n)],
                }
            )
        return move


LOW_OF = {(LOW[t], HIGH[t]): t for t in range(28)}


def play(task: tuple[str, str, int | None, int]) -> list[dict[str, Any]]:
    spec, name, players, seed = task
    rules = preset(name, players)
    out: list[dict[str, Any]] = []
    kind = f"{name}-{rules.players}"
    bots = [Recorder(make_bot(spec, seed * 10 + s), kind, out) for s in range(rules.players)]
    play_game(rules, seed, bots)
    for c in out:
        c["game"] = seed
    return out


def candidates(c: dict[str, Any]) -> tuple[list[int], np.ndarray]:
    """The playable tiles of a choice and their features (``choice_net.features``)."""
    hand, left, right = c["hand"], c["left"], c["right"]
    public = (c["played"], c["voids"][0], c["voids"][1] if c["n"] == 4 else 0, c["boneyard"])
    playable = hand if left < 0 else hand & (SUIT[left] | SUIT[right])
    rows = features(hand, playable, left, right, public)
    return [t for t, _ in rows], np.array([x for _, x in rows])


def batch(choices: list[dict[str, Any]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Features padded to the widest choice: (x [N, M, F], mask [N, M], chosen [N])."""
    cands = [candidates(c) for c in choices]
    m = max(len(t) for t, _ in cands)
    x = np.zeros((len(cands), m, FEATURES))
    mask = np.zeros((len(cands), m), dtype=bool)
    y = np.zeros(len(cands), dtype=int)
    for i, ((tiles, rows), c) in enumerate(zip(cands, choices, strict=True)):
        x[i, : len(tiles)] = rows
        mask[i, : len(tiles)] = True
        y[i] = tiles.index(c["tile"])
    return x, mask, y


class Model:
    """Scores of candidates, a softmax within each choice: linear, or one tanh layer."""

    def __init__(self, features: list[int], hidden: int, rng: np.random.Generator) -> None:
        self.features = features
        f = len(features)
        self.hidden = hidden
        self.params: dict[str, np.ndarray] = (
            {
                "w1": rng.normal(0, 1 / np.sqrt(f), (f, hidden)),
                "b1": np.zeros(hidden),
                "w2": rng.normal(0, 1 / np.sqrt(hidden), hidden),
            }
            if hidden
            else {"w": np.zeros(f)}
        )

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
        x = x[..., self.features]
        if not self.hidden:
            return x @ self.params["w"], None
        h = np.tanh(x @ self.params["w1"] + self.params["b1"])
        return h @ self.params["w2"], h

    def log_probs(self, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        s, _ = self.forward(x)
        s = np.where(mask, s, -np.inf)
        top = s.max(axis=1, keepdims=True)
        return s - top - np.log(np.exp(s - top).sum(axis=1, keepdims=True))

    def grads(self, x: np.ndarray, mask: np.ndarray, y: np.ndarray) -> dict[str, np.ndarray]:
        """Gradients of the mean negative log-likelihood."""
        s, h = self.forward(x)
        s = np.where(mask, s, -np.inf)
        p = np.exp(s - s.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        d = p.copy()
        d[np.arange(len(y)), y] -= 1.0
        d /= len(y)  # d(loss)/d(score) [N, M]
        xf = x[..., self.features]
        if not self.hidden:
            return {"w": np.einsum("nm,nmf->f", d, xf)}
        assert h is not None
        dh = d[..., None] * self.params["w2"] * (1 - h * h)
        return {
            "w2": np.einsum("nm,nmh->h", d, h),
            "w1": np.einsum("nmh,nmf->fh", dh, xf),
            "b1": dh.sum(axis=(0, 1)),
        }

    def fit(
        self,
        x: np.ndarray,
        mask: np.ndarray,
        y: np.ndarray,
        steps: int = 3000,
        decay: float = 1e-4,
    ) -> None:
        """Adam on the whole batch, a little weight decay."""
        m = {k: np.zeros_like(v) for k, v in self.params.items()}
        v2 = {k: np.zeros_like(v) for k, v in self.params.items()}
        for t in range(1, steps + 1):
            g = self.grads(x, mask, y)
            for k, p in self.params.items():
                gk = g[k] + decay * p
                m[k] = 0.9 * m[k] + 0.1 * gk
                v2[k] = 0.999 * v2[k] + 0.001 * gk * gk
                p -= 0.02 * (m[k] / (1 - 0.9**t)) / (np.sqrt(v2[k] / (1 - 0.999**t)) + 1e-8)

    def score(self, x: np.ndarray, mask: np.ndarray, y: np.ndarray) -> tuple[float, float]:
        """(mean log-likelihood of the chosen tile, share where the likeliest is chosen)."""
        lp = self.log_probs(x, mask)
        chosen = lp[np.arange(len(y)), y]
        return float(chosen.mean()), float((lp.argmax(axis=1) == y).mean())


def report(label: str, choices: list[dict[str, Any]]) -> Model:
    """Fit the three models on four games in five, print their scores; the network."""
    train = [c for c in choices if c["game"] % 5]
    test = [c for c in choices if not c["game"] % 5]
    xt, mt, yt = batch(train)
    xs, ms, ys = batch(test)
    print(f"{label}: {len(train)} choices to fit, {len(test)} to test")
    width = ms.sum(axis=1)
    print(f"  uniform:              {float(-np.log(width).mean()):.4f} a choice")
    rng = np.random.default_rng(1)
    for name, columns, hidden in (
        ("four-feature logit", [0, 1, 2, 3], 0),
        ("fourteen-feature logit", list(range(FEATURES)), 0),
        ("network, 16 tanh units", list(range(FEATURES)), 16),
    ):
        model = Model(columns, hidden, rng)
        model.fit(xt, mt, yt)
        ll, top = model.score(xs, ms, ys)
        fit_ll, _ = model.score(xt, mt, yt)
        print(
            f"  {name + ':':<22}{ll:.4f} a choice, likeliest chosen {top:.1%}  (fit {fit_ll:.4f})"
        )
        if not hidden:
            print("    weights:", " ".join(f"{w:.3f}" for w in model.params["w"]))
    return model


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot", default="expert:30")
    parser.add_argument("--games", type=int, default=300, help="games per game kind")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--data", help="JSON lines of recorded choices: read if there, else kept")
    parser.add_argument("--save", help="a JSON file for the networks' weights, per game kind")
    args = parser.parse_args()
    if args.data and os.path.exists(args.data):
        with open(args.data) as f:
            choices = [json.loads(line) for line in f]
    else:
        tasks = [
            (args.bot, name, players, seed) for name, players in KINDS for seed in range(args.games)
        ]
        with ProcessPoolExecutor(args.jobs) as pool:
            choices = [c for game in pool.map(play, tasks) for c in game]
        if args.data:
            with open(args.data, "w") as f:
                for c in choices:
                    f.write(json.dumps(c) + "\n")
    nets = {}
    for kind in ("kozel-4", "draw-2"):
        net = report(f"{args.bot}, {kind}", [c for c in choices if c["kind"] == kind])
        nets[kind] = {name: p.tolist() for name, p in net.params.items()}
    if args.save:
        with open(args.save, "w") as f:
            json.dump(nets, f)


if __name__ == "__main__":
    main()
