"""Shared helpers for the rules-core tests: exact deals, moves by notation, and reference rules.

Everything named ``ref_*`` is written from the rules text (the seeds and the issue), not from
the engine's own tables, so that tests comparing the two can catch a wrong table.

This module holds no tests; pytest collects it harmlessly because of its ``test_core_`` name.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from liarsdice.core.bidding import (
    BUY,
    CHANCE,
    EXACT,
    LIAR,
    NO_SHOW,
    Bid,
    ExactCall,
    ExactCount,
    Game,
    Loss,
    Ordering,
    Phase,
    Rules,
    State,
    preset,
)

# ---------------------------------------------------------------------------- building states


def new_game(name: str, players: int | None = None, opener: int | None = 0, **over: object) -> Game:
    """A game of preset ``name`` with option overrides; seat ``opener`` opens (None: the rules)."""
    return Game(preset(name, **over), players, opener=opener)


def parse_move(game: Game, text: str) -> int:
    """``3x5`` / ``liar`` / ``exact`` / ``no-show`` / ``show 6,1`` / ``buy`` to an action id.

    Bids are parsed here (not through the notation package) to keep the core tests standalone.
    """
    t = text.strip().lower()
    if t == "liar":
        return LIAR
    if t == "exact":
        return EXACT
    if t == "no-show":
        return NO_SHOW
    if t.startswith("show "):
        return game.show_action(int(x) for x in t[5:].split(","))
    if t == "buy":
        return BUY
    q, f = t.split("x")
    return game.bid_action(Bid(int(q), int(f)))


def play(state: State, *moves: str) -> State:
    """Apply player moves given in notation (the player to move makes each one)."""
    for m in moves:
        assert state.player >= 0, f"a player move {m!r} was given at a chance node"
        state = state.apply_action(parse_move(state.game, m))
    return state


def roll(state: State, faces: Iterable[int]) -> State:
    """Apply chance outcomes (die faces, or seats for a random opener) in order."""
    for f in faces:
        assert state.player == CHANCE, f"roll {f} given while seat {state.player} is to move"
        state = state.apply_action(f)
    return state


def deal(state: State, *hands: Sequence[int], stash: Sequence[int] = ()) -> State:
    """Deal the round: ``hands[p]`` are seat p's dice (eliminated seats get ``()``), then stash.

    The state must be at the start of a round's ROLL phase.
    """
    assert state.phase is Phase.ROLL and not state.pending, state
    assert len(hands) == state.game.num_players
    for p, h in enumerate(hands):
        assert len(h) == state.dice_counts[p], f"seat {p} has {state.dice_counts[p]} dice"
    state = roll(state, [f for h in hands for f in h])
    state = roll(state, stash)
    assert state.phase is Phase.BID, "the deal did not complete the round's roll"
    for p, h in enumerate(hands):
        assert state.hand(p) == tuple(sorted(h))
    return state


def bids_of(state: State) -> list[Bid]:
    """Bids the player to move may make now."""
    game = state.game
    out: list[Bid] = []
    for a in state.legal_bids():
        b = game.action_bid(a)
        assert b is not None
        out.append(b)
    return out


def is_legal(state: State, move: str) -> bool:
    return parse_move(state.game, move) in state.legal_actions()


def random_playout(
    state: State, rng: random.Random, max_steps: int = 5000, ask_rate: float = 0.0
) -> list[State]:
    """Every state of a random playout from ``state`` (inclusive) to the end.

    With ``ask_rate`` > 0 and house penalties on, active seats sometimes ask a question.
    """
    states = [state]
    for _ in range(max_steps):
        if state.is_terminal():
            return states
        if ask_rate and state.game.rules.house_penalties and rng.random() < ask_rate:
            active = state.active_players()
            state = state.ask(rng.choice(active), rng.choice(["turn", "count"]))
            states.append(state)
            continue
        if state.player == CHANCE:
            state = state.apply_action(state.sample_chance(rng))
        else:
            legal = state.legal_actions()
            state = state.apply_action(legal[rng.randrange(len(legal))])
        states.append(state)
    raise AssertionError(f"no end after {max_steps} steps: {state}")


# -------------------------------------------------------------------------- reference rules


def ref_rank(rules: Rules, face: int) -> int:
    """Rank of a face, low to high (the face order, else the face value)."""
    order = rules.face_order or tuple(range(1, rules.faces + 1))
    return order.index(face)


def ref_beats(rules: Rules, new: Bid, old: Bid | None, *, palifico: bool = False) -> bool:
    """Whether ``new`` may follow ``old`` (None: opening) by the rules text; no dice cap here.

    ladder (rules sources 000/001/002): same quantity and higher face, or higher quantity; a bid on
    wilds after a quantity q needs more than half of q (floor(q/2)+1); from k wilds, more wilds
    or a non-wild bid of at least 2k. perudo: ceil(q/2) wilds; from k wilds, 2k+1.
    quantity: higher quantity, or the same quantity and higher face rank. face: higher face
    rank, or the same face and a higher quantity. monotone: neither goes down, one goes up.
    """
    q2, f2 = new
    if old is None:
        if palifico:
            return True
        return rules.open_on_wild or rules.wild is None or f2 != rules.wild
    q1, f1 = old
    if palifico:
        return f2 == f1 and q2 > q1
    r1, r2 = ref_rank(rules, f1), ref_rank(rules, f2)
    o = rules.ordering
    if o in (Ordering.LADDER, Ordering.PERUDO) and rules.wild is not None:
        w = rules.wild
        if f1 != w and f2 != w:
            return q2 > q1 or (q2 == q1 and r2 > r1)
        if f1 == w and f2 == w:
            return q2 > q1
        if f2 == w:  # from q non-wild dice to q2 wilds
            least = q1 // 2 + 1 if o is Ordering.LADDER else (q1 + 1) // 2
            return q2 >= least
        # from q1 wilds to q2 non-wild dice
        return q2 >= (2 * q1 if o is Ordering.LADDER else 2 * q1 + 1)
    if o is Ordering.FACE:
        return r2 > r1 or (r2 == r1 and q2 > q1)
    if o is Ordering.MONOTONE:
        return q2 >= q1 and r2 >= r1 and (q2, f2) != (q1, f1)
    # quantity-major (also ladder/perudo without a wild face)
    return q2 > q1 or (q2 == q1 and r2 > r1)


def ref_count(rules: Rules, dice: Iterable[int], face: int, *, palifico: bool = False) -> int:
    """Dice matching a bid on ``face``: the face, plus wilds unless the bid is on wilds."""
    wild = None if palifico else rules.wild
    return sum(1 for d in dice if d == face or (wild is not None and d == wild))


@dataclass
class Expected:
    """What a resolution should do, by the rules text."""

    losses: dict[int, int]
    gains: dict[int, int]
    winner: int


def ref_resolve(
    rules: Rules,
    *,
    call: int,
    bid: Bid,
    count: int,
    bidder: int,
    caller: int,
    dice: Sequence[int],
    start: Sequence[int],
    pile: int,
) -> Expected:
    """Challenge losses and gains before penalties, clamping and the room's game win.

    ``dice`` are the seats' dice before the challenge; the room scoring is not covered here.
    """
    q = bid.quantity
    active = [p for p, d in enumerate(dice) if d > 0]
    losses: dict[int, int] = {}
    gains: dict[int, int] = {}
    diff = rules.loss is Loss.DIFFERENCE
    if call == LIAR:
        if count > q:
            return Expected({caller: count - q if diff else 1}, {}, bidder)
        if count < q:
            return Expected({bidder: q - count if diff else 1}, {}, caller)
        ec = rules.exact_count
        if ec in (ExactCount.BID_STANDS, ExactCount.CALLER_LOSES_ONE):
            return Expected({caller: 1}, {}, bidder)
        for p in active:
            if p == bidder:
                continue
            spared = ec is ExactCount.ALL_BUT_BIDDER_SPARE_LAST and dice[p] == 1
            if spared and p != caller:
                continue
            losses[p] = 1
        return Expected(losses, {}, bidder)
    assert call == EXACT
    if count != q:
        return Expected({caller: 1}, {}, bidder)
    if rules.calling_advantage:
        if pile:
            gains[caller] = pile
        return Expected({p: 1 for p in active if p != caller}, gains, caller)
    if rules.exact is ExactCall.SPOT_ON:
        return Expected({p: 1 for p in active if p != caller}, {}, caller)
    if dice[caller] < start[caller]:
        gains[caller] = 1
    return Expected({}, gains, caller)


__all__ = [
    "Expected",
    "bids_of",
    "deal",
    "is_legal",
    "new_game",
    "parse_move",
    "play",
    "random_playout",
    "ref_beats",
    "ref_count",
    "ref_rank",
    "ref_resolve",
    "roll",
]
