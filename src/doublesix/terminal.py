"""A game in the terminal: one human against bots (``doublesix play``).

The human sees what his seat may see — the line, his hand, the others' tile
counts — chooses from his legal moves by number (or by typing the tile), and
is asked for the end when a tile fits both. Forced events are shown as the
engine makes them ("Ben knocks", "Anna draws 3 tiles"; the human's own drawn
tiles by name). After each round every hand is shown and the scoring is
explained rule by rule; the next round starts when the human continues (R25).

Input and output are streams, so a whole game can be played from a script.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TextIO

from doublesix.bots.base import Bot
from doublesix.names import seat_label
from doublesix.rules.breakdown import Basis, SideScore
from doublesix.rules.deal import Redeal, RedealKind
from doublesix.rules.game import Game, GameRound
from doublesix.rules.moves import Draw, End, Event, Move, Pass, Play
from doublesix.rules.opening import Opening, OpeningReason
from doublesix.rules.ruleset import Ruleset, Scoring
from doublesix.rules.scoring import ResultKind, RoundResult
from doublesix.rules.view import seat_view
from doublesix.tiles import TILES, Tile

_QUIT = {"q", "quit", "exit"}
_END_WORDS = {"l": End.LEFT, "left": End.LEFT, "r": End.RIGHT, "right": End.RIGHT}


class Quit(Exception):
    """The human left the game (``q`` or the end of the input)."""


def _third_person(verb: str) -> str:
    return verb + ("es" if verb.endswith(("s", "sh", "ch", "x")) else "s")


def _sum(values: Sequence[int]) -> str:
    return " + ".join(str(v) for v in values) if len(values) > 1 else str(values[0])


def choices_text(count: int) -> str:
    return "1" if count == 1 else f"a number from 1 to {count}"


def _tiles(tiles: Sequence[Tile]) -> str:
    return "  ".join(str(t) for t in tiles) if tiles else "—"


class TerminalGame:
    """One game at the terminal; ``bots[seat]`` is None for the human's seat."""

    def __init__(
        self,
        ruleset: Ruleset,
        bots: Sequence[Bot | None],
        names: Sequence[str],
        *,
        seed: int,
        input: TextIO,
        output: TextIO,
        on_exit: Callable[[Game], str | None] | None = None,
    ) -> None:
        if len(bots) != ruleset.players or len(names) != ruleset.players:
            raise ValueError(f"need {ruleset.players} seats")
        humans = [seat for seat, bot in enumerate(bots) if bot is None]
        if len(humans) != 1:
            raise ValueError("exactly one seat is the human's")
        self.ruleset = ruleset
        self.bots = list(bots)
        self.names = list(names)
        self.human = humans[0]
        self.seed = seed
        self.input = input
        self.output = output
        self.on_exit = on_exit
        isatty = getattr(input, "isatty", None)
        self.echo = not (isatty is not None and isatty())
        """Echo the answers when they do not come from a terminal, for a readable transcript."""
        """Called with the game when it ends or is left; may return a line to show."""
        self.game = Game(ruleset, seed=seed)
        self._shown = 0

    # --- input and output -----------------------------------------------------

    def say(self, line: str = "") -> None:
        self.output.write(line + "\n")

    def ask(self, prompt: str) -> str:
        """A line of input; ``q`` or the end of the input leaves the game."""
        self.output.write(prompt)
        self.output.flush()
        line = self.input.readline()
        if not line:
            self.say()
            raise Quit
        if self.echo:
            self.output.write(line if line.endswith("\n") else line + "\n")
        text = line.strip().lower()
        if text in _QUIT:
            raise Quit
        return text

    def who(self, seat: int, verb: str) -> str:
        """``You play`` for the human, ``Ben plays`` for the others."""
        if seat == self.human:
            return f"You {verb}"
        return f"{self.names[seat]} {_third_person(verb)}"

    def label(self, seat: int) -> str:
        """The seat's name with its bot level: ``Bot 2 · expert``; a human's name alone."""
        bot = self.bots[seat]
        return seat_label(self.names[seat], None if bot is None else bot.name)

    def name(self, seat: int) -> str:
        return "you" if seat == self.human else self.names[seat]

    def side_does(self, side: int, verb: str) -> str:
        """``You & Carla score``, ``You score``, ``Ben scores``."""
        if self.ruleset.pairs:
            return f"{self.side(side)} {verb}"
        return self.who(side, verb)

    def side(self, side: int) -> str:
        if self.ruleset.pairs:
            return " & ".join(self.names[s] for s in self.ruleset.seats_of(side))
        return self.names[side]

    # --- the game ---------------------------------------------------------------

    def run(self) -> int:
        """Play the game to its end; returns the exit code (0; 130 after Ctrl-C)."""
        code = 0
        try:
            self._intro()
            while True:
                self._play_round()
                if self.game.finished:
                    self._game_over()
                    break
                self.ask(f"Press Enter for round {len(self.game.rounds) + 1} (q quits): ")
                self.game.next_round()
                self._shown = 0
        except Quit:
            self.say("You left the game.")
        except KeyboardInterrupt:
            self.say("\nGame interrupted.")
            code = 130
        if self.on_exit is not None:
            note = self.on_exit(self.game)
            if note:
                self.say(note)
        return code

    def _intro(self) -> None:
        r = self.ruleset
        self.say(f"doublesix — {r.preset}, {r.players} players, {self._target_text()}")
        seats = [f"{self.label(seat)} (seat {seat})" for seat in range(r.players)]
        self.say("At the table: " + ", ".join(seats))
        if r.pairs:
            self.say(f"Pairs (R6): {self.side(0)} against {self.side(1)}.")
        self.say(f"Seed {self.seed}. Choose a move by its number or tile (e.g. 2-5 left); q quits.")

    def _target_text(self) -> str:
        r = self.ruleset
        if r.single_round:
            return "one round: its winner wins the game (R40)"
        if r.scoring is Scoring.KOZEL:
            return f"the pair that passes {r.target} is the Goat and loses (R30, R37)"
        if r.scoring is Scoring.GOAT:
            return f"penalty points; reaching {r.target} loses, the lowest score wins (R30)"
        return f"the first to reach {r.target} points wins (R30)"

    def _play_round(self) -> None:
        game = self.game
        current = game.rounds[-1]
        number = len(game.rounds)
        self.say()
        self.say(f"═══ Round {number} ═══")
        for _, reason in current.redeals:
            held = self._redeal_text(reason)
            self.say(f"Redeal (R13): {held}; the tiles are shuffled and dealt again.")
        if number == 1 and game.lead_draws:
            drawn = ", ".join(f"{self.names[s]} {TILES[t]}" for s, t in game.lead_draws)
            self.say(f"Draw for the lead (R21): {drawn}.")
        opening = seat_view(game, self.human).opening  # its tile only if the human may see it
        self.say(f"Opener: {self.names[opening.seat]} — {opening_text(opening)}")
        self.say(f"Your hand: {_tiles(current.play.hand(self.human))}")
        self._show_events()
        while game.turn is not None:
            seat = game.turn
            bot = self.bots[seat]
            if bot is None:
                game.play(self._choose(), seat)
            else:
                game.play(bot.choose(seat_view(game, seat)), seat)
            self._show_events()
        self._round_over(current, number)

    def _redeal_text(self, redeal: Redeal) -> str:
        """R13's reason with the seat's name: ``Carla holds 6 tiles showing 3``."""
        who = self.names[redeal.seat]
        if redeal.kind is RedealKind.DOUBLES:
            return f"{who} holds {redeal.count} doubles"
        return f"{who} holds {redeal.count} tiles showing {redeal.number}"

    def _show_events(self) -> None:
        """Tell the new events of the round: plays, draws (own tiles by name), passes."""
        events: list[Event] = self.game.round.events[self._shown :]
        self._shown += len(events)
        i = 0
        while i < len(events):
            event = events[i]
            if isinstance(event, Draw):
                drawn = [event.tile]
                while (
                    i + 1 < len(events)
                    and isinstance(events[i + 1], Draw)
                    and events[i + 1].seat == event.seat
                ):
                    i += 1
                    drawn.append(events[i].tile)  # type: ignore[union-attr]
                if event.seat == self.human:
                    self.say(f"  You draw {', '.join(map(str, drawn))} (R9).")
                else:
                    count = "a tile" if len(drawn) == 1 else f"{len(drawn)} tiles"
                    self.say(f"  {self.who(event.seat, 'draw')} {count}.")
            elif isinstance(event, Pass):
                why = " — nothing left to draw" if self.ruleset.boneyard else ""
                self.say(f"  {self.who(event.seat, 'knock')}{why}.")
            elif isinstance(event, Play):
                if event.end is None:
                    self.say(f"  {self.who(event.seat, 'open')} with {event.tile}.")
                else:
                    self.say(f"  {self.who(event.seat, 'play')} {event.tile} on the {event.end}.")
            i += 1

    # --- the human's move --------------------------------------------------------

    def _show_table(self) -> None:
        rnd = self.game.round
        line = "".join(f"[{a}|{b}]" for a, b in rnd.laid_line())
        if rnd.ends is None:
            self.say("Line: empty — you open with any tile.")
        else:
            left, right = rnd.ends
            self.say(f"Line: {line}   (left end {left}, right end {right})")
        others = [
            f"{self.names[s]} {rnd.hands[s].bit_count()}"
            for s in range(self.ruleset.players)
            if s != self.human
        ]
        bone = f" · boneyard {rnd.boneyard_count}" if self.ruleset.boneyard else ""
        self.say(f"Tiles in hand: {' · '.join(others)}{bone}")
        hand = rnd.hand(self.human)
        self.say(f"Your hand: {_tiles(hand)}   (value {sum(t.value for t in hand)})")

    def _choose(self) -> Move:
        """Ask the human for a move until a legal one is given."""
        self._show_table()
        moves = self.game.legal_moves()
        options: list[Tile] = []
        ends: dict[Tile, list[End | None]] = {}
        for move in moves:
            if move.tile not in ends:
                options.append(move.tile)
                ends[move.tile] = []
            ends[move.tile].append(move.end)
        if self.game.round.forced:
            self.say(f"You must play the tile you drew, {options[0]} (R9).")
        alike = self._either_end_alike()
        if alike:  # e.g. a lone opening double: no end to choose, no question to ask
            ends = {t: fits[-1:] for t, fits in ends.items()}
        self.say("Your moves:")
        for number, t in enumerate(options, 1):
            where = "" if alike else " or ".join(str(e) for e in ends[t] if e is not None)
            self.say(f"  {number}) {t}" + (f" {where}" if where else ""))
        count = len(options)
        choices = "1" if count == 1 else f"1-{count}"
        while True:
            text = self.ask(f"Your move ({choices}): ")
            picked, end, error = self._parse(text, options)
            if picked is None:
                self.say(error or f"Type a move's number ({choices}) or its tile; q quits.")
                continue
            fits = ends[picked]
            if end is not None and alike:
                end = fits[0]
            if end is not None and end not in fits:
                only = " or ".join(str(e) for e in fits if e is not None) or "no end: it opens"
                self.say(f"{picked} does not fit the {end} end (R5); it fits {only}.")
                continue
            if end is None and len(fits) > 1:
                end = self._ask_end(picked)
            return Move(picked, end if end is not None else fits[0])

    def _either_end_alike(self) -> bool:
        """Both ends show the same number: a tile laid at either gives the same line (R5)."""
        ends = self.game.round.ends
        return ends is not None and ends[0] == ends[1]

    def _parse(self, text: str, options: list[Tile]) -> tuple[Tile | None, End | None, str]:
        words = text.split()
        end: End | None = None
        if len(words) > 1 and words[-1] in _END_WORDS:
            end = _END_WORDS[words.pop()]
        what = " ".join(words)
        if not what:
            return None, None, ""
        if what.isdigit():
            number = int(what)
            if 1 <= number <= len(options):
                return options[number - 1], end, ""
            return None, None, f"There is no move {number}; type {choices_text(len(options))}."
        try:
            picked = Tile.parse(what)
        except ValueError:
            return None, None, f"{what!r} is neither a move's number nor a tile; q quits."
        if picked not in options:
            return None, None, f"{picked} is not one of your moves now."
        return picked, end, ""

    def _ask_end(self, picked: Tile) -> End:
        left, right = self.game.round.ends or (0, 0)
        while True:
            text = self.ask(f"{picked} fits both ends: 1) left ({left})  2) right ({right})? ")
            if text in ("1", "l", "left"):
                return End.LEFT
            if text in ("2", "r", "right"):
                return End.RIGHT
            self.say("Type 1 (left) or 2 (right); q quits.")

    # --- the end of a round and of the game ---------------------------------------

    def _round_over(self, current: GameRound, number: int) -> None:
        result = current.result
        assert result is not None
        rnd = current.play
        self.say(f"─── Round {number} over ───")
        if result.kind is ResultKind.DOMINO:
            self.say(f"Domino! {self.who(rnd.last_seat, 'play')} the last tile (R22).")
        elif result.kind in (ResultKind.FISH, ResultKind.EGGS):
            self.say("Fish: nobody can play (R23, R34).")
        else:
            draw = " and nothing can be drawn" if self.ruleset.boneyard else ""
            self.say(f"Blocked: nobody can play{draw} (R23).")
        self.say("Hands (R25):")
        width = max(len(n) for n in self.names)
        rows = [(count, row.rule) for row in result.breakdown for count in row.hands]
        for count, rule in sorted(rows, key=lambda pair: pair[0].seat):
            name = self.names[count.seat]
            line = f"  {name:<{width}}  {_tiles(count.tiles):<30} {count.value:>3}"
            if count.lone is not None:
                line += f"  counts {count.counted}: {count.tiles[0]} alone ({rule})"
            self.say(line)
        if self.ruleset.pairs:
            sums = [
                f"{self.side(row.side)} {_sum([c.counted for c in row.hands])} = {row.total}"
                for row in result.breakdown
            ]
            self.say(f"Pairs add their hands (R24): {'; '.join(sums)}.")
        for line in self.explain(result):
            self.say(line)
        scores = " · ".join(
            f"{self.side(s)} {score}" for s, score in enumerate(result.scores_after)
        )
        self.say(f"Score: {scores}")

    def explain(self, result: RoundResult) -> list[str]:
        """How the round was scored, side by side, from the result's breakdown."""
        rows = result.breakdown
        if result.kind is ResultKind.EGGS:
            earlier = result.eggs_carried - result.eggs_laid
            older = f", with {earlier} from earlier eggs" if earlier else ""
            return [
                f"Eggs: both pairs hold {rows[0].total} pips; nobody is charged, and "
                f"{result.eggs_carried} points{older} go to the loser of the next round "
                f"({rows[0].rule})."
            ]
        if result.winner_seat is None:
            low = min(row.total for row in rows)
            tied = " and ".join(self.side(row.side) for row in rows if row.total == low)
            return [f"Tied: {tied} share the lowest value, {low}; nobody scores ({rows[0].rule})."]
        won = self.ruleset.side_of(result.winner_seat)
        lines = []
        if result.kind is ResultKind.BLOCKED:
            lines.append(f"{self.side(won)}: the lowest value, {rows[won].total}, wins (R23).")
        for row in rows:
            lines += self._explain_row(result, row, won)
        return lines

    def _explain_row(self, result: RoundResult, row: SideScore, won: int) -> list[str]:
        """One side's points: what they rest on, eggs (R35) and the 13-rule (R36)."""
        side = self.side(row.side)
        others = [r for r in result.breakdown if r.side != row.side]
        counted = [c.counted for other in others for c in other.hands]
        if row.basis is Basis.NOTHING:
            if row.side == won and row.rule in ("R28", "R28a"):
                return [f"{side}: charged nothing ({row.rule})."]
            return []
        if row.basis is Basis.OPPONENTS:
            how = f"{_sum(counted)} = {row.points}"
            return [f"{self.side_does(row.side, 'score')} the others' hands: {how} ({row.rule})."]
        if row.basis is Basis.OPPONENTS_LESS_OWN:
            how = f"({_sum(counted)}) − {row.total} = {row.points}"
            scores = self.side_does(row.side, "score")
            return [f"{scores} the others' hands minus the own: {how} ({row.rule})."]
        if row.basis is Basis.ALL_HANDS:
            every = _sum([c.value for r in result.breakdown for c in r.hands])
            heavier = f"{side}, with more pips ({row.total} against {others[0].total}),"
            lines = [f"{heavier} are charged all four hands, {every} = {row.base} ({row.rule})."]
        elif result.kind is ResultKind.FISH:
            heavier = f"{side}, with more pips ({row.total} against {others[0].total}),"
            lines = [f"{heavier} are charged their own pips, {row.base} (R34, {row.rule})."]
        else:
            lines = [
                f"{self.who(c.seat, 'hold')} {c.tiles[0]} alone: it counts {c.counted} "
                f"({row.rule})."
                for c in row.hands
                if c.lone is not None
            ]
            own = _sum([c.counted for c in row.hands])
            lines.append(f"{side}: charged {own} = {row.base}, the hands left ({row.rule}).")
        charge = row.base
        if row.eggs:
            charge += row.eggs
            lines.append(f"Plus {row.eggs} in eggs from earlier rounds: {charge} (R35).")
        if row.dropped:
            below = f"{charge} is below 13: not written down (R36)"
            lines.append(f"{side}: still at 0 points, and {below}.")
        return lines

    def _game_over(self) -> None:
        result = self.game.result
        r = self.ruleset
        winners = " and ".join(self.side(s) for s in result.winners)
        losers = " and ".join(self.side(s) for s in result.losers)
        self.say()
        self.say("═══ Game over ═══")
        if r.single_round:
            if result.winners:
                self.say(f"{winners} won the round and the game (R40).")
            else:
                self.say("The round was tied: nobody wins the game (R40).")
        elif r.scoring is Scoring.KOZEL:
            self.say(f"{losers} passed {r.target}: the Goat (R37). {winners} win.")
            if result.dry_win:
                self.say(f"A dry win: {winners} still have 0 points (R37)!")
        elif r.scoring is Scoring.GOAT:
            self.say(f"{losers} reached {r.target}; the lowest score wins: {winners} (R30).")
        else:
            self.say(f"{winners} reached {r.target} and won (R30).")
        scores = " · ".join(f"{self.side(s)} {v}" for s, v in enumerate(result.scores))
        self.say(f"Final score: {scores}")
        if self.human_won():
            self.say("Well played — you won!")

    def human_won(self) -> bool:
        return self.ruleset.side_of(self.human) in self.game.result.winners


def opening_text(opening: Opening) -> str:
    """Why a seat opens (R16–R21) and whether its tile was played for it."""
    tile = "" if opening.tile is None else f", {opening.tile}"
    rule = opening.rule
    if opening.forced:
        what = {
            OpeningReason.HIGHEST_DOUBLE: f"holds the highest double{tile}",
            OpeningReason.HEAVIEST_TILE: f"no double dealt; holds the heaviest tile{tile}",
            OpeningReason.ONE_ONE: "holds 1-1",
        }[opening.reason]
        return f"{what}, played automatically ({rule})"
    what = {
        OpeningReason.HEAVIEST_TILE: f"holds the heaviest tile{tile}",
        OpeningReason.PREVIOUS_WINNER: "won the last round",
        OpeningReason.LAST_PLACER: "placed the last tile of the last round",
        OpeningReason.LOWEST_DOUBLE: f"holds the lowest double (0-0 aside){tile}",
        OpeningReason.LOWEST_TILE: f"no double but 0-0 dealt; holds the lowest tile{tile}",
        OpeningReason.LEAD_DRAW: f"drew the highest tile for the lead{tile}",
        OpeningReason.LEAD_PASSES: "the lead passes one seat clockwise",
    }[opening.reason]
    return f"{what}: opens with any tile ({rule})"
