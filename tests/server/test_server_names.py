"""Display names at the HTTP boundary: bot names are reserved, names are NFKC-normalised, and a
name that looks like one already seated (Unicode confusables, case) is refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from server_util import client, create


@pytest.mark.parametrize("name", ["prob-bot-1", "PROB-BOT-2", "random-bot-12", "prob-bot-l"])
def test_bot_names_are_reserved(tmp_path: Path, name: str) -> None:
    with client(tmp_path) as c:
        r = c.post("/api/rooms", json={"name": name})
        assert r.status_code == 409 and r.json()["data"]["code"] == "name_reserved", r.text
        room = create(c)["room"]
        r = c.post(f"/api/rooms/{room}/join", json={"name": name})
        assert r.status_code == 409 and r.json()["data"]["code"] == "name_reserved"


@pytest.mark.parametrize("name", ["\u0430nn", "ANN", "\uff41nn", "b0b", "B\u041eB"])
def test_look_alike_names_are_taken(tmp_path: Path, name: str) -> None:
    with client(tmp_path) as c:
        room = create(c, "ann")["room"]
        assert c.post(f"/api/rooms/{room}/join", json={"name": "bob"}).status_code == 201
        r = c.post(f"/api/rooms/{room}/join", json={"name": name})
        assert r.status_code == 409, r.text
        assert r.json()["data"]["code"] == "name_taken"
        assert c.post(f"/api/rooms/{room}/join", json={"name": "cy"}).status_code == 201


def test_names_are_nfkc_normalised(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        host = create(c, "\uff41\uff4e\uff4e  \u2163")  # fullwidth "ann", Roman numeral four
        snap = c.get(f"/api/rooms/{host['room']}").json()
        assert snap["data"]["room"]["seats"][0]["name"] == "ann IV"


def test_the_room_applies_the_name_rules_itself(tmp_path: Path) -> None:
    """Whoever seats a player (HTTP, a bench, a test), the room normalises and checks the name."""
    import asyncio

    from liarsdice.server.config import Settings
    from liarsdice.server.protocol import CreateRoomBody
    from liarsdice.server.room import CommandError, RoomManager
    from liarsdice.server.store import Store

    async def run() -> list[str]:
        settings = Settings(db_url=f"sqlite+aiosqlite:///{tmp_path / 'n.db'}")
        store = Store(settings.db_url)
        await store.start()
        manager = RoomManager(settings, store)
        await manager.start()
        codes = []
        try:
            room, _, _ = await manager.create(CreateRoomBody(name="ann"))
            for name in ("\u0430nn", "prob-bot-1", "", "\uff42\uff4f\uff42"):
                try:
                    await room.submit(lambda name=name: room.join(name, None))
                    codes.append("ok")
                except CommandError as err:
                    codes.append(err.code)
            codes.append(room.seats[-1].name)
        finally:
            await manager.stop()
            await store.close()
        return codes

    assert asyncio.run(run()) == ["name_taken", "name_reserved", "invalid", "ok", "bob"]
