"""The lines of ``liarsdice replay``, in the language in use: one per round, for every family.

A round of a replay summary (``replay --json``'s ``rounds``) in words: who called or accepted
what, the count or the hand, who lost or gained what, the table after it, who opens next. In
English these are the text record's result lines (``describe_result`` of the notation); the
notation itself (bids ``7x6``, poker hands ``two pair K Q``, the dice) stays as it is written.
A player called ``you`` is spoken to in the second person, as ``liarsdice play`` does.

>>> summary = {"bid": "5x6", "count": 7, "call": "liar", "caller": "cy", "bidder": "bob",
...     "losses": {"cy": 2}, "dice": {"ann": 5, "bob": 5, "cy": 3}, "next_opener": "bob"}
>>> print(bidding_round_line(1, summary).replace(" | ", "\\n"))
Round 1: cy calls liar on bob's 5x6; count 7: cy loses 2
dice ann 5, bob 5, cy 3
bob opens next
>>> from liarsdice.i18n import using
>>> with using("es"):
...     print(bidding_round_line(1, {**summary, "caller": "you"}).replace(" | ", "\\n"))
Ronda 1: tú dudas de la apuesta 5x6 de bob; cuenta 7: cy pierde 2
dados ann 5, bob 5, cy 3
bob abre la siguiente
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from liarsdice.i18n import _, pgettext
from liarsdice.notation.grammar import is_you

__all__ = ["bidding_round_line", "poker_round_line"]


def _name(name: str) -> str:
    # Translators: the name of the human player called "you" at the table.
    return pgettext("player", "you") if is_you(name) else name


def _says(name: str, you: str, other: str, **values: object) -> str:
    """A clause about ``name``: the second person's message for ``you``, else the third's."""
    return (you if is_you(name) else other).format(name=_name(name), **values)


def _bid_of(name: str, bid: str) -> str:
    return _says(name, pgettext("you", "your {bid}"), _("{name}'s {bid}"), bid=bid)


def _counts(counts: Mapping[str, int]) -> str:
    return ", ".join(f"{_name(name)} {k}" for name, k in counts.items())


def _opener(opener: str | None) -> str:
    if opener is None:
        return _("game over")
    return _says(opener, pgettext("you", "{name} open next"), _("{name} opens next"))


def _round(number: int, move: str, result: str) -> str:
    return _("Round {number}: {move}; {result}").format(number=number, move=move, result=result)


def _called(summary: Mapping[str, Any]) -> str:
    caller, call = summary["caller"], summary["call"]
    if call == "exact":
        you = pgettext("you", "{name} call exact on {bid}")
        other = _("{name} calls exact on {bid}")
    elif call == "liar":
        you = pgettext("you", "{name} call liar on {bid}")
        other = _("{name} calls liar on {bid}")
    else:  # a family's own call, named as its records name it
        you = pgettext("you", "{name} call {call} on {bid}")
        other = _("{name} calls {call} on {bid}")
    bid = _bid_of(summary["bidder"], summary["bid"])
    return _says(caller, you, other, call=call, bid=bid)


def _bidding_result(summary: Mapping[str, Any]) -> str:
    effects = [
        _says(name, pgettext("you", "{name} lose {n}"), _("{name} loses {n}"), n=k)
        for name, k in summary["losses"].items()
    ]
    effects += [
        _says(name, pgettext("you", "{name} gain {n}"), _("{name} gains {n}"), n=k)
        for name, k in summary.get("gains", {}).items()
    ]
    said = ", ".join(effects) or _("no dice change hands")
    parts = [_("count {count}: {effects}").format(count=summary["count"], effects=said)]
    parts.append(_("dice {counts}").format(counts=_counts(summary["dice"])))
    if "chips" in summary:
        parts.append(
            _("chips {counts}, game pot {pot}").format(
                counts=_counts(summary["chips"]), pot=summary["game_pot"]
            )
        )
    if "pile" in summary:
        parts.append(_("pile {n}").format(n=summary["pile"]))
    if "scores" in summary:
        parts.append(_("scores {counts}").format(counts=_counts(summary["scores"])))
    parts.append(_opener(summary["next_opener"]))
    return " | ".join(parts)


def bidding_round_line(number: int, summary: Mapping[str, Any]) -> str:
    """Round ``number`` (1-based) of a bidding-family replay summary."""
    return _round(number, _called(summary), _bidding_result(summary))


def _poker_verdict(summary: Mapping[str, Any]) -> str:
    hand = " ".join(summary["hand"])
    losers = ", ".join(
        _says(name, pgettext("you", "{name} lose a life"), _("{name} loses a life"))
        for name in summary["losses"]
    )
    if summary["call"] == "liar":
        if summary["stood"]:
            return _("hand {hand}, the bid stands: {losers}").format(hand=hand, losers=losers)
        return _("hand {hand}, the bid was a lie: {losers}").format(hand=hand, losers=losers)
    rolls = "; ".join(" ".join(a) for a in summary["attempts"])
    if rolls:
        head = _("hand {hand}, rolls {rolls}").format(hand=hand, rolls=rolls)
    else:
        head = _("hand {hand}").format(hand=hand)
    if summary["success"]:
        if losers:
            return _("{head}: five of a kind made, {losers}").format(head=head, losers=losers)
        return _("{head}: five of a kind made, no life lost").format(head=head)
    if losers:
        return _("{head}: no five of a kind, {losers}").format(head=head, losers=losers)
    return _("{head}: no five of a kind, no life lost").format(head=head)


def poker_round_line(number: int, summary: Mapping[str, Any]) -> str:
    """Round ``number`` (1-based) of a poker-dice replay summary."""
    bid = _bid_of(summary["bidder"], summary["bid"])
    if summary["call"] == "liar":
        move = _says(
            summary["caller"],
            pgettext("you", "{name} call liar on {bid}"),
            _("{name} calls liar on {bid}"),
            bid=bid,
        )
    else:
        move = _says(
            summary["accepter"],
            pgettext("you", "{name} accept {bid}"),
            _("{name} accepts {bid}"),
            bid=bid,
        )
    lives = _("lives {counts}").format(counts=_counts(summary["lives"]))
    result = " | ".join((_poker_verdict(summary), lives, _opener(summary["next_opener"])))
    return _round(number, move, result)
