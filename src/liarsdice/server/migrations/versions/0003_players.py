"""Players and ratings: ``players`` (guest identities and the bot levels, with their OpenSkill
rating and counts) and ``player_games`` (one row per rated player and finished game)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from liarsdice.server.schema import ID, INT, NAME, STAMP, keys, required, stamps

revision = "0003"
down_revision: str | None = "0002"


def upgrade() -> None:
    """Create ``players`` and ``player_games``."""
    calls = {"calls_made": INT, "calls_won": INT}
    op.create_table(
        "players",
        *keys(id=ID),
        sa.Column("token_hash", NAME, nullable=True, unique=True),
        *required(name=NAME, kind=sa.String(8), mu=sa.Float, sigma=sa.Float),
        sa.Column("score", sa.Float, nullable=False, index=True),
        *required(games=INT, wins=INT, **calls),
        *stamps(),
    )
    op.create_table(
        "player_games",
        *keys(player_id=ID, room_id=ID, game_no=INT),
        *required(place=INT, players=INT, **calls, rating=INT),
        sa.Column("finished_at", STAMP, nullable=False, index=True),
    )


def downgrade() -> None:
    """Drop ``player_games`` and ``players``."""
    op.drop_table("player_games")
    op.drop_table("players")
