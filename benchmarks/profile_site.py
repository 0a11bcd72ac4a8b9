"""Where a 2,000-client run's CPU goes: a trace of the processes' CPU and py-spy profiles.

    .venv/bin/python benchmarks/profile_site.py > benchmarks/profile_site.log

Runs ``processes.py --rounds 0`` (one 2,000-client run over two server
processes) and meanwhile writes, every second, the CPU seconds of the servers
and of the load test so far (setup and play apart), and, 30 s in, profiles
every server and load test process for 45 s with py-spy (``pip install
py-spy``: a tool of this measurement, not a dependency of doublesix). Prints
the run's summary, the CPU trace every 5 s, and each profile's functions by
their share of the samples (inclusive, then their own).
"""

from __future__ import annotations

import collections
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).parent


def pids(pattern: str) -> list[int]:
    found = subprocess.run(["pgrep", "-f", pattern], capture_output=True, text=True).stdout
    return [int(p) for p in found.split()]


def cpu(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / 100


def _short(frame: str) -> str:
    """``"f (/path/to/file.py:12)"`` → ``"f (file.py:12)"``; a frame without a place as it is."""
    name, _, place = frame.partition(" (")
    return f"{name} ({place.rsplit('/', 1)[-1].rstrip(')')})" if place else name


def shares(profile: Path, top: int) -> None:
    inclusive: collections.Counter[str] = collections.Counter()
    own: collections.Counter[str] = collections.Counter()
    total = 0
    for line in profile.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        n = int(count)
        total += n
        frames = [_short(frame) for frame in stack.split(";")]
        for name in {f.rsplit(":", 1)[0] + ")" if ":" in f else f for f in frames}:
            inclusive[name] += n
        own[frames[-1]] += n
    print(f"== {profile.name}: {total} samples")
    for name, n in inclusive.most_common(top):
        print(f"{100 * n / total:5.1f}%  {name}")
    print("-- their own")
    for name, n in own.most_common(top // 2):
        print(f"{100 * n / total:5.1f}%  {name}")


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="doublesix-profile-"))
    run = subprocess.Popen(
        [sys.executable, str(HERE / "processes.py"), "--rounds", "0", "--folder", str(folder)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    start, spies, trace = time.monotonic(), [], []
    while run.poll() is None:
        elapsed = time.monotonic() - start
        servers = [cpu(p) for p in pids("serve --port")]
        loadtest = [cpu(p) for p in pids("loadtest --json")]
        trace.append((elapsed, servers, loadtest))
        if not spies and elapsed >= 30:
            for name, pattern in (("serve", "serve --port"), ("loadtest", "loadtest --json")):
                for pid in pids(pattern):
                    out = folder / f"{name}-{pid}.txt"
                    spy = [SPY, "record", "-p", str(pid), "-d", "45", "-r", "50", "-f", "raw"]
                    spies.append((out, subprocess.Popen([*spy, "-o", str(out)], **QUIET)))
        time.sleep(1)
    assert run.stderr is not None
    print(run.stderr.read().strip())
    print("# seconds in, CPU seconds so far: servers | load test")
    for elapsed, servers, loadtest in trace[::5]:
        print(f"{elapsed:5.0f}  {' '.join(f'{s:6.1f}' for s in servers)} | {sum(loadtest):6.1f}")
    for out, spy in spies:
        spy.wait()
        shares(out, 30)


SPY = str(Path(sys.executable).parent / "py-spy")
QUIET = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}

if __name__ == "__main__":
    main()
