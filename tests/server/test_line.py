"""The hand-laid line (R39) over the table socket: turned plays, straightenings, the record."""

from __future__ import annotations

from contextlib import ExitStack
from typing import Any

from doublesix.rules.moves import Move, Turn
from doublesix.rules.record import replay
from doublesix.server.remote import decode, encode
from doublesix.table import commands
from doublesix.tiles import Tile

from .server_helpers import Socket, TestClient, human_table


def _refused(sender: Socket, frame: dict[str, Any]) -> dict[str, Any]:
    sender.send(frame)
    return sender.error()


def test_R39_a_game_with_turns_and_a_straightening_over_the_socket(client: TestClient) -> None:
    table_id, tokens = human_table(client, "vog-block", 2, target="round")
    straightened = turned = 0
    with ExitStack() as stack:
        sockets = [Socket(client, stack, table_id, t) for t in tokens]
        spectator = Socket(client, stack, table_id, None)
        everyone = [*sockets, spectator]
        assert sockets[0].view["ruleset"]["line"] == "manual"
        while sockets[0].view["status"] == "playing":
            mover = sockets[sockets[0].view["turn"]]
            other = sockets[1 - mover.view["turn"]]
            offered = mover.view["straightenings"]
            if offered and not straightened:
                asked = {"type": "straighten", **offered[0], "version": mover.version}
                first = mover.view["events"][0]["play"]
                before = [s.view for s in everyone]
                for sender, frame, code, rule, field in (
                    (mover, asked | {"turn": "up"}, "bad_frame", "R39", "turn"),
                    (mover, asked | {"at": 25}, "bad_frame", "R1", "at"),
                    (mover, asked | {"at": "7-7"}, "bad_frame", "R1", "at"),
                    (
                        mover,
                        {k: v for k, v in asked.items() if k != "version"},
                        "bad_frame",
                        None,
                        None,
                    ),
                    (mover, asked | {"at": first}, "illegal", "R39", "at"),
                    (mover, asked | {"version": mover.version - 1}, "stale", None, None),
                    (other, asked, "not_your_turn", "R39", None),
                    (spectator, asked, "spectator", None, None),
                ):
                    error = _refused(sender, frame)
                    assert (error["code"], error.get("rule"), error.get("field")) == (
                        code,
                        rule,
                        field,
                    ), (frame, error)
                assert [s.view for s in everyone] == before
                mover.send(asked)
                event = {
                    "seat": mover.seat,
                    "straighten": {"at": asked["at"], "turn": asked["turn"]},
                }
                for s in everyone:
                    assert s.update()["events"] == [event]
                    assert s.view["turn"] == mover.seat  # not a move: the same seat plays on
                straightened += 1
                continue
            move = mover.view["legal"][0]
            frame = {
                "type": "play",
                "tile": move["tile"],
                "end": move["end"],
                "version": mover.version,
            }
            if move["turns"]:
                frame["turn"] = "right"
                turned += 1
            elif mover.view["events"]:
                error = _refused(mover, frame | {"turn": "left"})
                assert (error["code"], error["rule"]) == ("illegal", "R39")
            mover.send(frame)
            for s in everyone:
                played = s.update()["events"][0]
                assert played.get("turn") == frame.get("turn"), played
        assert sockets[0].view["status"] == "finished"
    assert straightened == 1 and turned > 0
    record = client.get(f"/api/games/{table_id}/record").json()
    events = record["rounds"][0]["events"]
    assert sum("straighten" in e for e in events) == 1
    assert sum(e.get("turn") == "right" for e in events) == turned
    assert replay(record).finished
    assert client.post("/api/records", json=record).status_code == 200
    text = client.get(f"/api/games/{table_id}/text").text
    assert "straightened the line at" in text


def test_R39_turns_and_straightenings_cross_to_a_table_in_another_process() -> None:
    for command in (
        commands.Play(0, Move(Tile(2, 5), None), 3, None),
        commands.Play(1, Move.parse("5-6 right"), 4, Turn.LEFT),
        commands.Straighten(1, Tile(5, 6), Turn.RIGHT, 5),
    ):
        assert decode(*encode(command)) == command
