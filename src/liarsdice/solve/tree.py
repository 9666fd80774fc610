"""The public tree of a two-player single-round game, as numpy arrays indexed by bitmask.

Under a total bid order a bid history is an increasing sequence of bid ids, so it is fully
described by the *set* of bids made: a bitmask ``m`` over the ``B`` bids of the game's
:class:`~liarsdice.core.bidding.ladder.BidSpace`. The public tree therefore has exactly ``2**B``
decision nodes, indexed by their mask:

* the acting player at ``m`` is ``popcount(m) % 2`` (player 0 opens);
* the last bid is the highest set bit ``top(m)``; the legal raises are every bid above it;
* the parent of ``m`` is ``m - 2**top(m)``, reached by bidding ``top(m)``; the *edge* into a
  node is identified by the node itself, and the liar call at ``m`` (``m > 0``) by ``m`` too.

Grouping nodes by their last bid gives contiguous slices: the nodes whose last bid is ``b`` are
the masks ``[2**b, 2**(b+1))`` and their parents are the masks ``[0, 2**b)`` in the same order.
Every pass of the solver is a loop over the ``B`` bids, each step one numpy operation on a
whole slice (a topological "level" of the tree), never a per-history recursion.

Private information: each player's roll is a sorted multiset of faces (the engine keeps hands
sorted), with multinomial chance probabilities. A value vector at a node has one entry per roll
of the player it belongs to.

**The solver's layout.** The two masks ``2j`` and ``2j + 1`` differ in parity, so the nodes split
into two halves of ``2**(B-1)`` rows each: node ``m`` is row ``m >> 1`` of half
``popcount(m) % 2``, which is also its actor. The nodes whose last bid is ``b >= 1`` are the
rows ``[2**(b-1), 2**b)`` of *both* halves, and their parents the rows ``[0, 2**(b-1))`` of the
other half, in the same order (the node with the single bid 0 is row 0 of half 1, its parent
the root, row 0 of half 0). A player's arrays in the solver are ``(2, 2**(B-1), rolls)``: one
half holds the nodes where they act, the other those where the opponent does, so no pass ever
needs a mask of whose turn it is.

>>> tree = PublicTree(make_game("openspiel", (1, 1), faces=3))
>>> tree.num_bids, tree.num_nodes, [len(r) for r in tree.rolls]
(6, 64, [3, 3])
>>> [tree.action_string(a) for a in tree.actions(0b000101)]
['liar', '2x1', '2x2', '2x3']
>>> [(lv.bid, lv.lo, lv.hi) for lv in tree.levels][:3]
[(0, 0, 1), (1, 1, 2), (2, 2, 4)]
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from functools import cached_property
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from liarsdice.core.bidding.basic import basic_round_lacks
from liarsdice.core.bidding.bid import Bid
from liarsdice.core.bidding.game import BID_BASE, LIAR, Game
from liarsdice.core.bidding.ladder import OPEN_ANY, OPEN_NO_WILD
from liarsdice.core.bidding.rules import FirstOpener, Rules, Scoring, preset
from liarsdice.core.errors import RulesError
from liarsdice.odds import roll_probability

__all__ = [
    "DEFAULT_MAX_BYTES",
    "Floats",
    "Level",
    "PublicTree",
    "SolverError",
    "chance_probabilities",
    "check_supported",
    "estimate_bytes",
    "game_bytes",
    "in_reach",
    "make_game",
    "rolls_of",
]

Floats = npt.NDArray[np.float64]

#: Default memory budget of the solver's arrays: 3 GiB. Everything up to one player with two
#: dice and the other with one (6 faces), or two dice each with 5 faces, fits.
DEFAULT_MAX_BYTES = 3 * 2**30

# Arrays of nodes x rolls the CFR solver keeps: per player regrets, current strategy and the
# average (3 x (R0 + R1)), plus one realization plan and one value array of the larger player.
_PER_PLAYER_ARRAYS = 3
_SHARED_ARRAYS = 2
# On top: the interpreter with numpy loaded, scratch and tables (fixed), and the views the
# solver makes once for every chunk of every pass (a few bytes per node).
_OVERHEAD_BYTES = 48 * 2**20
_OVERHEAD_PER_NODE = 4


class Level(NamedTuple):
    """The nodes whose last bid is ``bid``: rows ``[lo, hi)`` of the listed halves (parities).

    Their parents are rows ``[0, hi - lo)`` of the other half, in the same order.
    """

    bid: int
    lo: int
    hi: int
    parities: tuple[int, ...]


class SolverError(RulesError):
    """The game is not supported by the exact solver, or does not fit in memory."""


def rolls_of(dice: int, faces: int) -> tuple[tuple[int, ...], ...]:
    """Every sorted roll of ``dice`` dice with ``faces`` faces.

    >>> rolls_of(2, 3)
    ((1, 1), (1, 2), (1, 3), (2, 2), (2, 3), (3, 3))
    """
    return tuple(itertools.combinations_with_replacement(range(1, faces + 1), dice))


def chance_probabilities(rolls: Sequence[tuple[int, ...]], faces: int) -> Floats:
    """Multinomial probability of each sorted roll.

    >>> chance_probabilities(rolls_of(2, 2), 2).tolist()
    [0.25, 0.5, 0.25]
    """
    return np.array([roll_probability(tuple(roll), faces) for roll in rolls], dtype=np.float64)


def make_game(name: str, dice: int | tuple[int, int] = 1, faces: int | None = None) -> Game:
    """The game of preset ``name`` with ``dice`` per player and ``faces`` faces.

    A preset whose wild face is its highest face (``openspiel``) keeps the highest face wild
    with fewer or more faces, as OpenSpiel does.

    >>> make_game("openspiel", (2, 1), faces=4).rules.wild
    4
    """
    base = preset(name)
    changes: dict[str, object] = {"dice": dice, "players": 2}
    if faces is not None and faces != base.faces:
        changes["faces"] = faces
        if base.wild is not None and base.wild == base.faces:
            changes["wild"] = faces
        elif base.wild is not None and base.wild > faces:
            raise SolverError(f"{name!r} has wild face {base.wild}, more than {faces} faces")
        if base.face_order is not None:
            raise SolverError(f"{name!r} ranks {base.faces} faces; keep --faces {base.faces}")
    return Game(base.replace(**changes))


def check_supported(game: Game) -> None:
    """Raise :class:`SolverError` unless ``game`` is a two-player single-round bidding game."""
    r: Rules = game.rules
    problems = []
    if game.num_players != 2:
        problems.append("two players")
    if r.scoring is not Scoring.SINGLE_ROUND:
        problems.append("scoring=single-round")
    problems += basic_round_lacks(r)
    if game.opener not in (None, 0) or (
        game.opener is None and r.first_opener is not FirstOpener.GIVEN
    ):
        problems.append("player 0 opening (first_opener=given)")
    if problems:
        raise SolverError(
            f"the exact solver needs a two-player single-round game; {r.name!r} lacks: "
            + ", ".join(problems)
        )


def estimate_bytes(num_bids: int, rolls: Sequence[int], itemsize: int = 4) -> int:
    """Peak memory of the CFR solver (with its exploitability checks) for ``2**num_bids``
    nodes, these roll counts and floats of ``itemsize`` bytes (4: float32, 8: float64).

    >>> round(estimate_bytes(24, [21, 21]) / 2**30, 1)  # openspiel 2,2 with 6 faces, float32
    10.6
    """
    arrays = _PER_PLAYER_ARRAYS * sum(rolls) + _SHARED_ARRAYS * max(rolls)
    return (1 << num_bids) * (arrays * itemsize + _OVERHEAD_PER_NODE) + _OVERHEAD_BYTES


def game_bytes(game: Game, itemsize: int = 4) -> int:
    """:func:`estimate_bytes` for ``game`` (unsupported games included), without building it.

    >>> round(game_bytes(make_game("openspiel", (2, 1))) / 2**20)  # 2^18 nodes, float32
    172
    """
    faces = game.rules.faces
    rolls = [math.comb(d + faces - 1, d) for d in game.start_dice[:2]]
    return estimate_bytes(len(game.space), rolls, itemsize)


def in_reach(game: Game, max_bytes: int = DEFAULT_MAX_BYTES) -> bool:
    """Whether the solver takes ``game``: supported rules, and its arrays (float32) within
    ``max_bytes``.

    >>> in_reach(make_game("openspiel", (2, 1))), in_reach(make_game("openspiel", (2, 2)))
    (True, False)
    """
    try:
        check_supported(game)
    except SolverError:
        return False
    return game_bytes(game) <= max_bytes


class PublicTree:
    """The public tree of ``game`` (see the module docstring) with chance and payoff tables.

    Raises :class:`SolverError` for unsupported rules or when the solver's arrays would need
    more than ``max_bytes`` even in float32 (:func:`estimate_bytes`).
    """

    def __init__(self, game: Game, *, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        check_supported(game)
        rules = game.rules
        self.game = game
        self.rules = rules
        self.faces = rules.faces
        self.dice: tuple[int, int] = (game.start_dice[0], game.start_dice[1])
        space = game.space
        self.bids: tuple[Bid, ...] = space.bids
        B = len(space)
        self.num_bids = B
        self.rolls: tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]] = (
            rolls_of(self.dice[0], self.faces),
            rolls_of(self.dice[1], self.faces),
        )
        need = estimate_bytes(B, [len(r) for r in self.rolls], itemsize=4)
        if need > max_bytes:
            raise SolverError(
                f"{rules.name} with dice {self.dice[0]},{self.dice[1]} and {self.faces} faces has "
                f"{B} bids: a public tree of 2^{B} = {1 << B:,} bid histories x "
                f"{len(self.rolls[0])}+{len(self.rolls[1])} rolls, about "
                f"{need / 2**30:.1f} GiB of arrays in float32 (limit {max_bytes / 2**30:.1f} "
                "GiB; max_bytes raises it); use fewer faces or dice"
            )
        self.num_nodes = 1 << B
        self.roll_index: tuple[dict[tuple[int, ...], int], dict[tuple[int, ...], int]] = (
            {r: i for i, r in enumerate(self.rolls[0])},
            {r: i for i, r in enumerate(self.rolls[1])},
        )
        self.chance: tuple[Floats, Floats] = (
            chance_probabilities(self.rolls[0], self.faces),
            chance_probabilities(self.rolls[1], self.faces),
        )

        # Legal bids from the engine: the opening set, and raises must be "every higher bid".
        cap = sum(self.dice)
        open_mode = OPEN_ANY if rules.open_on_wild else OPEN_NO_WILD
        opening = set(space.raises(-1, cap, open_mode))
        for last in range(B):
            if space.raises(last, cap, OPEN_ANY) != tuple(range(last + 1, B)):
                raise SolverError(f"bids of {rules.name!r} do not follow the bid-space order")
        self.opening: frozenset[int] = frozenset(opening)

        # count[p][r, b]: dice of roll r matching bid b (wilds count unless the bid is on wilds)
        wild = rules.wild
        self.counts: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]] = (
            self._count_table(self.rolls[0], wild),
            self._count_table(self.rolls[1], wild),
        )
        q = np.array([bid.quantity for bid in self.bids])
        total = self.counts[0][:, None, :] + self.counts[1][None, :, :]  # (R0, R1, B)
        #: true_bid[b, r0, r1]: whether bid b stands for rolls r0 and r1
        self.true_bid: npt.NDArray[np.bool_] = np.moveaxis(total >= q, 2, 0)
        joint = self.chance[0][:, None] * self.chance[1][None, :]
        #: payoff[b] (R0 x R1): chance-weighted return of player 0 when player 0 bid b and
        #: player 1 called; a call by player 0 pays the negative
        self.payoff: Floats = np.ascontiguousarray(joint * (2.0 * self.true_bid - 1.0))

    # ------------------------------------------------- per-node arrays (on first use)
    # The solver never builds these (2^B entries each); the tests, the LP and the mask-ordered
    # plans of small trees do.
    @cached_property
    def top(self) -> npt.NDArray[np.int16]:
        """The last bid of each node (-1 at the root)."""
        top = np.full(self.num_nodes, -1, dtype=np.int16)
        for b in range(self.num_bids):
            top[1 << b : 2 << b] = b
        return top

    @cached_property
    def depth(self) -> npt.NDArray[np.int8]:
        """The number of bids made at each node."""
        depth = np.zeros(self.num_nodes, dtype=np.int8)
        for b in range(self.num_bids):
            depth[1 << b : 2 << b] = depth[: 1 << b] + 1
        return depth

    @cached_property
    def actor(self) -> npt.NDArray[np.int8]:
        """The acting player at each node (the caller of a liar call there)."""
        out: npt.NDArray[np.int8] = self.depth % 2
        return out

    @cached_property
    def legal_edge(self) -> npt.NDArray[np.bool_]:
        """Whether the edge into each node (its last bid) is legal from its parent."""
        legal = np.ones(self.num_nodes, dtype=bool)
        legal[0] = False
        for b in range(self.num_bids):
            if b not in self.opening:
                legal[1 << b] = False
        return legal

    @cached_property
    def reachable(self) -> npt.NDArray[np.bool_]:
        """Whether a node can be reached with legal bids (only the opening can be illegal)."""
        legal = self.legal_edge
        reachable = np.ones(self.num_nodes, dtype=bool)
        for b in range(self.num_bids):
            lo, hi = 1 << b, 2 << b
            reachable[lo:hi] = reachable[:lo] & legal[lo:hi]
        return reachable

    @cached_property
    def num_actions(self) -> npt.NDArray[np.int64]:
        """The number of legal actions at each node: the bids above the last one, the call."""
        nact = self.num_bids - self.top.astype(np.int64)
        nact[0] = len(self.opening)
        return nact

    @cached_property
    def sign0(self) -> Floats:
        """+1 where player 0 is the bidder of a call at the node (player 1 calls), else -1."""
        sign = np.where(self.actor == 1, 1.0, -1.0)
        sign[0] = 0.0
        return sign

    # ------------------------------------------------------------ the solver's layout
    @property
    def half(self) -> int:
        """Rows of each parity half of the layout (``num_nodes // 2``)."""
        return self.num_nodes >> 1

    @cached_property
    def levels(self) -> tuple[Level, ...]:
        """The levels of the layout, the last bid ascending (see :class:`Level`)."""
        out = [Level(0, 0, 1, (1,))] if self.num_bids else []
        out += [Level(b, 1 << (b - 1), 1 << b, (0, 1)) for b in range(1, self.num_bids)]
        return tuple(out)

    def root_child_row(self, bid: int) -> int:
        """The row (parity 1) of the node reached by opening with bid id ``bid``."""
        return 0 if bid == 0 else 1 << (bid - 1)

    def level_actions(self, bid: int) -> int:
        """Legal actions at a node whose last bid is ``bid``: the raises and the call."""
        return self.num_bids - bid

    def to_layout(self, values: npt.NDArray[Any]) -> npt.NDArray[Any]:
        """A mask-ordered array (nodes x ...) in the layout (2, half, ...)."""
        masks = np.arange(self.num_nodes)
        out = np.empty((2, self.half, *values.shape[1:]), dtype=values.dtype)
        out[self.actor, masks >> 1] = values
        return out

    def from_layout(self, values: npt.NDArray[Any]) -> npt.NDArray[Any]:
        """The mask-ordered array (nodes x ...) of a layout array (2, half, ...)."""
        masks = np.arange(self.num_nodes)
        out: npt.NDArray[Any] = values[self.actor, masks >> 1]
        return out

    def _count_table(
        self, rolls: Sequence[tuple[int, ...]], wild: int | None
    ) -> npt.NDArray[np.int64]:
        out = np.zeros((len(rolls), self.num_bids), dtype=np.int64)
        for i, roll in enumerate(rolls):
            for b, bid in enumerate(self.bids):
                out[i, b] = sum(1 for d in roll if d == bid.face or (d == wild))
        return out

    # ------------------------------------------------------------------ queries
    def count(self, bid: int, roll0: Sequence[int], roll1: Sequence[int]) -> int:
        """Dice matching bid id ``bid`` among both rolls (as :meth:`State.count`)."""
        i0 = self.roll_index[0][tuple(sorted(roll0))]
        i1 = self.roll_index[1][tuple(sorted(roll1))]
        return int(self.counts[0][i0, bid] + self.counts[1][i1, bid])

    def history(self, mask: int) -> list[int]:
        """Bid ids made at node ``mask``, in order."""
        return [b for b in range(self.num_bids) if mask >> b & 1]

    def mask_of(self, bids: Sequence[int]) -> int:
        """The node of a history of bid ids (ValueError unless strictly increasing)."""
        mask, last = 0, -1
        for b in bids:
            if b <= last or not 0 <= b < self.num_bids:
                raise ValueError(f"not a bid history of this game: {list(bids)}")
            mask |= 1 << b
            last = b
        return mask

    def bid_children(self, mask: int) -> list[int]:
        """Legal bid ids at node ``mask``, ascending."""
        if mask == 0:
            return sorted(self.opening)
        return list(range(int(self.top[mask]) + 1, self.num_bids))

    def actions(self, mask: int) -> tuple[int, ...]:
        """Engine action ids legal at node ``mask`` (the order of ``State.legal_actions``)."""
        calls = (LIAR,) if mask else ()
        return calls + tuple(BID_BASE + b for b in self.bid_children(mask))

    def action_string(self, action: int) -> str:
        """``liar`` or the bid's notation."""
        return self.game.action_to_string(action)

    def history_string(self, mask: int) -> str:
        """The bids of node ``mask`` as text, e.g. ``"1x2 2x5"`` (empty at the root)."""
        return " ".join(str(self.bids[b]) for b in self.history(mask))

    def __repr__(self) -> str:
        return (
            f"PublicTree({self.rules.name!r}, dice={self.dice}, faces={self.faces}, "
            f"bids={self.num_bids})"
        )
