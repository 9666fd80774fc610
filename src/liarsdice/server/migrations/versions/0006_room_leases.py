"""Room leases: ``room_leases``, each room's fence (the epoch of the node that owns it), for
several server nodes on one database. A write that carries an epoch commits only while the
room's fence holds that epoch (see :meth:`liarsdice.server.store.Store.take_lease`)."""

from __future__ import annotations

from alembic import op

from liarsdice.server.schema import BIGINT, ID, STAMP, TEXT, keys, optional, required

revision = "0006"
down_revision: str | None = "0005"


def upgrade() -> None:
    """Create ``room_leases`` (empty: no room is fenced until a node takes its lease)."""
    op.create_table(
        "room_leases",
        *keys(room_id=ID),
        *required(epoch=BIGINT, node=TEXT),
        *optional(taken_at=STAMP),
    )


def downgrade() -> None:
    """Drop ``room_leases``."""
    op.drop_table("room_leases")
