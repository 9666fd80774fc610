"""Poker dice's rules that are on, in plain words (the browser's rules panel, the lobby).

>>> from liarsdice.core.poker.rules import poker_preset
>>> plain_rules(poker_preset("poker-dice"))[0]
'One cup with five poker dice (9, 10, J, Q, K, A) goes round the table.'
"""

from __future__ import annotations

from liarsdice.core.poker.rules import PokerRules


def plain_rules(rules: PokerRules) -> list[str]:
    """The rules of ``rules`` that a player needs, one plain sentence each."""
    out = [
        "One cup with five poker dice (9, 10, J, Q, K, A) goes round the table.",
        "The opener rolls all five under the cup, looks, claims a poker hand (junk, a pair, "
        "two pair, ... five of a kind; it may be a bluff) and passes the cup left or right.",
        "The next player calls 'liar' and lifts the cup, or accepts it: looks, may put dice "
        "outside the cup for all to see, may shake the cup or roll outside dice, and must "
        "claim a higher hand.",
        "At a call all five dice count: if they make the claim or better, the caller loses a "
        "life; if not, the claimer does. The loser opens the next round.",
        f"Everyone has {rules.lives} {'life' if rules.lives == 1 else 'lives'}; the last player "
        "with a life left wins.",
    ]
    if rules.five_of_a_kind_rule:
        out.append(
            "Accepting a claim of five of a kind means making one: three rolls, keeping any "
            "dice, or you lose a life."
        )
    return out


__all__ = ["plain_rules"]
