"""The server database's tables (SQLAlchemy Core), shared by the store and the migrations.

The migrations (:mod:`liarsdice.server.migrations`) create and upgrade them; the store
(:mod:`liarsdice.server.store`) reads and writes them. See the store's docstring for what each
table holds. The tables and the migrations spell their columns with :func:`keys`,
:func:`required` and :func:`optional` (names as keywords, in column order):

>>> [(c.name, c.primary_key, c.nullable) for c in [*keys(room_id=ID), *optional(level=INT)]]
[('room_id', True, False), ('level', False, True)]
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Float,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.types import TypeEngine

ID = String(32)
NAME = String(64)  # also a hash or a secret in hex
INT = Integer
BIGINT = BigInteger
TEXT = Text
STAMP = DateTime(timezone=True)
ColumnType = type[TypeEngine[Any]] | TypeEngine[Any]


def keys(**types: ColumnType) -> list[Column[Any]]:
    """The primary key's columns, in order: ``keys(room_id=ID, seat=INT)``."""
    return [Column(name, type_, primary_key=True) for name, type_ in types.items()]


def required(**types: ColumnType) -> list[Column[Any]]:
    """``NOT NULL`` columns, in order."""
    return [Column(name, type_, nullable=False) for name, type_ in types.items()]


def optional(**types: ColumnType) -> list[Column[Any]]:
    """Nullable columns, in order."""
    return [Column(name, type_, nullable=True) for name, type_ in types.items()]


def stamps() -> list[Column[Any]]:
    """``created_at`` and ``updated_at``."""
    return required(created_at=STAMP, updated_at=STAMP)


metadata = MetaData()
_STATUS = String(16)
_CALLS = {"calls_made": INT, "calls_won": INT}

rooms_table = Table(
    "rooms",
    metadata,
    *keys(id=ID),
    *required(preset=ID, options=TEXT, status=_STATUS, game_no=INT, seq=INT),
    *stamps(),
    # migration 0004: by link only (its ``room_created`` says ``"private": true``); the public
    # pages (the room list, players' recent games) leave it out
    Column("private", Boolean, nullable=False, server_default=false()),
    # migration 0007: the tutorial ("Play your first game"; its ``room_created`` says
    # ``"tutorial": true``): its games are not rated
    Column("tutorial", Boolean, nullable=False, server_default=false()),
)

seats_table = Table(
    "seats",
    metadata,
    *keys(room_id=ID, seat=INT),
    *required(name=NAME, kind=_STATUS),
    *optional(level=_STATUS),
)

games_table = Table(
    "games",
    metadata,
    *keys(room_id=ID, game_no=INT),
    *required(rules=ID, players=TEXT, started_seq=INT),
    *optional(finished_seq=INT, record=TEXT),
)

events_table = Table(
    "events",
    metadata,
    Column("id", INT, primary_key=True, autoincrement=True),
    Column("room_id", ID, nullable=False, index=True),
    *required(seq=INT, kind=ID, data=TEXT, created_at=STAMP),
    UniqueConstraint("room_id", "seq", name="uq_events_room_seq"),
)

fair_seeds_table = Table(
    "fair_seeds",
    metadata,
    *keys(room_id=ID, idx=INT),
    *required(server_seed=NAME, commitment=NAME),
)

# One secret per room (migration 0002): the key of the bots' random numbers. It never leaves the
# server (no frame, no record carries it), so nobody can replay a bot's private decisions.
room_secrets_table = Table("room_secrets", metadata, *keys(room_id=ID), *required(bot_secret=NAME))

# Players (migration 0003): guest identities (a browser's secret token, only its SHA-256 kept)
# and one row per bot level ("bot-prob", ...). Their ratings are per rule family (migration
# 0007): ``player_ratings`` holds one OpenSkill rating (mu, sigma; score is mu - 3 sigma, the
# conservative estimate the leaderboard sorts by) and the counts over rated games for each
# player and family ("bidding", "poker") the player was rated in. player_games: one row per
# rated player and finished game, with the game's family and preset.
FAMILY = String(16)

players_table = Table(
    "players",
    metadata,
    *keys(id=ID),
    Column("token_hash", NAME, nullable=True, unique=True),
    *required(name=NAME, kind=String(8)),
    *stamps(),
)

player_ratings_table = Table(
    "player_ratings",
    metadata,
    *keys(player_id=ID, family=FAMILY),
    *required(mu=Float, sigma=Float, score=Float, games=INT, wins=INT, **_CALLS),
    Column("updated_at", STAMP, nullable=False),
    Index("ix_player_ratings_family_score", "family", "score"),
)

player_games_table = Table(
    "player_games",
    metadata,
    *keys(player_id=ID, room_id=ID, game_no=INT),
    *required(place=INT, players=INT, **_CALLS, rating=INT),
    Column("finished_at", STAMP, nullable=False, index=True),
    Column("family", FAMILY, nullable=False, server_default="bidding"),  # migration 0007
    Column("preset", ID, nullable=True),  # migration 0007 (None: the game's row was missing)
)

# Room snapshots (migration 0005): a room's value just before its latest game started, as JSON
# (no game state: the log's next event, game_started, builds it). Startup folds only the events
# after ``seq``. One row per room, replaced at each game's start.
room_snapshots_table = Table(
    "room_snapshots", metadata, *keys(room_id=ID), *required(seq=INT, data=TEXT)
)

# The store probe (migration 0005): a paused room writes a record-sized payload here (and
# deletes it in the same transaction) to prove real writes fit before it resumes.
store_probe_table = Table("store_probe", metadata, *keys(id=ID), *required(payload=TEXT))

# Room leases (migration 0006): each room's *fence*, the epoch of the node that owns it now
# (several nodes on one database). A node takes a room by raising its fence
# (:meth:`~liarsdice.server.store.Store.take_lease`); a write that carries an epoch commits only
# while the fence still holds that epoch (``Batch.epoch``), so an old owner can never write.
room_leases_table = Table(
    "room_leases",
    metadata,
    *keys(room_id=ID),
    *required(epoch=BIGINT, node=TEXT),
    *optional(taken_at=STAMP),
)
