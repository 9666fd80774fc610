"""The post-game analysis (docs/ANALYSIS.md) on small hand-made records whose probabilities
are worked out here by hand (or by brute force over every roll), for both rule families."""

from __future__ import annotations

import glob
import itertools
import json
import math
import time
from pathlib import Path
from typing import Any

import pytest

from liarsdice.analysis import FORMAT, VERSION, analyse
from liarsdice.analysis.common import mark_of
from liarsdice.cli.analyse import analysis_text
from liarsdice.core.errors import RecordError
from liarsdice.core.poker import parse_poker_bid, satisfies
from record_util import BIDDING_EXAMPLE

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "formats"

ONE_DIE = {
    "liarsdice": 1,
    "rules": "openspiel",  # two players, one die each, 6s wild
    "players": ["ann", "bob"],
    "rounds": [
        {
            "dice": {"ann": [3], "bob": [5]},
            "moves": [
                {"player": "ann", "bid": "1x3"},
                {"player": "bob", "bid": "2x3"},
                {"player": "ann", "call": "liar"},
            ],
        }
    ],
}

POKER = {
    "liarsdice": 1,
    "rules": "poker-dice",
    "options": {"lives": 1},
    "players": ["ann", "bob"],
    "rounds": [
        {
            "opener": "ann",
            "roll": ["K", "K", "9", "Q", "A"],
            "moves": [
                {"player": "ann", "bid": "pair K"},
                {
                    "player": "bob",
                    "accept": True,
                    "out": ["K", "K"],
                    "shake": True,
                    "reroll": [],
                    "rolled": ["K", "9", "J"],
                    "bid": "three K",
                },
                {"player": "ann", "call": "liar"},
            ],
        }
    ],
}


def _binom_at_least(k: int, n: int, p: float) -> float:
    return sum(math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(max(k, 0), n + 1))


def _brute(known: tuple[int, ...], bid: str) -> float:
    """P(known dice + fresh dice make at least ``bid``), over every roll of the fresh dice."""
    b = parse_poker_bid(bid)
    rolls = list(itertools.product(range(1, 7), repeat=5 - len(known)))
    return sum(satisfies(known + roll, b) for roll in rolls) / len(rolls)


def test_one_die_each_with_wilds() -> None:
    a = analyse(ONE_DIE)
    assert a["format"] == FORMAT and a["version"] == VERSION == 1
    opening, raise_, call = a["moves"]
    assert opening["faced"] is None and opening["p_known"] is None and opening["loss"] is not None
    # bob (a 5) faces 1x3: ann's one die must be a 3 or a wild 6; it is a 3.
    assert raise_["faced"] == "1x3"
    assert raise_["p_known"] == pytest.approx(1 / 3, abs=1e-4)
    assert raise_["p_exact_known"] == pytest.approx(1 / 3, abs=1e-4)
    assert (raise_["p_actual"], raise_["p_exact_actual"]) == (1.0, 1.0)
    # ann (a 3) faces 2x3: bob's die must be a 3 or a 6; it is a 5, so the call is right.
    assert call["faced"] == "2x3" and call["kind"] == "call"
    assert call["p_known"] == pytest.approx(1 / 3, abs=1e-4)
    assert (call["p_actual"], call["p_exact_actual"]) == (0.0, 0.0)
    assert a["finished"] and a["winner"] == "ann"


def test_the_expert_sees_only_the_deciders_view() -> None:
    """Other dice under the cups change what really was there, never the judgement."""
    other = json.loads(json.dumps(ONE_DIE))
    other["rounds"][0]["dice"]["bob"] = [3]  # now 2x3 is true
    a, b = analyse(ONE_DIE), analyse(other)
    for i in (0, 2):  # ann's decisions
        for key in ("p_known", "p_exact_known", "expert", "agrees", "loss", "mark"):
            assert a["moves"][i][key] == b["moves"][i][key]
    assert (a["moves"][2]["p_actual"], b["moves"][2]["p_actual"]) == (0.0, 1.0)
    poker = json.loads(json.dumps(POKER))
    poker["rounds"][0]["moves"][1]["rolled"] = ["9", "10", "J"]  # the bid is now a lie
    c, d = analyse(POKER), analyse(poker)
    for key in ("p_known", "expert", "agrees", "loss", "mark"):
        assert c["moves"][2][key] == d["moves"][2][key]
    assert (c["moves"][2]["p_actual"], d["moves"][2]["p_actual"]) == (1.0, 0.0)


def test_an_exact_call_without_wilds() -> None:
    record = {
        "liarsdice": 1,
        "rules": "spot-on",  # no wild face
        "options": {"dice": 1},
        "players": ["ann", "bob"],
        "rounds": [
            {
                "opener": "ann",
                "dice": {"ann": [2], "bob": [4]},
                "moves": [{"player": "ann", "bid": "1x4"}, {"player": "bob", "call": "exact"}],
            }
        ],
    }
    a = analyse(record)
    call = a["moves"][1]
    # bob's own 4 makes one: the bid is certain, and exactly right unless ann has a 4 too.
    assert (call["p_known"], call["p_actual"]) == (1.0, 1.0)
    assert call["p_exact_known"] == pytest.approx(5 / 6, abs=1e-4)
    assert call["p_exact_actual"] == 1.0  # ann's 2
    assert type(call["loss"]) is float  # plain JSON numbers, never NumPy's
    assert "=83%  =100%" in analysis_text(a)


def test_milton_bradley_counts_wild_ones_and_shown_dice() -> None:
    a = analyse(BIDDING_EXAMPLE)  # ann 1 3 3 5 6, bob 2 2 4 6 6, cy 1 1 5 5 5; ones wild
    _, bob, cy = a["moves"]
    # bob faces 3x5 holding no 5 and no 1: three of the ten other dice, each 1/3.
    assert bob["p_known"] == pytest.approx(_binom_at_least(3, 10, 1 / 3), abs=1e-4)
    assert bob["played"] == "5x6, show 6 6" and bob["p_actual"] == 1.0  # seven 5s and 1s
    # cy faces 5x6: his two 1s and bob's two shown 6s count; one more among the 8 unseen.
    assert cy["p_known"] == pytest.approx(1 - (2 / 3) ** 8, abs=1e-4)
    assert cy["p_exact_known"] == pytest.approx(8 * (1 / 3) * (2 / 3) ** 7, abs=1e-4)
    assert (cy["p_actual"], cy["p_exact_actual"]) == (1.0, 0.0)  # seven 6s and 1s
    assert cy["expert"] is not None and cy["loss"] >= 0
    assert not a["finished"] and a["winner"] is None


def test_poker_dice_odds_from_what_the_player_knows() -> None:
    a = analyse(POKER)
    opening, accept, call = a["moves"]
    assert opening["kind"] == "open" and opening["p_known"] is None and opening["loss"] is None
    assert opening["expert"] is not None
    # bob knows none of the five dice under the cup: every roll of five counts.
    assert accept["faced"] == "pair K" and accept["kind"] == "accept"
    assert accept["p_known"] == pytest.approx(_brute((), "pair K"), abs=1e-4)
    assert accept["p_actual"] == 1.0  # K K 9 Q A
    # ann sees K K outside; the shaken cup's three dice are fresh to her.
    assert call["faced"] == "three K"
    assert call["p_known"] == pytest.approx(_brute((5, 5), "three K"), abs=1e-4)
    assert call["p_actual"] == 1.0  # K K K 9 J stands: ann loses her last life
    assert call["loss"] is not None and call["loss"] >= 0
    assert a["finished"] and a["winner"] == "bob"


def test_the_facts_behind_a_mark() -> None:
    """A judged move carries the best move and both values, the loss their difference."""
    _, raise_, call = analyse(ONE_DIE)["moves"]
    assert raise_["mark"] == "blunder" and raise_["best"] == raise_["expert"] == "1x5"
    assert raise_["best_value"] > raise_["value"]  # win chances: bob's 2x3 against 1x5
    assert raise_["loss"] == pytest.approx(raise_["best_value"] - raise_["value"], abs=2e-4)
    assert call["best"] == "liar" and call["value"] == call["best_value"]
    poker = analyse(POKER)
    assert poker["values"] == "lose_life" and analyse(ONE_DIE)["values"] == "win"
    call = poker["moves"][2]  # ann calls three K with K K outside: a life at stake
    assert call["best"] in ("liar", "accept") and call["value"] >= call["best_value"]
    assert (call["loss"] == 0) == (call["best"] == "liar")


def test_a_call_is_scored_once() -> None:
    """The judge adds the raise played to its candidates, never a call (as if a bid): a
    right call of the expert's own choice cannot be a blunder."""
    record = {
        "liarsdice": 1,
        "rules": "classic",
        "options": {"dice": 1},
        "players": ["bob", "ann"],
        "rounds": [
            {
                "opener": "bob",
                "dice": {"bob": [3], "ann": [3]},
                "moves": [{"player": "bob", "bid": "1x6"}, {"player": "ann", "call": "liar"}],
            }
        ],
    }
    call = analyse(record)["moves"][1]
    assert call["loss"] is not None and call["value"] is not None
    if call["agrees"]:
        assert call["loss"] == 0 and call["best"] == "liar"
    else:
        assert call["best"] != "liar" and call["best_value"] > call["value"]


def test_moves_the_computer_made_are_marked_and_not_counted() -> None:
    plain = analyse(ONE_DIE)
    a = analyse(ONE_DIE, computer=[1])  # bob was away: the computer raised to 2x3 for him
    opening, raise_, call = a["moves"]
    assert raise_["computer"] and not opening["computer"] and not call["computer"]
    assert raise_["mark"] == "blunder"  # still judged, as a move...
    bob = a["players"]["bob"]  # ...but not bob's: nothing of his is counted
    assert (bob["computer"], bob["decisions"], bob["judged"], bob["blunders"]) == (1, 0, 0, 0)
    assert bob["total_loss"] == 0 and bob["average_loss"] is None
    assert plain["players"]["bob"]["blunders"] == 1 and plain["players"]["bob"]["computer"] == 0
    assert a["players"]["ann"] == plain["players"]["ann"]


def test_a_move_of_several_actions_is_the_computers_if_any_of_them_is() -> None:
    from liarsdice.families import replay_record

    # ann bids (action 0); bob shows (1), re-rolls (chance, not counted) and raises (2); cy
    # calls (3)
    for computer, expected in (
        ([], [False, False, False]),
        ([0], [True, False, False]),
        ([1], [False, True, False]),
        ([2], [False, True, False]),
        ([3], [False, False, True]),
        ([0, 3], [True, False, True]),
    ):
        moves = analyse(BIDDING_EXAMPLE, computer)["moves"]
        assert [m["computer"] for m in moves] == expected, computer
    # poker: bob's move is an accept, dice left out, a shake and a raise; ann's call is last
    actions = [p for p, _ in replay_record(POKER).history() if p >= 0]
    assert len(actions) > 3
    flags = [m["computer"] for m in analyse(POKER, [len(actions) - 1])["moves"]]
    assert flags == [False, False, True]
    assert [m["computer"] for m in analyse(POKER, [1])["moves"]] == [False, True, False]


def test_marks_and_summary() -> None:
    assert [mark_of(x) for x in (None, 0.0, 0.02, 0.05, 0.1)] == [
        None,
        None,
        "inaccuracy",
        "mistake",
        "blunder",
    ]
    a = analyse(json.loads((GOLDEN / "record-spot-on-14.json").read_text()))
    for name, s in a["players"].items():
        mine = [m for m in a["moves"] if m["player"] == name]
        judged = [m for m in mine if m["loss"] is not None]
        assert s["decisions"] == len(mine) and s["judged"] == len(judged)
        assert s["blunders"] == sum(m["mark"] == "blunder" for m in judged)
        assert s["average_loss"] == pytest.approx(
            sum(m["loss"] for m in judged) / len(judged), abs=1e-3
        )
    assert sum(s["blunders"] + s["mistakes"] for s in a["players"].values()) > 0
    assert "Players" in analysis_text(a) and "blunder" in analysis_text(a)


@pytest.mark.parametrize(
    "path", sorted(glob.glob(str(GOLDEN / "record-*.json"))), ids=lambda p: Path(p).stem
)
def test_every_golden_record_is_analysed_deterministically_and_fast(path: str) -> None:
    data: dict[str, Any] = json.loads(Path(path).read_text())
    start = time.perf_counter()
    a = analyse(data)
    assert time.perf_counter() - start < 5.0
    assert len(a["moves"]) == sum(len(r["moves"]) for r in data["rounds"])
    for m in a["moves"]:
        for key in ("p_known", "p_actual", "p_exact_known", "p_exact_actual"):
            assert m[key] is None or 0.0 <= m[key] <= 1.0
        assert m["loss"] is None or m["loss"] >= 0
    assert analyse(data) == a  # no clock, no global randomness


def test_a_bad_record_is_a_record_error() -> None:
    with pytest.raises(RecordError):
        analyse({"liarsdice": 1, "rules": "nope", "players": ["a", "b"], "rounds": []})
    bad = json.loads(json.dumps(ONE_DIE))
    bad["rounds"][0]["moves"][1]["bid"] = "1x2"  # does not beat 1x3
    with pytest.raises(RecordError):
        analyse(bad)


VARIANTS: list[tuple[str, dict[str, Any]]] = [
    ("classic", {}),
    ("perudo", {}),
    ("spot-on", {}),
    ("room", {}),
    ("house-rules", {}),
    ("milton-bradley", {"show_reroll": "before"}),
    ("classic", {"show_reroll": "after", "stash": "open"}),
    ("spot-on", {"stash": "secret"}),
    ("spot-on", {"economy": "rich-man"}),
    ("spot-on", {"calling_advantage": True}),
    ("house-rules", {"economy": "rich-man", "exact": "spot-on"}),
    ("snyd-joker", {}),
]


def _consistent(a: dict[str, Any]) -> None:
    for m in a["moves"]:
        for key in ("p_known", "p_actual", "p_exact_known", "p_exact_actual"):
            assert m[key] is None or 0.0 <= m[key] <= 1.0
        assert m["p_actual"] in (None, 0.0, 1.0)
        if m["p_known"] == 1.0:  # certain from what the player saw: true
            assert m["p_actual"] == 1.0
        if m["p_known"] == 0.0:
            assert m["p_actual"] == 0.0
        assert m["loss"] is None or m["loss"] >= 0
        if m["loss"] is not None:  # the facts of the sentence that says why
            assert m["best"] and m["value"] is not None and m["best_value"] is not None
            if m["agrees"]:  # the expert's best move: nothing lost
                assert m["loss"] == 0 and m["value"] == m["best_value"]
            if a["values"] == "lose_life":
                assert m["value"] >= m["best_value"]
            else:
                assert m["loss"] == pytest.approx(m["best_value"] - m["value"], abs=2e-4)


def _every_move_the_computers(a: dict[str, Any], record: Any) -> None:
    """Every action played by the computer: every move is the computer's, no one's counted."""
    from liarsdice.families import replay_record

    actions = sum(1 for p, _ in replay_record(record).history() if p >= 0)
    everything = analyse(record, range(actions))
    assert all(m["computer"] for m in everything["moves"])
    assert all(s["decisions"] == 0 for s in everything["players"].values())
    assert sum(s["computer"] for s in everything["players"].values()) == sum(
        s["decisions"] for s in a["players"].values()
    )


@pytest.mark.parametrize(("name", "over"), VARIANTS, ids=lambda v: str(v))
def test_random_bidding_games_of_every_kind(name: str, over: dict[str, Any]) -> None:
    from liarsdice.families import record_from_state, replay_summary
    from record_util import play_bidding

    for seed in range(3):
        record = record_from_state(play_bidding(name, over, seed))
        a = analyse(record)
        assert len(a["moves"]) == sum(len(r["moves"]) for r in record.rounds)
        _consistent(a)
        # The call that ends each round: p_actual is whether the bid stood.
        summary = replay_summary(record)
        for r, rnd in enumerate(summary["rounds"]):
            last = [m for m in a["moves"] if m["round"] == r][-1]
            if last["played"] == "liar" and last["faced"] == rnd["bid"]:
                quantity = int(rnd["bid"].split("x")[0])
                assert last["p_actual"] == float(rnd["count"] >= quantity)
        if seed == 0:
            _every_move_the_computers(a, record)
    partial = record_from_state(play_bidding(name, over, 7, stop=25))
    _consistent(analyse(partial))


@pytest.mark.parametrize("five", [True, False])
def test_random_poker_games(five: bool) -> None:
    from liarsdice.families import record_from_state, replay_summary
    from record_util import random_poker_state

    for seed in range(3):
        record = record_from_state(random_poker_state(seed, 3, five))
        a = analyse(record)
        assert len(a["moves"]) == sum(len(r["moves"]) for r in record.rounds)
        _consistent(a)
        if seed == 0:
            _every_move_the_computers(a, record)
        summary = replay_summary(record)
        for r, rnd in enumerate(summary["rounds"]):
            last = [m for m in a["moves"] if m["round"] == r][-1]
            if rnd["call"] == "liar":
                assert last["kind"] == "call" and last["p_actual"] == float(rnd["stood"])
