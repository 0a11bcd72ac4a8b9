"""``choice_net``: the network's model of the others' choices, in both cores, read honestly."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from doublesix.bots import make_bot
from doublesix.bots.choice_net import (
    FEATURES,
    HIDDEN,
    NETS,
    Net,
    NetBot,
    NetModel,
    features,
    load,
    public_rows,
)
from doublesix.bots.fitted import STYLES, StyleModel
from doublesix.bots.inference import Knowledge, infer
from doublesix.bots.native import core
from doublesix.bots.sampler import Sample, Sampler, choices
from doublesix.rules.game import Game
from doublesix.rules.moves import Play
from doublesix.rules.ruleset import preset
from doublesix.rules.view import SeatView, seat_view
from doublesix.tiles import HIGH, LOW, SUIT


def _net(seed: int) -> Net:
    rng = random.Random(seed)
    return (
        [rng.gauss(0, 0.5) for _ in range(FEATURES * HIDDEN)],
        [rng.gauss(0, 0.5) for _ in range(HIDDEN)],
        [rng.gauss(0, 1.0) for _ in range(HIDDEN)],
    )


def _game(name: str, players: int, seed: int) -> tuple[list[SeatView], dict[int, SeatView]]:
    """Views of one round of random play: some later views of every seat, and each play's
    chooser's own view just before it (by event index)."""
    game = Game(preset(name, players), seed=seed)
    rng = random.Random(seed)
    later: list[SeatView] = []
    before: dict[int, SeatView] = {}
    while game.turn is not None:
        seat = game.turn
        legal = game.legal_moves()
        view = seat_view(game, seat)
        before[len(view.events)] = view
        if len(legal) > 1 and rng.random() < 0.3:
            later.extend(seat_view(game, s) for s in range(players) if s != seat)
        game.play(rng.choice(legal))
    return later, before


KINDS = [("kozel", 4), ("draw", 2), ("draw", 3), ("block", 4)]


@pytest.mark.parametrize(("name", "players"), KINDS)
def test_what_everyone_saw_is_what_the_chooser_saw(name: str, players: int) -> None:
    """A play's public row, read from a later view of another seat, is what the chooser's own
    view showed then: the line, its next seat's and partner's known voids, the boneyard."""
    checked = 0
    for seed in range(8):
        later, before = _game(name, players, seed)
        for view in later:
            for i, row in public_rows(view).items():
                if i not in before:  # a play made for its holder (R16, R18)
                    continue
                chooser = before[i]
                k = infer(chooser)
                s, n = chooser.seat, players
                played = 0
                for a, b in chooser.line:
                    played |= 1 << next(t for t in range(28) if {LOW[t], HIGH[t]} == {a, b})
                partner = k.void((s + 2) % n) if n == 4 else 0
                assert isinstance(view.events[i], Play)
                assert row == (played, k.void((s + 1) % n), partner, chooser.boneyard_count)
                checked += 1
    assert checked > 50


def test_features_read_the_chooser_s_hand_and_the_table() -> None:
    # hand 6-6 (27) and 6-5 (26) and 0-0 (0); ends 6 and 1; the next seat lacks 5
    hand = 1 << 27 | 1 << 26 | 1 << 0
    rows = dict(features(hand, hand & ~1, 6, 1, (0, 1 << 5, 0, 0)))
    double, five = rows[27], rows[26]
    assert double[1] == 1.0 and five[1] == 0.0
    assert five[7] == 1.0 and double[7] == 0.0  # 6-5 opens 5, which the next seat lacks
    assert double[2] == 1 / 7  # after 6-6 the 6-5 still fits the 6
    assert five[9] == 3 / 7


def _deals(
    name: str, players: int, seeds: int, every: int, count: int
) -> Iterator[tuple[SeatView, Knowledge, list[Sample]]]:
    """Views of rounds of random play (every ``every``-th later view of ``seeds`` games), each
    with its knowledge and ``count`` deals drawn for it."""
    for seed in range(seeds):
        later, _ = _game(name, players, seed)
        for view in later[::every]:
            k = infer(view)
            sampler = Sampler(k, random.Random(seed))
            yield view, k, [sampler.sample() for _ in range(count)]


@pytest.mark.parametrize("styles", [False, True])
@pytest.mark.parametrize(("name", "players"), KINDS)
def test_both_cores_weigh_every_deal_alike(name: str, players: int, styles: bool) -> None:
    kind = f"{name}-{players}"
    model = NetModel({kind: _net(players)}, STYLES if styles else None)
    weighed = 0
    for view, k, deals in _deals(name, players, 8, 2, 40):
        model.prepare(view)
        for s in deals:
            assert model.log_likelihood(k, s) == model.mirrored(k, s)
            weighed += len(k.decisions)
    assert weighed > 300


def test_a_kind_without_a_network_is_weighed_by_the_logit() -> None:
    later, _ = _game("kozel", 4, 1)
    view = later[-1]
    model = NetModel({"draw-2": _net(1)})
    model.prepare(view)
    assert model.net is None
    k = infer(view)
    s = Sampler(k, random.Random(1)).sample()
    assert model.log_likelihood(k, s) == NetModel({}).mirrored(k, s)


def test_without_a_network_the_styles_weigh_as_style_model_does() -> None:
    """The C core's mixture of styles over the logit is ``StyleModel``'s, to the last bit."""
    model = NetModel({}, STYLES)
    weighed = 0
    for view, k, deals in _deals("kozel", 4, 6, 3, 20):
        model.prepare(view)
        for s in deals:
            assert model.log_likelihood(k, s) == StyleModel().log_likelihood(k, s)
            weighed += 1
    assert weighed > 100


@pytest.mark.parametrize(("name", "players"), [("draw", 2), ("kozel", 4)])
def test_a_heaviest_first_seat_weighs_its_deals_as_one(name: str, players: int) -> None:
    """Some plays into a round where seat 1 is ``greedy``: the deals in which it held no
    heavier playable tile than each it played weigh more than the others, with the styles,
    in every game; without them (the network's player alone) by less in every game."""
    nets = load(NETS)
    plain_gaps, styled_gaps = [], []
    for seed in range(1, 6):
        game = Game(preset(name, players), seed=seed)
        bots = [make_bot("greedy" if s == 1 else "random", s + 1) for s in range(players)]
        while len(game.round.events) < 5 * players and game.round.ending is None:
            seat = game.round.turn
            game.play(bots[seat].choose(seat_view(game, seat)))
        view = seat_view(game, 0)
        k = infer(view)
        sampler = Sampler(k, random.Random(3))
        pool = [sampler.sample() for _ in range(300)]
        heaviest = [s for s in pool if _heaviest_always(k, s, 1)]
        others = [s for s in pool if not _heaviest_always(k, s, 1)]
        if not heaviest or not others:
            continue
        for gaps, styles in ((plain_gaps, None), (styled_gaps, STYLES)):
            model = NetModel(nets, styles)
            model.prepare(view)
            gaps.append(_mean(model, k, heaviest) - _mean(model, k, others))
    assert len(styled_gaps) >= 4
    assert all(g > 0 for g in styled_gaps)
    assert all(g > p for g, p in zip(styled_gaps, plain_gaps, strict=True))


def _mean(model: NetModel, k: Knowledge, deals: list[Sample]) -> float:
    return sum(model.log_likelihood(k, s) for s in deals) / len(deals)


def _heaviest_always(k: Knowledge, s: Sample, seat: int) -> bool:
    """Whether, in deal ``s``, every choice ``seat`` made was its heaviest playable tile."""
    return all(
        playable.bit_length() - 1 == d.tile
        for d, _, playable in choices(k, s)
        if d.seat == seat and playable & (playable - 1)
    )


def test_a_network_or_public_row_out_of_shape_is_refused() -> None:
    w1, b1, w2 = _net(1)
    played, kept = [t for t in range(28) if (SUIT[1] | SUIT[2]) >> t & 1][:2]
    args = (4, [(1, 3, played, 1, 2)], [[], [], [], []], [0.0] * 28, 0.1, 0.2, 0.1)
    assert core is not None
    with pytest.raises(ValueError, match="w1"):
        core.Seen(*args, [(0, 0, 0, 0)], (w1[:-1], b1, w2))
    with pytest.raises(ValueError, match="public: one row per decision"):
        core.Seen(*args, [], (w1, b1, w2))
    with pytest.raises(ValueError, match="public: played, voids or boneyard out of range"):
        core.Seen(*args, [(0, 128, 0, 0)], (w1, b1, w2))
    with pytest.raises(ValueError, match="public"):
        core.Seen(*args, [(0, 0, 0)], (w1, b1, w2))
    seats = [(-0.1, -2.0, -2.0)] * 4
    with pytest.raises(TypeError):
        core.Seen(*args, None, None, (seats,))  # the slip missing
    with pytest.raises(ValueError, match="styles: the slip is a chance"):
        core.Seen(*args, None, None, (seats, 1.0))
    with pytest.raises(ValueError, match="styles: 4 items expected"):  # one a seat
        core.Seen(*args, None, None, (seats[:3], 0.02))
    with pytest.raises(ValueError, match="styles: 3 items expected"):  # one a style
        core.Seen(*args, None, None, ([(-0.1, -2.0)] * 4, 0.02))
    seen = core.Seen(*args, [(0, 0, 0, 0)], (w1, b1, w2))
    assert seen.log_likelihood([0, 1 << kept, 0, 0], [[], [], [], []]) < 0.0  # a choice of two


def test_expert_s_endgame_weighs_by_the_tree_s_own_network() -> None:
    """The exact search that ends ``expert``'s rounds draws its deals as the tree does: by the
    network, and by whatever model a measurement puts in its place (``expert-peek``)."""
    bot = make_bot("expert", 1)
    assert isinstance(bot, NetBot)
    assert bot.endgame().model is bot.net_model
    stand_in = NetModel({})
    bot.model = stand_in
    assert bot.endgame().model is stand_in
