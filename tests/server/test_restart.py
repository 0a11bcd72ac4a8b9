"""A new server on the same database resumes every table exactly where it was."""

from __future__ import annotations

import random
import time
from contextlib import ExitStack

import pytest

from doublesix.rules.record import replay

from .server_helpers import AppFactory, Socket, TestClient, human_table, join, new_table, play_out


@pytest.mark.parametrize("backend", ["sqlite", "postgres"], indirect=True)
def test_restart_resumes_a_game_mid_round(make_app: AppFactory) -> None:
    rng = random.Random(5)
    with TestClient(make_app()) as client:
        table_id, tokens = human_table(client, "draw", 3, target=60)
        with ExitStack() as stack:
            sockets = [Socket(client, stack, table_id, t) for t in tokens]
            spectator = Socket(client, stack, table_id, None)
            play_out(sockets, [spectator], rng, stop_after=9)
            before = [s.state for s in [*sockets, spectator]]
            version = sockets[0].version
    with TestClient(make_app()) as client:
        with ExitStack() as stack:
            sockets = [Socket(client, stack, table_id, t) for t in tokens]
            spectator = Socket(client, stack, table_id, None)
            assert [s.version for s in sockets] == [version] * 3
            assert [s.state for s in [*sockets, spectator]] == before
            play_out(sockets, [spectator], rng)
            final = sockets[0].view
        record = client.get(f"/api/games/{table_id}/record").json()
    assert final["status"] == "finished"
    assert list(replay(record).scores) == final["scores"]


def test_restart_keeps_who_pressed_continue(make_app: AppFactory) -> None:
    rng = random.Random(6)
    with TestClient(make_app()) as client:
        table_id, tokens = human_table(client, "block", 2, target=500)
        with ExitStack() as stack:
            a, b = (Socket(client, stack, table_id, t) for t in tokens)
            while a.view["status"] == "playing":
                play_out([a, b], [], rng, stop_after=1)
            a.send({"type": "continue"})
            a.update()
            b.update()
            before = b.state
    with TestClient(make_app()) as client:
        with ExitStack() as stack:
            a, b = (Socket(client, stack, table_id, t) for t in tokens)
            assert b.state == before and b.view["continue"] == [0]
            b.send({"type": "continue"})
            assert b.update()["view"]["round"] == 2
            a.update()
        rounds = client.get(f"/api/tables/{table_id}").json()
    assert rounds["status"] == "playing"


def test_restart_resumes_bots_with_nobody_connected(make_app: AppFactory) -> None:
    """Tables play on after a restart: bots move though no client is at the table."""
    seats = [{"kind": "human"}] + [{"kind": "bot", "bot": "greedy"}] * 3
    with TestClient(make_app(bot_delay=3600)) as client:  # the bots never get to move
        table = new_table(client, preset="kozel", seats=seats)
        assert table["status"] == "playing"
        with ExitStack() as stack:
            human = Socket(client, stack, table["id"], table["token"])
            if human.view["turn"] == 0:  # 1-1 was played to the human: one move, then a bot's
                human.play(human.view["legal"][0])
                human.update()
            assert human.view["turn"] != 0
            version = human.version
    with TestClient(make_app()) as client:
        deadline = time.monotonic() + 10
        while client.get(f"/api/tables/{table['id']}").json()["version"] == version:
            assert time.monotonic() < deadline, "the bots did not resume"
            time.sleep(0.01)
        with ExitStack() as stack:
            human = Socket(client, stack, table["id"], table["token"])
            assert human.version > version
            while human.view["turn"] not in (0, None):  # the bots play up to the human
                human.update()


def test_timer_deadline_survives_a_restart(make_app: AppFactory) -> None:
    with TestClient(make_app()) as client:
        table = new_table(
            client, preset="block", seats=[{"kind": "human"}, {"kind": "open"}], timer=600
        )
        other = join(client, table["id"], "Ben")
        with ExitStack() as stack:
            a = Socket(client, stack, table["id"], table["token"])
            timer = a.view["timer"]
            assert timer is not None and timer["seat"] == a.view["turn"]
            assert 590 < timer["deadline"] - time.time() <= 600
    with TestClient(make_app()) as client, ExitStack() as stack:
        b = Socket(client, stack, table["id"], other["token"])
        assert b.view["timer"] == timer


def test_a_finished_table_leaves_memory_and_comes_back(make_app: AppFactory) -> None:
    with TestClient(make_app(idle_seconds=0.05)) as client:
        table_id, tokens = human_table(client, "block", 2, target=20)
        with ExitStack() as stack:
            sockets = [Socket(client, stack, table_id, t) for t in tokens]
            play_out(sockets, [], random.Random(10))
            final = sockets[1].view
        manager = client.app.state.server.manager  # type: ignore[attr-defined]
        deadline = time.monotonic() + 5
        while manager.hosts[table_id].running:
            assert time.monotonic() < deadline, "the finished table stayed in memory"
            time.sleep(0.02)
        with ExitStack() as stack:
            again = Socket(client, stack, table_id, tokens[1])
            assert again.view == final
