"""Issue 5, item 3: coming back with ``since``, and the grace period of a player who left."""

from __future__ import annotations

import random
import time
from contextlib import ExitStack
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from doublesix.rules.record import replay
from doublesix.server.remote import decode, encode
from doublesix.table import commands

from .server_helpers import AppFactory, Socket, TestClient, human_table, join, new_table, play_out


def _moves(sockets: list[Socket], present: list[Socket], rng: random.Random, n: int) -> int:
    """Up to ``n`` moves by seats in ``present`` (stops at an absent seat's turn); how many."""
    done = 0
    while done < n:
        view = present[0].view
        if view["status"] != "playing":
            break
        mover = sockets[view["turn"]]
        if mover not in present:
            break
        mover.play(rng.choice(mover.view["legal"]))
        for s in present:
            s.update()
        done += 1
    return done


def test_since_gets_exactly_the_missing_events(client: TestClient) -> None:
    """Each missed update once, in order, as that seat saw it; the last one with the view."""
    rng = random.Random(11)
    table_id, tokens = human_table(client, "draw", 3, target=200)
    with ExitStack() as stack:
        sockets = [Socket(client, stack, table_id, t) for t in tokens]
        twin = Socket(client, stack, table_id, tokens[1])  # seat 1 on a second device
        watcher = Socket(client, stack, table_id, None)
        twin_watcher = Socket(client, stack, table_id, None)
        play_out(sockets, [twin, watcher, twin_watcher], rng, stop_after=3)
        leaving, leaving_watcher = sockets[1], watcher
        leaving.close()
        watcher.close()
        missed = 0
        for _ in range(20):  # seat 1 still plays through its twin
            view = twin.view
            if view["status"] != "playing" or missed >= 6:
                break
            mover = twin if view["turn"] == 1 else sockets[view["turn"]]
            mover.play(rng.choice(mover.view["legal"]))
            for s in [sockets[0], twin, sockets[2], twin_watcher]:
                s.update()
            missed += 1
        assert missed >= 2
        back = Socket(client, stack, table_id, tokens[1], since=leaving)
        back_watcher = Socket(client, stack, table_id, None, since=leaving_watcher)
        for again, stayed, before in [
            (back, twin, leaving),
            (back_watcher, twin_watcher, leaving_watcher),
        ]:
            assert again.resumed
            got = [f for f in again.frames if f["type"] == "update"]
            want = [f for f in stayed.frames if f["type"] == "update"][-missed:]
            assert [f["version"] for f in got] == list(range(before.version + 1, twin.version + 1))
            assert [f["events"] for f in got] == [f["events"] for f in want]
            assert again.state == stayed.state
            assert again.version == stayed.version
        # and the game goes on with the socket that came back
        sockets[1] = back
        play_out(sockets, [twin, back_watcher, twin_watcher], rng, stop_after=4)


def test_too_far_behind_or_unknown_gets_a_snapshot(make_app: AppFactory) -> None:
    rng = random.Random(12)
    with TestClient(make_app(resume_events=3)) as client:
        table_id, tokens = human_table(client, "block", 2, target=200)
        with ExitStack() as stack:
            a, b = (Socket(client, stack, table_id, t) for t in tokens)
            play_out([a, b], [], rng, stop_after=2)
            early = a.version
            play_out([a, b], [], rng, stop_after=6)
            assert a.version - early > 3
            for since in [early, -1, a.version + 5]:  # too far behind, nonsense, the future
                c = _hello(client, stack, table_id, tokens[0], since)
                assert c["type"] == "snapshot" and c["version"] == a.version, c
            same = _hello(client, stack, table_id, tokens[0], a.version)
            assert same == {"type": "resume", "since": a.version, "version": a.version}
            near = Socket(client, stack, table_id, tokens[0], since=_Seen(a.version - 3, a.view))
            assert near.resumed and near.state == a.state
            with client.websocket_connect(f"/ws/table/{table_id}") as ws:
                ws.send_json({"type": "hello", "token": tokens[0], "since": "7"})
                assert ws.receive_json()["code"] == "bad_frame"
                with pytest.raises(WebSocketDisconnect):
                    ws.receive_json()


class _Seen:
    """A socket that saw ``version`` (stands in for one that is gone)."""

    def __init__(self, version: int, view: dict[str, Any]) -> None:
        self.version = version
        self.view = view


def _hello(
    client: TestClient, stack: ExitStack, table_id: str, token: str, since: int
) -> dict[str, Any]:
    ws = stack.enter_context(client.websocket_connect(f"/ws/table/{table_id}"))
    ws.send_json({"type": "hello", "token": token, "since": since})
    frame: dict[str, Any] = ws.receive_json()
    return frame


def test_after_a_restart_since_still_works(make_app: AppFactory) -> None:
    """The last entries are rebuilt from the log with the table: a client that comes back
    to the restarted server gets exactly what it missed (as after a failover)."""
    rng = random.Random(13)
    with TestClient(make_app()) as client:
        table_id, tokens = human_table(client, "block", 2, target=200)
        with ExitStack() as stack:
            a, b = (Socket(client, stack, table_id, t) for t in tokens)
            play_out([a, b], [], rng, stop_after=3)
            behind = _Seen(a.version - 1, a.view)
    with TestClient(make_app()) as client, ExitStack() as stack:
        again = Socket(client, stack, table_id, tokens[0], since=a)
        assert again.resumed and again.version == a.version
        late = Socket(client, stack, table_id, tokens[1], since=behind)  # type: ignore[arg-type]
        assert late.resumed and late.version == b.version and late.state == b.state


def test_the_table_shows_who_is_away(make_app: AppFactory) -> None:
    with TestClient(make_app(grace_seconds=60)) as client:
        table_id, tokens = human_table(client, "block", 3, target=200)
        with ExitStack() as stack:
            a, b, c = (Socket(client, stack, table_id, t) for t in tokens)
            spectator = Socket(client, stack, table_id, None)
            everyone = [a, b, spectator]
            for s in everyone:
                s.all_here()
            c.close()
            start = time.time()
            for s in everyone:
                frame = s.receive_presence()
                assert [x["seat"] for x in frame["away"]] == [2]
                until = frame["away"][0]["until"]
                assert start + 55 < until <= start + 61 and frame["away"][0]["bot"] is False
            # the views say so too, to every seat and to the spectator
            mover = [a, b][a.view["turn"]] if a.view["turn"] in (0, 1) else None
            if mover is not None:
                mover.play(mover.view["legal"][0])
                for s in everyone:
                    assert [x["seat"] for x in s.update()["view"]["away"]] == [2]
            c = Socket(client, stack, table_id, tokens[2])
            assert c.view["away"] == []
            for s in everyone:
                assert s.receive_presence()["away"] == []


def test_after_the_grace_a_bot_plays_for_the_absent_player(make_app: AppFactory) -> None:
    """Its moves and its Continue are marked; the game ends; the player takes the seat back.
    (The grace runs from the start for a seat nobody has taken yet: long enough here for
    Ben's socket to come on a loaded machine.)"""
    rng = random.Random(14)
    with TestClient(make_app(grace_seconds=1.5)) as client:
        table_id, tokens = human_table(client, "block", 2, target=30)
        with ExitStack() as stack:
            a, b = (Socket(client, stack, table_id, t) for t in tokens)
            a.all_here()
            b.close()
            assert a.receive_presence()["away"][0]["bot"] is False
            marked: list[dict[str, Any]] = []
            bot_seen = False
            pressed, played = 0, -1  # Ben's bot acts at the same time: act once per chance
            while a.view["status"] != "finished":
                view = a.view
                if view["status"] == "round_over" and pressed != view["round"]:
                    a.send({"type": "continue"})
                    pressed = view["round"]
                elif view["status"] == "playing" and view["turn"] == 0 and played != a.version:
                    a.play(rng.choice(view["legal"]))
                    played = a.version
                frame = a.update()
                marked += [e for e in frame["events"] if e.get("away")]
                bot_seen = bot_seen or any(x["bot"] for x in a.view["away"])
            assert a.away and a.away[0]["bot"] is True
            assert bot_seen
            assert {"seat": 1, "away": True} in marked  # a bot played for Ben: the table says so
            if a.view["round"] > 1:
                assert {"seat": 1, "continue": True, "away": True} in marked
            record = client.get(f"/api/games/{table_id}/record").json()
            assert list(replay(record).scores) == a.view["scores"]


def test_the_player_who_comes_back_plays_again(make_app: AppFactory) -> None:
    with TestClient(make_app(grace_seconds=1.5, bot_delay=0.8)) as client:
        table_id, tokens = human_table(client, "block", 2, target=500)
        with ExitStack() as stack:
            a, b = (Socket(client, stack, table_id, t) for t in tokens)
            a.all_here()
            b.close()
            assert a.receive_presence()["away"][0]["bot"] is False
            assert a.receive_presence()["away"][0]["bot"] is True  # the grace ran out
            while a.view["turn"] != 1:  # Anna plays until it is Ben's turn
                assert a.view["status"] == "playing"
                a.play(a.view["legal"][0])
                a.update()
            b = Socket(client, stack, table_id, tokens[1], since=b)  # back before the bot moves
            assert a.receive_presence()["away"] == []
            time.sleep(1.2)  # longer than the bot would wait: Ben's move is Ben's again
            assert client.get(f"/api/tables/{table_id}").json()["version"] == a.version
            b.play(b.view["legal"][0])
            events = a.update()["events"]
            assert events[0]["seat"] == 1 and "play" in events[0], events


def test_a_table_everyone_left_is_played_to_its_end(make_app: AppFactory) -> None:
    with TestClient(make_app(grace_seconds=0.1)) as client:
        table_id, _ = human_table(client, "block", 3, target=20)
        deadline = time.monotonic() + 20
        while client.get(f"/api/tables/{table_id}").json()["status"] != "finished":
            assert time.monotonic() < deadline, "the abandoned table did not finish"
            time.sleep(0.05)
        record = client.get(f"/api/games/{table_id}/record").json()
        assert replay(record).finished


@pytest.mark.parametrize("backend", ["sqlite", "postgres"], indirect=True)
def test_a_player_who_leaves_is_played_for_at_once_and_may_come_back(
    make_app: AppFactory,
) -> None:
    """A ``leave`` frame: no grace period to wait out (here ten minutes), the table says who
    left, a bot plays the seat's turns, and the player's next socket takes the seat back."""
    with TestClient(make_app(grace_seconds=600.0, bot_delay=0.05)) as client:
        table_id, tokens = human_table(client, "block", 2, target=500)
        with ExitStack() as stack:
            a, b = (Socket(client, stack, table_id, t) for t in tokens)
            a.all_here()
            watcher = Socket(client, stack, table_id, None)
            watcher.send({"type": "leave"})
            assert watcher.error()["code"] == "spectator"
            b.send({"type": "leave"})
            assert a.update()["events"] == [{"seat": 1, "leave": True}]
            [gone] = a.receive_presence()["away"]
            assert gone["seat"] == 1 and gone["bot"] is True and gone["left"] is True
            b.close()
            while a.view["turn"] != 1:  # Anna plays until it is Ben's turn: his bot moves
                assert a.view["status"] == "playing"
                a.play(a.view["legal"][0])
                a.update()
            events = a.update()["events"]
            assert events[0] == {"seat": 1, "away": True}, events
            assert events[1]["seat"] == 1 and ("play" in events[1] or "pass" in events[1])
            b = Socket(client, stack, table_id, tokens[1], since=b)
            assert a.receive_presence()["away"] == []
            assert b.view["seat"] == 1 and b.away == []


@pytest.mark.parametrize("backend", ["sqlite", "postgres"], indirect=True)
def test_before_the_start_a_player_who_leaves_frees_the_seat_and_watches(
    make_app: AppFactory,
) -> None:
    """Ben stands up before the start, with the table open in two tabs: both watch from then
    on. Carla sits down there, the game starts, and only her socket sees the seat's hand;
    Ben's old token holds nothing."""
    with TestClient(make_app()) as client:
        seats = [{"kind": "human"}, {"kind": "open"}, {"kind": "open"}]
        made = new_table(client, preset="block", seats=seats)
        table_id = made["id"]
        ben = join(client, table_id, "Ben")
        with ExitStack() as stack:
            anna = Socket(client, stack, table_id, made["token"])
            tabs = [Socket(client, stack, table_id, ben["token"]) for _ in range(2)]
            assert [tab.seat for tab in tabs] == [1, 1]
            tabs[0].send({"type": "leave"})
            assert anna.update()["events"] == [{"seat": 1, "join": None, "kind": "open"}]
            for tab in tabs:
                tab.update()
                assert tab.receive() == {"type": "unseat", "seat": 1}
            table = client.get(f"/api/tables/{table_id}").json()
            assert [s["kind"] for s in table["seats"]] == ["human", "open", "open"]

            with client.websocket_connect(f"/ws/table/{table_id}") as old:
                old.send_json({"type": "hello", "token": ben["token"], "since": None})
                assert old.receive_json()["code"] == "bad_token"

            carla = join(client, table_id, "Carla", seat=1)
            assert carla["seat"] == 1
            join(client, table_id, "Dora")
            hers = Socket(client, stack, table_id, carla["token"])
            assert hers.view["status"] == "playing" and hers.view["seat"] == 1 and hers.view["hand"]
            for tab in tabs:
                while tab.view["status"] != "playing":
                    tab.update()
                assert tab.view["seat"] is None and tab.view["hand"] == []
            tabs[1].send({"type": "leave"})
            refused = tabs[1].receive()
            while refused["type"] == "update":  # the last seat and the start, still on their way
                assert refused["view"]["hand"] == []
                refused = tabs[1].receive()
            assert refused["code"] == "spectator"


def test_leaving_an_accounts_seat_a_socket_and_unchat_cross_to_another_process() -> None:
    """And a restore (``Rechat``): its version only, the owner reads the words."""
    anna = commands.Player("p", "Anna", account=True)
    for command in (
        commands.Leave(1),
        commands.Leave(2, before_start=True),
        commands.Join(anna, "token", None, None),
        commands.Connect("process/socket", 1, 5, "token"),
        commands.Unchat(7),
        commands.Rechat(7),
    ):
        assert decode(*encode(command)) == command
