"""The table's sounds (issue 11): small WAV files made here by tools/sounds.py, shipped in
the package, and exactly what the script makes (so anyone can remake them)."""

from __future__ import annotations

import subprocess
import sys
import wave
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOUNDS = ROOT / "src" / "doublesix" / "web" / "sounds"


def test_the_sounds_are_what_the_script_makes() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "sounds.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr


def test_each_sound_is_a_short_small_wav() -> None:
    names = sorted(p.stem for p in SOUNDS.glob("*.wav"))
    assert names == ["chat", "click", "round", "turn", "warn"]
    for name in names:
        path = SOUNDS / f"{name}.wav"
        assert path.stat().st_size < 40_000, name
        with wave.open(str(path)) as w:
            assert w.getnchannels() == 1 and w.getsampwidth() == 2
            assert 0.05 <= w.getnframes() / w.getframerate() <= 1.0, name
