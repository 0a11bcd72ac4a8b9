"""``reading``: each seat's style read from the game's earlier rounds, honestly."""

from __future__ import annotations

import math
import random
from collections.abc import Iterator

import pytest

from doublesix.bots import make_bot
from doublesix.bots.base import Bot
from doublesix.bots.choice_net import NetBot, NetModel, expert_model, nets
from doublesix.bots.fitted import HEAVIEST_SLIP, STYLES
from doublesix.bots.hint import hint
from doublesix.bots.inference import ends_after, infer
from doublesix.bots.reading import (
    FLOOR,
    Chance,
    Reading,
    Readings,
    read_choices,
    seat_styles,
)
from doublesix.bots.sampler import Sampler
from doublesix.bots.tables import SUIT
from doublesix.rules.deal import Deal, RecordedDealer
from doublesix.rules.game import Game
from doublesix.rules.moves import Draw, Move, Play
from doublesix.rules.ruleset import Ruleset, preset
from doublesix.rules.view import PlayedRound, SeatView, seat_view

PRIOR = (math.log(STYLES[0]), math.log(STYLES[1]), math.log(STYLES[2]))


def _play(game: Game, bots: list[Bot], rounds: int) -> dict[tuple[int, int], int]:
    """Play ``game`` on into its round ``rounds + 1`` (or to its end); per (round, event index)
    of each play, the hand its seat held just before it."""
    held: dict[tuple[int, int], int] = {}
    while not game.finished and len(game.rounds) <= rounds:
        if game.turn is None:
            game.next_round()
            continue
        seat = game.turn
        held[len(game.rounds) - 1, len(game.round.events)] = game.round.hands[seat]
        game.play(bots[seat].choose(seat_view(game, seat)), seat)
    return held


@pytest.mark.parametrize(("name", "players"), [("kozel", 4), ("draw", 2), ("draw", 3)])
def test_a_past_play_is_read_from_the_hand_it_was_chosen_from(name: str, players: int) -> None:
    """Every play read is read with the hand its seat held then; every play with a choice is
    read, but the seat's own, leads and plays before their seat's last draw of the round."""
    read = 0
    for seed in range(6):
        game = Game(preset(name, players, target=400), seed=seed)
        held = _play(game, [make_bot("random", s) for s in range(players)], 3)
        if game.finished:
            continue
        me = seed % players
        view = seat_view(game, me)
        assert len(view.past_rounds) == len(game.rounds) - 1 == 3
        for r, played in enumerate(view.past_rounds):
            got = {d.index: (d, hand, fits) for d, hand, fits in read_choices(played, me)}
            events = game.rounds[r].play.events
            last_draw = {e.seat: i for i, e in enumerate(events) if isinstance(e, Draw)}
            left = right = -1
            for i, e in enumerate(events):
                if not isinstance(e, Play):
                    continue
                if left < 0:  # a lead, which may be played for its holder (R16)
                    left, right = ends_after(e, left, right)
                    continue
                hand = held[r, i]
                fits = hand & (SUIT[left] | SUIT[right])
                known = last_draw.get(e.seat, -1) < i
                if e.seat != me and known and fits & (fits - 1):
                    d, got_hand, got_fits = got.pop(i)
                    assert (d.seat, d.tile, d.left, d.right) == (e.seat, e.tile.index, left, right)
                    assert (got_hand, got_fits) == (hand, fits)
                    read += 1
                left, right = ends_after(e, left, right)
            assert not got  # nothing read that should not be
    assert read > 20


def test_a_seat_s_style_is_read_from_its_plays() -> None:
    """Two rounds in, a ``greedy`` seat is a heaviest-first player and a ``random`` one a
    random player by the most of their shares; the reader's own seat keeps the prior, and no
    share falls below ``FLOOR``."""
    model = NetModel(nets())
    for seed in range(1, 5):
        game = Game(preset("kozel", target=400), seed=seed)
        names = ["random", "greedy", "medium", "random"]
        _play(game, [make_bot(n, s) for s, n in enumerate(names)], 2)
        view = seat_view(game, 0)
        styles = seat_styles(view.ruleset, view.past_rounds, 0, PRIOR, 0.02, model)
        shares = [[math.exp(x) for x in s] for s in styles]
        assert styles[0] == PRIOR
        assert shares[1][1] > 0.9
        assert shares[3][2] > max(shares[3][0], shares[3][1])
        for s in shares:
            assert sum(s) == pytest.approx(1.0)
            assert min(s) >= FLOOR * 0.999


class _Counted:
    """A ``ChoiceModel`` counting the rounds read with it (``NetModel``'s chances)."""

    def __init__(self) -> None:
        self.model = NetModel(nets())
        self.read = 0

    def chance_in(self, ruleset: Ruleset, played: PlayedRound) -> Chance:
        self.read += 1
        return self.model.chance_in(ruleset, played)


def test_a_game_s_rounds_are_read_once_each_to_the_same_shares() -> None:
    """The process's readings, through every decision of two games in turn, read each round
    before once per seat, and the shares are, to the last bit, those of reading every round
    afresh; so are those of a ``NetModel`` made afresh for every decision, as the server's
    workers make the bot, with one ``Readings`` for all of them."""
    counted = _Counted()
    readings = Readings(0.02)
    shared = Readings(HEAVIEST_SLIP)
    fresh = NetModel(nets())
    names = ["greedy", "random", "medium", "random"]
    rounds_seen = 0
    for seed in (3, 4):
        game = Game(preset("kozel", target=400), seed=seed)
        bots = [make_bot(n, s) for s, n in enumerate(names)]
        most = {0: 0, 1: 0}
        while not game.finished and len(game.rounds) <= 3:
            if game.turn is None:
                game.next_round()
                continue
            seat = game.turn
            view = seat_view(game, seat)
            if seat in most:
                past = view.past_rounds
                expected = seat_styles(view.ruleset, past, seat, PRIOR, 0.02, fresh)
                assert readings.styles(view.ruleset, seat, past, PRIOR, counted) == expected
                model = NetModel(nets(), STYLES, shared)
                model.prepare(view)
                assert model.seat_styles == seat_styles(
                    view.ruleset, past, seat, PRIOR, HEAVIEST_SLIP, fresh
                )
                most[seat] = max(most[seat], len(past))
            game.play(bots[seat].choose(view), seat)
        rounds_seen += sum(most.values())
    assert rounds_seen >= 8
    assert counted.read == rounds_seen
    assert len(readings) == len(shared) == 4  # two seats of two games


def test_the_readings_forget_the_least_recently_used() -> None:
    """Beyond its size, the seat read longest ago is forgotten and read again when asked."""
    game = Game(preset("kozel", target=400), seed=5)
    _play(game, [make_bot(n, s) for s, n in enumerate(["greedy", "random"] * 2)], 2)
    views = [seat_view(game, seat) for seat in (0, 1, 0)]
    for size, reads in ((2, 4), (1, 6)):
        counted = _Counted()
        readings = Readings(0.02, size)
        for v in views:
            readings.styles(v.ruleset, v.seat, v.past_rounds, PRIOR, counted)
        assert counted.read == reads
        assert len(readings) == size


def test_a_reading_moved_to_another_seat_or_game_starts_again() -> None:
    game = Game(preset("kozel", target=400), seed=5)
    _play(game, [make_bot(n, s) for s, n in enumerate(["greedy", "random"] * 2)], 2)
    other = Game(preset("kozel", target=400), seed=6)
    _play(other, [make_bot(n, s) for s, n in enumerate(["greedy", "random"] * 2)], 2)
    view = seat_view(game, 0)
    past = view.past_rounds
    reading = Reading(view.ruleset, 0, 0.02).read(past, NetModel(nets()))
    assert reading.continues(view.ruleset, 0, past)
    assert not reading.continues(view.ruleset, 1, seat_view(game, 1).past_rounds)
    assert not reading.continues(view.ruleset, 0, seat_view(other, 0).past_rounds)
    assert not reading.continues(view.ruleset, 0, past[:1])
    assert not reading.continues(preset("kozel", target=101), 0, past)
    # the same last round is not enough: every round read must be the game's
    assert not reading.continues(view.ruleset, 0, (seat_view(other, 0).past_rounds[0], past[1]))


def test_without_rounds_before_every_seat_keeps_the_prior() -> None:
    view = seat_view(Game(preset("kozel"), seed=2), 1)
    assert view.past_rounds == ()
    assert seat_styles(view.ruleset, (), 1, PRIOR, 0.02, NetModel(nets())) == [PRIOR] * 4


@pytest.mark.parametrize(("name", "players"), [("kozel", 4), ("draw", 2)])
def test_both_cores_weigh_deals_alike_with_each_seat_s_styles(name: str, players: int) -> None:
    """Later rounds' deals, weighed with the styles read seat by seat: the C core's weight is
    the Python mirror's to the last bit, and the seats' shares differ."""
    model = NetModel(nets(), STYLES, Readings(HEAVIEST_SLIP))
    weighed = 0
    for seed in range(3):
        game = Game(preset(name, players, target=400), seed=seed)
        names = ["greedy", "random", "greedy", "random"]
        bots = [make_bot(names[s], s) for s in range(players)]
        _play(game, bots, 2)
        while game.turn is not None and len(game.round.events) < 2 * players:
            game.play(bots[game.turn].choose(seat_view(game, game.turn)), game.turn)
        if game.turn is None:
            continue
        view = seat_view(game, game.turn)
        model.prepare(view)
        assert len(set(model.seat_styles)) > 1
        k = infer(view)
        sampler = Sampler(k, random.Random(seed))
        for _ in range(30):
            s = sampler.sample()
            assert model.log_likelihood(k, s) == model.mirrored(k, s)
            weighed += 1
    assert weighed >= 60


def _twin_views(count: int) -> Iterator[tuple[SeatView, SeatView]]:
    """``count`` Kozel decisions in a game's second round, each beside the same decision in
    a game whose round's hidden tiles were dealt again any way its public events allow (the
    round before as it was): one view, two deals. At least one of them differs in its
    hands."""
    rules = preset("kozel", target=400)
    checked = differed = 0
    for seed in range(12):
        game = Game(rules, seed=seed)
        bots: list[Bot] = [make_bot(n, s) for s, n in enumerate(["greedy", "random"] * 2)]
        _play(game, bots, 1)
        rng = random.Random(seed)
        for _ in range(rng.randrange(4, 9)):
            if game.turn is None:
                break
            game.play(rng.choice(game.legal_moves()), game.turn)
        first, now = game.rounds
        if game.turn is None or len(game.legal_moves()) < 2 or now.redeals:
            continue
        me = game.turn
        view = seat_view(game, me)
        k = infer(view)
        sample = Sampler(k, random.Random(seed)).sample()
        hands = tuple(sample.hands[s] | k.played_by[s] for s in range(4))
        deals = [d for d, _ in first.redeals] + [first.deal, Deal(hands, (), 0)]
        other = Game(rules, dealer=RecordedDealer(deals, []))
        for rnd in (first, now):
            if other.turn is None:
                other.next_round()
            for e in rnd.play.events[len(other.round.events) :]:  # after those made for it
                if isinstance(e, Play):
                    other.play(Move(e.tile, e.end))
        if other.rounds[-1].redeals:  # the other deal is one R13 throws in
            continue
        other_view = seat_view(other, me)
        assert other_view == view
        differed += other.round.hands != game.round.hands
        yield view, other_view
        checked += 1
        if checked >= count:
            break
    assert checked == count and differed


def test_the_reading_bot_decides_from_its_view_only() -> None:
    """``ismcts-net-read`` makes the same move in both deals, though the round before changed
    what it weighs by."""
    for view, other_view in _twin_views(3):
        bot = _bot(3)
        assert bot.choose(view) == _bot(3).choose(other_view)
        assert any(s != PRIOR for s in bot.net_model.seat_styles)


def test_the_hint_on_expert_s_model_is_from_the_view_only() -> None:
    """The hint weighing its deals by ``expert``'s model gives the same figures in both deals,
    and the rounds before moved that model off its prior."""
    for view, other_view in _twin_views(3):
        model = expert_model(view)
        assert any(s != PRIOR for s in model.seat_styles)
        shown = hint(view, ms=3, seed=5, model=model)
        assert shown == hint(other_view, ms=3, seed=5, model=expert_model(other_view))


def _bot(seed: int) -> NetBot:
    bot = make_bot("ismcts-net-read", seed)
    assert isinstance(bot, NetBot)
    bot.ms_per_move = 3.0
    return bot


def test_bots_of_a_reading_level_share_the_process_s_readings() -> None:
    """The server makes a bot for every decision: every ``expert`` made in the process
    continues the same readings, and no other level's."""
    bots = [make_bot(name, seed) for name, seed in [("expert", 1), ("expert", 2)]]
    other = make_bot("ismcts-net-read", 1)
    assert all(isinstance(b, NetBot) for b in [*bots, other])
    first, second = (b.net_model.readings for b in bots if isinstance(b, NetBot))
    assert first is not None and first is second
    assert isinstance(other, NetBot) and other.net_model.readings not in (None, first)
