"""Properties of the poker-dice engine under random legal play (hypothesis over seeds)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from liarsdice.core.bidding.game import CHANCE
from liarsdice.core.poker import ACCEPT, Phase, PokerState
from poker_util import random_game as random_poker_game

MAX_EVENTS = 3000


def random_game(seed: int, players: int, lives: int, five_rule: bool) -> list[PokerState]:
    """Every state of one game of random legal play (liar a little more likely)."""
    return random_poker_game(seed, players, lives, five_rule, liar=0.3, limit=MAX_EVENTS)


games = st.tuples(st.integers(0, 2**32 - 1), st.integers(2, 7), st.integers(1, 3), st.booleans())


@settings(max_examples=40, deadline=None)
@given(games)
def test_games_end_with_one_winner(args: tuple[int, int, int, bool]) -> None:
    states = random_game(*args)
    s = states[-1]
    n = args[1]
    assert s.is_terminal()
    assert s.winner is not None and [p for p in range(n) if s.lives[p] > 0] == [s.winner]
    ret = s.returns()
    assert ret[s.winner] == 1.0 and abs(sum(ret)) < 1e-9
    assert all(abs(r + 1 / (n - 1)) < 1e-9 for p, r in enumerate(ret) if p != s.winner)
    assert sorted(s.placements()) == list(range(n)) and s.placements()[0] == s.winner


@settings(max_examples=40, deadline=None)
@given(games)
def test_lives_and_bids(args: tuple[int, int, int, bool]) -> None:
    states = random_game(*args)
    lives = args[2]
    before = (lives,) * args[1]
    for r in states[-1].results:
        drop = [b - a for a, b in zip(r.lives, before, strict=True)]
        assert all(x >= 0 for x in r.lives)
        if r.loser is None:
            assert drop == [0] * len(drop) and r.call == "five" and r.success
        else:
            assert drop[r.loser] == 1 and sum(drop) == 1
            assert r.eliminated == ((r.loser,) if r.lives[r.loser] == 0 else ())
        if r.call == "liar":
            assert r.loser == (r.caller if r.stood else r.bidder)
        before = r.lives
    for s in states:
        ids = [b for _, b in s.bids]
        assert ids == sorted(set(ids)), "bids strictly increase within a round"
        assert all(0 <= x <= lives for x in s.lives)
        if s.phase is not Phase.ROLL:
            assert len(s.dice) == 5
        legal = s.legal_actions()
        assert list(legal) == sorted(set(legal))
        if not s.is_terminal():
            assert legal


@settings(max_examples=30, deadline=None)
@given(games)
def test_replay_reproduces_every_state(args: tuple[int, int, int, bool]) -> None:
    states = random_game(*args)
    s = states[-1]
    g = s.game
    again = g.replay(s.history())
    assert again == s and again.results == s.results and again.lives == s.lives
    mid = states[len(states) // 2]
    again = g.replay(mid.history())
    assert again == mid and again.cup == mid.cup and again.outside == mid.outside
    for p in range(-1, g.num_players):
        assert again.view(p) == mid.view(p)


@settings(max_examples=30, deadline=None)
@given(games)
def test_action_notation_round_trips(args: tuple[int, int, int, bool]) -> None:
    states = random_game(*args)
    g = states[0].game
    for s in states[:: max(1, len(states) // 25)]:
        if s.is_terminal() or s.current_player == CHANCE:
            continue
        for a in s.legal_actions():
            assert g.string_to_action(g.action_to_string(a, s.current_player)) == a


@settings(max_examples=40, deadline=None)
@given(games)
def test_only_the_holder_sees_under_the_cup(args: tuple[int, int, int, bool]) -> None:
    for s in random_game(*args):
        for p in range(-1, s.game.num_players):
            v = s.view(p)
            if p != s.holder or s.phase not in (
                Phase.BID,
                Phase.PASS,
                Phase.ARRANGE,
                Phase.SHAKE,
            ):
                assert v.cup == ()
            else:
                assert v.cup == s.cup
            assert v.outside == s.outside and v.cup_count == len(s.cup)


@settings(max_examples=40, deadline=None)
@given(games, st.integers(0, 2**32 - 1))
def test_hidden_dice_do_not_change_other_views(args: tuple[int, int, int, bool], seed: int) -> None:
    """Change the dice last rolled under the cup and replay: nobody but the one who rolled
    them (the holder since the last accept, or Player One) may see a difference."""
    states = random_game(*args)
    events = states[-1].history()
    g = states[0].game
    rng = random.Random(seed)
    for e in rng.sample(range(1, len(states)), min(15, len(states) - 1)):
        st_ = states[e]
        if st_.is_terminal():
            continue
        accepts = [
            i
            for i in range(st_.round_start, e)
            if events[i][0] != CHANCE and events[i][1] == ACCEPT
        ]
        lo = accepts[-1] + 1 if accepts else st_.round_start
        knower = events[accepts[-1]][0] if accepts else st_.opener
        hidden = [i for i in range(lo, e) if states[i].rolling_under_cup()]
        if not hidden:
            continue
        changed = list(events[:e])
        for i in hidden:
            changed[i] = (CHANCE, events[i][1] % 6 + 1)
        alt = g.replay(changed)
        for p in range(-1, g.num_players):
            if p != knower:
                assert alt.view(p) == st_.view(p), (p, knower, e)
        if st_.player != CHANCE:
            assert alt.cup != st_.cup  # the change was real: the knower's dice differ
            if st_.sees_cup(knower):
                assert alt.view(knower) != st_.view(knower)
