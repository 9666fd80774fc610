"""The per-room bot secret: ``room_secrets`` (the key of the bots' random numbers)."""

from __future__ import annotations

from alembic import op

from liarsdice.server.schema import ID, NAME, keys, required

revision = "0002"
down_revision: str | None = "0001"


def upgrade() -> None:
    """Create ``room_secrets`` (rooms created before it get a secret when next loaded)."""
    op.create_table("room_secrets", *keys(room_id=ID), *required(bot_secret=NAME))


def downgrade() -> None:
    """Drop ``room_secrets``."""
    op.drop_table("room_secrets")
