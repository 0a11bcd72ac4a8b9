"""What each seat may know at each version of a table, and a scanner of frames for leaks.

The knowledge is rebuilt from the stored events with the engine alone (a
``Game`` from the stored seed, every stored command replayed), never from
``doublesix.table.views``: a seat may know the tiles of its own hand, the
tiles on the line (its own drawn tiles are in one or the other) and, once
the round is over, every hand (R25). Tiles drawn face up for the first lead
(R21) are public and may appear only as ``lead_draws``. Everything else — the
others' hands while the round is played, the boneyard and its order, the
tiles out of play, the seed, the other seats' tokens — is hidden.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from doublesix.rules.game import Game
from doublesix.rules.moves import End, Move
from doublesix.rules.ruleset import Ruleset
from doublesix.table.model import Entry, Table
from doublesix.tiles import TILES, Tile, tile

TILE_TEXT = re.compile(r"(?<![0-9])([0-6])\s*[-|]\s*([0-6])(?![0-9])")
"""A tile as text anywhere in a string ("2-5", "5|2")."""
SMALLEST_MASK = 1 << 12
"""Integers below this (counts, pips, scores, version numbers) are too common to be read
as a set of tiles; a hand of the lightest tiles is below it and goes unchecked that way."""


@dataclass
class Known:
    """At one version: what each viewer (a seat, or None for a spectator) may know."""

    allowed: dict[int | None, int]
    """Tiles each viewer may know, as a mask of tile indices."""
    hidden_masks: dict[int | None, set[int]]
    """Masks that would give away hidden tiles (another's hand, the boneyard, out of play)."""
    lead_draws: list[dict[str, Any]] = field(default_factory=list)


def _masks(game: Game | None, viewers: Sequence[int | None]) -> Known:
    if game is None:
        return Known({v: 0 for v in viewers}, {v: set() for v in viewers})
    rnd = game.round
    line = 0
    for t, _, _ in rnd.line:
        line |= 1 << t
    over = rnd.ending is not None
    everyone = line
    for hand in rnd.hands:
        everyone |= hand
    boneyard = 0
    for t in rnd.boneyard[rnd.drawn :]:
        boneyard |= 1 << t
    allowed: dict[int | None, int] = {}
    hidden: dict[int | None, set[int]] = {}
    for viewer in viewers:
        own = 0 if viewer is None else rnd.hands[viewer]
        allowed[viewer] = everyone if over else line | own
        masks = {boneyard, rnd.out, boneyard | rnd.out}
        if not over:
            masks |= {h for s, h in enumerate(rnd.hands) if s != viewer}
        hidden[viewer] = {m for m in masks if m >= SMALLEST_MASK}
    lead = [{"seat": s, "tile": str(TILES[t])} for s, t in game.lead_draws]
    return Known(allowed, hidden, lead)


def knowledge(table: Table, events: Iterable[Entry]) -> dict[int, Known]:
    """What every viewer may know at each version of ``table`` (0 up to its last event)."""
    ruleset = Ruleset.from_dict(table.ruleset)
    viewers: list[int | None] = [*range(ruleset.players), None]
    game: Game | None = None
    out = {0: _masks(None, viewers)}
    for event in events:
        data = event.data
        if event.kind == "start":
            game = Game(ruleset, table.seed)
        elif event.kind == "play":
            assert game is not None and event.seat is not None
            end = data.get("end")
            game.play(Move(Tile.parse(data["tile"]), None if end is None else End(end)), event.seat)
        elif event.kind == "continue" and data.get("next_round"):
            assert game is not None
            game.next_round()
        out[event.version] = _masks(game, viewers)
    assert sorted(out) == list(range(len(out))), "the stored versions are not 1, 2, 3, ..."
    return out


@dataclass
class Scan:
    """What a scan found: the leaks, and how much it looked at (a scan must see tiles)."""

    hits: list[str] = field(default_factory=list)
    tiles_seen: int = 0
    frames: int = 0


def _walk(value: Any, path: str) -> Iterable[tuple[str, Any]]:
    yield path, value
    if isinstance(value, dict):
        for k, v in value.items():
            yield f"{path}.{k}#key", k
            yield from _walk(v, f"{path}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _walk(v, f"{path}[{i}]")


def scan_frame(
    frame: dict[str, Any],
    viewer: int | None,
    known: Known,
    secrets: Sequence[str],
    scan: Scan,
    *,
    echoed: int = 0,
    where: str = "",
) -> None:
    """Add to ``scan`` every leak in ``frame`` as sent to ``viewer`` when ``known`` held.

    ``echoed``: tiles the viewer itself just named (an error may repeat them).
    """
    scan.frames += 1
    text = json.dumps(frame)
    for secret in secrets:
        if secret and secret in text:
            scan.hits.append(f"{where}: a secret ({secret[:6]}…) in {frame.get('type')}")
    frame = json.loads(text)
    view = frame.get("view")
    if isinstance(view, dict):
        if "lead_draws" in view:
            if view["lead_draws"] and view["lead_draws"] != known.lead_draws:
                scan.hits.append(f"{where}: lead_draws {view['lead_draws']} != {known.lead_draws}")
            del view["lead_draws"]
        for pair in view.get("line") or []:
            scan.tiles_seen += 1
            if not known.allowed[viewer] >> tile(*pair).index & 1:
                scan.hits.append(f"{where}: {pair} on the line is not known to {viewer}")
    allowed = known.allowed[viewer] | echoed
    hidden = known.hidden_masks[viewer]
    for path, value in _walk(frame, "frame"):
        if isinstance(value, str):
            for m in TILE_TEXT.finditer(value):
                scan.tiles_seen += 1
                t = tile(int(m.group(1)), int(m.group(2)))
                if not allowed >> t.index & 1:
                    scan.hits.append(f"{where}: {t} at {path} is hidden from {viewer}: {value!r}")
        elif isinstance(value, int) and not isinstance(value, bool) and value in hidden:
            scan.hits.append(f"{where}: {value} at {path} is a hidden set of tiles")


def scan_frames(
    frames: Sequence[dict[str, Any]],
    viewer: int | None,
    known: dict[int, Known],
    secrets: Sequence[str],
    scan: Scan,
    *,
    sent: dict[int, int] | None = None,
    where: str = "",
) -> None:
    """Scan one socket's frames in the order it got them.

    A frame is judged at the version it shows (snapshots and updates) or at the
    last version the socket had seen (errors, hints, presence, a resume's
    start). ``sent``: for the index of an error frame, the tiles of the frame
    that it answers.
    """
    version = 0
    for i, frame in enumerate(frames):
        kind = frame.get("type")
        if kind in ("snapshot", "update"):
            version = frame["version"]
        elif kind == "resume":
            version = frame["since"]
        echoed = (sent or {}).get(i, 0) if kind == "error" else 0
        scan_frame(
            frame, viewer, known[version], secrets, scan, echoed=echoed, where=f"{where}#{i}"
        )


def tiles_named(text: str) -> int:
    """Every tile named in ``text``, as a mask."""
    mask = 0
    for m in TILE_TEXT.finditer(text):
        mask |= tile(int(m.group(1)), int(m.group(2))).bit
    return mask
