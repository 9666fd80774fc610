"""Private rooms in the ``rooms`` projection: ``rooms.private`` (the public pages leave them out).

A room's privacy is in its ``room_created`` event (``{"private": true}``); the column is
backfilled from it.
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision: str | None = "0003"


def upgrade() -> None:
    """Add ``rooms.private`` (false by default) and set it from the rooms' ``room_created``."""
    op.add_column(
        "rooms",
        sa.Column("private", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    events = sa.table(
        "events",
        sa.column("room_id", sa.String),
        sa.column("kind", sa.String),
        sa.column("data", sa.Text),
    )
    rooms = sa.table("rooms", sa.column("id", sa.String), sa.column("private", sa.Boolean))
    conn = op.get_bind()
    rows = conn.execute(
        sa.select(events.c.room_id, events.c.data)
        .where(events.c.kind == "room_created")
        .where(events.c.data.like('%"private"%'))
    )
    private = [room_id for room_id, data in rows if json.loads(data).get("private") is True]
    for start in range(0, len(private), 500):
        conn.execute(
            sa.update(rooms)
            .where(rooms.c.id.in_(private[start : start + 500]))
            .values(private=True)
        )


def downgrade() -> None:
    """Drop ``rooms.private``."""
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("private")
