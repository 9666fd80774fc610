"""Room snapshots and the store probe: ``room_snapshots`` (startup reads a room from its
latest snapshot on, not its whole history) and ``store_probe`` (a paused room proves the
store takes a realistically sized write before it resumes)."""

from __future__ import annotations

from alembic import op

from liarsdice.server.schema import ID, INT, TEXT, keys, required

revision = "0005"
down_revision: str | None = "0004"


def upgrade() -> None:
    """Create ``room_snapshots`` (rooms without one replay their whole log, as before) and
    ``store_probe``."""
    op.create_table("room_snapshots", *keys(room_id=ID), *required(seq=INT, data=TEXT))
    op.create_table("store_probe", *keys(id=ID), *required(payload=TEXT))


def downgrade() -> None:
    """Drop both tables."""
    op.drop_table("store_probe")
    op.drop_table("room_snapshots")
