"""Bots at a table, the turn timer, and hints."""

from __future__ import annotations

import multiprocessing
import os
import random
import signal
import time
from contextlib import ExitStack

import pytest

from doublesix.rules.record import replay
from doublesix.server import lobby

from .server_helpers import AppFactory, Socket, TestClient, join, new_table


def test_kozel_with_three_bots(client: TestClient) -> None:
    seats = [
        {"kind": "human"},
        *({"kind": "bot", "bot": b} for b in ["greedy", "random", "greedy"]),
    ]
    table = new_table(client, preset="kozel", seats=seats)
    assert table["status"] == "playing"  # no seat left open: it starts at once
    rng = random.Random(8)
    with ExitStack() as stack:
        me = Socket(client, stack, table["id"], table["token"])
        moves = 0
        while me.view["status"] != "finished":
            view = me.view
            if view["status"] == "round_over":
                assert set(view["continue"]) == {1, 2, 3}  # bots are always ready
                me.send({"type": "continue"})
            elif view["turn"] == 0:
                me.play(rng.choice(view["legal"]))
                moves += 1
            me.update()
        final = me.view
    assert moves > 5
    assert final["players"] == ["Anna", "Bot 1", "Bot 2", "Bot 3"]
    assert final["bots"] == [None, "greedy", "random", "greedy"]
    record = client.get(f"/api/games/{table['id']}/record").json()
    assert list(replay(record).scores) == final["scores"]


def test_timer_plays_for_a_seat_that_runs_out(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lobby, "MIN_TIMER", 0.1)  # a table's turns are 5 s at least
    table = new_table(
        client, preset="block", seats=[{"kind": "human"}, {"kind": "open"}], timer=0.2
    )
    other = join(client, table["id"], "Ben")
    with ExitStack() as stack:
        a = Socket(client, stack, table["id"], table["token"])
        b = Socket(client, stack, table["id"], other["token"])
        turn = a.view["turn"]
        assert a.view["timer"]["seat"] == turn
        frame = a.update()  # nobody moves: the clock does
        b.update()
        assert frame["events"][0] == {"seat": turn, "timeout": True}
        assert frame["events"][1]["seat"] == turn and "play" in frame["events"][1]
        if a.view["status"] == "playing":  # the next seat's clock runs
            assert a.view["timer"]["seat"] == a.view["turn"]


def test_R25_the_continue_clock_presses_for_players_who_do_not(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At a timer table nobody waits forever at a round's end either (R25)."""
    monkeypatch.setattr(lobby, "MIN_TIMER", 0.1)
    with TestClient(make_app(continue_seconds=0.3)) as client:
        table = new_table(
            client, preset="block", seats=[{"kind": "human"}, {"kind": "open"}], timer=0.1
        )
        other = join(client, table["id"], "Ben")
        with ExitStack() as stack:
            a = Socket(client, stack, table["id"], table["token"])
            Socket(client, stack, table["id"], other["token"])
            while a.view["status"] == "playing":  # nobody moves: the clock plays the round
                a.update()
            assert a.view["status"] == "round_over"
            timer = a.view["timer"]
            assert timer["seat"] is None and timer["deadline"] > time.time() - 1
            a.send({"type": "continue"})  # one presses in time
            assert a.update()["events"] == [{"seat": 0, "continue": True}]
            assert a.view["timer"] == timer  # the same clock runs for the other
            frame = a.update()  # which never presses
            assert frame["events"][0] == {"seat": 1, "continue": True, "timeout": True}
            assert a.view["round"] == 2 and a.view["status"] == "playing"
            assert a.view["timer"]["seat"] == a.view["turn"]


def test_hints(client: TestClient) -> None:
    table = new_table(client, preset="block", seats=[{"kind": "human"}, {"kind": "open"}])
    assert table["hints"] is False  # off by default where another human sits
    other = join(client, table["id"], "Ben")
    with ExitStack() as stack:
        sockets = [Socket(client, stack, table["id"], t) for t in [table["token"], other["token"]]]
        mover = sockets[sockets[0].view["turn"]]
        mover.send({"type": "hint"})
        assert mover.error()["code"] == "hints_off"

    table = new_table(client, preset="block", seats=[{"kind": "human"}, {"kind": "bot"}])
    assert table["hints"] is True  # on by default against bots only
    table = new_table(
        client, preset="block", seats=[{"kind": "human"}, {"kind": "open"}], hints=True
    )
    other = join(client, table["id"], "Ben")
    with ExitStack() as stack:
        sockets = [Socket(client, stack, table["id"], t) for t in [table["token"], other["token"]]]
        mover = sockets[sockets[0].view["turn"]]
        waiting = sockets[1 - sockets[0].view["turn"]]
        before = set(multiprocessing.active_children())
        mover.send({"type": "hint"})  # the expert's own search, in a worker process
        answer = mover.receive()
        assert answer["type"] == "hint", answer
        legal = [{"tile": m["tile"], "end": m["end"]} for m in mover.view["legal"]]
        ranked = [{"tile": m["tile"], "end": m["end"]} for m in answer["moves"]]
        assert sorted(map(str, ranked)) == sorted(map(str, legal))
        assert all(0 <= m["win"] <= 1 for m in answer["moves"])
        waiting.send({"type": "hint"})
        assert waiting.error()["code"] == "not_your_turn"

        workers = set(multiprocessing.active_children()) - before
        assert workers  # the search ran outside the server's process
        for worker in workers:
            os.kill(worker.pid, signal.SIGKILL)
            worker.join()
        # the same position's hint is kept: asked again, it needs no worker (a dead
        # worker's search is tests/server/test_thinking.py's)
        mover.send({"type": "hint"})
        assert mover.receive()["moves"] == answer["moves"]


def test_searching_bots_move_from_worker_processes(client: TestClient) -> None:
    seats = [{"kind": "human"}, *({"kind": "bot", "bot": b} for b in ["expert", "pimc", "expert"])]
    before = set(multiprocessing.active_children())
    table = new_table(client, preset="kozel", seats=seats)  # the bots start thinking at once
    with ExitStack() as stack:
        me = Socket(client, stack, table["id"], table["token"])
        bot_moves = 0
        while bot_moves < 6:  # two turns of each bot around the table
            view = me.view
            if view["status"] == "round_over":
                me.send({"type": "continue"})
            elif view["turn"] == 0:
                me.play(view["legal"][0])
            frame = me.update()
            bot_moves += sum(1 for e in frame["events"] if e.get("seat", 0) != 0 and "play" in e)
    assert set(multiprocessing.active_children()) - before  # they thought in workers
