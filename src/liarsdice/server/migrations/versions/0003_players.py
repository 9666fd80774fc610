"""Players and ratings: ``players`` (guest identities and the bot levels, with their OpenSkill
rating and counts) and ``player_games`` (one row per rated player and finished game).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create ``players`` and ``player_games``."""
    op.create_table(
        "players",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("token_hash", sa.String(64), nullable=True, unique=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("score", sa.Float, nullable=False, index=True),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("calls_made", sa.Integer, nullable=False),
        sa.Column("calls_won", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "player_games",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("room_id", sa.String(32), primary_key=True),
        sa.Column("game_no", sa.Integer, primary_key=True),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("calls_made", sa.Integer, nullable=False),
        sa.Column("calls_won", sa.Integer, nullable=False),
        sa.Column("rating", sa.Integer, nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False, index=True),
    )


def downgrade() -> None:
    """Drop ``player_games`` and ``players``."""
    op.drop_table("player_games")
    op.drop_table("players")
