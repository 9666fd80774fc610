"""Learned strategies of two-player single rounds: what the ``learned`` bot plays (NumPy only).

A :class:`RoundPolicies` file holds, for one rule set and number of faces, a strategy for
every pair of dice counts up to ``max_dice`` each, learned by self-play with Neller and
Hnath's fixed-strategy iteration CFR: both players recall their own dice and the last
``recall`` bids (an imperfect-recall abstraction of the round; :mod:`liarsdice.nets.recall`),
as many as fit the pair's budget: the whole history in the smallest rounds, the last bid only
in the largest, where a round of ``K`` bids has ``2(K + 1)`` decision points per hand and
every pair up to five dice each is solved whole (:mod:`liarsdice.learn.rounds` trains them;
docs/BOTS.md has the method, the cost and the measured exploitability).

**Layout.** The strategy of actor ``p`` (0: the player who opened, 1: the other) is an array
``(nodes, hands, K + 1)``: the nodes of the pair's :class:`~liarsdice.nets.recall.RecallTree`
(with ``recall = 1``, node ``j`` is "the standing bid is ``j - 1``", ``j = 0``: nothing bid
yet, :class:`~liarsdice.solve.subgame.BidSubgame`'s layout), and at a node whose last bid is
``m`` (-1: none) its actions are the columns from ``max(m + 1, 1)`` on: the call (column
``m + 1``, when ``m >= 0``), then the raises in order (column ``n + 1`` raises to bid ``n``).
Hands are sorted rolls in :func:`itertools.combinations_with_replacement` order.

**The file** (format ``liarsdice-rounds``, version 2; version 1 files, all of recall 1, are
read too) is an ``.npz``: ``meta`` (JSON: ``format``, ``version``, ``rules``, ``faces``,
``max_dice``, and per pair what training recorded, its ``recall`` among it) and, per pair
``a, b`` and actor ``p``, ``s-a-b-p``: the average strategy in steps of 1/255 (``uint8``),
renormalised when read.

>>> import io
>>> t = PairTables.of("snyd-joker", (1, 1), faces=3)
>>> [str(b) for b in t.moves]
['1x1', '1x2', '1x3', '2x1', '2x2', '2x3']
>>> uniform = [np.ones((7, 3, 7)), np.ones((7, 3, 7))]
>>> pol = RoundPolicies("snyd-joker", faces=3, max_dice=1, strategies={(1, 1): uniform})
>>> buf = io.BytesIO(); pol.save(buf); _ = buf.seek(0)
>>> back = RoundPolicies.load(buf)
>>> back.probabilities((1, 1), 1, hand=(2,), history=[3]).round(3).tolist()  # call, 2x2, 2x3
[0.333, 0.333, 0.333]
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import IO, Any

import numpy as np
import numpy.typing as npt

from liarsdice.core.bidding import Bid, Game, Rules, preset
from liarsdice.core.bidding.basic import basic_round_lacks
from liarsdice.core.bidding.ladder import OPEN_ANY, OPEN_NO_WILD
from liarsdice.core.bidding.view import PlayerView
from liarsdice.nets.npz import read_npz, write_npz
from liarsdice.nets.recall import RecallTree
from liarsdice.odds import roll_probability

__all__ = [
    "FORMAT",
    "PACKAGED_ROUNDS",
    "VERSION",
    "PairTables",
    "RoundFormatError",
    "RoundPolicies",
    "packaged_round_policies",
    "round_game",
    "round_seat",
]

FORMAT = "liarsdice-rounds"
VERSION = 2

#: The shipped strategies: (rules, faces) -> file name in ``liarsdice/nets/data``.
PACKAGED_ROUNDS: dict[tuple[str, int], str] = {
    (rules, faces): f"rounds-{rules}-{faces}.npz"
    for rules in ("snyd-joker", "openspiel")
    for faces in (4, 5, 6)
}

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]


class RoundFormatError(ValueError):
    """A strategies file that is not a ``liarsdice-rounds`` file this version reads."""


def round_game(rules: str, dice: tuple[int, int], faces: int) -> Game:
    """The two-player single-round game of preset ``rules`` with these dice and faces (player
    0 opens). A wild highest face stays the highest face with other face counts (as the
    solver's :func:`~liarsdice.solve.tree.make_game`)."""
    base = preset(rules)
    changes: dict[str, object] = {"dice": dice, "players": 2, "faces": faces}
    if base.wild is not None and base.wild == base.faces:
        changes["wild"] = faces
    return Game(base.replace(**changes))


@dataclass(frozen=True)
class PairTables:
    """What a round of one pair of dice counts needs, in the game's raise order.

        ``moves[j]``: the game's bid ``j``; ``opening``: the bids that may open;
        ``quantity[j]``: its quantity. Per player ``p``: ``rolls[p]`` (sorted rolls),
    ``probs[p]`` (each roll's chance) and
        ``counts[p][r, j]`` (the dice of roll ``r`` that count for bid ``j``, wilds included)."""

    dice: tuple[int, int]
    moves: tuple[Bid, ...]
    opening: Ints
    quantity: Ints
    rolls: tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]
    probs: tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]
    counts: tuple[Ints, Ints]

    @property
    def num_bids(self) -> int:
        return len(self.moves)

    @cached_property
    def index(self) -> dict[Bid, int]:
        """The index of each bid in ``moves``."""
        return {b: j for j, b in enumerate(self.moves)}

    def roll_index(self, p: int, roll: tuple[int, ...]) -> int:
        """The index of a roll (any order) among player ``p``'s sorted rolls."""
        return self._roll_ids[p][tuple(sorted(roll))]

    @cached_property
    def _roll_ids(self) -> tuple[dict[tuple[int, ...], int], ...]:
        return tuple({r: i for i, r in enumerate(rolls)} for rolls in self.rolls)

    @cached_property
    def truth(self) -> Floats:
        """``truth[k, a, b]``: 1.0 when bid ``k`` stands with player 0 holding roll ``a`` and
        player 1 roll ``b`` (the solver's layout)."""
        total = self.counts[0][:, None, :] + self.counts[1][None, :, :]
        out: Floats = np.ascontiguousarray((total >= self.quantity).transpose(2, 0, 1), float)
        return out

    @classmethod
    def of(cls, rules: str, dice: tuple[int, int], *, faces: int) -> PairTables:
        """The tables of a round of preset ``rules`` with these dice and faces."""
        game = round_game(rules, dice, faces)
        space, r = game.space, game.rules
        cap = sum(dice)
        every = space.raises(-1, cap, OPEN_ANY)
        opening = space.raises(-1, cap, OPEN_ANY if r.open_on_wild else OPEN_NO_WILD)
        moves = tuple(space.bids[j] for j in every)
        wild = r.wild
        rolls = tuple(
            tuple(itertools.combinations_with_replacement(range(1, faces + 1), d)) for d in dice
        )
        counts = []
        for p in (0, 1):
            c = np.zeros((len(rolls[p]), len(moves)), dtype=np.int64)
            for i, roll in enumerate(rolls[p]):
                for j, bid in enumerate(moves):
                    c[i, j] = sum(1 for d in roll if d == bid.face or d == wild)
            counts.append(c)
        return cls(
            dice=dice,
            moves=moves,
            opening=np.array(opening, dtype=np.int64),
            quantity=np.array([b.quantity for b in moves], dtype=np.int64),
            rolls=(rolls[0], rolls[1]),
            probs=(_roll_probabilities(rolls[0], faces), _roll_probabilities(rolls[1], faces)),
            counts=(counts[0], counts[1]),
        )


def _roll_probabilities(rolls: tuple[tuple[int, ...], ...], faces: int) -> npt.NDArray[np.float64]:
    return np.array([roll_probability(roll, faces) for roll in rolls], dtype=np.float64)


class RoundPolicies:
    """Strategies of two-player single rounds, per pair of dice counts (module docstring).

    ``strategies[(a, b)]`` holds the two actors' arrays (any non-negative weights: each row
    is normalised over its node's actions, all-zero rows read as uniform); ``info[(a, b)]``
    what training recorded of that pair (iterations, value, seconds, and ``recall``: how
    many bids its players recall, 1 when absent)."""

    def __init__(
        self,
        rules: str,
        *,
        faces: int,
        max_dice: int,
        strategies: dict[tuple[int, int], list[npt.NDArray[Any]]],
        info: dict[tuple[int, int], dict[str, Any]] | None = None,
        meta: dict[str, Any] | None = None,
    ) -> None:
        self.rules = rules
        self.faces = faces
        self.max_dice = max_dice
        self.info = dict(info or {})
        self.meta = dict(meta or {})
        self._raw = strategies
        self._tables: dict[tuple[int, int], PairTables] = {}
        self._trees: dict[tuple[int, int], RecallTree] = {}
        self._norm: dict[tuple[int, int, int], Floats] = {}

    @property
    def pairs(self) -> list[tuple[int, int]]:
        """The pairs of dice counts with a strategy, in order."""
        return sorted(self._raw)

    def covers(self, dice: tuple[int, int]) -> bool:
        """Whether there is a strategy for this pair of dice counts (opener's first)."""
        return dice in self._raw

    @cached_property
    def _reference_rules(self) -> Rules:
        """The rules these strategies were learned under (checked at every decision)."""
        return round_game(self.rules, (1, 1), self.faces).rules

    def unfit(self, game: Game) -> str | None:
        """Why these strategies cannot play ``game`` (None: they can): a two-player game of
        their rules (a round whose call settles at once), up to ``max_dice`` each."""
        rules = game.rules
        if game.num_players != 2:
            return "they are for two-player games only"
        lacks = basic_round_lacks(rules)
        if lacks:
            return "its rules lack " + ", ".join(lacks)
        ref = self._reference_rules
        fields = ("faces", "wild", "ordering", "open_on_wild", "face_order")
        if self.rules != rules.name or any(getattr(rules, f) != getattr(ref, f) for f in fields):
            return f"they were learned for {self.rules} with {self.faces} faces"
        if max(game.start_dice) > self.max_dice:
            return f"they cover up to {self.max_dice} dice each"
        return None

    def tables(self, dice: tuple[int, int]) -> PairTables:
        """The :class:`PairTables` of a pair (opener's dice first)."""
        hit = self._tables.get(dice)
        if hit is None:
            hit = self._tables[dice] = PairTables.of(self.rules, dice, faces=self.faces)
        return hit

    def recall(self, dice: tuple[int, int]) -> int:
        """How many of the last bids the players of a pair recall."""
        return int(self.info.get(dice, {}).get("recall", 1))

    def tree(self, dice: tuple[int, int]) -> RecallTree:
        """The nodes of a pair's strategies (what its players recall)."""
        hit = self._trees.get(dice)
        if hit is None:
            k = self.tables(dice).num_bids
            hit = self._trees[dice] = RecallTree(num_bids=k, recall=self.recall(dice))
        return hit

    def strategy(self, dice: tuple[int, int], actor: int) -> Floats:
        """Actor ``actor``'s whole strategy for a pair, every row normalised over its node's
        actions (the layout of the module docstring)."""
        key = (*dice, actor)
        hit = self._norm.get(key)
        if hit is None:
            raw = np.asarray(self._raw[dice][actor], dtype=np.float64)
            valid = self.tree(dice).valid
            if raw.shape[0] != valid.shape[0] or raw.shape[2] != valid.shape[1]:
                raise RoundFormatError(
                    f"pair {dice}: a strategy of shape {raw.shape} for {valid.shape[0]} "
                    f"nodes and {valid.shape[1]} columns"
                )
            w = raw * valid[:, None, :]
            s = w.sum(axis=2, keepdims=True)
            uniform = valid / valid.sum(axis=1, keepdims=True)
            hit = np.where(s > 0, w / np.where(s > 0, s, 1.0), uniform[:, None, :])
            self._norm[key] = hit
        return hit

    def probabilities(
        self, dice: tuple[int, int], actor: int, *, hand: tuple[int, ...], history: Sequence[int]
    ) -> Floats:
        """The probabilities of actor ``actor``'s moves holding ``hand`` (any order) after the
        bids ``history`` (indices into the pair's ``moves``, in the order made): the call
        first when there is a bid, then the raises in order."""
        t = self.tables(dice)
        node = self.tree(dice).node(history)
        row = self.strategy(dice, actor)[node, t.roll_index(actor, hand)]
        out: Floats = row[max(history[-1] + 1 if history else 0, 1) :]
        return out

    def likelihood(
        self, dice: tuple[int, int], actor: int, *, history: Sequence[int], bid: int
    ) -> Floats:
        """The probability of actor ``actor`` raising to ``bid`` after ``history``, for each
        of its hands: what the bid says of them."""
        node = self.tree(dice).node(history)
        out: Floats = self.strategy(dice, actor)[node, :, bid + 1]
        return out

    # ------------------------------------------------------------------------- files
    def save(self, file: str | Path | IO[bytes]) -> None:
        """Write the ``.npz`` file (module docstring)."""
        meta = {
            **self.meta,
            "format": FORMAT,
            "version": VERSION,
            "rules": self.rules,
            "faces": self.faces,
            "max_dice": self.max_dice,
            "pairs": {f"{a},{b}": self.info.get((a, b), {}) for a, b in self.pairs},
        }
        arrays: dict[str, Any] = {}
        for a, b in self.pairs:
            for p in (0, 1):
                probs = self.strategy((a, b), p)
                arrays[f"s-{a}-{b}-{p}"] = np.rint(probs * 255).astype(np.uint8)
        write_npz(file, meta, arrays)

    @classmethod
    def load(cls, file: str | Path | IO[bytes]) -> RoundPolicies:
        """Read a file :meth:`save` wrote; :class:`RoundFormatError` names what is wrong."""
        meta, arrays = read_npz(file, FORMAT, (1, VERSION), RoundFormatError)
        strategies: dict[tuple[int, int], list[npt.NDArray[Any]]] = {}
        info: dict[tuple[int, int], dict[str, Any]] = {}
        try:
            for key, recorded in meta["pairs"].items():
                a, b = (int(x) for x in key.split(","))
                strategies[a, b] = [arrays[f"s-{a}-{b}-{p}"] for p in (0, 1)]
                info[a, b] = recorded
        except (KeyError, ValueError, TypeError, AttributeError) as e:
            raise RoundFormatError(f"not a {FORMAT} file: {e}") from e
        extra = {
            k: v
            for k, v in meta.items()
            if k not in ("format", "version", "rules", "faces", "max_dice", "pairs")
        }
        return cls(
            str(meta["rules"]),
            faces=int(meta["faces"]),
            max_dice=int(meta["max_dice"]),
            strategies=strategies,
            info=info,
            meta=extra,
        )


def round_seat(view: PlayerView) -> tuple[tuple[int, int], int]:
    """Where a two-player round's decision stands in the strategies' terms: the dice counts
    (the opener's first: whoever bid first, else the player to bid) and the viewer's actor
    (0: it opened)."""
    me = view.player
    opener = view.bids[0][0] if view.bids else me
    return (view.dice_counts[opener], view.dice_counts[1 - opener]), 0 if opener == me else 1


def packaged_round_policies(rules: str, faces: int) -> RoundPolicies | None:
    """The shipped strategies of these rules and faces, or None when none ship."""
    name = PACKAGED_ROUNDS.get((rules, faces))
    if name is None:
        return None
    with resources.files("liarsdice.nets").joinpath("data", name).open("rb") as f:
        return RoundPolicies.load(f)
