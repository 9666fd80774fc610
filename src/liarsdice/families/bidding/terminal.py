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
from collections.abc import Callable
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
from liarsdice.families.bidding.plain import FACES as _FACES
from liarsdice.families.terminal import (
    Answer,
    GameTerminal,
    dice,
    dice_text,
    meta_command,
    pct,
    words_of,
)
from liarsdice.i18n import DEFAULT, N_, _, current, ngettext, pgettext
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
# Input words in the language in use, besides the English ones (comma-separated)
_WORDS = {
    "buy": N_("buy, buy a die, buy die"),
    "no-show": N_("no, pass, none, skip, no show"),
    "liar": N_("liar, challenge, doubt"),
    "exact": N_("exact, spot on"),
    Question.TURN: N_("turn, whose turn, is it my turn"),
    Question.COUNT: N_("count, how many, how many are left"),
}
_TRY = N_("(type 'help' for every command)")


# Number words of bids in words (English as bid_to_words writes them; their translations)
_NUMBERS = (
    N_("zero"), N_("one"), N_("two"), N_("three"), N_("four"), N_("five"), N_("six"),
    N_("seven"), N_("eight"), N_("nine"), N_("ten"), N_("eleven"), N_("twelve"),
    N_("thirteen"), N_("fourteen"), N_("fifteen"), N_("sixteen"), N_("seventeen"),
    N_("eighteen"), N_("nineteen"), N_("twenty"), N_("twenty-one"), N_("twenty-two"),
    N_("twenty-three"), N_("twenty-four"), N_("twenty-five"), N_("twenty-six"),
    N_("twenty-seven"), N_("twenty-eight"), N_("twenty-nine"),
)  # fmt: skip
_TENS = (
    N_("thirty"), N_("forty"), N_("fifty"), N_("sixty"), N_("seventy"), N_("eighty"),
    N_("ninety"),
)  # fmt: skip


def number_words(n: int) -> str:
    """``n`` (1..99) in words in the language in use; 100 or more in digits, as
    :func:`~liarsdice.notation.bidding.bids.bid_to_words` writes them.

    >>> number_words(3), number_words(21), number_words(47), number_words(100)
    ('three', 'twenty-one', 'forty-seven', '100')
    """
    if n < len(_NUMBERS):
        return _(_NUMBERS[n])
    if n >= 100:
        return str(n)
    tens, units = divmod(n, 10)
    if units == 0:
        return _(_TENS[tens - 3])
    # Translators: a number from 31 to 99 in words, its tens and its units ("thirty-one").
    return _("{tens}-{units}").format(tens=_(_TENS[tens - 3]), units=_(_NUMBERS[units]))


def bid_words(bid: Bid) -> str:
    """A bid in words, in the language in use (English: as ``bid_to_words`` writes it).

    >>> bid_words(Bid(3, 5)), bid_words(Bid(1, 6)), bid_words(Bid(21, 3))
    ('three fives', 'one six', 'twenty-one threes')
    """
    quantity, face = bid
    if not 1 <= face <= len(_FACES):
        return bid_to_words(bid)
    # Translators: a bid in words: a number, then a face agreeing with it ("three fives").
    return _("{number} {faces}").format(
        number=number_words(quantity), faces=_FACES[face - 1](quantity)
    )


def face_count(count: int, face: int) -> str:
    """How many dice show ``face``, in words that agree with the count.

    >>> face_count(0, 6), face_count(1, 6), face_count(1, 3), face_count(4, 3)
    ('no sixes', 'one six', 'one three', 'four threes')
    """
    if count < 1:
        return _("no {faces}").format(faces=face_plural(face))
    return bid_words(Bid(count, face))


def face_plural(face: int) -> str:
    """A face's name in the plural (``sixes``), in the language in use."""
    if not 1 <= face <= len(_FACES):
        return bid_to_words(Bid(2, face)).split(" ", 1)[1]
    return _FACES[face - 1](2)


def _from_words(text: str) -> str:
    """A bid typed in words of the language in use, in English words for the English reader
    (``tres cincos``: ``three fives``; English words and digits pass as they are)."""
    words: dict[str, str] = {}
    for english in (*_NUMBERS, *_TENS):
        words.setdefault(_(english).lower(), english)
    for face, name in enumerate(_FACES, start=1):
        for n in (1, 2):
            words.setdefault(name(n).lower(), name_english(face, n))
    words.update({w: "ones" for w in words_of(N_("aces, wilds"))})
    tokens = text.lower().replace(",", " ").split()
    out: list[str] = []
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if i + 2 < len(tokens) and tokens[i + 1] == _("and") and tok in words:
            out.append(f"{words[tok]}-{words.get(tokens[i + 2], tokens[i + 2])}")
            i += 3
            continue
        out.append(words.get(tok, tok))
        i += 1
    return " ".join(out)


def name_english(face: int, n: int) -> str:
    """A face's English name, singular (``n`` 1) or plural (``six``, ``sixes``)."""
    return bid_to_words(Bid(n, face)).split(" ", 1)[1]


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
    for read in _READERS:
        found = read(raw, low, faces)
        if found is not None:
            return found
    if current() != DEFAULT:
        raw = _from_words(raw)
    if wild is not None:
        raw = re.sub(r"\bwilds?\b", str(wild), raw, flags=re.IGNORECASE)
    try:
        return ("bid", parse_human_bid(raw, faces=faces))
    except NotationError as e:
        return ("error", f"{e} {_(_TRY)}")


def _read_word(raw: str, low: str, faces: int) -> tuple[str, Any] | None:
    """A command of one word or phrase: a meta command (help, quit...), buy or no-show."""
    command = meta_command(low)
    if command is not None:
        return (command, None)
    if low in ("buy", "buy a die", "buy die") or low in words_of(_WORDS["buy"]):
        return ("buy", None)
    if low in _NO_SHOW or low in words_of(_WORDS["no-show"]):
        return ("no-show", None)
    return None


def _read_ask(raw: str, low: str, faces: int) -> tuple[str, Any] | None:
    ask = _command_word(low, "ask", pgettext("command", "ask"))
    if ask is None:
        return None
    question = ask.strip(" ?¿")
    for q in (Question.TURN, Question.COUNT):
        if question in words_of(_WORDS[q]):
            return ("ask", q)
    if question in _QUESTIONS:
        return ("ask", _QUESTIONS[question])
    return ("error", _("ask 'turn' (whose turn is it?) or 'count' (how many dice are left?)"))


def _read_show(raw: str, low: str, faces: int) -> tuple[str, Any] | None:
    show = _command_word(low, "show", pgettext("command", "show"))
    if show is None:
        return None
    numbers = re.findall(r"[0-9]+", show)
    if not numbers or re.search(r"[^0-9,\s]", show):
        return ("error", _("say which dice to show, e.g. 'show 6 6'"))
    shown = tuple(int(n) for n in numbers)
    bad = [f for f in shown if not 1 <= f <= faces]
    if bad:
        return (
            "error",
            _("there is no face {face}: faces run 1..{faces}").format(face=bad[0], faces=faces),
        )
    return ("show", tuple(sorted(shown)))


def _read_call(raw: str, low: str, faces: int) -> tuple[str, Any] | None:
    call = parse_call(raw)
    if call is Call.LIAR or low.strip("!.¡ ") in words_of(_WORDS["liar"]):
        return ("liar", None)
    if call is Call.EXACT or low.strip("!.¡ ") in words_of(_WORDS["exact"]):
        return ("exact", None)
    return None


_READERS: tuple[Callable[[str, str, int], tuple[str, Any] | None], ...] = (
    _read_word,
    _read_ask,
    _read_show,
    _read_call,
)
"""The readers of the commands that are not bids, in the order they are tried: each gives
the command of a line (``raw``, its lower-case words ``low``; ``faces``), or None."""


def _command_word(low: str, *words: str) -> str | None:
    """What follows the command word (any of ``words``) that starts ``low``, or None."""
    for word in words:
        if low == word or low.startswith(word + " "):
            return low[len(word) :]
    return None


def _show_example(view: PlayerView) -> str:
    """A legal show: the dice of the face the player holds most of, keeping one die hidden."""
    hand = list(view.my_dice)
    # Translators: the command that shows dice (also read as input: "show 6 6").
    show = pgettext("command", "show")
    if len(hand) < 2:
        return f"{show} 6 6"  # nothing can be shown; the form only
    face = max(set(hand), key=lambda f: (hand.count(f), f))
    return f"{show} " + " ".join([str(face)] * min(hand.count(face), len(hand) - 1))


def _bid(bid: Bid) -> str:
    return f"{bid} ({bid_words(bid)})"


class _BiddingTable(GameTerminal):
    """What every part of the bidding family's terminal shares: the game, the round's
    palifico and questions, and the table's facts at the start and end of a round."""

    game: Game
    rules: Rules

    def __init__(self, game: Game, *, hot_seat: bool = False) -> None:
        super().__init__(game, hot_seat=hot_seat)
        self.palifico_round = False  # wilds are off in this round's count
        self.questions: dict[int, int] = {}  # penalty questions asked this round, by seat
        self.hinter = ProbBot(random.Random(0), bluff=0.0, noise=0.0)

    def announces(self, state: State) -> bool:
        return state.phase is Phase.BID

    def rolls_in_move(self, state: State) -> bool:
        return state.phase in (Phase.REROLL, Phase.BUY_ROLL)

    def hints_on_turn(self, state: State) -> bool:
        return state.phase is Phase.BID

    def round_header(self, state: State) -> list[str]:
        view = state.view(-1)
        self.palifico_round = view.palifico
        counts = ", ".join(f"{self.name(p)} {d}" for p, d in enumerate(view.dice_counts) if d > 0)
        lines = [
            _("Dice: {counts} ({in_play} in play).").format(
                counts=counts, in_play=view.dice_in_play
            )
        ]
        if view.stash is not None:
            lines.append(_("Open stash: {dice}.").format(dice=dice_text(view.stash)))
        elif view.stash_size:
            lines.append(
                _("Secret stash: {dice} nobody can see.").format(dice=dice(view.stash_size))
            )
        if view.palifico:
            lines.append(
                _(
                    "Palifico round: wilds count only as themselves, and every raise keeps the "
                    "opening face."
                )
            )
        lines.append(self.subject(view.to_move, _("{name} open."), _("{name} opens.")))
        return lines

    def final_tallies(self, state: State) -> list[str]:
        view = state.view(-1)
        lines = []
        if self.rules.economy is not Economy.NONE:
            lines.append(_("Chips: {chips}.").format(chips=self.by_name(view.chips)))
        if self.rules.scoring is Scoring.ROOM:
            lines.append(_("Scores: {scores}.").format(scores=self.by_name(view.scores)))
        if self.rules.drinking:
            lines.append(_("Drinks: {drinks}.").format(drinks=self.by_name(view.lost)))
        return lines

    def bid_example(self, view: PlayerView) -> str:
        """A bid the player may make now, as typed: the least legal raise (or opening bid) on
        the face they hold most of, in digits and in words: ``6x4 or 'six fours'``."""
        bids = [b for a in view.legal_actions if (b := self.game.action_bid(a)) is not None]
        if not bids:
            return _("no bid (none is left)")
        held = [view.my_dice.count(b.face) for b in bids]
        best = max(range(len(bids)), key=lambda i: (held[i], -i))  # legal order: least first
        bid = bids[best]
        return _("{bid} or '{words}'").format(bid=bid, words=bid_words(bid))


class _BiddingNarration(_BiddingTable):
    """The bidding family's narration: every move as the table sees it, and the reveal."""

    def narrate(self, before: State, after: State, seat: int, action: int) -> list[str]:
        game = self.game
        bid = game.action_bid(action)
        shown = game.action_shown(action)
        cur = before.current_bid
        if bid is not None:
            return [
                self.subject(seat, _("{name} bid {bid}."), _("{name} bids {bid}."), bid=_bid(bid))
            ]
        if action in (LIAR, EXACT) and cur is not None:
            tail = ""
            if action == LIAR and self.rules.resolution is Resolution.ALL_CALL:
                others = sum(
                    1 for p, d in enumerate(before.dice_counts) if d and p != before.bidder
                )
                tail = _(" ({callers} of {others} callers)").format(
                    callers=len(before.callers) + 1, others=others
                )
            return [self.call_line(seat, before.bidder, action == LIAR, str(cur), tail)]
        if action == NO_SHOW:
            return [
                self.subject(
                    seat, _("{name} do not show any dice."), _("{name} does not show any dice.")
                )
            ]
        if shown is not None:
            public = before.view(-1)
            rerolled = public.dice_counts[seat] - len(public.shown[seat]) - len(shown)
            return [
                self.subject(
                    seat,
                    _("{name} show {shown} and re-roll {dice}."),
                    _("{name} shows {shown} and re-rolls {dice}."),
                    shown=dice_text(shown),
                    dice=dice(rerolled),
                )
            ]
        if action == BUY:
            pot = before.view(-1).game_pot
            return [
                self.subject(
                    seat,
                    _("{name} buy a die for {pot} chips; the pot doubles to {double}."),
                    _("{name} buys a die for {pot} chips; the pot doubles to {double}."),
                    pot=pot,
                    double=2 * pot,
                )
            ]
        return []

    def reveal(self, r: RoundResult) -> list[str]:
        lines = [_("Reveal of round {round}:").format(round=r.round + 1)]
        for p, hand in enumerate(r.hands):
            if hand:
                lines.append(f"  {self.name(p)}: {dice_text(hand)}")
        if r.stash:
            lines.append(_("  stash: {dice}").format(dice=dice_text(r.stash)))
        lines.append(self._counted(r))
        lines += [self._loss(r, p, k) for p, k in sorted(r.losses.items())]
        for p, k in sorted(r.gains.items()):
            lines.append(
                self.subject(
                    p,
                    _("{name} gain {dice} ({now} now)."),
                    _("{name} gains {dice} ({now} now)."),
                    dice=dice(k),
                    now=r.dice[p],
                )
            )
        self.questions = {}
        if not r.losses and not r.gains:
            lines.append(_("Nobody loses a die."))
        lines.append(self._won(r))
        return lines + self._tallies(r)

    def _counted(self, r: RoundResult) -> str:
        """The count of the bid's face against the bid, and the verdict."""
        wild = None if self.palifico_round else self.rules.wild
        what = face_count(r.count, r.bid.face)
        if wild is not None and r.bid.face != wild:
            what += _(" (wild {faces} included)").format(faces=face_plural(wild))
        q = r.bid.quantity
        if r.call == "exact":
            verdict = _("exactly right") if r.count == q else _("not exact")
        elif r.count >= q:
            verdict = _("the bid was true (exactly)") if r.count == q else _("the bid was true")
        else:
            verdict = _("the bid was false")
        return _("Counted: {what} against {bid}: {verdict}.").format(
            what=what, bid=_bid(r.bid), verdict=verdict
        )

    def _loss(self, r: RoundResult, p: int, k: int) -> str:
        """Seat ``p``'s loss of ``k`` dice: the questions it paid for, what it has left."""
        line = self.subject(p, _("{name} lose {dice}"), _("{name} loses {dice}"), dice=dice(k))
        asked = min(k, self.questions.get(p, 0))
        note = _("{asked} for asking questions").format(asked=asked) if asked else ""
        if r.dice[p] == 0:
            line += f" ({note})" if note else ""
            line += self.subject(p, _(" and are out"), _(" and is out"))
        else:
            left = r.dice[p]
            if self.you(p):  # the same English; other languages may say "you" and "they"
                message = (
                    pgettext("you", " ({note}; {left} left)")
                    if note
                    else pgettext("you", " ({left} left)")
                )
            else:
                message = _(" ({note}; {left} left)") if note else _(" ({left} left)")
            line += message.format(note=note, left=left)
        if self.rules.drinking:
            line += _("; drink {drinks}").format(drinks=k)
        return line + "."

    def _won(self, r: RoundResult) -> str:
        if r.round_pot_won:
            return self.subject(
                r.winner,
                _("{name} win the challenge and the round pot of {pot} chips."),
                _("{name} wins the challenge and the round pot of {pot} chips."),
                pot=r.round_pot_won,
            )
        return self.subject(
            r.winner, _("{name} win the challenge."), _("{name} wins the challenge.")
        )

    def _tallies(self, r: RoundResult) -> list[str]:
        """The chips, pile and scores after the round, where the rules keep them."""
        lines = []
        if r.chips is not None:
            lines.append(
                _("Chips: {chips}; game pot {pot}.").format(
                    chips=self.by_name(r.chips), pot=r.game_pot
                )
            )
        if self.rules.calling_advantage:
            lines.append(_("Pile: {dice}.").format(dice=dice(r.pile)))
        if r.scores is not None:
            lines.append(_("Scores: {scores}.").format(scores=self.by_name(r.scores)))
        return lines


class _BiddingScreen(_BiddingNarration):
    """What a human player is shown on their turn: the table, their dice and options, hints
    and help."""

    def table_lines(self, view: PlayerView) -> list[str]:
        """Public facts of the table, from one player's view."""
        rules = self.rules
        parts = []
        for p, d in enumerate(view.dice_counts):
            if d == 0:
                parts.append(_("{name} out").format(name=self.name(p)))
                continue
            text = f"{self.name(p)} {dice(d)}"
            if view.shown[p]:
                text += _(" (showing {dice})").format(dice=dice_text(view.shown[p]))
            parts.append(text)
        lines = [
            _("Players: {players}. {dice} in play.").format(
                players="; ".join(parts), dice=dice(view.dice_in_play)
            )
        ]
        if view.stash is not None:
            lines.append(_("Open stash: {dice}.").format(dice=dice_text(view.stash)))
        elif view.stash_size:
            lines.append(_("Secret stash: {dice}.").format(dice=dice(view.stash_size)))
        if rules.economy is Economy.CHIPS:
            lines.append(
                _("Chips: {chips}. Round pot {round_pot}, game pot {game_pot}.").format(
                    chips=self.by_name(view.chips),
                    round_pot=view.round_pot,
                    game_pot=view.game_pot,
                )
            )
        elif rules.economy is Economy.RICH_MAN:
            lines.append(
                _("Chips: {chips}. Pot {pot} (the price of a die).").format(
                    chips=self.by_name(view.chips), pot=view.game_pot
                )
            )
        if rules.calling_advantage:
            lines.append(
                _("Pile: {dice} (won by a right exact call).").format(dice=dice(view.pile))
            )
        if rules.scoring is Scoring.ROOM:
            lines.append(_("Scores: {scores}.").format(scores=self.by_name(view.scores)))
        if rules.drinking:
            lines.append(_("Drinks: {drinks}.").format(drinks=self.by_name(view.lost)))
        if view.palifico:
            lines.append(_("Palifico round: no wilds; raise the quantity on the same face."))
        if view.bids:
            history = ", ".join(f"{self.name(p)} {b}" for p, b in view.bids)
            lines.append(_("Bids this round: {bids}.").format(bids=history))
        if view.current_bid is not None:
            line = _("Current bid: {bid} by {name}").format(
                bid=_bid(view.current_bid), name=self.object_name(view.bidder)
            )
            if view.callers:
                line += _("; called by {names}").format(
                    names=", ".join(self.name(p) for p in view.callers)
                )
            lines.append(line + ".")
        else:
            lines.append(_("No bid yet: make the opening bid."))
        return lines

    def status(self, state: State, seat: int) -> list[str]:
        view = state.view(seat)
        who = f" ({self.name(seat)})" if self.hot_seat else ""
        lines = []
        if view.phase != "show":  # the show step follows the player's own bid: no news
            lines.append("")
            lines.append(
                _("--- Round {round}: {name} to play ---").format(
                    round=view.round + 1, name=self.name(seat)
                )
            )
            lines += self.table_lines(view)
        lines.append(
            _("[bold]Your dice{who}: {dice}[/bold]").format(who=who, dice=dice_text(view.my_dice))
        )
        if view.phase == "show":
            lines.append(
                _(
                    "You may show some of your dice and re-roll the rest (e.g. '{example}'), "
                    "or say 'no'."
                ).format(example=_show_example(view))
            )
            return lines
        example = self.bid_example(view)
        if view.current_bid is not None:
            options = [_("a higher bid (e.g. {example})").format(example=example)]
        else:
            options = [_("an opening bid (e.g. {example})").format(example=example)]
        legal = view.legal_actions
        if LIAR in legal:
            options.append(_("'liar'"))
        if EXACT in legal:
            options.append(_("'exact'"))
        if any(self.game.action_shown(a) is not None for a in legal):
            options.append(
                _("'{example}' (show and re-roll, then raise)").format(example=_show_example(view))
            )
        if BUY in legal:
            options.append(_("'buy' (a die for {pot} chips)").format(pot=view.game_pot))
        if not any(self.game.action_bid(a) is not None for a in legal):
            options[0] = _("no bid is left")
        lines.append(
            _("Your options: {options}; 'hint', 'help' or 'quit'.").format(
                options=", ".join(options)
            )
        )
        return lines

    def hint(self, state: State, seat: int) -> list[str]:
        view = state.view(seat)
        lines = []
        if view.current_bid is not None:
            p_true, p_exact = bid_odds(self.game, view, view.current_bid)
            lines.append(
                _("Odds: the current bid {bid} is true {true} (exactly right {exact}).").format(
                    bid=view.current_bid, true=pct(p_true), exact=pct(p_exact)
                )
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
                _("Your least raise on each face, and the highest still at least 50% likely:")
            )
            lines += raises
        suggestion = self.hinter.choose(self.game, view)
        lines.append(_("The prob bot would play: {move}.").format(move=self.move_text(suggestion)))
        return lines

    def move_text(self, action: int) -> str:
        """A move as the player would type it: a bid (``4x2``), ``liar`` or ``exact`` (in the
        language in use)."""
        if action == LIAR:
            return pgettext("move", "liar")
        if action == EXACT:
            return pgettext("move", "exact")
        return self.game.action_to_string(action)

    def help(self) -> list[str]:
        rules = self.rules
        # Translators: each help line is a command as typed, then what it does, in columns.
        lines = [
            _("Commands:"),
            _("  4x3, '4 3' or 'four threes'  bid: at least four dice show 3"),
            _("  liar                          challenge the current bid"),
        ]
        if rules.exact.value != "none":
            lines.append(_("  exact                         claim the bid is exactly right"))
        if rules.show_reroll is ShowReroll.AFTER:
            lines.append(
                _("  show 6 6                      show those dice, re-roll the rest, raise")
            )
        elif rules.show_reroll is ShowReroll.BEFORE:
            lines.append(
                _("  show 6 6 / no                 after raising: show and re-roll, or not")
            )
        if rules.economy is Economy.RICH_MAN:
            lines.append(_("  buy                           buy a die for the pot (which doubles)"))
        if rules.house_penalties:
            lines.append(_("  ask turn / ask count          ask a question (costs you a die!)"))
        lines += [
            _("  hint                          odds of the current bid and of your raises"),
            _("  status                        show the table and your dice again"),
            _("  quit                          leave the game"),
        ]
        if rules.wild is not None:
            if rules.palifico:
                wilds = _("Wilds: {face}s count toward every other face (not in palifico rounds).")
            else:
                wilds = _("Wilds: {face}s count toward every other face.")
            lines.append(wilds.format(face=rules.wild))
        if rules.palifico:
            lines.append(
                _(
                    "Palifico: a player left with one die opens a palifico round, where every "
                    "raise keeps the opening face."
                )
            )
        return [escape(line) for line in lines]


class BiddingTerminal(_BiddingScreen):
    """A bidding-family game at the terminal: its narration, screen and the reading of a
    human's moves (prompts, and a move checked before it is made)."""

    def prompt(self, state: State, seat: int) -> str:
        view = state.view(seat)
        if view.phase == "show":
            return _("show dice (e.g. '{example}') or 'no'?").format(example=_show_example(view))
        return _("your move?")

    def empty_reply(self, state: State) -> str:
        view = state.view(state.current_player)
        if view.phase == "show":
            return _("Type '{example}' to show dice, 'no' to show none, or 'help'.").format(
                example=_show_example(view)
            )
        legal = view.legal_actions
        words = [c for c, a in ((_("'liar'"), LIAR), (_("'exact'"), EXACT)) if a in legal]
        if any(self.game.action_bid(a) is not None for a in legal):
            words.insert(0, _("a bid like {example}").format(example=self.bid_example(view)))
        return (
            _("Type {choices}, or 'help'.").format(choices=", ".join(words))
            if words
            else _("Type or 'help'.")
        )

    def parse(self, line: str) -> tuple[str, Any]:
        return parse_command(line, faces=self.rules.faces, wild=self.rules.wild)

    def move(self, state: State, seat: int, kind: str, arg: Any) -> Answer:
        if kind == "ask":
            return self.ask(state, seat, str(arg))
        if kind == "no-show":
            view = state.view(seat)
            if view.phase == "show":
                return Answer(action=NO_SHOW)
            if view.current_bid is not None:
                return Answer(lines=(_("There is no passing: raise the bid or call 'liar'."),))
            return Answer(lines=(_("There is no passing: raise the bid."),))
        if kind == "show":
            return self.check_show(state, seat, tuple(arg))
        if kind == "bid":
            reason = self.bid_reason(state, arg)  # one message for every bid, however large
            if reason:
                return Answer(lines=(self.not_allowed(reason),))
            return Answer(action=self.game.bid_action(arg))
        return Answer(action={"liar": LIAR, "exact": EXACT, "buy": BUY}[kind])

    def bid_reason(self, state: State, bid: Bid) -> str:
        """Why ``bid`` may not be made now (empty when it may): the core's reason
        (:meth:`~liarsdice.core.bidding.State.explain_bid`), said in the language in use when
        it is about the bidding step (the reasons that rules and the current bid give)."""
        reason = state.explain_bid(bid)
        if not reason or state.phase is not Phase.BID or not 1 <= bid.face <= self.rules.faces:
            return reason  # the game over, a chance due, the show step: the core's English
        game = self.game
        cur = state.current_bid
        legal = state.legal_bids()
        least = ", ".join(game.action_to_string(a) for a in legal[:4]) or _("none; call")
        cap = state.table.cap
        if bid.quantity > cap:
            if cur is None:
                message = _("{bid} needs more dice than the {cap} in play")
            else:
                message = _(
                    "{bid} needs more dice than the {cap} in play; it must beat {current} "
                    "(least legal bids: {least})"
                )
        elif state.table.palifico and cur is not None:
            message = _(
                "palifico round: keep the face and raise the quantity: {bid} does not beat "
                "{current} (least legal bids: {least})"
            )
        elif cur is None:
            if not self.rules.open_on_wild and bid.face == self.rules.wild:
                message = _("the opening bid may not be on wilds ({face}s)")
            else:
                message = _("{bid} is not a legal opening bid")
        elif not legal:
            message = _("{current} is the top bid: you must call")
        else:
            message = _("{bid} does not beat {current}; least legal bids: {least}")
        return message.format(bid=bid, current=cur, least=least, cap=cap, face=bid.face)

    def check_show(self, state: State, seat: int, faces: tuple[int, ...]) -> Answer:
        """The show action for ``faces``, or why it cannot be made."""
        if self.rules.show_reroll is ShowReroll.OFF:
            return Answer(lines=(_("Show-and-reroll is not part of these rules."),))
        hand = list(state.view(seat).my_dice)
        for f in faces:
            if f not in hand:
                why = _("You can only show dice you hold hidden; your dice: {dice}.").format(
                    dice=dice_text(hand)
                )
                return Answer(lines=(why,))
            hand.remove(f)
        if not hand:
            return Answer(lines=(_("Keep at least one die hidden to re-roll."),))
        return Answer(action=self.game.show_action(faces))

    def ask(self, state: State, seat: int, question: str) -> Answer:
        view = state.view(seat)
        n = view.dice_in_play
        answer = (
            _("It is your turn.")
            if question == Question.TURN
            else ngettext("{n} die is in play.", "{n} dice are in play.", n).format(n=n)
        )
        try:
            state = state.ask(seat, question)
        except LiarsDiceError:
            return Answer(
                lines=(_("{answer} (Questions are free in these rules.)").format(answer=answer),)
            )
        self.questions[seat] = self.questions.get(seat, 0) + 1
        cost = _("{answer} Asking costs {name} a die at the end of this round.").format(
            answer=answer, name=self.object_name(seat)
        )
        return Answer(lines=(cost,), state=state)
