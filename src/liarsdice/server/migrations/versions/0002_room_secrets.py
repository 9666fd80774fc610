"""The per-room bot secret: ``room_secrets`` (the key of the bots' random numbers).

Revision ID: 0002
Revises: 0001
Create Date: 2025-01-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create ``room_secrets`` (rooms created before it get a secret when next loaded)."""
    op.create_table(
        "room_secrets",
        sa.Column("room_id", sa.String(32), primary_key=True),
        sa.Column("bot_secret", sa.String(64), nullable=False),
    )


def downgrade() -> None:
    """Drop ``room_secrets``."""
    op.drop_table("room_secrets")
