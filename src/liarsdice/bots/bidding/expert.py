"""An expert bot: the solved equilibrium, a re-solve of the round, or a reading of the table.

How it decides, on its own view only, in order:

1. **The equilibrium** in every two-player single-round game within the solver's reach (see
   below).
2. **A re-solve of the round** when exactly two players have dice, the rules fit and the hands
   are few (up to two dice each; see below).
3. **Otherwise, a reading of the table** (the default; ``search`` off): the Bayesian
   evaluation (:class:`~liarsdice.bots.bidding.bayes.BayesBot`) with the next player modelled as a
   player who reads the bids too (``read`` = 1: :class:`~liarsdice.bots.bidding.bayes.BidReader`).
   The bayes bot judges the risk of a raise by the next player's own dice alone; a player who
   reads bids believes a bid on a face the bidder has been bidding, so a well-placed bid on a
   face this bot does not hold goes unchallenged more often than its dice say, and a bid
   that contradicts the round's story is called more. Measured, this is what beats the
   field: 36.7% of 4-player ``classic`` games against three bayes bots (the bayes bot itself:
   24.3%), 73.7% of 2-player ``classic`` games (docs/BOTS.md).

With ``search`` on (as :class:`ExpertV1Bot`) step 3 is a search instead:

1. **Candidates.** The Bayesian evaluation scores every call and raise; the expert keeps the
   calls, the ``width`` best raises, and (under show-and-reroll) showing the dice that match
   its two best faces.
2. **Determinisation.** A world is drawn from the belief: every opponent's hidden hand from
   their posterior, a secret stash from fair dice. :func:`determinise` builds a full engine
   :class:`~liarsdice.core.bidding.state.State` consistent with the view and that world.
3. **Rollouts.** Each candidate is applied in the same world (common random numbers) and the
   round is played out to its challenge by a fast probability-driven policy
   (:class:`Playout`) in which every player uses only their own dice and the public ones. The
   engine settles the challenge with the real rules (losing the difference, exact counts,
   stash, calza, calling advantage...). When the bid comes back to the expert the rollout
   stops at the bayes value of passing a bid on.
4. **Score.** The round's outcome is scored with the bayes position value (a chance of
   winning from the dice counts: losing the last die is worth nothing; room: the score), and
   averaged with the bayes value as a prior worth ``prior`` rollouts. Worlds are drawn until
   the ``think`` budget (seconds) is spent, or exactly ``worlds`` of them when ``think`` is
   None (reproducible whatever the machine).

It buys dice like the prob bot; with ``search`` it answers the 'before' show step by rollouts
too.

In every two-player single-round game within the solver's reach (``openspiel``, ``snyd-*`` up
to one die against two with 6 faces, or two dice each with 5:
:func:`~liarsdice.solve.tree.in_reach` with :data:`EQUILIBRIUM_MAX_BYTES`) it does not search
at all: it plays the game's solved equilibrium (:class:`~liarsdice.bots.bidding.nash.NashBot`:
solved
on first use, a second for one die each, 10 to 30 seconds for one against two, then cached on
disk), which no opponent can exploit by more than the solver's target (0.001). A larger game
solved into the disk cache beforehand (``liarsdice solve --cache --max-gib 16``: two dice each
with 6 faces, half an hour) is played from its equilibrium too (``cached``).

Whenever exactly two players have dice under rules it models (a call is 'liar' and settles at
once, raises in one total order), and the solver does not reach the game, it **re-solves**
the rest of the round at every decision (:class:`~liarsdice.solve.subgame.BidSubgame`, for
``resolve`` seconds) while every pair of hands fits (:data:`RESOLVE_MAX_SIZE`: up to two
dice each; where learned strategies give the ranges, :data:`BLUEPRINT_RESOLVE_MAX_SIZE`: up
to three dice each), and reads the table otherwise. Both
players' ranges come from the bid model (its own as the opponent would read its bids), a call
pays the position value after the round, the
subgame is solved by CFR with players recalling the last bid, the opponent half free and half
an honest bidder (``exploit``: a restricted Nash response, which gains against honest bidders
while giving little away to stronger players), and it samples the move for its own hand from
the average strategy, so its own bluffs are part of a balanced strategy.

The ranges are tracked through the round (``track``): each bid weighs its bidder's hands by
the strategy one solve of the round gives them for it, a solve at play time
(``track_round``) or, where the rules have learned strategies, those (``track_blueprint``:
the same solve, done ahead of play, which is what lets the re-solve reach three dice each).

Where the whole round is too large for that re-solve (from three dice against four) and the
rules have **learned strategies** (:mod:`liarsdice.nets.rounds`: ``snyd-joker`` and
``openspiel`` with 6 faces, up to five dice each), it searches one decision deep on them
instead, up to four dice each (``lookahead``, ``lookahead_max_dice``;
:class:`~liarsdice.bots.bidding.lookahead.Lookahead`): every move valued exactly against the
other's range read through the whole history, the learned play after it (the other picking,
per hand, the worst for the expert of a menu of ways to play on: the learned strategy mixed
with an honest bidder by each share of ``lookahead_menu``), blended with the reading's value
(``lookahead_blend``), and regret matching against the learned mix (docs/BOTS.md). With five
dice it reads the table, which measured better there.

How that honest bidder reads the expert's hand (``exploit_reads``) decides whom the expert
exploits: two times in three it reads no bid (as the prob bot and the bluffer, who judge from
their own dice), one in three every bid as an honest one (as the bayes bot and expert-v1 do,
with the bid model). A reader of bids believes a bid on a face the expert lacks, so the solve
learns to make such bids and to call what follows; a bot that reads no bid is not fooled by
them, so the solve learns to bid what that bot will not call. The mix wins against both kinds
and stays level with the equilibrium (docs/BOTS.md).

The ranges are **tracked** through the round (``track``): each bid weighs the bidder's hands
by the strategy one solve of the round from its opening gives them for that bid (cached per
situation: :func:`_round_strategy`), as a player who knows the equilibrium reads bids: an
honest-bidder reading takes a bluff at face value, this one knows how often each bid is a
bluff in a balanced strategy. Each range is three quarters that and a quarter the bid model's
(``track_mix``), which keeps the gain against honest bidders. With ``track_round`` off, each
bid is read instead by the strategy the last re-solve of the round gave it (the chained
reading, the default before; docs/BOTS.md).

It can also learn each opponent's **bluff rate** from a game's reveals (``adapt``, off by
default: see docs/BOTS.md; :func:`bluff_models`). :class:`ExpertV1Bot` is the expert before
re-solving and reading (search, bayes evaluation), kept for measuring.

>>> import random
>>> from liarsdice.core.bidding import Bid, Game, preset
>>> g = Game(preset("classic", players=2, dice=2, first_opener="given"))
>>> s = g.new_initial_state()
>>> for face in (2, 3, 4, 5):
...     s = s.apply_action(face)
>>> s = s.apply_action(g.bid_action(Bid(4, 6)))
>>> bot = ExpertBot(random.Random(0), search=True, think=None, worlds=16)
>>> g.action_to_string(bot.choose(g, s.view(1)))      # four sixes among 2 5 4 ?? : no
'liar'
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import field, replace
from typing import TYPE_CHECKING

import numpy as np

from liarsdice.bots.base import Bot, sample_action
from liarsdice.bots.bidding.bayes import (
    BayesBot,
    Belief,
    BidModel,
    FloatArray,
    Option,
    Situation,
    position_value,
    tail,
)
from liarsdice.bots.bidding.resolving import (  # (re-exported: the expert's re-solve)
    BLUEPRINT_RESOLVE_MAX_SIZE,
    LIKELIHOOD_FLOOR,
    MEMORY,
    READINGS,
    RESOLVE_MAX_SIZE,
    ExpertMemory,
    _round_modes,
    _total_order,
    resolve_round,
)
from liarsdice.core.bidding.basic import basic_round_lacks
from liarsdice.core.bidding.bid import Bid
from liarsdice.core.bidding.game import (
    BID_BASE,
    BUY,
    EXACT,
    LIAR,
    NO_SHOW,
    SHOW_BASE,
    TERMINAL,
    Game,
)
from liarsdice.core.bidding.rules import ExactCall, Scoring, ShowReroll, Stash
from liarsdice.core.bidding.state import _BOUGHT, _MUST_RAISE, Phase, State, Table, _next_seats
from liarsdice.core.bidding.view import PlayerView
from liarsdice.nets.positions import packaged_family, packaged_positions

if TYPE_CHECKING:
    from liarsdice.bots.bidding.nash import NashBot
    from liarsdice.bots.bidding.resolving import _Chain
    from liarsdice.nets.rounds import RoundPolicies

__all__ = [
    "BLUEPRINT_RESOLVE_MAX_SIZE",
    "EQUILIBRIUM_MAX_BYTES",
    "LIKELIHOOD_FLOOR",
    "MEMORY",
    "READINGS",
    "RESOLVE_MAX_SIZE",
    "ExpertBot",
    "ExpertMemory",
    "ExpertV1Bot",
    "Playout",
    "bluff_models",
    "determinise",
]

# Two-player single-round games whose solver arrays fit in this many bytes are solved on first
# use (then cached) and played from the equilibrium instead of searched.
EQUILIBRIUM_MAX_BYTES = 3 * 2**30


def determinise(
    game: Game,
    view: PlayerView,
    hands: dict[int, tuple[int, ...]],
    stash: tuple[int, ...] = (),
) -> State:
    """A full state consistent with ``view`` in which the other seats' hidden dice are
    ``hands`` (seat -> sorted dice) and a secret stash is ``stash``.

    Built from the view's public facts through the state's internals; it has no event log
    (the round's bids live in ``view.bids``), so it is for search, not for records.

    >>> from liarsdice.core.bidding import Game, preset
    >>> g = Game(preset("classic", players=2, dice=2, first_opener="given"))
    >>> s = g.new_initial_state()
    >>> for face in (2, 3, 4, 5):
    ...     s = s.apply_action(face)
    >>> d = determinise(g, s.view(0), {1: (1, 1)})
    >>> d.hand(1), d.legal_actions() == s.legal_actions()
    ((1, 1), True)
    """
    rules = game.rules
    n = game.num_players
    me = view.player
    t = Table()
    t.dice = view.dice_counts
    t.hands = tuple(view.my_dice if p == me else hands.get(p, ()) for p in range(n))
    t.shown = view.shown
    if view.stash is not None:
        t.stash = view.stash
    elif rules.stash is not Stash.NONE:
        t.stash = stash
    else:
        t.stash = ()
    t.start = 0
    t.opener = view.opener
    t.round = view.round
    t.cap = view.dice_in_play
    t.nxt = _next_seats(view.dice_counts)
    t.modes = _round_modes(rules, view.palifico)
    t.chips = view.chips
    t.round_pot = view.round_pot
    t.game_pot = view.game_pot
    t.pile = view.pile
    t.scores = view.scores
    t.lost = view.lost
    t.out_order = ()
    t.palifico = view.palifico
    t.palifico_used = frozenset(p for p, d in enumerate(view.dice_counts) if d <= 1)
    t.penalties = (0,) * n
    t.results = view.results
    t.winner = None
    bid = -1 if view.current_bid is None else game.space.ids[view.current_bid]
    phase = Phase.SHOW if view.phase == "show" else Phase.BID
    flags = 0
    legal = view.legal_actions
    if phase is Phase.BID and bid >= 0 and LIAR not in legal:
        flags |= _MUST_RAISE
    if BUY not in legal:
        flags |= _BOUGHT
    return State._make(game, t, phase, me, bid, view.bidder, view.callers, flags, (), None, 0)


# How the expert values a position in an elimination game (ExpertBot.positions).
POSITIONS = ("auto", "learned", "share")
# The families whose shipped position values the expert plays better with than with the
# share, in every field measured (docs/BOTS.md, "Learned position values"): 'auto' uses the
# learned values there and the share elsewhere (classic: three points worse against bayes).
LEARNED_BY_DEFAULT = ("perudo",)


class Playout:
    """A fast probability-driven policy on full states: each player uses only their own hidden
    dice and the public ones (like the prob bot, with exact-call and a little noise)."""

    def __init__(self, game: Game, rng: random.Random, safe: float = 0.78) -> None:
        self.game = game
        self.rng = rng
        self.safe = safe
        rules = game.rules
        self.exact = rules.exact is not ExactCall.NONE
        self.open_stash = rules.stash is Stash.OPEN
        self.faces = rules.faces

    def action(self, s: State) -> int:
        """The policy's action at ``s`` (a player's decision node)."""
        if s.phase is Phase.SHOW:
            return NO_SHOW
        space = self.game.space
        prob = self._chances(s)
        safe = self.safe + self.rng.uniform(-0.08, 0.04)
        best_p, best_action, best_sure = self._raises(s, prob, safe)
        must_raise = s.flags & _MUST_RAISE
        if s.bid >= 0 and not must_raise:
            cur = space.bids[s.bid]
            p_cur = prob(cur.quantity, cur.face)
            liar = 1.0 - p_cur + self.rng.uniform(-0.04, 0.04)
            if self.exact:
                p_exact = p_cur - prob(cur.quantity + 1, cur.face)
                if p_exact > max(liar, best_p) and p_exact > 0.3:
                    return EXACT
            if best_action < 0 or liar > best_p:
                return LIAR
        if best_sure >= 0:
            return BID_BASE + best_sure
        if best_action >= 0:
            return BID_BASE + best_action
        legal = s.legal_actions()
        return legal[0]

    def _chances(self, s: State) -> Callable[[int, int], float]:
        """How likely a bid of ``q`` of face ``f`` is true to the player to act at ``s``, who
        sees its own dice and the public ones."""
        t = s.table
        p = s.player
        wild = None if t.palifico else self.game.rules.wild
        faces = self.faces
        seen = Counter(t.hands[p])
        n_public = 0
        for shown in t.shown:
            seen.update(shown)
            n_public += len(shown)
        if self.open_stash:
            seen.update(t.stash)
            n_public += len(t.stash)
        unseen = t.cap - len(t.hands[p]) - n_public
        pw = seen[wild] if wild is not None else 0

        def prob(q: int, f: int) -> float:
            if wild is None or f == wild:
                return tail(q - seen[f], unseen, 1 / faces)
            return tail(q - seen[f] - pw, unseen, 2 / faces)

        return prob

    def _raises(
        self, s: State, prob: Callable[[int, int], float], safe: float
    ) -> tuple[float, int, int]:
        """Over the lowest raise on each face: the best chance of being true and its bid,
        and the highest bid at least ``safe`` likely (-1 where there is none)."""
        space = self.game.space
        t = s.table
        best_p = -1.0
        best_action = -1
        best_sure = -1
        first: dict[int, int] = {}
        for i in space.raises(s.bid, t.cap, t.modes[s.bid >= 0]):
            f = space.face[i]
            if f in first:
                continue
            first[f] = i
            q = space.quantity[i]
            pq = prob(q, f)
            if pq > best_p:
                best_p, best_action = pq, i
            if pq >= safe:
                while q + 1 <= t.cap and prob(q + 1, f) >= safe:
                    q += 1
                best_sure = max(best_sure, space.ids[Bid(q, f)])
            if len(first) == self.faces:
                break
        return best_p, best_action, best_sure


def bluff_models(
    game: Game, view: PlayerView, base: BidModel, weight: float = 4.0, threshold: float = 0.2
) -> dict[int, BidModel]:
    """Each opponent's bid model with its own bluff rate, learnt from the game's reveals.

    A called bid whose bidder's own dice made it less than ``threshold`` likely *to them* was
    a bluff (an honest bidder who must raise often bids at worse than even money, so the line
    is drawn lower).
    Each opponent's rate is the share of their called bids that were bluffs, shrunk towards
    ``base.eps`` as if ``weight`` earlier bids had shown that rate; opponents with no called
    bid yet keep ``base``.

    >>> import random
    >>> from liarsdice.core.bidding import CHANCE, Bid, Game, preset
    >>> g = Game(preset("classic", players=2, dice=3, first_opener="given"))
    >>> s = g.replay((CHANCE, face) for face in (2, 3, 4, 5, 5, 6))  # seat 0: 2 3 4, seat 1: 5 5 6
    >>> s = s.apply_action(g.bid_action(Bid(4, 6)))      # seat 0 bids four 6s on no 6 or 1
    >>> s = s.apply_action(g.string_to_action("liar"))
    >>> rates = bluff_models(g, s.view(1), BidModel(eps=0.2))
    >>> round(rates[0].eps, 2)                    # (4 x 0.2 + 1 bluff) / (4 + 1)
    0.36
    """
    rules = game.rules
    me = view.player
    bids: dict[int, int] = {}
    bluffs: dict[int, int] = {}
    for r in view.results:
        seat = r.bidder
        if seat == me or seat >= len(r.hands):
            continue
        hand = r.hands[seat]
        wild = None if r.palifico else rules.wild
        face = r.bid.face
        p = 1 / rules.faces if wild is None or face == wild else 2 / rules.faces
        backing = sum(1 for d in hand if d == face or (wild is not None and d == wild))
        unseen = sum(len(h) for h in r.hands) - len(hand) + len(r.stash)
        bids[seat] = bids.get(seat, 0) + 1
        if tail(r.bid.quantity - backing, unseen, p) < threshold:
            bluffs[seat] = bluffs.get(seat, 0) + 1
    return {
        seat: replace(base, eps=(weight * base.eps + bluffs.get(seat, 0)) / (weight + n))
        for seat, n in bids.items()
    }


class ExpertBot(BayesBot):
    """Determinised rollouts over the Bayesian belief (see the module docstring)."""

    name = "expert"

    # Tuning parameters (constructor keywords; see liarsdice.bots.base) on top of the bayes bot's.
    read: float = 1.0  # the next player judges a raise from every bid read (BidReader)
    call_temperature: float = 0.2
    pass_cost: float = 0.0
    search: bool = False  # beyond the solver and the re-solve: search (else the reading)
    think: float | None = 0.05  # seconds per move (search); None: exactly ``worlds`` worlds
    worlds: int = 48
    max_worlds: int = 2000  # the most worlds within a ``think`` budget
    width: int = 6  # the best raises searched
    prior: float = 2.0  # the bayes estimate counts as this many rollouts
    bluff: float = 0.0
    model: BidModel | None = None  # the bidders' model (None: the bayes bot's BidModel)
    adapt: bool = False  # each opponent's bluff rate from the reveals (bluff_models; off: see docs)
    solve: bool = True  # play the solved equilibrium where the solver reaches
    cached: bool = True  # and where a policy is in the disk cache (liarsdice solve --cache)
    resolve: float = 0.08  # seconds to re-solve the rest of a two-player round (0: search)
    resolve_iterations: int = 400  # the most CFR iterations of one re-solve
    exploit: float = 0.5  # the weight of an honest bidder in the re-solve's opponent
    exploit_reads: str = "prior+model+bids"  # how that honest bidder reads this bot's hand
    # where learned strategies fit the round: their share in the opponent's reply to each of
    # this bot's moves in the re-solve (the opponent as the learned player there, in part)
    resolve_model: float = 0.0
    # where learned strategies track the ranges, the re-solve takes all hands while pairs of
    # hands x bids fit this (elsewhere RESOLVE_MAX_SIZE: the round's own solve must be quick)
    resolve_max: int = BLUEPRINT_RESOLVE_MAX_SIZE
    resolve_hands: int = 0  # hands drawn from each range when all would be too many (0: search)
    track: bool = True  # re-solve from the ranges earlier re-solves imply (else the bid model's)
    track_mix: float = 0.25  # the bid model's share in each tracked range
    track_mix_wide: float = 0.5  # and where learned strategies track a round past RESOLVE_MAX_SIZE
    track_round: bool = True  # track by one solve of the round (else the chained re-solves)
    track_iterations: int = 1000  # CFR iterations of that solve (once per situation)
    track_seconds: float = 4.0  # and the most seconds it may take (a slow machine's cap)
    track_blueprint: bool = True  # where learned strategies fit the round: track by them instead
    lookahead: bool = True  # two-player rounds past the re-solve: search the learned strategies
    lookahead_mix: float = 0.4  # the bid model's share in the other's range there
    lookahead_prior: float = 0.2  # and the chance prior's (a reading of no bid)
    lookahead_greedy: bool = False  # play the best move (else regret matching on the blueprint)
    lookahead_max_dice: int = 4  # only while both players have at most this many dice
    lookahead_blend: float = 0.6  # the reading's share in each move's value there
    lookahead_exploit: float = 0.25  # an honest bidder's share in the other's play after a move
    lookahead_reads: bool = False  # that honest bidder reads this bot's bids (else its prior)
    # The other's ways of playing on after a raise, as honest shares joined by '+': it picks
    # the worst for this bot per hand (empty: lookahead_exploit's share only).
    lookahead_menu: str = "0+0.25+1"
    # A position's worth in whole games: 'share' (of dice ** alpha, the bayes bot's),
    # 'learned' (the self-play model where one fits the rules) or 'auto': the learned model
    # in the families it was measured to play better in (LEARNED_BY_DEFAULT), else the share
    positions: str = "auto"
    # The learned chances' power, renormalised over the seats (Situation.flatten): 1 plays
    # them as they are; 0.5 made classic's level with the share (docs/BOTS.md, session 21)
    flatten: float = 1.0
    _nash: NashBot | None = field(default=None, init=False)  # the equilibrium player, once made
    _chain: _Chain | None = field(default=None, init=False)  # the last re-solve, for the next
    _menu: tuple[float, ...] = field(default=(), init=False)  # lookahead_menu, parsed

    def __post_init__(self) -> None:
        if self.lookahead_menu:
            bad = ValueError(
                f"lookahead_menu {self.lookahead_menu!r}: honest shares from 0 to 1, joined by '+'"
            )
            try:
                self._menu = tuple(float(x) for x in self.lookahead_menu.split("+"))
            except ValueError:
                raise bad from None
            if not all(0.0 <= x <= 1.0 for x in self._menu):
                raise bad
        if self.positions not in POSITIONS:
            raise ValueError(f"positions {self.positions!r}: one of {', '.join(POSITIONS)}")
        if not 0.0 < self.flatten <= 4.0:
            raise ValueError(f"flatten {self.flatten!r}: a power above 0, at most 4")
        if not set(self.exploit_reads.split("+")) <= set(READINGS):
            raise ValueError(
                f"exploit_reads {self.exploit_reads!r}: each reading, joined by '+', is one of "
                + ", ".join(READINGS)
            )

    def __repr__(self) -> str:
        return f"ExpertBot(think={self.think})"

    def situation(self, game: Game, view: PlayerView) -> Situation:
        """The bayes bot's situation, with the learned position values where a shipped model
        fits the rules (``positions='learned'``, or ``'auto'`` in LEARNED_BY_DEFAULT)."""
        sit = super().situation(game, view)
        rules = game.rules
        if self.positions != "share" and rules.scoring is Scoring.ELIMINATION:
            if self.positions == "auto" and packaged_family(rules) not in LEARNED_BY_DEFAULT:
                return sit
            learned = packaged_positions(rules, game.num_players)
            if learned is not None:
                return replace(sit, positions=learned, flatten=self.flatten)
        return sit

    def equilibrium(self, game: Game) -> Bot | None:
        """The equilibrium player for a two-player single-round game within the solver's
        reach (solved on first use) or solved into the disk cache already, else None."""
        rules = game.rules
        if not self.solve or rules.scoring is not Scoring.SINGLE_ROUND or game.num_players != 2:
            return None
        key = (rules, game.start_dice)
        if key in MEMORY.unsolvable:
            return None
        from liarsdice.bots.bidding.nash import NashBot
        from liarsdice.solve.cache import LOAD_MAX_BYTES, is_cached
        from liarsdice.solve.tree import in_reach

        if self._nash is None:
            self._nash = NashBot(self.rng)  # made once, whether or not this game has one
        nash = self._nash
        if not in_reach(game, EQUILIBRIUM_MAX_BYTES):
            # Too large to solve on first use: played once solved into the disk cache
            # (``liarsdice solve --cache``; two dice each with 6 faces: 11 GiB, half an hour).
            if not in_reach(game, LOAD_MAX_BYTES):
                MEMORY.unsolvable.put(key, True)
                return None
            if not (self.cached and is_cached(game, nash.target)):
                return None
        return nash

    def choose(self, game: Game, view: PlayerView) -> int:
        legal = self.legal(view)
        if len(legal) == 1:
            return legal[0]
        nash = self.equilibrium(game)
        if nash is not None:
            return nash.choose(game, view)
        if self.lookahead:
            action = self._lookahead(game, view)
            if action is not None:
                return action
        if self.resolve > 0 and self._resolvable(game, view):
            action = self._resolve(game, view)
            if action is not None:
                return action
        if not self.search:
            return super().choose(game, view)
        start = time.perf_counter()
        if BUY in legal and self._wants_buy(view):
            return BUY
        belief = self.belief(game, view)
        candidates = self._candidates(game, view, belief)
        if len(candidates) == 1:
            return candidates[0].action
        return self._search(game, view, belief, candidates, start)

    def _blueprint(
        self, game: Game, view: PlayerView
    ) -> tuple[RoundPolicies, tuple[int, int], int] | None:
        """The shipped learned strategies of this two-player round, its dice counts (the
        opener's first) and this player's actor there (0: it opened), where they fit the
        game and cover both players' dice; None elsewhere."""
        from liarsdice.nets.rounds import packaged_round_policies, round_seat

        rules = game.rules
        key = ("lookahead", rules.name, rules.faces)
        pol = MEMORY.policies.get_or(key, lambda: packaged_round_policies(rules.name, rules.faces))
        if pol is None or view.phase != "bid" or view.palifico or pol.unfit(game):
            return None
        dice, actor = round_seat(view)
        return (pol, dice, actor) if pol.covers(dice) else None

    def _limit(self, game: Game, view: PlayerView) -> int:
        """The most pairs of hands x bids the re-solve takes whole here: ``resolve_max``
        where the learned strategies track the ranges, else :data:`RESOLVE_MAX_SIZE`."""
        if self.track and self.track_blueprint and self._blueprint(game, view) is not None:
            return self.resolve_max
        return RESOLVE_MAX_SIZE

    def _lookahead(self, game: Game, view: PlayerView) -> int | None:
        """One decision's search on the learned strategies of a two-player round
        (:class:`~liarsdice.bots.bidding.lookahead.Lookahead`), where they fit the game and
        cover both players' dice (:meth:`_blueprint`), and the whole round is too large for
        the re-solve (all hands, all bids: ``resolve_max``); None elsewhere."""
        from liarsdice.bots.bidding.lookahead import Lookahead

        found = self._blueprint(game, view)
        if found is None:
            return None
        pol, dice, actor = found
        me = view.player
        if max(dice) > self.lookahead_max_dice:
            return None
        t = pol.tables(dice)
        if self.resolve > 0 and len(t.rolls[0]) * len(t.rolls[1]) * t.num_bids <= self._limit(
            game, view
        ):
            return None  # the re-solve takes the whole round
        look = Lookahead.of(
            pol, dice, exploit=self.lookahead_exploit, reads_bids=self.lookahead_reads
        )
        bids = [t.index[b] for _, b in view.bids]
        model: FloatArray | None = Belief(game, view, self.model or BidModel()).weights[1 - me]
        if model is not None and len(model) != len(t.rolls[1 - actor]):
            model = None  # a sampled belief: the blueprint's reading alone
        last = bids[-1] if bids else -1
        moves = ([LIAR] if bids else []) + [
            game.bid_action(t.moves[j]) for j in range(last + 1, t.num_bids)
        ]
        reading = None
        if self.lookahead_blend > 0:
            scored = {o.action: o.value for o in self.evaluate(game, view)}
            reading = (
                self.lookahead_blend,
                np.array([scored.get(m, np.nan) for m in moves], dtype=np.float64),
            )
        probs = look.policy(
            actor,
            hand=view.my_dice,
            bids=bids,
            mix_range=model,
            mix=self.lookahead_mix,
            prior=self.lookahead_prior,
            greedy=self.lookahead_greedy,
            other_values=reading,
            menu=self._menu,
        )
        return sample_action(self.rng, moves, probs, allowed=set(view.legal_actions))

    def _resolvable(self, game: Game, view: PlayerView) -> bool:
        """A bidding round between two players (the last two of a game, or a two-player
        game) under rules the re-solve models: a call is 'liar' and settles at once, no
        show-and-reroll, stash or economy, and the round's raises in one total order."""
        rules = game.rules
        key = ("resolve", rules)
        if key in MEMORY.unsolvable:
            return False
        if basic_round_lacks(rules) or rules.scoring is Scoring.ROOM:
            MEMORY.unsolvable.put(key, True)
            return False
        if view.phase != "bid" or sum(1 for d in view.dice_counts if d > 0) != 2:
            return False
        return _total_order(game, view.dice_in_play, view.palifico)

    def _resolve(self, game: Game, view: PlayerView) -> int | None:
        """Re-solve the rest of the round and play its strategy for this hand, or None where
        its hands are too many (:func:`~liarsdice.bots.bidding.resolving.resolve_round`)."""
        return resolve_round(self, game, view)

    def belief(self, game: Game, view: PlayerView) -> Belief:
        """The belief over the opponents' hands, with per-opponent bluff rates if ``adapt``."""
        model = self.model or BidModel()
        models = bluff_models(game, view, model) if self.adapt and view.results else None
        return Belief(game, view, model, models)

    def evaluate(self, game: Game, view: PlayerView, belief: Belief | None = None) -> list[Option]:
        if belief is None:
            belief = self.belief(game, view)
        return super().evaluate(game, view, belief)

    # -------------------------------------------------------------- candidates
    def _candidates(self, game: Game, view: PlayerView, belief: Belief) -> list[Option]:
        legal = set(view.legal_actions)
        if view.phase == "show":
            out = [Option(NO_SHOW, 0.0)]
            bid = view.current_bid
            if bid is not None:
                show = self._show_for(game, view, bid, 0.0)
                if show is not None and show in legal:
                    out.append(Option(show, 0.0))
            return out
        options = self.evaluate(game, view, belief)
        calls = [o for o in options if o.bid is None]
        raises = sorted((o for o in options if o.bid is not None), key=lambda o: -o.value)
        out = calls + raises[: self.width]
        if game.rules.show_reroll is ShowReroll.AFTER and any(a >= SHOW_BASE for a in legal):
            for o in raises[:2]:
                assert o.bid is not None
                show = self._show_for(game, view, o.bid, 0.0)
                if show is not None and show in legal and all(c.action != show for c in out):
                    out.append(Option(show, o.value))
        return out

    # ------------------------------------------------------------------ search
    def _search(
        self,
        game: Game,
        view: PlayerView,
        belief: Belief,
        candidates: list[Option],
        start: float,
    ) -> int:
        me = view.player
        sit = self.situation(game, view)
        rng = self.rng
        now = position_value(sit, me, sit.dice, None, sit.scores)
        worse = list(sit.dice)
        worse[me] = max(0, worse[me] - 1)
        die_worth = max(0.0, now - position_value(sit, me, worse, None, sit.scores))
        back = now - self.pass_cost * die_worth
        policy = Playout(game, rng)
        totals = [0.0] * len(candidates)
        runs = 0
        secret = view.stash_size if view.stash is None and game.rules.stash is not Stash.NONE else 0
        faces = game.rules.faces
        deadline = None if self.think is None else start + self.think
        limit = self.worlds if self.think is None else self.max_worlds
        while runs < limit:
            hands = {j: belief.sample_hand(j, rng) for j in belief.opponents}
            stash = tuple(sorted(rng.randint(1, faces) for _ in range(secret)))
            root = determinise(game, view, hands, stash)
            for i, cand in enumerate(candidates):
                totals[i] += self._rollout(root, cand.action, policy, sit, me, back)
            runs += 1
            if deadline is not None and time.perf_counter() >= deadline and runs >= 4:
                break
        w = self.prior
        scores = [(totals[i] + w * c.value) / (runs + w) for i, c in enumerate(candidates)]
        best = max(range(len(candidates)), key=lambda i: scores[i])
        return candidates[best].action

    def _rollout(
        self, root: State, action: int, policy: Playout, sit: Situation, me: int, back: float
    ) -> float:
        """Play the round out after ``action``; a bid that comes back to the expert (its own
        next decision) ends the rollout at ``back``, the bayes value of passing a bid on."""
        rng = self.rng
        s = root.apply_action(action)
        rnd = root.table.round
        steps = 0
        while s.player != TERMINAL and s.table.round == rnd:
            if s.player < 0:
                s = s.apply_action(s.sample_chance(rng))
            elif s.player == me and s.phase is Phase.BID and not s.flags & _MUST_RAISE:
                return back
            else:
                s = s.apply_action(policy.action(s))
            steps += 1
            if steps > 400:
                break
        t = s.table
        return position_value(sit, me, t.dice, t.winner, t.scores)


class ExpertV1Bot(ExpertBot):
    """The first expert, kept for measuring the levels: an honest-bidder belief (the bayes
    bot's :class:`~liarsdice.bots.bidding.bayes.BidModel`), no adaptation, search rather than
    re-solving (the solved equilibrium where the solver solves on first use, as the expert;
    not a policy solved into the cache beyond that)."""

    name = "expert-v1"

    model: BidModel | None = None
    adapt: bool = False
    cached: bool = False  # frozen: beyond first-use reach it searches, cache or none
    resolve: float = 0.0
    search: bool = True
    read: float = 0.0
    call_temperature: float = 0.1
    pass_cost: float = 0.15
    positions: str = "share"

    def __repr__(self) -> str:
        return f"ExpertV1Bot(think={self.think})"
