"""The bidding family's rules in words, for players: the one place they are written.

Everything here is generated from a :class:`Rules` object and said in the language in use
(:mod:`liarsdice.i18n`): the terminal (``liarsdice rules``, ``play``'s banner) and the browser
(``GET /api/rules``) show the same sentences. A changed option changes the sentence that
describes it, so no sentence of the preset's defaults is left to contradict it.

* :func:`plain_rules`: the rules that are on, one plain sentence each, no option names;
* :data:`SUMMARIES`: one line per preset, true of the preset's own options only;
* :data:`OPTION_HELP` and :data:`VALUE_HELP`: what each option (and each value of the options
  that take one of a few) does, for ``liarsdice rules NAME``.

>>> from liarsdice.core.bidding.rules import preset
>>> lines = plain_rules(preset("classic"))
>>> lines[0]
'Every player starts with 5 dice (6-sided) and keeps them hidden under a cup.'
>>> plain_rules(preset("classic", dice=3))[0]
'Every player starts with 3 dice (6-sided) and keeps them hidden under a cup.'
>>> any("Ones are wild" in line for line in lines), "No face is wild." in plain_rules(
...     preset("classic", wild=None))
(True, True)
>>> from liarsdice.i18n import using
>>> with using("es"):
...     plain_rules(preset("classic", dice=3))[0]
'Cada jugador empieza con 3 dados (de 6 caras) y los mantiene ocultos bajo un cubilete.'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from liarsdice.core.bidding import rules as opt
from liarsdice.core.bidding.rules import Rules
from liarsdice.i18n import N_, _, ngettext, npgettext

__all__ = ["FACES", "OPTION_HELP", "SUMMARIES", "VALUE_HELP", "face_word", "plain_rules"]

SUMMARIES: Mapping[str, str] = {
    "classic": N_(
        "The standard game: five dice each, ones are wild, and the loser of a call loses as "
        "many dice as the bid was off by."
    ),
    "milton-bradley": N_(
        "The 1987 Milton Bradley board game (J.R. Gracen's rules): ones are wild, and before "
        "you raise you may show some dice and re-roll the rest."
    ),
    "house-rules": N_(
        "A table's house rules: ones are wild, roll for who starts, and asking questions "
        "costs a die."
    ),
    "spot-on": N_(
        "No wild dice, one die lost per call, and you can call a bid exactly right (spot on)."
    ),
    "room": N_(
        "The online scored room: four dice each, no wilds, sixes below ones, and a bid stands "
        "until everyone has called it."
    ),
    "perudo": N_(
        "The South American classic (commercial Perudo): lose one die at a time, call 'exact' "
        "to win one back, palifico rounds."
    ),
    "openspiel": N_(
        "OpenSpiel's liars_dice, the research game: two players, one die each, one round, "
        "sixes wild."
    ),
    "snyd-normal": N_(
        "A research duel (thomasahle/snyd, normal): two players, one die each, one round, no "
        "wild dice."
    ),
    "snyd-joker": N_(
        "A research duel (thomasahle/snyd, joker): two players, one die each, one round, ones wild."
    ),
}
"""One line per preset, in words for players (the lobby, ``liarsdice rules``, ``play``'s
banner); true of the preset's own options only, so it is shown only for them."""

OPTION_HELP: Mapping[str, str] = {
    "name": N_("The preset these rules start from."),
    "players": N_("How many seats a game has by default; play passes clockwise."),
    "dice": N_("Dice each player starts with (a list gives each seat its own count)."),
    "faces": N_("Sides per die."),
    "wild": N_(
        "The wild face: it counts toward a bid on any other face, while a bid on the wild "
        "face counts only wilds (none: no wilds)."
    ),
    "ordering": N_("How a bid beats the one before it."),
    "face_order": N_(
        "How the faces rank, low to high, for the quantity, face and monotone orderings "
        "(none: in their natural order)."
    ),
    "open_on_wild": N_("Whether the opening bid of a round may be on the wild face."),
    "exact": N_("The exact (spot-on) call: a claim that the bid is exactly right."),
    "loss": N_("How many dice the loser of a liar call loses."),
    "exact_count": N_("What a liar call does when the count is exactly the bid."),
    "next_opener": N_("Who opens the next round."),
    "first_opener": N_("Who opens the first round."),
    "show_reroll": N_(
        "Show-and-reroll: a player may put hidden dice on show and re-roll the rest."
    ),
    "stash": N_("Extra dice in the middle, one per player, rolled each round and counted in bids."),
    "calling_advantage": N_("Whether lost dice form a pile that a right exact call takes."),
    "economy": N_("Chips and pots beside the dice."),
    "chips": N_("Chips each player starts with (under the chips and rich-man economies)."),
    "ante": N_("Rich Man's Dice: each player's ante into the game pot."),
    "house_penalties": N_("Whether asking whose turn it is or how many dice are left costs a die."),
    "drinking": N_("Whether to keep a drink tally (one drink per die lost)."),
    "resolution": N_("When a call decides the bid."),
    "scoring": N_("How the game ends and what it pays."),
    "palifico": N_(
        "Perudo's palifico round: a player down to one die opens a round without wilds in "
        "which the face may not change."
    ),
}
"""One sentence per rule option: what it is (``liarsdice rules NAME``)."""

VALUE_HELP: Mapping[str, Mapping[str, str]] = {
    "ordering": {
        "ladder": N_(
            "a higher quantity of any face, or the same quantity of a higher face; wild bids "
            "interleave (the least wild bid over q dice is q/2 rounded down, plus one; back "
            "from k wilds takes 2k)"
        ),
        "perudo": N_(
            "Perudo's ladder: the least wild bid over q dice is q/2 rounded up; back from k "
            "wilds takes 2k+1"
        ),
        "quantity": N_(
            "a higher quantity of any face, or the same quantity of a higher-ranked face"
        ),
        "face": N_("a higher-ranked face of any quantity, or the same face with a higher quantity"),
        "monotone": N_(
            "neither the quantity nor the face rank goes down, and at least one goes up"
        ),
    },
    "exact": {
        "none": N_("there is no exact call"),
        "spot-on": N_("right: everyone but the caller loses a die; wrong: the caller loses one"),
        "calza": N_(
            "right: the caller regains a die (up to the starting count); wrong: the caller "
            "loses one"
        ),
    },
    "loss": {
        "difference": N_("as many as the bid and the count differ by"),
        "one": N_("one die"),
    },
    "exact_count": {
        "bid-stands": N_("the bid was true, so the caller loses a die"),
        "all-but-bidder": N_("every player but the bidder loses a die"),
        "all-but-bidder-spare-last": N_(
            "every player but the bidder loses a die, except that a bystander down to a last "
            "die keeps it"
        ),
        "caller-loses-one": N_("the caller loses a die (as bid-stands)"),
    },
    "next_opener": {
        "winner": N_("the winner of the call"),
        "loser": N_("the loser of the call (the one with fewest dice among several)"),
        "bidder": N_("the player whose bid was called"),
    },
    "first_opener": {
        "given": N_("the first seat"),
        "random": N_("a seat drawn at random"),
        "roll-one": N_("everyone rolls one die, the highest opens, ties roll again"),
        "roll-two": N_("everyone rolls two dice, the highest sum opens, ties roll again"),
    },
    "show_reroll": {
        "off": N_("not played"),
        "after": N_("show and re-roll, then raise"),
        "before": N_("raise, then show and re-roll"),
    },
    "stash": {
        "none": N_("no stash"),
        "secret": N_("the stash stays hidden until the call"),
        "open": N_("the stash lies face up for everyone to see"),
    },
    "economy": {
        "none": N_("no chips"),
        "chips": N_("each round's pot goes to the winner of the call, the game pot to the winner"),
        "rich-man": N_("a player short of dice may buy one for the pot, which then doubles"),
    },
    "resolution": {
        "first-call": N_("the first call decides it"),
        "all-call": N_("every other player still in must call it"),
    },
    "scoring": {
        "elimination": N_("the last player with dice wins"),
        "room": N_("a called bid that was true wins the game outright"),
        "single-round": N_("one call decides the game (for analysis)"),
    },
}
"""What each value of the options that take one of a few values does."""

FACES: tuple[Callable[[int], str], ...] = (
    lambda n: npgettext("face", "one", "ones", n),
    lambda n: npgettext("face", "two", "twos", n),
    lambda n: npgettext("face", "three", "threes", n),
    lambda n: npgettext("face", "four", "fours", n),
    lambda n: npgettext("face", "five", "fives", n),
    lambda n: npgettext("face", "six", "sixes", n),
    lambda n: npgettext("face", "seven", "sevens", n),
    lambda n: npgettext("face", "eight", "eights", n),
    lambda n: npgettext("face", "nine", "nines", n),
    lambda n: npgettext("face", "ten", "tens", n),
    lambda n: npgettext("face", "eleven", "elevens", n),
    lambda n: npgettext("face", "twelve", "twelves", n),
)
"""Each face (1 to 12) in words, singular or plural by the count (bids in words say them so)."""


def face_word(face: int, n: int) -> str:
    """Face ``face`` in words, agreeing with the count ``n``, in the language in use.

    >>> face_word(5, 3), face_word(6, 1), face_word(13, 2)
    ('fives', 'six', '13')
    """
    if not 1 <= face <= len(FACES):
        return str(face)
    return FACES[face - 1](n)


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _dice(rules: Rules) -> str:
    if isinstance(rules.dice, tuple):
        counts = ", ".join(str(n) for n in rules.dice)
        return _(
            "Each seat starts with its own number of dice ({counts}, {faces}-sided) and keeps "
            "them hidden under a cup."
        ).format(counts=counts, faces=rules.faces)
    return ngettext(
        "Every player starts with {n} die ({faces}-sided) and keeps it hidden under a cup.",
        "Every player starts with {n} dice ({faces}-sided) and keeps them hidden under a cup.",
        rules.dice,
    ).format(n=rules.dice, faces=rules.faces)


def _wilds(rules: Rules) -> list[str]:
    if rules.wild is None:
        return [_("No face is wild.")]
    wilds = face_word(rules.wild, 2)
    said = _capital(
        _(
            "{faces} are wild: they count as every other face (a bid on {faces} counts only "
            "{faces})."
        ).format(faces=wilds)
    )
    if rules.palifico:
        said += " " + _("Not in palifico rounds.")
    out = [said]
    if not rules.open_on_wild:
        out.append(_("The first bid of a round may not be on {faces}.").format(faces=wilds))
    return out


def _ordering(rules: Rules) -> str:
    ordering = rules.ordering
    if ordering in (opt.Ordering.LADDER, opt.Ordering.PERUDO):
        said = _("Raise the quantity, or keep it and raise the face.")
        if rules.wild is None:
            return said
        wilds = face_word(rules.wild, 2)
        if ordering is opt.Ordering.LADDER:
            switch = _(
                "Bids on {wilds} sit in between: half the quantity (rounded down) plus one is "
                "enough to switch to them, and switching back needs double."
            )
        else:
            switch = _(
                "To switch to {wilds} bid at least half the quantity (rounded up); to switch "
                "back bid more than double."
            )
        return f"{said} {switch.format(wilds=wilds)}"
    if ordering is opt.Ordering.QUANTITY:
        return _("Raise the quantity (any face), or keep it and bid a higher face.")
    if ordering is opt.Ordering.FACE:
        return _("Bid a higher face (any quantity), or keep the face and raise the quantity.")
    return _("Neither the quantity nor the face may go down, and at least one must go up.")


def _outcome(rules: Rules) -> str:
    if rules.scoring is opt.Scoring.ROOM:
        return _(
            "If the called bid is true its bidder wins the game outright; if not, the bidder "
            "loses a die, and a player out of dice loses a point."
        )
    if rules.scoring is opt.Scoring.SINGLE_ROUND:
        return _(
            "One round only: if the bid is false (fewer dice than bid) the caller wins, "
            "otherwise the bidder wins."
        )
    if rules.loss is opt.Loss.DIFFERENCE:
        return _("Whoever was wrong loses as many dice as the bid was off by.")
    return _("Whoever was wrong loses one die.")


# What a call of liar on a bid that is exactly true costs, for the rules that say.
_EXACT_COUNTS: Mapping[opt.ExactCount, str] = {
    opt.ExactCount.ALL_BUT_BIDDER: N_(
        "If the count is exactly the bid, everyone but the bidder loses a die."
    ),
    opt.ExactCount.ALL_BUT_BIDDER_SPARE_LAST: N_(
        "If the count is exactly the bid, everyone but the bidder loses a die (a "
        "bystander down to a last die keeps it)."
    ),
}

# What a call of exact does, for each kind of call the rules may allow (none: nothing to say).
_EXACT_CALLS: Mapping[opt.ExactCall, str] = {
    opt.ExactCall.SPOT_ON: N_(
        "Instead of raising you may call 'exact' (spot on): if the count is exactly the "
        "bid, everyone else loses a die; if not, you lose one."
    ),
    opt.ExactCall.CALZA: N_(
        "Instead of raising you may call 'exact' (calza): if you are right you win back a "
        "die (up to your starting count); if not, you lose one."
    ),
}


def _sentence(sentences: Mapping[Any, str], value: object) -> str:
    """The sentence (translated) of ``value`` in a table of them; "" where it has none."""
    said = sentences.get(value)
    return "" if said is None else _(said)


def _exact_count(rules: Rules) -> str:
    said = _sentence(_EXACT_COUNTS, rules.exact_count)
    if not said and rules.scoring is opt.Scoring.ELIMINATION:
        return _("If the count is exactly the bid, the bid stands: the caller loses a die.")
    return said


def _exact_call(rules: Rules) -> str:
    return _sentence(_EXACT_CALLS, rules.exact)


def _extras(rules: Rules) -> list[str]:
    """The sentences of the variants: pile, show-and-reroll, stash, chips, penalties..."""
    out = []
    if rules.calling_advantage:
        out.append(
            _(
                "Lost dice go to a pile in the middle; a right exact call takes the whole "
                "pile, and then every other player loses a die."
            )
        )
    if rules.show_reroll is opt.ShowReroll.AFTER:
        out.append(
            _(
                "Before raising you may show some dice and re-roll the rest; shown dice stay "
                "visible and count for everyone."
            )
        )
    elif rules.show_reroll is opt.ShowReroll.BEFORE:
        out.append(
            _("After raising you may show some dice and re-roll the rest (they stay shown).")
        )
    if rules.stash is opt.Stash.SECRET:
        out.append(
            _("One extra hidden die per player sits in the middle and counts at the reveal.")
        )
    elif rules.stash is opt.Stash.OPEN:
        out.append(_("One extra die per player sits open in the middle and counts for every bid."))
    if rules.economy is opt.Economy.CHIPS:
        out.append(
            ngettext(
                "Everyone starts with {chips} chip: each round's pot goes to the winner of the "
                "challenge, the game's pot to the winner of the game.",
                "Everyone starts with {chips} chips: each round's pot goes to the winner of the "
                "challenge, the game's pot to the winner of the game.",
                rules.chips,
            ).format(chips=rules.chips)
        )
    elif rules.economy is opt.Economy.RICH_MAN:
        out.append(
            ngettext(
                "Everyone starts with {chips} chip and antes {ante}: on your turn you may buy "
                "back a lost die by paying the pot's size into it (the pot doubles).",
                "Everyone starts with {chips} chips and antes {ante}: on your turn you may buy "
                "back a lost die by paying the pot's size into it (the pot doubles).",
                rules.chips,
            ).format(chips=rules.chips, ante=rules.ante)
        )
    if rules.house_penalties:
        out.append(_("Asking whose turn it is or how many dice are left costs you a die."))
    if rules.drinking:
        out.append(_("A drink tally is kept: one drink for every die lost."))
    if rules.palifico and rules.wild is not None:
        out.append(
            _(
                "Palifico: a player who drops to one die opens the next round; {wilds} are not "
                "wild and the face may not change in that round."
            ).format(wilds=face_word(rules.wild, 2))
        )
    elif rules.palifico:
        out.append(
            _(
                "Palifico: a player who drops to one die opens the next round, in which the "
                "face may not change."
            )
        )
    if rules.resolution is opt.Resolution.ALL_CALL:
        out.append(_("A bid is settled only when every other player has called it."))
    return out


def _openers(rules: Rules) -> list[str]:
    """Who opens the first round and the next ones, and how the game ends."""
    first = {
        opt.FirstOpener.GIVEN: "",
        opt.FirstOpener.RANDOM: _("The first opener is drawn at random."),
        opt.FirstOpener.ROLL_ONE: _("Everyone rolls a die to decide who opens first."),
        opt.FirstOpener.ROLL_TWO: _("Everyone rolls two dice to decide who opens first."),
    }[rules.first_opener]
    if rules.scoring is opt.Scoring.SINGLE_ROUND:
        return [first]
    opener = {
        opt.NextOpener.WINNER: _("The winner of a challenge opens the next round."),
        opt.NextOpener.LOSER: _("The loser of a challenge opens the next round."),
        opt.NextOpener.BIDDER: _("The bidder of the called bid opens the next round."),
    }[rules.next_opener]
    if rules.scoring is opt.Scoring.ROOM:
        end = _("The last player with dice wins.")
    else:
        end = _("A player with no dice is out; the last one left wins.")
    return [" ".join(s for s in (opener, first, end) if s)]


def plain_rules(rules: Rules) -> list[str]:
    """The rules of ``rules`` that a player needs, one plain sentence each, in the language in
    use: every option that changes the game changes a sentence."""
    out = [
        _dice(rules),
        _(
            "Bid how many dice of one face there are at least among everyone's dice, e.g. "
            "'four fives'; each player in turn raises the bid or calls it."
        ),
        *_wilds(rules),
    ]
    if rules.face_order is not None:
        out.append(_("Faces rank {order}.").format(order=" < ".join(map(str, rules.face_order))))
    out.append(_ordering(rules))
    out.append(_("Call 'liar' when you think the bid is too high: all dice are shown and counted."))
    out += [_outcome(rules), _exact_count(rules), _exact_call(rules)]
    out += _extras(rules)
    out += _openers(rules)
    return [line for line in out if line]
