"""Idle rooms are closed and unloaded; their finished games' records stay available."""

from __future__ import annotations

import time
import warnings
from pathlib import Path
from typing import Any

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from liarsdice.server.app import create_app
from liarsdice.server.config import Settings


def _msg(type_: str, **data: Any) -> dict[str, Any]:
    return {"type": type_, "version": 1, "data": data}


def test_idle_rooms_are_unloaded(tmp_path: Path) -> None:
    settings = Settings(
        db_url=f"sqlite+aiosqlite:///{tmp_path / 'e.db'}",
        bot_delay=0.0,
        grace_period=0.01,
        room_ttl=0.5,
        sweep_interval=0.05,
    )
    with TestClient(create_app(settings)) as c:
        manager = c.app.state.manager  # type: ignore[attr-defined]
        made = c.post("/api/rooms", json={"preset": "classic", "name": "ann"}).json()
        busy = c.post("/api/rooms", json={"preset": "classic", "name": "bea"}).json()
        room_id = made["room"]
        with c.websocket_connect(f"/ws/rooms/{room_id}") as ws:
            ws.send_json(_msg("hello", token=made["token"]))
            ws.receive_json(), ws.receive_json()
            for ref, kind, data in (("b", "add_bot", {"level": "random"}), ("s", "start", {})):
                ws.send_json(_msg(kind, id=ref, **data))
                while ws.receive_json()["data"].get("reply_to") != ref:
                    pass
        # ann left: after the grace period a bot plays her seat to the end
        with c.websocket_connect(f"/ws/rooms/{busy['room']}") as ws2:
            ws2.send_json(_msg("hello", token=busy["token"]))
            ws2.receive_json(), ws2.receive_json()
            deadline = time.monotonic() + 30
            while manager.get(room_id) is not None:
                assert time.monotonic() < deadline, "the idle room was never unloaded"
                time.sleep(0.05)
            # a room with a connection stays, however long it is idle
            assert manager.get(busy["room"]) is not None
        assert c.get(f"/api/rooms/{room_id}").status_code == 404
        record = c.portal.call(manager.record, room_id, 1)  # type: ignore[union-attr]
        assert record is not None and record["rounds"]
        assert c.portal.call(manager.record, room_id, 2) is None  # type: ignore[union-attr]
    with TestClient(create_app(settings)) as c:  # not loaded at startup any more
        manager = c.app.state.manager  # type: ignore[attr-defined]
        assert manager.get(room_id) is None and manager.broken == {}
        again = c.portal.call(manager.record, room_id, 1)  # type: ignore[union-attr]
        assert again == record
