"""The arena: bot-against-bot matches, played in parallel, with statistics.

An arena plays ``games`` games between a list of bots under one set of rules (either rule
family), rotating the seats so that every bot sits in every seat equally often, and reports per
bot: wins with a Wilson 95% interval, average placement, a Bradley–Terry (Elo-scale) rating
with bootstrap error bars, and the wall time of its decisions. ``liarsdice arena`` is the
command-line front end (:mod:`liarsdice.cli.arena`); ``docs/ARENA.md`` explains the choices.

Every game is reproducible on its own: its chance RNG and each bot's RNG are seeded from
``(seed, game index)`` (and the bot's label), and every game gets freshly built bots, so results
never depend on how games are split between processes.

>>> from liarsdice.core.bidding import preset
>>> spec = ArenaSpec(rules=preset("classic", players=2), bots=("prob", "random"), games=4)
>>> result = run_arena(spec)
>>> [g.seats for g in result.games]
[('prob', 'random'), ('random', 'prob'), ('random', 'prob'), ('prob', 'random')]
>>> sum(s.games for s in result.standings), len(result.errors)
(8, 0)
>>> wilson_interval(0, 0)
(0.0, 1.0)
"""

from __future__ import annotations

import dataclasses
import math
import operator
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from liarsdice.bots.table import takes_think
from liarsdice.core.bidding.game import CHANCE
from liarsdice.families import Family, family_of_rules
from liarsdice.parallel import chunks, spread

__all__ = [
    "ELO_BASE",
    "ELO_SCALE",
    "MAX_MOVES",
    "ArenaResult",
    "ArenaSpec",
    "BotError",
    "BotStanding",
    "GameResult",
    "accepts_think",
    "build_game",
    "check_spec",
    "chunks",
    "elo_from_strengths",
    "fit_bradley_terry",
    "game_seats",
    "kind_of",
    "pairwise_scores",
    "play_chunk",
    "play_game",
    "play_observed",
    "rank_seats",
    "run_arena",
    "seat_labels",
    "summarize",
    "wilson_interval",
]

ELO_BASE = 1500.0  # the mean rating of the bots in an arena
ELO_SCALE = 400.0 / math.log(10.0)  # Elo points per unit of Bradley–Terry log-strength
MAX_MOVES = 100_000  # decisions after which a game is abandoned as endless
Z95 = 1.959963984540054  # the two-sided 95% normal quantile


# --------------------------------------------------------------------------- configuration
@dataclass(frozen=True)
class ArenaSpec:
    """What to play: rules (either family), bots, number of seats and games, seed, budget.

    ``bots`` are bot labels: names of the rules' family's bots (``Family.bots``), perhaps with
    options (``expert:cached=false``), cycled over the seats when there are fewer of them than
    players; ``players`` defaults to ``rules.players``. ``think`` is a per-move time budget in
    seconds, passed to bots that take one.
    """

    rules: Any  # the rules of any family (liarsdice.families)
    bots: tuple[str, ...]
    games: int = 100
    seed: int = 0
    players: int | None = None
    think: float | None = None

    @property
    def family(self) -> Family:
        """The rules' family."""
        return family_of_rules(self.rules)

    @property
    def num_players(self) -> int:
        """How many seats each game has."""
        return self.players if self.players is not None else self.rules.players

    @property
    def labels(self) -> tuple[str, ...]:
        """The bots' labels (see :func:`seat_labels`)."""
        return tuple(seat_labels(self.bots, self.num_players))

    def config(self) -> dict[str, Any]:
        """JSON-friendly description of the arena."""
        return {
            "rules": self.rules.name,
            "family": self.family.name,
            "options": self.rules.options(),
            "players": self.num_players,
            "bots": list(self.bots),
            "labels": list(self.labels),
            "games": self.games,
            "seed": self.seed,
            "think": self.think,
        }


def seat_labels(bots: Sequence[str], players: int) -> list[str]:
    """One label per bot instance: the names cycled up to ``players``, repeats numbered.

    >>> seat_labels(["prob", "random"], 4)
    ['prob#1', 'random#1', 'prob#2', 'random#2']
    >>> seat_labels(["expert", "prob", "random"], 2)
    ['expert', 'prob', 'random']
    """
    if not bots:
        raise ValueError("an arena needs at least one bot")
    names = [b.strip().lower() for b in bots]
    if len(names) < players:
        names = [names[i % len(names)] for i in range(players)]
    total = {n: names.count(n) for n in names}
    seen: dict[str, int] = {}
    out = []
    for n in names:
        seen[n] = seen.get(n, 0) + 1
        out.append(f"{n}#{seen[n]}" if total[n] > 1 else n)
    return out


def kind_of(label: str) -> str:
    """The bot name of a label: ``prob#2`` -> ``prob``, ``expert:exploit=0`` -> ``expert``."""
    return label.split("#", 1)[0].split(":", 1)[0].strip()


def game_seats(labels: Sequence[str], players: int, seed: int, index: int) -> tuple[str, ...]:
    """The labels seated in game ``index``, seat 0 first.

    Games come in blocks of ``len(labels)``: each block shuffles the labels once (from the seed
    and the block number, so the cyclic order of the table varies) and then rotates them one
    step per game. Over every complete block each label sits in each seat equally often; with
    more labels than seats, each game seats the first ``players`` labels of the rotation.

    >>> [game_seats(["a", "b", "c"], 3, 0, i) for i in range(3)]
    [('c', 'a', 'b'), ('a', 'b', 'c'), ('b', 'c', 'a')]
    """
    m = len(labels)
    block, shift = divmod(index, m)
    order = list(labels)
    random.Random(f"arena:{seed}:block:{block}").shuffle(order)
    return tuple(order[(shift + s) % m] for s in range(players))


def _chance_rng(seed: int, index: int) -> random.Random:
    return random.Random(f"arena:{seed}:game:{index}:chance")


def _bot_rng(seed: int, index: int, label: str) -> random.Random:
    return random.Random(f"arena:{seed}:game:{index}:bot:{label}")


def accepts_think(name: str, family: Family) -> bool:
    """Whether bot ``name`` of ``family`` uses a ``--think`` budget: its class has a ``think``
    field (:func:`~liarsdice.bots.table.takes_think`; docs/ARENA.md).

    >>> from liarsdice.families import family_of
    >>> accepts_think("random", family_of("classic")), accepts_think("expert", family_of("classic"))
    (False, True)
    """
    return name in family.bots and takes_think(family.bots[name])


# ------------------------------------------------------------------------------ one game
@dataclass(frozen=True)
class BotError:
    """A game abandoned because a bot raised or chose an illegal action."""

    game: int
    seed: int
    bot: str  # the label ("-" when no bot is to blame, e.g. an endless game)
    seat: int
    move: int  # decisions made in the game before the error
    error: str

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form: every field by name."""
        return dataclasses.asdict(self)


@dataclass(frozen=True)
class GameResult:
    """One game: who sat where, how they placed and how long their decisions took.

    ``ranks[s]`` is seat ``s``'s placement (1 = first); seats the rules leave tied (e.g. the
    survivors of a room game someone won outright) share the mean of their places. ``times``
    maps each label to its decision times in seconds. When ``error`` is set the game was
    abandoned and ``ranks`` is empty.
    """

    index: int
    seats: tuple[str, ...]
    ranks: tuple[float, ...]
    winner: str | None
    moves: int
    times: dict[str, list[float]] = field(compare=False)
    error: BotError | None = None

    def outcome(self) -> tuple[tuple[str, ...], tuple[float, ...], str | None, bool]:
        """Everything but the timings: equal for equal seeds whatever the scheduling."""
        return (self.seats, self.ranks, self.winner, self.error is not None)

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form (without the timings)."""
        return {
            "index": self.index,
            "seats": list(self.seats),
            "ranks": list(self.ranks),
            "winner": self.winner,
            "moves": self.moves,
            "error": None if self.error is None else self.error.to_dict(),
        }


def rank_seats(placements: Sequence[int], winner: int | None, out: Sequence[int]) -> list[float]:
    """Per-seat placement from a state's ``placements()`` list.

    ``out`` are the eliminated seats; seats neither winning nor eliminated are tied and share
    the mean of the places they span.

    >>> rank_seats([2, 0, 3, 1], winner=2, out=[1, 3])      # seat 0 never eliminated
    [2.0, 4.0, 1.0, 3.0]
    >>> rank_seats([1, 0, 2, 3], winner=1, out=[])           # room game won outright
    [3.0, 1.0, 3.0, 3.0]
    """
    ranks = [0.0] * len(placements)
    tied = [p for p in placements if p != winner and p not in out]
    first_tied = 1 + (winner is not None)
    for place, seat in enumerate(placements, start=1):
        if seat in tied:
            ranks[seat] = first_tied + (len(tied) - 1) / 2
        else:
            ranks[seat] = float(place)
    return ranks


def _final_ranks(state: Any) -> tuple[list[float], int | None]:
    placements: list[int] = state.placements()
    winner: int | None = state.winner
    return rank_seats(placements, winner, list(state.out_order)), winner


def play_game(spec: ArenaSpec, index: int) -> GameResult:
    """Play game ``index`` of an arena (reproducible from ``spec.seed`` and ``index`` alone).

    Exceptions from a bot and illegal actions end the game with :attr:`GameResult.error` set.
    """
    return play_observed(spec, index)[0]


Observer = Callable[[Any, Any, int, int], None]
"""``observe(game, state, seat, action)``: a decision about to be applied (self-play)."""


def play_observed(
    spec: ArenaSpec, index: int, observe: Observer | None = None
) -> tuple[GameResult, Any]:
    """:func:`play_game`, telling ``observe`` every legal decision before it is applied, and
    the last state reached (``None`` when the game could not be set up)."""
    state: Any = None
    labels = spec.labels
    players = spec.num_players
    seats = game_seats(labels, players, spec.seed, index)
    family = spec.family
    times: dict[str, list[float]] = {label: [] for label in seats}
    moves = 0
    seat = -1

    def failed(who: str, at: int, message: str) -> tuple[GameResult, Any]:
        error = BotError(index, spec.seed, who, at, moves, message)
        return GameResult(index, seats, (), None, moves, times, error), state

    try:
        game = build_game(spec, seats)
    except Exception as e:
        return failed("-", -1, f"cannot set up the game: {type(e).__name__}: {e}")
    bots: list[Any] = []
    for s, label in enumerate(seats):
        try:
            bots.append(family.make_bot(label, _bot_rng(spec.seed, index, label), think=spec.think))
        except Exception as e:
            return failed(label, s, f"cannot build the bot: {type(e).__name__}: {e}")
    rng = _chance_rng(spec.seed, index)
    state = game.new_initial_state()
    clock = time.perf_counter
    while not state.is_terminal():
        if state.current_player == CHANCE:
            state = state.resolve_chance(rng)
            continue
        if moves >= MAX_MOVES:
            return failed("-", -1, f"the game did not end after {MAX_MOVES} decisions")
        seat = state.current_player
        label = seats[seat]
        view = state.view(seat)
        start = clock()
        try:
            raw = bots[seat].choose(game, view)
        except Exception as e:
            times[label].append(clock() - start)
            return failed(label, seat, f"{type(e).__name__}: {e}")
        times[label].append(clock() - start)
        try:
            action = operator.index(raw)
        except TypeError:
            return failed(label, seat, f"choose returned {raw!r}, not an action (int)")
        if action not in state.legal_actions():
            return failed(label, seat, f"illegal action {_action_text(game, action, seat)}")
        if observe is not None:
            observe(game, state, seat, action)
        try:
            state = state.apply_action(action)
        except Exception as e:  # the engine refused a move it listed: report it too
            return failed(label, seat, f"{type(e).__name__}: {e}")
        moves += 1
    ranks, winner = _final_ranks(state)
    return GameResult(
        index, seats, tuple(ranks), None if winner is None else seats[winner], moves, times
    ), state


def build_game(spec: ArenaSpec, seats: Sequence[str]) -> Any:
    """The game of ``spec``'s rules with these seat names (the rules checked for that count)."""
    rules = spec.rules
    if rules.players != len(seats):
        rules = rules.replace(players=len(seats))
    return family_of_rules(rules).new_game(rules, list(seats))


def _action_text(game: Any, action: int, seat: int) -> str:
    try:
        return f"{action} ({game.action_to_string(action, seat)})"
    except Exception:
        return str(action)


def play_chunk(spec: ArenaSpec, start: int, stop: int) -> list[GameResult]:
    """Games ``start`` to ``stop - 1`` (the unit of work of a worker process)."""
    return [play_game(spec, i) for i in range(start, stop)]


# ------------------------------------------------------------------------------ statistics
def wilson_interval(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (95% by default).

    >>> lo, hi = wilson_interval(50, 100)
    >>> round(lo, 4), round(hi, 4)
    (0.4038, 0.5962)
    >>> [round(x, 4) for x in wilson_interval(0, 10)]
    [0.0, 0.2775]
    """
    if n <= 0:
        return (0.0, 1.0)
    p = wins / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    lo = 0.0 if wins <= 0 else max(0.0, centre - half)
    hi = 1.0 if wins >= n else min(1.0, centre + half)
    return (lo, hi)


FloatArray = npt.NDArray[np.float64]


def pairwise_scores(ranks: Sequence[float], index: Sequence[int], size: int) -> FloatArray:
    """One game's pairwise scores: ``W[i, j]`` is 1 when ``i`` placed above ``j``, ½ on a tie.

    ``index[s]`` is the label number of seat ``s``; ``size`` the number of labels.

    >>> pairwise_scores([1.0, 3.0, 2.0], [0, 1, 2], 3).tolist()
    [[0.0, 1.0, 1.0], [0.0, 0.0, 0.0], [0.0, 1.0, 0.0]]
    """
    w = np.zeros((size, size))
    for a in range(len(ranks)):
        for b in range(len(ranks)):
            if a != b:
                i, j = index[a], index[b]
                if ranks[a] < ranks[b]:
                    w[i, j] += 1.0
                elif ranks[a] == ranks[b]:
                    w[i, j] += 0.5
    return w


def fit_bradley_terry(wins: FloatArray, prior: float = 0.5) -> FloatArray:
    """Maximum-likelihood Bradley–Terry log-strengths (mean zero) from a pairwise score matrix.

    ``wins[i, j]`` is how often ``i`` beat ``j`` (ties counted ½ each way). ``prior`` adds that
    many virtual drawn games between every pair, which keeps the fit finite when a bot never
    wins (or never loses); it is negligible against hundreds of games. Newton's method on the
    concave log-likelihood, ``P(i beats j) = 1 / (1 + exp(θj − θi))``.

    >>> th = fit_bradley_terry(np.array([[0.0, 75.0], [25.0, 0.0]]), prior=0.0)
    >>> round(float(th[0] - th[1]), 4), round(math.log(3), 4)
    (1.0986, 1.0986)
    """
    w = np.asarray(wins, dtype=float).copy()
    k = w.shape[0]
    if k < 2:
        return np.zeros(k)
    w += prior / 2 * (1 - np.eye(k))
    n = w + w.T
    theta = np.zeros(k)
    ones = np.ones((k, k)) / k

    def loglik(t: FloatArray) -> float:
        d = t[:, None] - t[None, :]
        return float(-(w * np.logaddexp(0.0, -d)).sum())

    current = loglik(theta)
    for _ in range(100):
        d = theta[:, None] - theta[None, :]
        p = 1.0 / (1.0 + np.exp(-d))
        grad = (w - n * p).sum(axis=1)
        h = n * p * (1 - p)
        neg_hess = np.diag(h.sum(axis=1)) - h
        step = np.linalg.lstsq(neg_hess + ones, grad, rcond=None)[0]
        step -= step.mean()
        scale = 1.0
        while True:
            trial = theta + scale * step
            value = loglik(trial)
            if value >= current - 1e-12 or scale < 1e-6:
                break
            scale /= 2
        theta, gain, current = trial, value - current, value
        if np.abs(scale * step).max() < 1e-10 or abs(gain) < 1e-13:
            break
    return np.asarray(theta - theta.mean(), dtype=np.float64)


def elo_from_strengths(theta: FloatArray) -> FloatArray:
    """Bradley–Terry log-strengths on the Elo scale, the mean anchored at :data:`ELO_BASE`.

    400 Elo points are a factor of 10 in odds: a 400-point favourite wins 10 of 11 games.

    >>> elo_from_strengths(np.array([math.log(10) / 2, -math.log(10) / 2])).round(1).tolist()
    [1700.0, 1300.0]
    """
    return np.asarray(ELO_BASE + ELO_SCALE * (theta - theta.mean()), dtype=np.float64)


# ----------------------------------------------------------------------------- the arena
@dataclass(frozen=True)
class BotStanding:
    """One label's line of the table."""

    label: str
    bot: str
    games: int
    wins: int
    win_rate: float
    win_low: float
    win_high: float
    placement: float  # mean placement, 1 = first
    elo: float
    elo_error: float  # half-width of the bootstrap 95% interval (±)
    errors: int  # games this bot abandoned (raised or played an illegal move)
    decisions: int
    ms_mean: float
    ms_p50: float
    ms_max: float
    seat_games: tuple[int, ...]  # games played in each seat

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form."""
        return {
            "label": self.label,
            "bot": self.bot,
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "win_ci95": [self.win_low, self.win_high],
            "avg_placement": self.placement,
            "elo": self.elo,
            "elo_error": self.elo_error,
            "errors": self.errors,
            "decisions": self.decisions,
            "ms_mean": self.ms_mean,
            "ms_p50": self.ms_p50,
            "ms_max": self.ms_max,
            "seat_games": list(self.seat_games),
        }


@dataclass(frozen=True)
class ArenaResult:
    """Every game and the standings of an arena."""

    spec: ArenaSpec
    games: list[GameResult]
    standings: list[BotStanding]
    errors: list[BotError]
    jobs: int
    seconds: float
    bootstrap: int
    ray: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The whole result, JSON-friendly: config, table, errors and every game's outcome."""
        config = self.spec.config()
        config["jobs"] = self.jobs
        config["ray"] = self.ray
        config["seconds"] = round(self.seconds, 3)
        config["think_used_by"] = [
            label for label in self.spec.labels if accepts_think(kind_of(label), self.spec.family)
        ]
        return {
            "config": config,
            "elo": {
                "model": "Bradley-Terry maximum likelihood on pairwise placements",
                "anchor": f"mean {ELO_BASE:g}",
                "scale": "400 points = odds of 10:1",
                "error": f"half-width of the 95% interval over {self.bootstrap} bootstrap "
                "resamples of the games",
                "prior": "0.5 virtual drawn games per pair",
            },
            "standings": [s.to_dict() for s in self.standings],
            "errors": [e.to_dict() for e in self.errors],
            "games": [g.to_dict() for g in self.games],
        }


def run_arena(
    spec: ArenaSpec,
    jobs: int = 1,
    *,
    progress: Callable[[int], None] | None = None,
    bootstrap: int = 200,
    ray: str | None = None,
) -> ArenaResult:
    """Play every game of ``spec`` (in ``jobs`` processes, or on Ray) and summarize them.

    ``progress`` is called with the number of games just finished. With ``jobs > 1`` the games
    run in a :class:`~concurrent.futures.ProcessPoolExecutor` using the 'spawn' start method;
    with ``ray`` (``local``, ``auto`` or a cluster's address) as Ray tasks
    (:mod:`liarsdice.parallel`; ``jobs`` is then the CPUs of a ``local`` Ray, 0 for all). The
    outcome of each game depends on neither. The result's ``jobs`` is the number of workers
    that played.
    """
    check_spec(spec)
    started = time.perf_counter()
    results: list[GameResult] = []
    workers = [jobs]
    for batch in spread(
        play_chunk, spec, spec.games, jobs=jobs, ray=ray, on_start=lambda n: workers.append(n)
    ):
        results.extend(batch)
        if progress is not None:
            progress(len(batch))
    results.sort(key=lambda g: g.index)
    seconds = time.perf_counter() - started
    return summarize(spec, results, jobs=workers[-1], seconds=seconds, bootstrap=bootstrap, ray=ray)


def check_spec(spec: ArenaSpec) -> None:
    """Raise :class:`ValueError` (or the rules' own error) for an arena that cannot run: an
    unknown bot, a bot option it lacks, rules that do not take the seats, or a bot that cannot
    play these rules with these seats (:meth:`~liarsdice.bots.base.BaseBot.cannot_play`), all
    before the first game.

    >>> from liarsdice.core.bidding import preset
    >>> check_spec(ArenaSpec(rules=preset("classic"), bots=("prob", "genius")))
    Traceback (most recent call last):
    ...
    ValueError: unknown bot 'genius'; bidding bots: ...
    >>> check_spec(ArenaSpec(rules=preset("classic"), bots=("nash", "prob")))
    Traceback (most recent call last):
    ...
    ValueError: bot 'nash' cannot play classic with 4 players: it plays only what the exact ...
    """
    family = spec.family
    for name in spec.bots:
        if kind_of(name.strip().lower()) not in family.bots or "#" in name:
            known = ", ".join(family.bots)
            raise ValueError(f"unknown bot {name!r}; {family.name} bots: {known}")
        if ":" in name:  # options a bot does not have: refused before any game
            family.make_bot(name.strip().lower(), random.Random(0), think=spec.think)
    if spec.games < 0:
        raise ValueError(f"games must not be negative, not {spec.games}")
    game = build_game(spec, spec.labels[: spec.num_players])
    for name in dict.fromkeys(b.strip().lower() for b in spec.bots):
        bot = family.make_bot(name, random.Random(0), think=spec.think)
        why = bot.cannot_play(game)
        if why is not None:
            raise ValueError(
                f"bot {kind_of(name)!r} cannot play {spec.rules.name} with "
                f"{spec.num_players} players: {why}"
            )


def summarize(
    spec: ArenaSpec,
    games: list[GameResult],
    *,
    jobs: int = 1,
    seconds: float = 0.0,
    bootstrap: int = 200,
    ray: str | None = None,
) -> ArenaResult:
    """Standings from played games (abandoned games count only as their culprit's error)."""
    labels = list(spec.labels)
    where = {label: i for i, label in enumerate(labels)}
    k = len(labels)
    players = spec.num_players
    played = [0] * k
    wins = [0] * k
    place_sum = [0.0] * k
    errors = [0] * k
    seat_games = [[0] * players for _ in range(k)]
    times: list[list[float]] = [[] for _ in range(k)]
    per_game: list[FloatArray] = []
    for g in games:
        for label in g.seats:
            times[where[label]].extend(g.times.get(label, ()))
        if g.error is not None:
            if g.error.bot in where:
                errors[where[g.error.bot]] += 1
            continue
        index = [where[label] for label in g.seats]
        for s, i in enumerate(index):
            played[i] += 1
            seat_games[i][s] += 1
            place_sum[i] += g.ranks[s]
            wins[i] += g.winner == labels[i]
        per_game.append(pairwise_scores(g.ranks, index, k))
    elo, elo_err = _elo_with_errors(per_game, k, bootstrap, spec.seed)
    standings = []
    for i, label in enumerate(labels):
        n = played[i]
        lo, hi = wilson_interval(wins[i], n)
        ms = [t * 1000 for t in times[i]]
        standings.append(
            BotStanding(
                label=label,
                bot=kind_of(label),
                games=n,
                wins=wins[i],
                win_rate=wins[i] / n if n else 0.0,
                win_low=lo,
                win_high=hi,
                placement=place_sum[i] / n if n else math.nan,
                elo=float(elo[i]),
                elo_error=float(elo_err[i]),
                errors=errors[i],
                decisions=len(ms),
                ms_mean=statistics.fmean(ms) if ms else 0.0,
                ms_p50=statistics.median(ms) if ms else 0.0,
                ms_max=max(ms) if ms else 0.0,
                seat_games=tuple(seat_games[i]),
            )
        )
    # Most wins first (the rate: labels may play different numbers of games), then the better
    # placement, then Elo: a ranking by Elo alone can put the bot that won most below weaker
    # ones, as Elo fits every pairwise placement, not only the wins.
    standings.sort(key=lambda s: (-s.win_rate, _nan_last(s.placement), -s.elo, s.label))
    abandoned = [g.error for g in games if g.error is not None]
    return ArenaResult(spec, games, standings, abandoned, jobs, seconds, bootstrap, ray)


def _nan_last(x: float) -> float:
    return math.inf if math.isnan(x) else x


def _elo_with_errors(
    per_game: list[FloatArray], k: int, bootstrap: int, seed: int
) -> tuple[FloatArray, FloatArray]:
    if not per_game:
        return np.full(k, ELO_BASE), np.zeros(k)
    stack = np.stack(per_game)
    elo = elo_from_strengths(fit_bradley_terry(stack.sum(axis=0)))
    if bootstrap <= 0 or k < 2:
        return elo, np.zeros(k)
    rng = np.random.default_rng([seed & 0xFFFFFFFF, 1500])
    samples = np.empty((bootstrap, k))
    count = len(per_game)
    for b in range(bootstrap):
        weights = rng.multinomial(count, np.full(count, 1.0 / count)).astype(float)
        wins = np.tensordot(weights, stack, axes=1)
        samples[b] = elo_from_strengths(fit_bradley_terry(wins))
    lo, hi = np.percentile(samples, [2.5, 97.5], axis=0)
    return elo, (hi - lo) / 2
