"""What the families add to a frame's view so that a page never reads notation nor works out
odds itself (docs/PROTOCOL.md, "Moves"): every legal move, history entry and ``action`` event
with its structured ``move``, the same move the notation says; each bid with its chance from
the seat's own view (``liarsdice.odds``, as the bots and the analysis read it), and the bid to
beat's odds, for that seat only; the poker seat's own hand as a claim while it sees its dice;
each result's bid (and a poker hand's reading) structured."""

from __future__ import annotations

import random
from typing import Any

import pytest

from liarsdice.core.api import StateAPI
from liarsdice.core.bidding.bid import Bid
from liarsdice.core.bidding.state import State
from liarsdice.core.poker import Category, PokerBid, format_poker_bid, hand_bid, parse_face
from liarsdice.families import family_of
from liarsdice.families.base import Family, own
from liarsdice.odds import bid_odds, known_matches, unseen_dice
from liarsdice.server.room.state import Event
from liarsdice.server.views import event_dict

GAMES = [("classic", 4), ("milton-bradley", 3), ("perudo", 3), ("poker-dice", 3)]


def _positions(preset: str, players: int, seed: int = 7) -> list[StateAPI]:
    """The states of a few random games where someone is to move."""
    family = family_of(preset)
    game = family.new_game(family.rules(preset, {}, players), [f"p{i}" for i in range(players)])
    rng = random.Random(seed)
    out = []
    for _ in range(4):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state = state.resolve_chance(rng)
                continue
            out.append(state)
            state = state.apply_action(rng.choice(state.legal_actions()))
    return out


def _notation(move: dict[str, Any]) -> str:
    """The notation a structured move stands for, written from its parts."""

    def faces(key: str) -> str:
        return " ".join(move[key]) or "none"

    match move["kind"]:
        case "bid":
            return f"{move['quantity']}x{move['face']}"
        case "call":
            return str(move["call"])
        case "show":
            return "show " + ",".join(str(f) for f in move["dice"])
        case "no_show":
            return "no-show"
        case "buy" | "accept":
            return str(move["kind"])
        case "pass":
            return str(move["direction"])
        case "arrange":
            return f"out {faces('outside')}"
        case "roll":
            rolled = f"reroll {faces('dice')}" if move["dice"] else ""
            if move["shake"]:
                return f"shake {rolled}".strip()
            return rolled or "no reroll"
        case "keep":
            return f"keep {faces('dice')}"
        case "claim":
            category = Category[move["category"].upper().replace(" ", "_")]
            ranks = tuple(parse_face(f) for f in move["ranks"])
            kickers = tuple(parse_face(f) for f in move["kickers"])
            return format_poker_bid(PokerBid(category, ranks, kickers))
    raise AssertionError(move)


@pytest.mark.parametrize(("preset", "players"), GAMES)
def test_every_legal_move_is_the_move_its_notation_says(preset: str, players: int) -> None:
    family = family_of(preset)
    kinds = set()
    for state in _positions(preset, players):
        seat = state.current_player
        legal = family.legal_frame(state, seat, state.legal_actions())
        assert [e["action"] for e in legal] == list(state.legal_actions())
        for entry in legal:
            assert entry["text"] == state.game.action_to_string(entry["action"], seat)
            assert _notation(entry["move"]) == entry["text"], entry
            kinds.add(entry["move"]["kind"])
    expected = {"bid", "call"} if family.name == "bidding" else {"claim", "call", "pass"}
    assert expected <= kinds


@pytest.mark.parametrize(("preset", "players"), GAMES[:3])
def test_each_bid_has_its_chance_from_the_seats_own_view(preset: str, players: int) -> None:
    family = family_of(preset)
    checked = 0
    for position in _positions(preset, players):
        state = own(position, State)
        seat = state.current_player
        game, view = state.game, state.view(seat)
        for entry in family.legal_frame(state, seat, state.legal_actions()):
            move = entry["move"]
            if move["kind"] == "bid":
                chance = bid_odds(game, view, Bid(move["quantity"], move["face"]))[0]
                assert entry["chance"] == round(chance, 4), entry
                checked += 1
            else:
                assert "chance" not in entry
        frame = family.view_frame(state, seat)
        bid = view.current_bid
        if bid is None:
            assert frame["current_bid_move"] is None and frame["current_bid_odds"] is None
            continue
        at_least, exactly = bid_odds(game, view, bid)
        assert frame["current_bid_move"] == {
            "kind": "bid",
            "quantity": bid.quantity,
            "face": bid.face,
        }
        assert frame["current_bid_odds"] == {
            "at_least": round(at_least, 4),
            "exactly": round(exactly, 4),
            "known": known_matches(game, view, bid),
            "unseen": unseen_dice(view),
        }
        # a spectator sees the bid, never odds (they are a seat's own knowledge)
        public = family.view_frame(state, -1)
        assert public["current_bid_move"] == frame["current_bid_move"]
        assert public["current_bid_odds"] is None
    assert checked > 100


def test_the_poker_seats_own_hand_as_a_claim_only_while_it_sees_its_dice() -> None:
    family = family_of("poker-dice")
    seen = 0
    for state in _positions("poker-dice", 3):
        for seat in (-1, 0, 1, 2):
            frame = family.view_frame(state, seat)
            dice = frame["cup"] + frame["outside"]
            if seat >= 0 and frame["cup"] and len(dice) == 5:
                reading = hand_bid([parse_face(f) for f in dice])
                assert _notation(frame["hand_claim"]) == format_poker_bid(reading)
                seen += 1
            else:
                assert frame["hand_claim"] is None
            if frame["current_bid"] is not None:
                assert _notation(frame["current_bid_move"]) == frame["current_bid"]
    assert seen > 0


@pytest.mark.parametrize(("preset", "players"), GAMES)
def test_results_and_events_carry_the_moves_structured(preset: str, players: int) -> None:
    family: Family = family_of(preset)
    state = _positions(preset, players)[-1]  # the last move of a game: results of every round
    frame = family.view_frame(state, 0)
    assert frame["results"]
    for result in frame["results"]:
        assert _notation(result["bid_move"]) == result["bid"]
        if "reading" in result:  # poker dice: the hand's reading
            assert _notation(result["reading_move"]) == result["reading"]
    game = state.game
    text = game.action_to_string(state.legal_actions()[0], state.current_player)
    event = Event(9, "action", {"seat": 0, "action": 1, "text": text})
    assert event_dict(event, game)["move"] == family.move_json(game, text)
    assert "move" not in event_dict(event)  # without the game: the logged fields only
