"""The bidding family at the terminal (``liarsdice play``): its narration, table, reveal,
prompts, hints and the reading of bids and calls.

What a player sees is built from their own :class:`~liarsdice.core.bidding.view.PlayerView` only,
and
narration of other players' moves from public facts only.

>>> parse_command("three fives", faces=6)
('bid', Bid(quantity=3, face=5))
>>> parse_command("Show 6, 6", faces=6)
('show', (6, 6))
>>> parse_command("ask count", faces=6)
('ask', 'count')
>>> parse_command("dudo!", faces=6)
('liar', None)
"""

from __future__ import annotations

import random
import re
from typing import Any

from rich.markup import escape

from liarsdice.bots import ProbBot
from liarsdice.bots.bidding.prob import raise_candidates
from liarsdice.core.bidding import (
    BUY,
    EXACT,
    LIAR,
    NO_SHOW,
    Bid,
    Economy,
    Game,
    LiarsDiceError,
    NotationError,
    Phase,
    PlayerView,
    Question,
    Resolution,
    RoundResult,
    Rules,
    Scoring,
    ShowReroll,
    State,
)
from liarsdice.families.terminal import (
    Answer,
    GameTerminal,
    counted,
    dice_text,
    meta_command,
    pct,
    plural,
)
from liarsdice.notation.bidding.bids import Call, bid_to_words, parse_call, parse_human_bid
from liarsdice.odds import bid_odds

__all__ = ["BiddingTerminal", "parse_command"]

_NO_SHOW = {"no", "n", "pass", "none", "skip", "no show", "no-show", "noshow"}
_QUESTIONS = {
    "turn": Question.TURN,
    "whose turn": Question.TURN,
    "is it my turn": Question.TURN,
    "count": Question.COUNT,
    "how many": Question.COUNT,
    "how many are left": Question.COUNT,
}


def face_count(count: int, face: int) -> str:
    """How many dice show ``face``, in words that agree with the count.

    >>> face_count(0, 6), face_count(1, 6), face_count(1, 3), face_count(4, 3)
    ('no sixes', 'one six', 'one three', 'four threes')
    """
    if count < 1:
        return "no " + bid_to_words(Bid(2, face)).split(" ", 1)[1]
    return bid_to_words(Bid(count, face))


# --------------------------------------------------------------------------- parsing input
def parse_command(text: str, *, faces: int, wild: int | None = 1) -> tuple[str, Any]:
    """Read one line of input as ``(kind, argument)``.

    Kinds: ``bid`` (a :class:`Bid`), ``liar``, ``exact``, ``show`` (faces), ``no-show``,
    ``buy``, ``ask`` (a question), ``hint``, ``help``, ``status``, ``quit``, ``empty`` and
    ``error`` (a message). ``no-show`` also covers "pass"/"no": whether that is allowed depends
    on the moment. Words for wilds ("three wilds") mean the ``wild`` face.

    >>> parse_command("3x5", faces=6), parse_command("3 5", faces=6)
    (('bid', Bid(quantity=3, face=5)), ('bid', Bid(quantity=3, face=5)))
    >>> parse_command("two wilds", faces=6, wild=6)
    ('bid', Bid(quantity=2, face=6))
    >>> parse_command("pass", faces=6), parse_command("", faces=6)
    (('no-show', None), ('empty', None))
    >>> parse_command("3x9", faces=6)
    ('error', "face 9 in '3x9' is out of range; faces run 1..6 (type 'help' for every command)")
    """
    raw = text.strip()
    low = " ".join(raw.lower().split())
    if not low:
        return ("empty", None)
    command = meta_command(low)
    if command is not None:
        return (command, None)
    if low in ("buy", "buy a die", "buy die"):
        return ("buy", None)
    if low in _NO_SHOW:
        return ("no-show", None)
    if low == "ask" or low.startswith("ask "):
        question = low[3:].strip(" ?")
        if question in _QUESTIONS:
            return ("ask", _QUESTIONS[question])
        return ("error", "ask 'turn' (whose turn is it?) or 'count' (how many dice are left?)")
    if low == "show" or low.startswith("show "):
        numbers = re.findall(r"[0-9]+", low[4:])
        if not numbers or re.search(r"[^0-9,\s]", low[4:]):
            return ("error", "say which dice to show, e.g. 'show 6 6'")
        shown = tuple(int(n) for n in numbers)
        bad = [f for f in shown if not 1 <= f <= faces]
        if bad:
            return ("error", f"there is no face {bad[0]}: faces run 1..{faces}")
        return ("show", tuple(sorted(shown)))
    call = parse_call(raw)
    if call is Call.LIAR:
        return ("liar", None)
    if call is Call.EXACT:
        return ("exact", None)
    if wild is not None:
        raw = re.sub(r"\bwilds?\b", str(wild), raw, flags=re.IGNORECASE)
    try:
        return ("bid", parse_human_bid(raw, faces=faces))
    except NotationError as e:
        return ("error", f"{e} (type 'help' for every command)")


def _show_example(view: PlayerView) -> str:
    """A legal show: the dice of the face the player holds most of, keeping one die hidden."""
    hand = list(view.my_dice)
    if len(hand) < 2:
        return "show 6 6"  # nothing can be shown; the form only
    face = max(set(hand), key=lambda f: (hand.count(f), f))
    return "show " + " ".join([str(face)] * min(hand.count(face), len(hand) - 1))


def _bid(bid: Bid) -> str:
    return f"{bid} ({bid_to_words(bid)})"


class BiddingTerminal(GameTerminal):
    """A bidding-family game at the terminal."""

    game: Game
    rules: Rules

    def __init__(self, game: Game, *, hot_seat: bool = False) -> None:
        super().__init__(game, hot_seat=hot_seat)
        self.palifico_round = False  # wilds are off in this round's count
        self.questions: dict[int, int] = {}  # penalty questions asked this round, by seat
        self.hinter = ProbBot(random.Random(0), bluff=0.0, noise=0.0)

    # ------------------------------------------------------------------- the whole game
    def banner_notes(self) -> list[str]:
        return [escape(self.rules.description)] if self.rules.description else []

    def announces(self, state: State) -> bool:
        return state.phase is Phase.BID

    def round_header(self, state: State) -> list[str]:
        view = state.view(-1)
        self.palifico_round = view.palifico
        counts = ", ".join(f"{self.name(p)} {d}" for p, d in enumerate(view.dice_counts) if d > 0)
        lines = [f"Dice: {counts} ({view.dice_in_play} in play)."]
        if view.stash is not None:
            lines.append(f"Open stash: {dice_text(view.stash)}.")
        elif view.stash_size:
            lines.append(f"Secret stash: {plural(view.stash_size, 'die')} nobody can see.")
        if view.palifico:
            lines.append(
                "Palifico round: wilds count only as themselves, and every raise keeps the "
                "opening face."
            )
        lines.append(f"{self.verb(view.to_move, 'open')}.")
        return lines

    def final_tallies(self, state: State) -> list[str]:
        view = state.view(-1)
        lines = []
        if self.rules.economy is not Economy.NONE:
            lines.append(f"Chips: {self.by_name(view.chips)}.")
        if self.rules.scoring is Scoring.ROOM:
            lines.append(f"Scores: {self.by_name(view.scores)}.")
        if self.rules.drinking:
            lines.append(f"Drinks: {self.by_name(view.lost)}.")
        return lines

    # ----------------------------------------------------------------------------- moves
    def rolls_in_move(self, state: State) -> bool:
        return state.phase in (Phase.REROLL, Phase.BUY_ROLL)

    def narrate(self, before: State, after: State, seat: int, action: int) -> list[str]:
        game = self.game
        bid = game.action_bid(action)
        shown = game.action_shown(action)
        cur = before.current_bid
        if bid is not None:
            return [f"{self.verb(seat, 'bid')} {_bid(bid)}."]
        if action in (LIAR, EXACT) and cur is not None:
            what = "liar" if action == LIAR else "exact"
            line = f"{self.verb(seat, 'call')} {what} on {self.whose(before.bidder)} {cur}"
            if action == LIAR and self.rules.resolution is Resolution.ALL_CALL:
                others = sum(
                    1 for p, d in enumerate(before.dice_counts) if d and p != before.bidder
                )
                line += f" ({len(before.callers) + 1} of {others} callers)"
            return [line + "!"]
        if action == NO_SHOW:
            return [f"{self.verb(seat, 'do')} not show any dice."]
        if shown is not None:
            public = before.view(-1)
            rerolled = public.dice_counts[seat] - len(public.shown[seat]) - len(shown)
            return [
                f"{self.verb(seat, 'show')} {dice_text(shown)} and "
                f"{self.says(seat, 're-roll')} {plural(rerolled, 'die')}."
            ]
        if action == BUY:
            pot = before.view(-1).game_pot
            return [
                f"{self.verb(seat, 'buy')} a die for {pot} chips; the pot doubles to {2 * pot}."
            ]
        return []

    def reveal(self, r: RoundResult) -> list[str]:
        lines = [f"Reveal of round {r.round + 1}:"]
        for p, hand in enumerate(r.hands):
            if hand:
                lines.append(f"  {self.name(p)}: {dice_text(hand)}")
        if r.stash:
            lines.append(f"  stash: {dice_text(r.stash)}")
        wild = None if self.palifico_round else self.rules.wild
        what = face_count(r.count, r.bid.face)
        if wild is not None and r.bid.face != wild:
            what += f" (wild {face_count(2, wild).split(' ', 1)[1]} included)"
        q = r.bid.quantity
        if r.call == "exact":
            verdict = "exactly right" if r.count == q else "not exact"
        elif r.count >= q:
            verdict = "the bid was true" + (" (exactly)" if r.count == q else "")
        else:
            verdict = "the bid was false"
        lines.append(f"Counted: {what} against {_bid(r.bid)}: {verdict}.")
        for p, k in sorted(r.losses.items()):
            line = f"{self.verb(p, 'lose')} {plural(k, 'die')}"
            asked = min(k, self.questions.get(p, 0))
            note = f"{asked} for asking questions" if asked else ""
            if r.dice[p] == 0:
                line += f" ({note})" if note else ""
                line += f" and {self.says(p, 'be')} out"
            else:
                line += f" ({note}; {r.dice[p]} left)" if note else f" ({r.dice[p]} left)"
            if self.rules.drinking:
                line += f"; drink {k}"
            lines.append(line + ".")
        for p, k in sorted(r.gains.items()):
            lines.append(f"{self.verb(p, 'gain')} {plural(k, 'die')} ({r.dice[p]} now).")
        self.questions = {}
        if not r.losses and not r.gains:
            lines.append("Nobody loses a die.")
        won = f"{self.verb(r.winner, 'win')} the challenge"
        if r.round_pot_won:
            won += f" and the round pot of {r.round_pot_won} chips"
        lines.append(won + ".")
        if r.chips is not None:
            lines.append(f"Chips: {self.by_name(r.chips)}; game pot {r.game_pot}.")
        if self.rules.calling_advantage:
            lines.append(f"Pile: {plural(r.pile, 'die')}.")
        if r.scores is not None:
            lines.append(f"Scores: {self.by_name(r.scores)}.")
        return lines

    # ------------------------------------------------------------------------- a human
    def hints_on_turn(self, state: State) -> bool:
        return state.phase is Phase.BID

    def table_lines(self, view: PlayerView) -> list[str]:
        """Public facts of the table, from one player's view."""
        rules = self.rules
        parts = []
        for p, d in enumerate(view.dice_counts):
            if d == 0:
                parts.append(f"{self.name(p)} out")
                continue
            text = f"{self.name(p)} {plural(d, 'die')}"
            if view.shown[p]:
                text += f" (showing {dice_text(view.shown[p])})"
            parts.append(text)
        lines = [f"Players: {'; '.join(parts)}. {plural(view.dice_in_play, 'die')} in play."]
        if view.stash is not None:
            lines.append(f"Open stash: {dice_text(view.stash)}.")
        elif view.stash_size:
            lines.append(f"Secret stash: {plural(view.stash_size, 'die')}.")
        if rules.economy is Economy.CHIPS:
            lines.append(
                f"Chips: {self.by_name(view.chips)}. Round pot {view.round_pot}, "
                f"game pot {view.game_pot}."
            )
        elif rules.economy is Economy.RICH_MAN:
            lines.append(
                f"Chips: {self.by_name(view.chips)}. Pot {view.game_pot} (the price of a die)."
            )
        if rules.calling_advantage:
            lines.append(f"Pile: {plural(view.pile, 'die')} (won by a right exact call).")
        if rules.scoring is Scoring.ROOM:
            lines.append(f"Scores: {self.by_name(view.scores)}.")
        if rules.drinking:
            lines.append(f"Drinks: {self.by_name(view.lost)}.")
        if view.palifico:
            lines.append("Palifico round: no wilds; raise the quantity on the same face.")
        if view.bids:
            history = ", ".join(f"{self.name(p)} {b}" for p, b in view.bids)
            lines.append(f"Bids this round: {history}.")
        if view.current_bid is not None:
            line = f"Current bid: {_bid(view.current_bid)} by {self.name(view.bidder)}"
            if view.callers:
                line += f"; called by {', '.join(self.name(p) for p in view.callers)}"
            lines.append(line + ".")
        else:
            lines.append("No bid yet: make the opening bid.")
        return lines

    def status(self, state: State, seat: int) -> list[str]:
        view = state.view(seat)
        who = f" ({self.name(seat)})" if self.hot_seat else ""
        lines = []
        if view.phase != "show":  # the show step follows the player's own bid: no news
            lines.append("")
            lines.append(f"--- Round {view.round + 1}: {self.name(seat)} to play ---")
            lines += self.table_lines(view)
        lines.append(f"[bold]Your dice{who}: {dice_text(view.my_dice)}[/bold]")
        if view.phase == "show":
            lines.append(
                f"You may show some of your dice and re-roll the rest (e.g. "
                f"'{_show_example(view)}'), or say 'no'."
            )
            return lines
        higher = "a higher bid" if view.current_bid is not None else "an opening bid"
        options = [f"{higher} (e.g. {self.bid_example(view)})"]
        legal = view.legal_actions
        if LIAR in legal:
            options.append("'liar'")
        if EXACT in legal:
            options.append("'exact'")
        if any(self.game.action_shown(a) is not None for a in legal):
            options.append(f"'{_show_example(view)}' (show and re-roll, then raise)")
        if BUY in legal:
            options.append(f"'buy' (a die for {view.game_pot} chips)")
        if not any(self.game.action_bid(a) is not None for a in legal):
            options[0] = "no bid is left"
        lines.append("Your options: " + ", ".join(options) + "; 'hint', 'help' or 'quit'.")
        return lines

    def hint(self, state: State, seat: int) -> list[str]:
        view = state.view(seat)
        lines = []
        if view.current_bid is not None:
            p_true, p_exact = bid_odds(self.game, view, view.current_bid)
            lines.append(
                f"Odds: the current bid {view.current_bid} is true {pct(p_true)} "
                f"(exactly right {pct(p_exact)})."
            )
        if view.phase != "bid":
            return lines
        raises = []
        for c in sorted(raise_candidates(self.game, view, 0.5), key=lambda c: c.least.face):
            text = f"{c.least} {pct(c.least_p)}"
            if c.bid != c.least:
                text += f" ... {c.bid} {pct(c.p)}"
            raises.append(f"  {text}")
        if raises:
            lines.append(
                "Your least raise on each face, and the highest still at least 50% likely:"
            )
            lines += raises
        suggestion = self.hinter.choose(self.game, view)
        lines.append(f"The prob bot would play: {self.game.action_to_string(suggestion)}.")
        return lines

    def help(self) -> list[str]:
        rules = self.rules
        lines = [
            "Commands:",
            "  4x3, '4 3' or 'four threes'  bid: at least four dice show 3",
            "  liar                          challenge the current bid",
        ]
        if rules.exact.value != "none":
            lines.append("  exact                         claim the bid is exactly right")
        if rules.show_reroll is ShowReroll.AFTER:
            lines.append("  show 6 6                      show those dice, re-roll the rest, raise")
        elif rules.show_reroll is ShowReroll.BEFORE:
            lines.append("  show 6 6 / no                 after raising: show and re-roll, or not")
        if rules.economy is Economy.RICH_MAN:
            lines.append("  buy                           buy a die for the pot (which doubles)")
        if rules.house_penalties:
            lines.append("  ask turn / ask count          ask a question (costs you a die!)")
        lines += [
            "  hint                          odds of the current bid and of your raises",
            "  status                        show the table and your dice again",
            "  quit                          leave the game",
        ]
        if rules.wild is not None:
            palifico = " (not in palifico rounds)" if rules.palifico else ""
            lines.append(f"Wilds: {rules.wild}s count toward every other face{palifico}.")
        if rules.palifico:
            lines.append(
                "Palifico: a player left with one die opens a palifico round, where every "
                "raise keeps the opening face."
            )
        return [escape(line) for line in lines]

    def prompt(self, state: State, seat: int) -> str:
        view = state.view(seat)
        if view.phase == "show":
            return f"show dice (e.g. '{_show_example(view)}') or 'no'?"
        return "your move?"

    def empty_reply(self, state: State) -> str:
        view = state.view(state.current_player)
        if view.phase == "show":
            return f"Type '{_show_example(view)}' to show dice, 'no' to show none, or 'help'."
        legal = view.legal_actions
        words = [f"'{c}'" for c, a in (("liar", LIAR), ("exact", EXACT)) if a in legal]
        if any(self.game.action_bid(a) is not None for a in legal):
            words.insert(0, f"a bid like {self.bid_example(view)}")
        return "Type " + ", ".join([*words, "or 'help'."])

    def bid_example(self, view: PlayerView) -> str:
        """A bid the player may make now, as typed: the least legal raise (or opening bid) on
        the face they hold most of, in digits and in words: ``6x4 or 'six fours'``."""
        bids = [b for a in view.legal_actions if (b := self.game.action_bid(a)) is not None]
        if not bids:
            return "no bid (none is left)"
        held = [view.my_dice.count(b.face) for b in bids]
        best = max(range(len(bids)), key=lambda i: (held[i], -i))  # legal order: least first
        bid = bids[best]
        return f"{bid} or '{bid_to_words(bid)}'"

    def parse(self, line: str) -> tuple[str, Any]:
        return parse_command(line, faces=self.rules.faces, wild=self.rules.wild)

    def move(self, state: State, seat: int, kind: str, arg: Any) -> Answer:
        if kind == "ask":
            return self.ask(state, seat, str(arg))
        if kind == "no-show":
            view = state.view(seat)
            if view.phase == "show":
                return Answer(action=NO_SHOW)
            call = " or call 'liar'." if view.current_bid is not None else "."
            return Answer(lines=("There is no passing: raise the bid" + call,))
        if kind == "show":
            return self.check_show(state, seat, tuple(arg))
        if kind == "bid":
            reason = state.explain_bid(arg)  # one message for every bid, however large
            if reason:
                return Answer(lines=(self.not_allowed(reason),))
            return Answer(action=self.game.bid_action(arg))
        return Answer(action={"liar": LIAR, "exact": EXACT, "buy": BUY}[kind])

    def check_show(self, state: State, seat: int, faces: tuple[int, ...]) -> Answer:
        """The show action for ``faces``, or why it cannot be made."""
        if self.rules.show_reroll is ShowReroll.OFF:
            return Answer(lines=("Show-and-reroll is not part of these rules.",))
        hand = list(state.view(seat).my_dice)
        for f in faces:
            if f not in hand:
                why = f"You can only show dice you hold hidden; your dice: {dice_text(hand)}."
                return Answer(lines=(why,))
            hand.remove(f)
        if not hand:
            return Answer(lines=("Keep at least one die hidden to re-roll.",))
        return Answer(action=self.game.show_action(faces))

    def ask(self, state: State, seat: int, question: str) -> Answer:
        view = state.view(seat)
        answer = (
            "It is your turn."
            if question == Question.TURN
            else f"{counted(view.dice_in_play, 'die', 'be')} in play."
        )
        try:
            state = state.ask(seat, question)
        except LiarsDiceError:
            return Answer(lines=(f"{answer} (Questions are free in these rules.)",))
        self.questions[seat] = self.questions.get(seat, 0) + 1
        cost = f"{answer} Asking costs {self.name(seat)} a die at the end of this round."
        return Answer(lines=(cost,), state=state)
