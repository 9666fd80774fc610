"""What a poker-dice player legitimately knows of the dice under the cup (issue "Play that
feels like a game", bug 3): the dice it saw there (or saw put there) that have not been shaken
since. The view carries it (``known_cup``, and the public ``cup_known_by``), and the hints and
every bot use it."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from liarsdice.bots.poker.simple import (
    PokerProbBot,
    accept_odds,
    known_dice,
    next_knows_cup,
    next_sees,
)
from liarsdice.core.bidding.game import CHANCE
from liarsdice.core.poker import (
    ACCEPT,
    LIAR,
    Phase,
    PokerGame,
    PokerRules,
    PokerState,
    bid_id,
    parse_face,
)
from liarsdice.families.poker import POKER
from liarsdice.families.poker.terminal import PokerTerminal, parse_poker_command
from poker_util import play
from poker_util import random_game as random_poker_game


def faces(text: str) -> tuple[int, ...]:
    return tuple(sorted(parse_face(f) for f in text.split()))


def issue_state() -> PokerState:
    """The issue's round: you pass 10 J J J K on; the next player puts 10 K outside, rolls
    them in view (J 9) without shaking and bids four J 9, which is true; the cup comes back."""
    g = PokerGame(PokerRules(players=2), ["you", "prob-1"])
    s = play(g.new_initial_state(), "roll 10 J J J K", "three J K 10", "accept")
    s = play(s, "out 10 K", "reroll 10 K", "roll J 9", "four J 9")
    assert s.current_player == 0 and s.phase is Phase.RESPOND
    return s


# ---------------------------------------------------------------------------- the view
def test_the_view_keeps_the_dice_the_player_saw_and_nobody_shook() -> None:
    s = issue_state()
    view = s.view(0)
    assert view.cup == () and view.cup_count == 3
    assert view.known_cup == faces("J J J") and view.outside == faces("9 J")
    assert known_dice(view) == faces("9 J J J J")
    assert s.view(-1).known_cup == ()  # a spectator saw none of them
    assert s.view(-1).cup_known_by == (0, 1)  # public: both held it since it was shaken


def test_a_shake_forgets_and_dice_put_under_the_cup_in_view_are_known() -> None:
    g = PokerGame(PokerRules(players=3))
    s = play(g.new_initial_state(), "roll 9 10 J Q K", "pair K", "left", "accept")
    s = play(s, "out 9 10", "reroll 9 10", "roll A A", "pair A K")  # A A now outside
    assert s.view(0).known_cup == faces("J Q K") and s.view(1).known_cup == faces("J Q K")
    assert s.view(2).known_cup == () and s.view(2).cup_count == 3
    s = play(s, "accept", "out A", "shake")  # an A goes under, then the cup is shaken
    assert all(s.view(p).known_cup == () for p in range(3))
    s = play(s, "roll 9 9 9 9")  # seat 2 looks again before bidding: only it knows
    assert s.view(2).known_cup == s.cup == faces("9 9 9 9")
    assert s.view(0).known_cup == () and s.view(-1).cup_known_by == (2,)
    s = play(s, "four 9 A", "accept")
    assert s.view(0).known_cup == s.cup  # the accepter looks
    s = play(s, "out 9 9")  # two nines come out and the A goes under, all in view
    assert s.cup == faces("9 9 A")
    assert s.view(2).known_cup == s.cup  # the last holder's knowledge stays exact
    assert s.view(1).known_cup == faces("A")  # seat 1 saw the A put under the cup
    assert s.view(-1).known_cup == s.view(0).public_cup == faces("A")  # and so did everyone
    assert s.view(-1).cup_known_by == (0, 2)
    # seat 0 passes it on to seat 1 without shaking: seat 1 will know of the A, no more
    s = play(s, "no reroll")
    assert next_sees(s.view(0)) == tuple(sorted(s.outside + faces("A")))
    s = play(s, "four 10")
    status = "\n".join(PokerTerminal(g).status(s, 1))
    assert "Under the cup: 3 dice: A, which you know of (you saw it there" in status
    assert "2 dice you cannot see" in status
    assert "(You passed the cup on with J Q K under it; it has been shaken since.)" in status


def test_what_a_player_sees_under_the_cup_is_not_shown_to_anyone_else() -> None:
    s = issue_state()
    other = play(s.game.new_initial_state(), "roll 10 J Q Q K", "three J K 10", "accept")
    other = play(other, "out 10 K", "reroll 10 K", "roll J 9", "four J 9")
    # the cup differs (J J J against J Q Q): only the two who looked under it can tell
    assert s.view(0) != other.view(0) and s.view(1) != other.view(1)
    assert s.view(-1) == other.view(-1)


# ------------------------------------------------------------------- hints and the bots
def test_the_hint_counts_the_dice_the_player_knows() -> None:
    s = issue_state()
    terminal = PokerTerminal(s.game)
    hint = "\n".join(terminal.hint(s, 0))
    assert "four J 9 is certainly true" in hint, hint
    assert "the J J J you know are under the cup" in hint
    assert "The prob bot would play: accept." in hint
    status = "\n".join(terminal.status(s, 0))
    assert "Under the cup: J J J (you know them: you saw them there or put there" in status
    p_true, _ = accept_odds(s.view(0), five_rule=True)
    assert p_true == 1.0


@pytest.mark.parametrize("level", ["prob", "bayes", "expert"])
def test_the_bots_do_not_call_a_bid_they_know_is_true(level: str) -> None:
    s = issue_state()
    for seed in range(5):
        bot = POKER.make_bot(level, random.Random(seed))
        assert bot.choose(s.game, s.view(0)) == ACCEPT


@pytest.mark.parametrize("level", ["prob", "bayes", "expert"])
def test_the_bots_call_a_bid_they_know_is_false(level: str) -> None:
    g = PokerGame(PokerRules(players=2))
    s = play(g.new_initial_state(), "roll 10 J J J K", "three J K 10", "accept")
    s = play(s, "out 10 K", "reroll 10 K", "roll Q 9", "four J 9")  # only three jacks
    for seed in range(5):
        bot = POKER.make_bot(level, random.Random(seed))
        assert bot.choose(g, s.view(0)) == LIAR


def test_the_holder_knows_who_will_know_an_unshaken_cup() -> None:
    s = play(PokerGame(PokerRules(players=2)).new_initial_state(), "roll 9 9 Q K A", "pair 9")
    s = play(s, "accept")
    assert next_knows_cup(s.view(1))  # the cup goes back to who passed it
    g3 = PokerGame(PokerRules(players=3))
    s = play(g3.new_initial_state(), "roll 9 9 Q K A", "pair 9", "left", "accept")
    assert not next_knows_cup(s.view(1))  # seat 2 never saw it
    # 9 10 J Q A cannot beat pair A: passed back unchanged, it is a bluff the player who
    # passed it knows for one, so the accepter never plans to pass it on as it is
    s = play(PokerGame(PokerRules(players=2)).new_initial_state(), "roll 9 10 J Q A")
    s = play(s, "pair A", "accept")
    bot = PokerProbBot(random.Random(0), bluff=0.0)
    for level in ("prob", "bayes", "expert"):
        planner = POKER.make_bot(level, random.Random(0))
        assert isinstance(planner, PokerProbBot)
        _, roll = planner.plan(s.game, s.view(1))
        assert s.game.action_roll(roll) != (False, ()), level
    cur = s.view(1).current_bid
    assert cur is not None
    hand = faces("9 10 J Q A")
    b = bid_id(cur)
    assert bot._static((), hand, b, known=hand) == 1.0  # called for sure
    assert bot._static((), hand, b, known=()) < 1.0


# ------------------------------------------------------------------------- properties
def random_game(seed: int, players: int, five: bool) -> list[PokerState]:
    return random_poker_game(seed, players, 2, five, liar=0.2, limit=2000)


def _within(part: tuple[int, ...], whole: tuple[int, ...]) -> bool:
    have = Counter(whole)
    return all(have[f] >= k for f, k in Counter(part).items())


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 5), st.booleans())
def test_knowledge_is_true_and_replayable(seed: int, players: int, five: bool) -> None:
    states = random_game(seed, players, five)
    g = states[0].game
    for s in states:
        for p in range(players):
            view = s.view(p)
            assert _within(view.known_cup, s.cup), (p, view.known_cup, s.cup)
            if s.sees_cup(p):
                assert view.known_cup == s.cup
            assert (p in view.cup_known_by) == (bool(s.cup) and view.known_cup == s.cup)
        if s.player == CHANCE and s.phase is Phase.REROLL and s.pending[0]:
            assert all(s.view(p).known_cup == () for p in range(players))  # being shaken
    mid = states[len(states) // 2]
    again = g.replay(mid.history())
    assert all(again.view(p) == mid.view(p) for p in range(-1, players))


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 4))
def test_every_suggestion_reads_back_as_the_move(seed: int, players: int) -> None:
    """Bug 4: what the hint says the prob bot would play can be typed at the prompt."""
    states = random_game(seed, players, True)
    g = states[0].game
    terminal = PokerTerminal(g)
    for s in states[:: max(1, len(states) // 30)]:
        if s.is_terminal() or s.current_player == CHANCE:
            continue
        seat = s.current_player
        lines = terminal.hint(s, seat)
        moves = [
            line.split(": ", 1)[1].rstrip(".")
            for line in lines
            if line.startswith(("The prob bot would play: ", "Then it would play: "))
        ]
        assert moves, lines
        if s.phase == Phase.ARRANGE:  # the arrangement and its roll on one line, as read
            answer = terminal.arrange_and_roll(s, moves[0])
            assert answer is not None and answer.action in s.legal_actions(), (moves[0], answer)
            continue
        kind, move = parse_poker_command(moves[0])
        assert kind == "move", (moves[0], move)
        assert g.string_to_action(move) in s.legal_actions()
        if len(moves) > 1:  # the roll planned after arranging
            assert parse_poker_command(moves[1])[0] == "move", moves[1]
