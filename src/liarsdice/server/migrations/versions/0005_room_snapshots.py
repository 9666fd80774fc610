"""Room snapshots and the store probe: ``room_snapshots`` (startup reads a room from its
latest snapshot on, not its whole history) and ``store_probe`` (a paused room proves the
store takes a realistically sized write before it resumes).

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision: str | None = "0004"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create ``room_snapshots`` (rooms without one replay their whole log, as before) and
    ``store_probe``."""
    op.create_table(
        "room_snapshots",
        sa.Column("room_id", sa.String(32), primary_key=True),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("data", sa.Text, nullable=False),
    )
    op.create_table(
        "store_probe",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("payload", sa.Text, nullable=False),
    )


def downgrade() -> None:
    """Drop both tables."""
    op.drop_table("store_probe")
    op.drop_table("room_snapshots")
