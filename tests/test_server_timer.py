"""The host's turn timer: a seat that lets it run out is played by a bot until it is back."""

from __future__ import annotations

import asyncio
from pathlib import Path

from liarsdice.server.protocol import AddBotMsg, CreateRoomBody, EmptyMsg
from liarsdice.server.rooms import RoomManager, Settings
from liarsdice.server.store import Store
from server_util import Sink


async def run_timer_scenario(tmp: Path) -> None:
    settings = Settings(db_url=f"sqlite+aiosqlite:///{tmp / 't.db'}", bot_delay=0.0)
    store = Store(settings.db_url)
    await store.start()
    manager = RoomManager(settings, store)
    try:
        body = CreateRoomBody(preset="classic", options={"dice": 2}, name="ann")
        room, _, _ = await manager.create(body)
        ann = Sink(0)
        await room.submit(lambda: room.connect(ann, None, None, None))
        await room.submit(lambda: room.handle(ann, "add_bot", AddBotMsg(level="random")))
        # The protocol's floor is 5 s; the room's own value is set directly to keep this fast.
        room.turn_timer = 0.15
        await room.submit(lambda: room.handle(ann, "start", EmptyMsg()))

        def ann_moved_auto() -> bool:
            return any(
                ev.get("kind") == "action" and ev.get("seat") == 0 and ev.get("auto")
                for ev in ann.events()
            )

        # ann never moves: her timer runs out and a bot plays her seat. (Wait for the frames,
        # not the room's status: a fast game can be over in memory while its last events are
        # still being written, before any frame is sent.)
        for _ in range(400):
            if ann_moved_auto():
                break
            await asyncio.sleep(0.01)
        assert ann_moved_auto(), ann.events()
        notes = [ev.get("note") for ev in ann.events() if ev.get("kind") == "presence"]
        assert "turn_timer" in notes
        assert room.seats[0].away

        if room.status == "playing":
            # Any message ends the takeover: ann is back, and no bot plays her seat again.
            await room.submit(lambda: room.handle(ann, "back", EmptyMsg()))
            assert not room.seats[0].away
            before = sum(1 for ev in ann.events() if ev.get("auto") and ev.get("seat") == 0)
            for _ in range(20):
                state = room.state
                if room.status != "playing" or (state is not None and state.current_player == 0):
                    break
                await asyncio.sleep(0.01)
            # Her turn (or the game ended): within the timer nothing is played for her.
            await asyncio.sleep(0.05)
            after = sum(1 for ev in ann.events() if ev.get("auto") and ev.get("seat") == 0)
            assert after == before
    finally:
        await manager.stop()
        await store.close()


def test_turn_timer_hands_the_seat_to_a_bot_until_back(tmp_path: Path) -> None:
    asyncio.run(run_timer_scenario(tmp_path))
