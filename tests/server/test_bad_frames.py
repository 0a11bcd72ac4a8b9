"""Bad frames get an error to their sender only, and change nothing at the table."""

from __future__ import annotations

import json
import random
from contextlib import ExitStack
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from doublesix.server.settings import Limits

from .server_helpers import AppFactory, Socket, TestClient, human_table, play_out


def _not_held(view: dict[str, Any]) -> str:
    held = set(view["hand"])
    return next(f"{a}-{b}" for a in range(7) for b in range(a, 7) if f"{a}-{b}" not in held)


def test_bad_frames_change_nothing(client: TestClient) -> None:
    table_id, tokens = human_table(client, "draw", 2, target=50)
    with ExitStack() as stack:
        sockets = [Socket(client, stack, table_id, t) for t in tokens]
        spectator = Socket(client, stack, table_id, None)
        everyone = [*sockets, spectator]
        play_out(sockets, [spectator], random.Random(7), stop_after=2)
        view = sockets[0].view
        assert view["status"] == "playing"
        mover, other = sockets[view["turn"]], sockets[1 - view["turn"]]
        move = mover.view["legal"][0]
        v = mover.version
        before = [s.view for s in everyone]
        play = {"type": "play", "tile": move["tile"], "end": move["end"], "version": v}
        cases: list[tuple[Socket, Any, str]] = [
            (mover, "not json", "bad_frame"),
            (mover, "[1, 2]", "bad_frame"),
            (mover, '{"type": 5}', "bad_frame"),
            (mover, {"type": "dance"}, "bad_frame"),
            (mover, {"type": "hello", "token": None}, "bad_frame"),
            (mover, "x" * 5000, "bad_frame"),
            (mover, b"\x00\x01", "bad_frame"),
            (mover, play | {"tile": "9-9"}, "bad_frame"),
            (mover, play | {"tile": 25}, "bad_frame"),
            (mover, play | {"end": "middle"}, "bad_frame"),
            (mover, {k: x for k, x in play.items() if k != "version"}, "bad_frame"),
            (mover, play | {"version": True}, "bad_frame"),
            (mover, play | {"version": v - 1}, "stale"),
            (mover, play | {"version": v + 1}, "stale"),
            (other, play, "not_your_turn"),
            (spectator, play, "spectator"),
            (mover, play | {"tile": _not_held(mover.view)}, "illegal"),
            (mover, play | {"end": None}, "illegal"),
            (mover, {"type": "continue"}, "illegal"),
            (spectator, {"type": "continue"}, "spectator"),
            (mover, {"type": "hint"}, "hints_off"),
            (mover, {"type": "rematch", "agree": "no"}, "bad_frame"),
            (mover, {"type": "rematch", "agree": False}, "rematch"),  # not before the end
            (mover, {"type": "leave", "before_start": "yes"}, "bad_frame"),
            (other, {"type": "leave", "before_start": True}, "started"),  # the game is on
        ]
        for sender, frame, code in cases:
            if isinstance(frame, bytes):
                sender.ws.send_bytes(frame)
            elif isinstance(frame, str):
                sender.ws.send_text(frame)
            else:
                sender.send(frame)
            error = sender.error()
            assert error["code"] == code, (frame, error)
            assert error["message"]
            if code == "illegal":
                assert error["rule"].startswith("R"), error
        assert [s.view for s in everyone] == before
        # the same move, well formed, is played once: everyone's next frame is its update
        mover.send(play)
        for s in everyone:
            assert s.update()["events"][0] == {"seat": mover.seat, **_played(move)}
        mover.send(play)  # sent twice: the second is stale
        assert mover.error()["code"] == "stale"


def _played(move: dict[str, Any]) -> dict[str, Any]:
    out = {"play": move["tile"]}
    if move["end"] is not None:
        out["end"] = move["end"]
    return out


def test_hello_is_checked(client: TestClient) -> None:
    table_id, _ = human_table(client, "block", 2)
    with client.websocket_connect(f"/ws/table/{table_id}") as ws:
        ws.send_json({"type": "hello", "token": "not-a-seat"})
        assert ws.receive_json()["code"] == "bad_token"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4401
    with client.websocket_connect(f"/ws/table/{table_id}") as ws:
        ws.send_json({"type": "play", "tile": "1-1", "version": 1})
        assert ws.receive_json()["code"] == "bad_frame"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 1008
    with client.websocket_connect("/ws/table/nope") as ws:
        ws.send_json({"type": "hello", "token": None})
        assert ws.receive_json()["code"] == "no_table"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4404


def test_rate_limit(make_app: AppFactory) -> None:
    with TestClient(make_app(limits=Limits(frames_per_second=0.01, burst=3))) as client:
        table_id, tokens = human_table(client, "block", 2)
        with ExitStack() as stack:
            s = Socket(client, stack, table_id, tokens[0])
            for _ in range(3):
                s.send({"type": "continue"})
                assert s.error()["code"] == "illegal"
            s.send({"type": "continue"})
            assert s.error()["code"] == "rate_limited"
            assert json.dumps(s.view)  # still connected, nothing changed
