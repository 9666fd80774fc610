"""Self-play data: bots play each other and every game is kept, as records or as arrays.

``liarsdice selfplay`` (:mod:`liarsdice.cli.selfplay`) is the command; ``docs/RESEARCH.md``
("The arena and self-play on Ray") describes the output. Game ``i`` of a self-play run is game
``i`` of the arena with the same spec (:func:`liarsdice.arena.play_observed`: the same seats,
chance and bot seeds), so the output depends only on the spec and the seed, never on
``--jobs`` or ``--ray``: the games are put back in order by index before anything is written.

Two formats:

* ``records``: one JSON record (docs/RECORD.md) per finished game, ``game-000017.json``,
  which ``liarsdice replay`` checks;
* ``arrays``: NumPy ``.npz`` shards of ``shard_games`` games each, ``arrays-00000.npz``, one
  row per decision (see :data:`ARRAY_FIELDS`).

Both write ``selfplay.json``: the config, the files, and the abandoned games (a bot error, as
in the arena: such games are left out of the data).

>>> import tempfile
>>> from pathlib import Path
>>> from liarsdice.core.bidding import preset
>>> spec = ArenaSpec(rules=preset("classic", players=2), bots=("prob", "random"), games=3)
>>> with tempfile.TemporaryDirectory() as tmp:
...     summary = run_selfplay(spec, Path(tmp), "arrays")
...     with np.load(Path(tmp) / "arrays-00000.npz") as data:
...         shapes = {k: data[k].shape for k in ("info_state", "action", "legal", "returns")}
>>> summary["games_written"], shapes["returns"], shapes["info_state"][1]
(3, (3, 2), 194)
>>> shapes["info_state"][0] == shapes["action"][0] == shapes["legal"][0]
True
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from liarsdice.arena import ArenaSpec, check_spec, play_observed
from liarsdice.families import dumps_record, record_from_state
from liarsdice.parallel import spread

__all__ = [
    "ARRAY_FIELDS",
    "FORMATS",
    "SELFPLAY_VERSION",
    "SelfPlayGame",
    "SelfPlayJob",
    "play_selfplay_chunk",
    "play_selfplay_game",
    "record_name",
    "run_selfplay",
    "shard_name",
]

SELFPLAY_VERSION = 1
FORMATS = ("records", "arrays")
MANIFEST = "selfplay.json"

ARRAY_FIELDS = {
    "info_state": "float32 (N, info_size): the acting seat's information-state tensor before "
    "its decision (the first observation_size floats are its observation tensor)",
    "action": "int32 (N,): the dense action index chosen",
    "legal": "bool (N, num_actions): the legal dense actions",
    "player": "int8 (N,): the acting seat",
    "game": "int32 (N,): the game index of each decision",
    "games": "int32 (G,): the finished games of the shard, in order",
    "offsets": "int64 (G + 1,): the decisions of games[g] are rows offsets[g]:offsets[g + 1]",
    "returns": "float32 (G, players): each seat's return at the end of the game",
    "seats": "str (G, players): the bot label in each seat",
    "observation_size": "int64 (): floats of the observation tensor",
}
"""The arrays of every ``.npz`` shard (N decisions of G finished games)."""


@dataclass(frozen=True)
class SelfPlayJob:
    """What a worker needs: the arena spec and the output format."""

    spec: ArenaSpec
    format: str


@dataclass
class SelfPlayGame:
    """One game's data: its JSON record (``records``) or its decisions as arrays (``arrays``);
    ``error`` when a bot error abandoned it (no data then)."""

    index: int
    seats: tuple[str, ...]
    error: str | None = None
    record: str | None = None
    returns: tuple[float, ...] = ()
    arrays: dict[str, Any] = field(default_factory=dict)


def play_selfplay_game(job: SelfPlayJob, index: int) -> SelfPlayGame:
    """Play game ``index`` of ``job`` and keep its data in ``job.format``."""
    rows: list[tuple[Any, int, list[int], int]] = []
    adapters: list[Any] = []

    def observe(game: Any, state: Any, seat: int, action: int) -> None:
        if not adapters:
            adapters.append(job.spec.family.adapter(game))
        adapter = adapters[0]
        rows.append(
            (
                adapter.information_state(state, seat),
                adapter.to_index(action),
                adapter.legal_indices(state),
                seat,
            )
        )

    keep = observe if job.format == "arrays" else None
    result, state = play_observed(job.spec, index, keep)
    if result.error is not None:
        return SelfPlayGame(index, result.seats, error=result.error.error)
    returns = tuple(float(r) for r in state.returns())
    if job.format == "records":
        record = dumps_record(record_from_state(state))
        return SelfPlayGame(index, result.seats, record=record, returns=returns)
    adapter = adapters[0] if adapters else job.spec.family.adapter(state.game)
    n = len(rows)
    legal = np.zeros((n, adapter.num_actions), dtype=np.bool_)
    for r, (_, _, indices, _) in enumerate(rows):
        legal[r, indices] = True
    info = np.zeros((n, adapter.info_size), dtype=np.float32)
    for r, row in enumerate(rows):
        info[r] = row[0]
    arrays = {
        "info_state": info,
        "action": np.array([row[1] for row in rows], dtype=np.int32),
        "legal": legal,
        "player": np.array([row[3] for row in rows], dtype=np.int8),
        "observation_size": adapter.observation_size,
    }
    return SelfPlayGame(index, result.seats, returns=returns, arrays=arrays)


def play_selfplay_chunk(job: SelfPlayJob, start: int, stop: int) -> list[SelfPlayGame]:
    """Games ``start`` to ``stop - 1`` (the unit of work of a worker)."""
    return [play_selfplay_game(job, i) for i in range(start, stop)]


def record_name(index: int) -> str:
    """The file of game ``index`` in the ``records`` format.

    >>> record_name(17), record_name(1234567)
    ('game-000017.json', 'game-1234567.json')
    """
    return f"game-{index:06d}.json"


def shard_name(shard: int) -> str:
    """The file of shard ``shard`` in the ``arrays`` format.

    >>> shard_name(3)
    'arrays-00003.npz'
    """
    return f"arrays-{shard:05d}.npz"


def _write_shard(path: Path, games: list[SelfPlayGame], players: int) -> None:
    done = [g for g in games if g.error is None]
    sizes = [len(g.arrays["action"]) for g in done]
    offsets = np.zeros(len(done) + 1, dtype=np.int64)
    offsets[1:] = np.cumsum(sizes, dtype=np.int64)

    def stack(name: str, dtype: npt.DTypeLike) -> npt.NDArray[Any]:
        parts = [g.arrays[name] for g in done]
        return np.concatenate(parts).astype(dtype) if parts else np.zeros(0, dtype=dtype)

    info_size = done[0].arrays["info_state"].shape[1] if done else 0
    actions = done[0].arrays["legal"].shape[1] if done else 0
    info = (
        np.concatenate([g.arrays["info_state"] for g in done])
        if done
        else np.zeros((0, info_size), dtype=np.float32)
    )
    legal = (
        np.concatenate([g.arrays["legal"] for g in done])
        if done
        else np.zeros((0, actions), dtype=np.bool_)
    )
    game_of_row = np.repeat(np.array([g.index for g in done], dtype=np.int32), sizes)
    with path.open("wb") as handle:
        np.savez_compressed(
            handle,
            info_state=info,
            action=stack("action", np.int32),
            legal=legal,
            player=stack("player", np.int8),
            game=game_of_row.astype(np.int32),
            games=np.array([g.index for g in done], dtype=np.int32),
            offsets=offsets,
            returns=np.array([g.returns for g in done], dtype=np.float32).reshape(-1, players),
            seats=np.array([list(g.seats) for g in done], dtype=np.str_).reshape(-1, players),
            observation_size=np.int64(done[0].arrays["observation_size"] if done else 0),
        )


def run_selfplay(
    spec: ArenaSpec,
    out: Path,
    fmt: str = "records",
    *,
    jobs: int = 1,
    ray: str | None = None,
    shard_games: int = 1000,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Play ``spec.games`` games and write them under ``out`` (created) in ``fmt``; returns
    the manifest (``selfplay.json``). Files are written as their games come in; shards of
    arrays once all their games have."""
    if fmt not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    if shard_games < 1:
        raise ValueError(f"shard_games must be positive, not {shard_games}")
    check_spec(spec)
    out.mkdir(parents=True, exist_ok=True)
    job = SelfPlayJob(spec, fmt)
    players = spec.num_players
    errors: dict[int, dict[str, Any]] = {}
    files: dict[int, str] = {}
    waiting: dict[int, SelfPlayGame] = {}  # arrays: games of shards not yet complete
    next_shard = 0
    shards = -(-spec.games // shard_games)
    for batch in spread(play_selfplay_chunk, job, spec.games, jobs=jobs, ray=ray):
        for g in batch:
            if g.error is not None:
                errors[g.index] = {"game": g.index, "seats": list(g.seats), "error": g.error}
            if fmt == "records":
                if g.record is not None:
                    (out / record_name(g.index)).write_text(g.record + "\n", encoding="utf-8")
                    files[g.index] = record_name(g.index)
            else:
                waiting[g.index] = g
        while fmt == "arrays" and next_shard < shards:
            first = next_shard * shard_games
            last = min(first + shard_games, spec.games)
            if any(i not in waiting for i in range(first, last)):
                break
            games = [waiting.pop(i) for i in range(first, last)]
            _write_shard(out / shard_name(next_shard), games, players)
            files[first] = shard_name(next_shard)
            next_shard += 1
        if progress is not None:
            progress(len(batch))
    manifest = {
        "selfplay": SELFPLAY_VERSION,
        "format": fmt,
        "config": spec.config(),
        "games_written": spec.games - len(errors),
        "shard_games": shard_games if fmt == "arrays" else None,
        "files": [files[k] for k in sorted(files)],
        "arrays": ARRAY_FIELDS if fmt == "arrays" else None,
        "abandoned": [errors[k] for k in sorted(errors)],
    }
    (out / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return manifest
