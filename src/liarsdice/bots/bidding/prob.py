"""A bot that bids and calls from the exact probability of each bid (:mod:`liarsdice.odds`).

How it decides, on its own view only:

* **Buy** (Rich Man's Dice) a die when it may and the pot is small next to its chips.
* For each face it may bid, it takes the least legal quantity (the raise most likely to be
  true on that face) and, if that is safe enough, climbs to the largest quantity still at
  least ``safe`` likely (a jittered threshold): a bid it can back puts pressure on the next
  player. Among faces that reach the threshold it makes the highest bid; when none does, the
  likeliest one. Now and then (``bluff``) it opens on a random plausible face instead.
* It **calls liar** when the current bid is more likely false than its safest raise is true,
  and calls **exact** when that is likelier still.
* **Show and re-roll**: it shows the dice matching the bid it is about to make (or has just
  made, in the 'before' order) and re-rolls the rest, when it holds both kinds and the bid is
  not already safe.
* It never asks house-rule questions.

>>> import random
>>> from liarsdice.core.bidding import Game, preset
>>> g = Game(preset("openspiel"))
>>> s = g.new_initial_state().apply_action(3).apply_action(6)
>>> bot = ProbBot(random.Random(0), bluff=0.0)
>>> g.action_to_string(bot.choose(g, s.view(0)))     # a 3 and 6s wild: 1x3 is certain
'1x3'
>>> s = s.apply_action(g.bid_action(Bid(2, 5)))
>>> g.action_to_string(bot.choose(g, s.view(1)))     # a wild 6 in hand backs 2x6 at 1/3
'liar'
"""

from __future__ import annotations

from liarsdice.bots.base import Bot
from liarsdice.core.bidding.bid import Bid
from liarsdice.core.bidding.game import BUY, EXACT, LIAR, NO_SHOW, Game
from liarsdice.core.bidding.view import PlayerView
from liarsdice.odds import bid_odds, known_matches, match_probability, prob_at_least, unseen_dice

__all__ = ["Candidate", "ProbBot", "raise_candidates"]


class Candidate:
    """One face's raise: the least legal quantity and the bid the bot would make on it."""

    __slots__ = ("action", "backing", "bid", "least", "least_action", "least_p", "p")

    def __init__(
        self,
        bid: Bid,
        action: int,
        p: float,
        least: Bid,
        least_p: float,
        backing: int,
        least_action: int = -1,
    ) -> None:
        self.bid = bid
        self.action = action
        self.least_action = least_action  # the action of ``least``
        self.p = p  # P(bid is true)
        self.least = least
        self.least_p = least_p  # P(least is true): the safest raise on this face
        self.backing = backing  # the viewer's own visible dice that count for this face

    def __repr__(self) -> str:
        return f"Candidate({self.bid}, p={self.p:.3f}, least={self.least}, {self.least_p:.3f})"


def raise_candidates(game: Game, view: PlayerView, safe: float = 0.8) -> list[Candidate]:
    """For each face with a legal bid: the least bid and the highest bid at least ``safe``.

    >>> import random
    >>> from liarsdice.core.bidding import Game, preset
    >>> g = Game(preset("openspiel"))
    >>> s = g.new_initial_state().apply_action(3).apply_action(6)
    >>> [str(c.bid) for c in raise_candidates(g, s.view(0))]
    ['1x1', '1x2', '1x3', '1x4', '1x5', '1x6']
    """
    by_face: dict[int, list[tuple[int, int]]] = {}
    for a in view.legal_actions:
        bid = game.action_bid(a)
        if bid is not None:
            by_face.setdefault(bid.face, []).append((bid.quantity, a))
    n = unseen_dice(view)
    out: list[Candidate] = []
    for face, options in by_face.items():
        options.sort()
        actions = dict(options)
        q0 = options[0][0]
        probe = Bid(q0, face)
        known = known_matches(game, view, probe)
        p = match_probability(game, view, face)
        p0 = float(prob_at_least(q0 - known, n, p))
        q, pq = q0, p0
        if p0 >= safe:
            while q + 1 in actions:
                nxt = float(prob_at_least(q + 1 - known, n, p))
                if nxt < safe:
                    break
                q, pq = q + 1, nxt
        out.append(Candidate(Bid(q, face), actions[q], pq, probe, p0, known, actions[q0]))
    return out


class ProbBot(Bot):
    """Probability-driven bids and calls (see the module docstring)."""

    name = "prob"

    # Tuning parameters (constructor keywords; see liarsdice.bots.base).
    safe: float = 0.8  # the confidence a bid must reach (jittered by -2 noise .. +noise)
    bluff: float = 0.05  # the chance of opening on a random plausible face instead
    show_below: float = 0.75  # show and re-roll only for a bid less likely than this
    buy_ratio: int = 4  # buy a die when the pot times this is at most its chips
    noise: float = 0.04  # the jitter of the threshold and of the call's value

    # ------------------------------------------------------------------ choose
    def choose(self, game: Game, view: PlayerView) -> int:
        legal = self.legal(view)
        early = self._before_bidding(game, view)
        if early is not None:
            return early
        return self._bid_or_call(game, view, legal)

    def _bid_or_call(self, game: Game, view: PlayerView, legal: tuple[int, ...]) -> int:
        """A raise, a call or an exact call."""
        safe, candidates = self._candidates_now(game, view)
        legal_set = set(legal)
        pick = self._pick_raise(candidates, safe, view.palifico)
        raise_value = max((c.least_p for c in candidates), default=-1.0)

        cur = view.current_bid
        if cur is not None and LIAR in legal_set:
            p_true, p_exact = bid_odds(game, view, cur)
            jitter = self.rng.uniform(-self.noise, self.noise)
            liar_value = 1.0 - p_true + jitter
            if EXACT in legal_set and p_exact > max(liar_value, raise_value) and p_exact > 0.3:
                return EXACT
            if pick is None or liar_value > raise_value:
                return LIAR

        if pick is None:  # no raise is legal and no call either: cannot happen, stay legal
            return self.rng.choice(legal)
        return self._raise(game, view, pick, legal_set)

    def _raise(self, game: Game, view: PlayerView, pick: Candidate, legal: set[int]) -> int:
        """``pick``'s bid, or first the show that goes with it."""
        show = self._show_for(game, view, pick.bid, pick.p)
        if show is not None and show in legal:
            return show
        return pick.action

    # ----------------------------------------------------------------- helpers
    def _before_bidding(self, game: Game, view: PlayerView) -> int | None:
        """The 'before' show step, or buying a die; None when it is time to bid or call."""
        if view.phase == "show":
            return self._choose_show(game, view)
        if BUY in view.legal_actions and self._wants_buy(view):
            return BUY
        return None

    def _candidates_now(self, game: Game, view: PlayerView) -> tuple[float, list[Candidate]]:
        """This move's jittered confidence threshold and the raise on every face."""
        safe = self.safe + self.rng.uniform(-2 * self.noise, self.noise)
        return safe, raise_candidates(game, view, safe)

    def _pick_raise(
        self, candidates: list[Candidate], safe: float, palifico: bool
    ) -> Candidate | None:
        if not candidates:
            return None
        if self.bluff > 0 and self.rng.random() < self.bluff:
            plausible = [c for c in candidates if c.least_p >= 0.3]
            if plausible:
                return self.rng.choice(plausible)
        sure = [c for c in candidates if c.p >= safe]
        if sure:
            # The highest bid it can back: action ids rise with the bid (in a palifico round
            # only the quantity binds the next bid, so the quantity comes first).
            return max(sure, key=lambda c: (c.bid.quantity if palifico else 0, c.action))
        return max(candidates, key=lambda c: (c.least_p, c.backing, -c.action))

    def _wants_buy(self, view: PlayerView) -> bool:
        me = view.player
        return view.game_pot > 0 and view.game_pot * self.buy_ratio <= view.chips[me]

    def _show_for(self, game: Game, view: PlayerView, bid: Bid, p: float) -> int | None:
        """A show of the dice matching ``bid`` when re-rolling the others is worth it."""
        if p >= self.show_below or len(view.my_dice) < 2:
            return None
        wild = None if view.palifico else game.rules.wild
        matching = [d for d in view.my_dice if d == bid.face or d == wild]
        if not matching or len(matching) == len(view.my_dice):
            return None
        return game.show_action(matching)

    def _choose_show(self, game: Game, view: PlayerView) -> int:
        """The 'before' order: just raised, now show matching dice or decline."""
        bid = view.current_bid
        if bid is not None:
            p_true, _ = bid_odds(game, view, bid)
            show = self._show_for(game, view, bid, p_true)
            if show is not None and show in view.legal_actions:
                return show
        return NO_SHOW
