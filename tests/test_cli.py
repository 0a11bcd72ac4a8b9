"""The command line: every command, its --json output and its error paths; a scripted game."""

from __future__ import annotations

import io
import itertools
import json
from pathlib import Path
from typing import Any

import pytest

from conftest import T, game_of, make_deal
from doublesix import End, Play, preset
from doublesix.bots import make_bot
from doublesix.cli import COMMANDS, main
from doublesix.terminal import TerminalGame


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def script(*answers: str, repeat: int = 20_000) -> io.StringIO:
    """Answers for a whole game: each cycle tries bad input before a good one."""
    return io.StringIO("\n".join(itertools.islice(itertools.cycle(answers), repeat)) + "\n")


# --- help and usage -----------------------------------------------------------


@pytest.mark.parametrize("command", [m.__name__.rsplit(".", 1)[-1] for m in COMMANDS])
def test_every_command_has_help(capsys: pytest.CaptureFixture[str], command: str) -> None:
    code, out, _ = run(capsys, command, "--help")
    assert code == 0
    assert f"usage: doublesix {command}" in out


def test_help_links_to_the_rules_and_the_record_format(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--help")
    assert code == 0
    assert "docs/rules.md" in out and "docs/record.md" in out
    for command in ("play", "selfplay", "bench", "arena"):
        _, out, _ = run(capsys, command, "--help")
        assert "rules (docs/rules.md)" in out


def test_R40_target_round_plays_single_rounds(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys, "selfplay", "--preset", "classic-block", "--players", "3", "--target", "round",
        "--games", "4", "--seed", "2", "--json",
    )  # fmt: skip
    assert code == 0, err
    summary = json.loads(out)
    assert summary["ruleset"]["target"] == "round" and summary["mean_rounds"] == 1
    code, out, _ = run(
        capsys, "selfplay", "--preset", "draw", "--set", "target=round", "--games", "1", "--json"
    )
    assert code == 0 and json.loads(out)["ruleset"]["target"] == "round"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--target", "rounds"], "'rounds' is neither a whole number nor 'round'"),
        (["--target", "10001"], "target: 10001; the target is a whole number from 1 to 10,000"),
        (["--set", "target=0"], "target: 0; the target is a whole number"),
        (["--set", f"target={10**400}"], "target: a number of 401 digits"),
        (["--set", f"lone_zero_zero={2**64}"], "lone_zero_zero: a number of 20 digits"),
        (["--set", "line=diagonal"], "line: 'diagonal' is not one of auto, manual (R39)"),
    ],
)
def test_option_bounds_on_the_command_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = run(capsys, "selfplay", "--preset", "draw", *argv)
    assert code == 2 and out == ""
    assert message in err


def test_no_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys)
    assert code == 2
    assert "COMMAND" in err


def test_unknown_command(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "dance")
    assert code == 2
    assert "invalid choice" in err


@pytest.mark.parametrize("command", ["selfplay", "play", "bench"])
def test_unknown_preset_is_refused(capsys: pytest.CaptureFixture[str], command: str) -> None:
    code, out, err = run(capsys, command, "--preset", "chess")
    assert code == 2
    assert "preset: 'chess' is not one of draw, block, kozel" in err
    assert "docs/rules.md" in err
    assert "Traceback" not in err and out == ""


@pytest.mark.parametrize(
    ("argv", "option", "rule"),
    [
        (["--preset", "block", "--players", "5"], "players", "R12"),
        (["--preset", "kozel", "--players", "3"], "players", "R12"),
        (["--preset", "draw", "--set", "hand_size=1"], "hand_size", "R14"),
        (["--preset", "block", "--players", "4", "--set", "hand_size=8"], "hand_size", "R14"),
        (["--preset", "draw", "--players", "4", "--set", "hand_size=7"], "hand_size", "R14"),
        (["--preset", "block", "--target", "0"], "target", "R30"),
        (["--preset", "draw", "--set", "keep_in_boneyard=99"], "keep_in_boneyard", "R11"),
        (["--preset", "draw", "--set", "draw_rule=draw_two"], "draw_rule", "R11"),
    ],
)
def test_impossible_option_names_option_and_rule(
    capsys: pytest.CaptureFixture[str], argv: list[str], option: str, rule: str
) -> None:
    for command in ("selfplay", "bench"):
        code, _, err = run(capsys, command, *argv)
        assert code == 2, err
        assert f"error: {option}: " in err
        assert f"({rule})" in err or f"{rule})" in err


@pytest.mark.parametrize(
    ("option", "message"),
    [
        ("nope=1", "no such option"),
        ("hand_size=many", "'many' is not a whole number"),
        ("pairs=perhaps", "'perhaps' is not true or false"),
        ("hand_size", "write OPTION=VALUE"),
    ],
)
def test_bad_set_option(capsys: pytest.CaptureFixture[str], option: str, message: str) -> None:
    code, _, err = run(capsys, "selfplay", "--preset", "draw", "--set", option)
    assert code == 2
    assert message in err


def test_set_option_changes_the_ruleset(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys,
        "selfplay",
        "--preset",
        "draw",
        "--players",
        "3",
        "--set",
        "draw_rule=draw_one",
        "--set",
        "keep_in_boneyard=2",
        "--games",
        "1",
        "--seed",
        "1",
        "--target",
        "20",
        "--json",
    )
    assert code == 0
    ruleset = json.loads(out)["ruleset"]
    assert ruleset["draw_rule"] == "draw_one"
    assert ruleset["keep_in_boneyard"] == 2
    assert ruleset["target"] == 20


@pytest.mark.parametrize(
    ("bots", "message"),
    [
        ("random,wizard", "no bot 'wizard'; choose from "),
        ("random,greedy", "2 names for 4 seats"),
    ],
)
def test_bad_bots_option(capsys: pytest.CaptureFixture[str], bots: str, message: str) -> None:
    code, _, err = run(capsys, "selfplay", "--preset", "block", "--bots", bots)
    assert code == 2
    assert message in err


def test_non_number_option_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "selfplay", "--preset", "block", "--games", "lots")
    assert code == 2
    assert "--games" in err


# --- selfplay -----------------------------------------------------------------


def selfplay(
    capsys: pytest.CaptureFixture[str], *extra: str, preset_name: str = "kozel"
) -> dict[str, Any]:
    code, out, err = run(
        capsys, "selfplay", "--preset", preset_name, "--target", "30", "--json", *extra
    )
    assert code == 0, err
    summary: dict[str, Any] = json.loads(out)
    return summary


def test_selfplay_summary(capsys: pytest.CaptureFixture[str]) -> None:
    summary = selfplay(
        capsys, "--games", "4", "--seed", "11", "--bots", "random,greedy,random,greedy"
    )
    assert summary["games"] == 4
    assert summary["preset"] == "kozel" and summary["players"] == 4 and summary["target"] == 30
    assert summary["bots"] == ["random", "greedy", "random", "greedy"]
    assert summary["sides"] == ["seats 0 & 2", "seats 1 & 3"]
    assert sum(summary["wins"]) == 4  # Kozel: one pair wins every game
    assert summary["mean_rounds"] >= 1
    assert summary["seed"] == 11


def test_selfplay_text_summary(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "selfplay", "--preset", "block", "--players", "3", "--games", "2", "--seed", "3"
    )
    assert code == 0
    assert "selfplay: 2 games of block, 3 players, target 100, seed 3" in out
    assert "wins: seat 0 " in out
    assert "mean rounds per game:" in out


def test_selfplay_is_determined_by_its_seed(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    args = ("--games", "3", "--seed", "5", "--bots", "greedy,random,random,greedy")
    first = selfplay(capsys, *args, "--records", str(tmp_path / "a"))
    second = selfplay(capsys, *args, "--records", str(tmp_path / "b"))
    assert {**first, "records": None} == {**second, "records": None}
    names = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert names == ["game-0001.json", "game-0002.json", "game-0003.json"]
    for name in names:
        assert (tmp_path / "a" / name).read_text() == (tmp_path / "b" / name).read_text()
    selfplay(capsys, "--games", "3", "--seed", "6", "--records", str(tmp_path / "c"))
    assert (tmp_path / "c" / names[0]).read_text() != (tmp_path / "a" / names[0]).read_text()


def test_selfplay_game_i_is_seed_plus_i_minus_one(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    selfplay(capsys, "--games", "2", "--seed", "40", "--records", str(tmp_path / "two"))
    selfplay(capsys, "--games", "1", "--seed", "41", "--records", str(tmp_path / "one"))
    second = json.loads((tmp_path / "two" / "game-0002.json").read_text())
    alone = json.loads((tmp_path / "one" / "game-0001.json").read_text())
    assert second == alone
    assert second["seed"] == 41


def test_selfplay_records_cannot_be_written(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    code, _, err = run(capsys, "selfplay", "--preset", "block", "--records", str(blocker / "x"))
    assert code == 1
    assert "--records: cannot create" in err


def test_selfplay_needs_a_game(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "selfplay", "--preset", "block", "--games", "0")
    assert code == 2
    assert "--games" in err


# --- replay -------------------------------------------------------------------


@pytest.fixture
def record_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> Path:
    selfplay(capsys, "--games", "1", "--seed", "2", "--records", str(tmp_path), preset_name="block")
    return tmp_path / "game-0001.json"


def test_replay_prints_the_game(capsys: pytest.CaptureFixture[str], record_file: Path) -> None:
    code, out, err = run(capsys, "replay", str(record_file))
    assert code == 0, err
    assert "R1 · 1. Bot " in out and " · random (seat " in out  # name and level apart
    assert "Game over:" in out
    assert "valid doublesix/1 record" in out


def test_replay_json_recomputes_the_record(
    capsys: pytest.CaptureFixture[str], record_file: Path
) -> None:
    code, out, _ = run(capsys, "replay", str(record_file), "--json")
    assert code == 0
    assert json.loads(out) == json.loads(record_file.read_text())


@pytest.mark.parametrize(
    ("preset_name", "players"), [("draw", 3), ("vog-goat", 4), ("classic", 2), ("kozel", 4)]
)
def test_every_selfplay_record_replays(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, preset_name: str, players: int
) -> None:
    selfplay(
        capsys,
        "--players",
        str(players),
        "--games",
        "2",
        "--seed",
        "9",
        "--records",
        str(tmp_path),
        preset_name=preset_name,
    )
    for path in sorted(tmp_path.iterdir()):
        code, _, err = run(capsys, "replay", str(path))
        assert code == 0, err


def test_replay_missing_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, err = run(capsys, "replay", str(tmp_path / "nothing.json"))
    assert code == 1
    assert "no such file" in err and "Traceback" not in err and out == ""


def test_replay_directory(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "replay", str(tmp_path))
    assert code == 1
    assert "is a directory" in err


def test_replay_not_text(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "binary.json"
    path.write_bytes(b"\xff\xfe\x00garbage")
    code, _, err = run(capsys, "replay", str(path))
    assert code == 1
    assert "not UTF-8" in err


def test_replay_bad_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"format": "doublesix/1", ')
    code, _, err = run(capsys, "replay", str(path))
    assert code == 1
    assert "invalid record" in err and "not JSON" in err


def test_replay_wrong_format(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "other.json"
    path.write_text('{"format": "chess/pgn"}')
    code, _, err = run(capsys, "replay", str(path))
    assert code == 1
    assert "docs/record.md" in err


def test_replay_illegal_event_names_round_event_and_rule(
    capsys: pytest.CaptureFixture[str], record_file: Path
) -> None:
    data = json.loads(record_file.read_text())
    events = data["rounds"][0]["events"]
    k = next(i for i, e in enumerate(events) if i > 0 and "play" in e)
    seat = events[k]["seat"]
    held = set(data["rounds"][0]["deal"]["hands"][seat])
    events[k]["play"] = next(
        t for hand in data["rounds"][0]["deal"]["hands"] for t in hand if t not in held
    )
    record_file.write_text(json.dumps(data))
    code, out, err = run(capsys, "replay", str(record_file))
    assert code == 1
    assert f"round 1, event {k + 1}: " in err  # counted from 1, as the move list
    assert "(R8)" in err
    assert out == ""


def test_replay_wrong_result_names_the_rule(
    capsys: pytest.CaptureFixture[str], record_file: Path
) -> None:
    data = json.loads(record_file.read_text())
    result = data["rounds"][0]["result"]
    result["points"] = [p + 1 for p in result["points"]]
    record_file.write_text(json.dumps(data))
    code, _, err = run(capsys, "replay", str(record_file))
    assert code == 1
    assert "round 1" in err and "result.points" in err
    assert "(R26)" in err  # block scores winner_takes


# --- bench ----------------------------------------------------------------------


def test_bench_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "bench", "--preset", "block", "--seconds", "0.2", "--runs", "2", "--json"
    )
    assert code == 0
    figures = json.loads(out)
    assert figures["preset"] == "block" and figures["players"] == 4 and figures["runs"] == 2
    for key in (
        "rounds_per_second",
        "events_per_second",
        "api_rounds_per_second",
        "api_events_per_second",
    ):
        assert figures[key] > 0
    assert figures["events_per_second"] > figures["rounds_per_second"]


@pytest.mark.parametrize(("preset_name", "players"), [("draw", 2), ("kozel", 4), ("classic", 3)])
def test_bench_text(capsys: pytest.CaptureFixture[str], preset_name: str, players: int) -> None:
    argv = ["bench", "--preset", preset_name, "--players", str(players), "--seconds", "0.1"]
    code, out, _ = run(capsys, *argv, "--runs", "1")
    assert code == 0
    assert "fast core" in out and "public API" in out and "rounds/s" in out


@pytest.mark.parametrize(("option", "value"), [("--seconds", "0"), ("--runs", "0")])
def test_bench_bad_numbers(capsys: pytest.CaptureFixture[str], option: str, value: str) -> None:
    code, _, err = run(capsys, "bench", "--preset", "block", option, value)
    assert code == 2
    assert option in err


# --- play: a whole game from a script ---------------------------------------------------

# Every cycle tries an empty line, words, a move that does not exist and a tile
# that does not exist before a real answer; "2" then "1" answers the end question.
ANSWERS = ("", "abc", "99", "7-7", "2", "1")


def play(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    stdin: io.StringIO,
    *argv: str,
) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", stdin)
    return run(capsys, "play", *argv)


def test_play_a_whole_kozel_game(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    saved = tmp_path / "game.json"
    argv = ("--preset", "kozel", "--seed", "369", "--bots", "greedy", "--record", str(saved))
    code, out, err = play(capsys, monkeypatch, script(*ANSWERS), *argv)
    assert code == 0, err
    assert "At the table: You (seat 0), Bot 1 · greedy (seat 1), Bot 2 · greedy (seat 2)" in out
    assert "Pairs (R6): You & Bot 2 against Bot 1 & Bot 3." in out
    assert "— holds 1-1, played automatically (R18)" in out
    assert "Your moves:\n  1) " in out
    assert "fits both ends: 1) left" in out
    assert "Type a move's number" in out  # the empty line was asked again
    assert "There is no move 99" in out
    assert "'abc' is neither a move's number nor a tile" in out
    assert "knocks." in out
    assert "─── Round 1 over ───" in out and "Hands (R25):" in out
    assert "Pairs add their hands (R24)" in out
    assert "not written down (R36)" in out  # the 13-rule
    assert "Eggs: both pairs hold" in out and "(R35)" in out
    assert "alone: it counts " in out and "(R33)" in out
    assert "═══ Game over ═══" in out and "the Goat (R37)" in out
    assert "A dry win" in out
    assert f"Record saved to {saved}." in out
    code, _, err = run(capsys, "replay", str(saved))
    assert code == 0, err


def test_play_a_draw_game_shows_draws(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ("--preset", "draw", "--players", "2", "--seed", "22", "--bots", "greedy")
    code, out, _ = play(capsys, monkeypatch, script(*ANSWERS), *argv, "--set", "target=50")
    assert code == 0
    assert "boneyard " in out
    assert "You draw " in out and "(R9)" in out  # own drawn tiles by name
    assert "Bot 1 draws a tile." in out or "Bot 1 draws 2 tiles." in out  # others: a count
    assert "Domino! " in out
    assert "the others' hands" in out and "(R26)" in out
    assert "═══ Game over ═══" in out


@pytest.mark.parametrize(
    ("preset_name", "players"),
    [
        ("block", 3),
        ("vog-talon", 4),
        ("vog-block", 2),
        ("vog-goat", 4),
        ("international", 4),
        ("international-2", 2),
        ("classic", 4),
    ],
)
def test_play_every_preset_to_its_end(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    preset_name: str,
    players: int,
) -> None:
    argv = ("--preset", preset_name, "--players", str(players), "--seed", "1", "--target", "40")
    code, out, _ = play(capsys, monkeypatch, script("1"), *argv, "--bots", "random")
    assert code == 0
    assert "Opener: " in out and "═══ Game over ═══" in out and "Final score:" in out


def test_play_by_tile_and_end() -> None:
    """Moves can be typed as tiles with an end; an end that does not fit is refused (R5)."""
    ruleset = preset("block", 2, target=20)
    out = io.StringIO()
    game = TerminalGame(
        ruleset,
        [None, make_bot("greedy", 1)],
        ["Anna", "Ben"],
        seed=2,
        input=io.StringIO(),
        output=out,
    )
    wrong: list[str] = []

    class Answers(io.StringIO):
        def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
            rnd = game.game.round
            moves = rnd.legal_moves()
            if rnd.ending is not None or not moves:
                return "\n"  # continue after a round
            move = moves[-1]
            if move.end is None:
                return f"{move.tile}\n"
            other = "right" if move.end == "left" else "left"
            ends = rnd.ends or (0, 0)
            if not wrong and not move.tile.shows(ends[other == "right"]):
                wrong.append(f"{move.tile} {other}")
                return wrong[0] + "\n"
            return f"{move.tile} {move.end}\n"

    game.input = Answers()
    assert game.run() == 0
    text = out.getvalue()
    assert wrong
    assert f"{wrong[0].split()[0]} does not fit the {wrong[0].split()[1]} end (R5)" in text
    assert "═══ Game over ═══" in text
    assert "You play " in text


def test_R5_the_terminal_asks_no_end_where_both_ends_give_the_same_line() -> None:
    """A lone opening double: either end gives the same line, so the tile just goes on."""
    ruleset = preset("block", 2, hand_size=2, target="round")
    out = io.StringIO()
    terminal = TerminalGame(
        ruleset,
        [None, make_bot("greedy", 1)],
        ["Anna", "Bot 1"],
        seed=0,
        input=io.StringIO("1-6 left\n"),
        output=out,
    )
    # Bot 1's 6-6 is laid for it (R16); Anna's 1-6 fits both sixes of the lone double
    terminal.game = game_of(ruleset, make_deal(ruleset, "1-6 2-3", "6-6 0-4"))
    assert terminal.run() == 0
    text = out.getvalue()
    assert "Your moves:\n  1) 1-6\n" in text
    assert "fits both ends" not in text
    assert terminal.game.rounds[0].play.events[1] == Play(0, T("1-6"), End.RIGHT)
    assert "won the round and the game (R40)" in text


def test_play_end_of_input_leaves_cleanly(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = play(capsys, monkeypatch, io.StringIO("abc\n"), "--preset", "kozel")
    assert code == 0
    assert "You left the game." in out
    assert err == ""


def test_play_q_quits(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = play(capsys, monkeypatch, io.StringIO("q\n"), "--preset", "block", "--seed", "1")
    assert code == 0
    assert "You left the game." in out


def test_play_ctrl_c_exits_cleanly(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    class Interrupted(io.StringIO):
        def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
            raise KeyboardInterrupt

    code, out, err = play(capsys, monkeypatch, Interrupted(), "--preset", "draw", "--seed", "2")
    assert code == 130
    assert "Game interrupted." in out
    assert "Traceback" not in err


def test_play_refuses_a_measurement_bot(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "play", "--preset", "kozel", "--bots", "omniscient")
    assert code == 2
    assert "no bot 'omniscient'" in err


def test_play_bots_for_the_other_seats(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "play", "--preset", "kozel", "--bots", "random,greedy")
    assert code == 2
    assert "2 names for 3 seats" in err


def test_replay_reads_stdin(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, record_file: Path
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(record_file.read_text()))
    code, out, _ = run(capsys, "replay", "-")
    assert code == 0
    assert "-: valid doublesix/1 record" in out
