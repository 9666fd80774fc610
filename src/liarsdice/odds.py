"""Exact bid probabilities from one player's point of view. Pure functions, no I/O.

Every die a player cannot see is an independent fair die, so the number of unseen dice that
match a bid is binomial. What a player *can* see (their own hidden dice, every shown die, an
open stash) is counted exactly.

>>> from fractions import Fraction
>>> prob_at_least(1, 2, Fraction(1, 6))
Fraction(11, 36)
>>> round(prob_at_least(3, 10, 1 / 3), 4)
0.7009
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import TYPE_CHECKING, TypeVar

from liarsdice.core.bidding.bid import Bid

if TYPE_CHECKING:
    from liarsdice.core.bidding.game import Game
    from liarsdice.core.bidding.view import PlayerView

__all__ = [
    "at_least_table",
    "bid_odds",
    "known_matches",
    "match_probability",
    "prob_at_least",
    "prob_exactly",
    "roll_probability",
    "sigmoid",
    "unseen_dice",
]

P = TypeVar("P", float, Fraction)


def roll_probability(roll: tuple[int, ...], faces: int) -> float:
    """The chance of a roll, as a sorted multiset of faces, with fair dice of ``faces`` faces.

    >>> roll_probability((1, 2), 6), roll_probability((3, 3), 6) * 36
    (0.05555555555555555, 1.0)
    """
    ways = math.factorial(len(roll))
    for f in set(roll):
        ways //= math.factorial(roll.count(f))
    return ways / float(faces ** len(roll))


def prob_exactly(k: int, n: int, p: P) -> P:
    """P(exactly ``k`` successes in ``n`` independent trials of probability ``p``).

    Exact when ``p`` is a :class:`~fractions.Fraction`.

    >>> prob_exactly(2, 3, Fraction(1, 2))
    Fraction(3, 8)
    >>> prob_exactly(0, 0, 0.5), prob_exactly(4, 3, 0.5), prob_exactly(-1, 3, 0.5)
    (1.0, 0.0, 0.0)
    """
    if k < 0 or k > n:
        return p * 0
    return math.comb(n, k) * p**k * (1 - p) ** (n - k)


def prob_at_least(k: int, n: int, p: P) -> P:
    """P(at least ``k`` successes in ``n`` independent trials of probability ``p``).

    ``k <= 0`` is certain; ``k > n`` is impossible.

    >>> prob_at_least(2, 3, Fraction(1, 2))
    Fraction(1, 2)
    >>> prob_at_least(0, 5, 0.1), prob_at_least(6, 5, 0.9)
    (1.0, 0.0)
    >>> prob_at_least(1, 1, Fraction(1, 3))
    Fraction(1, 3)
    """
    if k <= 0:
        return p * 0 + 1
    if k > n:
        return p * 0
    # Sum the shorter tail for speed and accuracy.
    if k > n // 2:
        return sum((prob_exactly(i, n, p) for i in range(k, n + 1)), p * 0)
    return 1 - sum((prob_exactly(i, n, p) for i in range(k)), p * 0)


def sigmoid(x: float) -> float:
    """The logistic function ``1 / (1 + exp(-x))``, exactly 0 or 1 beyond ``|x| > 40``: the
    bots' soft thresholds (a chance that rises smoothly as a probability passes a centre).

    >>> sigmoid(0.0), sigmoid(-41.0), sigmoid(41.0), round(sigmoid(2.0), 4)
    (0.5, 0.0, 1.0, 0.8808)
    """
    if x < -40:
        return 0.0
    if x > 40:
        return 1.0
    return 1.0 / (1.0 + math.exp(-x))


def _wild(game: Game, view: PlayerView) -> int | None:
    """The wild face in effect for this view's round (none in a palifico round)."""
    return None if view.palifico else game.rules.wild


def match_probability(game: Game, view: PlayerView, face: int) -> float:
    """Chance that one unseen die counts for a bid on ``face``.

    ``2/faces`` for a non-wild face while a wild is active, ``1/faces`` otherwise.

    >>> from liarsdice.core.bidding import Game, preset
    >>> g = Game(preset("classic"))
    >>> v = g.new_initial_state().view(-1)
    >>> match_probability(g, v, 5), match_probability(g, v, 1)
    (0.3333333333333333, 0.16666666666666666)
    """
    faces = game.rules.faces
    wild = _wild(game, view)
    if wild is None or face == wild:
        return 1 / faces
    return 2 / faces


def known_matches(game: Game, view: PlayerView, bid: Bid) -> int:
    """Dice the viewer can see that count for ``bid``: own hidden, every shown, open stash."""
    wild = _wild(game, view)
    face = bid.face
    seen = [*view.my_dice, *(d for shown in view.shown for d in shown), *(view.stash or ())]
    return sum(1 for d in seen if d in (face, wild))


def unseen_dice(view: PlayerView) -> int:
    """Dice the viewer cannot see: other seats' hidden dice and a secret stash."""
    shown = sum(len(s) for s in view.shown)
    hidden_others = sum(view.dice_counts) - shown - len(view.my_dice)
    secret_stash = view.stash_size if view.stash is None else 0
    return max(0, hidden_others) + secret_stash


def bid_odds(game: Game, view: PlayerView, bid: Bid) -> tuple[float, float]:
    """``(P(at least bid.quantity), P(exactly bid.quantity))`` dice match ``bid``, for the viewer.

    >>> from liarsdice.core.bidding import Game, preset
    >>> g = Game(preset("openspiel"))                  # 2 players, 1 die each, 6s wild
    >>> s = g.new_initial_state().apply_action(3).apply_action(5)
    >>> bid_odds(g, s.view(0), Bid(1, 3))              # my own 3 makes it certain
    (1.0, 0.6666666666666667)
    >>> [round(x, 4) for x in bid_odds(g, s.view(0), Bid(2, 3))]  # the other die: 3 or wild 6
    [0.3333, 0.3333]
    """
    need = bid.quantity - known_matches(game, view, bid)
    n = unseen_dice(view)
    p = match_probability(game, view, bid.face)
    return float(prob_at_least(need, n, p)), float(prob_exactly(need, n, p))


def at_least_table(game: Game, view: PlayerView, face: int) -> list[float]:
    """``P(at least q dice match a bid on face)`` for the viewer, for every quantity ``q``
    from 0 to the dice the viewer sees that count plus every unseen die (beyond: 0): the chances
    of all the bids on one face at once, as :func:`bid_odds` gives them one by one.

    >>> from liarsdice.core.bidding import Game, preset
    >>> g = Game(preset("openspiel"))
    >>> s = g.new_initial_state().apply_action(3).apply_action(5)
    >>> [round(x, 4) for x in at_least_table(g, s.view(0), 3)]
    [1.0, 1.0, 0.3333]
    >>> at_least_table(g, s.view(0), 3)[2] == bid_odds(g, s.view(0), Bid(2, 3))[0]
    True
    """
    known = known_matches(game, view, Bid(1, face))
    n = unseen_dice(view)
    p = match_probability(game, view, face)
    tail = [0.0] * (n + 2)  # tail[k]: at least k of the unseen dice match
    for k in range(n, -1, -1):
        tail[k] = tail[k + 1] + float(prob_exactly(k, n, p))
    return [1.0] * (known + 1) + [min(1.0, t) for t in tail[1 : n + 1]]
