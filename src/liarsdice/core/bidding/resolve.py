"""How a bidding round ends: the dice counted, the verdict, the losses, the eliminations, the
next opener, and the table the next round (or the end) starts from.

Each step is a function of the values before it (the table, the bid, the call, the game's
tables), so that one can be read, tested and changed alone; :func:`resolve_round` runs them
in order. A single-round game's liar call takes the short path (:func:`single_round_end`),
and a deal's last die hands the hands out (:func:`dealt_table`).

>>> from liarsdice.core.bidding.rules import preset
>>> settle_challenge(preset("classic"), LIAR, 1, 0, 4, 6, [5, 5], (5, 5), 0)
(0, {1: 2}, {}, False)
>>> settle_challenge(preset("perudo"), EXACT, 1, 0, 4, 4, [5, 3], (5, 5), 0)
(1, {}, {1: 1}, False)
"""

from __future__ import annotations

from collections.abc import Sequence

from liarsdice.core.bidding.actions import EXACT, LIAR
from liarsdice.core.bidding.bid import Bid
from liarsdice.core.bidding.records import EndTable, PendingResult, RoundResult, Table, copy_table
from liarsdice.core.bidding.rules import (
    Economy,
    ExactCall,
    ExactCount,
    Loss,
    NextOpener,
    Rules,
    Scoring,
)
from liarsdice.core.bidding.tables import MAX_DEALS, MAX_HANDS, GameTables, Loss3

__all__ = [
    "EXACT",
    "LIAR",
    "count_matches",
    "dealt_table",
    "game_winner_after",
    "resolve_round",
    "settle_challenge",
    "single_round_end",
    "single_round_table",
]

# Rule values read when a round resolves: a global is cheaper to read than an enum member.
_ROOM = Scoring.ROOM
_SINGLE_ROUND = Scoring.SINGLE_ROUND
_DIFFERENCE = Loss.DIFFERENCE
_BID_STOOD = (ExactCount.BID_STANDS, ExactCount.CALLER_LOSES_ONE)
_SPARE_LAST = ExactCount.ALL_BUT_BIDDER_SPARE_LAST
_SPOT_ON = ExactCall.SPOT_ON
_WINNER = NextOpener.WINNER
_BIDDER = NextOpener.BIDDER
_NO_ECONOMY = Economy.NONE
_CHIPS = Economy.CHIPS


# ------------------------------------------------------------------------------- count
def count_matches(t: Table, wild: int | None, face: int) -> int:
    """How many dice in play on table ``t`` match a bid on ``face`` (wilds counted unless the
    bid is on wilds or the round is a palifico round)."""
    if t.palifico:
        wild = None
    dice = sum(t.hands, t.stash)  # every die in one tuple (a few short tuples)
    if any(t.shown):
        dice = sum(t.shown, dice)
    if wild is None or wild == face:
        return dice.count(face)
    return dice.count(face) + dice.count(wild)


# ----------------------------------------------------------------------------- verdict
def settle_challenge(
    rules: Rules,
    call: int,
    caller: int,
    bidder: int,
    q: int,
    count: int,
    dice: Sequence[int],
    start_dice: Sequence[int],
    pile: int,
) -> tuple[int, dict[int, int], dict[int, int], bool]:
    """How a challenge settles, house penalties aside: ``(winner, losses, gains, over)``.

    ``caller`` calls ``call`` (:data:`LIAR` or :data:`EXACT`) on ``bidder``'s bid of
    quantity ``q`` when ``count`` dice match; ``dice`` are every seat's dice, ``start_dice``
    their dice at the start (a calza wins a die back up to it), ``pile`` the calling-advantage
    pile (a right exact call wins it). ``losses`` and ``gains``: dice per seat, not yet capped
    at the seat's dice. ``over``: a room-scoring bid that stood ends the game (no dice change).
    """
    if call == LIAR:
        return _settle_liar(rules, caller, bidder, q, count, dice)
    return _settle_exact(rules, caller, bidder, count == q, dice, start_dice, pile)


def _settle_liar(
    rules: Rules, caller: int, bidder: int, q: int, count: int, dice: Sequence[int]
) -> tuple[int, dict[int, int], dict[int, int], bool]:
    """A liar call's settlement (see :func:`settle_challenge`)."""
    losses: dict[int, int] = {}
    if rules.scoring is _ROOM:
        if count >= q:
            return bidder, losses, {}, True
        winner = caller
        losses[bidder] = 1
    elif count > q or (count == q and rules.exact_count in _BID_STOOD):
        winner = bidder
        losses[caller] = count - q if rules.loss is _DIFFERENCE and count > q else 1
    elif count < q:
        winner = caller
        losses[bidder] = q - count if rules.loss is _DIFFERENCE else 1
    else:  # exact count, everyone but the bidder loses one
        winner = bidder
        spare = rules.exact_count is _SPARE_LAST
        for p in _active(dice):
            if p == bidder or (spare and dice[p] == 1 and p != caller):
                continue
            losses[p] = 1
    return winner, losses, {}, False


def _settle_exact(
    rules: Rules,
    caller: int,
    bidder: int,
    right: bool,
    dice: Sequence[int],
    start_dice: Sequence[int],
    pile: int,
) -> tuple[int, dict[int, int], dict[int, int], bool]:
    """An exact call's settlement (see :func:`settle_challenge`); ``right``: the count is
    the bid's quantity."""
    losses: dict[int, int] = {}
    gains: dict[int, int] = {}
    if not right:
        losses[caller] = 1
        return bidder, losses, gains, False
    if rules.calling_advantage:
        gains[caller] = pile
    if rules.calling_advantage or rules.exact is _SPOT_ON:
        for p in _active(dice):
            if p != caller:
                losses[p] = 1
    elif dice[caller] < start_dice[caller]:  # calza
        gains[caller] = 1
    return caller, losses, gains, False


def _active(dice: Sequence[int]) -> list[int]:
    return [p for p, d in enumerate(dice) if d > 0]


# ------------------------------------------------------------------------------ losses
#: The dice a round moved: every seat's dice after it, the dice lost (challenge and penalties)
#: and gained by seat (all positive), every seat's dice lost so far, the pile.
Losses = tuple[list[int], dict[int, int], dict[int, int], list[int], int]


def take_dice(
    t: Table,
    losses: dict[int, int],
    gains: dict[int, int],
    winner: int,
    pile: int,
    advantage: bool,
) -> Losses:
    """The challenge's ``losses`` and ``gains`` and the house penalties applied to table
    ``t``: no seat loses more dice than it has, and should penalties empty the table the
    challenge winner keeps a die."""
    if any(t.penalties):
        for p, k in enumerate(t.penalties):
            if k:
                losses[p] = losses.get(p, 0) + k
    dice = list(t.dice)
    if gains:
        for p, k in gains.items():
            dice[p] += k
        gains = {p: k for p, k in gains.items() if k > 0}
    lost = list(t.lost)
    capped = False
    for p, k in losses.items():
        if k > dice[p]:  # no seat loses more dice than it has
            k = losses[p] = dice[p]
            capped = True
        dice[p] -= k
        lost[p] += k
        if advantage:
            pile += k
    if capped:
        losses = {p: k for p, k in losses.items() if k > 0}
    if not any(dice):  # penalties emptied the table: the challenge winner keeps a die
        dice[winner] = 1
        losses[winner] -= 1
        lost[winner] -= 1
        if advantage:  # that die never went to the pile
            pile -= 1
        if not losses[winner]:
            del losses[winner]
    return dice, losses, gains, lost, pile


def eliminated_seats(
    losses: dict[int, int], dice: list[int], before: tuple[int, ...], bidder: int
) -> tuple[int, ...]:
    """The seats out of the game this round, clockwise from the bidder (only losers lose
    dice)."""
    gone = [p for p in losses if dice[p] == 0 and before[p] > 0]
    if len(gone) > 1:
        n = len(dice)
        gone.sort(key=lambda p: (p - bidder) % n)
    return tuple(gone)


# ----------------------------------------------------------------------------- the end
def game_winner_after(
    rules: Rules, dice: Sequence[int], winner: int, over: bool = False
) -> int | None:
    """Who wins the game once ``winner``'s challenge leaves ``dice`` (None: it goes on).

    A single-round game, or one already ``over``, goes to the challenge winner; otherwise the
    game ends when at most one seat has dice left.

    >>> from liarsdice.core.bidding.rules import preset
    >>> rules = preset("classic")
    >>> game_winner_after(rules, [0, 2, 1], 1), game_winner_after(rules, [0, 2, 0], 1)
    (None, 1)
    """
    if rules.scoring is _SINGLE_ROUND or over:
        return winner
    remaining = [p for p, d in enumerate(dice) if d > 0]
    if len(remaining) <= 1:
        return remaining[0] if remaining else winner
    return None


def pay_chips(
    t: Table, economy: Economy, winner: int, game_winner: int | None
) -> tuple[tuple[int, ...], int]:
    """Every seat's chips and the game pot after the round: the round pot to the challenge
    winner (chips), the game pot to the game's winner (any economy)."""
    chips: list[int] | tuple[int, ...] = t.chips
    if economy is _CHIPS:
        chips = list(chips)
        chips[winner] += t.round_pot
    game_pot = t.game_pot
    if game_winner is not None and economy is not _NO_ECONOMY:
        chips = list(chips)
        chips[game_winner] += game_pot
        game_pot = 0
    return tuple(chips), game_pot


# ------------------------------------------------------------------------- next opener
def next_opener(
    tables: GameTables,
    dice: list[int],
    before: tuple[int, ...],
    used: frozenset[int],
    winner: int,
    bidder: int,
    caller: int,
    losers: list[int],
) -> tuple[int, bool, frozenset[int]]:
    """Who opens the next round, whether it is a palifico round, and the seats that have had
    theirs: a seat just down to its last die opens a palifico round (once a game), else the
    rules' next opener (``losers``: the challenge's), passed on clockwise when out."""
    clockwise = tables.clockwise[bidder]
    if tables.palifico:
        for p in clockwise:
            if dice[p] == 1 and before[p] > 1 and p not in used:
                return p, True, used | {p}
    rule = tables.next_opener
    if rule is _WINNER:
        opener = winner
    elif rule is _BIDDER:
        opener = bidder
    elif not losers:
        opener = caller
    elif len(losers) == 1:
        opener = losers[0]  # the loser opens, whether or not they are still in
    else:
        opener = _fewest_dice(losers, dice, clockwise)
    if dice[opener] == 0:  # the next seat clockwise that still has dice
        opener = tables.next_seats(tuple(dice))[opener]
    return opener, False, used


def _fewest_dice(losers: list[int], dice: list[int], clockwise: Sequence[int]) -> int:
    """Of several losers, the first clockwise of those still in with the fewest dice (the
    first clockwise when none is)."""
    order = [p for p in clockwise if p in losers]
    alive = [p for p in order if dice[p] > 0]
    if not alive:
        return order[0]
    fewest = min(dice[p] for p in alive)
    return next(p for p in alive if dice[p] == fewest)


# ------------------------------------------------------------------------- the round
#: A resolved round: the table after it, the game's winner (None: it goes on) and the next
#: round's next seats.
Resolved = tuple[Table, int | None, tuple[int, ...]]


def resolve_round(
    tables: GameTables,
    start_dice: tuple[int, ...],
    t: Table,
    call: int,
    caller: int,
    callers: tuple[int, ...],
    bidder: int,
    bid: Bid,
    count: int,
) -> Resolved:
    """The round on table ``t`` resolved by ``caller``'s ``call`` (the last of ``callers``)
    on ``bidder``'s ``bid``, ``count`` dice matching it, step by step."""
    advantage = tables.calling_advantage
    if call == LIAR:  # (settle_challenge's first step, taken straight)
        winner, losses, gains, room_over = _settle_liar(
            tables.rules, caller, bidder, bid.quantity, count, t.dice
        )
    else:
        winner, losses, gains, room_over = settle_challenge(
            tables.rules, call, caller, bidder, bid.quantity, count, t.dice, start_dice, t.pile
        )
    pile = 0 if advantage and call != LIAR and winner == caller else t.pile
    challenge_losers = list(losses)  # (settle_challenge's losses are all positive)
    dice, losses, gains, lost, pile = take_dice(t, losses, gains, winner, pile, advantage)
    out = dice.count(0)
    eliminated = eliminated_seats(losses, dice, t.dice, bidder) if out else ()
    scores = scores_after(t.scores, bidder, room_over, eliminated) if tables.room else t.scores
    if room_over or tables.single_round:
        game_winner: int | None = winner
    else:  # the last seat with dice wins (as game_winner_after finds)
        game_winner = last_seat(dice, winner) if out >= tables.players - 1 else None
    economy = tables.economy
    if economy is _NO_ECONOMY:
        chips, game_pot = t.chips, t.game_pot
    else:
        chips, game_pot = pay_chips(t, economy, winner, game_winner)
    table = copy_table(t)
    table.dice, table.lost, table.pile, table.round_pot = tuple(dice), tuple(lost), pile, 0
    table.chips, table.game_pot, table.scores = chips, game_pot, scores
    table.penalties = tables.no_penalties
    if eliminated:
        table.out_order = t.out_order + eliminated
    opener: int | None = None
    nxt = tables.rot
    if game_winner is None:
        if out:
            nxt = tables.next_seats(table.dice)
        opener, table.palifico, table.palifico_used = next_opener(
            tables, dice, t.dice, t.palifico_used, winner, bidder, caller, challenge_losers
        )
        table.round = t.round + 1
        table.opener = opener
    else:
        table.palifico = False
        table.winner = game_winner
    # RoundResult's fields but the hands, which the pending result merges when read.
    _pend(table, t).fields = (
        t.round, bid, "liar" if call == LIAR else "exact", caller, callers, bidder, count,
        t.stash, losses, gains, winner, table.dice, opener, eliminated,
        chips if economy is not _NO_ECONOMY else None,
        t.round_pot if economy is _CHIPS else 0,
        game_pot, pile, scores if tables.room else None, t.palifico,
    )  # fmt: skip
    return table, game_winner, nxt


def scores_after(
    scores: tuple[int, ...], bidder: int, room_over: bool, eliminated: tuple[int, ...]
) -> tuple[int, ...]:
    """Room scoring: a bid that stood wins the bidder a point from every other seat, and a
    seat put out loses one."""
    if room_over:  # the bid stood
        scores = tuple(score + (1 if p == bidder else -1) for p, score in enumerate(scores))
    if eliminated:
        scores = tuple(score - (p in eliminated) for p, score in enumerate(scores))
    return scores


def last_seat(dice: list[int], winner: int) -> int:
    """The last seat with dice (the challenge ``winner`` should none have)."""
    return next((p for p, d in enumerate(dice) if d > 0), winner)


def _pend(table: Table, t: Table) -> PendingResult:
    """A pending result of the round on table ``t``, set as ``table``'s results (its fields
    are the caller's to fill)."""
    pending = table.chain = PendingResult()
    pending.earlier = t.chain
    pending.hands = t.hands
    pending.shown = t.shown
    pending.fields = None
    pending.done = None
    return pending


# ------------------------------------------------------------- the single-round path
def single_round_end(
    tables: GameTables, t: Table, bid_id: int, bidder: int, caller: int, callers: tuple[int, ...]
) -> Table:
    """The table after ``caller``'s liar call on ``bidder``'s bid ``bid_id`` in a single-round
    game that loses one die, no penalties: only the dice, the dice lost and the winner change;
    the rest is read from ``t`` when asked for (an :class:`EndTable`), and the round's result
    is built when read. (Written out: random playouts end here once a game.)"""
    bid = tables.space.bids[bid_id]
    quantity, face = bid
    if t.palifico or t.stash or any(t.shown):
        count = count_matches(t, tables.rules.wild, face)
    else:  # hands only: each hand's count of every face (wilds in) is kept per hand
        counts = tables.hand_counts
        count = 0
        for hand in t.hands:
            got = counts.get(hand)
            if got is None:
                if len(counts) >= MAX_HANDS:
                    counts.clear()
                got = counts[hand] = tables.face_counts(hand)
            count += got[face]
    if count >= quantity:
        winner, loser = bidder, caller
    else:
        winner, loser = caller, bidder
    seen = tables.memo.last_loss
    if seen[0] is t.dice and seen[1] is t.lost:
        dice, lost, eliminated = seen[2][loser]
    else:
        dice, lost, eliminated = _after_loss_kept(tables, t, loser)
    table = EndTable()
    table.base = t
    table.dice = dice
    table.lost = lost
    table.winner = winner
    # the record's fields, from these when read:
    _pend(table, t).source = (t, bid, caller, callers, bidder, count, loser, winner, dice,
                              eliminated)  # fmt: skip
    return table


def _after_loss_kept(tables: GameTables, t: Table, loser: int) -> Loss3:
    """:func:`after_loss` on table ``t``, kept by (dice, lost, loser), and for two seats as
    the last dice and losses seen (the first round of every game starts from the same ones:
    :func:`single_round_end` reads those first)."""
    key = (t.dice, t.lost, loser)
    kept = tables.after_loss.get(key)
    if kept is None:
        if len(tables.after_loss) >= MAX_DEALS:
            tables.after_loss.clear()
        kept = tables.after_loss[key] = after_loss(t.dice, t.lost, loser)
    if len(t.dice) == 2:
        other = after_loss(t.dice, t.lost, 1 - loser)
        tables.memo.last_loss = (t.dice, t.lost, (kept, other) if loser == 0 else (other, kept))
    return kept


def after_loss(dice: tuple[int, ...], lost: tuple[int, ...], loser: int) -> Loss3:
    """Every seat's dice and dice lost once ``loser`` loses one die, and the seats that went
    out."""
    after = list(dice)
    after[loser] -= 1
    total = list(lost)
    total[loser] += 1
    return tuple(after), tuple(total), (loser,) if after[loser] == 0 else ()


def single_round_table(
    t: Table, bid: Bid, bidder: int, caller: int, callers: tuple[int, ...], count: int
) -> Table:
    """The table after ``caller``'s liar call on ``bidder``'s ``bid`` (``count`` dice match
    it) in a single-round game that loses one die (no penalties), its result built at once:
    the long way to :func:`single_round_end`'s table, which the tests compare it with."""
    winner = bidder if count >= bid.quantity else caller
    loser = caller if winner == bidder else bidder
    dice = list(t.dice)
    dice[loser] -= 1
    lost = list(t.lost)
    lost[loser] += 1
    result = RoundResult(
        round=t.round, bid=bid, call="liar", caller=caller, callers=callers,
        bidder=bidder, count=count,
        hands=tuple(tuple(sorted(h + s)) for h, s in zip(t.hands, t.shown, strict=True)),
        stash=t.stash, losses={loser: 1}, gains={}, winner=winner, dice=tuple(dice),
        next_opener=None, eliminated=(loser,) if dice[loser] == 0 else (),
    )  # fmt: skip
    table = t.copy(dice=tuple(dice), lost=tuple(lost), results=(*t.results, result))
    table.winner = winner
    return table


# ------------------------------------------------------------------------------ deal
def dealt_table(tables: GameTables, t: Table, rolled: tuple[int, ...]) -> Table:
    """The round table ``t`` with the dice of the deal ``rolled`` handed out: every seat's
    hand, sorted, and the stash."""
    table = copy_table(t)
    dealer = tables.dealers.get(t.dice)
    if dealer is None:
        dealer = tables.dealer(t.dice)
    cut, split, sort = dealer
    hands = cut(rolled)  # each seat's slice of the rolls, in seat order
    if sort:  # a sorted hand per roll of a seat's dice, kept (sorting costs more)
        known = tables.sorted_hands
        if len(known) >= MAX_HANDS:
            known.clear()
        out = []
        for h in hands:
            got = known.get(h)
            if got is None:
                got = known[h] = tuple(sorted(h))
            out.append(got)
        hands = tuple(out)
    table.hands = hands
    if tables.stash:  # (else the table's stash is already empty)
        table.stash = rolled[split:]
    return table
