"""Bots for the poker-dice family: a uniform random bot and an exact-odds bot.

A poker bot sees only its own :class:`~liarsdice.core.poker.PokerView` (the dice under the cup
while it holds the cup, the dice it still knows are under it after passing it on, the outside
dice, the bids, lives, direction) plus the public :class:`~liarsdice.core.poker.PokerGame`.
Its odds count every die it knows of (:func:`known_dice`); only the others are fresh dice.

The odds are exact: every re-roll is enumerated over the sorted multisets of the re-rolled dice
(with their multinomial weights), and the tables are cached per kept multiset (462 of them), so
a decision costs a few thousand table look-ups.

>>> from liarsdice.core.poker import parse_poker_bid
>>> reach((6, 6, 6, 6), parse_poker_bid("five A"))          # one die to roll: an ace
0.16666666666666666
>>> round(reach((), parse_poker_bid("pair 9")), 4)          # not five different non-straight
0.9383
>>> kept, p = best_reroll((6, 6, 1, 2, 3), parse_poker_bid("three A"))
>>> kept, round(p, 4)          # keep the aces: another ace, or a full house of K K K A A ...
((6, 6), 0.4444)
>>> round(five_chance((5, 5, 5, 1, 2)), 4)                  # (1 - (5/6)**3) ** 2
0.1775

How :class:`PokerProbBot` decides is in its docstring.
"""

from __future__ import annotations

from collections import Counter
from functools import cache, lru_cache
from itertools import combinations_with_replacement
from math import factorial, prod

from liarsdice.bots.base import BaseBot
from liarsdice.core.poker import (
    ACCEPT,
    ALL_BIDS,
    LEFT,
    LIAR,
    NUM_BIDS,
    RIGHT,
    Category,
    PokerBid,
    PokerGame,
    PokerView,
    bid_id,
    hand_bid,
)
from liarsdice.core.poker.state import FIVE_ROLLS

__all__ = [
    "PokerBot",
    "PokerProbBot",
    "PokerRandomBot",
    "accept_odds",
    "best_reroll",
    "bid_true_probability",
    "five_chance",
    "five_keep",
    "known_dice",
    "next_knows_cup",
    "next_sees",
    "plausibility",
    "reach",
    "reach_table",
    "roll_distribution",
    "submultisets",
]

Dice = tuple[int, ...]


# ------------------------------------------------------------------------- exact tables
@cache
def roll_distribution(k: int) -> tuple[tuple[Dice, float], ...]:
    """Every sorted outcome of rolling ``k`` fair dice, with its probability.

    >>> len(roll_distribution(5)), round(sum(p for _, p in roll_distribution(3)), 12)
    (252, 1.0)
    >>> dict(roll_distribution(2))[(1, 2)]                 # 9-10 or 10-9
    0.05555555555555555
    """
    out: list[tuple[Dice, float]] = []
    for ms in combinations_with_replacement(range(1, 7), k):
        ways = factorial(k) // prod(factorial(c) for c in Counter(ms).values())
        out.append((ms, ways / 6**k))
    return tuple(out)


def _merge(a: Dice, b: Dice) -> Dice:
    return tuple(sorted(a + b))


@cache
def _reading_id(hand: Dice) -> int:
    """The bid id of the best reading of five sorted dice."""
    return bid_id(hand_bid(hand))


@cache
def _outcomes(kept: Dice) -> tuple[tuple[Dice, int, Dice, float], ...]:
    """Keeping ``kept`` and rolling the other dice: ``(hand, reading id, rolled, p)``."""
    return tuple(
        (hand, _reading_id(hand), rolled, p)
        for rolled, p in roll_distribution(5 - len(kept))
        for hand in (_merge(kept, rolled),)
    )


@cache
def reach_table(kept: Dice) -> tuple[float, ...]:
    """``t[b]``: the probability that ``kept`` plus fresh dice (five in all) satisfy bid id
    ``b`` (a hand satisfies every bid up to its reading's id).

    >>> t = reach_table((6, 6, 6, 6, 6))
    >>> t[0], t[-1]
    (1.0, 1.0)
    """
    kept = tuple(sorted(kept))
    mass = [0.0] * NUM_BIDS
    for _, rid, _, p in _outcomes(kept):
        mass[rid] += p
    out = [0.0] * NUM_BIDS
    acc = 0.0
    for b in range(NUM_BIDS - 1, -1, -1):
        acc += mass[b]
        out[b] = min(acc, 1.0)
    return tuple(out)


def reach(kept: Dice, bid: PokerBid) -> float:
    """P(``kept`` plus ``5 - len(kept)`` fresh dice satisfy ``bid``): exact, by enumeration."""
    return reach_table(tuple(sorted(kept)))[bid_id(bid)]


@cache
def submultisets(dice: Dice, max_size: int = 5) -> tuple[Dice, ...]:
    """Every distinct sub-multiset of ``dice`` (sorted) with at most ``max_size`` dice.

    >>> submultisets((5, 5, 1))
    ((), (5,), (5, 5), (1,), (1, 5), (1, 5, 5))
    """
    counts = Counter(dice)
    out: list[Dice] = [()]
    for f in sorted(counts):
        out = [s + (f,) * k for s in out for k in range(counts[f] + 1)]
    return tuple(tuple(sorted(s)) for s in out if len(s) <= max_size)


@lru_cache(maxsize=200_000)
def _best_reach(hand: Dice, b: int) -> float:
    table = reach_table
    return max(table(k)[b] for k in submultisets(hand))


def best_reroll(dice: Dice, bid: PokerBid) -> tuple[Dice, float]:
    """The dice to keep (re-rolling the rest once) that make ``bid`` likeliest, and that
    probability. Keeping every die means not rolling."""
    b = bid_id(bid)
    hand = tuple(sorted(dice))
    best = max(submultisets(hand), key=lambda k: (reach_table(k)[b], len(k)))
    return best, reach_table(best)[b]


@cache
def _five_after(kept: Dice, rolls_after: int) -> float:
    """Five-of-a-kind challenge: keep ``kept``, roll the rest, then ``rolls_after`` more rolls
    played well. The probability of making five of a kind."""
    total = 0.0
    for hand, _, _, p in _outcomes(kept):
        if hand[0] == hand[-1]:
            total += p
        elif rolls_after > 0:
            total += p * max(_five_after(k, rolls_after - 1) for k in submultisets(hand, 4))
    return total


def five_keep(dice: Dice, rolls_left: int = FIVE_ROLLS) -> tuple[Dice, float]:
    """The best dice to keep before the next of ``rolls_left`` rolls, and the chance of making
    five of a kind from here.

    >>> five_keep((5, 5, 5, 1, 2), rolls_left=1)         # two more kings at once: 1/36
    ((5, 5, 5), 0.027777777777777776)
    """
    hand = tuple(sorted(dice))
    if rolls_left <= 0:
        return hand, float(len(set(hand)) == 1)
    best = max(submultisets(hand, 4), key=lambda k: (_five_after(k, rolls_left - 1), len(k)))
    return best, _five_after(best, rolls_left - 1)


def five_chance(dice: Dice, rolls_left: int = FIVE_ROLLS) -> float:
    """Chance of making five of a kind from ``dice`` in ``rolls_left`` rolls (1 if made)."""
    if len(set(dice)) == 1:
        return 1.0
    return five_keep(dice, rolls_left)[1]


def plausibility(p: float, rho: float) -> float:
    """P(a bid is true) for a bidder who bids true hands and bluffs ``rho`` times as readily:
    ``p`` is the chance the hidden dice satisfy the bid when nothing is known of the bidder.

    >>> plausibility(0.5, 0.5), plausibility(0.0, 0.5), plausibility(1.0, 0.5)
    (0.6666666666666666, 0.0, 1.0)
    """
    if p <= 0.0:
        return 0.0
    return p / (p + rho * (1.0 - p))


def known_dice(view: PokerView) -> Dice:
    """The dice ``view``'s player knows of (sorted): the outside dice and the dice it knows are
    under the cup (:attr:`~liarsdice.core.poker.PokerView.known_cup`); the other dice under
    the cup are unknown to it.

    >>> from liarsdice.core.poker import PokerGame
    >>> g = PokerGame(players=2)
    >>> s = g.replay([(-1, f) for f in (2, 3, 3, 3, 5)])            # 10 J J J K
    >>> for move in ("three J", "accept", "out 10 K", "reroll 10 K"):
    ...     s = s.apply_action(g.string_to_action(move))
    >>> s = s.apply_action(3).apply_action(1)                        # J and 9, in view
    >>> s = s.apply_action(g.string_to_action("four J 9"))
    >>> known_dice(s.view(0)), bid_true_probability(s.view(0))     # J J J never left
    ((1, 3, 3, 3, 3), 1.0)
    """
    return tuple(sorted(view.outside + view.known_cup))


def _next_seat(view: PokerView) -> int:
    """The seat the viewer passes the cup to (in the round's direction; left before it is set)."""
    n = len(view.lives)
    step = view.direction or 1
    seat = (view.player + step) % n
    while view.lives[seat] == 0 and seat != view.player:
        seat = (seat + step) % n
    return seat


def next_knows_cup(view: PokerView) -> bool:
    """Whether the next player to get the cup from ``view``'s player (the holder) knows every
    die under it now, and so will still know them if it is not shaken (every die moved before
    it is passed on is moved in view): public, :attr:`~liarsdice.core.poker.PokerView.cup_known_by`.
    With two players left it is always the player who passed the cup."""
    seat = _next_seat(view)
    return seat != view.player and seat in view.cup_known_by


def after_moves(known: Dice, before: Dice, after: Dice) -> Dice:
    """What is still known under the cup (``known``) once the dice outside it change from
    ``before`` to ``after``, all in view, without a shake (the engine's own rule).

    >>> after_moves((3, 3), (6, 6), (3, 6))       # J J known; an A goes in, a J may come out
    (3, 6)
    """
    have = Counter(known)
    have.update(before)
    have.subtract(after)
    return tuple(sorted(have.elements()))


def next_sees(view: PokerView) -> Dice:
    """The dice the next player will know of when the holder passes the cup as it is now:
    the outside dice and, under the cup, every die if it knows them all
    (:func:`next_knows_cup`), else those everyone saw put there (``public_cup``)."""
    under = view.cup if next_knows_cup(view) else view.public_cup
    return _merge(tuple(view.outside), tuple(under))


def bid_true_probability(view: PokerView, rho: float = 0.2) -> float:
    """P(the current bid is true), from the dice the player knows of (:func:`known_dice`) and
    the bidder model of :func:`plausibility` (the other dice under the cup uniform)."""
    if view.current_bid is None:
        return 1.0
    return plausibility(reach(known_dice(view), view.current_bid), rho)


def accept_odds(
    view: PokerView,
    *,
    five_rule: bool,
    rho: float = 0.2,
    call_rate: float = 0.25,
    bidder_model: bool = True,
) -> tuple[float, float]:
    """``(P(bid true), P(losing a life by accepting))`` for the player asked to respond.

    Accepting an ordinary bid loses when the accepter cannot make a higher hand in one
    re-roll and the next player (with probability ``call_rate``) calls the bluff; accepting a
    five-of-a-kind bid under the five-of-a-kind rule loses when three rolls fail. Both are
    averaged over the dice the player does not know of (:func:`known_dice`), weighted by
    whether the bid is true.

    ``P(bid true)`` is the dice's own chance (every die the player does not know of a fresh
    roll) leaned on by a model of the bidder (:func:`plausibility`: true hands are bid more
    readily than bluffs), which is a bot's guess, not a fact of the dice. With
    ``bidder_model=False`` it is the dice's chance alone, what a hint for a person states.
    Four nines outside and one die shaken under the cup, and the bid is four 10 9: only a fifth
    nine makes it, 1 in 6; the bidder model reads the bid as half likely true.

    >>> from liarsdice.core.poker import PokerGame
    >>> g = PokerGame(players=2)
    >>> s = g.replay([(-1, f) for f in (1, 1, 1, 1, 4)])            # 9 9 9 9 Q
    >>> for move in ("four 9 Q", "accept", "out 9 9 9 9", "shake"):
    ...     s = s.apply_action(g.string_to_action(move))
    >>> s = s.apply_action(5).apply_action(g.string_to_action("four 10 9"))
    >>> round(accept_odds(s.view(0), five_rule=False, bidder_model=False)[0], 4)
    0.1667
    >>> round(accept_odds(s.view(0), five_rule=False)[0], 4)
    0.5
    """
    bid = view.current_bid
    if bid is None:
        return 1.0, 0.0
    b = bid_id(bid)
    known = known_dice(view)
    p_u = reach_table(known)[b]
    p_true = plausibility(p_u, rho) if bidder_model else p_u
    five = bid.category is Category.FIVE and five_rule
    e_true = e_false = 0.0
    for hand, rid, _, p in _outcomes(known):
        if five:
            loss = 1.0 - five_chance(hand)
        elif b + 1 < NUM_BIDS:
            loss = call_rate * (1.0 - _best_reach(hand, b + 1))
        else:
            loss = 1.0
        if rid >= b:
            e_true += p * loss
        else:
            e_false += p * loss
    e_true = e_true / p_u if p_u > 0 else 0.0
    e_false = e_false / (1.0 - p_u) if p_u < 1 else 0.0
    return p_true, p_true * e_true + (1.0 - p_true) * e_false


# ------------------------------------------------------------------------------- bots
class PokerBot(BaseBot[PokerGame, PokerView]):
    """Base class of poker-dice bots: ``choose(game, view) -> action``, from its own view."""


class PokerRandomBot(PokerBot):
    """Uniform over ``view.legal_actions``.

    >>> import random
    >>> from liarsdice.core.poker import PokerGame
    >>> s = PokerGame(players=3).replay([(-1, f) for f in (6, 6, 5, 3, 1)])
    >>> PokerRandomBot(random.Random(1)).choose(s.game, s.view(0)) in s.view(0).legal_actions
    True
    """

    name = "random"

    def choose(self, game: PokerGame, view: PokerView) -> int:
        if not view.legal_actions:
            raise ValueError(f"seat {view.player} has no legal action (is it its turn?)")
        return self.rng.choice(view.legal_actions)


class PokerProbBot(PokerBot):
    """Exact re-roll odds and a simple model of the bidder.

    * **Respond** (liar or accept): ``P(true)`` is the chance that the dice it knows of (the
      outside dice, and any it knows are still under the cup) plus fresh dice for the rest
      satisfy the bid, weighted by a bidder who bluffs ``rho`` times as readily as
      they bid a true hand (:func:`plausibility`). Accepting is costed by :func:`accept_odds`:
      averaged over the hidden dice, the chance of failing to make a higher hand with the best
      single re-roll times the chance (``call_rate``) the next player calls the bluff, or, for
      five of a kind under the five-of-a-kind rule, the chance three rolls fail. It calls liar
      when the bid is less likely true than accepting is to cost a life.
    * **Arrange and roll**: it tries every split of the five dice into kept and re-rolled dice,
      re-rolled either under the shaken cup (the kept dice stand outside, in view) or in view
      (the kept dice hide under the cup), or no re-roll at all with any set of dice in view.
      Each plan is scored by enumerating the re-roll: when the hand beats the bid it will bid
      the hand (true; a small bonus, ``spite``, for the next player's chance of wrongly calling
      it), otherwise the least raise (a bluff, costed by the next player's chance of calling it,
      judged from what they will know: the dice in view and, unless the cup is shaken, every
      die under it when they know them all now (:func:`next_knows_cup`), else the dice
      everyone saw put under it).
    * **Bid**: the full reading of its hand when that beats the bid (a true bid the next
      player must beat); otherwise the least raise, the likeliest bluff. Now and then
      (``bluff``) a modest bluff a little above a true hand that still looks plausible.
    * **Pass**: towards the neighbour with more lives.
    * **Keep** (five-of-a-kind challenge): the keep with the best exact chance over the rolls
      left (a small dynamic programme over the 252 hands).

    >>> import random
    >>> from liarsdice.core.poker import PokerGame, parse_poker_bid
    >>> g = PokerGame(players=2)
    >>> s = g.replay([(-1, f) for f in (6, 6, 6, 5, 5)])      # A A A K K
    >>> bot = PokerProbBot(random.Random(0), bluff=0.0)
    >>> g.action_to_string(bot.choose(g, s.view(0)))
    'full house A K'
    >>> s = s.apply_action(g.bid_action(parse_poker_bid("five A")))
    >>> g.action_to_string(bot.choose(g, s.view(1)))
    'liar'
    """

    name = "prob"

    # Tuning parameters (constructor keywords; see liarsdice.bots.base).
    rho: float = 0.2  # how readily the bidder bluffs, next to bidding a true hand
    call_rate: float = 0.25  # the next player's chance of calling a bluff it accepts
    spite: float = 1.0  # the worth of the next player wrongly calling a true bid
    bluff: float = 0.05  # the chance of a modest bluff above a true hand
    noise: float = 0.03  # the jitter of the liar-or-accept comparison

    # ---------------------------------------------------------------------- choose
    def choose(self, game: PokerGame, view: PokerView) -> int:
        legal = self.legal(view)
        phase = view.phase
        action: int | None = None
        if phase == "respond":
            action = self._respond(game, view)
        elif phase == "pass":
            action = self._pass(view)
        elif phase == "bid":
            action = self._bid(game, view)
        elif phase == "arrange":
            action = self.plan(game, view)[0]
        elif phase == "shake":
            action = self._shake(game, view)
        elif phase == "keep":
            left = FIVE_ROLLS - len(view.five_attempts)
            action = game.keep_action(five_keep(view.outside, left)[0])
        if action is None or action not in legal:
            return self.rng.choice(legal)
        return action

    # -------------------------------------------------------------------- decisions
    def _respond(self, game: PokerGame, view: PokerView) -> int:
        if ACCEPT not in view.legal_actions:
            return LIAR
        p_true, loss = accept_odds(
            view,
            five_rule=game.rules.five_of_a_kind_rule,
            rho=self.rho,
            call_rate=self.call_rate,
        )
        jitter = self.rng.uniform(-self.noise, self.noise) if self.noise else 0.0
        return LIAR if p_true + jitter < loss else ACCEPT

    def _pass(self, view: PokerView) -> int:
        n = len(view.lives)
        me = view.player

        def neighbour(step: int) -> int:
            seat = (me + step) % n
            while view.lives[seat] == 0:
                seat = (seat + step) % n
            return seat

        left, right = view.lives[neighbour(1)], view.lives[neighbour(-1)]
        if left == right:
            return self.rng.choice((LEFT, RIGHT))
        return LEFT if left > right else RIGHT

    def _bid(self, game: PokerGame, view: PokerView) -> int:
        hand = tuple(sorted(view.cup + view.outside))
        cur = -1 if view.current_bid is None else bid_id(view.current_bid)
        if len(hand) != 5:  # cannot happen (the bidder holds the cup); stay legal
            return game.bid_action(ALL_BIDS[cur + 1])
        rid = _reading_id(hand)
        if rid <= cur:
            return game.bid_action(ALL_BIDS[cur + 1])  # the least raise: the likeliest bluff
        if self.bluff > 0 and self.rng.random() < self.bluff:
            table = reach_table(next_sees(view))
            modest = [
                b
                for b in range(rid + 1, min(rid + 12, NUM_BIDS))
                if plausibility(table[b], self.rho) >= 0.6
            ]
            if modest:
                return game.bid_action(ALL_BIDS[self.rng.choice(modest)])
        return game.bid_action(ALL_BIDS[rid])

    def _call(self, visible: Dice, b: int) -> float:
        """The next player's chance of calling bid id ``b`` when seeing ``visible``."""
        return 1.0 - plausibility(reach_table(visible)[b], self.rho)

    def _score(
        self, visible: Dice, hidden: Dice, in_view: bool, cur: int, known: Dice = ()
    ) -> float:
        """Expected cost of keeping ``visible`` (outside) and ``hidden`` (under the cup) and
        re-rolling the rest, in view (``in_view``: the cup is not shaken) or under the shaken
        cup, then bidding. ``known``: the dice of an unshaken cup the next player knows of."""
        kept = _merge(visible, hidden)
        total = 0.0
        for _, rid, rolled, p in _outcomes(kept):
            seen = _seen(visible, rolled, in_view, known)
            if rid > cur:
                total -= p * self.spite * self._call(seen, rid)
            else:
                total += p * self._call(seen, cur + 1)
        return total

    def plan(self, game: PokerGame, view: PokerView) -> tuple[int, int]:
        """The accepter's best plan as ``(arrange action, roll action)`` (``view`` is the
        holder's, before arranging)."""
        hand = tuple(sorted(view.cup + view.outside))
        cur = bid_id(view.current_bid) if view.current_bid is not None else -1
        informed = next_knows_cup(view)
        before = tuple(sorted(view.outside))
        plans: list[tuple[float, int, int]] = []
        for part in submultisets(hand, 4):
            rest = _remove(hand, part)
            out = game.arrange_action(part)
            # what the next player will know under the cup unless it is shaken
            known = rest if informed else after_moves(view.public_cup, before, part)
            # the part stays outside, nothing re-rolled
            static = self._static(part, hand, cur, known)
            plans.append((static, out, game.roll_action(False, ())))
            # the part stays outside in view, the cup (the rest) is shaken
            plans.append((self._score(part, (), False, cur), out, game.roll_action(True, ())))
            # the part is rolled in view, the rest kept hidden under the cup
            if part:
                score = self._score((), rest, True, cur, known)
                plans.append((score, out, game.roll_action(False, part)))
        best = min(plans, key=lambda t: t[0])
        return best[1], best[2]

    def _static(self, shown: Dice, hand: Dice, cur: int, known: Dice = ()) -> float:
        seen = _merge(shown, known)
        rid = _reading_id(hand)
        if rid > cur:
            return -self.spite * self._call(seen, rid)
        return self._call(seen, cur + 1)

    def _shake(self, game: PokerGame, view: PokerView) -> int:
        cup = tuple(sorted(view.cup))
        outside = tuple(sorted(view.outside))
        hand = _merge(cup, outside)
        cur = bid_id(view.current_bid) if view.current_bid is not None else -1
        known = cup if next_knows_cup(view) else tuple(sorted(view.public_cup))
        options = [
            (self._static(outside, hand, cur, known), game.roll_action(False, ())),
            (self._score(outside, (), False, cur), game.roll_action(True, ())),
        ]
        if outside:
            score = self._score((), cup, True, cur, known)
            options.append((score, game.roll_action(False, outside)))
        return min(options, key=lambda t: t[0])[1]


def _seen(visible: Dice, rolled: Dice, in_view: bool, known: Dice) -> Dice:
    """What the next player will know of the five dice after a re-roll: the dice outside
    (``visible``, and ``rolled`` when rolled in view) and, when the cup is not shaken, the dice
    under it it knows of (``known``)."""
    if not in_view:
        return visible
    return _merge(_merge(visible, rolled), known)


def _remove(dice: Dice, part: Dice) -> Dice:
    rest = list(dice)
    for f in part:
        rest.remove(f)
    return tuple(rest)
