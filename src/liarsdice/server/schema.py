"""The server database's tables (SQLAlchemy Core), shared by the store and the migrations.

The migrations (:mod:`liarsdice.server.migrations`) create and upgrade them; the store
(:mod:`liarsdice.server.store`) reads and writes them. See the store's docstring for what each
table holds.
"""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    Column,
    DateTime,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    false,
)

metadata = MetaData()

rooms_table = Table(
    "rooms",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("preset", String(32), nullable=False),
    Column("options", Text, nullable=False),
    Column("status", String(16), nullable=False),
    Column("game_no", Integer, nullable=False),
    Column("seq", Integer, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    # migration 0004: by link only (its ``room_created`` says ``"private": true``); the public
    # pages (the room list, players' recent games) leave it out
    Column("private", Boolean, nullable=False, server_default=false()),
)

seats_table = Table(
    "seats",
    metadata,
    Column("room_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("name", String(64), nullable=False),
    Column("kind", String(16), nullable=False),
    Column("level", String(16), nullable=True),
)

games_table = Table(
    "games",
    metadata,
    Column("room_id", String(32), primary_key=True),
    Column("game_no", Integer, primary_key=True),
    Column("rules", String(32), nullable=False),
    Column("players", Text, nullable=False),
    Column("started_seq", Integer, nullable=False),
    Column("finished_seq", Integer, nullable=True),
    Column("record", Text, nullable=True),
)

events_table = Table(
    "events",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("room_id", String(32), nullable=False, index=True),
    Column("seq", Integer, nullable=False),
    Column("kind", String(32), nullable=False),
    Column("data", Text, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    UniqueConstraint("room_id", "seq", name="uq_events_room_seq"),
)

fair_seeds_table = Table(
    "fair_seeds",
    metadata,
    Column("room_id", String(32), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("server_seed", String(64), nullable=False),
    Column("commitment", String(64), nullable=False),
)

# One secret per room (migration 0002): the key of the bots' random numbers. It never leaves the
# server (no frame, no record carries it), so nobody can replay a bot's private decisions.
room_secrets_table = Table(
    "room_secrets",
    metadata,
    Column("room_id", String(32), primary_key=True),
    Column("bot_secret", String(64), nullable=False),
)

# Players (migration 0003): guest identities (a browser's secret token, only its SHA-256 kept)
# and one row per bot level ("bot-prob", ...), each with its OpenSkill rating (mu, sigma; score
# is mu - 3 sigma, the conservative estimate the leaderboard sorts by) and counts over rated
# games. player_games: one row per rated player and finished game.
players_table = Table(
    "players",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("token_hash", String(64), nullable=True, unique=True),
    Column("name", String(64), nullable=False),
    Column("kind", String(8), nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("score", Float, nullable=False, index=True),
    Column("games", Integer, nullable=False),
    Column("wins", Integer, nullable=False),
    Column("calls_made", Integer, nullable=False),
    Column("calls_won", Integer, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)

player_games_table = Table(
    "player_games",
    metadata,
    Column("player_id", String(32), primary_key=True),
    Column("room_id", String(32), primary_key=True),
    Column("game_no", Integer, primary_key=True),
    Column("place", Integer, nullable=False),
    Column("players", Integer, nullable=False),
    Column("calls_made", Integer, nullable=False),
    Column("calls_won", Integer, nullable=False),
    Column("rating", Integer, nullable=False),
    Column("finished_at", DateTime(timezone=True), nullable=False, index=True),
)

# Room snapshots (migration 0005): a room's value just before its latest game started, as JSON
# (no game state: the log's next event, game_started, builds it). Startup folds only the events
# after ``seq``. One row per room, replaced at each game's start.
room_snapshots_table = Table(
    "room_snapshots",
    metadata,
    Column("room_id", String(32), primary_key=True),
    Column("seq", Integer, nullable=False),
    Column("data", Text, nullable=False),
)

# The store probe (migration 0005): a paused room writes a record-sized payload here (and
# deletes it in the same transaction) to prove real writes fit before it resumes.
store_probe_table = Table(
    "store_probe",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("payload", Text, nullable=False),
)
