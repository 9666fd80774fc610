"""The poker-dice family at the terminal (``liarsdice play --rules poker-dice``): narration,
table, reveal, prompts, hints and the reading of poker moves.

One set of five poker dice and one cup go round the table (see ``docs/POKER.md``). The dice
under the cup are shown only to the player holding it; everything else is public: the outside
dice, bids, lives, the direction and every reveal.

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
>>> parse_poker_command("out K K K, then shake")
('error', "one move at a time: type 'out K K K' now, then 'shake'")
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from typing import Any

from rich.markup import escape

from liarsdice.bots import PokerProbBot
from liarsdice.bots.poker.simple import accept_odds, best_reroll, five_keep
from liarsdice.core.errors import IllegalActionError, LiarsDiceError, NotationError
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
)
from liarsdice.core.poker.state import FIVE_ROLLS
from liarsdice.families.terminal import Answer, GameTerminal, dice_text, meta_command, pct, plural
from liarsdice.notation.grammar import agree

__all__ = ["PokerTerminal", "parse_poker_command"]

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
    command = meta_command(low)
    if command is not None:
        return (command, "")
    first, then, rest = low.partition(" then ")
    if then:  # two moves on one line: say which to type now
        now, later = parse_poker_command(first), parse_poker_command(rest)
        if now[0] == "move" and later[0] == "move":
            return ("error", f"one move at a time: type '{now[1]}' now, then '{later[1]}'")
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


def _typed(game: PokerGame, action: int) -> str:
    """A move as a player types it (the engine's notation, which the prompt reads back)."""
    return game.action_to_string(action)


def _out_example(view: PokerView) -> str:
    """A legal 'out' move for the holder: its highest die outside the cup."""
    hand = sorted(view.cup + view.outside)
    return f"out {format_face(hand[-1])}" if hand else "out none"


def _keep_example(dice: Sequence[int]) -> str:
    """A legal 'keep' move: the dice of the commonest face (at most four of them)."""
    if not dice:
        return "keep none"
    face = max(set(dice), key=lambda f: (dice.count(f), f))
    return "keep " + " ".join([format_face(face)] * min(dice.count(face), 4))


def _cup_line(view: PokerView) -> str:
    """The dice under the cup as a player who is not looking under it knows them."""
    n, known = view.cup_count, view.known_cup
    if not known:
        return f"Under the cup: {plural(n, 'die')} you cannot see."
    them = "it" if len(known) == 1 else "them"
    since = f"you saw {them} there or put there, and the cup has not been shaken since"
    if len(known) == n:
        return f"Under the cup: {_dice(known)} (you know {them}: {since})."
    return (
        f"Under the cup: {plural(n, 'die')}: {_dice(known)}, which you know of ({since}), and "
        f"{plural(n - len(known), 'die')} you cannot see."
    )


def _odds_basis(view: PokerView) -> str:
    """What the odds of a bid are worked out from, for the player asked to respond."""
    known, unknown = view.known_cup, view.cup_count - len(view.known_cup)
    parts = ["the outside dice"]
    if known:
        parts.append(f"the {_dice(known)} you know {agree(len(known), 'be')} under the cup")
    if unknown:
        rolls = "a fresh roll" if unknown == 1 else "fresh rolls"
        dice = plural(unknown, "die")
        where = f"the other {dice} under it" if known else f"the {dice} under the cup"
        parts.append(f"{where} as {rolls}")
    if len(parts) == 2:
        return " and ".join(parts)
    return ", ".join(parts[:-1]) + ", and " + parts[-1]


def _how_true(p: float) -> str:
    """How likely a bid is true, in words: ``is certainly true``, ``is true about 40%``."""
    if p >= 1.0:
        return "is certainly true"
    if p <= 0.0:
        return "is certainly false"
    return f"is true about {pct(p)}"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _dice(values: Sequence[int]) -> str:
    return dice_text(values, format_face)


def _bid(bid: PokerBid) -> str:
    short, words = format_poker_bid(bid), poker_bid_words(bid)
    return short if short == words else f"{short} ({words})"


_PROMPTS = {
    "bid": "your bid?",
    "pass": "pass the cup left or right?",
    "arrange": "which dice stay outside the cup?",
    "shake": "shake, roll, or neither?",
    "keep": "which dice do you keep?",
}


class PokerTerminal(GameTerminal):
    """A poker-dice game at the terminal."""

    game: PokerGame
    rules: PokerRules

    def __init__(self, game: PokerGame, *, hot_seat: bool = False) -> None:
        super().__init__(game, hot_seat=hot_seat)
        self.continuing: int | None = None  # the seat that moves again right after its move
        self.hinter = PokerProbBot(random.Random(0), bluff=0.0, noise=0.0)

    # ------------------------------------------------------------------- the whole game
    def banner_facts(self) -> str:
        five = "on" if self.rules.five_of_a_kind_rule else "off"
        return f"{plural(self.rules.lives, 'life')} each, five-of-a-kind rule {five}, "

    def banner_notes(self) -> list[str]:
        return [
            "One set of five poker dice and a cup go round: bid a poker hand that beats the "
            "last one, or call 'liar'."
        ]

    def round_header(self, state: PokerState) -> list[str]:
        opener = state.opener
        opens = (
            f"{self.verb(opener, 'be')} Player One: {'you ' if self.you(opener) else ''}"
            f"{self.says(opener, 'roll')} under the cup and {self.says(opener, 'open')}."
        )
        if self.you(opener):
            opens = _capital(opens)  # a name stays as it is spelled
        return [self.lives_line(state.lives) + ".", opens]

    def lives_line(self, lives: Sequence[int]) -> str:
        parts = [
            f"{self.name(p)} {plural(k, 'life')}" if k else f"{self.name(p)} out"
            for p, k in enumerate(lives)
        ]
        return "Lives: " + ", ".join(parts)

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

    # ----------------------------------------------------------------------------- moves
    def rolls_in_move(self, state: PokerState) -> bool:
        return state.phase in (Phase.REROLL, Phase.FIVE_ROLL)

    def narrate(self, before: PokerState, after: PokerState, seat: int, action: int) -> list[str]:
        self.continuing = seat if after.current_player == seat else None
        game = self.game
        bid = game.action_bid(action)
        cur = before.current_bid
        if bid is not None:
            lines = [f"{self.verb(seat, 'bid')} {_bid(bid)}."]
            if after.phase is Phase.RESPOND:
                lines.append(f"The cup passes to {self.name(after.current_player)}.")
            return lines
        if action in (LEFT, RIGHT):
            side = "left" if action == LEFT else "right"
            return [
                f"{self.verb(seat, 'pass')} the cup {side} to "
                f"{self.name(after.current_player)} (play goes {self._direction(after, seat)})."
            ]
        if action == LIAR and cur is not None:
            return [
                f"{self.verb(seat, 'call')} liar on {self.whose(before.bidder)} "
                f"{format_poker_bid(cur)}!"
            ]
        if action == ACCEPT and cur is not None:
            accepts = f"{self.verb(seat, 'accept')} {format_poker_bid(cur)}"
            if after.phase is Phase.KEEP:
                return [
                    f"{accepts}: the cup is lifted on {_dice(after.outside)}.",
                    f"Five of a kind in {FIVE_ROLLS} rolls, or lose a life.",
                ]
            if after.phase is Phase.ARRANGE:
                return [f"{accepts} and {self.says(seat, 'take')} the cup."]
            return [f"{accepts}: the cup is lifted."]
        if (out := game.action_arranged(action)) is not None:
            if not out:
                return [f"{self.verb(seat, 'put')} all five dice under the cup."]
            return [
                f"{self.verb(seat, 'leave')} {_dice(out)} outside the cup and "
                f"{plural(5 - len(out), 'die')} under it."
            ]
        if (roll := game.action_roll(action)) is not None:
            return self._roll_lines(before, after, seat, roll)
        if (kept := game.action_kept(action)) is not None:
            attempts = after.attempts if after.phase is Phase.KEEP else ()
            if not attempts and after.results:
                attempts = after.results[-1].attempts
            shown = _dice(attempts[-1]) if attempts else "?"
            return [
                f"{self.verb(seat, 'keep')} {_dice(kept)} and "
                f"{self.says(seat, 'roll')} {plural(5 - len(kept), 'die')}:"
                f" {shown} (roll {len(attempts)} of {FIVE_ROLLS})."
            ]
        return []

    def _roll_lines(
        self, before: PokerState, after: PokerState, seat: int, roll: tuple[bool, Any]
    ) -> list[str]:
        shake, rolled = roll
        parts = []
        if shake:
            cup = plural(len(before.cup), "die")
            parts.append(f"{self.says(seat, 'shake')} the cup ({cup} re-rolled unseen)")
        if rolled:
            parts.append(f"{self.says(seat, 'roll')} {_dice(rolled)} in view")
        if not parts:
            parts.append(f"neither {self.says(seat, 'shake')} nor {self.says(seat, 'roll')}")
        lines = [f"{self.name(seat)} {' and '.join(parts)}."]
        if rolled:
            lines.append(f"Outside the cup now: {_dice(after.outside)}.")
        return lines

    def reveal(self, r: PokerRoundResult) -> list[str]:
        bid = format_poker_bid(r.bid)
        if r.call == "liar":
            verdict = "stands" if r.stood else "was a lie"
            lines = [
                f"The cup is lifted: {_dice(r.hand)} ({format_poker_bid(r.reading)}). "
                f"{'Your' if self.you(r.bidder) else self.whose(r.bidder)} {bid} {verdict}."
            ]
        elif r.success:
            tries = len(r.attempts)
            how = "already there" if not tries else f"in {plural(tries, 'roll')}"
            lines = [f"{self.verb(r.caller, 'make')} five of a kind ({how}): nobody loses a life."]
        else:
            lines = [f"{self.verb(r.caller, 'fail')} to make five of a kind in {FIVE_ROLLS} rolls."]
        if r.loser is not None:
            left = r.lives[r.loser]
            tail = f" and {self.says(r.loser, 'be')} out" if not left else ""
            lines.append(
                f"{self.verb(r.loser, 'lose')} a life ({plural(left, 'life')} left){tail}."
            )
        lines.append(self.lives_line(r.lives) + ".")
        return lines

    # ------------------------------------------------------------------------- a human
    def turn_lines(self, state: PokerState, seat: int) -> list[str]:
        return self.status(state, seat, brief=self.continuing == seat)

    def status(self, state: PokerState, seat: int, *, brief: bool = False) -> list[str]:
        """The table from ``seat``'s view: the cup dice only while ``seat`` holds the cup.
        ``brief``: the player moves again right after their own move (no table news)."""
        view = state.view(seat)
        who = f" ({self.name(seat)})" if self.hot_seat else ""
        if brief and view.cup:
            hand = tuple(sorted(view.cup + view.outside))
            return [
                f"Outside the cup: {_dice(view.outside)}. Under it: {_dice(view.cup)}.",
                f"[bold]Your hand{who}: {_dice(hand)} = {_bid(hand_bid(hand))}.[/bold]",
                self.options(view),
            ]
        player_one = " (Player One)" if view.opener == seat else ""
        lines = [
            "",
            f"--- Round {view.round + 1}: {self.name(seat)} to play{player_one} ---",
            self.lives_line(view.lives) + ".",
        ]
        if view.direction:
            side = "left" if view.direction > 0 else "right"
            lines.append(f"Direction: {side} ({self._direction(view, view.opener)}).")
        else:
            lines.append("Direction: not chosen yet (Player One passes left or right).")
        if view.bids:
            history = ", ".join(f"{self.name(p)} {format_poker_bid(b)}" for p, b in view.bids)
            lines.append(f"Bids this round: {history}.")
        if view.current_bid is not None:
            lines.append(f"Bid to beat: {_bid(view.current_bid)} by {self.name(view.bidder)}.")
        if view.phase == "keep":
            tries = len(view.five_attempts)
            lines.append(
                f"[bold]Five-of-a-kind challenge{who}: the dice {_dice(view.outside)}; roll "
                f"{tries + 1} of {FIVE_ROLLS} next.[/bold]"
            )
            lines.append(
                f"Keep some dice ('{_keep_example(view.outside)}', 'keep none') and re-roll the "
                "rest."
            )
            return lines
        lines.append(f"Outside the cup (everyone sees): {_dice(view.outside)}.")
        if view.cup:
            hand = tuple(sorted(view.cup + view.outside))
            lines.append(f"[bold]Under the cup{who} (only you see): {_dice(view.cup)}[/bold]")
            lines.append(f"[bold]Your hand: {_dice(hand)} = {_bid(hand_bid(hand))}.[/bold]")
        else:
            lines.append(_cup_line(view))
            if view.passed_cup is not None and len(view.known_cup) < view.cup_count:
                lines.append(
                    f"(You passed the cup on with {_dice(view.passed_cup)} under it; "
                    "it has been shaken since.)"
                )
        lines.append(self.options(view))
        return lines

    def options(self, view: PokerView) -> str:
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
            return self._pass_options(view) + "."
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
                "Choose the dice that stay outside the cup, seen by all: "
                f"'{_out_example(view)}' or 'out none' (at least one die stays under the cup)."
            )
        if phase == "shake":
            cup = f"'shake' re-rolls the {plural(view.cup_count, 'die')} under the cup unseen"
            if not view.outside:
                return f"{cup}; 'no shake' leaves them as they are."
            face = format_face(max(view.outside))
            return (
                f"{cup}; 'roll {face}' re-rolls outside dice in view; 'shake roll {face}' does "
                "both; 'no shake' does neither."
            )
        return ""

    def _pass_options(self, view: PokerView) -> str:
        """Where 'left' and 'right' pass the cup (Player One, before passing it)."""
        left = self._neighbour(view, 1)
        right = self._neighbour(view, -1)
        if left == right:
            return f"Pass the cup 'left' or 'right' (both go to {self.name(left)})"
        return (
            f"Pass the cup 'left' (to {self.name(left)}) or 'right' "
            f"(to {self.name(right)}); this sets the round's direction"
        )

    def examples(self, view: PokerView) -> str:
        """Moves of the player to move that are legal now, written as they may be typed."""
        phase = view.phase
        if phase == "bid":
            least = self.game.action_bid(view.legal_actions[0]) if view.legal_actions else None
            if view.current_bid is None or least is None:
                return "a bid such as 'pair K' or 'a pair of kings'"
            return f"a bid of at least '{format_poker_bid(least)}'"
        if phase == "pass":
            return "'left' or 'right'"
        if phase == "respond":
            return "'liar' or 'accept'" if ACCEPT in view.legal_actions else "'liar'"
        if phase == "arrange":
            return f"'{_out_example(view)}' or 'out none'"
        if phase == "shake":
            if view.outside:
                return f"'shake', 'no shake', 'roll {format_face(max(view.outside))}'"
            return "'shake' or 'no shake'"
        return f"'{_keep_example(view.outside)}' or 'keep none'"

    def _neighbour(self, view: PokerView, step: int) -> int:
        n = len(view.lives)
        p = (view.player + step) % n
        while view.lives[p] == 0:
            p = (p + step) % n
        return p

    def hint(self, state: PokerState, seat: int) -> list[str]:
        view = state.view(seat)
        game = self.game
        bot = self.hinter
        cur = view.current_bid
        lines = []
        if view.phase == "respond" and cur is not None:
            p_true, loss = accept_odds(
                view,
                five_rule=self.rules.five_of_a_kind_rule,
                rho=bot.rho,
                call_rate=bot.call_rate,
                bidder_model=False,  # the dice's chance: what the bidder says is no evidence
            )
            lines.append(
                f"Odds: {format_poker_bid(cur)} {_how_true(p_true)} ({_odds_basis(view)}); "
                f"accepting costs you a life about {pct(loss)}."
            )
        elif view.phase in ("arrange", "shake", "bid") and view.cup:
            lines += self._hand_hint(view)
        elif view.phase == "keep":
            kept, p = five_keep(view.outside, FIVE_ROLLS - len(view.five_attempts))
            lines.append(f"Odds: keeping {_dice(kept)} makes five of a kind {pct(p)} from here.")
        # one move per line, each written as it may be typed at the prompt
        lines.append(f"The prob bot would play: {escape(_typed(game, bot.choose(game, view)))}.")
        if view.phase == "arrange":
            _, roll = bot.plan(game, view)
            lines.append(f"Then it would play: {escape(_typed(game, roll))}.")
        return lines

    def _hand_hint(self, view: PokerView) -> list[str]:
        """Odds of the hand of the player holding the cup."""
        cur = view.current_bid
        hand = tuple(sorted(view.cup + view.outside))
        least = ALL_BIDS[0] if cur is None else None
        if cur is not None:
            idx = ALL_BIDS.index(cur)
            least = ALL_BIDS[idx + 1] if idx + 1 < len(ALL_BIDS) else None
        if least is not None and view.phase != "bid":
            kept, p = best_reroll(hand, least)
            return [
                f"Odds: keeping {_dice(kept)} and re-rolling the rest makes "
                f"{format_poker_bid(least)} or better {pct(p)}."
            ]
        if view.phase == "bid":
            reading = hand_bid(hand)
            true = cur is None or reading.key > cur.key
            return [
                f"Your hand reads {format_poker_bid(reading)}"
                + (": a true bid." if true else f": it does not beat {cur}, so you bluff.")
            ]
        return []

    def help(self) -> list[str]:
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
        ]
        if self.rules.five_of_a_kind_rule:
            lines.append(
                "  keep Q Q               five-of-a-kind challenge: keep these, re-roll the rest"
            )
        lines += [
            "  hint                   odds from what you know, and the prob bot's move",
            "  status                 show the table again",
            "  quit                   leave the game",
        ]
        if not self.rules.five_of_a_kind_rule:
            lines.append("Five of a kind is an ordinary bid in these rules (no challenge).")
        return [escape(line) for line in lines]

    def prompt(self, state: PokerState, seat: int) -> str:
        view = state.view(seat)
        if view.phase == "respond":
            return "liar or accept?" if ACCEPT in view.legal_actions else "liar?"
        return _PROMPTS.get(view.phase, "your move?")

    def empty_reply(self, state: PokerState) -> str:
        return f"Type {self.examples(state.view(state.current_player))}, 'help' or 'quit'."

    def parse(self, line: str) -> tuple[str, Any]:
        return parse_poker_command(line)

    def answer(self, state: PokerState, seat: int, line: str) -> Answer:
        """As :meth:`GameTerminal.answer`; what cannot be read is explained for the step the
        player is at (a direction to pass the cup, a call, dice), not only as a bid."""
        answer = super().answer(state, seat, line)
        kind, _ = self.parse(line)
        phase = state.phase
        if kind != "error" or phase is Phase.BID or self._one_move_now(state, line):
            return answer
        view = state.view(seat)
        said = escape(repr(" ".join(line.split())))
        if phase is Phase.PASS:
            return Answer(lines=(f"{said} is not a direction. {self._pass_options(view)}.",))
        return Answer(lines=(f"Can't read {said} now: type {self.examples(view)}, or 'help'.",))

    def _one_move_now(self, state: PokerState, line: str) -> bool:
        """Whether ``line`` is two moves ('out K K, then shake') whose first is legal now (the
        reader's "one move at a time" says what to type)."""
        first, then, _ = _clean(line).partition(" then ")
        kind, move = parse_poker_command(first)
        if not then or kind != "move":
            return False
        try:
            return self.game.string_to_action(move) in state.legal_actions()
        except LiarsDiceError:
            return False

    def move(self, state: PokerState, seat: int, kind: str, arg: Any) -> Answer:
        try:
            return Answer(action=self.game.string_to_action(arg))
        except IllegalActionError as e:
            return Answer(lines=(self.not_allowed(str(e)),))
