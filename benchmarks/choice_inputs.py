"""Would a wider network, or one that sees more of the position, model the others better?

    python benchmarks/choice_model.py --games 300 --data choices.jsonl   # the choices, once
    python benchmarks/choice_inputs.py choices.jsonl [kozel-4|draw-2]

``expert`` weighs each deal it draws by how likely ``choice_net``'s network (16 tanh
units on fourteen features of a tile) makes the plays the others were seen to choose. On
held-out choices of ``expert`` at 30 ms it picks the chosen tile about 70% of the time,
where two runs of the tree search on the same position agreed 86–89% of the time
(``benchmarks/agreement-tree.log``, the expert of commit 66edc2e): a choice is that
predictable from all its chooser knew. Is more of it within reach of a bigger model of the
same recorded choices? This fits, on four games in five of ``choice_model.py``'s recorded
choices, and scores on the fifth:

- the shipped network as it is (``choice_net.json``) and refitted (16 units);
- 64 tanh units on the same fourteen features;
- 16 units on those and 70 more inputs: the tile itself (28), the number it leaves open
  and the other end's (7 each), and the rest of the hand tile by tile (28) — with the
  weight decay of the others and with ten and a hundred times it.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import choice_model
import numpy as np
from choice_model import Model, candidates

from doublesix.bots.choice_net import FEATURES, NETS
from doublesix.bots.tables import HIGH, LOW, OTHER, SUIT

EXTRA = 28 + 7 + 7 + 28


def extra(c: dict[str, Any], tiles: list[int]) -> np.ndarray:
    """The 70 more inputs of each of ``tiles`` (at its better end, as ``features`` chooses)."""
    hand, left, right = c["hand"], c["left"], c["right"]
    rows = np.zeros((len(tiles), EXTRA))
    for r, t in enumerate(tiles):
        low = 1 << t
        rest = hand ^ low
        if left < 0:
            options = [(HIGH[t], LOW[t])]
        else:
            options = [(OTHER[t][e], o) for e, o in ((left, right), (right, left)) if SUIT[e] & low]
        fresh, other = max(options, key=lambda f: (rest & (SUIT[f[0]] | SUIT[f[1]])).bit_count())
        rows[r, t] = 1.0
        rows[r, 28 + fresh] = 1.0
        rows[r, 35 + other] = 1.0
        for u in range(28):
            rows[r, 42 + u] = rest >> u & 1
    return rows


def batch(choices: list[dict[str, Any]], rich: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``choice_model.batch``, with ``extra``'s inputs after the fourteen if ``rich``."""
    x, mask, y = choice_model.batch(choices)
    if not rich:
        return x, mask, y
    more = np.zeros((*mask.shape, EXTRA))
    for i, c in enumerate(choices):
        tiles, _ = candidates(c)
        more[i, : len(tiles)] = extra(c, tiles)
    return np.concatenate([x, more], axis=2), mask, y


def main() -> None:
    with open(sys.argv[1]) as f:
        choices = [json.loads(line) for line in f]
    with open(NETS) as f:
        shipped = json.load(f)
    for kind in sys.argv[2:] or ("kozel-4", "draw-2"):
        ours = [c for c in choices if c["kind"] == kind]
        train = [c for c in ours if c["game"] % 5]
        test = [c for c in ours if not c["game"] % 5]
        print(f"{kind}: {len(train)} choices to fit, {len(test)} to test", flush=True)
        plain = batch(train, False), batch(test, False)
        rich = batch(train, True), batch(test, True)
        net = Model(list(range(FEATURES)), 16, np.random.default_rng(1))
        net.params = {k: np.array(v) for k, v in shipped[kind].items()}
        ll, top = net.score(*plain[1])
        print(f"  {'shipped network:':<34}{ll:.4f} a choice, likeliest chosen {top:.1%}")
        for label, data, hidden, decay in (
            ("16 units, refitted", plain, 16, 1e-4),
            ("64 units", plain, 64, 1e-4),
            ("16 units, 84 inputs", rich, 16, 1e-4),
            ("16 units, 84 inputs, decay x10", rich, 16, 1e-3),
            ("16 units, 84 inputs, decay x100", rich, 16, 1e-2),
        ):
            (xt, mt, yt), (xs, ms, ys) = data
            model = Model(list(range(xt.shape[2])), hidden, np.random.default_rng(1))
            model.fit(xt, mt, yt, decay=decay)
            ll, top = model.score(xs, ms, ys)
            fit_ll, fit_top = model.score(xt, mt, yt)
            print(
                f"  {label + ':':<34}{ll:.4f} a choice, likeliest chosen {top:.1%}"
                f"  (fit {fit_ll:.4f}, {fit_top:.1%})",
                flush=True,
            )


if __name__ == "__main__":
    main()
