"""Issue 5, item 6: random and hostile frames at a live table; the game still ends correctly.

Hypothesis sends frames of every kind — not JSON, binary, too long, unknown
types, plays and straightenings (R39) with nonsense or stolen tiles and turns,
stale or future versions, hellos again, Continue at the wrong time — from the
seats and from a spectator, mixed with real moves (a hand-laid line too),
plus newcomers with hostile hellos. After each frame a probe (an unknown
type) marks where its answer ends. Checked: the sender
gets at most one answer (an error with a code and a message, or the one
update of an accepted command); nobody else gets anything unless a command
was accepted; every socket sees versions 1, 2, 3, ... without a gap or a
repeat; the game is then played to its end and its record replays to the
same scores; and no frame shows a hidden tile (``leaks.py``).
"""

from __future__ import annotations

import json
import random
from contextlib import ExitStack
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.websockets import WebSocketDisconnect

from doublesix.rules.record import replay
from doublesix.tiles import TILES

from .leaks import Scan, knowledge, scan_frames, tiles_named
from .server_helpers import Socket, TestClient, human_table, play_out
from .test_hidden import stored

LEGAL = "legal move"
PROBE = {"type": "probe"}

leaf = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=8)
)
any_json = st.recursive(
    leaf,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=10,
)
tiles = st.one_of(
    st.sampled_from([str(t) for t in TILES]),
    st.sampled_from(["9-9", "", "1-", "7-1", "6|6", " 2-3 ", "2-3-4"]),
    any_json,
)
ends = st.one_of(st.sampled_from(["left", "right", None, "middle", "LEFT", ""]), any_json)
versions = st.one_of(
    st.sampled_from(["now", "now-1", "now+1"]),
    st.integers(-3, 2**70),
    st.floats(allow_nan=True),
    any_json,
)
turns = st.one_of(st.sampled_from(["left", "right", None, "up", "LEFT"]), any_json)
kinds = ["play", "straighten", "continue", "hint", "hello", "dance"]
commands = st.fixed_dictionaries(
    {"type": st.one_of(st.sampled_from(kinds), any_json)},
    optional={
        "tile": tiles,
        "end": ends,
        "turn": turns,
        "at": tiles,
        "version": versions,
        "token": any_json,
        "x": any_json,
    },
)
raw = st.one_of(
    st.text(max_size=40),
    st.binary(min_size=1, max_size=16),
    st.just("x" * 5000),
    st.just('{"type": "play"'),
    any_json.map(json.dumps),
)
frames = st.one_of(commands, commands, raw)
actions = st.lists(
    st.one_of(st.tuples(st.integers(0, 4), frames), st.just(LEGAL), st.just(LEGAL)),
    max_size=24,
)
hellos = st.lists(
    st.one_of(
        st.fixed_dictionaries(
            {"type": st.just("hello")},
            optional={"token": st.one_of(st.none(), any_json), "since": versions},
        ),
        raw,
    ),
    max_size=3,
)


def _concrete(frame: Any, version: int) -> Any:
    """``now``, ``now-1``, ``now+1`` become versions near the sender's."""
    if isinstance(frame, dict) and isinstance(frame.get("version"), str):
        shift = {"now": 0, "now-1": -1, "now+1": 1}.get(frame["version"])
        if shift is not None:
            return frame | {"version": version + shift}
    return frame


def _send(socket: Socket, frame: Any) -> str:
    if isinstance(frame, bytes):
        socket.ws.send_bytes(frame)
        return ""
    text = frame if isinstance(frame, str) else json.dumps(frame)
    socket.ws.send_text(text)
    return text


def _legal(sockets: list[Socket], everyone: list[Socket], rng: random.Random) -> None:
    view = sockets[0].view
    if view["status"] == "finished":
        return
    if view["status"] == "round_over":
        s = next((s for s in sockets if s.seat not in s.view["continue"]), None)
        if s is None:
            return
        s.send({"type": "continue"})
    else:
        mover = sockets[view["turn"]]
        mover.play(rng.choice(mover.view["legal"]))
    for s in everyone:
        s.update()


def _hostile(
    sender: Socket, frame: Any, everyone: list[Socket], sent: dict[int, dict[int, int]]
) -> None:
    frame = _concrete(frame, sender.version)
    text = _send(sender, frame)
    sender.send(PROBE)
    start = len(sender.frames)
    answers: list[dict[str, Any]] = []
    while True:
        answer = sender.receive()
        if answer["type"] == "error" and "'probe'" in answer["message"]:
            break
        answers.append(answer)
    assert len(answers) <= 1, (frame, answers)  # one answer at most, to its sender
    for i in range(start, len(sender.frames)):
        if sender.frames[i]["type"] == "error":
            sent.setdefault(id(sender), {})[i] = tiles_named(text)
    if not answers:
        # only a second Continue is ignored without a word
        assert isinstance(frame, dict) and frame.get("type") == "continue", frame
        return
    answer = answers[0]
    if answer["type"] == "error":
        assert isinstance(answer["code"], str) and answer["message"], answer
        return
    assert answer["type"] == "update", (frame, answer)  # it was a real move, well formed
    assert answer["version"] == sender.version + 1
    sender.version, sender.view = answer["version"], answer["view"]
    for s in everyone:
        if s is not sender:
            s.update()


def _newcomer(client: TestClient, table_id: str, hello: Any) -> None:
    with client.websocket_connect(f"/ws/table/{table_id}") as ws:
        if isinstance(hello, bytes):
            ws.send_bytes(hello)
        else:
            ws.send_text(hello if isinstance(hello, str) else json.dumps(hello))
        first = ws.receive_json()
        if first["type"] in ("snapshot", "resume"):
            return  # a fair hello: the newcomer watches
        assert first["type"] == "error" and first["message"], first
        try:
            ws.receive_json()
            raise AssertionError("the socket stays open after a bad hello")
        except WebSocketDisconnect as closed:
            assert closed.code in (1008, 4401), closed.code


@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    preset=st.sampled_from(
        [("draw", 2), ("block", 3), ("kozel", 4), ("classic", 3), ("vog-block", 2)]
    ),
    script=actions,
    newcomers=hellos,
    seed=st.integers(0, 2**16),
)
def test_hostile_frames_at_a_live_table(
    client: TestClient,
    preset: tuple[str, int],
    script: list[Any],
    newcomers: list[Any],
    seed: int,
) -> None:
    name, players = preset
    rng = random.Random(seed)
    table_id, tokens = human_table(client, name, players, target=30)
    sent: dict[int, dict[int, int]] = {}
    with ExitStack() as stack:
        sockets = [Socket(client, stack, table_id, t) for t in tokens]
        spectator = Socket(client, stack, table_id, None)
        everyone = [*sockets, spectator]
        for step in script:
            if step == LEGAL:
                _legal(sockets, everyone, rng)
            else:
                who, frame = step
                _hostile(everyone[min(who, len(everyone) - 1)], frame, everyone, sent)
            assert len({s.version for s in everyone}) == 1
        for hello in newcomers:
            _newcomer(client, table_id, hello)
        play_out(sockets, [spectator], rng)
        final = sockets[0].view
    assert final["status"] == "finished" and final["game_result"]["finished"]
    record = client.get(f"/api/games/{table_id}/record").json()
    game = replay(record)
    assert list(game.scores) == final["scores"]
    assert list(game.result.winners) == final["game_result"]["winners"]
    table, events = stored(client, table_id)
    assert [e.version for e in events] == list(range(1, table.version + 1))
    known = knowledge(table, events)
    scan = Scan()
    for s in everyone:
        own = None if s.seat is None else table.seats[s.seat].token
        secrets = [str(table.seed), *(x.token for x in table.seats if x.token and x.token != own)]
        scan_frames(s.frames, s.seat, known, secrets, scan, sent=sent.get(id(s)))
    assert scan.hits == []
