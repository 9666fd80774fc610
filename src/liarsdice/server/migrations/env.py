"""Alembic environment: runs migrations on the connection handed over in the config."""

from __future__ import annotations

from alembic import context

from liarsdice.server.schema import metadata

config = context.config
connection = config.attributes.get("connection")
if connection is None:  # pragma: no cover - only through upgrade_head()
    raise RuntimeError("run migrations through liarsdice.server.migrations.upgrade_head")
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
