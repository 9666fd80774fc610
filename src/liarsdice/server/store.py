"""Persistence: an append-only event log per room in SQL (SQLAlchemy 2, async).

SQLite (WAL journal) is the default, ``sqlite+aiosqlite:///liarsdice.db``; PostgreSQL works by
URL (``postgresql+asyncpg://...``). The schema is created and upgraded by Alembic
(:mod:`liarsdice.server.migrations`) at startup.

The ``events`` table is the source of truth: rows are only ever inserted, each command's in one
transaction (commands that arrive together share one: group commit, :meth:`Store.write`),
*before* anything is sent to a client, so an acknowledged move is on disk. ``rooms``,
``seats`` and ``games`` are projections kept in the same transaction (for listing and for the
finished games' records); ``fair_seeds`` holds the secret server seeds until they are revealed.
On startup every room's events are folded through the rules core again
(:func:`liarsdice.server.room.events.fold`, from the room's latest snapshot on).

A store claims its database while it runs (one server per database; :class:`StoreInUse`
otherwise): see :mod:`liarsdice.server.claim`.

Several nodes on one PostgreSQL database fence each room's writes: ``room_leases`` (migration
0006) holds each room's *epoch*, raised by the node that takes the room
(:meth:`Store.take_lease`); a batch that carries an epoch (``Batch.epoch``) commits only while
the fence still holds exactly that epoch, else it fails with :class:`Fenced` and writes
nothing. Batches without an epoch (a single server, the default) are written as ever.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TypeVar

from sqlalchemy import (
    Table,
    bindparam,
    create_engine,
    delete,
    event,
    func,
    insert,
    select,
    true,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import URL, Connection, Engine, make_url
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine
from sqlalchemy.pool import NullPool
from sqlalchemy.sql import Select

from liarsdice.server import ratings
from liarsdice.server.claim import Claim, StoreInUse, claim_for
from liarsdice.server.migrations import upgrade_head
from liarsdice.server.ratings import BOT_PLAYER_PREFIX, Standing
from liarsdice.server.schema import (
    events_table,
    fair_seeds_table,
    games_table,
    metadata,
    player_games_table,
    player_ratings_table,
    players_table,
    room_leases_table,
    room_secrets_table,
    room_snapshots_table,
    rooms_table,
    seats_table,
    store_probe_table,
)

DEFAULT_DB_URL = "sqlite+aiosqlite:///liarsdice.db"
PROBE_BYTES = 32 * 1024  # a probe writes about as much as a finished game's record
CLOSED = "closed"  # ``rooms.status`` of a room unloaded for idleness (not loaded at startup)
WRITE_TIMEOUT = 30.0  # seconds (a server sets it from --store-timeout: Store.write_timeout)
CONNECT_TIMEOUT = 10.0  # seconds to open a database connection (PostgreSQL)
# PostgreSQL: how long a fenced write transaction may sit idle (its node paused, partitioned)
# before the server aborts it, releasing its hold on the fence to a node taking the room
FENCE_IDLE_MS = 5000

_T = TypeVar("_T")


@dataclass
class Batch:
    """Everything one command writes, in one transaction."""

    room_id: str
    # (seq, kind, data): data as a dict, or already as its JSON text
    events: list[tuple[int, str, dict[str, Any] | str]] = field(default_factory=list)
    new_room: dict[str, Any] | None = None
    room_update: dict[str, Any] = field(default_factory=dict)
    seats: list[dict[str, Any]] = field(default_factory=list)
    games: list[dict[str, Any]] = field(default_factory=list)
    game_updates: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    seeds: list[tuple[int, str, str]] = field(default_factory=list)
    secret: str | None = None  # the room's bot secret, written once (``room_secrets``)
    touch: bool = False  # a write with no event (a probe of a paused room): ``updated_at``
    reseat: bool = False  # seats were removed: ``seats`` is the room's whole seat list
    players: list[dict[str, Any]] = field(default_factory=list)  # new guest identities
    renames: list[tuple[str, str]] = field(default_factory=list)  # (player id, new name)
    # a finished game's rated seats: ``(game_no, standings)``; the writer fills ``rated``
    standings: tuple[int, list[Standing]] | None = None
    rated: dict[str, int] = field(default_factory=dict)  # player -> display rating after
    # the room's value just before a game started, ``(seq, JSON-ready value)``: replaces the
    # room's snapshot (startup folds only the events after it)
    snapshot: tuple[int, Any] | None = None
    probe: int = 0  # a probe's write of this many bytes (written and deleted: proves space)
    # the writer's lease epoch on the room (several nodes on one database): the batch commits
    # only while the room's fence (``room_leases``) holds exactly this epoch, else
    # :class:`Fenced`; None (a single server): no check
    epoch: int | None = None

    def __bool__(self) -> bool:
        return bool(
            self.events
            or self.new_room
            or self.seeds
            or self.secret
            or self.touch
            or self.players
            or self.renames
            or self.probe
            or self.snapshot is not None
        )


class Fenced(RuntimeError):
    """A room's fence stands elsewhere: a write whose epoch is not the fence's, or a lease
    whose epoch is not above it. ``current`` is the fence's epoch (None: the room has none)."""

    def __init__(self, room_id: str, epoch: int, current: int | None) -> None:
        super().__init__(f"room {room_id}: epoch {epoch} is fenced off (the fence is at {current})")
        self.room_id = room_id
        self.epoch = epoch
        self.current = current


@dataclass
class StoredRoom:
    """A room as loaded at startup: its events in order and its server seeds."""

    room_id: str
    events: list[tuple[int, str, dict[str, Any]]]
    seeds: dict[int, str]
    secret: str | None = None  # None for a room created before migration 0002
    snapshot: tuple[int, Any] | None = None  # (seq, JSON value) when it has one: events after


def _now() -> datetime:
    return datetime.now(UTC)


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA busy_timeout=5000")
    cur.close()


def _upgrade(conn: Connection) -> None:
    upgrade_head(conn)


def _insert_many(conn: Connection, table: Table, rows: list[dict[str, Any]]) -> None:
    """Insert ``rows`` (in order) with one executemany per set of keys."""
    groups: dict[tuple[str, ...], list[dict[str, Any]]] = {}
    for row in rows:
        groups.setdefault(tuple(row), []).append(row)
    for group in groups.values():
        conn.execute(insert(table), group)


def _check_fences(conn: Connection, batches: list[Batch]) -> None:
    """Raise :class:`Fenced` unless every batch with an epoch has its room's fence at it.

    On PostgreSQL the fences are read ``FOR SHARE``: held to the end of the transaction, so a
    node taking one of these rooms (:meth:`Store.take_lease`) waits until it commits; and a
    transaction left idle (the node paused) is aborted after :data:`FENCE_IDLE_MS`."""
    rooms = sorted({b.room_id for b in batches if b.epoch is not None})
    if not rooms:
        return
    query = select(room_leases_table.c.room_id, room_leases_table.c.epoch).where(
        room_leases_table.c.room_id.in_(rooms)
    )
    if conn.dialect.name == "postgresql":
        idle = func.set_config("idle_in_transaction_session_timeout", str(FENCE_IDLE_MS), true())
        conn.execute(select(idle))
        query = query.order_by(room_leases_table.c.room_id).with_for_update(read=True)
    fences: dict[str, int] = {room_id: epoch for room_id, epoch in conn.execute(query)}
    for b in batches:
        if b.epoch is not None and fences.get(b.room_id) != b.epoch:
            raise Fenced(b.room_id, b.epoch, fences.get(b.room_id))


@dataclass
class _Rows:
    """The rows of a group of batches, gathered to be inserted table by table."""

    now: datetime
    rooms: list[dict[str, Any]] = field(default_factory=list)
    seeds: list[dict[str, Any]] = field(default_factory=list)
    secrets: list[dict[str, Any]] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    seats: list[dict[str, Any]] = field(default_factory=list)
    games: list[dict[str, Any]] = field(default_factory=list)
    room_updates: dict[str, dict[str, Any]] = field(default_factory=dict)

    def add(self, b: Batch) -> None:
        """Gather the rows of ``b`` (one command's)."""
        now = self.now
        if b.new_room is not None:
            row = dict(b.new_room)
            row["options"] = json.dumps(row["options"])
            self.rooms.append({"id": b.room_id, "created_at": now, "updated_at": now, **row})
        self.seeds += [
            {"room_id": b.room_id, "idx": idx, "server_seed": seed, "commitment": commit}
            for idx, seed, commit in b.seeds
        ]
        self.events += [
            {"room_id": b.room_id, "seq": seq, "kind": kind, "data": _text(data), "created_at": now}
            for seq, kind, data in b.events
        ]
        if b.secret is not None:
            self.secrets.append({"room_id": b.room_id, "bot_secret": b.secret})
        self.seats += [{"room_id": b.room_id, **seat} for seat in b.seats]
        self.games += [{"room_id": b.room_id, **game} for game in b.games]
        if b.room_update or b.events or b.touch:
            values = self.room_updates.setdefault(b.room_id, {})
            values.update(b.room_update)
            if b.events:
                values["seq"] = b.events[-1][0]


def _text(data: Any) -> str:
    """An event's data as its row stores it (JSON made once: the event's own text)."""
    return data if isinstance(data, str) else json.dumps(data, separators=(",", ":"))


def _write_group(conn: Connection, batches: list[Batch], now: datetime) -> None:
    """Write ``batches`` (each one command's) on ``conn``, inside the caller's transaction.

    The fences of the batches with an epoch are read first (on PostgreSQL ``FOR SHARE``: held
    to the commit). SQLite's driver begins the transaction only at the first write, so there
    they are read again after the writes, under the write lock, which holds them to the commit."""
    _check_fences(conn, batches)
    rows = _Rows(now)
    for b in batches:
        rows.add(b)
    _insert_many(conn, rooms_table, rows.rooms)
    _insert_many(conn, fair_seeds_table, rows.seeds)
    _insert_many(conn, room_secrets_table, rows.secrets)
    _insert_many(conn, events_table, rows.events)
    for b in batches:
        if b.reseat:
            conn.execute(delete(seats_table).where(seats_table.c.room_id == b.room_id))
    _insert_many(conn, seats_table, rows.seats)
    _insert_many(conn, games_table, rows.games)
    _insert_many(conn, players_table, [p for b in batches for p in b.players])
    for b in batches:
        _rename_and_rate(conn, b, now)
    for b in batches:
        _write_one(conn, b)
    _update_rooms(conn, rows.room_updates, now)
    if conn.dialect.name != "postgresql":
        _check_fences(conn, batches)


def _rename_and_rate(conn: Connection, b: Batch, now: datetime) -> None:
    """A batch's players' new names, and its finished game's ratings (``b.rated``)."""
    for player_id, name in b.renames:
        conn.execute(
            update(players_table)
            .where(players_table.c.id == player_id)
            .values(name=name, updated_at=now)
        )
    if b.standings is not None:
        b.rated = _rate_game(conn, b.room_id, *b.standings, now)


def _write_one(conn: Connection, b: Batch) -> None:
    """The rows of one batch that are written one statement each."""
    if b.snapshot is not None:
        seq, value = b.snapshot
        conn.execute(
            delete(room_snapshots_table).where(room_snapshots_table.c.room_id == b.room_id)
        )
        conn.execute(
            insert(room_snapshots_table).values(
                room_id=b.room_id, seq=seq, data=json.dumps(value, separators=(",", ":"))
            )
        )
    if b.probe:  # room for a real write: written, then deleted (the space was found)
        key = f"probe-{b.room_id}"[:32]
        conn.execute(delete(store_probe_table).where(store_probe_table.c.id == key))
        conn.execute(insert(store_probe_table).values(id=key, payload="x" * b.probe))
        conn.execute(delete(store_probe_table).where(store_probe_table.c.id == key))
    for game_no, values in b.game_updates:
        conn.execute(
            update(games_table)
            .where(games_table.c.room_id == b.room_id)
            .where(games_table.c.game_no == game_no)
            .values(**values)
        )


def _update_rooms(conn: Connection, room_updates: dict[str, dict[str, Any]], now: datetime) -> None:
    """The ``rooms`` rows' new values: one executemany per set of changed columns."""
    by_keys: dict[tuple[str, ...], list[dict[str, Any]]] = {}
    for room_id, values in room_updates.items():
        params = {"b_room": room_id, "b_now": now, **{f"b_{k}": v for k, v in values.items()}}
        by_keys.setdefault(tuple(sorted(values)), []).append(params)
    for keys, params_list in by_keys.items():
        stmt = (
            update(rooms_table)
            .where(rooms_table.c.id == bindparam("b_room"))
            .values(updated_at=bindparam("b_now"), **{k: bindparam(f"b_{k}") for k in keys})
        )
        conn.execute(stmt, params_list)


def _lease_upsert(dialect: str, room_id: str, epoch: int, node: str) -> Any:
    """``room_leases``' upsert that only raises a fence; it returns the row's epoch when it
    did (nothing when the fence stood at ``epoch`` or above)."""
    dialect_insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    row = {"room_id": room_id, "epoch": epoch, "node": node, "taken_at": _now()}
    upsert = dialect_insert(room_leases_table).values(**row)
    return upsert.on_conflict_do_update(
        index_elements=[room_leases_table.c.room_id],
        set_={k: upsert.excluded[k] for k in ("epoch", "node", "taken_at")},
        where=room_leases_table.c.epoch < upsert.excluded.epoch,
    ).returning(room_leases_table.c.epoch)


async def _read_fence(conn: AsyncConnection, room_id: str) -> int | None:
    found = await conn.execute(
        select(room_leases_table.c.epoch).where(room_leases_table.c.room_id == room_id)
    )
    epoch = found.scalar_one_or_none()
    return None if epoch is None else int(epoch)


def new_player_row(
    player_id: str, name: str, kind: str, token_hash: str | None, now: datetime
) -> dict[str, Any]:
    """A ``players`` row for a new identity (unrated: a newcomer's rating in every family)."""
    return {
        "id": player_id,
        "token_hash": token_hash,
        "name": name,
        "kind": kind,
        "created_at": now,
        "updated_at": now,
    }


def _game_family(conn: Connection, room_id: str, game_no: int) -> tuple[str, str | None, bool]:
    """A finished game's rating family, its preset, and whether its room is a tutorial."""
    row = conn.execute(
        select(games_table.c.rules, rooms_table.c.tutorial)
        .select_from(games_table.outerjoin(rooms_table, rooms_table.c.id == games_table.c.room_id))
        .where(games_table.c.room_id == room_id)
        .where(games_table.c.game_no == game_no)
    ).first()
    preset = None if row is None else row.rules
    return ratings.family_of_preset(preset), preset, bool(row is not None and row.tutorial)


def _rate_game(
    conn: Connection, room_id: str, game_no: int, standings: list[Standing], now: datetime
) -> dict[str, int]:
    """Rate a finished game inside the writer's transaction (so that two rooms finishing at
    once both count): read the players' ratings in the game's family, apply the model, write
    ratings, counts and one ``player_games`` row each. Bot levels get their row on first use;
    a player's first game of a family, its rating row. A tutorial room's games are not rated.
    Returns the new shown ratings by :func:`~liarsdice.server.ratings.rating_key`."""
    family, preset, tutorial = _game_family(conn, room_id, game_no)
    if tutorial:
        return {}
    field_ = ratings.best_places(standings)
    ids = [s.player for s in field_]
    known = set(conn.scalars(select(players_table.c.id).where(players_table.c.id.in_(ids))))
    bots = [i for i in ids if i not in known and i.startswith(BOT_PLAYER_PREFIX)]
    if bots:
        _insert_many(
            conn,
            players_table,
            [new_player_row(i, _bot_name(i), "bot", None, now) for i in bots],
        )
    field_ = [s for s in field_ if s.player in known or s.player in bots]
    rows = _family_ratings(conn, family, [s.player for s in field_], now)
    pr = player_ratings_table
    current = {i: (r.mu, r.sigma) for i, r in rows.items()}
    new = ratings.rate(current, field_)
    out: dict[str, int] = {}
    for s in field_:
        if s.player not in new:
            continue
        mu, sigma = new[s.player]
        shown = ratings.display(mu, sigma)
        out[ratings.rating_key(family, s.player)] = shown
        conn.execute(
            update(pr)
            .where(pr.c.player_id == s.player)
            .where(pr.c.family == family)
            .values(
                mu=mu,
                sigma=sigma,
                score=ratings.score(mu, sigma),
                games=pr.c.games + 1,
                wins=pr.c.wins + (1 if s.place == 1 else 0),
                calls_made=pr.c.calls_made + s.calls_made,
                calls_won=pr.c.calls_won + s.calls_won,
                updated_at=now,
            )
        )
        conn.execute(
            insert(player_games_table).values(
                player_id=s.player,
                room_id=room_id,
                game_no=game_no,
                place=s.place,
                players=len(standings),
                calls_made=s.calls_made,
                calls_won=s.calls_won,
                rating=shown,
                finished_at=now,
                family=family,
                preset=preset,
            )
        )
    return out


def _family_ratings(conn: Connection, family: str, ids: list[str], now: datetime) -> dict[str, Any]:
    """The ``player_ratings`` rows of these players in ``family``; a newcomer's first, for
    those without one (written in the caller's transaction)."""
    pr = player_ratings_table
    query = select(pr).where(pr.c.family == family).where(pr.c.player_id.in_(ids))
    rows = {r.player_id: r for r in conn.execute(query)}
    fresh = [i for i in ids if i not in rows]
    if fresh:
        mu0, sigma0 = ratings.INITIAL
        zero = {"games": 0, "wins": 0, "calls_made": 0, "calls_won": 0}
        _insert_many(
            conn,
            pr,
            [
                {"player_id": i, "family": family, "mu": mu0, "sigma": sigma0, **zero}
                | {"score": ratings.score(mu0, sigma0), "updated_at": now}
                for i in fresh
            ],
        )
    return rows


def _bot_name(player_id: str) -> str:
    return f"{player_id.removeprefix(BOT_PLAYER_PREFIX)} bot"


def _family_facts(r: Any) -> dict[str, Any]:
    """A player's rating and counts in one family (a ``player_ratings`` row, or None: a
    newcomer's)."""
    if r is None:
        return {"rating": ratings.display(*ratings.INITIAL), "games": 0, "wins": 0}
    return {"rating": ratings.display(r.mu, r.sigma), "games": r.games, "wins": r.wins}


def _family_page(r: Any) -> dict[str, Any]:
    """:func:`_family_facts` and the calls (a player's page)."""
    calls = (
        {"calls_made": 0, "calls_won": 0}
        if r is None
        else {
            "calls_made": r.calls_made,
            "calls_won": r.calls_won,
        }
    )
    return {**_family_facts(r), **calls}


def _player_row(p: Any, r: Any, family: str) -> dict[str, Any]:
    """A player's public facts in ``family`` (a leaderboard line, the head of a player's
    page): ``p`` the ``players`` row, ``r`` the family's ``player_ratings`` row or None."""
    return {
        "player": p.id,
        "name": p.name,
        "kind": p.kind,
        "level": ratings.bot_level(p.id) if p.kind == "bot" else None,
        "tag": ratings.tag(p.id),
        "family": family,
        **_family_facts(r),
    }


# The columns of a ``player_games`` row that a player's page shows as they are (between the
# game's room and when it finished).
_RECENT_GAME = (
    "game_no",
    "family",
    "preset",
    "place",
    "players",
    "calls_made",
    "calls_won",
    "rating",
)


def _recent_game(g: Any) -> dict[str, Any]:
    facts = {name: getattr(g, name) for name in _RECENT_GAME}
    return {"room": g.room_id, **facts, "at": g.finished_at.isoformat()}


async def _player_page(
    conn: AsyncConnection, player_id: str, family: str, recent: int
) -> dict[str, Any] | None:
    """:meth:`Store.player`'s page."""
    row = (await conn.execute(select(players_table).where(players_table.c.id == player_id))).first()
    if row is None:
        return None
    pr = player_ratings_table
    by_family = {
        r.family: r for r in await conn.execute(select(pr).where(pr.c.player_id == row.id))
    }
    families = {
        f: {
            **_family_page(by_family.get(f)),
            "recent": await _recent_games(conn, row.id, f, recent),
        }
        for f in ratings.FAMILY_NAMES
    }
    return {
        **_player_row(row, None, family),
        **_family_page(by_family.get(family)),
        "families": families,
        "recent": families[family]["recent"],  # each family's games apart
    }


async def _recent_games(
    conn: AsyncConnection, player_id: str, family: str, limit: int
) -> list[dict[str, Any]]:
    """A player's latest rated games of one family, newest first. A private room is reached
    by its link only: its games are left out (the link is the room's id, and a game's place
    and time tell about the room too)."""
    pg = player_games_table
    games = await conn.execute(
        select(pg)
        .outerjoin(rooms_table, rooms_table.c.id == pg.c.room_id)
        .where(pg.c.player_id == player_id)
        .where(pg.c.family == family)
        .where(rooms_table.c.private.is_not(true()))  # (no room row: not private)
        .order_by(pg.c.finished_at.desc(), pg.c.room_id)
        .limit(limit)
    )
    return [_recent_game(g) for g in games]


async def _leaderboard(
    conn: AsyncConnection, offset: int, limit: int, family: str, bots: bool
) -> tuple[list[dict[str, Any]], int]:
    """:meth:`Store.leaderboard`'s page and count."""
    pr = player_ratings_table
    kind = players_table.c.kind
    rated = (pr.c.family == family) & (pr.c.games > 0) & (kind == "bot" if bots else kind != "bot")
    both = pr.join(players_table, pr.c.player_id == players_table.c.id)
    total = await conn.scalar(select(func.count()).select_from(both).where(rated))
    rows = await conn.execute(
        select(players_table, *pr.c["mu", "sigma", "games", "wins"])
        .join(pr, pr.c.player_id == players_table.c.id)
        .where(rated)
        .order_by(pr.c.score.desc(), players_table.c.id)
        .offset(offset)
        .limit(limit)
    )
    return [_player_row(r, r, family) for r in rows], int(total or 0)


class Store:
    """The database: open with :meth:`start`, close with :meth:`close`.

    Writes go through one writer task with *group commit*: the batches of every command
    that asks to be written while a transaction is in flight are written together in the
    next one (one transaction, one commit), and each :meth:`write` returns once its batch is
    committed. Under load this keeps commits per second low and spares the event loop one
    round trip per statement; an idle server writes each batch on its own, at once. With a
    SQLite file the whole transaction runs on a dedicated thread with its own (synchronous)
    connection, so a group costs the event loop a single round trip.

    Batches are written strictly in the order :meth:`write` queued them, and a batch whose
    caller stopped waiting (a timeout) is still written. A room's probe relies on this: its
    own write returns only after every batch the room gave up on has committed or failed.
    """

    def __init__(
        self, url: str = DEFAULT_DB_URL, *, claim: bool = True, migrate: bool | None = None
    ) -> None:
        self.url = url
        # A server's store claims its database (one server per database) and migrates it; a
        # reader (``claim=False``, :meth:`reader`) does neither: it reads beside a server. A
        # cluster's node migrates (under an advisory lock) but claims nothing: its rooms'
        # writes are fenced per room instead (``take_lease``).
        self.claims = claim
        self.migrates = claim if migrate is None else migrate
        self._claim: Claim | None = None
        self.engine: AsyncEngine | None = None
        self._sync_engine: Engine | None = None
        self._sync_conn: Connection | None = None  # used on the writer thread only
        self._executor: ThreadPoolExecutor | None = None
        self._pending: list[tuple[Batch, asyncio.Future[None]]] = []
        self._wake: asyncio.Event | None = None
        self._writer: asyncio.Task[None] | None = None
        self._closing = False
        # The longest a write transaction may take before it is abandoned (its connection
        # dropped): a database cut off without a reset otherwise holds the one writer, and
        # every write queued behind it, until TCP gives up or its retries resume, minutes
        # after the network heals.
        self.write_timeout = WRITE_TIMEOUT

    @property
    def is_sqlite(self) -> bool:
        return self.url.startswith("sqlite")

    def _sqlite_file(self) -> URL | None:
        """The synchronous (pysqlite) URL of a SQLite *file* database, else None."""
        if not self.is_sqlite:
            return None
        url = make_url(self.url)
        if not url.database or url.database == ":memory:" or "memory" in str(url.query):
            return None
        return url.set(drivername="sqlite+pysqlite")

    @classmethod
    def reader(cls, url: str) -> Store:
        """A store that reads a database a server may be running on: no claim, no migrations
        (for tests, audits and tools; do not write through it)."""
        return cls(url, claim=False)

    async def start(self) -> None:
        """Claim the database, connect, switch SQLite to WAL, and run the migrations up to head.

        Raises :class:`StoreInUse` when another server (or another store of this process)
        holds the database: see :mod:`liarsdice.server.claim`. A claim this process took
        beforehand (:func:`~liarsdice.server.claim.claim_database`, as ``liarsdice serve``
        does) is adopted, and stays with its taker on :meth:`close`."""
        if self.claims:
            await self._take_claim()
        try:
            await self._start()
        except BaseException:
            with contextlib.suppress(Exception):
                await self.close()
            raise

    async def _take_claim(self) -> None:
        if self._claim is None or self._claim.released:
            self._claim = await asyncio.to_thread(claim_for, self.url, self)

    def _drop_claim(self) -> None:
        claim, self._claim = self._claim, None
        if claim is None:
            return
        if claim.owner is self:
            claim.release()
        elif claim.user is self:
            claim.user = None  # (taken beforehand: it stays with its taker)

    async def _start(self) -> None:
        # (asyncpg: a connection that does not open in CONNECT_TIMEOUT fails, as a write does)
        extra = {} if self.is_sqlite else {"connect_args": {"timeout": CONNECT_TIMEOUT}}
        self.engine = create_async_engine(self.url, **extra)
        if self.is_sqlite:
            event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)
        if self.migrates:
            async with self.engine.begin() as conn:
                await conn.run_sync(_upgrade)
        sync_url = self._sqlite_file()
        if sync_url is not None:
            self._sync_engine = create_engine(sync_url, poolclass=NullPool)
            event.listen(self._sync_engine, "connect", _sqlite_pragmas)
            self._executor = ThreadPoolExecutor(1, thread_name_prefix="liarsdice-db")
            await self._on_thread(self._open_sync)
        self._closing = False
        self._pending = []
        self._wake = asyncio.Event()
        self._writer = asyncio.get_running_loop().create_task(
            self._write_loop(), name="liarsdice-db-writer"
        )

    async def close(self) -> None:
        if self._writer is not None and self._wake is not None:
            self._closing = True
            self._wake.set()
            with contextlib.suppress(asyncio.CancelledError):
                await self._writer
            self._writer = None
        if self._executor is not None:
            await self._on_thread(self._close_sync)
            self._executor.shutdown(wait=True)
            self._executor = None
        if self._sync_engine is not None:
            self._sync_engine.dispose()
            self._sync_engine = None
        if self.engine is not None:
            await self.engine.dispose()
            self.engine = None
        if self._claim is not None:
            await asyncio.to_thread(self._drop_claim)

    def _engine(self) -> AsyncEngine:
        if self.engine is None:
            raise RuntimeError("the store is not started")
        return self.engine

    async def _on_thread(self, fn: Callable[[], _T]) -> _T:
        assert self._executor is not None
        return await asyncio.get_running_loop().run_in_executor(self._executor, fn)

    def _open_sync(self) -> None:
        assert self._sync_engine is not None
        self._sync_conn = self._sync_engine.connect()

    def _close_sync(self) -> None:
        if self._sync_conn is not None:
            self._sync_conn.close()
            self._sync_conn = None

    async def write(self, batch: Batch) -> None:
        """Append a command's events (and projections) atomically; return once committed."""
        if not batch:
            return
        self._engine()
        if self._writer is None or self._wake is None or self._writer.done() or self._closing:
            raise RuntimeError("the store is not started")
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((batch, fut))
        self._wake.set()
        await fut

    async def _write_loop(self) -> None:
        """The writer task: write whatever is pending, in one transaction per group."""
        assert self._wake is not None
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._pending:
                group, self._pending = self._pending, []
                try:
                    await self._bounded([b for b, _ in group])
                except Exception:
                    # A batch that fails must fail alone: write them one by one.
                    for b, fut in group:
                        try:
                            await self._bounded([b])
                        except Exception as err:
                            if not fut.done():
                                fut.set_exception(err)
                        else:
                            if not fut.done():
                                fut.set_result(None)
                    continue
                for _, fut in group:
                    if not fut.done():
                        fut.set_result(None)
            if self._closing:
                return

    async def _bounded(self, batches: list[Batch]) -> None:
        """A transaction of ``batches`` within :attr:`write_timeout` (else TimeoutError)."""
        await asyncio.wait_for(self._transaction(batches), self.write_timeout)

    async def _transaction(self, batches: list[Batch]) -> None:
        now = _now()
        if self._executor is not None:
            await self._on_thread(lambda: self._transaction_sync(batches, now))
            return
        async with self._engine().begin() as conn:
            await conn.run_sync(_write_group, batches, now)

    def _transaction_sync(self, batches: list[Batch], now: datetime) -> None:
        conn = self._sync_conn
        if conn is None:
            raise RuntimeError("the store is not started")
        try:
            with conn.begin():
                _write_group(conn, batches, now)
        except Exception:
            if conn.invalidated:
                self._close_sync()
                self._open_sync()
            raise

    async def probe(self, size: int = PROBE_BYTES, room_id: str = "") -> None:
        """A real write that is not kept: ``size`` bytes written to ``store_probe`` and
        deleted, in one committed transaction, queued behind every write before it. A
        read-only, full or otherwise unwritable database fails here (a rolled-back write
        would not: SQLite never takes it to the disk)."""
        await self.write(Batch(room_id, probe=size))

    async def take_lease(self, room_id: str, epoch: int, node: str) -> None:
        """Raise the room's fence to ``epoch`` for ``node`` (one committed transaction):
        from then on only batches of this epoch commit for the room. :class:`Fenced`, and
        nothing changed, when the fence already stands at ``epoch`` or above.

        On PostgreSQL the row lock waits for each write transaction that has read the fence
        (``FOR SHARE``): once this returns, every write of an older owner is either committed
        (in the log the new owner loads next) or refused. Not queued behind pending writes."""
        async with self._engine().begin() as conn:
            if (await conn.execute(_lease_upsert(conn.dialect.name, room_id, epoch, node))).first():
                return
            raise Fenced(room_id, epoch, await _read_fence(conn, room_id))

    async def lease_epoch(self, room_id: str) -> int | None:
        """The room's fence: the epoch of its latest lease (None: no node has taken it)."""
        async with self._engine().connect() as conn:
            return await _read_fence(conn, room_id)

    async def load(self) -> list[StoredRoom]:
        """Every open room with its events (in order), server seeds and bot secret.

        Rooms closed for idleness (status ``closed``) are left out: their finished games'
        records stay in ``games`` (:meth:`record`)."""
        async with self._engine().connect() as conn:
            ids = [
                r[0]
                for r in await conn.execute(
                    select(rooms_table.c.id).where(rooms_table.c.status != CLOSED)
                )
            ]
            open_ids = select(rooms_table.c.id).where(rooms_table.c.status != CLOSED)
            return await self._load(conn, ids, lambda col: col.in_(open_ids))

    async def load_room(self, room_id: str, since: int | None = None) -> StoredRoom | None:
        """One room as :meth:`load` gives it (None when there is no such room); ``since``:
        no snapshot, the events after that ``seq`` (a paused room catching up on its log)."""
        async with self._engine().connect() as conn:
            found = await conn.execute(select(rooms_table.c.id).where(rooms_table.c.id == room_id))
            if found.first() is None:
                return None
            return (await self._load(conn, [room_id], lambda col: col == room_id, since))[0]

    async def _load(
        self,
        conn: AsyncConnection,
        ids: list[str],
        which: Callable[[Any], Any],
        since: int | None = None,
    ) -> list[StoredRoom]:
        """The rooms ``ids``; ``which(room_id column)`` selects their rows in each table.
        A room with a snapshot gets the events after it only (``since``: after that)."""
        wanted = set(ids)

        def rooms_rows(table: Table, *names: str) -> Select[Any]:
            return select(*table.c[names]).where(which(table.c.room_id))

        snapshots: dict[str, tuple[int, Any]] = {}
        for room_id, seq, data in await conn.execute(
            rooms_rows(room_snapshots_table, "room_id", "seq", "data")
        ):
            if since is None:
                snapshots[room_id] = (seq, json.loads(data))
        snap = room_snapshots_table.alias("snap")
        after = func.coalesce(snap.c.seq, 0) if since is None else since
        rows = await conn.execute(
            rooms_rows(events_table, "room_id", "seq", "kind", "data")
            .select_from(events_table.outerjoin(snap, snap.c.room_id == events_table.c.room_id))
            .where(events_table.c.seq > after)
            .order_by(events_table.c.room_id, events_table.c.seq)
        )
        events: dict[str, list[tuple[int, str, dict[str, Any]]]] = {i: [] for i in ids}
        for room_id, seq, kind, data in rows:
            if room_id in wanted:  # (a room created since the ids were read: not yet)
                events[room_id].append((seq, kind, json.loads(data)))
        seeds: dict[str, dict[int, str]] = {}
        for room_id, idx, seed in await conn.execute(
            rooms_rows(fair_seeds_table, "room_id", "idx", "server_seed")
        ):
            seeds.setdefault(room_id, {})[idx] = seed
        secrets: dict[str, str] = {}
        for room_id, secret in await conn.execute(
            rooms_rows(room_secrets_table, "room_id", "bot_secret")
        ):
            secrets[room_id] = secret
        return [
            StoredRoom(i, events[i], seeds.get(i, {}), secrets.get(i), snapshots.get(i))
            for i in ids
        ]

    async def record(self, room_id: str, game_no: int) -> dict[str, Any] | None:
        """A finished game's JSON record from ``games`` (None when there is none)."""
        async with self._engine().connect() as conn:
            row = (
                await conn.execute(
                    select(games_table.c.record)
                    .where(games_table.c.room_id == room_id)
                    .where(games_table.c.game_no == game_no)
                )
            ).first()
        if row is None or row[0] is None:
            return None
        record: dict[str, Any] = json.loads(row[0])
        return record

    # ------------------------------------------------------------------------ players
    async def player_by_token(self, token_hash: str) -> dict[str, Any] | None:
        """The guest identity with this token hash: ``{"player", "name", "ratings"}``
        (``ratings``: the shown rating by :func:`~liarsdice.server.ratings.rating_key`)."""
        async with self._engine().connect() as conn:
            row = (
                await conn.execute(
                    select(players_table.c.id, players_table.c.name).where(
                        players_table.c.token_hash == token_hash
                    )
                )
            ).first()
        if row is None:
            return None
        return {"player": row.id, "name": row.name, "ratings": await self.ratings_of([row.id])}

    async def ratings_of(self, ids: list[str]) -> dict[str, int]:
        """The shown ratings of these players (those that have a row) in every family, by
        :func:`~liarsdice.server.ratings.rating_key` (a family never played: a newcomer's)."""
        if not ids:
            return {}
        pr = player_ratings_table
        async with self._engine().connect() as conn:
            known = list(
                await conn.scalars(select(players_table.c.id).where(players_table.c.id.in_(ids)))
            )
            rows = await conn.execute(
                select(pr.c.player_id, pr.c.family, pr.c.mu, pr.c.sigma).where(
                    pr.c.player_id.in_(known)
                )
            )
            found = {(f, i): ratings.display(mu, sigma) for i, f, mu, sigma in rows}
        newcomer = ratings.display(*ratings.INITIAL)
        return {
            ratings.rating_key(f, i): found.get((f, i), newcomer)
            for i in known
            for f in ratings.FAMILY_NAMES
        }

    async def player(
        self, player_id: str, family: str = ratings.DEFAULT_FAMILY, recent: int = 20
    ) -> dict[str, Any] | None:
        """A player's page: rating and counts in ``family`` (and ``families``: every family's
        rating, games and wins) and the last ``recent`` rated games of every family.

        The counts and the rating cover every rated game; ``recent`` leaves out the games of
        private rooms (a private room's id is its only key)."""
        async with self._engine().connect() as conn:
            return await _player_page(conn, player_id, family, recent)

    async def leaderboard(
        self, offset: int, limit: int, family: str = ratings.DEFAULT_FAMILY, bots: bool = False
    ) -> tuple[list[dict[str, Any]], int]:
        """Players with at least one rated game in ``family``, best first in it; and how
        many there are. People and bots are ranked apart: the people, or with ``bots`` the
        bot levels."""
        async with self._engine().connect() as conn:
            return await _leaderboard(conn, offset, limit, family, bots)

    async def events(
        self, room_id: str, kinds: tuple[str, ...] | None = None
    ) -> list[tuple[int, str, dict[str, Any]]]:
        """One room's event log, in order (for tests and audits); only those of ``kinds``
        when given (who made each move of a game, for its analysis)."""
        query = (
            select(*events_table.c["seq", "kind", "data"])
            .where(events_table.c.room_id == room_id)
            .order_by(events_table.c.seq)
        )
        if kinds is not None:
            query = query.where(events_table.c.kind.in_(kinds))
        async with self._engine().connect() as conn:
            rows = await conn.execute(query)
            return [(seq, kind, json.loads(data)) for seq, kind, data in rows]


__all__ = [
    "CLOSED",
    "DEFAULT_DB_URL",
    "Batch",
    "Fenced",
    "Store",
    "StoreInUse",
    "StoredRoom",
    "events_table",
    "fair_seeds_table",
    "games_table",
    "metadata",
    "room_secrets_table",
    "rooms_table",
    "seats_table",
]
