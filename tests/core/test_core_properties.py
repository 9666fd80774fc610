"""Property tests: random rule sets, random games, every transition checked against reference
rules written from the rules text, replays, and views that cannot leak hidden dice."""

from __future__ import annotations

import itertools
import os
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core_util import Expected, random_playout, ref_beats, ref_count, ref_resolve
from liarsdice.core.bidding import (
    BID_BASE,
    BUY,
    CHANCE,
    EXACT,
    LIAR,
    Economy,
    ExactCall,
    Game,
    IllegalActionError,
    NextOpener,
    Phase,
    Resolution,
    RoundResult,
    Rules,
    RulesError,
    Scoring,
    Stash,
    State,
    preset,
)
from liarsdice.core.bidding.view import PlayerView

# CORE_EXAMPLES=5000 pytest ... runs a deep, randomised search instead of the fixed quick one.
DEEP = int(os.environ.get("CORE_EXAMPLES", "0"))

MULTI_ROUND = ("classic", "milton-bradley", "house-rules", "spot-on", "room", "perudo")
SINGLE_ROUND = ("openspiel", "snyd-normal", "snyd-joker")


@st.composite
def rule_sets(draw: st.DrawFn) -> tuple[Rules, int, int]:
    """(rules, players, seed): a preset with random option overrides, kept small."""
    name = draw(st.sampled_from(MULTI_ROUND + SINGLE_ROUND))
    base = preset(name)
    over: dict[str, Any] = {}
    single = base.scoring is Scoring.SINGLE_ROUND
    players = 2 if single else draw(st.integers(2, 5))
    faces = draw(st.integers(2, 6))
    over["faces"] = faces
    if draw(st.booleans()):
        over["dice"] = draw(st.integers(1, 3 if players <= 3 else 2))
    else:
        top = 3 if players <= 3 else 2
        over["dice"] = tuple(draw(st.integers(1, top)) for _ in range(players))
    over["wild"] = draw(st.sampled_from([None, 1, faces]))
    if draw(st.booleans()):
        over["ordering"] = draw(
            st.sampled_from(["ladder", "perudo", "quantity", "face", "monotone"])
        )
    over["face_order"] = None
    if draw(st.booleans()):
        order = list(range(1, faces + 1))
        random.Random(draw(st.integers(0, 999))).shuffle(order)
        over["face_order"] = tuple(order)
    over["open_on_wild"] = draw(st.booleans())
    over["loss"] = draw(st.sampled_from(["difference", "one"]))
    over["exact_count"] = draw(
        st.sampled_from(
            ["bid-stands", "all-but-bidder", "all-but-bidder-spare-last", "caller-loses-one"]
        )
    )
    if not single:
        over["next_opener"] = draw(st.sampled_from(["winner", "loser", "bidder"]))
        over["show_reroll"] = draw(st.sampled_from(["off", "after", "before"]))
        over["stash"] = draw(st.sampled_from(["none", "secret", "open"]))
        over["economy"] = draw(st.sampled_from(["none", "chips", "rich-man"]))
        over["chips"] = draw(st.sampled_from([0, 3, 50]))
        over["ante"] = draw(st.integers(0, 2))
        over["house_penalties"] = draw(st.booleans())
        over["palifico"] = draw(st.booleans())
        if draw(st.booleans()):
            over["resolution"] = draw(st.sampled_from(["first-call", "all-call"]))
            over["scoring"] = draw(st.sampled_from(["elimination", "room"]))
        if over.get("resolution", base.resolution.value) == "all-call":
            over["exact"] = "none"
        else:
            over["exact"] = draw(st.sampled_from(["none", "spot-on", "calza"]))
            over["calling_advantage"] = draw(st.booleans())
    else:
        over["exact"] = draw(st.sampled_from(["none", "spot-on", "calza"]))
    over["first_opener"] = draw(st.sampled_from(["given", "random", "roll-one", "roll-two"]))
    rules = preset(name, **over)
    return rules, players, draw(st.integers(0, 2**32 - 1))


# --------------------------------------------------------------------------- the checker


class Checker:
    """Follows a game transition by transition and checks each against the rules text."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.rules = game.rules
        self.all_bids = list(game.space.bids)
        self.palifico_used: set[int] = set()
        self.resolved = 0

    # ---------------------------------------------------------------- per state
    def state(self, s: State) -> None:
        t = s.table
        rules = self.rules
        assert all(d >= 0 for d in t.dice)
        assert len(t.hands) == len(t.dice) == self.game.num_players
        active = [p for p, d in enumerate(t.dice) if d > 0]
        stash_size = len(active) if rules.stash is not Stash.NONE else 0
        if s.phase in (Phase.BID, Phase.SHOW):
            for p in range(self.game.num_players):
                assert len(t.hands[p]) + len(t.shown[p]) == t.dice[p], (p, t.hands, t.shown)
            assert len(t.stash) == stash_size
            assert t.cap == sum(t.dice) + stash_size
            assert t.cap <= self.game.max_quantity, "every die in play can be bid on"
            assert s.player in active
        if s.phase is Phase.BID:
            self.legal_bids(s)
        if rules.economy is not Economy.NONE:
            start = rules.chips * self.game.num_players
            assert sum(t.chips) + t.round_pot + t.game_pot == start
        if rules.calling_advantage and rules.economy is not Economy.RICH_MAN:
            assert sum(t.dice) + t.pile == sum(self.game.start_dice)

    def legal_bids(self, s: State) -> None:
        """The legal bids are exactly those under the cap that beat the current bid."""
        t = s.table
        cur = s.current_bid
        want = {
            b
            for b in self.all_bids
            if b.quantity <= t.cap and ref_beats(self.rules, b, cur, palifico=t.palifico)
        }
        got = {s.game.action_bid(a) for a in s.legal_bids()}
        assert got == want, (cur, t.cap, sorted(got ^ want))  # type: ignore[type-var]
        legal = s.legal_actions()
        must_raise = any(a >= BID_BASE for a in legal) and LIAR not in legal and cur is not None
        if cur is not None and not must_raise:
            assert LIAR in legal
            assert (EXACT in legal) == (self.rules.exact is not ExactCall.NONE)
        if cur is not None and not want:
            assert set(legal) <= {LIAR, EXACT, BUY}, "facing the top bid you must call"

    # ----------------------------------------------------------- per transition
    def step(self, before: State, after: State) -> None:
        if len(after.history()) == len(before.history()) + 1:
            player, action = after.history()[-1]
        else:  # pragma: no cover - the playout never skips
            raise AssertionError("one event per step")
        if isinstance(action, str):
            assert after.table.penalties[player] == before.table.penalties[player] + 1
            return
        if player == CHANCE:
            return
        bid = self.game.action_bid(action)
        if bid is not None and before.phase is Phase.BID:
            assert ref_beats(self.rules, bid, before.current_bid, palifico=before.table.palifico)
            assert bid.quantity <= before.table.cap
            assert after.current_bid == bid and after.bidder == player
        if action == BUY:
            assert after.table.game_pot == 2 * before.table.game_pot
            assert after.table.chips[player] == before.table.chips[player] - before.table.game_pot
        if action in (LIAR, EXACT) and len(after.results) > len(before.results):
            self.resolution(before, after, action, player)

    def resolution(self, before: State, after: State, call: int, caller: int) -> None:
        rules = self.rules
        t = before.table
        r: RoundResult = after.results[-1]
        bid = before.current_bid
        assert bid is not None and r.bid == bid and r.caller == caller
        bidder = before.bidder
        assert r.bidder == bidder
        n = self.game.num_players
        every_die = [d for h in (*t.hands, *t.shown, t.stash) for d in h]
        count = ref_count(rules, every_die, bid.face, palifico=t.palifico)
        assert r.count == count
        assert r.hands == tuple(tuple(sorted(h + s)) for h, s in zip(t.hands, t.shown, strict=True))
        dice = list(t.dice)
        active = [p for p in range(n) if dice[p] > 0]
        if rules.resolution is Resolution.ALL_CALL:
            assert r.callers == (*before.callers, caller)
            assert set(r.callers) == set(active) - {bidder}
        room_win = rules.scoring is Scoring.ROOM and call == LIAR and count >= bid.quantity
        if rules.scoring is Scoring.ROOM and call == LIAR:
            exp = Expected({} if room_win else {bidder: 1}, {}, bidder if room_win else caller)
        else:
            exp = ref_resolve(
                rules,
                call=call,
                bid=bid,
                count=count,
                bidder=bidder,
                caller=caller,
                dice=dice,
                start=self.game.start_dice,
                pile=t.pile,
            )
        assert r.winner == exp.winner
        losses = dict(exp.losses)
        for p, k in enumerate(t.penalties):
            if k:
                losses[p] = losses.get(p, 0) + k
        new = list(dice)
        for p, k in exp.gains.items():
            new[p] += k
        for p, k in list(losses.items()):
            losses[p] = min(k, new[p])
            new[p] -= losses[p]
        if not any(new):  # penalties emptied the table: the challenge winner keeps a die
            new[exp.winner] = 1
            losses[exp.winner] -= 1
        assert r.losses == {p: k for p, k in losses.items() if k}
        assert r.gains == {p: k for p, k in exp.gains.items() if k}
        assert r.dice == tuple(new)
        assert r.eliminated == tuple(
            p for p in [(bidder + i) % n for i in range(n)] if dice[p] > 0 and new[p] == 0
        )
        remaining = [p for p in range(n) if new[p] > 0]
        over = rules.scoring is Scoring.SINGLE_ROUND or room_win or len(remaining) <= 1
        assert after.is_terminal() == over
        if rules.economy is Economy.CHIPS:
            chips = list(t.chips)
            chips[exp.winner] += t.round_pot
            if over:
                game_winner = exp.winner if not remaining or room_win else remaining[0]
                if rules.scoring is Scoring.SINGLE_ROUND:
                    game_winner = exp.winner
                chips[game_winner] += t.game_pot
            assert r.chips == tuple(chips)
        if over:
            assert r.next_opener is None
            return
        assert after.dice_counts == tuple(new)
        assert (
            after.table.opener == r.next_opener == self.next_opener(exp, dice, new, bidder, caller)
        )
        assert after.round == before.round + 1
        assert after.table.palifico == (r.next_opener in self.palifico_used and self._fresh)

    def next_opener(
        self, exp: Expected, before: list[int], after: list[int], bidder: int, caller: int
    ) -> int:
        n = self.game.num_players
        clockwise = [(bidder + i) % n for i in range(n)]
        self._fresh = False
        if self.rules.palifico:
            fresh = [
                p
                for p in clockwise
                if after[p] == 1 and before[p] > 1 and p not in self.palifico_used
            ]
            if fresh:
                self.palifico_used.add(fresh[0])
                self._fresh = True
                return fresh[0]
        rule = self.rules.next_opener
        if rule is NextOpener.WINNER:
            seat = exp.winner
        elif rule is NextOpener.BIDDER:
            seat = bidder
        else:
            losers = [p for p in clockwise if exp.losses.get(p, 0) > 0]
            alive = [p for p in losers if after[p] > 0]
            if alive:
                fewest = min(after[p] for p in alive)
                seat = next(p for p in alive if after[p] == fewest)
            else:
                seat = losers[0] if losers else caller
        while after[seat] == 0:
            seat = (seat + 1) % n
        return seat

    # --------------------------------------------------------------------- end
    def end(self, s: State) -> None:
        assert s.is_terminal() and s.current_player < 0 and s.legal_actions() == ()
        rules = self.rules
        n = self.game.num_players
        w = s.winner
        assert w is not None and 0 <= w < n
        ret = s.returns()
        if rules.scoring is Scoring.ROOM:
            assert ret == tuple(float(x) for x in s.table.scores)
            assert max(ret) == ret[w] and ret.count(max(ret)) == 1, "room: one top score"
        else:
            assert ret[w] == 1.0 and abs(sum(ret)) < 1e-9
            assert all(ret[p] < 0 for p in range(n) if p != w)
        if rules.scoring is Scoring.ELIMINATION:
            assert [p for p, d in enumerate(s.dice_counts) if d > 0] == [w]
        if rules.scoring is Scoring.SINGLE_ROUND:
            assert len(s.results) == 1 and s.results[0].winner == w
        placements = s.placements()
        assert sorted(placements) == list(range(n)) and placements[0] == w


# ------------------------------------------------------------------------------- views

VIEW_KEYS = {
    "player",
    "names",
    "rules",
    "round",
    "phase",
    "to_move",
    "opener",
    "dice_counts",
    "my_dice",
    "shown",
    "stash",
    "stash_size",
    "dice_in_play",
    "bids",
    "current_bid",
    "bidder",
    "callers",
    "legal_actions",
    "chips",
    "game_pot",
    "round_pot",
    "pile",
    "scores",
    "lost",
    "palifico",
    "winner",
}


def check_view_fields(s: State, viewer: int) -> None:
    """Every field of the view is the viewer's own hand or a public fact, structurally."""
    v: PlayerView = s.view(viewer)
    t = s.table
    dealt = s.phase not in (Phase.SETUP, Phase.ROLL)
    own = t.hands[viewer] if viewer >= 0 and dealt else ()
    assert v.my_dice == own
    assert v.shown == t.shown and v.results == t.results  # public: shown dice, past reveals
    if s.game.rules.stash is Stash.OPEN and s.phase is not Phase.ROLL:
        assert v.stash == t.stash
    else:
        assert v.stash is None
    assert v.dice_counts == t.dice and v.dice_in_play == t.cap
    assert v.current_bid == s.current_bid and v.to_move == s.player
    if viewer >= 0 and viewer == s.player:
        assert v.legal_actions == s.legal_actions()
    else:
        assert v.legal_actions == ()
    d = v.to_dict()
    assert set(d) == VIEW_KEYS
    assert d["my_dice"] == list(own)
    assert d["stash"] == (None if v.stash is None else list(v.stash))


def counterfactual(s: State, viewer: int) -> State | None:
    """The same game, with every die of this round's deal that ``viewer`` may not see changed
    (each other seat's hand, and a secret stash, get a different multiset of faces).

    None when the changed deal makes a later move illegal (e.g. another seat shows dice).
    """
    game = s.game
    hist = s.history()
    start = s.table.start
    cur = game.replay(hist[:start])
    assert cur.phase is Phase.ROLL
    owners: dict[int, int] = {}  # event index -> seat (-1: stash)
    dealt: dict[int, list[int]] = {}  # seat (-1: stash) -> faces dealt
    i = start
    while cur.phase is Phase.ROLL and i < len(hist):
        player, action = hist[i]
        if player == CHANCE:
            k = len(cur.pending)
            seat, acc = -1, 0
            for p, d in enumerate(cur.table.dice):
                if acc <= k < acc + d:
                    seat = p
                acc += d
            owners[i] = seat
            dealt.setdefault(seat, []).append(action)
        cur = cur.apply_event(player, action)
        i += 1
    hidden = {p for p in range(game.num_players) if p != viewer}
    if game.rules.stash is Stash.SECRET:
        hidden.add(-1)
    new_face = {p: (2 if set(h) == {1} else 1) for p, h in dealt.items()}
    changed = list(hist)
    for idx, owner in owners.items():
        if owner in hidden:
            changed[idx] = (CHANCE, new_face[owner])
    try:
        return game.replay(changed)
    except IllegalActionError:
        return None


# ------------------------------------------------------------------------------ tests


@settings(
    max_examples=DEEP or 150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=not DEEP,
)
@given(rule_sets())
def test_random_games_follow_the_rules(case: tuple[Rules, int, int]) -> None:
    rules, players, seed = case
    try:
        game = Game(rules, players)
    except RulesError:
        return
    rng = random.Random(seed)
    states = random_playout(game.new_initial_state(), rng, max_steps=20000, ask_rate=0.02)
    checker = Checker(game)
    checker.state(states[0])
    for a, b in itertools.pairwise(states):
        checker.step(a, b)
        checker.state(b)
    final = states[-1]
    checker.end(final)
    # replaying the event log rebuilds the same game
    again = game.replay(final.history())
    assert again.history() == final.history()
    assert again.results == final.results
    assert again.dice_counts == final.dice_counts and again.winner == final.winner
    assert again.table.chips == final.table.chips and again.table.scores == final.table.scores
    mid = states[rng.randrange(len(states))]
    assert game.replay(mid.history()).view(-1) == mid.view(-1)
    # views: structure on every state of the last round, leaks by counterfactual on a few
    for s in states[-30:]:
        for viewer in (-1, *range(players)):
            check_view_fields(s, viewer)
    live = [s for s in states if not s.is_terminal() and s.phase is not Phase.SETUP]
    for s in rng.sample(live, min(3, len(live))):
        for viewer in (-1, *range(players)):
            other = counterfactual(s, viewer)
            if other is None:
                continue
            assert other.view(viewer) == s.view(viewer)
            assert other.view(viewer).to_dict() == s.view(viewer).to_dict()


def test_counterfactual_is_not_vacuous() -> None:
    """The leak check changes something a leaking view would show."""
    game = Game(preset("spot-on", stash="secret"), 3, opener=0)
    s = game.new_initial_state()
    for f in (1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 4, 4, 4):
        s = s.apply_action(f)
    other = counterfactual(s, 0)
    assert other is not None
    assert other.hand(0) == s.hand(0) and other.hand(1) != s.hand(1)
    assert other.table.stash != s.table.stash
    assert other.view(0) == s.view(0)
    assert other.view(1) != s.view(1)  # seat 1 sees its own changed dice
