"""``liarsdice play``: a game in plain lines, for terminals, pipes and screen readers.

Every line the game prints is plain text (colour only on a terminal), and every answer is one
line read from standard input, so a whole game can be piped in. One or more humans (hot-seat)
play against bots; a seed makes the game, dice and bots alike, reproducible.

What a player sees is built from their own :class:`~liarsdice.core.view.PlayerView` only, and
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
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.markup import escape

from liarsdice.bots import Bot, ProbBot, bot_names, make_bot
from liarsdice.bots.prob import raise_candidates
from liarsdice.cli.terminal import Terminal, pct
from liarsdice.core import (
    BUY,
    CHANCE,
    EXACT,
    LIAR,
    NO_SHOW,
    PRESETS,
    Bid,
    Economy,
    Game,
    IllegalActionError,
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
    parse_option,
    preset,
)
from liarsdice.core.poker import POKER_PRESETS
from liarsdice.notation.bids import Call, bid_to_words, parse_call, parse_human_bid
from liarsdice.odds import bid_odds

__all__ = ["parse_command", "play", "seat_plan"]

# Blank lines printed to scroll one player's dice off the screen in hot-seat games.

_QUIT = {"quit", "exit", "q", "bye"}
_HELP = {"help", "?", "h", "commands"}
_HINT = {"hint", "hints", "odds"}
_STATUS = {"status", "look", "dice", "board", "s"}
_NO_SHOW = {"no", "n", "pass", "none", "skip", "no show", "no-show", "noshow"}
_QUESTIONS = {
    "turn": Question.TURN,
    "whose turn": Question.TURN,
    "is it my turn": Question.TURN,
    "count": Question.COUNT,
    "how many": Question.COUNT,
    "how many are left": Question.COUNT,
}


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
    if low in _QUIT:
        return ("quit", None)
    if low in _HELP:
        return ("help", None)
    if low in _HINT:
        return ("hint", None)
    if low in _STATUS:
        return ("status", None)
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


# ------------------------------------------------------------------------------ the session
@dataclass
class Seat:
    """One player at the table: a human or a bot."""

    name: str
    bot: Bot | None = None

    @property
    def human(self) -> bool:
        return self.bot is None


def _dice(values: Sequence[int]) -> str:
    return " ".join(map(str, values)) if values else "none"


def _plural(n: int, word: str) -> str:
    if word == "die":
        return f"{n} {'die' if n == 1 else 'dice'}"
    return f"{n} {word}{'' if n == 1 else 's'}"


def _bid(bid: Bid) -> str:
    return f"{bid} ({bid_to_words(bid)})"


class Session(Terminal):
    """One game at the terminal: the loop, the narration and the human prompts."""

    def __init__(
        self,
        game: Game,
        seats: list[Seat],
        rng: random.Random,
        console: Console,
        *,
        hints: bool = False,
        save: Path | None = None,
    ) -> None:
        super().__init__(seats, console)
        self.game = game
        self.rules: Rules = game.rules
        self.seats = seats
        self.rng = rng
        self.hints = hints
        self.save = save
        self.humans = [i for i, s in enumerate(seats) if s.human]
        self.announced_round = -1
        self.palifico_round = False  # wilds are off in this round's count
        self.questions: dict[int, int] = {}  # penalty questions asked this round, by seat
        self.reported = 0  # round results already narrated
        self.hinter = ProbBot(random.Random(0), bluff=0.0, noise=0.0)

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
            if state.round != self.announced_round and state.phase is Phase.BID:
                self.round_header(state)
            if self.seats[seat].human:
                next_state = self.human_turn(state, seat)
                if next_state is None:
                    quit_early = True
                    break
                state = next_state
            else:
                bot = self.seats[seat].bot
                assert bot is not None
                action = bot.choose(self.game, state.view(seat))
                state = self.act(state, seat, action)
        if quit_early:
            self.say("Game abandoned.")
        else:
            self.game_over(state)
        if self.save is not None:
            self.write_record(state)
        return 0

    def act(self, state: State, seat: int, action: int) -> State:
        """Apply a move, narrate it (public facts only) and any reveal it causes."""
        before = state
        state = state.apply_action(action)
        while state.current_player == CHANCE and state.phase in (Phase.REROLL, Phase.BUY_ROLL):
            state = state.apply_action(state.sample_chance(self.rng))
        if self.hot_seat and self.screen == seat and state.current_player != seat:
            self.hide_screen()
        self.narrate(before, seat, action)
        for result in state.results[self.reported :]:
            self.reveal(result)
        self.reported = len(state.results)
        return state

    def narrate(self, before: State, seat: int, action: int) -> None:
        game = self.game
        bid = game.action_bid(action)
        shown = game.action_shown(action)
        cur = before.current_bid
        if bid is not None:
            self.say(f"{self.verb(seat, 'bids', 'bid')} {_bid(bid)}.")
        elif action in (LIAR, EXACT) and cur is not None:
            what = "liar" if action == LIAR else "exact"
            line = f"{self.verb(seat, 'calls', 'call')} {what} on {self.whose(before.bidder)} {cur}"
            if action == LIAR and self.rules.resolution is Resolution.ALL_CALL:
                others = sum(
                    1 for p, d in enumerate(before.dice_counts) if d and p != before.bidder
                )
                line += f" ({len(before.callers) + 1} of {others} callers)"
            self.say(line + "!")
        elif action == NO_SHOW:
            self.say(f"{self.verb(seat, 'does', 'do')} not show any dice.")
        elif shown is not None:
            public = before.view(-1)
            rerolled = public.dice_counts[seat] - len(public.shown[seat]) - len(shown)
            self.say(
                f"{self.verb(seat, 'shows', 'show')} {_dice(shown)} and "
                f"{'re-rolls' if not self._you(seat) else 're-roll'} {_plural(rerolled, 'die')}."
            )
        elif action == BUY:
            pot = before.view(-1).game_pot
            self.say(
                f"{self.verb(seat, 'buys', 'buy')} a die for {pot} chips; "
                f"the pot doubles to {2 * pot}."
            )

    # ------------------------------------------------------------ public displays
    def round_header(self, state: State) -> None:
        view = state.view(-1)
        self.announced_round = state.round
        self.palifico_round = view.palifico
        self.say()
        self.say(f"[bold]=== Round {view.round + 1} ===[/bold]")
        counts = ", ".join(f"{self.name(p)} {d}" for p, d in enumerate(view.dice_counts) if d > 0)
        self.say(f"Dice: {counts} ({view.dice_in_play} in play).")
        if view.stash is not None:
            self.say(f"Open stash: {_dice(view.stash)}.")
        elif view.stash_size:
            self.say(f"Secret stash: {_plural(view.stash_size, 'die')} nobody can see.")
        if view.palifico:
            self.say(
                "Palifico round: wilds count only as themselves, and every raise keeps the "
                "opening face."
            )
        self.say(f"{self.name(view.to_move)} {'open' if self._you(view.to_move) else 'opens'}.")

    def table_lines(self, view: PlayerView) -> list[str]:
        """Public facts of the table, from one player's view."""
        rules = self.rules
        lines: list[str] = []
        parts = []
        for p, d in enumerate(view.dice_counts):
            if d == 0:
                parts.append(f"{self.name(p)} out")
                continue
            text = f"{self.name(p)} {_plural(d, 'die')}"
            if view.shown[p]:
                text += f" (showing {_dice(view.shown[p])})"
            parts.append(text)
        lines.append(f"Players: {'; '.join(parts)}. {view.dice_in_play} dice in play.")
        if view.stash is not None:
            lines.append(f"Open stash: {_dice(view.stash)}.")
        elif view.stash_size:
            lines.append(f"Secret stash: {_plural(view.stash_size, 'die')}.")
        if rules.economy is Economy.CHIPS:
            chips = ", ".join(f"{self.name(p)} {c}" for p, c in enumerate(view.chips))
            lines.append(f"Chips: {chips}. Round pot {view.round_pot}, game pot {view.game_pot}.")
        elif rules.economy is Economy.RICH_MAN:
            chips = ", ".join(f"{self.name(p)} {c}" for p, c in enumerate(view.chips))
            lines.append(f"Chips: {chips}. Pot {view.game_pot} (the price of a die).")
        if rules.calling_advantage:
            lines.append(f"Pile: {_plural(view.pile, 'die')} (won by a right exact call).")
        if rules.scoring is Scoring.ROOM:
            scores = ", ".join(f"{self.name(p)} {s}" for p, s in enumerate(view.scores))
            lines.append(f"Scores: {scores}.")
        if rules.drinking:
            drinks = ", ".join(f"{self.name(p)} {k}" for p, k in enumerate(view.lost))
            lines.append(f"Drinks: {drinks}.")
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

    def reveal(self, r: RoundResult) -> None:
        """Everything a challenge reveals and what it cost."""
        self.say(f"Reveal of round {r.round + 1}:")
        for p, hand in enumerate(r.hands):
            if hand:
                self.say(f"  {self.name(p)}: {_dice(hand)}")
        if r.stash:
            self.say(f"  stash: {_dice(r.stash)}")
        wild = None if self.palifico_round else self.rules.wild
        what = f"{r.bid.face}s"
        if wild is not None and r.bid.face != wild:
            what += f" (counting wild {wild}s)"
        q = r.bid.quantity
        if r.call == "exact":
            verdict = "exactly right" if r.count == q else "not exact"
        elif r.count >= q:
            verdict = "the bid was true" + (" (exactly)" if r.count == q else "")
        else:
            verdict = "the bid was false"
        self.say(f"{_plural(r.count, 'die')} show {what} against {_bid(r.bid)}: {verdict}.")
        for p, k in sorted(r.losses.items()):
            line = f"{self.verb(p, 'loses', 'lose')} {_plural(k, 'die')}"
            asked = min(k, self.questions.get(p, 0))
            note = f"{asked} for asking questions" if asked else ""
            if r.dice[p] == 0:
                line += f" ({note})" if note else ""
                line += " and are out" if self._you(p) else " and is out"
            else:
                line += f" ({note}; {r.dice[p]} left)" if note else f" ({r.dice[p]} left)"
            if self.rules.drinking:
                line += f"; drink {k}"
            self.say(line + ".")
        for p, k in sorted(r.gains.items()):
            self.say(f"{self.verb(p, 'gains', 'gain')} {_plural(k, 'die')} ({r.dice[p]} now).")
        self.questions = {}
        if not r.losses and not r.gains:
            self.say("Nobody loses a die.")
        won = f"{self.verb(r.winner, 'wins', 'win')} the challenge"
        if r.round_pot_won:
            won += f" and the round pot of {r.round_pot_won} chips"
        self.say(won + ".")
        if r.chips is not None:
            chips = ", ".join(f"{self.name(p)} {c}" for p, c in enumerate(r.chips))
            self.say(f"Chips: {chips}; game pot {r.game_pot}.")
        if self.rules.calling_advantage:
            self.say(f"Pile: {_plural(r.pile, 'die')}.")
        if r.scores is not None:
            scores = ", ".join(f"{self.name(p)} {s}" for p, s in enumerate(r.scores))
            self.say(f"Scores: {scores}.")

    def game_over(self, state: State) -> None:
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
        view = state.view(-1)
        if self.rules.economy is not Economy.NONE:
            chips = ", ".join(f"{self.name(p)} {c}" for p, c in enumerate(view.chips))
            self.say(f"Chips: {chips}.")
        if self.rules.scoring is Scoring.ROOM:
            scores = ", ".join(f"{self.name(p)} {s}" for p, s in enumerate(view.scores))
            self.say(f"Scores: {scores}.")
        if self.rules.drinking:
            drinks = ", ".join(f"{self.name(p)} {k}" for p, k in enumerate(view.lost))
            self.say(f"Drinks: {drinks}.")

    def write_record(self, state: State) -> None:
        """Save the game record (``--save``), even of a game left before its end."""
        assert self.save is not None
        from liarsdice.notation.record import dumps_record, record_from_state

        try:
            text = dumps_record(record_from_state(state))
            self.save.write_text(text, encoding="utf-8")
        except (OSError, LiarsDiceError) as e:
            reason = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
            self.say(f"Cannot save the game to {escape(str(self.save))}: {escape(reason)}.")
            return
        self.say(f"Game record saved to {escape(str(self.save))}.")

    # ------------------------------------------------------------------- humans
    def human_turn(self, state: State, seat: int) -> State | None:
        """Prompt a human until they make a legal move; None when they quit."""
        seat_name = self.name(seat)
        if self.hot_seat and self.screen != seat:
            self.say(f"Pass the screen to {seat_name}.")
            if self.read(f"{seat_name}, press Enter when only you can see the screen:") is None:
                return None
            self.screen = seat
        self.status(state, seat)
        if self.hints and state.phase is Phase.BID:
            self.hint(state, seat)
        while True:
            view = state.view(seat)
            prompt = (
                "show dice (e.g. 'show 6 6') or 'no'?" if view.phase == "show" else "your move?"
            )
            line = self.read(f"{seat_name}, {prompt}" if self.hot_seat else prompt.capitalize())
            if line is None:
                return None
            kind, arg = parse_command(line, faces=self.rules.faces, wild=self.rules.wild)
            action: int | None = None
            if kind == "quit":
                return None
            if kind == "empty":
                self.say("Type a bid like 4x3 or 'four threes', 'liar', or 'help'.")
            elif kind == "help":
                self.help()
            elif kind == "hint":
                self.hint(state, seat)
            elif kind == "status":
                self.status(state, seat)
            elif kind == "error":
                self.say(escape(str(arg)))
            elif kind == "ask":
                state = self.ask(state, seat, str(arg))
            elif kind == "no-show":
                if view.phase == "show":
                    action = NO_SHOW
                else:
                    self.say(
                        "There is no passing: raise the bid"
                        + (" or call 'liar'." if view.current_bid is not None else ".")
                    )
            elif kind == "liar":
                action = LIAR
            elif kind == "exact":
                action = EXACT
            elif kind == "buy":
                action = BUY
            elif kind == "show":
                action = self.check_show(state, seat, tuple(arg))
            elif kind == "bid":
                try:
                    action = self.game.bid_action(arg)
                except IllegalActionError as e:
                    self.say(escape(str(e)) + ".")
            if action is None:
                continue
            if action not in state.legal_actions():
                reason = state.explain_illegal(action) or "that move is not allowed now"
                self.say(f"[red]Not allowed:[/red] {escape(reason)}.")
                continue
            return self.act(state, seat, action)

    def check_show(self, state: State, seat: int, faces: tuple[int, ...]) -> int | None:
        """The show action for ``faces``, or None after saying why it cannot be made."""
        if self.rules.show_reroll is ShowReroll.OFF:
            self.say("Show-and-reroll is not part of these rules.")
            return None
        hand = list(state.view(seat).my_dice)
        for f in faces:
            if f not in hand:
                self.say(f"You can only show dice you hold hidden; your dice: {_dice(hand)}.")
                return None
            hand.remove(f)
        if not hand:
            self.say("Keep at least one die hidden to re-roll.")
            return None
        return self.game.show_action(faces)

    def ask(self, state: State, seat: int, question: str) -> State:
        view = state.view(seat)
        answer = (
            "It is your turn."
            if question == Question.TURN
            else f"{view.dice_in_play} dice are in play."
        )
        try:
            state = state.ask(seat, question)
        except LiarsDiceError:
            self.say(f"{answer} (Questions are free in these rules.)")
            return state
        self.questions[seat] = self.questions.get(seat, 0) + 1
        self.say(f"{answer} Asking costs {self.name(seat)} a die at the end of this round.")
        return state

    def status(self, state: State, seat: int) -> None:
        view = state.view(seat)
        who = f" ({self.name(seat)})" if self.hot_seat else ""
        if view.phase != "show":  # the show step follows the player's own bid: no news
            self.say()
            self.say(f"--- Round {view.round + 1}: {self.name(seat)} to play ---")
            for line in self.table_lines(view):
                self.say(line)
        self.say(f"[bold]Your dice{who}: {_dice(view.my_dice)}[/bold]")
        if view.phase == "show":
            self.say(
                "You may show some of your dice and re-roll the rest (e.g. 'show 6 6'), "
                "or say 'no'."
            )
        else:
            higher = "a higher bid" if view.current_bid is not None else "an opening bid"
            options = [f"{higher} (e.g. 4x3 or 'four threes')"]
            legal = view.legal_actions
            if LIAR in legal:
                options.append("'liar'")
            if EXACT in legal:
                options.append("'exact'")
            if any(self.game.action_shown(a) is not None for a in legal):
                options.append("'show 6 6' (show and re-roll, then raise)")
            if BUY in legal:
                options.append(f"'buy' (a die for {view.game_pot} chips)")
            if not any(self.game.action_bid(a) is not None for a in legal):
                options[0] = "no bid is left"
            self.say("Your options: " + ", ".join(options) + "; 'hint', 'help' or 'quit'.")

    def hint(self, state: State, seat: int) -> None:
        """Exact odds from the player's own view, and what the prob bot would do."""
        view = state.view(seat)
        if view.current_bid is not None:
            p_true, p_exact = bid_odds(self.game, view, view.current_bid)
            self.say(
                f"Odds: the current bid {view.current_bid} is true {pct(p_true)} "
                f"(exactly right {pct(p_exact)})."
            )
        if view.phase != "bid":
            return
        lines = []
        for c in sorted(raise_candidates(self.game, view, 0.5), key=lambda c: c.least.face):
            text = f"{c.least} {pct(c.least_p)}"
            if c.bid != c.least:
                text += f" ... {c.bid} {pct(c.p)}"
            lines.append(text)
        if lines:
            self.say("Your least raise on each face, and the highest still at least 50% likely:")
            for text in lines:
                self.say(f"  {text}")
        suggestion = self.hinter.choose(self.game, view)
        self.say(f"The prob bot would play: {self.game.action_to_string(suggestion)}.")

    def help(self) -> None:
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
            lines.append(
                f"Wilds: {rules.wild}s count toward every other face (not in palifico rounds)."
            )
        for line in lines:
            self.say(escape(line))


# -------------------------------------------------------------------------------- options
def _build_rules(
    rules_name: str,
    players: int | None,
    dice: str | None,
    faces: int | None,
    options: Sequence[str],
) -> Rules:
    overrides: dict[str, Any] = {}
    try:
        for item in options:
            if "=" not in item:
                raise click.BadParameter(f"{item!r} is not name=value", param_hint="--option")
            key, value = item.split("=", 1)
            key = key.strip().replace("-", "_")
            overrides[key] = parse_option(key, value)
        if players is not None:
            overrides["players"] = players
        if dice is not None:
            overrides["dice"] = parse_option("dice", dice)
        if faces is not None:
            overrides["faces"] = faces
        return preset(rules_name, **overrides)
    except (LiarsDiceError, ValueError) as e:
        if isinstance(e, click.BadParameter):
            raise
        raise click.UsageError(str(e)) from None


def seat_plan(
    default_players: int,
    players: int | None,
    names: str | None,
    humans: Sequence[str],
    bots: str,
    watch: bool,
    family: str = "bidding",
) -> list[tuple[str, str | None]]:
    """Every seat as ``(name, bot kind)``, the kind None for a human (shared by every family)."""
    kinds = [k.strip().lower() for k in bots.split(",") if k.strip()] or ["prob"]
    for k in kinds:
        if k not in bot_names(family):
            raise click.BadParameter(
                f"unknown bot {k!r}; bots: {', '.join(bot_names(family))}", param_hint="--bots"
            )
    human_names = [] if watch else (list(humans) or ["you"])
    if names:
        seat_names = [n.strip() for n in names.split(",")]
        if players is not None and players != len(seat_names):
            raise click.UsageError(
                f"--names lists {len(seat_names)} players but --players is {players}"
            )
        if not humans and not watch:
            human_names = seat_names[:1]
        missing = [h for h in human_names if h not in seat_names]
        if missing:
            raise click.UsageError(f"human {missing[0]!r} is not one of --names")
    else:
        count = players if players is not None else max(default_players, len(human_names))
        if count < len(human_names):
            raise click.UsageError(
                f"{len(human_names)} humans need at least {len(human_names)} players"
            )
        seat_names = list(human_names)
        for i in range(count - len(human_names)):
            seat_names.append(f"{kinds[i % len(kinds)]}-{i + 1}")
    plan: list[tuple[str, str | None]] = []
    bot_index = 0
    for n in seat_names:
        if n in human_names:
            plan.append((n, None))
        else:
            plan.append((n, kinds[bot_index % len(kinds)]))
            bot_index += 1
    return plan


def _seats(
    rules: Rules,
    players: int | None,
    names: str | None,
    humans: Sequence[str],
    bots: str,
    watch: bool,
    seed: int,
    think: float | None = None,
) -> list[Seat]:
    plan = seat_plan(rules.players, players, names, humans, bots, watch)
    return [
        Seat(n)
        if kind is None
        else Seat(n, make_bot(kind, random.Random(f"{seed}:bot:{i}"), think=think))
        for i, (n, kind) in enumerate(plan)
    ]


@click.command("play")
@click.option(
    "--rules",
    "rules_name",
    default="classic",
    show_default=True,
    type=click.Choice([*PRESETS, *POKER_PRESETS], case_sensitive=False),
    help="Rule preset (see 'liarsdice rules'); 'poker-dice' plays the poker-dice family.",
)
@click.option("--players", type=click.IntRange(2, 12), help="Number of players.")
@click.option("--dice", help="Dice per player (e.g. 5, or 5,4 per seat).")
@click.option("--faces", type=click.IntRange(2, 12), help="Faces per die.")
@click.option("--seed", type=int, help="Seed for the dice and the bots (reproducible games).")
@click.option(
    "--option",
    "options",
    multiple=True,
    metavar="NAME=VALUE",
    help="Any rule option, e.g. --option show_reroll=after (repeatable).",
)
@click.option(
    "--bots",
    default="prob",
    show_default=True,
    help=f"Bot kinds for the other seats, comma-separated, cycled ({', '.join(bot_names())}).",
)
@click.option(
    "--human",
    "humans",
    multiple=True,
    metavar="NAME",
    help="A human player (repeat for hot-seat play). Default: one human called 'you'.",
)
@click.option("--names", help="Every seat's name in order, comma-separated.")
@click.option("--save", type=click.Path(dir_okay=False, path_type=Path), help="Save the record.")
@click.option("--hints", is_flag=True, help="Show the odds of the current bid and your raises.")
@click.option("--watch", is_flag=True, help="No humans: watch the bots play.")
@click.option(
    "--think",
    type=click.FloatRange(0.001, 60),
    help="Seconds per move for the expert bots (default: theirs).",
)
def play(
    rules_name: str,
    players: int | None,
    dice: str | None,
    faces: int | None,
    seed: int | None,
    options: tuple[str, ...],
    bots: str,
    humans: tuple[str, ...],
    names: str | None,
    save: Path | None,
    hints: bool,
    watch: bool,
    think: float | None,
) -> None:
    """Play Liar's Dice against bots, or hot-seat with friends, one line at a time.

    Type bids as 3x5, '3 5' or 'three fives'; 'liar' to challenge; 'help' for the rest.
    With --rules poker-dice, bid poker hands ('pair K', 'a pair of kings').
    """
    if rules_name.lower() in POKER_PRESETS:
        from liarsdice.cli.play_poker import play_poker

        play_poker(
            rules_name.lower(),
            players=players,
            dice=dice,
            faces=faces,
            seed=seed,
            options=options,
            bots=bots,
            humans=humans,
            names=names,
            save=save,
            hints=hints,
            watch=watch,
            think=think,
        )
        return
    if names:
        players = players if players is not None else len(names.split(","))
    rules = _build_rules(rules_name.lower(), players, dice, faces, options)
    if seed is None:
        seed = random.SystemRandom().randrange(1_000_000)
    seats = _seats(rules, players, names, humans, bots, watch, seed, think)
    if len(seats) != rules.players:
        rules = _build_rules(rules_name.lower(), len(seats), dice, faces, options)
    try:
        game = Game(rules, [s.name for s in seats])
    except LiarsDiceError as e:
        raise click.UsageError(str(e)) from None
    console = Console(highlight=False, soft_wrap=True, emoji=False)
    session = Session(game, seats, random.Random(seed), console, hints=hints, save=save)
    console.print(
        f"Liar's Dice: {escape(rules.name)} rules, {len(seats)} players, seed {seed}. "
        "Type 'help' at any prompt.",
        highlight=False,
    )
    if rules.description:
        console.print(escape(rules.description), highlight=False)
    code = session.run()
    if code:
        raise SystemExit(code)
