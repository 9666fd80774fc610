"""Solved policies: the average strategy as behaviour probabilities, saved as JSON.

A :class:`Policy` holds both players' realization plans over a
:class:`~liarsdice.solve.tree.PublicTree`, in sequence form (:mod:`liarsdice.solve.seq`: one
array per player, float32 for large games), and answers, for an information set (own roll, bid
history), the probabilities of the legal actions in the engine's order: ``liar`` first (after
the opening bid), then every legal bid ascending.

The JSON file (``format: "liarsdice-policy"``) names the rules (name and every option), the
dice per player and the faces, and lists per player, per roll (``"2"``, ``"1,6"``), per bid
history (``""`` at the root, else ``"1x2 2x5"``) the action probabilities. Information sets
the policy itself never reaches (own reach below 1e-9) are left out and read back as uniform:
they cannot change what the policy does or its exploitability.

:func:`policy_exploitability` measures any behaviour policy given as a function of a
:class:`~liarsdice.core.bidding.view.PlayerView`.

>>> from liarsdice.solve.tree import make_game
>>> from liarsdice.solve.cfr import solve
>>> game = make_game("openspiel", faces=3)
>>> pol = Policy.from_result(solve(game, target=1e-6))
>>> actions, probs = pol.probabilities(1, (2,), [game.space.ids[Bid(1, 2)]])
>>> [game.action_to_string(a) for a in actions], round(float(probs.sum()), 9)
(['liar', '1x3', '2x1', '2x2', '2x3'], 1.0)
>>> abs(policy_exploitability(game, lambda view: pol.view_probabilities(view))) < 1e-6
True
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from liarsdice.core.bidding.bid import Bid
from liarsdice.core.bidding.game import Game
from liarsdice.core.bidding.rules import Rules
from liarsdice.core.bidding.view import PlayerView
from liarsdice.solve.br import Plan, exploitability
from liarsdice.solve.cfr import SolveResult
from liarsdice.solve.seq import exploitability as seq_exploitability
from liarsdice.solve.seq import game_value as seq_game_value
from liarsdice.solve.seq import plan_of, realization, seq_of_plan, uniform_behaviour
from liarsdice.solve.tree import DEFAULT_MAX_BYTES, Floats, PublicTree, SolverError

__all__ = [
    "FORMAT",
    "Policy",
    "PolicyFn",
    "policy_exploitability",
    "policy_plans",
    "uniform_weights",
]

FORMAT = "liarsdice-policy"
VERSION = 1
#: Information sets whose own reach is below this are not written (they are never reached).
PRUNE_REACH = 1e-9

Array = npt.NDArray[np.floating]

#: A behaviour policy: the probabilities of ``view.legal_actions``, as a sequence in that
#: order or a mapping from action to probability (missing actions: 0).
PolicyFn = Callable[[PlayerView], Sequence[float] | Mapping[int, float]]


def uniform_weights(tree: PublicTree, player: int) -> tuple[Floats, Floats]:
    """Node-ordered edge and call weights of the uniform policy (small trees): the edge into
    a node where the opponent acts weighs ``player``'s probability of that bid, an edge
    ``player`` does not own 1; likewise the calls (0 for illegal opening bids)."""
    n, k = tree.num_nodes, len(tree.rolls[player])
    nonroot = np.arange(n) > 0
    mine = tree.actor == player
    nact_parent = np.ones(n)
    for b in range(tree.num_bids):
        lo, hi = 1 << b, 2 << b
        nact_parent[lo:hi] = tree.num_actions[:lo]
    edge = np.where(tree.legal_edge & ~mine, 1.0 / nact_parent, 0.0)
    edge += nonroot & mine
    call = np.where(nonroot & mine, 1.0 / tree.num_actions, 0.0)
    call += nonroot & ~mine
    return (
        np.repeat(edge[:, None], k, axis=1),
        np.repeat(call[:, None], k, axis=1),
    )


def _parity(mask: int) -> int:
    return mask.bit_count() & 1


def _parent(mask: int) -> int:
    return mask & ~(1 << (mask.bit_length() - 1))


def _node_rows(tree: PublicTree, player: int) -> list[int]:
    """The nodes where ``player`` acts, ascending (parents before children)."""
    return [m for m in range(tree.num_nodes) if _parity(m) == player]


class Policy:
    """Both players' strategies for one game, as sequence-form plans over its public tree
    (see :mod:`liarsdice.solve.seq`; float64, or float32 for large games)."""

    def __init__(
        self, tree: PublicTree, seqs: tuple[Array, Array], info: Mapping[str, Any] | None = None
    ) -> None:
        half = tree.half
        for p in (0, 1):
            if seqs[p].shape != (2, half, len(tree.rolls[p])):
                raise SolverError(f"player {p}'s plan does not have the shape of the tree")
        self.tree = tree
        self.seqs = seqs
        self.info: dict[str, Any] = dict(info or {})

    @classmethod
    def from_result(cls, result: SolveResult) -> Policy:
        """The average strategy a :func:`~liarsdice.solve.cfr.solve` run reached."""
        return cls(result.tree, result.seqs(), result.summary())

    @classmethod
    def from_plans(
        cls, tree: PublicTree, plans: tuple[Plan, Plan], info: Mapping[str, Any] | None = None
    ) -> Policy:
        """A policy from node-ordered realization plans (an LP's, say)."""
        return cls(tree, (seq_of_plan(tree, 0, plans[0]), seq_of_plan(tree, 1, plans[1])), info)

    @property
    def plans(self) -> tuple[Plan, Plan]:
        """Both players' node-ordered realization plans (float64; small trees)."""
        return (plan_of(self.tree, 0, self.seqs[0]), plan_of(self.tree, 1, self.seqs[1]))

    @property
    def game(self) -> Game:
        return self.tree.game

    def matches(self, game: Game) -> bool:
        """Whether this policy was solved for ``game``'s rules and dice."""
        return game.rules == self.tree.rules and tuple(game.start_dice) == self.tree.dice

    # ------------------------------------------------------------- lookups
    def node_probabilities(self, player: int, mask: int, roll: int) -> Floats:
        """Probabilities of the legal actions at node ``mask`` for roll index ``roll``."""
        tree = self.tree
        if _parity(mask) != player:
            raise ValueError(f"player {player} does not act after {tree.history_string(mask)!r}")
        s = self.seqs[player]
        kids = [(mask | 1 << b) >> 1 for b in tree.bid_children(mask)]
        weights = s[1 - player, kids, roll].astype(np.float64)
        if mask:
            weights = np.concatenate(([float(s[player, mask >> 1, roll])], weights))
        weights = np.clip(weights, 0.0, None)
        total = float(weights.sum())
        if total <= 0.0 or not np.isfinite(total):
            return np.full(len(weights), 1.0 / len(weights))
        out: Floats = weights / total
        return out

    def probabilities(
        self, player: int, roll: Sequence[int], bids: Sequence[int]
    ) -> tuple[tuple[int, ...], Floats]:
        """Legal actions and their probabilities for ``player`` holding ``roll`` after the
        bid ids ``bids``."""
        tree = self.tree
        mask = tree.mask_of(bids)
        r = tree.roll_index[player][tuple(sorted(roll))]
        return tree.actions(mask), self.node_probabilities(player, mask, r)

    def view_probabilities(self, view: PlayerView) -> Floats:
        """Probabilities of ``view.legal_actions`` for the viewer."""
        space = self.tree.game.space
        actions, probs = self.probabilities(
            view.player, view.my_dice, [space.ids[b] for _, b in view.bids]
        )
        if actions != tuple(view.legal_actions):
            raise SolverError("the view's legal actions differ from the solved game's")
        return probs

    # ----------------------------------------------------------- evaluation
    def exploitability(self) -> float:
        """Exact exploitability (NashConv / 2)."""
        return seq_exploitability(self.tree, self.seqs)

    def value(self) -> float:
        """Player 0's expected return when both players follow the policy."""
        return seq_game_value(self.tree, self.seqs)

    # ---------------------------------------------------------------- JSON
    def to_json(self) -> dict[str, Any]:
        """The policy as JSON-friendly data (see the module docstring)."""
        tree = self.tree
        strategy: list[dict[str, dict[str, list[float]]]] = []
        for p in (0, 1):
            s = self.seqs[p]
            per_roll: dict[str, dict[str, list[float]]] = {
                ",".join(map(str, roll)): {} for roll in tree.rolls[p]
            }
            keys = list(per_roll)
            for mask in _node_rows(tree, p):
                reach = s[1 - p, _parent(mask) >> 1] if mask else np.ones(len(keys))
                live = np.flatnonzero(reach > PRUNE_REACH)
                if not len(live):
                    continue
                history = tree.history_string(mask)
                for r in live:
                    probs = self.node_probabilities(p, mask, int(r))
                    per_roll[keys[r]][history] = [round(float(q), 10) for q in probs]
            strategy.append(per_roll)
        rules = tree.rules
        return {
            "format": FORMAT,
            "version": VERSION,
            "rules": rules.name,
            "options": rules.options(),
            "dice": list(tree.dice),
            "faces": tree.faces,
            "bids": [str(b) for b in tree.bids],
            "actions": "liar (not at the root), then each legal bid ascending",
            **{k: v for k, v in self.info.items() if k not in ("strategy",)},
            "strategy": strategy,
        }

    def save(self, path: str | Path) -> None:
        """Write the policy as JSON."""
        Path(path).write_text(json.dumps(self.to_json(), separators=(",", ":")) + "\n")

    @classmethod
    def from_json(cls, data: Mapping[str, Any], *, max_bytes: int = DEFAULT_MAX_BYTES) -> Policy:
        """Read :meth:`to_json` data back."""
        if data.get("format") != FORMAT:
            raise SolverError(f"not a {FORMAT} file")
        options = dict(data["options"])
        rules = Rules(**options)
        game = Game(rules)
        tree = PublicTree(game, max_bytes=max_bytes)
        if list(tree.dice) != list(data["dice"]) or tree.faces != data["faces"]:
            raise SolverError("the policy's dice or faces do not match its rules")
        bid_ids = {str(b): i for i, b in enumerate(tree.bids)}
        seqs = []
        for p in (0, 1):
            beh = uniform_behaviour(tree, p)
            for roll_key, table in data["strategy"][p].items():
                roll = tuple(int(f) for f in roll_key.split(",")) if roll_key else ()
                r = tree.roll_index[p][roll]
                for history, probs in table.items():
                    mask = tree.mask_of([bid_ids[t] for t in history.split()])
                    kids = tree.bid_children(mask)
                    if len(probs) != len(kids) + (mask > 0) or _parity(mask) != p:
                        raise SolverError(f"wrong number of probabilities at {history!r}")
                    if mask:
                        beh[p, mask >> 1, r] = probs[0]
                    for b, q in zip(kids, probs[1 if mask else 0 :], strict=True):
                        beh[1 - p, (mask | 1 << b) >> 1, r] = q
            seqs.append(realization(tree, p, beh))
        info = {
            k: data[k] for k in ("value", "exploitability", "iterations", "seconds") if k in data
        }
        return cls(tree, (seqs[0], seqs[1]), info)

    @classmethod
    def load(cls, path: str | Path, *, max_bytes: int = DEFAULT_MAX_BYTES) -> Policy:
        """Read a policy file written by :meth:`save`."""
        return cls.from_json(json.loads(Path(path).read_text()), max_bytes=max_bytes)


# ------------------------------------------------------------------ any policy
def make_player_view(tree: PublicTree, player: int, roll: tuple[int, ...], mask: int) -> PlayerView:
    """The :class:`PlayerView` the engine gives ``player`` holding ``roll`` at node ``mask``."""
    game = tree.game
    history = tree.history(mask)
    bids: tuple[tuple[int, Bid], ...] = tuple((i % 2, tree.bids[b]) for i, b in enumerate(history))
    return PlayerView(
        player=player,
        names=game.names,
        rules=game.rules.name,
        round=0,
        phase="bid",
        to_move=player,
        opener=0,
        dice_counts=tuple(game.start_dice),
        my_dice=roll,
        shown=((), ()),
        stash=None,
        stash_size=0,
        dice_in_play=sum(tree.dice),
        bids=bids,
        current_bid=tree.bids[history[-1]] if history else None,
        bidder=(len(history) - 1) % 2 if history else -1,
        callers=(),
        legal_actions=tree.actions(mask),
        chips=(0, 0),
        game_pot=0,
        round_pot=0,
        pile=0,
        scores=(0, 0),
        lost=(0, 0),
        palifico=False,
        results=(),
        winner=None,
    )


def _as_probs(out: Sequence[float] | Mapping[int, float], actions: tuple[int, ...]) -> Floats:
    if isinstance(out, Mapping):
        unknown = set(out) - set(actions)
        if unknown:
            raise SolverError(f"the policy gave illegal actions {sorted(unknown)}")
        probs = np.array([float(out.get(a, 0.0)) for a in actions])
    else:
        probs = np.asarray(out, dtype=np.float64)
        if probs.shape != (len(actions),):
            raise SolverError(f"the policy gave {probs.shape} probabilities for {len(actions)}")
    total = float(probs.sum())
    if (probs < 0).any() or not total > 0:
        raise SolverError("the policy's probabilities must be non-negative and not all zero")
    result: Floats = probs / total
    return result


def policy_plans(tree: PublicTree, policy_fn: PolicyFn) -> tuple[Plan, Plan]:
    """Realization plans of a behaviour policy, asking ``policy_fn`` only at the information
    sets the policy itself can reach."""
    plans = []
    for p in (0, 1):
        x = np.zeros((tree.num_nodes, len(tree.rolls[p])))
        xc = np.zeros_like(x)
        x[0] = 1.0
        for mask in range(tree.num_nodes):  # parents come before children
            if int(tree.actor[mask]) != p:  # the opponent acts: pass reach through
                kids = [mask | 1 << b for b in tree.bid_children(mask)]
                x[kids] = x[mask]
                xc[mask] = x[mask]
                continue
            kids = [mask | 1 << b for b in tree.bid_children(mask)]
            actions = tree.actions(mask)
            for r, roll in enumerate(tree.rolls[p]):
                here = x[mask, r]
                if here <= 0.0:
                    continue
                probs = _as_probs(policy_fn(make_player_view(tree, p, roll, mask)), actions)
                if mask:
                    xc[mask, r] = here * probs[0]
                    probs = probs[1:]
                x[kids, r] = here * probs
        plans.append(Plan(x, xc))
    return (plans[0], plans[1])


def policy_exploitability(
    game: Game, policy_fn: PolicyFn, *, max_bytes: int = DEFAULT_MAX_BYTES
) -> float:
    """Exact exploitability (NashConv / 2) of a behaviour policy playing both seats.

    ``policy_fn`` receives the :class:`PlayerView` of the player to move (the same view the
    engine builds) and returns the probabilities of ``view.legal_actions``.
    """
    tree = PublicTree(game, max_bytes=max_bytes)
    return exploitability(tree, policy_plans(tree, policy_fn))
