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
from collections.abc import Callable, Sequence
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
)
from liarsdice.core.poker.state import FIVE_ROLLS
from liarsdice.families.terminal import (
    Answer,
    GameTerminal,
    dice,
    dice_text,
    lives,
    meta_command,
    pct,
    rolls,
    words_of,
)
from liarsdice.i18n import N_, _, ngettext, npgettext, pgettext

__all__ = ["PokerTerminal", "parse_poker_command"]

_LIAR = {"liar", "call", "call liar", "dudo", "lie", "you lie", "liar liar"}
_ACCEPT = {"accept", "take", "take it", "take the cup", "ok", "i accept"}
_NO_ROLL = {"no shake", "dont shake", "no reroll", "no roll", "stay", "roll none", "keep all"}
_FACES_RE = r"[0-9a-z ]*"
# Input words in the language in use, besides the English ones (comma-separated)
_WORDS = {
    "liar": N_("liar, call, lie"),
    "accept": N_("accept, take, take it"),
    "left": N_("left, pass left"),
    "right": N_("right, pass right"),
}
_TRY = N_("(type 'help' for every command)")
# Where the roll starts on a line that also arranges the dice ('out K K, no shake')
_ROLL_WORDS = re.compile(
    r"\b(?:no shake|dont shake|no reroll|no roll|stay|roll none|keep all|shake|reroll|roll)\b"
)


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
    for read in _READERS:
        found = read(low)
        if found is not None:
            return found
    try:
        return ("move", format_poker_bid(parse_poker_bid(text)))
    except NotationError as e:
        return ("error", f"{e} {_(_TRY)}")


def _read_meta(low: str) -> tuple[str, str] | None:
    command = meta_command(low)
    return None if command is None else (command, "")


def _read_two_moves(low: str) -> tuple[str, str] | None:
    """Two moves on one line: say which to type now."""
    first, then, rest = low.partition(" then ")
    if not then:
        return None
    now, later = parse_poker_command(first), parse_poker_command(rest)
    if now[0] == "move" and later[0] == "move":
        return (
            "error",
            _("one move at a time: type '{now}' now, then '{later}'").format(
                now=now[1], later=later[1]
            ),
        )
    return None


def _read_call(low: str) -> tuple[str, str] | None:
    """A call, an accept, or a direction to pass the cup."""
    if low in _LIAR or low in words_of(_WORDS["liar"]):
        return ("move", "liar")
    if low in _ACCEPT or low in words_of(_WORDS["accept"]):
        return ("move", "accept")
    for word in ("left", "right"):
        if low in words_of(_WORDS[word]):
            return ("move", word)
    for word in ("left", "right"):
        if low in (word, f"pass {word}", f"pass it {word}", f"pass the cup {word}"):
            return ("move", word)
    return None


def _read_roll(low: str) -> tuple[str, str] | None:
    """A shake of the cup, a roll of outside dice, both or neither."""
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
    return None


def _read_dice(low: str) -> tuple[str, str] | None:
    """The dice left outside the cup, or kept in a five-of-a-kind challenge."""
    for word in ("out", "keep"):
        if low == word or low.startswith(word + " "):
            return ("move", f"{word} {_norm_faces(low[len(word) :])}".strip())
    return None


_READERS: tuple[Callable[[str], tuple[str, str] | None], ...] = (
    _read_meta,
    _read_two_moves,
    _read_call,
    _read_roll,
    _read_dice,
)
"""The readers of the lines that are not bids, in the order they are tried: each gives the
command of a line (cleaned: :func:`_clean`), or None."""


_MOVE_WORDS: dict[str, Callable[[], str]] = {
    "liar": lambda: pgettext("move", "liar"),
    "accept": lambda: pgettext("move", "accept"),
    "left": lambda: pgettext("move", "left"),
    "right": lambda: pgettext("move", "right"),
}


def _typed(game: PokerGame, action: int) -> str:
    """A move as a player types it (the engine's notation, which the prompt reads back; the
    calls and directions in the words of the language in use, which it reads too)."""
    move = game.action_to_string(action)
    word = _MOVE_WORDS.get(move)
    return move if word is None else word()


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
        return _("Under the cup: {dice} you cannot see.").format(dice=dice(n))
    since = ngettext(
        "you saw it there or put there, and the cup has not been shaken since",
        "you saw them there or put there, and the cup has not been shaken since",
        len(known),
    )
    if len(known) == n:
        know = ngettext(
            "Under the cup: {known} (you know it: {since}).",
            "Under the cup: {known} (you know them: {since}).",
            len(known),
        )
        return know.format(known=_dice(known), since=since)
    return _(
        "Under the cup: {dice}: {known}, which you know of ({since}), and {unseen} you cannot see."
    ).format(dice=dice(n), known=_dice(known), since=since, unseen=dice(n - len(known)))


def _odds_basis(view: PokerView) -> str:
    """What the odds of a bid are worked out from, for the player asked to respond."""
    known, unknown = view.known_cup, view.cup_count - len(view.known_cup)
    parts = [_("the outside dice")]
    if known:
        parts.append(
            ngettext(
                "the {dice} you know is under the cup",
                "the {dice} you know are under the cup",
                len(known),
            ).format(dice=_dice(known))
        )
    if unknown:
        if known:
            where = ngettext(
                "the other {dice} under it as a fresh roll",
                "the other {dice} under it as fresh rolls",
                unknown,
            )
        else:
            where = ngettext(
                "the {dice} under the cup as a fresh roll",
                "the {dice} under the cup as fresh rolls",
                unknown,
            )
        parts.append(where.format(dice=dice(unknown)))
    if len(parts) == 2:
        return _("{first} and {second}").format(first=parts[0], second=parts[1])
    return _("{first}, {second}, and {third}").format(
        first=parts[0], second=parts[1], third=parts[2]
    )


def _how_true(p: float) -> str:
    """How likely a bid is true, in words: ``is certainly true``, ``is true about 40%``."""
    if p >= 1.0:
        return _("is certainly true")
    if p <= 0.0:
        return _("is certainly false")
    return _("is true about {pct}").format(pct=pct(p))


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _dice(values: Sequence[int]) -> str:
    return dice_text(values, format_face)


def _bid(bid: PokerBid) -> str:
    short, words = format_poker_bid(bid), hand_words(bid)
    return short if short == words else f"{short} ({words})"


# A face of poker dice in words: its name in the singular or the plural of the count, and
# with its article (a kicker: "a king", "an ace").
_FACE_NAMES: tuple[Callable[[int], str], ...] = (
    lambda n: npgettext("poker face", "nine", "nines", n),
    lambda n: npgettext("poker face", "ten", "tens", n),
    lambda n: npgettext("poker face", "jack", "jacks", n),
    lambda n: npgettext("poker face", "queen", "queens", n),
    lambda n: npgettext("poker face", "king", "kings", n),
    lambda n: npgettext("poker face", "ace", "aces", n),
)
_KICKERS = (
    N_("a nine"), N_("a ten"), N_("a jack"), N_("a queen"), N_("a king"), N_("an ace")
)  # fmt: skip
_HANDS = {
    Category.HIGH: N_("high die {face}"),
    Category.PAIR: N_("a pair of {faces}"),
    Category.TWO_PAIR: N_("two pairs, {faces} and {second}"),
    Category.THREE: N_("three {faces}"),
    Category.FULL_HOUSE: N_("full house, {faces} over {second}"),
    Category.FOUR: N_("four {faces}"),
    Category.FIVE: N_("five {faces}"),
}
_STRAIGHTS = {"low straight": N_("low straight"), "high straight": N_("high straight")}


def hand_words(bid: PokerBid) -> str:
    """A poker bid in words in the language in use (English: as ``poker_bid_words`` says it).

    >>> from liarsdice.core.poker import ALL_BIDS, poker_bid_words
    >>> all(hand_words(b) == poker_bid_words(b) for b in ALL_BIDS)
    True
    """
    cat, ranks = bid.category, bid.ranks
    if cat is Category.JUNK:
        return _("junk")
    if cat is Category.STRAIGHT:
        short = format_poker_bid(bid)
        return _(_STRAIGHTS[short]) if short in _STRAIGHTS else short
    faces = [_FACE_NAMES[f - 1](2) for f in ranks]
    main = _(_HANDS[cat]).format(
        face=_FACE_NAMES[ranks[0] - 1](1),
        faces=faces[0],
        second=faces[1] if len(faces) > 1 else "",
    )
    parts = [main, *(_(_KICKERS[k - 1]) for k in bid.kickers)]
    if len(parts) == 1:
        return parts[0]
    return _("{first} and {last}").format(first=", ".join(parts[:-1]), last=parts[-1])


_PROMPTS = {
    "bid": N_("your bid?"),
    "pass": N_("pass the cup left or right?"),
    "arrange": N_("which dice stay outside the cup (the rest are shaken)?"),
    "shake": N_("shake, roll, or neither?"),
    "keep": N_("which dice do you keep?"),
}


class _PokerTable(GameTerminal):
    """What every part of the poker-dice terminal shares: the game, the lives, the order of
    play and the moves the player to move may type now."""

    game: PokerGame
    rules: PokerRules

    def __init__(self, game: PokerGame, *, hot_seat: bool = False) -> None:
        super().__init__(game, hot_seat=hot_seat)
        self.continuing: int | None = None  # the seat that moves again right after its move
        self.hinter = PokerProbBot(random.Random(0), bluff=0.0, noise=0.0)

    def banner_facts(self) -> str:
        if self.rules.five_of_a_kind_rule:
            facts = _("{lives} each, five-of-a-kind rule on, ")
        else:
            facts = _("{lives} each, five-of-a-kind rule off, ")
        return facts.format(lives=lives(self.rules.lives))

    def round_header(self, state: PokerState) -> list[str]:
        opener = state.opener
        opens = self.subject(
            opener,
            _("{name} are Player One: you roll under the cup and open."),
            _("{name} is Player One: rolls under the cup and opens."),
        )
        if self.you(opener):
            opens = _capital(opens)  # a name stays as it is spelled
        return [self.lives_line(state.lives) + ".", opens]

    def lives_line(self, counts: Sequence[int]) -> str:
        parts = [
            f"{self.name(p)} {lives(k)}" if k else _("{name} out").format(name=self.name(p))
            for p, k in enumerate(counts)
        ]
        return _("Lives: {lives}").format(lives=", ".join(parts))

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

    def rolls_in_move(self, state: PokerState) -> bool:
        return state.phase in (Phase.REROLL, Phase.FIVE_ROLL)

    def _neighbour(self, view: PokerView, step: int) -> int:
        n = len(view.lives)
        p = (view.player + step) % n
        while view.lives[p] == 0:
            p = (p + step) % n
        return p

    def _pass_options(self, view: PokerView) -> str:
        """Where 'left' and 'right' pass the cup (Player One, before passing it)."""
        left = self._neighbour(view, 1)
        right = self._neighbour(view, -1)
        if left == right:
            return _("Pass the cup 'left' or 'right' (both go to {name})").format(
                name=self.name(left)
            )
        return _(
            "Pass the cup 'left' (to {left}) or 'right' (to {right}); this sets the round's "
            "direction"
        ).format(left=self.name(left), right=self.name(right))

    def examples(self, view: PokerView) -> str:
        """Moves of the player to move that are legal now, written as they may be typed."""
        phase = view.phase
        if phase == "bid":
            least = self.game.action_bid(view.legal_actions[0]) if view.legal_actions else None
            if view.current_bid is None or least is None:
                return _("a bid such as 'pair K' or 'a pair of kings'")
            return _("a bid of at least '{bid}'").format(bid=format_poker_bid(least))
        if phase == "pass":
            return _("'left' or 'right'")
        if phase == "respond":
            return _("'liar' or 'accept'") if ACCEPT in view.legal_actions else _("'liar'")
        if phase == "arrange":
            return _("'{example}' or 'out none'").format(example=_out_example(view))
        if phase == "shake":
            if view.outside:
                return _("'shake', 'no shake', 'roll {face}'").format(
                    face=format_face(max(view.outside))
                )
            return _("'shake' or 'no shake'")
        return _("'{example}' or 'keep none'").format(example=_keep_example(view.outside))


class _PokerNarration(_PokerTable):
    """The poker-dice narration: every move as the table sees it, and the reveal."""

    def narrate(self, before: PokerState, after: PokerState, seat: int, action: int) -> list[str]:
        self.continuing = seat if after.current_player == seat else None
        game = self.game
        bid = game.action_bid(action)
        cur = before.current_bid
        if bid is not None:
            lines = [
                self.subject(seat, _("{name} bid {bid}."), _("{name} bids {bid}."), bid=_bid(bid))
            ]
            if after.phase is Phase.RESPOND:
                lines.append(
                    _("The cup passes to {name}.").format(
                        name=self.object_name(after.current_player)
                    )
                )
            return lines
        if action in (LEFT, RIGHT):
            return [self._pass_line(after, seat, action == LEFT)]
        if action == LIAR and cur is not None:
            return [self.call_line(seat, before.bidder, True, format_poker_bid(cur))]
        if action == ACCEPT and cur is not None:
            lines = [self._accept_line(after, seat, format_poker_bid(cur))]
            if after.phase is Phase.KEEP:  # the cup lifted on the dice outside: the rolls start
                lines.append(
                    _("Five of a kind in {rolls} rolls, or lose a life.").format(rolls=FIVE_ROLLS)
                )
            return lines
        if (out := game.action_arranged(action)) is not None:
            return [self._arranged_line(seat, out)]
        if (roll := game.action_roll(action)) is not None:
            return self._roll_lines(before, after, seat, roll)
        if (kept := game.action_kept(action)) is not None:
            return [self._kept_line(after, seat, kept)]
        return []

    def _pass_line(self, after: PokerState, seat: int, left: bool) -> str:
        values = {
            "to": self.object_name(after.current_player),
            "order": self._direction(after, seat),
        }
        if left:
            return self.subject(
                seat,
                _("{name} pass the cup left to {to} (play goes {order})."),
                _("{name} passes the cup left to {to} (play goes {order})."),
                **values,
            )
        return self.subject(
            seat,
            _("{name} pass the cup right to {to} (play goes {order})."),
            _("{name} passes the cup right to {to} (play goes {order})."),
            **values,
        )

    def _accept_line(self, after: PokerState, seat: int, bid: str) -> str:
        """The bid accepted: the cup lifted at once (on the dice outside it, or with none
        outside: no rolls to make), or taken to arrange the dice first."""
        if after.phase is Phase.KEEP:
            you = _("{name} accept {bid}: the cup is lifted on {dice}.")
            they = _("{name} accepts {bid}: the cup is lifted on {dice}.")
        elif after.phase is Phase.ARRANGE:
            you = _("{name} accept {bid} and take the cup.")
            they = _("{name} accepts {bid} and takes the cup.")
        else:
            you = _("{name} accept {bid}: the cup is lifted.")
            they = _("{name} accepts {bid}: the cup is lifted.")
        return self.subject(seat, you, they, bid=bid, dice=_dice(after.outside))

    def _arranged_line(self, seat: int, out: Sequence[int]) -> str:
        if not out:
            you = _("{name} put all five dice under the cup.")
            they = _("{name} puts all five dice under the cup.")
        else:
            you = _("{name} leave {out} outside the cup and {dice} under it.")
            they = _("{name} leaves {out} outside the cup and {dice} under it.")
        return self.subject(seat, you, they, out=_dice(out), dice=dice(5 - len(out)))

    def _kept_line(self, after: PokerState, seat: int, kept: Sequence[int]) -> str:
        """The dice kept and the rest rolled, with the roll's result (the last of the
        attempts: this round's, or the finished round's)."""
        attempts = after.attempts if after.phase is Phase.KEEP else ()
        if not attempts and after.results:
            attempts = after.results[-1].attempts
        return self.subject(
            seat,
            _("{name} keep {kept} and roll {dice}: {shown} (roll {roll} of {rolls})."),
            _("{name} keeps {kept} and rolls {dice}: {shown} (roll {roll} of {rolls})."),
            kept=_dice(kept),
            dice=dice(5 - len(kept)),
            shown=_dice(attempts[-1]) if attempts else "?",
            roll=len(attempts),
            rolls=FIVE_ROLLS,
        )

    def _roll_lines(
        self, before: PokerState, after: PokerState, seat: int, roll: tuple[bool, Any]
    ) -> list[str]:
        shake, rolled = roll
        values = {"cup": dice(len(before.cup)), "dice": _dice(rolled) if rolled else ""}
        if shake and rolled:
            you = _("{name} shake the cup ({cup} re-rolled unseen) and roll {dice} in view.")
            they = _("{name} shakes the cup ({cup} re-rolled unseen) and rolls {dice} in view.")
        elif shake:
            you = _("{name} shake the cup ({cup} re-rolled unseen).")
            they = _("{name} shakes the cup ({cup} re-rolled unseen).")
        elif rolled:
            you = _("{name} roll {dice} in view.")
            they = _("{name} rolls {dice} in view.")
        else:
            you = _("{name} neither shake nor roll.")
            they = _("{name} neither shakes nor rolls.")
        lines = [self.subject(seat, you, they, **values)]
        if rolled:
            lines.append(_("Outside the cup now: {dice}.").format(dice=_dice(after.outside)))
        return lines

    def reveal(self, r: PokerRoundResult) -> list[str]:
        bid = format_poker_bid(r.bid)
        if r.call == "liar":
            lifted = _("The cup is lifted: {dice} ({reading}).").format(
                dice=_dice(r.hand), reading=format_poker_bid(r.reading)
            )
            if self.you(r.bidder):
                verdict = _("Your {bid} stands.") if r.stood else _("Your {bid} was a lie.")
            else:
                verdict = (
                    _("{bidder}'s {bid} stands.") if r.stood else _("{bidder}'s {bid} was a lie.")
                )
            lines = [f"{lifted} {verdict.format(bid=bid, bidder=self.name(r.bidder))}"]
        else:
            lines = [self._five_line(r)]
        if r.loser is not None:
            lines.append(self._life_lost(r.loser, r.lives[r.loser]))
        lines.append(self.lives_line(r.lives) + ".")
        return lines

    def _five_line(self, r: PokerRoundResult) -> str:
        """The accepted bid's end: five of a kind made (in how many rolls), or not."""
        if not r.success:
            return self.subject(
                r.caller,
                _("{name} fail to make five of a kind in {rolls} rolls."),
                _("{name} fails to make five of a kind in {rolls} rolls."),
                rolls=FIVE_ROLLS,
            )
        tries = len(r.attempts)
        how = _("already there") if not tries else _("in {rolls}").format(rolls=rolls(tries))
        return self.subject(
            r.caller,
            _("{name} make five of a kind ({how}): nobody loses a life."),
            _("{name} makes five of a kind ({how}): nobody loses a life."),
            how=how,
        )

    def _life_lost(self, seat: int, left: int) -> str:
        if left:
            return self.subject(
                seat,
                _("{name} lose a life ({lives} left)."),
                _("{name} loses a life ({lives} left)."),
                lives=lives(left),
            )
        return self.subject(
            seat,
            _("{name} lose a life ({lives} left) and are out."),
            _("{name} loses a life ({lives} left) and is out."),
            lives=lives(left),
        )


class _PokerScreen(_PokerNarration):
    """What a human player is shown on their turn: the table, the dice they may see, their
    options, hints and help."""

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
                _("Outside the cup: {outside}. Under it: {cup}.").format(
                    outside=_dice(view.outside), cup=_dice(view.cup)
                ),
                _("[bold]Your hand{who}: {dice} = {bid}.[/bold]").format(
                    who=who, dice=_dice(hand), bid=_bid(hand_bid(hand))
                ),
                self.options(view),
            ]
        if view.opener == seat:
            title = _("--- Round {round}: {name} to play (Player One) ---")
        else:
            title = _("--- Round {round}: {name} to play ---")
        lines = [
            "",
            title.format(round=view.round + 1, name=self.name(seat)),
            self.lives_line(view.lives) + ".",
        ]
        if view.direction:
            order = self._direction(view, view.opener)
            if view.direction > 0:
                lines.append(_("Direction: left ({order}).").format(order=order))
            else:
                lines.append(_("Direction: right ({order}).").format(order=order))
        else:
            lines.append(_("Direction: not chosen yet (Player One passes left or right)."))
        if view.bids:
            history = ", ".join(f"{self.name(p)} {format_poker_bid(b)}" for p, b in view.bids)
            lines.append(_("Bids this round: {bids}.").format(bids=history))
        if view.current_bid is not None:
            lines.append(
                _("Bid to beat: {bid} by {name}.").format(
                    bid=_bid(view.current_bid), name=self.object_name(view.bidder)
                )
            )
        if view.phase == "keep":
            tries = len(view.five_attempts)
            lines.append(
                _(
                    "[bold]Five-of-a-kind challenge{who}: the dice {dice}; roll {roll} of {rolls} "
                    "next.[/bold]"
                ).format(who=who, dice=_dice(view.outside), roll=tries + 1, rolls=FIVE_ROLLS)
            )
            lines.append(
                _("Keep some dice ('{example}', 'keep none') and re-roll the rest.").format(
                    example=_keep_example(view.outside)
                )
            )
            return lines
        lines.append(_("Outside the cup (everyone sees): {dice}.").format(dice=_dice(view.outside)))
        if view.cup:
            hand = tuple(sorted(view.cup + view.outside))
            lines.append(
                _("[bold]Under the cup{who} (only you see): {dice}[/bold]").format(
                    who=who, dice=_dice(view.cup)
                )
            )
            lines.append(
                _("[bold]Your hand: {dice} = {bid}.[/bold]").format(
                    dice=_dice(hand), bid=_bid(hand_bid(hand))
                )
            )
        else:
            lines.append(_cup_line(view))
            if view.passed_cup is not None and len(view.known_cup) < view.cup_count:
                lines.append(
                    _(
                        "(You passed the cup on with {dice} under it; it has been shaken since.)"
                    ).format(dice=_dice(view.passed_cup))
                )
        lines.append(self.options(view))
        return lines

    def options(self, view: PokerView) -> str:
        phase = view.phase
        if phase == "bid":
            if view.current_bid is None:
                what = _(
                    "Bid any hand, junk included, true or not (e.g. 'pair K', 'a pair of kings')"
                )
            else:
                least = self.game.action_bid(view.legal_actions[0])
                cur = format_poker_bid(view.current_bid)
                if least is not None:
                    what = _("Bid a higher hand than {bid} (at least {least})").format(
                        bid=cur, least=format_poker_bid(least)
                    )
                else:
                    what = _("Bid a higher hand than {bid}").format(bid=cur)
            return _("{what}; 'hint', 'help' or 'quit'.").format(what=what)
        if phase == "pass":
            return self._pass_options(view) + "."
        if phase == "respond":
            bid = view.current_bid
            assert bid is not None
            if ACCEPT not in view.legal_actions:
                return _("Nothing beats {bid}: you must call 'liar'.").format(
                    bid=format_poker_bid(bid)
                )
            if bid.category is Category.FIVE and self.rules.five_of_a_kind_rule:
                return _(
                    "'liar' lifts the cup; 'accept' lifts it too, and you must make five of a "
                    "kind in {rolls} rolls (if the dice show it already, you succeed)."
                ).format(rolls=FIVE_ROLLS)
            return _(
                "'liar' lifts the cup (a true bid costs you a life, a false one the bidder), "
                "or 'accept' to take the cup and bid higher."
            )
        if phase == "arrange":
            out = _out_example(view)
            face = out.split()[-1] if out != "out none" else None
            roll = (
                _("; '{out}, roll {face}' re-rolls those in view").format(out=out, face=face)
                if face
                else ""
            )
            return _(
                "Choose the dice that stay outside the cup, seen by all ('{out}' or 'out "
                "none'; at least one die stays under it): the cup is then shaken, re-rolling "
                "the dice under it unseen ('{out}, no shake' leaves them as they are{roll})."
            ).format(out=out, roll=roll)
        if phase == "shake":
            cup = _("'shake' re-rolls the {dice} under the cup unseen").format(
                dice=dice(view.cup_count)
            )
            if not view.outside:
                return _("{cup}; 'no shake' leaves them as they are.").format(cup=cup)
            face = format_face(max(view.outside))
            return _(
                "{cup}; 'roll {face}' re-rolls outside dice in view; 'shake roll {face}' does "
                "both; 'no shake' does neither."
            ).format(cup=cup, face=face)
        return ""

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
                _("Odds: {bid} {how} ({basis}); accepting costs you a life about {loss}.").format(
                    bid=format_poker_bid(cur),
                    how=_how_true(p_true),
                    basis=_odds_basis(view),
                    loss=pct(loss),
                )
            )
        elif view.phase in ("arrange", "shake", "bid") and view.cup:
            lines += self._hand_hint(view)
        elif view.phase == "keep":
            kept, p = five_keep(view.outside, FIVE_ROLLS - len(view.five_attempts))
            lines.append(
                _("Odds: keeping {dice} makes five of a kind {pct} from here.").format(
                    dice=_dice(kept), pct=pct(p)
                )
            )
        # written as it may be typed at the prompt (arranging: the roll on the same line)
        if view.phase == "arrange":
            move = self.typed_plan(*bot.plan(game, view))
        else:
            move = _typed(game, bot.choose(game, view))
        lines.append(_("The prob bot would play: {move}.").format(move=escape(move)))
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
                _(
                    "Odds: keeping {dice} and re-rolling the rest makes {bid} or better {pct}."
                ).format(dice=_dice(kept), bid=format_poker_bid(least), pct=pct(p))
            ]
        if view.phase == "bid":
            reading = hand_bid(hand)
            if cur is None or reading.key > cur.key:
                message = _("Your hand reads {reading}: a true bid.")
            else:
                message = _("Your hand reads {reading}: it does not beat {bid}, so you bluff.")
            return [message.format(reading=format_poker_bid(reading), bid=cur)]
        return []

    def typed_plan(self, arrange: int, roll: int) -> str:
        """An arrangement and a roll as one line to type (see :meth:`arrange_and_roll`)."""
        out, rolled = _typed(self.game, arrange), _typed(self.game, roll)
        return out if rolled == "shake" else f"{out}, {rolled}"

    def help(self) -> list[str]:
        # Translators: each help line is a command as typed, then what it does, in columns.
        lines = [
            _("Commands (poker dice; faces 9 10 J Q K A):"),
            _("  pair K, two pair Q 10, three J K, low straight, high straight,"),
            _("  full house A Q, four 9 A, five Q, junk   bid a hand (or 'a pair of kings')"),
            _("  liar                   lift the cup: is the bid there?"),
            _("  accept                 take the cup (then arrange, roll and bid higher)"),
            _("  left / right           Player One: pass the cup (sets the direction)"),
            _("  out K K / out none     the dice that stay outside the cup, in view; then the cup"),
            _("                         is shaken (every die under it re-rolled unseen)"),
            _("  out K K, no shake      ... and the cup is not shaken"),
            _("  out K K, roll K        ... and outside dice re-rolled in view ('shake roll K':"),
            _("                         both)"),
        ]
        if self.rules.five_of_a_kind_rule:
            lines.append(
                _("  keep Q Q               five-of-a-kind challenge: keep these, re-roll the rest")
            )
        lines += [
            _("  hint                   odds from what you know, and the prob bot's move"),
            _("  status                 show the table again"),
            _("  quit                   leave the game"),
        ]
        if not self.rules.five_of_a_kind_rule:
            lines.append(_("Five of a kind is an ordinary bid in these rules (no challenge)."))
        return [escape(line) for line in lines]


class PokerTerminal(_PokerScreen):
    """A poker-dice game at the terminal: its narration, screen and the reading of a human's
    moves (prompts, and what cannot be read explained for the step the player is at)."""

    def prompt(self, state: PokerState, seat: int) -> str:
        view = state.view(seat)
        if view.phase == "respond":
            return _("liar or accept?") if ACCEPT in view.legal_actions else _("liar?")
        return _(_PROMPTS.get(view.phase, N_("your move?")))

    def empty_reply(self, state: PokerState) -> str:
        return _("Type {examples}, 'help' or 'quit'.").format(
            examples=self.examples(state.view(state.current_player))
        )

    def parse(self, line: str) -> tuple[str, Any]:
        return parse_poker_command(line)

    def answer(self, state: PokerState, seat: int, line: str) -> Answer:
        """As :meth:`GameTerminal.answer`; what cannot be read is explained for the step the
        player is at (a direction to pass the cup, a call, dice), not only as a bid. After
        accepting, one line arranges the dice and rolls them (:meth:`arrange_and_roll`)."""
        if state.phase is Phase.ARRANGE:
            both = self.arrange_and_roll(state, line)
            if both is not None:
                return both
        answer = super().answer(state, seat, line)
        kind, _arg = self.parse(line)
        phase = state.phase
        if kind != "error" or phase is Phase.BID or self._one_move_now(state, line):
            return answer
        view = state.view(seat)
        said = escape(repr(" ".join(line.split())))
        if phase is Phase.PASS:
            return Answer(
                lines=(
                    _("{said} is not a direction. {options}.").format(
                        said=said, options=self._pass_options(view)
                    ),
                )
            )
        return Answer(
            lines=(
                _("Can't read {said} now: type {examples}, or 'help'.").format(
                    said=said, examples=self.examples(view)
                ),
            )
        )

    def arrange_and_roll(self, state: PokerState, line: str) -> Answer | None:
        """The accepter's two steps on one line: the dice that stay outside, then the roll,
        which is a shake of the cup unless the line says otherwise: ``out K K K`` (the rest
        shaken), ``out K K K, no shake``, ``out K K K, roll A``, ``out none, shake roll A``;
        ``then`` may join them; a roll alone (``shake``) leaves the outside dice as they are.
        None when the line is neither."""
        text = _clean(line).replace(" then ", " ")
        if _ROLL_WORDS.match(text):  # a roll alone: the dice outside stay where they are
            outside = state.view(state.current_player).outside
            text = f"out {_dice(outside) if outside else 'none'} {text}"
        if not text.startswith("out"):
            return None
        found = _ROLL_WORDS.search(text)
        out_text, roll_text = (
            (text, "shake")
            if found is None
            else (
                text[: found.start()].strip(),
                text[found.start() :],
            )
        )
        out_kind, out_move = parse_poker_command(out_text)
        roll_kind, roll_move = parse_poker_command(roll_text)
        if out_kind != "move" or roll_kind != "move" or not out_move.startswith("out"):
            return None
        game = self.game
        try:
            arrange = game.string_to_action(out_move)
            state.apply_action(arrange)  # (an illegal arrangement raises, with the reason)
            roll = game.string_to_action(roll_move)
            after = state.apply_action(arrange)
            if roll not in after.legal_actions():
                why = after.explain_illegal(roll) or _("'{move}' is not a roll now").format(
                    move=roll_move
                )
                return Answer(lines=(self.not_allowed(why),))
        except LiarsDiceError as e:
            return Answer(lines=(self.not_allowed(str(e)),))
        return Answer(action=arrange, then=(roll,))

    def _one_move_now(self, state: PokerState, line: str) -> bool:
        """Whether ``line`` is two moves ('out K K, then shake') whose first is legal now (the
        reader's "one move at a time" says what to type)."""
        first, then, _rest = _clean(line).partition(" then ")
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
