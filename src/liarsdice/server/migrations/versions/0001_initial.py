"""Initial schema: rooms, seats, games, the append-only events log and the fair seeds."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from liarsdice.server.schema import ID, INT, NAME, STAMP, TEXT, keys, optional, required, stamps

revision = "0001"
down_revision: str | None = None


def upgrade() -> None:
    """Create every table."""
    status = sa.String(16)
    op.create_table(
        "rooms",
        *keys(id=ID),
        *required(preset=ID, options=TEXT, status=status, game_no=INT, seq=INT),
        *stamps(),
    )
    op.create_table(
        "seats",
        *keys(room_id=ID, seat=INT),
        *required(name=NAME, kind=status),
        *optional(level=status),
    )
    op.create_table(
        "games",
        *keys(room_id=ID, game_no=INT),
        *required(rules=ID, players=TEXT, started_seq=INT),
        *optional(finished_seq=INT, record=TEXT),
    )
    op.create_table(
        "events",
        sa.Column("id", INT, primary_key=True, autoincrement=True),
        *required(room_id=ID, seq=INT, kind=ID, data=TEXT, created_at=STAMP),
        sa.UniqueConstraint("room_id", "seq", name="uq_events_room_seq"),
    )
    op.create_index("ix_events_room_id", "events", ["room_id"])
    op.create_table(
        "fair_seeds",
        *keys(room_id=ID, idx=INT),
        *required(server_seed=NAME, commitment=NAME),
    )


def downgrade() -> None:
    """Drop every table."""
    for name in ("fair_seeds", "events", "games", "seats", "rooms"):
        op.drop_table(name)
