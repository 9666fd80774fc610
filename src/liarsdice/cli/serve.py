"""``liarsdice serve``: run the web server (FastAPI + uvicorn) with its SQL event log."""

from __future__ import annotations

import click

from liarsdice.cli.options import count_option


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535))
@click.option(
    "--db",
    "db_url",
    default="sqlite+aiosqlite:///liarsdice.db",
    show_default=True,
    help="Database URL (SQLAlchemy async), e.g. postgresql+asyncpg://user@host/db.",
)
@click.option(
    "--origin",
    "origins",
    multiple=True,
    metavar="URL",
    help="An extra allowed WebSocket Origin, e.g. https://dice.example (repeatable).",
)
@click.option("--grace", default=30.0, show_default=True, help="Seconds away before a bot plays.")
@click.option("--bot-delay", default=0.8, show_default=True, help="Seconds a bot waits to move.")
@click.option("--public-url", help="Base URL for share links (default: the request's).")
@count_option(
    "--max-ws-per-ip", 64, "WebSocket connections open at once from one client address.", minimum=1
)
@count_option("--rooms-per-ip", 30, "Rooms one client address may create per hour.", minimum=1)
def serve(
    host: str,
    port: int,
    db_url: str,
    origins: tuple[str, ...],
    grace: float,
    bot_delay: float,
    public_url: str | None,
    max_ws_per_ip: int,
    rooms_per_ip: int,
) -> None:
    """Serve Liar's Dice rooms for browsers (docs/SERVER.md, docs/PROTOCOL.md)."""
    import gc

    import uvicorn

    from liarsdice.server.app import Limits, create_app
    from liarsdice.server.rooms import Settings

    settings = Settings(
        db_url=db_url,
        origins=tuple(origins),
        grace_period=grace,
        bot_delay=bot_delay,
        public_url=public_url,
    )
    click.echo(f"liarsdice: serving on http://{host}:{port}/ (database {db_url})", err=True)
    # The garbage collector: every collection pauses every room. The objects of startup (modules,
    # the app) are frozen out of collections, and young collections run every 50 000 new objects
    # instead of 700 (older generations on the usual multipliers): at 500 connections this
    # brings the p99 action-to-broadcast latency of bench/load.py from 150-250 ms to ~20 ms.
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 10, 10)
    limits = Limits(ws_per_ip=max_ws_per_ip, rooms_per_ip=rooms_per_ip)
    uvicorn.run(
        create_app(settings, limits),
        host=host,
        port=port,
        ws_max_size=settings.max_frame,
        log_level="warning",
    )
