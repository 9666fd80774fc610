"""``liarsdice play --rules poker-dice``: poker dice in plain lines, for terminals and pipes.

One set of five poker dice and one cup go round the table (see ``docs/POKER.md``). The dice
under the cup are shown only to the player holding it, and in hot-seat games the screen is
scrolled clean before it is handed on; everything else printed is public: the outside dice,
bids, lives, the direction and every reveal.

>>> parse_poker_command("a pair of kings")
('move', 'pair K')
>>> parse_poker_command("Shake and roll 9, 10")
('move', 'shake reroll 9 10')
>>> parse_poker_command("no shake")
('move', 'no reroll')
>>> parse_poker_command("roll K")
('move', 'reroll K')
>>> parse_poker_command("keep q queens"), parse_poker_command("Liar!")
(('move', 'keep Q Q'), ('move', 'liar'))
>>> parse_poker_command("pair Z")[0]
'error'
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.markup import escape

from liarsdice.bots import PokerBot, PokerProbBot, make_bot
from liarsdice.bots.poker import accept_odds, best_reroll, five_keep
from liarsdice.cli.terminal import Terminal, pct
from liarsdice.core.errors import IllegalActionError, LiarsDiceError, NotationError
from liarsdice.core.game import CHANCE
from liarsdice.core.poker import (
    ACCEPT,
    ALL_BIDS,
    LEFT,
    LIAR,
    RIGHT,
    Category,
    Phase,
    PokerBid,
    PokerGame,
    PokerRoundResult,
    PokerRules,
    PokerState,
    PokerView,
    format_face,
    format_poker_bid,
    hand_bid,
    parse_face,
    parse_poker_bid,
    poker_bid_words,
    poker_preset,
)
from liarsdice.core.poker.state import FIVE_ROLLS

__all__ = ["PokerSession", "parse_poker_command", "play_poker"]


_QUIT = {"quit", "exit", "q", "bye"}
_HELP = {"help", "?", "h", "commands"}
_HINT = {"hint", "hints", "odds"}
_STATUS = {"status", "look", "dice", "board", "s"}
_LIAR = {"liar", "call", "call liar", "dudo", "lie", "you lie", "liar liar"}
_ACCEPT = {"accept", "take", "take it", "take the cup", "ok", "i accept"}
_NO_ROLL = {"no shake", "dont shake", "no reroll", "no roll", "stay", "roll none", "keep all"}
_FACES_RE = r"[0-9a-z ]*"


def _clean(text: str) -> str:
    return " ".join(re.sub(r"[,;:!.'’]", " ", text.strip().lower()).split())


def _norm_faces(text: str) -> str:
    """Faces in symbols (``k`` -> ``K``, ``kings`` -> ``K``); other words left as typed."""
    out = []
    for tok in text.split():
        try:
            out.append(format_face(parse_face(tok)))
        except NotationError:
            out.append(tok)
    return " ".join(out)


def parse_poker_command(text: str) -> tuple[str, str]:
    """Read one line as ``(kind, argument)``: ``move`` with a move in the engine's notation
    (:meth:`~liarsdice.core.poker.PokerGame.string_to_action`), ``quit``, ``help``, ``hint``,
    ``status``, ``empty`` or ``error`` (with the message)."""
    low = _clean(text)
    if not low:
        return ("empty", "")
    if low in _QUIT:
        return ("quit", "")
    if low in _HELP:
        return ("help", "")
    if low in _HINT:
        return ("hint", "")
    if low in _STATUS:
        return ("status", "")
    if low in _LIAR:
        return ("move", "liar")
    if low in _ACCEPT:
        return ("move", "accept")
    for word in ("left", "right"):
        if low in (word, f"pass {word}", f"pass it {word}", f"pass the cup {word}"):
            return ("move", word)
    if low in _NO_ROLL:
        return ("move", "no reroll")
    m = re.fullmatch(r"(no shake|dont shake)? ?(?:and )?(?:re)?roll (" + _FACES_RE + ")", low)
    if m:
        return ("move", f"reroll {_norm_faces(m.group(2))}")
    m = re.fullmatch(r"shake(?: the cup)?(?: (?:and )?(?:re)?roll (" + _FACES_RE + "))?", low)
    if m:
        faces = m.group(1)
        if not faces or faces == "none":
            return ("move", "shake")
        return ("move", f"shake reroll {_norm_faces(faces)}")
    for word in ("out", "keep"):
        if low == word or low.startswith(word + " "):
            return ("move", f"{word} {_norm_faces(low[len(word) :])}".strip())
    try:
        return ("move", format_poker_bid(parse_poker_bid(text)))
    except NotationError as e:
        return ("error", f"{e} (type 'help' for every command)")


# ------------------------------------------------------------------------------ the session
@dataclass
class PokerSeat:
    """One player at the table: a human or a poker bot."""

    name: str
    bot: PokerBot | None = None

    @property
    def human(self) -> bool:
        return self.bot is None


def _dice(values: Sequence[int]) -> str:
    return " ".join(format_face(d) for d in values) if values else "none"


def _bid(bid: PokerBid) -> str:
    short, words = format_poker_bid(bid), poker_bid_words(bid)
    return short if short == words else f"{short} ({words})"


def _lives(n: int) -> str:
    return f"{n} {'life' if n == 1 else 'lives'}"


class PokerSession(Terminal):
    """One poker-dice game at the terminal: the loop, the narration and the human prompts."""

    def __init__(
        self,
        game: PokerGame,
        seats: list[PokerSeat],
        rng: random.Random,
        console: Console,
        *,
        hints: bool = False,
        save: Path | None = None,
    ) -> None:
        super().__init__(seats, console)
        self.game = game
        self.rules: PokerRules = game.rules
        self.seats = seats
        self.rng = rng
        self.hints = hints
        self.save = save
        self.announced_round = -1
        self.reported = 0
        self.continuing: int | None = None  # the seat that moves again right after its move
        self.hinter = PokerProbBot(random.Random(0), bluff=0.0, noise=0.0)

    # -------------------------------------------------------------------- output
    # ---------------------------------------------------------------------- loop
    def run(self) -> int:
        """Play to the end (or until a human quits). Returns the exit code."""
        state = self.game.new_initial_state()
        quit_early = False
        while not state.is_terminal():
            if state.current_player == CHANCE:
                state = state.resolve_chance(self.rng)
                continue
            seat = state.current_player
            if self.hot_seat and self.screen is not None and self.screen != seat:
                self.hide_screen()
            if state.round != self.announced_round:
                self.round_header(state)
            bot = self.seats[seat].bot
            if bot is None:
                next_state = self.human_turn(state, seat)
                if next_state is None:
                    quit_early = True
                    break
                state = next_state
            else:
                state = self.act(state, seat, bot.choose(self.game, state.view(seat)))
        if quit_early:
            self.say("Game abandoned.")
        else:
            self.game_over(state)
        if self.save is not None:
            self.write_record(state)
        return 0

    def act(self, state: PokerState, seat: int, action: int) -> PokerState:
        """Apply a move and the re-rolls it causes; narrate public facts and any reveal."""
        before = state
        state = state.apply_action(action)
        while state.current_player == CHANCE and state.phase in (Phase.REROLL, Phase.FIVE_ROLL):
            state = state.apply_action(state.sample_chance(self.rng))
        if self.hot_seat and self.screen == seat and state.current_player != seat:
            self.hide_screen()
        self.continuing = seat if state.current_player == seat else None
        self.narrate(before, state, seat, action)
        for result in state.results[self.reported :]:
            self.reveal(result)
        self.reported = len(state.results)
        return state

    def _direction(self, state: PokerState | PokerView, seat: int) -> str:
        """The order of play from ``seat`` in the round's direction."""
        lives = state.lives
        n = len(lives)
        order = [seat]
        p = (seat + state.direction) % n
        while p != seat:
            if lives[p] > 0:
                order.append(p)
            p = (p + state.direction) % n
        return " -> ".join(self.name(p) for p in [*order, seat])

    def narrate(self, before: PokerState, after: PokerState, seat: int, action: int) -> None:
        game = self.game
        bid = game.action_bid(action)
        cur = before.current_bid
        if bid is not None:
            self.say(f"{self.verb(seat, 'bids', 'bid')} {_bid(bid)}.")
            if after.phase is Phase.RESPOND:
                self.say(f"The cup passes to {self.name(after.current_player)}.")
        elif action in (LEFT, RIGHT):
            side = "left" if action == LEFT else "right"
            self.say(
                f"{self.verb(seat, 'passes', 'pass')} the cup {side} to "
                f"{self.name(after.current_player)} (play goes {self._direction(after, seat)})."
            )
        elif action == LIAR and cur is not None:
            self.say(
                f"{self.verb(seat, 'calls', 'call')} liar on {self.whose(before.bidder)} "
                f"{format_poker_bid(cur)}!"
            )
        elif action == ACCEPT and cur is not None:
            accepts = f"{self.verb(seat, 'accepts', 'accept')} {format_poker_bid(cur)}"
            if after.phase is Phase.KEEP:
                self.say(f"{accepts}: the cup is lifted on {_dice(after.outside)}.")
                self.say(f"Five of a kind in {FIVE_ROLLS} rolls, or lose a life.")
            elif after.phase is Phase.ARRANGE:
                self.say(f"{accepts} and {'take' if self._you(seat) else 'takes'} the cup.")
            else:
                self.say(f"{accepts}: the cup is lifted.")
        elif (out := game.action_arranged(action)) is not None:
            under = 5 - len(out)
            if out:
                self.say(
                    f"{self.verb(seat, 'leaves', 'leave')} {_dice(out)} outside the cup and "
                    f"{under} {'die' if under == 1 else 'dice'} under it."
                )
            else:
                self.say(f"{self.verb(seat, 'puts', 'put')} all five dice under the cup.")
        elif (roll := game.action_roll(action)) is not None:
            shake, rolled = roll
            parts = []
            if shake:
                k = len(before.cup)
                parts.append(f"shakes the cup ({k} {'die' if k == 1 else 'dice'} re-rolled unseen)")
            if rolled:
                parts.append(f"rolls {_dice(rolled)} in view")
            if not parts:
                self.say(
                    f"{self.verb(seat, 'neither shakes nor rolls', 'neither shake nor roll')}."
                )
            else:
                text = " and ".join(parts)
                if self._you(seat):
                    text = text.replace("shakes", "shake").replace("rolls", "roll")
                self.say(f"{self.name(seat)} {text}.")
            if rolled:
                self.say(f"Outside the cup now: {_dice(after.outside)}.")
        elif (kept := game.action_kept(action)) is not None:
            k = 5 - len(kept)
            attempts = after.attempts if after.phase is Phase.KEEP else ()
            if not attempts and after.results:
                attempts = after.results[-1].attempts
            shown = _dice(attempts[-1]) if attempts else "?"
            self.say(
                f"{self.verb(seat, 'keeps', 'keep')} {_dice(kept)} and "
                f"{'rolls' if not self._you(seat) else 'roll'} {k} {'die' if k == 1 else 'dice'}:"
                f" {shown} (roll {len(attempts)} of {FIVE_ROLLS})."
            )

    # ------------------------------------------------------------ public displays
    def round_header(self, state: PokerState) -> None:
        self.announced_round = state.round
        self.say()
        self.say(f"[bold]=== Round {state.round + 1} ===[/bold]")
        self.say(self.lives_line(state.lives) + ".")
        if self._you(state.opener):
            self.say("You are Player One: you roll under the cup and open.")
        else:
            self.say(f"{self.name(state.opener)} is Player One: rolls under the cup and opens.")

    def lives_line(self, lives: Sequence[int]) -> str:
        parts = [
            f"{self.name(p)} {_lives(k)}" if k else f"{self.name(p)} out"
            for p, k in enumerate(lives)
        ]
        return "Lives: " + ", ".join(parts)

    def reveal(self, r: PokerRoundResult) -> None:
        """What lifting the cup shows, and who lost a life."""
        bid = format_poker_bid(r.bid)
        if r.call == "liar":
            verdict = "stands" if r.stood else "was a lie"
            self.say(
                f"The cup is lifted: {_dice(r.hand)} ({format_poker_bid(r.reading)}). "
                f"{'Your' if self._you(r.bidder) else self.whose(r.bidder)} {bid} {verdict}."
            )
        elif r.success:
            tries = len(r.attempts)
            how = "already there" if not tries else f"in {tries} roll{'s' if tries > 1 else ''}"
            self.say(
                f"{self.verb(r.caller, 'makes', 'make')} five of a kind ({how}): "
                "nobody loses a life."
            )
        else:
            self.say(
                f"{self.verb(r.caller, 'fails', 'fail')} to make five of a kind in "
                f"{FIVE_ROLLS} rolls."
            )
        if r.loser is not None:
            left = r.lives[r.loser]
            tail = (" and are out" if self._you(r.loser) else " and is out") if not left else ""
            self.say(f"{self.verb(r.loser, 'loses', 'lose')} a life ({_lives(left)} left){tail}.")
        self.say(self.lives_line(r.lives) + ".")

    def game_over(self, state: PokerState) -> None:
        self.say()
        winner = state.winner
        if winner is None:
            self.say("The game is over without a winner.")
        else:
            won = "win" if self._you(winner) else "wins"
            self.say(f"[bold green]{self.name(winner)} {won} the game![/bold green]")
        places = state.placements()
        self.say(
            "Final order: " + ", ".join(f"{i + 1}. {self.name(p)}" for i, p in enumerate(places))
        )

    def write_record(self, state: PokerState) -> None:
        """Save the game record (``--save``), even of a game left before its end."""
        assert self.save is not None
        try:
            from liarsdice.notation.record import dumps_record, record_from_state

            record_state: Any = state
            text = dumps_record(record_from_state(record_state))
            self.save.write_text(text, encoding="utf-8")
        except OSError as e:
            reason = e.strerror or str(e)
            self.say(f"Cannot save the game to {escape(str(self.save))}: {escape(reason)}.")
            return
        except Exception as e:  # records of poker games may not be supported yet
            self.say(
                f"Cannot save the game to {escape(str(self.save))}: game records do not "
                f"support poker dice yet ({escape(type(e).__name__)}: {escape(str(e))})."
            )
            return
        self.say(f"Game record saved to {escape(str(self.save))}.")

    # ------------------------------------------------------------------- humans
    def human_turn(self, state: PokerState, seat: int) -> PokerState | None:
        """Prompt a human until they make a legal move; None when they quit."""
        seat_name = self.name(seat)
        if self.hot_seat and self.screen != seat:
            self.say(f"Pass the screen to {seat_name}.")
            if self.read(f"{seat_name}, press Enter when only you can see the screen:") is None:
                return None
            self.screen = seat
        self.status(state, seat, brief=self.continuing == seat)
        if self.hints:
            self.hint(state, seat)
        while True:
            prompt = self.prompt(state.view(seat))
            line = self.read(f"{seat_name}, {prompt}" if self.hot_seat else prompt.capitalize())
            if line is None:
                return None
            kind, arg = parse_poker_command(line)
            if kind == "quit":
                return None
            if kind == "empty":
                self.say(f"Type {self.example(state)}, 'help' or 'quit'.")
                continue
            if kind == "help":
                self.help()
                continue
            if kind == "hint":
                self.hint(state, seat)
                continue
            if kind == "status":
                self.status(state, seat)
                continue
            if kind == "error":
                self.say(escape(arg))
                continue
            try:
                action = self.game.string_to_action(arg)
            except IllegalActionError as e:
                self.say(f"[red]Not allowed:[/red] {escape(str(e))}.")
                continue
            if action not in state.legal_actions():
                reason = state.explain_illegal(action) or "that move is not allowed now"
                self.say(f"[red]Not allowed:[/red] {escape(reason)}.")
                continue
            return self.act(state, seat, action)

    def prompt(self, view: PokerView) -> str:
        return {
            "bid": "your bid?",
            "pass": "pass the cup left or right?",
            "respond": "liar or accept?" if ACCEPT in view.legal_actions else "liar?",
            "arrange": "which dice stay outside the cup?",
            "shake": "shake, roll, or neither?",
            "keep": "which dice do you keep?",
        }.get(view.phase, "your move?")

    def example(self, state: PokerState) -> str:
        phase = state.phase
        if phase is Phase.BID:
            return "a bid such as 'pair K' or 'a pair of kings'"
        if phase is Phase.PASS:
            return "'left' or 'right'"
        if phase is Phase.RESPOND:
            return "'liar' or 'accept'"
        if phase is Phase.ARRANGE:
            return "'out K K' or 'out none'"
        if phase is Phase.SHAKE:
            return "'shake', 'no shake', 'roll 9' or 'shake roll 9'"
        return "'keep Q Q'"

    def status(self, state: PokerState, seat: int, *, brief: bool = False) -> None:
        """The table from ``seat``'s view: the cup dice only while ``seat`` holds the cup.
        ``brief``: the player moves again right after their own move (no table news)."""
        view = state.view(seat)
        who = f" ({self.name(seat)})" if self.hot_seat else ""
        if brief and view.cup:
            hand = tuple(sorted(view.cup + view.outside))
            self.say(f"Outside the cup: {_dice(view.outside)}. Under it: {_dice(view.cup)}.")
            self.say(f"[bold]Your hand{who}: {_dice(hand)} = {_bid(hand_bid(hand))}.[/bold]")
            self.say(self.options(state, view))
            return
        self.say()
        player_one = " (Player One)" if view.opener == seat else ""
        self.say(f"--- Round {view.round + 1}: {self.name(seat)} to play{player_one} ---")
        self.say(self.lives_line(view.lives) + ".")
        if view.direction:
            side = "left" if view.direction > 0 else "right"
            self.say(f"Direction: {side} ({self._direction(view, view.opener)}).")
        else:
            self.say("Direction: not chosen yet (Player One passes left or right).")
        if view.bids:
            history = ", ".join(f"{self.name(p)} {format_poker_bid(b)}" for p, b in view.bids)
            self.say(f"Bids this round: {history}.")
        if view.current_bid is not None:
            self.say(f"Bid to beat: {_bid(view.current_bid)} by {self.name(view.bidder)}.")
        if view.phase == "keep":
            tries = len(view.five_attempts)
            self.say(
                f"[bold]Five-of-a-kind challenge{who}: the dice {_dice(view.outside)}; roll "
                f"{tries + 1} of {FIVE_ROLLS} next.[/bold]"
            )
            self.say("Keep some dice ('keep Q Q', 'keep none') and re-roll the rest.")
            return
        self.say(f"Outside the cup (everyone sees): {_dice(view.outside)}.")
        if view.cup:
            hand = tuple(sorted(view.cup + view.outside))
            self.say(f"[bold]Under the cup{who} (only you see): {_dice(view.cup)}[/bold]")
            self.say(f"[bold]Your hand: {_dice(hand)} = {_bid(hand_bid(hand))}.[/bold]")
        else:
            n = view.cup_count
            self.say(f"Under the cup: {n} {'die' if n == 1 else 'dice'} you cannot see.")
            if view.passed_cup is not None:
                self.say(
                    f"(You passed the cup on with {_dice(view.passed_cup)} under it; "
                    "it may have changed since.)"
                )
        self.say(self.options(state, view))

    def options(self, state: PokerState, view: PokerView) -> str:
        phase = view.phase
        if phase == "bid":
            if view.current_bid is None:
                what = "Bid any hand, junk included, true or not (e.g. 'pair K', 'a pair of kings')"
            else:
                least = self.game.action_bid(view.legal_actions[0])
                what = f"Bid a higher hand than {format_poker_bid(view.current_bid)}" + (
                    f" (at least {format_poker_bid(least)})" if least is not None else ""
                )
            return f"{what}; 'hint', 'help' or 'quit'."
        if phase == "pass":
            n = len(view.lives)
            left = self._neighbour(view, 1)
            right = self._neighbour(view, -1)
            if n and left == right:
                return f"Pass the cup 'left' or 'right' (both go to {self.name(left)})."
            return (
                f"Pass the cup 'left' (to {self.name(left)}) or 'right' "
                f"(to {self.name(right)}); this sets the round's direction."
            )
        if phase == "respond":
            bid = view.current_bid
            assert bid is not None
            if ACCEPT not in view.legal_actions:
                return f"Nothing beats {format_poker_bid(bid)}: you must call 'liar'."
            if bid.category is Category.FIVE and self.rules.five_of_a_kind_rule:
                return (
                    "'liar' lifts the cup; 'accept' lifts it too, and you must make five of a "
                    f"kind in {FIVE_ROLLS} rolls (if the dice show it already, you succeed)."
                )
            return (
                "'liar' lifts the cup (a true bid costs you a life, a false one the bidder), "
                "or 'accept' to take the cup and bid higher."
            )
        if phase == "arrange":
            return (
                "Choose the dice that stay outside the cup, seen by all: 'out K K' or "
                "'out none' (at least one die stays under the cup)."
            )
        if phase == "shake":
            return (
                f"'shake' re-rolls the {view.cup_count} under the cup unseen; 'roll 9' re-rolls "
                "outside dice in view; 'shake roll 9' does both; 'no shake' does neither."
            )
        return ""

    def _neighbour(self, view: PokerView, step: int) -> int:
        n = len(view.lives)
        p = (view.player + step) % n
        while view.lives[p] == 0:
            p = (p + step) % n
        return p

    def hint(self, state: PokerState, seat: int) -> None:
        """Exact odds from the player's own view, and what the prob bot would do."""
        view = state.view(seat)
        game = self.game
        bot = self.hinter
        cur = view.current_bid
        if view.phase == "respond" and cur is not None:
            p_true, loss = accept_odds(
                view,
                five_rule=self.rules.five_of_a_kind_rule,
                rho=bot.rho,
                call_rate=bot.call_rate,
            )
            self.say(
                f"Odds: {format_poker_bid(cur)} is true about {pct(p_true)} (the outside "
                f"dice, fresh dice under the cup, a bidder who bluffs now and then); accepting "
                f"costs you a life about {pct(loss)}."
            )
        elif view.phase in ("arrange", "shake", "bid") and view.cup:
            hand = tuple(sorted(view.cup + view.outside))
            least = ALL_BIDS[0] if cur is None else None
            if cur is not None:
                idx = ALL_BIDS.index(cur)
                least = ALL_BIDS[idx + 1] if idx + 1 < len(ALL_BIDS) else None
            if least is not None and view.phase != "bid":
                kept, p = best_reroll(hand, least)
                self.say(
                    f"Odds: keeping {_dice(kept)} and re-rolling the rest makes "
                    f"{format_poker_bid(least)} or better {pct(p)}."
                )
            elif view.phase == "bid":
                reading = hand_bid(hand)
                true = cur is None or reading.key > cur.key
                self.say(
                    f"Your hand reads {format_poker_bid(reading)}"
                    + (": a true bid." if true else f": it does not beat {cur}, so you bluff.")
                )
        elif view.phase == "keep":
            kept, p = five_keep(view.outside, FIVE_ROLLS - len(view.five_attempts))
            self.say(f"Odds: keeping {_dice(kept)} makes five of a kind {pct(p)} from here.")
        suggestion = bot.choose(game, view)
        text = game.action_to_string(suggestion)
        if view.phase == "arrange":
            _, roll = bot.plan(game, view)
            text += f", then {game.action_to_string(roll)}"
        self.say(f"The prob bot would play: {escape(text)}.")

    def help(self) -> None:
        lines = [
            "Commands (poker dice; faces 9 10 J Q K A):",
            "  pair K, two pair Q 10, three J K, low straight, high straight,",
            "  full house A Q, four 9 A, five Q, junk   bid a hand (or 'a pair of kings')",
            "  liar                   lift the cup: is the bid there?",
            "  accept                 take the cup (then arrange, roll and bid higher)",
            "  left / right           Player One: pass the cup (sets the direction)",
            "  out K K / out none     the dice that stay outside the cup, in view",
            "  shake / no shake       re-roll every die under the cup unseen, or not",
            "  roll 9 / shake roll 9  re-roll outside dice in view (with or without shaking)",
            "  keep Q Q               five-of-a-kind challenge: keep these, re-roll the rest",
            "  hint                   odds from what you can see, and the prob bot's move",
            "  status                 show the table again",
            "  quit                   leave the game",
        ]
        if not self.rules.five_of_a_kind_rule:
            lines.append("Five of a kind is an ordinary bid in these rules (no challenge).")
        for line in lines:
            self.say(escape(line))


# -------------------------------------------------------------------------------- options
_BOOL = {"1": True, "true": True, "yes": True, "on": True}
_BOOL |= {"0": False, "false": False, "no": False, "off": False}


def build_poker_rules(
    name: str, players: int | None, dice: str | None, options: Sequence[str]
) -> PokerRules:
    """Poker rules from a preset, ``--players``, ``--dice`` and ``--option name=value``.

    >>> build_poker_rules("poker-dice", 3, None, ["lives=2", "five_of_a_kind_rule=off"])
    PokerRules(name='poker-dice', players=3, lives=2, dice=5, five_of_a_kind_rule=False)
    """
    overrides: dict[str, Any] = {}
    try:
        for item in options:
            if "=" not in item:
                raise click.BadParameter(f"{item!r} is not name=value", param_hint="--option")
            key, value = item.split("=", 1)
            key = key.strip().replace("-", "_")
            low = value.strip().lower()
            if key == "five_of_a_kind_rule":
                if low not in _BOOL:
                    raise click.UsageError(
                        f"five_of_a_kind_rule must be true or false, not {value!r}"
                    )
                overrides[key] = _BOOL[low]
            elif key in ("players", "lives", "dice"):
                overrides[key] = int(low)
            else:
                raise click.UsageError(
                    f"unknown rule option {key!r} for poker dice; options: players, lives, dice, "
                    "five_of_a_kind_rule"
                )
        if players is not None:
            overrides["players"] = players
        if dice is not None:
            overrides["dice"] = int(dice)
        return poker_preset(name, **overrides)
    except (LiarsDiceError, ValueError) as e:
        raise click.UsageError(str(e)) from None


def play_poker(
    rules_name: str,
    *,
    players: int | None,
    dice: str | None,
    faces: int | None,
    seed: int | None,
    options: Sequence[str],
    bots: str,
    humans: Sequence[str],
    names: str | None,
    save: Path | None,
    hints: bool,
    watch: bool,
    think: float | None = None,
) -> None:
    """The body of ``liarsdice play --rules poker-dice``."""
    from liarsdice.cli.play import seat_plan

    if faces is not None:
        raise click.UsageError("poker dice have six faces (9, 10, J, Q, K, A): drop --faces")
    rules = build_poker_rules(rules_name, players, dice, options)
    if seed is None:
        seed = random.SystemRandom().randrange(1_000_000)
    plan = seat_plan(rules.players, players, names, humans, bots, watch, family="poker")
    seats = [
        PokerSeat(n)
        if kind is None
        else PokerSeat(
            n, make_bot(kind, random.Random(f"{seed}:bot:{i}"), family="poker", think=think)
        )
        for i, (n, kind) in enumerate(plan)
    ]
    try:
        if len(seats) != rules.players:
            rules = rules.replace(players=len(seats))
        game = PokerGame(rules, [s.name for s in seats])
    except LiarsDiceError as e:
        raise click.UsageError(str(e)) from None
    console = Console(highlight=False, soft_wrap=True, emoji=False)
    session = PokerSession(game, seats, random.Random(seed), console, hints=hints, save=save)
    five = "on" if rules.five_of_a_kind_rule else "off"
    console.print(
        f"Liar's Dice: {escape(rules.name)} rules, {len(seats)} players, {_lives(rules.lives)} "
        f"each, five-of-a-kind rule {five}, seed {seed}. Type 'help' at any prompt.",
        highlight=False,
    )
    console.print(
        "One set of five poker dice and a cup go round: bid a poker hand that beats the last "
        "one, or call 'liar'.",
        highlight=False,
    )
    code = session.run()
    if code:
        raise SystemExit(code)
