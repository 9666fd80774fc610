"""``liarsdice serve``: run the web server (FastAPI + uvicorn) with its SQL event log."""

from __future__ import annotations

import gc
import socket
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from liarsdice.cli.command import Command
from liarsdice.cli.options import count_option, number_option, repeatable_option
from liarsdice.cli.reasons import STORE_ERRORS, os_reason
from liarsdice.i18n import N_, _

if TYPE_CHECKING:
    import uvicorn

    from liarsdice.server.claim import Claim

F = TypeVar("F", bound=Callable[..., Any])


def default_db_url() -> str:
    """SQLite in the per-user data directory (``$XDG_DATA_HOME/liarsdice`` on Linux), so that
    a server started from a checkout writes nothing into it."""
    import platformdirs

    folder = Path(platformdirs.user_data_dir("liarsdice", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite+aiosqlite:///{folder / 'liarsdice.db'}"


def bind(host: str, port: int) -> socket.socket:
    """The listening socket, bound before anything is announced: a busy port is one clear
    error instead of a "serving on" line followed by uvicorn's ``[Errno 98]``."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as err:
        said = _("cannot listen on {host}: {reason}").format(host=repr(host), reason=os_reason(err))
        raise click.ClickException(said) from None
    family, kind, proto, _name, addr = infos[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(addr)
    except OSError as err:
        sock.close()
        if err.errno in (98, 48, 10048):  # EADDRINUSE on Linux, macOS, Windows
            said = _(
                "port {port} on {host} is already in use (is another server running?): stop it "
                "or choose another port with --port"
            )
            raise click.ClickException(said.format(port=port, host=host)) from None
        said = _("cannot listen on {host}:{port}: {reason}")
        raise click.ClickException(
            said.format(host=host, port=port, reason=os_reason(err))
        ) from None
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def claim_or_exit(db_url: str) -> Claim:
    """Claim the database before anything starts (:mod:`liarsdice.server.claim`): a database
    another server is using is one clear error, exit status 1."""
    from sqlalchemy.exc import ArgumentError

    from liarsdice.server.claim import StoreInUse, claim_database

    try:
        return claim_database(db_url)
    except StoreInUse as err:
        raise click.ClickException(STORE_ERRORS.say(str(err))) from None
    except ArgumentError as err:
        said = _("bad --db URL {url}: {error}").format(url=repr(db_url), error=err)
        raise click.ClickException(said) from None
    except Exception as err:  # (a database that cannot be reached: say so, no traceback)
        said = _("cannot open the database {url}: {error}").format(url=db_url, error=err)
        raise click.ClickException(said) from None


# The server's abuse limits (:class:`~liarsdice.server.config.Limits`), one option each:
# (option, its Limits field, default, least value, help). A whole-number default makes a
# count option; a float one a rate.
_LIMITS: tuple[tuple[str, str, int | float, int | float, str], ...] = (
    ("--max-ws-per-ip", "ws_per_ip", 64, 1,
     N_("WebSocket connections open at once from one client address.")),
    ("--max-conns-per-ip", "max_conns_per_ip", 128, 1,
     N_("TCP connections (HTTP and WebSocket) open at once from one client address.")),
    ("--rooms-per-ip", "rooms_per_ip", 30, 1,
     N_("Rooms one client address may create per hour.")),
    ("--players-per-ip", "players_per_ip", 200, 1,
     N_("Guest players (names) one client address may create per hour.")),
    ("--joins-per-ip", "joins_per_ip", 5, 1,
     N_("Joins of one room from one client address per minute.")),
    ("--joins-per-room", "joins_per_room", 20, 1,
     N_("Joins of one room per minute, all addresses.")),
    ("--ip-rate", "ip_rate", 50.0, 0.1,
     N_("WebSocket messages a second from one client address (all its connections).")),
    ("--ip-burst", "ip_burst", 100, 1,
     N_("Burst of WebSocket messages from one client address.")),
    ("--http-rate", "http_rate", 50.0, 0,
     N_("HTTP requests a second from one client address (0: no limit).")),
    ("--http-burst", "http_burst", 200, 1,
     N_("Burst of HTTP requests from one client address.")),
)  # fmt: skip


def _limit_options(f: F) -> F:
    """Every option of :data:`_LIMITS`, in its order in ``--help``."""
    for name, _field, default, minimum, help in reversed(_LIMITS):
        if isinstance(default, int):
            f = count_option(name, default, help, minimum=int(minimum))(f)
        else:
            f = number_option(name, default, help, minimum=minimum)(f)
    return f


def _limits_given(values: dict[str, Any], exempt_loopback: bool) -> Any:
    """The :class:`~liarsdice.server.config.Limits` of the limit options' ``values``."""
    from liarsdice.server.config import Limits

    given = {field: values[name.lstrip("-").replace("-", "_")] for name, field, *_ in _LIMITS}
    return Limits(**given, exempt_loopback=exempt_loopback)


@click.command(
    "serve",
    cls=Command,
    help=N_("Serve Liar's Dice rooms for browsers (docs/SERVER.md, docs/PROTOCOL.md)."),
)
@click.option("--host", default="127.0.0.1", show_default=True, help=N_("Interface to listen on."))
@click.option(
    "--port",
    default=8000,
    show_default=True,
    type=click.IntRange(0, 65535),
    help=N_("Port to listen on (0: one the system chooses)."),
)
@click.option(
    "--db",
    "db_url",
    default=None,
    help=N_(
        "Database URL (SQLAlchemy async), e.g. postgresql+asyncpg://user@host/db "
        "[default: SQLite in the per-user data directory]."
    ),
)
@repeatable_option(
    "--origin",
    "origins",
    "URL",
    N_("An extra allowed WebSocket Origin, e.g. https://dice.example (repeatable)."),
)
@click.option(
    "--redis",
    "redis_url",
    default=None,
    metavar="URL",
    help=N_(
        "Run as one node of a cluster: every node given the same --db (PostgreSQL) and "
        "--redis serves every room (docs/DEPLOY.md), e.g. redis://127.0.0.1:6379/0."
    ),
)
@click.option("--node", default="", help=N_("This node's name in a cluster [default: host-pid]."))
@click.option(
    "--grace", default=30.0, show_default=True, help=N_("Seconds away before a bot plays.")
)
@click.option(
    "--bot-delay", default=0.8, show_default=True, help=N_("Seconds a bot waits to move.")
)
@number_option(
    "--reveal",
    2.5,
    N_(
        "Seconds a reveal's verdict shows after the dice are counted before the next round "
        "(until every player at the table clicks Continue; 0: no pause)."
    ),
    minimum=0,
)
@click.option("--public-url", help=N_("Base URL for share links (default: the request's)."))
@_limit_options
@click.option(
    "--exempt-loopback",
    is_flag=True,
    help=N_("No per-address HTTP limits (request rate, joins) for 127.0.0.1 and ::1."),
)
@number_option(
    "--store-timeout",
    10.0,
    N_("Seconds a database write (or an HTTP request's read) may take before it fails."),
    minimum=0.1,
)
@number_option(
    "--store-retry",
    1.0,
    N_("Seconds between a paused room's probes of the database."),
    minimum=0.01,
)
def serve(
    host: str,
    port: int,
    db_url: str | None,
    redis_url: str | None,
    node: str,
    origins: tuple[str, ...],
    grace: float,
    bot_delay: float,
    reveal: float,
    public_url: str | None,
    exempt_loopback: bool,
    store_timeout: float,
    store_retry: float,
    **limit_values: Any,  # (the options of _LIMITS)
) -> None:
    import uvicorn

    from liarsdice.server.app import create_app
    from liarsdice.server.config import Settings
    from liarsdice.server.transport import DrainingServer, raise_fd_limit, uvicorn_config

    sock = bind(host, port)
    port = sock.getsockname()[1]  # --port 0: the port the system chose
    db_url = db_url or default_db_url()
    if redis_url is not None and not db_url.startswith("postgresql"):
        raise click.ClickException(_("a cluster (--redis) shares one PostgreSQL database: --db"))
    # One server per database (the app's store adopts the claim); a cluster's nodes share it.
    claim = claim_or_exit(db_url) if redis_url is None else None
    settings = Settings(
        db_url=db_url,
        redis_url=redis_url,
        store_timeout=store_timeout,
        store_retry=store_retry,
        origins=tuple(origins),
        grace_period=grace,
        bot_delay=bot_delay,
        reveal_seconds=reveal,
        public_url=public_url,
    )
    if node:
        settings.node_id = node
    # Every connection is a file descriptor: the soft limit (often 1024) goes up to the hard one.
    raise_fd_limit()
    said = _("liarsdice: serving on {url} (database {database})")
    click.echo(said.format(url=f"http://{host}:{port}/", database=db_url), err=True)
    _tune_collector()
    limits = _limits_given(limit_values, exempt_loopback)
    app = create_app(settings, limits)
    config = uvicorn_config(app, settings, limits, host=host, port=port, log_level="warning")
    server = uvicorn.Server(config) if redis_url is None else DrainingServer(config)
    _run(server, sock, claim)


def _tune_collector() -> None:
    """Tune the garbage collector for the server: every collection pauses every room. The
    objects of startup (modules, the app) are frozen out of collections, and young collections
    run every 50 000 new objects instead of 700 (older generations on the usual multipliers):
    at 500 connections this brings the p99 action-to-broadcast latency of bench/load.py from
    150-250 ms to ~20 ms."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 10, 10)


def _run(server: uvicorn.Server, sock: socket.socket, claim: Claim | None) -> None:
    """Serve on ``sock`` until the server stops, then release the database's ``claim``."""
    try:
        server.run(sockets=[sock])
    finally:
        if claim is not None:
            claim.release()
    if not server.started:  # the app's startup failed (uvicorn logged why)
        raise click.ClickException(_("the server did not start: see the error above"))
