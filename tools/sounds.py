"""Synthesise the table's sounds into src/doublesix/web/sounds/ (``python tools/sounds.py``).

Small mono 16-bit WAV files made here from sines and a little seeded noise,
so the package ships its own sounds and nothing is downloaded: a tile laid
on the line (``click``), "your turn" (``turn``), "round over" (``round``)
the tick of the last ten seconds of a turn (``warn``) and a chat message from
someone else (``chat``). The output is
the same on every run (``--check`` says whether the files are up to date).
"""

from __future__ import annotations

import argparse
import io
import math
import random
import sys
import wave
from collections.abc import Callable
from pathlib import Path

RATE = 22050
OUT = Path(__file__).resolve().parents[1] / "src" / "doublesix" / "web" / "sounds"

Signal = Callable[[float], float]


def note(freq: float, start: float, length: float, attack: float = 0.005) -> Signal:
    """A bell-like tone: a sine with two soft overtones, a quick attack and a decay."""

    def at(t: float) -> float:
        u = t - start
        if u < 0 or u > length:
            return 0.0
        envelope = min(1.0, u / attack) * math.exp(-5.0 * u / length)
        tone = (
            math.sin(2 * math.pi * freq * u)
            + 0.35 * math.sin(2 * math.pi * 2 * freq * u)
            + 0.12 * math.sin(2 * math.pi * 3 * freq * u)
        )
        return envelope * tone / 1.47

    return at


def knock(seed: int) -> Signal:
    """A tile set down on wood: a short damped resonance with a burst of noise."""
    noise = random.Random(seed)
    grains = [noise.uniform(-1, 1) for _ in range(int(RATE * 0.06))]

    def at(t: float) -> float:
        i = int(t * RATE)
        burst = grains[i] * math.exp(-t / 0.004) if i < len(grains) else 0.0
        body = math.sin(2 * math.pi * 1750 * t) * math.exp(-t / 0.012)
        wood = math.sin(2 * math.pi * 620 * t) * math.exp(-t / 0.02)
        return 0.45 * burst + 0.4 * body + 0.35 * wood

    return at


def mix(*parts: Signal) -> Signal:
    return lambda t: sum(p(t) for p in parts)


SOUNDS: dict[str, tuple[float, float, Signal]] = {
    # name: (seconds, peak level, signal)
    "click": (0.07, 0.8, knock(7)),
    "turn": (0.42, 0.55, mix(note(659.25, 0.0, 0.22), note(987.77, 0.11, 0.3))),
    "round": (
        0.75,
        0.5,
        mix(note(523.25, 0.0, 0.3), note(659.25, 0.14, 0.3), note(783.99, 0.28, 0.45)),
    ),
    "warn": (0.09, 0.45, note(1046.5, 0.0, 0.09, attack=0.002)),
    "chat": (0.24, 0.3, mix(note(1318.51, 0.0, 0.1), note(1567.98, 0.07, 0.16))),
}


def render(seconds: float, peak: float, signal: Signal) -> bytes:
    """The WAV file of ``signal`` (normalised to ``peak``, with a short fade-out)."""
    n = int(RATE * seconds)
    samples = [signal(i / RATE) for i in range(n)]
    top = max(abs(s) for s in samples) or 1.0
    fade = int(RATE * 0.01)
    frames = bytearray()
    for i, s in enumerate(samples):
        gain = min(1.0, (n - i) / fade)
        value = round(32767 * peak * gain * s / top)
        frames += value.to_bytes(2, "little", signed=True)
    out = io.BytesIO()
    with wave.open(out, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(bytes(frames))
    return out.getvalue()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help="folder (default: the package's)")
    parser.add_argument("--check", action="store_true", help="only say whether the files match")
    args = parser.parse_args(argv)
    stale = []
    for name, (seconds, peak, signal) in SOUNDS.items():
        data = render(seconds, peak, signal)
        path = args.out / f"{name}.wav"
        if args.check:
            if not path.exists() or path.read_bytes() != data:
                stale.append(str(path))
            continue
        args.out.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        print(f"{path}: {len(data)} bytes")
    if stale:
        print("out of date (run python tools/sounds.py):", *stale, sep="\n  ", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
