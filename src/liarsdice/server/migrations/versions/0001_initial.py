"""Initial schema: rooms, seats, games, the append-only events log and the fair seeds.

Revision ID: 0001
Revises:
Create Date: 2025-01-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create every table."""
    op.create_table(
        "rooms",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("preset", sa.String(32), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("game_no", sa.Integer, nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "seats",
        sa.Column("room_id", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("level", sa.String(16), nullable=True),
    )
    op.create_table(
        "games",
        sa.Column("room_id", sa.String(32), primary_key=True),
        sa.Column("game_no", sa.Integer, primary_key=True),
        sa.Column("rules", sa.String(32), nullable=False),
        sa.Column("players", sa.Text, nullable=False),
        sa.Column("started_seq", sa.Integer, nullable=False),
        sa.Column("finished_seq", sa.Integer, nullable=True),
        sa.Column("record", sa.Text, nullable=True),
    )
    op.create_table(
        "events",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("room_id", sa.String(32), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("room_id", "seq", name="uq_events_room_seq"),
    )
    op.create_index("ix_events_room_id", "events", ["room_id"])
    op.create_table(
        "fair_seeds",
        sa.Column("room_id", sa.String(32), primary_key=True),
        sa.Column("idx", sa.Integer, primary_key=True),
        sa.Column("server_seed", sa.String(64), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
    )


def downgrade() -> None:
    """Drop every table."""
    for name in ("fair_seeds", "events", "games", "seats", "rooms"):
        op.drop_table(name)
