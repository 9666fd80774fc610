"""The poker-dice family's rules in words, for players: the one place they are written.

As ``families/bidding/plain.py``: generated from a :class:`PokerRules` object, in the language
in use; the terminal and the browser (``GET /api/rules``) show the same sentences.

>>> from liarsdice.core.poker.rules import poker_preset
>>> plain_rules(poker_preset("poker-dice"))[0]
'One cup with five poker dice (9, 10, J, Q, K, A) goes round the table.'
>>> plain_rules(poker_preset("poker-dice", lives=1))[4]
'Everyone has 1 life; the last player with a life left wins.'
"""

from __future__ import annotations

from collections.abc import Mapping

from liarsdice.core.poker.rules import PokerRules
from liarsdice.i18n import N_, _, ngettext

__all__ = ["OPTION_HELP", "SUMMARIES", "VALUE_HELP", "plain_rules"]

SUMMARIES: Mapping[str, str] = {
    "poker-dice": N_(
        "Poker dice: one cup of five poker dice goes round the table; claim a poker hand that "
        "beats the last claim and pass the cup on, or call liar."
    ),
}
"""One line per preset, in words for players; shown only for the preset's own options."""

OPTION_HELP: Mapping[str, str] = {
    "name": N_("The preset these rules start from."),
    "players": N_("How many seats a game has by default."),
    "lives": N_(
        "Lives each player starts with; a player with none left is out, the last one left wins."
    ),
    "dice": N_("The one set of poker dice the table shares (always five)."),
    "five_of_a_kind_rule": N_(
        "Whether accepting a five-of-a-kind bid means making five of a kind in three rolls "
        "(made: the round ends with no life lost; failed: the accepter loses a life); off, it "
        "is accepted like any bid, so facing five aces only a liar call is left."
    ),
}
"""One sentence per poker-dice rule option: what it is (``liarsdice rules poker-dice``)."""

VALUE_HELP: Mapping[str, Mapping[str, str]] = {}
"""No poker-dice option takes one of a few named values."""


def plain_rules(rules: PokerRules) -> list[str]:
    """The rules of ``rules`` that a player needs, one plain sentence each, in the language in
    use: every option that changes the game changes a sentence."""
    out = [
        _("One cup with five poker dice (9, 10, J, Q, K, A) goes round the table."),
        _(
            "The opener rolls all five under the cup, looks, claims a poker hand (junk, a "
            "pair, two pair, ... five of a kind; it may be a bluff) and passes the cup left or "
            "right."
        ),
        _(
            "The next player calls 'liar' and lifts the cup, or accepts it: looks, may put "
            "dice outside the cup for all to see, may shake the cup or roll outside dice, and "
            "must claim a higher hand."
        ),
        _(
            "At a call all five dice count: if they make the claim or better, the caller loses "
            "a life; if not, the claimer does. The loser opens the next round."
        ),
        ngettext(
            "Everyone has {n} life; the last player with a life left wins.",
            "Everyone has {n} lives; the last player with a life left wins.",
            rules.lives,
        ).format(n=rules.lives),
    ]
    if rules.five_of_a_kind_rule:
        out.append(
            _(
                "Accepting a claim of five of a kind means making one: three rolls, keeping "
                "any dice, or you lose a life."
            )
        )
    else:
        out.append(
            _(
                "A claim of five of a kind is accepted like any other, so facing five aces "
                "only 'liar' is left."
            )
        )
    return out
