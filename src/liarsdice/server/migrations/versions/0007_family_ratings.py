"""Ratings per rule family, and unrated tutorial rooms.

* ``player_ratings``: one OpenSkill rating (mu, sigma, score) and the counts (games, wins,
  calls) per player and family (``bidding``, ``poker``); the ``players`` row keeps the
  identity only (its old ``mu``, ``sigma``, ``score`` and counts are dropped).
* ``player_games`` gains ``family`` and ``preset`` (the game's, from ``games.rules``).
* ``rooms`` gains ``tutorial`` (the "Play your first game" room: its games are not rated).

Existing ratings are **recomputed** from the stored rated games (``player_games``, one row per
rated player and game, with its place and calls): each game goes to the family of its preset
(``games.rules``; a game without its row counts as bidding), and the games are replayed through
the rating model in the order they finished (then by room and game number), each family on its
own. Every ``player_games.rating`` is rewritten with the player's rating in that family after
that game. This costs one model update per stored game (about 0.05 ms on a shared two-core
machine) and one row update per stored ``player_games`` row, once. Tutorial games played
before this migration cannot be told apart (the browser alone knew them): they stay rated.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

from liarsdice.server import ratings
from liarsdice.server.schema import FAMILY, ID, INT, STAMP, keys, required

revision = "0007"
down_revision: str | None = "0006"

_CALLS = {"calls_made": INT, "calls_won": INT}
_OLD_PLAYER_COLUMNS = ("mu", "sigma", "score", "games", "wins", "calls_made", "calls_won")


def upgrade() -> None:
    """Create ``player_ratings``, add the new columns, recompute the ratings per family, and
    drop the ``players`` table's rating columns."""
    op.create_table(
        "player_ratings",
        *keys(player_id=ID, family=FAMILY),
        *required(mu=sa.Float, sigma=sa.Float, score=sa.Float, games=INT, wins=INT, **_CALLS),
        sa.Column("updated_at", STAMP, nullable=False),
    )
    op.create_index("ix_player_ratings_family_score", "player_ratings", ["family", "score"])
    with op.batch_alter_table("player_games") as batch:
        batch.add_column(
            sa.Column("family", FAMILY, nullable=False, server_default=ratings.DEFAULT_FAMILY)
        )
        batch.add_column(sa.Column("preset", ID, nullable=True))
    op.add_column(
        "rooms", sa.Column("tutorial", sa.Boolean, nullable=False, server_default=sa.false())
    )
    _recompute(op.get_bind())
    with op.batch_alter_table("players") as batch:
        batch.drop_index("ix_players_score")
        for name in _OLD_PLAYER_COLUMNS:
            batch.drop_column(name)


_PG = sa.table(
    "player_games",
    *(
        sa.column(n)
        for n in (
            "player_id",
            "room_id",
            "game_no",
            "place",
            "calls_made",
            "calls_won",
            "rating",
            "finished_at",
            "family",
            "preset",
        )
    ),
)
_GAMES = sa.table("games", sa.column("room_id"), sa.column("game_no"), sa.column("rules"))
_RATINGS = sa.table(
    "player_ratings",
    *(sa.column(n) for n in ("player_id", "family", "mu", "sigma", "score", "updated_at")),
    *(sa.column(n) for n in ("games", "wins", "calls_made", "calls_won")),
)


def _stored_games(conn: sa.Connection) -> list[list[Any]]:
    """The rated players' rows of every stored game (with the game's preset as ``rules``),
    game by game in the order they finished."""
    pg, games = _PG, _GAMES
    rows = conn.execute(
        sa.select(*pg.c["player_id", "room_id", "game_no", "place"], games.c.rules)
        .add_columns(*pg.c["calls_made", "calls_won", "finished_at"])
        .select_from(
            pg.outerjoin(
                games,
                sa.and_(games.c.room_id == pg.c.room_id, games.c.game_no == pg.c.game_no),
            )
        )
        .order_by(pg.c.finished_at, pg.c.room_id, pg.c.game_no, pg.c.place)
    ).all()
    grouped: dict[tuple[str, int], list[Any]] = {}
    for row in rows:
        grouped.setdefault((row.room_id, row.game_no), []).append(row)
    return list(grouped.values())


def _recompute(conn: sa.Connection) -> None:
    games = _stored_games(conn)
    replayed = ratings.replay(
        (
            ratings.family_of_preset(game[0].rules),
            [ratings.Standing(r.player_id, r.place, r.calls_made, r.calls_won) for r in game],
        )
        for game in games
    )
    updates = [
        {
            "b_player": r.player_id,
            "b_room": r.room_id,
            "b_game": r.game_no,
            "b_family": ratings.family_of_preset(r.rules),
            "b_preset": r.rules,
            "b_rating": shown[r.player_id],
        }
        for game, shown in zip(games, replayed.shown, strict=True)
        for r in game
    ]
    if updates:
        pg = _PG
        conn.execute(
            sa.update(pg)
            .where(pg.c.player_id == sa.bindparam("b_player"))
            .where(pg.c.room_id == sa.bindparam("b_room"))
            .where(pg.c.game_no == sa.bindparam("b_game"))
            .values(
                family=sa.bindparam("b_family"),
                preset=sa.bindparam("b_preset"),
                rating=sa.bindparam("b_rating"),
            ),
            updates,
        )
    last = {r.player_id: r.finished_at for game in games for r in game}
    out = [
        {
            "player_id": player,
            "family": family,
            "mu": t.mu,
            "sigma": t.sigma,
            "score": ratings.score(t.mu, t.sigma),
            "games": t.games,
            "wins": t.wins,
            "calls_made": t.calls_made,
            "calls_won": t.calls_won,
            "updated_at": last[player],
        }
        for (family, player), t in replayed.totals.items()
    ]
    if out:
        conn.execute(sa.insert(_RATINGS), out)


def downgrade() -> None:
    """Put the rating columns back on ``players`` (each player's bidding rating and counts,
    or a newcomer's), and drop what :func:`upgrade` added."""
    mu, sigma = ratings.INITIAL
    with op.batch_alter_table("players") as batch:
        for name, value in (("mu", mu), ("sigma", sigma), ("score", ratings.score(mu, sigma))):
            batch.add_column(sa.Column(name, sa.Float, nullable=False, server_default=str(value)))
        for name in _OLD_PLAYER_COLUMNS[3:]:
            batch.add_column(sa.Column(name, INT, nullable=False, server_default="0"))
        batch.create_index("ix_players_score", ["score"])
    conn = op.get_bind()
    cols = ("player_id", "family", *_OLD_PLAYER_COLUMNS)
    pr = sa.table("player_ratings", *(sa.column(n) for n in cols))
    players = sa.table("players", sa.column("id"), *(sa.column(n) for n in _OLD_PLAYER_COLUMNS))
    for row in conn.execute(sa.select(pr).where(pr.c.family == ratings.DEFAULT_FAMILY)).all():
        values = {n: getattr(row, n) for n in _OLD_PLAYER_COLUMNS}
        conn.execute(sa.update(players).where(players.c.id == row.player_id).values(**values))
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("tutorial")
    with op.batch_alter_table("player_games") as batch:
        batch.drop_column("preset")
        batch.drop_column("family")
    op.drop_index("ix_player_ratings_family_score", "player_ratings")
    op.drop_table("player_ratings")
