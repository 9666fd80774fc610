"""The basic bidding round that the solvers model: a call is 'liar' and settles at once, with
no show-and-reroll, stash or economy, and the round's raises in one total order.

>>> from liarsdice.core.bidding.rules import preset
>>> basic_round_lacks(preset("classic"))
[]
>>> basic_round_lacks(preset("spot-on"))
['no exact call']
"""

from __future__ import annotations

from liarsdice.core.bidding.rules import (
    Economy,
    ExactCall,
    Ordering,
    Resolution,
    Rules,
    ShowReroll,
    Stash,
)


def basic_round_lacks(rules: Rules) -> list[str]:
    """What a basic round needs that ``rules`` lacks, in words (empty: ``rules`` has one)."""
    lacks = [
        (rules.ordering is Ordering.MONOTONE, "a total bid order (not monotone)"),
        (rules.exact is not ExactCall.NONE, "no exact call"),
        (rules.show_reroll is not ShowReroll.OFF, "show_reroll=off"),
        (rules.stash is not Stash.NONE, "stash=none"),
        (rules.economy is not Economy.NONE, "economy=none"),
        (rules.resolution is not Resolution.FIRST_CALL, "resolution=first-call"),
    ]
    return [need for lacking, need in lacks if lacking]


__all__ = ["basic_round_lacks"]
