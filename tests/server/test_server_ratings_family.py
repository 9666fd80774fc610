"""Ratings per rule family (migration 0007): the bidding games and poker dice are rated apart,
the tutorial room's games are not rated, players carry a tag that tells two of one name apart,
and an existing database's ratings are recomputed per family from its stored games (SQLite
and PostgreSQL)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
import sqlalchemy as sa
from alembic import command
from sqlalchemy.ext.asyncio import create_async_engine

from liarsdice.server import ratings
from liarsdice.server.migrations import alembic_config
from liarsdice.server.ratings import Standing
from server_util import client, create, new_player, play_with_bots

if TYPE_CHECKING:
    pass


def test_families_are_rated_apart_and_the_tutorial_not_at_all(tmp_path: Path) -> None:
    _families(tmp_path)


def test_families_on_postgres(tmp_path: Path, pg_url: str) -> None:
    pytest.importorskip("asyncpg", reason="pip install 'liarsdice[postgres]'")
    _families(tmp_path, db_url=pg_url)


def _families(tmp_path: Path, **settings: Any) -> None:
    with client(tmp_path, grace_period=0.0, **settings) as c:
        ann = new_player(c, "ann")
        other_ann = new_player(c, "ann")
        assert ann["player"] != other_ann["player"]
        # a bidding game, then a poker dice game
        bid = create(c, "ann", options={"dice": 2}, player_token=ann["token"])
        play_with_bots(c, bid)
        poker = create(c, "ann", "poker-dice", options={"lives": 1}, player_token=ann["token"])
        seats = play_with_bots(c, poker)["room"]["seats"]
        page = c.get(f"/api/players/{ann['player']}").json()
        fams = page["families"]
        assert fams["bidding"]["games"] == 1 and fams["poker"]["games"] == 1
        assert page["family"] == "bidding" and page["games"] == 1
        assert page["rating"] == fams["bidding"]["rating"]
        assert page["tag"] == ratings.tag(ann["player"]) and len(page["tag"]) == 4
        poker_page = c.get(f"/api/players/{ann['player']}?family=poker").json()
        assert poker_page["rating"] == fams["poker"]["rating"] and poker_page["games"] == 1
        # each family lists only its own games, each with its preset and the family's rating
        (classic,) = page["recent"]
        assert page["recent"] == fams["bidding"]["recent"]
        assert (classic["family"], classic["preset"]) == ("bidding", "classic")
        assert classic["rating"] == fams["bidding"]["rating"]
        (dice,) = poker_page["recent"]
        assert poker_page["recent"] == fams["poker"]["recent"]
        assert (dice["family"], dice["preset"]) == ("poker", "poker-dice")
        assert dice["rating"] == fams["poker"]["rating"]
        # the poker room shows the poker rating on the seat
        assert seats[0]["rating"] == fams["poker"]["rating"]
        # the leaderboard: one family at a time, bidding by default
        board = c.get("/api/leaderboard").json()
        assert board["family"] == "bidding" and board["families"] == ["bidding", "poker"]
        poker_board = c.get("/api/leaderboard?family=poker").json()
        assert [p["player"] for p in board["players"]] == [ann["player"]]  # bots apart
        assert [b["player"] for b in board["bots"]] == ["bot-random"]
        assert all(p["games"] == 1 and p["tag"] for p in poker_board["players"])
        mine = next(p for p in poker_board["players"] if p["player"] == ann["player"])
        assert mine["rating"] == fams["poker"]["rating"]
        bad = c.get("/api/leaderboard?family=chess")
        assert bad.status_code == 422 and bad.json()["data"]["code"] == "invalid"
        assert c.get(f"/api/players/{ann['player']}?family=x").status_code == 422
        # the tutorial: played to the end, rated for nobody
        tut = create(c, "ann", options={"dice": 2}, player_token=ann["token"], tutorial=True)
        assert play_with_bots(c, tut)["room"]["status"] == "finished"
        again = c.get(f"/api/players/{ann['player']}").json()
        assert again["families"] == fams
        assert tut["room"] not in {g["room"] for g in again["recent"]}
        bot = c.get("/api/players/bot-random").json()
        assert bot["families"]["bidding"]["games"] == 1  # not 2: the tutorial is unrated
        # the other "ann" is unrated in both families: a newcomer
        new = c.get(f"/api/players/{other_ann['player']}").json()
        assert new["families"]["poker"] == {
            "rating": 1000,
            "games": 0,
            "wins": 0,
            "calls_made": 0,
            "calls_won": 0,
            "recent": [],
        }
        assert new["tag"] != page["tag"]


# ------------------------------------------------------------------------- the migration
_T0 = datetime(2026, 1, 1, tzinfo=UTC)


def _old_database(conn: sa.Connection) -> None:
    """Rows as a server before migration 0007 wrote them: one mixed rating per player."""
    md = sa.MetaData()
    md.reflect(conn)
    players, pg, games = md.tables["players"], md.tables["player_games"], md.tables["games"]
    conn.execute(
        sa.insert(players),
        [
            {
                "id": pid,
                "token_hash": None,
                "name": pid,
                "kind": "guest",
                "mu": 30.0,
                "sigma": 5.0,
                "score": 15.0,
                "games": 2,
                "wins": 1,
                "calls_made": 3,
                "calls_won": 1,
                "created_at": _T0,
                "updated_at": _T0,
            }
            for pid in ("ann", "bob")
        ],
    )
    conn.execute(
        sa.insert(games),
        [
            {"room_id": "r1", "game_no": 1, "rules": "classic", "players": "[]", "started_seq": 1},
            {
                "room_id": "r2",
                "game_no": 1,
                "rules": "poker-dice",
                "players": "[]",
                "started_seq": 1,
            },
        ],
    )
    rows = [
        ("ann", "r1", 1, 1, 2, 1, 0),
        ("bob", "r1", 1, 2, 1, 0, 1),
        ("bob", "r2", 1, 1, 0, 0, 2),
        ("ann", "r2", 1, 2, 1, 1, 2),
    ]
    conn.execute(
        sa.insert(pg),
        [
            {
                "player_id": p,
                "room_id": r,
                "game_no": g,
                "place": place,
                "players": 2,
                "calls_made": made,
                "calls_won": won,
                "rating": 1234,
                "finished_at": _T0 + timedelta(minutes=minute),
            }
            for p, r, g, place, made, won, minute in rows
        ],
    )


def _to_0006_with_old_rows(conn: sa.Connection) -> None:
    command.upgrade(alembic_config(conn), "0006")
    _old_database(conn)


def _to_head(conn: sa.Connection) -> None:
    command.upgrade(alembic_config(conn), "head")


_EXPECTED = ratings.replay(
    [
        ("bidding", [Standing("ann", 1, 2, 1), Standing("bob", 2, 1, 0)]),
        ("poker", [Standing("bob", 1), Standing("ann", 2, 1, 1)]),
    ]
)


def _check_head(conn: sa.Connection) -> None:
    expected = _EXPECTED
    got = {
        (r.family, r.player_id): r for r in conn.execute(sa.text("SELECT * FROM player_ratings"))
    }
    assert set(got) == set(expected.totals) and len(got) == 4
    for key, t in expected.totals.items():
        row = got[key]
        counts = (row.games, row.wins, row.calls_made, row.calls_won)
        assert counts == (t.games, t.wins, t.calls_made, t.calls_won)
        assert row.mu == pytest.approx(t.mu) and row.sigma == pytest.approx(t.sigma)
    history = {
        (r.player_id, r.room_id): (r.family, r.preset, r.rating)
        for r in conn.execute(sa.text("SELECT * FROM player_games"))
    }
    assert history["ann", "r1"] == ("bidding", "classic", expected.shown[0]["ann"])
    assert history["ann", "r2"] == ("poker", "poker-dice", expected.shown[1]["ann"])
    cols = {c["name"] for c in sa.inspect(conn).get_columns("players")}
    assert "mu" not in cols and "games" not in cols and "name" in cols
    assert "tutorial" in {c["name"] for c in sa.inspect(conn).get_columns("rooms")}


def _down_and_check(conn: sa.Connection) -> None:
    """And back: the bidding rating on the players' rows."""
    command.downgrade(alembic_config(conn), "0006")
    row = conn.execute(sa.text("SELECT * FROM players WHERE id = 'ann'")).one()
    t = _EXPECTED.totals["bidding", "ann"]
    assert (row.games, row.wins) == (1, 1) and row.mu == pytest.approx(t.mu)
    assert "player_ratings" not in sa.inspect(conn).get_table_names()


STEPS = (_to_0006_with_old_rows, _to_head, _check_head, _down_and_check, _to_head)


def test_migration_recomputes_ratings_per_family_on_sqlite(tmp_path: Path) -> None:
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'old.db'}")
    try:
        for step in STEPS:
            with engine.begin() as conn:
                step(conn)
    finally:
        engine.dispose()


def test_migration_recomputes_ratings_per_family_on_postgres(pg_url: str) -> None:
    async def run() -> None:
        engine = create_async_engine(pg_url)
        try:
            for step in STEPS:
                async with engine.begin() as conn:
                    await conn.run_sync(step)
        finally:
            await engine.dispose()

    asyncio.run(run())
