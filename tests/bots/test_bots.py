"""Tests for liarsdice.bots: legal play everywhere, views only, and prob beats random."""

from __future__ import annotations

import random
from typing import Any

import pytest

import bot_util
from bot_util import rolled
from liarsdice.bots import ProbBot
from liarsdice.core.bidding import (
    BUY,
    EXACT,
    LIAR,
    NO_SHOW,
    Bid,
    Game,
    PlayerView,
    Rules,
    Stash,
    State,
    preset,
)
from liarsdice.families.bidding import BIDDING

BASIC = ("prob", "random")  # the strong levels have their own tests (test_bots_strong.py)

COMBOS: list[dict[str, Any]] = [
    {},
    {"show_reroll": "after"},
    {"show_reroll": "before"},
    {"stash": "secret"},
    {"stash": "open"},
    {"economy": "chips"},
    {"economy": "rich-man"},
    {"calling_advantage": True, "exact": "spot-on"},
    {"exact": "spot-on"},
    {"exact": "calza"},
    {"palifico": True},
    {"house_penalties": True, "drinking": True, "loss": "one"},
    bot_util.OPEN_RICH_CALZA,
    bot_util.SECRET_CHIPS_SPOT_ON,
]


def _assert_private(state: State, view: PlayerView) -> None:
    """The view holds the viewer's hidden dice and no one else's."""
    seat = view.player
    assert seat == state.current_player
    assert view.my_dice == state.hand(seat)
    if state.game.rules.stash is not Stash.OPEN:
        assert view.stash is None
    # A twin state where every other seat's hidden dice (and a secret stash) differ must look
    # exactly the same from this seat.
    t = state.table
    faces = state.game.rules.faces
    hands = tuple(
        h if p == seat else tuple(sorted((d % faces) + 1 for d in h)) for p, h in enumerate(t.hands)
    )
    stash = (
        t.stash if state.game.rules.stash is Stash.OPEN else tuple(d % faces + 1 for d in t.stash)
    )
    twin = State._make(
        state.game, t.copy(hands=hands, stash=stash), state.phase, state.player, state.bid,
        state.bidder, state.callers, state.flags, state.pending, state._log, state._n,
    )  # fmt: skip
    assert twin.view(seat) == view


def play_game(rules: Rules, kinds: list[str], seed: int, *, spy: bool = False) -> State:
    """Play one game between bots given only their views; every action must be legal."""
    check = _assert_private if spy else None
    state: State = bot_util.play_family(BIDDING, Game(rules, len(kinds)), kinds, seed, check)
    return state


@pytest.mark.parametrize("rules", bot_util.rules_cases(COMBOS))
def test_bots_play_legally_in_every_preset_and_combo(rules: Rules) -> None:
    n = rules.players
    mixed = [BASIC[i % len(BASIC)] for i in range(n)]
    for seed in range(6):
        kinds = mixed if seed % 3 else ["prob"] * n if seed % 2 else ["random"] * n
        state = play_game(rules, kinds, seed, spy=seed < 2)
        assert state.winner is not None or rules.scoring.value == "room"


@pytest.mark.parametrize("kind", BASIC)
def test_bot_only_ever_sees_its_own_view(kind: str) -> None:
    for name in ("spot-on", "milton-bradley"):
        rules = preset(name, stash="secret", players=3)
        play_game(rules, [kind] * 3, 7, spy=True)


def test_prob_beats_random_in_two_player_classic() -> None:
    rules = preset("classic", players=2)
    games = 200
    wins = 0
    for seed in range(games):
        kinds = ["prob", "random"] if seed % 2 == 0 else ["random", "prob"]
        state = play_game(rules, kinds, seed)
        wins += kinds[state.winner or 0] == "prob"
    # Measured: prob wins all 200 (random bids wildly and rarely calls); demand a clear margin.
    assert wins / games >= 0.9, wins


# ------------------------------------------------------------------ prob bot decisions


def test_prob_calls_an_impossible_bid() -> None:
    game = Game(preset("classic", players=2, dice=2, first_opener="given"))
    state = rolled(game, [2, 3, 4, 5]).apply_action(game.bid_action(Bid(4, 6)))
    bot = ProbBot(random.Random(0))
    assert bot.choose(game, state.view(1)) == LIAR


def test_prob_raises_a_bid_its_dice_make_certain() -> None:
    game = Game(preset("classic", players=2, dice=3, first_opener="given"))
    state = rolled(game, [2, 3, 4, 5, 5, 1]).apply_action(game.bid_action(Bid(2, 5)))
    bot = ProbBot(random.Random(0), bluff=0.0)
    action = bot.choose(game, state.view(1))  # holds 5 5 1: 3x5 is certain, 2x5 too
    bid = game.action_bid(action)
    assert bid is not None and bid.face == 5 and bid.quantity >= 3


def test_prob_calls_exact_when_it_is_likely() -> None:
    game = Game(preset("spot-on", players=2, dice=1, first_opener="given"))
    state = rolled(game, [2, 5]).apply_action(game.bid_action(Bid(1, 5)))
    # Seat 1 holds the 5: 1x5 is certain and exactly one 5 has chance 5/6.
    assert ProbBot(random.Random(0)).choose(game, state.view(1)) == EXACT


def test_prob_buys_a_cheap_die() -> None:
    game = Game(preset("spot-on", players=2, dice=2, economy="rich-man", first_opener="given"))
    state = rolled(game, [2, 3, 4, 5]).apply_action(game.bid_action(Bid(4, 6)))
    state = state.apply_action(LIAR).resolve_chance(random.Random(1))
    assert state.dice_counts[0] == 1  # seat 0 lost a die and opens (the bidder opens)
    view = state.view(state.current_player)
    assert BUY in view.legal_actions
    assert ProbBot(random.Random(0)).choose(game, view) == BUY
    # Too expensive next to its chips: no buy.
    assert ProbBot(random.Random(0), buy_ratio=1000).choose(game, view) != BUY


def test_prob_shows_matching_dice_before_a_doubtful_raise() -> None:
    game = Game(preset("milton-bradley", players=2, dice=4, first_opener="given"))
    # Seat 0: 2 3 4 5; seat 1: 6 6 2 3.
    state = rolled(game, [2, 3, 4, 5, 6, 6, 2, 3]).apply_action(game.bid_action(Bid(3, 6)))
    view = state.view(1)
    bot = ProbBot(random.Random(0), bluff=0.0, noise=0.0)
    # 3x6 is 80% likely, so it raises; its best raise 4x6 is only 41% likely: show the sixes
    # and re-roll the 2 and the 3 (each may come up a 6 or a wild 1).
    action = bot.choose(game, view)
    assert action == game.show_action([6, 6]), game.action_to_string(action)
    state = state.apply_action(action).apply_action(1).apply_action(4)
    view = state.view(1)
    assert view.my_dice == (1, 4) and view.shown[1] == (6, 6)
    assert LIAR not in view.legal_actions  # after a show it must raise
    bid = game.action_bid(bot.choose(game, view))
    assert bid is not None and bid.face == 6 and bid.quantity >= 4


def test_prob_show_step_before_order() -> None:
    rules = preset("milton-bradley", players=2, dice=4, show_reroll="before", first_opener="given")
    game = Game(rules)
    state = rolled(game, [2, 3, 4, 5, 6, 6, 2, 3]).apply_action(game.bid_action(Bid(2, 2)))
    state = state.apply_action(game.bid_action(Bid(5, 6)))
    view = state.view(1)
    assert view.phase == "show"
    action = ProbBot(random.Random(0)).choose(game, view)
    assert action == game.show_action([6, 6])  # 5x6 is doubtful: keep the sixes, re-roll 2 3
    # A safe bid needs no show.
    state = rolled(game, [2, 3, 4, 5, 6, 6, 2, 3]).apply_action(game.bid_action(Bid(1, 2)))
    state = state.apply_action(game.bid_action(Bid(2, 6)))
    assert ProbBot(random.Random(0)).choose(game, state.view(1)) == NO_SHOW


def test_prob_never_asks_and_handles_palifico() -> None:
    rules = preset("perudo", players=3, dice=2)
    for seed in range(20):
        state = play_game(rules, ["prob"] * 3, seed)
        assert all(not isinstance(a, str) for _, a in state.history())


def test_tuning_parameters_are_constructor_keywords() -> None:
    from liarsdice.bots import BayesBot, ExpertBot, PokerExpertBot, PokerProbBot

    rng = random.Random(0)
    bot = ProbBot(rng, safe=0.7)
    assert (bot.safe, bot.bluff, bot.rng) == (0.7, 0.05, rng)
    assert ProbBot(rng).safe == 0.8  # the default stays on the class
    bayes = BayesBot(rng, noise=0.0, pass_cost=0.3)
    assert (bayes.noise, bayes.pass_cost, bayes.bluff, bayes.show_below) == (0.0, 0.3, 0.04, 0.6)
    expert = ExpertBot(rng, think=0.2, worlds=8, alpha=2.0)
    assert (expert.think, expert.worlds, expert.alpha, expert.bluff) == (0.2, 8, 2.0, 0.0)
    assert repr(expert) == "ExpertBot(think=0.2)"
    poker = PokerExpertBot(rng, think=0.1, call_rate=0.5)
    assert (poker.think, poker.call_rate, poker.bluff, repr(poker)) == (
        0.1,
        0.5,
        0.0,
        "PokerExpertBot()",
    )
    assert PokerProbBot(rng, rho=0.5).rho == 0.5
    with pytest.raises(TypeError, match="unexpected keyword argument 'sfe'"):
        ProbBot(rng, sfe=0.7)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        ProbBot(rng, 0.7)  # type: ignore[misc]  # keywords only
    twin = ProbBot(rng)
    assert twin != ProbBot(rng) and len({twin, ProbBot(rng)}) == 2  # compared by identity


def test_the_beginner_bids_within_reason_and_stays_weak() -> None:
    """The weakest level ('random', the browser's Beginner) never bids far past the count a
    player would expect from the dice in play (unless no call is open to it), yet prob beats
    it nearly always."""
    from liarsdice.arena import ArenaSpec, run_arena
    from liarsdice.bots import RandomBot
    from liarsdice.odds import match_probability, unseen_dice

    game = Game(preset("classic", players=5))
    over = []
    for seed in range(40):
        state = game.new_initial_state().resolve_chance(random.Random(seed))
        bot = RandomBot(random.Random(seed))
        while not state.is_terminal() and state.round == 0:
            if state.current_player < 0:
                state = state.resolve_chance(random.Random(seed))
                continue
            view = state.view(state.current_player)
            action = bot.choose(game, view)
            bid = game.action_bid(action)
            if bid is not None and LIAR in view.legal_actions:
                in_play = unseen_dice(view) + len(view.my_dice)
                over.append(bid.quantity - in_play * match_probability(game, view, bid.face))
            state = state.apply_action(action)
    assert over and max(over) <= 1.0  # the 'margin'
    uniform = RandomBot(random.Random(0), plausible=False)  # the old baseline, still there
    dealt = game.new_initial_state().resolve_chance(random.Random(1))
    view = dealt.view(dealt.current_player)
    assert len({uniform.choose(game, view) for _ in range(300)}) > 20
    spec = ArenaSpec(preset("classic", players=2), ("random", "prob"), games=100, seed=5)
    wins = {s.label: s.wins for s in run_arena(spec, bootstrap=0).standings}
    assert wins["prob"] >= 90
