"""Guards against a hostile client: names that look like a seated one through invisible
characters (default-ignorable code points, blanks, stacked combining marks), and private rooms
leaking through the public player pages."""

from __future__ import annotations

import asyncio
import json
import unicodedata
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from liarsdice.server.names import confusable_with, normalize_name
from pg_util import Cluster
from server_util import client, create, play_with_bots

if TYPE_CHECKING:
    from fastapi.testclient import TestClient

# Invisible tails and stand-ins: each drawn as "ann" (or as nothing).
INVISIBLE = ["\u2800", "\u1160", "\u115f", "\u034f", "\ufe0f", "\u3164", "\uffa0", "\u00ad"]
INVISIBLE += ["\u200b", "\u2060", "\ufeff", "\u17b4", "\u180b", "\U000e0041", "\U0001d173"]


@pytest.mark.parametrize("tail", INVISIBLE, ids=lambda c: f"U+{ord(c):04X}")
def test_invisible_characters_do_not_make_a_name_new(tmp_path: Path, tail: str) -> None:
    with client(tmp_path) as c:
        room = create(c, "ann")["room"]
        inside = [] if tail == "\u2800" else [f"a{tail}nn"]  # (a blank inside is a space)
        for name in [f"ann{tail}", f"{tail}ann{tail}{tail}", *inside]:
            r = c.post(f"/api/rooms/{room}/join", json={"name": name})
            # a format character (zero width space, soft hyphen, tags...) is refused as
            # unprintable when the body is read; the rest are removed, leaving "ann": taken
            expect = (422, "invalid") if unicodedata.category(tail) == "Cf" else (409, "name_taken")
            assert (r.status_code, r.json()["data"]["code"]) == expect, (name, r.text)
        seats = c.get(f"/api/rooms/{room}").json()["data"]["room"]["seats"]
        assert [s["name"] for s in seats] == ["ann"]


@pytest.mark.parametrize(
    "name",
    [
        "\u1160",
        "\u1160\u1160\u1160",
        "\u2800",
        "\u2800 \u2800",
        "\u3164",
        "\u115f\u1160",
        "\u034f\ufe0f",
        "\u3000\u2003\u00a0",
        "a" + "\u0301" * 20,
        "a" + "\u0300\u0301\u0302",
        "\u0301ann",
        "!!!",
        "\u2800.\u2800",
    ],
    ids=repr,
)
def test_blank_and_smeared_names_are_refused(tmp_path: Path, name: str) -> None:
    with client(tmp_path) as c:
        r = c.post("/api/rooms", json={"name": name})
        assert r.status_code == 422 and r.json()["data"]["code"] == "invalid", r.text
        room = create(c, "ann")["room"]
        r = c.post(f"/api/rooms/{room}/join", json={"name": name})
        assert r.status_code == 422 and r.json()["data"]["code"] == "invalid", r.text
        r = c.post("/api/players", json={"name": name})
        assert r.status_code == 422, r.text


def test_visible_names_are_still_welcome(tmp_path: Path) -> None:
    """Accents (two marks on a letter), scripts with marks, spaces inside a name and digits."""
    with client(tmp_path) as c:
        room = create(c, "ann")["room"]
        for name, seated in [
            ("an\u2800n", "an n"),  # a blank inside a name is a space
            ("cy\u0301\u0323", "c\u1ef5\u0301"),  # two marks on a letter
            ("\u0e01\u0e35\u0e48", "\u0e01\u0e35\u0e48"),  # Thai: a consonant, a vowel and a tone
            ("7", "7"),
        ]:
            r = c.post(f"/api/rooms/{room}/join", json={"name": name})
            assert r.status_code == 201, (name, r.text)
            seats = c.get(f"/api/rooms/{room}").json()["data"]["room"]["seats"]
            assert seats[-1]["name"] == seated


def test_names_are_compared_as_drawn() -> None:
    assert normalize_name("\u2800ann\u3164\u2800") == "ann"
    assert normalize_name("a\u034f\u0301nn") == "\u00e1nn"  # the mark joins its letter again
    # seated names from before the rules (in an old log) are compared as drawn too
    assert confusable_with("ann", ["ann\u2800", "bob"]) == "ann\u2800"
    assert confusable_with("\u0430nn", ["a\u200bnn"]) == "a\u200bnn"
    assert confusable_with("ann\ufe0f", ["ann"]) == "ann"
    assert confusable_with("an n", ["ann"]) is None
    with pytest.raises(ValueError, match="combining marks"):
        normalize_name("a" + "\u0301" * 20)
    with pytest.raises(ValueError, match="letter or a digit"):
        normalize_name("\u2800-\u2800")
    with pytest.raises(ValueError, match="empty"):
        normalize_name("\u1160\u115f\u2800")


# ------------------------------------------------------------------ private rooms
def _finish_rated_game(c: TestClient, token: str, private: bool) -> str:
    """A room of a rated guest and two random bots, played to the end by bots; its id."""
    room = create(c, "ann", options={"dice": 1}, player_token=token, private=private)
    play_with_bots(c, room)
    rid: str = room["room"]
    return rid


def test_player_pages_never_name_a_private_room(tmp_path: Path) -> None:
    """A stranger goes from the leaderboard to a player's page (a guest's or a bot level's):
    the games of private rooms are not in ``recent`` (their id is the room's only key)."""
    with client(tmp_path, grace_period=0.0) as c:
        r = c.post("/api/players", json={"name": "ann"})
        assert r.status_code == 201, r.text
        me = r.json()
        hidden = _finish_rated_game(c, me["token"], private=True)
        shown = _finish_rated_game(c, me["token"], private=False)
        board = c.get("/api/leaderboard").json()
        assert hidden not in json.dumps(board)
        ids = {p["player"] for p in board["players"]} | {me["player"], "bot-random"}
        assert {me["player"], "bot-random"} <= ids
        for player in sorted(ids):
            page = c.get(f"/api/players/{player}").json()
            assert hidden not in json.dumps(page), page
            assert [g["room"] for g in page["recent"]] == [shown]
            assert page["games"] == 2  # the private game is rated all the same
        assert hidden not in c.get("/api/rooms").text


def test_migration_0004_marks_private_rooms_from_their_log(tmp_path: Path) -> None:
    """A database from before 0004: ``rooms.private`` is set from each ``room_created``."""
    from alembic import command
    from sqlalchemy import create_engine, insert, text

    from liarsdice.server.migrations import alembic_config
    from liarsdice.server.schema import events_table

    engine = create_engine(f"sqlite:///{tmp_path / 'old.db'}")
    with engine.begin() as conn:
        command.upgrade(alembic_config(conn), "0003")
        now = "2026-01-01 00:00:00"
        for rid, created in [
            ("pub", {"preset": "classic", "options": {}, "seed_idx": 0}),
            ("priv", {"preset": "classic", "options": {}, "seed_idx": 0, "private": True}),
            ("odd", {"preset": "classic", "options": {"private": True}, "seed_idx": 0}),
        ]:
            conn.execute(
                text(
                    "INSERT INTO rooms (id, preset, options, status, game_no, seq, created_at,"
                    " updated_at) VALUES (:id, 'classic', '{}', 'lobby', 0, 1, :now, :now)"
                ),
                {"id": rid, "now": now},
            )
            conn.execute(
                insert(events_table).values(
                    room_id=rid,
                    seq=1,
                    kind="room_created",
                    data=json.dumps(created, separators=(",", ":")),
                    created_at=datetime(2026, 1, 1, tzinfo=UTC),
                )
            )
        command.upgrade(alembic_config(conn), "head")
        rows = dict(conn.execute(text("SELECT id, private FROM rooms")).all())
    engine.dispose()
    assert rows == {"pub": 0, "priv": 1, "odd": 0}


def test_private_rooms_on_postgres(pg_url: str, pg_cluster: Cluster) -> None:
    """On PostgreSQL: 0004 backfills ``rooms.private`` from the log, a new room's row gets it
    from its ``room_created``, and a player's page leaves the private room's games out."""
    from alembic import command
    from sqlalchemy import insert, text
    from sqlalchemy.ext.asyncio import create_async_engine

    from liarsdice.server.migrations import alembic_config
    from liarsdice.server.schema import events_table, player_games_table
    from liarsdice.server.store import Batch, Store, new_player_row

    when = datetime(2026, 1, 1, tzinfo=UTC)
    created = {"preset": "classic", "options": {}, "seed_idx": 0}

    async def run() -> dict[str, Any]:
        engine = create_async_engine(pg_url)
        async with engine.begin() as conn:
            await conn.run_sync(lambda c: command.upgrade(alembic_config(c), "0003"))
            for rid, private in [("old-pub", False), ("old-priv", True)]:
                await conn.execute(
                    text(
                        "INSERT INTO rooms (id, preset, options, status, game_no, seq,"
                        " created_at, updated_at) VALUES (:id, 'classic', '{}', 'lobby', 0, 1,"
                        " :now, :now)"
                    ),
                    {"id": rid, "now": when},
                )
                data = {**created, **({"private": True} if private else {})}
                await conn.execute(
                    insert(events_table).values(
                        room_id=rid, seq=1, kind="room_created", data=json.dumps(data),
                        created_at=when,
                    )
                )  # fmt: skip
        await engine.dispose()
        store = Store(pg_url)
        await store.start()  # migrates to head
        try:
            for rid, private in [("new-pub", False), ("new-priv", True)]:
                batch = Batch(rid)
                batch.new_room = {  # as server.projection derives it from room_created
                    "preset": "classic", "options": {}, "status": "lobby", "game_no": 0,
                    "seq": 0, "private": private,
                }  # fmt: skip
                batch.events.append(
                    (1, "room_created", {**created, **({"private": True} if private else {})})
                )
                if rid == "new-pub":
                    batch.players.append(new_player_row("p1", "ann", "guest", None, when))
                await store.write(batch)
            assert store.engine is not None
            async with store.engine.begin() as conn:
                for rid in ("old-pub", "old-priv", "new-pub", "new-priv"):
                    await conn.execute(
                        insert(player_games_table).values(
                            player_id="p1", room_id=rid, game_no=1, place=1, players=2,
                            calls_made=0, calls_won=0, rating=1000, finished_at=when,
                        )
                    )  # fmt: skip
            page = await store.player("p1")
            assert page is not None
            return page
        finally:
            await store.close()

    page = asyncio.run(run())
    assert sorted(g["room"] for g in page["recent"]) == ["new-pub", "old-pub"]
    database = pg_url.rsplit("/", 1)[1]
    rows = pg_cluster.psql("SELECT id || '=' || private FROM rooms ORDER BY id", database)
    assert rows.split() == ["new-priv=true", "new-pub=false", "old-priv=true", "old-pub=false"]
