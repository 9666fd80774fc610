"""Alembic migrations of the server database, configured in code (no ``alembic.ini``).

:func:`upgrade_head` runs ``alembic upgrade head`` on an open connection; the server calls it
at startup. From a shell: ``python -m liarsdice.server.migrations DATABASE_URL``.

The revisions (``versions/``) spell their columns with the helpers of
:mod:`liarsdice.server.schema` (:func:`~liarsdice.server.schema.keys`, ...).
"""

from __future__ import annotations

import sys
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import text
from sqlalchemy.engine import Connection

from liarsdice.server.claim import PG_MIGRATE_KEY, claim_database

HERE = Path(__file__).resolve().parent


def alembic_config(connection: Connection | None = None) -> Config:
    """The Alembic configuration (the ``alembic.ini`` equivalent)."""
    cfg = Config()
    cfg.set_main_option("script_location", str(HERE))
    cfg.set_main_option("path_separator", "os")
    cfg.set_main_option("version_locations", str(HERE / "versions"))
    cfg.attributes["connection"] = connection
    return cfg


def upgrade_head(connection: Connection) -> None:
    """Upgrade the database behind ``connection`` to the newest revision.

    Migrations never run two at once: on PostgreSQL they hold a transaction-level advisory
    lock (``pg_advisory_xact_lock``, until the caller's transaction ends; PostgreSQL's DDL is
    transactional, so the second one finds the schema at head); a SQLite file is migrated only
    by the holder of its claim (:mod:`liarsdice.server.claim`).
    """
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": PG_MIGRATE_KEY})
    command.upgrade(alembic_config(connection), "head")


def main(argv: list[str] | None = None) -> None:  # pragma: no cover - a manual tool
    """Upgrade the database at a (sync) URL: ``python -m liarsdice.server.migrations URL``
    (refused while a server runs on it: :class:`~liarsdice.server.claim.StoreInUse`)."""
    from sqlalchemy import create_engine

    args = sys.argv[1:] if argv is None else argv
    url = args[0] if args else "sqlite:///liarsdice.db"
    with claim_database(url):
        engine = create_engine(url)
        with engine.begin() as conn:
            upgrade_head(conn)
        engine.dispose()


if __name__ == "__main__":  # pragma: no cover
    main()
