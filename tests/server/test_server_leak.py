"""The leak test: many bot-driven games with every outgoing frame captured.

Every frame the server renders, for every seat and every spectator, is checked against the
true state at the moment it was sent: a seat's frames hold its own hidden dice (or the cup
while it looks under it) and public facts only; a spectator's hold public facts only; no
server seed appears before its round is over; no chance outcome, token or client seed
appears in an event.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from liarsdice.core.bidding.rules import Stash
from liarsdice.core.bidding.state import State
from liarsdice.core.poker.state import PokerState
from liarsdice.server.config import Settings
from liarsdice.server.protocol import AddBotMsg, CreateRoomBody, EmptyMsg
from liarsdice.server.room import RoomManager
from liarsdice.server.store import Store
from server_util import Sink

BIDDING_KEYS = {
    "player", "names", "rules", "round", "phase", "to_move", "opener", "dice_counts", "my_dice",
    "shown", "stash", "stash_size", "dice_in_play", "bids", "current_bid", "bidder", "callers",
    "legal_actions", "chips", "game_pot", "round_pot", "pile", "scores", "lost", "palifico",
    "winner", "results", "legal", "game_no", "viewer", "current_bid_move", "current_bid_odds",
}  # fmt: skip
POKER_KEYS = {
    "player", "names", "rules", "round", "phase", "to_move", "opener", "lives", "direction",
    "holder", "cup", "cup_count", "outside", "passed_cup", "known_cup", "public_cup",
    "cup_known_by", "bids", "current_bid", "bidder",
    "five_attempts", "legal_actions", "results", "winner", "legal", "game_no", "viewer",
    "current_bid_move", "hand_claim",
}  # fmt: skip
EVENT_KEYS = {
    "seq", "kind", "preset", "options", "turn_timer", "seat", "name", "seat_kind", "level",
    "game_no", "players", "opener", "action", "text", "auto", "round", "commitment",
    "client_seeds", "next_commitment", "server_seed", "winner", "connected", "away", "note",
    "timeout", "move",
}  # fmt: skip


def check_frame(seat: int, frame: dict[str, Any], state: Any) -> None:
    """Fail when ``frame`` (sent to ``seat``, -1 a spectator) shows what ``seat`` may not see."""
    text = json.dumps(frame)
    for secret in ("token", "hash", '"seed"', '"value"', '"hands"'):
        assert secret not in text, (secret, frame)
    data = frame["data"]
    for ev in data.get("events", []):
        assert set(ev) <= EVENT_KEYS, ev
        if "server_seed" in ev:
            assert ev["kind"] == "fair_reveal"
            if state is not None and ev["game_no"] == data["room"]["game_no"]:
                assert state.is_terminal() or ev["round"] < state.round, ev
    fair = data.get("fair")
    if fair is not None and state is not None:
        for r in fair["revealed"]:
            assert state.is_terminal() or r["round"] < state.round
    view = data.get("view")
    if view is None:
        return
    assert view["player"] == seat
    assert len(view["results"]) == len(state.results)
    if isinstance(state, State):
        assert set(view) == BIDDING_KEYS, set(view) ^ BIDDING_KEYS
        # The dice of a round are shown only in that round's result, i.e. after its call.
        names = view["names"]
        for shown, done in zip(view["results"], state.results, strict=True):
            assert shown["reveal"] == {n: list(done.hands[p]) for p, n in enumerate(names)}
        if seat < 0:
            assert view["my_dice"] == []
            assert view["legal_actions"] == []
            assert view["current_bid_odds"] is None  # the odds are a seat's own knowledge
        else:
            assert view["my_dice"] in ([], list(state.hand(seat)))
            if view["my_dice"]:
                assert view["phase"] != "roll"
        assert view["shown"] == [list(state.shown(p)) for p in range(len(view["names"]))]
        if state.game.rules.stash is not Stash.OPEN:
            assert view["stash"] is None
    else:
        assert isinstance(state, PokerState)
        assert set(view) == POKER_KEYS, set(view) ^ POKER_KEYS
        if seat < 0 or not state.sees_cup(seat):
            assert view["cup"] == []
            assert view["hand_claim"] is None  # the reading of dice only that seat sees
        if seat < 0:
            assert view["passed_cup"] is None and view["legal_actions"] == []
        # known dice: exactly the core's own view of this seat (its knowledge, or the public)
        core = state.view(seat).to_dict()
        assert view["known_cup"] == core["known_cup"]
        assert (
            view["public_cup"] == core["public_cup"]
            and view["cup_known_by"] == core["cup_known_by"]
        )
        if seat < 0:
            assert view["known_cup"] == view["public_cup"] or view["known_cup"] == []


GAMES = [
    ("classic", {}, ["random", "prob", "random"]),
    ("perudo", {}, ["prob", "random"]),
    ("milton-bradley", {}, ["random", "random", "prob"]),
    ("spot-on", {}, ["random", "prob"]),
    ("house-rules", {}, ["random", "random"]),
    ("snyd-joker", {}, ["random"]),
    ("room", {}, ["random", "random"]),
    ("classic", {"stash": "open", "dice": 3}, ["random", "random"]),
    ("poker-dice", {}, ["random", "prob", "random"]),
    ("poker-dice", {"lives": 2}, ["random", "random"]),
]


async def play_games(
    tmp: Path, preset: str, options: dict[str, Any], bots: list[str]
) -> tuple[int, list[dict[str, Any]]]:
    """Two bot-driven games in one room (a start and a rematch): (frames checked, records)."""
    checked = 0
    failures: list[BaseException] = []

    def hook(room_id: str, seat: int, frame: dict[str, Any], state: Any) -> None:
        nonlocal checked
        try:
            check_frame(seat, frame, state)
            checked += 1
        except AssertionError as err:  # pragma: no cover - reported below
            failures.append(err)

    settings = Settings(
        db_url=f"sqlite+aiosqlite:///{tmp / 'leak.db'}", bot_delay=0.0, grace_period=0.0,
        frame_hook=hook,
    )  # fmt: skip
    store = Store(settings.db_url)
    await store.start()
    manager = RoomManager(settings, store)
    try:
        body = CreateRoomBody(preset=preset, options=options, name="host")
        room, _, _ = await manager.create(body)
        host = Sink(0)
        await room.submit(lambda: room.connect(host, None, None, None))
        for level in bots:
            await room.submit(lambda lv=level: room.handle(host, "add_bot", AddBotMsg(level=lv)))
        sinks = [Sink(i) for i in range(1, len(bots) + 1)] + [Sink(-1), Sink(-1)]
        for s in sinks:
            await room.submit(lambda s=s: room.connect(s, None, None, None))
        for game in range(2):
            await room.submit(
                lambda g=game: room.handle(host, "start" if g == 0 else "rematch", EmptyMsg())
            )
            assert room.status in ("playing", "finished"), host.frames[-1]
            # the host leaves: after the grace period a bot plays the seat
            await room.submit(lambda: room.disconnect(host))
            for _ in range(3000):
                if room.status == "finished":
                    break
                await asyncio.sleep(0.005)
            assert room.status == "finished"
            assert room.records[game + 1]["rounds"]
        records = [room.records[1], room.records[2]]
        assert all(s.frames for s in sinks)
    finally:
        await manager.stop()
        await store.close()
    if failures:
        raise failures[0]
    return checked, records


@pytest.mark.parametrize(("preset", "options", "bots"), GAMES)
def test_no_hidden_dice_leak(
    tmp_path: Path, preset: str, options: dict[str, Any], bots: list[str]
) -> None:
    checked, _ = asyncio.run(play_games(tmp_path, preset, options, bots))
    assert checked > 20


def test_the_checker_catches_a_leak(tmp_path: Path) -> None:
    from liarsdice.core.bidding import Game, preset

    state = Game(preset("openspiel")).new_initial_state().apply_action(3).apply_action(6)
    view = state.view(0).to_dict() | {"results": [], "legal": [], "game_no": 1, "viewer": 0}
    view |= {"current_bid_move": None, "current_bid_odds": None}
    frame = {"type": "update", "version": 1, "data": {"view": view, "events": []}}
    check_frame(0, frame, state)
    with pytest.raises(AssertionError):
        check_frame(1, frame, state)  # seat 0's dice sent to seat 1
    spy = dict(view, player=-1)
    with pytest.raises(AssertionError):
        check_frame(-1, {"type": "update", "version": 1, "data": {"view": spy}}, state)
