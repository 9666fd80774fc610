"""The rules that are on, in plain words, for players (the browser's rules panel, the lobby).

One sentence per rule, no option names: what a newcomer needs to play this preset.

>>> from liarsdice.core.bidding.rules import preset
>>> lines = plain_rules(preset("classic"))
>>> lines[0]
'Every player starts with 5 dice (6-sided) and keeps them hidden under a cup.'
>>> any("Ones are wild" in line for line in lines)
True
"""

from __future__ import annotations

from enum import StrEnum

from liarsdice.core.bidding import rules as opt
from liarsdice.core.bidding.rules import Rules

_FACE_WORDS = {1: "Ones", 2: "Twos", 3: "Threes", 4: "Fours", 5: "Fives", 6: "Sixes"}


# The sentence of each option value that needs one (the orderings': how bids switch to and from
# the wild face). Keyed by member: no two options share a value here (StrEnum members equal
# their strings).
_SENTENCES: dict[StrEnum, str] = {
    opt.Ordering.LADDER: " Bids on {wilds} sit in between: half the quantity (rounded down) plus "
    "one is enough to switch to them, and switching back needs double.",
    opt.Ordering.PERUDO: " To switch to {wilds} bid at least half the quantity (rounded up); to "
    "switch back bid more than double.",
    opt.ExactCall.SPOT_ON: "Instead of raising you may call 'exact' (spot on): if the count is "
    "exactly the bid, everyone else loses a die; if not, you lose one.",
    opt.ExactCall.CALZA: "Instead of raising you may call 'exact' (calza): if you are right you "
    "win back a die (up to your starting count); if not, you lose one.",
    opt.ShowReroll.AFTER: "Before raising you may show some dice and re-roll the rest; shown dice "
    "stay visible and count for everyone.",
    opt.ShowReroll.BEFORE: "After raising you may show some dice and re-roll the rest (they stay "
    "shown).",
    opt.Stash.SECRET: "One extra hidden die per player sits in the middle and counts at the "
    "reveal.",
    opt.Stash.OPEN: "One extra die per player sits open in the middle and counts for every bid.",
}


def _faces(face: int) -> str:
    return _FACE_WORDS.get(face, f"{face}s")


def _dice(rules: Rules) -> str:
    if isinstance(rules.dice, tuple):
        counts = ", ".join(str(n) for n in rules.dice)
        return f"Each seat starts with its own number of dice ({counts})"
    n = rules.dice
    return f"Every player starts with {n} {'die' if n == 1 else 'dice'}"


def _ordering(rules: Rules) -> str:
    switch = _SENTENCES.get(rules.ordering)
    if switch is not None:
        wilds = "" if rules.wild is None else switch.format(wilds=_faces(rules.wild).lower())
        return "Raise the quantity, or keep it and raise the face." + wilds
    if rules.ordering is opt.Ordering.QUANTITY:
        return "Raise the quantity (any face), or keep it and bid a higher face."
    if rules.ordering is opt.Ordering.FACE:
        return "Bid a higher face (any quantity), or keep the face and raise the quantity."
    return "Neither the quantity nor the face may go down, and at least one must go up."


def plain_rules(rules: Rules) -> list[str]:
    """The rules of ``rules`` that a player needs, one plain sentence each."""
    one = not isinstance(rules.dice, tuple) and rules.dice == 1
    hidden = "keeps it hidden" if one else "keeps them hidden"
    out = [f"{_dice(rules)} ({rules.faces}-sided) and {hidden} under a cup."]
    out.append(
        "Bid how many dice of one face there are at least among everyone's dice, e.g. "
        "'four fives'; each player in turn raises the bid or calls it."
    )
    if rules.wild is not None:
        out.append(
            f"{_faces(rules.wild)} are wild: they count as every other face "
            f"(a bid on {_faces(rules.wild).lower()} counts only {_faces(rules.wild).lower()})."
            + (" Not in palifico rounds." if rules.palifico else "")
        )
        if not rules.open_on_wild:
            out.append(f"The first bid of a round may not be on {_faces(rules.wild).lower()}.")
    if rules.face_order is not None:
        order = " < ".join(str(f) for f in rules.face_order)
        out.append(f"Faces rank {order}.")
    out.append(_ordering(rules))
    out.append("Call 'liar' when you think the bid is too high: all dice are shown and counted.")
    if rules.scoring is opt.Scoring.ROOM:
        out.append(
            "If the called bid is true its bidder wins the game outright; if not, the bidder "
            "loses a die, and a player out of dice loses a point."
        )
    elif rules.scoring is opt.Scoring.SINGLE_ROUND:
        out.append(
            "One round only: if the bid is false (fewer dice than bid) the caller wins, "
            "otherwise the bidder wins."
        )
    elif rules.loss is opt.Loss.DIFFERENCE:
        out.append("Whoever was wrong loses as many dice as the bid was off by.")
    else:
        out.append("Whoever was wrong loses one die.")
    if rules.exact_count in (
        opt.ExactCount.ALL_BUT_BIDDER,
        opt.ExactCount.ALL_BUT_BIDDER_SPARE_LAST,
    ):
        spare = (
            " (a bystander down to a last die keeps it)"
            if rules.exact_count is opt.ExactCount.ALL_BUT_BIDDER_SPARE_LAST
            else ""
        )
        out.append(f"If the count is exactly the bid, everyone but the bidder loses a die{spare}.")
    elif rules.scoring is opt.Scoring.ELIMINATION:
        out.append("If the count is exactly the bid, the bid stands: the caller loses a die.")
    out.append(_SENTENCES.get(rules.exact, ""))
    if rules.calling_advantage:
        out.append(
            "Lost dice go to a pile in the middle; a right exact call takes the whole pile, and "
            "then every other player loses a die."
        )
    out.append(_SENTENCES.get(rules.show_reroll, ""))
    out.append(_SENTENCES.get(rules.stash, ""))
    if rules.economy is opt.Economy.CHIPS:
        out.append(
            f"Everyone starts with {rules.chips} chips: each round's pot goes to the winner of "
            "the challenge, the game's pot to the winner of the game."
        )
    elif rules.economy is opt.Economy.RICH_MAN:
        out.append(
            f"Everyone starts with {rules.chips} chips and antes {rules.ante}: on your turn you "
            "may buy back a lost die by paying the pot's size into it (the pot doubles)."
        )
    if rules.house_penalties:
        out.append("Asking whose turn it is or how many dice are left costs you a die.")
    if rules.palifico:
        out.append(
            "Palifico: a player who drops to one die opens the next round; ones are not wild "
            "and the face may not change in that round."
        )
    if rules.resolution is opt.Resolution.ALL_CALL:
        out.append("A bid is settled only when every other player has called it.")
    opener = {
        opt.NextOpener.WINNER: "The winner of a challenge opens the next round.",
        opt.NextOpener.LOSER: "The loser of a challenge opens the next round.",
        opt.NextOpener.BIDDER: "The bidder of the called bid opens the next round.",
    }[rules.next_opener]
    first = {
        opt.FirstOpener.GIVEN: "",
        opt.FirstOpener.RANDOM: " The first opener is drawn at random.",
        opt.FirstOpener.ROLL_ONE: " Everyone rolls a die to decide who opens first.",
        opt.FirstOpener.ROLL_TWO: " Everyone rolls two dice to decide who opens first.",
    }[rules.first_opener]
    if rules.scoring is opt.Scoring.ROOM:
        out.append(f"The loser opens the next round.{first} The last player with dice wins.")
    elif rules.scoring is opt.Scoring.ELIMINATION:
        out.append(f"{opener}{first} A player with no dice is out; the last one left wins.")
    return [line for line in out if line]


__all__ = ["plain_rules"]
