"""What the analysis of every rule family shares: one move's entry, the marks, the summaries.

A family's analyser (``analysis/bidding.py``, ``analysis/poker.py``) walks a record's moves and
builds one :class:`MoveAnalysis` per move; :func:`build` turns them into the versioned JSON
object of ``docs/ANALYSIS.md`` (``moves``, ``players``); ``liarsdice analyse`` writes it as
text in the player's language (``cli/analyse.py``).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from liarsdice.core.common import CHANCE

_S = TypeVar("_S")

__all__ = [
    "FORMAT",
    "THRESHOLDS",
    "VERSION",
    "Measure",
    "MoveAnalysis",
    "build",
    "life_worth",
    "mark_of",
    "played_for",
]

FORMAT = "liarsdice-analysis"
"""The ``"format"`` of the JSON analysis."""
VERSION = 1
"""The ``"version"`` of the JSON analysis (docs/ANALYSIS.md)."""

THRESHOLDS: tuple[tuple[str, float], ...] = (
    ("blunder", 0.10),
    ("mistake", 0.05),
    ("inaccuracy", 0.02),
)
"""A judged move whose loss (win chance, 0..1) is at least the threshold gets the mark: the
first that applies, largest first."""

ALPHA = 1.5
"""The win chance of a position: the share of ``dice ** ALPHA`` (lives in poker dice), the
bots' position value (:func:`liarsdice.bots.bidding.bayes.position_value`)."""


@dataclass(frozen=True)
class Measure:
    """What a family's numbers measure: ``loss`` in words (the JSON's ``loss_measure``), and
    ``values`` (the JSON's ``values``), the unit of a move's ``value`` and ``best_value``:
    ``"win"`` the player's chance of winning the game after the move, ``"points"`` the
    points it is worth (room scoring), ``"lose_life"`` its chance of losing a life (lower is
    better)."""

    loss: str
    values: str


def mark_of(loss: float | None) -> str | None:
    """The mark of a move's loss: ``"blunder"``, ``"mistake"``, ``"inaccuracy"`` or None.

    >>> [mark_of(x) for x in (None, 0.0, 0.019, 0.02, 0.06, 0.5)]
    [None, None, None, 'inaccuracy', 'mistake', 'blunder']
    """
    if loss is None:
        return None
    for name, threshold in THRESHOLDS:
        if loss >= threshold - 1e-12:
            return name
    return None


def _share(counts: Sequence[int], me: int) -> float:
    if counts[me] <= 0:
        return 0.0
    alive = [c for c in counts if c > 0]
    if len(alive) == 1:
        return 1.0
    return float(counts[me] ** ALPHA / sum(c**ALPHA for c in alive))


def life_worth(counts: Sequence[int], me: int) -> float:
    """What one life (die) is worth to seat ``me``: its win chance now minus after losing one.

    >>> round(life_worth((3, 3), 0), 4), round(life_worth((1, 2), 0), 4)
    (0.1475, 0.2612)
    """
    worse = list(counts)
    worse[me] = max(0, worse[me] - 1)
    return max(0.0, _share(counts, me) - _share(worse, me))


@dataclass
class MoveAnalysis:
    """One move of the record, analysed (the keys of ``docs/ANALYSIS.md``'s move entries)."""

    round: int
    index: int
    player: str
    played: str
    kind: str
    faced: str | None = None
    p_known: float | None = None
    p_actual: float | None = None
    p_exact_known: float | None = None
    p_exact_actual: float | None = None
    expert: str | None = None
    agrees: bool | None = None
    loss: float | None = None
    best: str | None = None  # the best of the scored moves (the loss is measured from it)
    value: float | None = None  # the move played, by the analysis' ``values`` measure
    best_value: float | None = None  # the best move, by the same measure
    computer: bool = False  # the computer played it for the player (away, out of time, left)

    def seed(self) -> int:
        """The seed of the judge's generator for this move (the same for every run)."""
        return 1000 * self.round + self.index

    def to_json(self) -> dict[str, Any]:
        def num(x: float | None) -> float | None:
            return None if x is None else round(min(1.0, max(0.0, float(x))), 4)

        def measure(x: float | None) -> float | None:  # (points under room scoring)
            return None if x is None else round(float(x), 4)

        loss = None if self.loss is None else round(max(0.0, float(self.loss)), 4)
        return {
            "round": self.round,
            "index": self.index,
            "player": self.player,
            "kind": self.kind,
            "played": self.played,
            "faced": self.faced,
            "p_known": num(self.p_known),
            "p_actual": num(self.p_actual),
            "p_exact_known": num(self.p_exact_known),
            "p_exact_actual": num(self.p_exact_actual),
            "expert": self.expert,
            "agrees": self.agrees,
            "loss": loss,
            "mark": mark_of(loss),
            "best": self.best,
            "value": measure(self.value),
            "best_value": measure(self.best_value),
            "computer": self.computer,
        }


def analyse_moves(
    record: Any,
    family: str,
    replay: Callable[[Any], tuple[Sequence[_S], Any]],
    text: Callable[[Mapping[str, Any]], tuple[str, str]],
    judge: Callable[[_S, int, Mapping[str, Any], MoveAnalysis], None],
    measure: Measure,
    computer: Collection[int] = (),
) -> dict[str, Any]:
    """The analysis of ``record``: ``replay`` gives the state before each move and the last
    state; each move gets its entry, played and kind as ``text`` reads the move, and
    ``judge(state, seat, move, entry)`` fills in the rest, move by move in order.
    ``computer``: the game's player actions (:func:`played_for`) the computer made."""
    before, final = replay(record)
    moves = [
        (r, m, move) for r, rnd in enumerate(record.rounds) for m, move in enumerate(rnd["moves"])
    ]
    names = record.players
    analysed = []
    for state, (r, m, move) in zip(before, moves, strict=True):
        entry = MoveAnalysis(r, m, move["player"], *text(move))
        judge(state, names.index(move["player"]), move, entry)
        analysed.append(entry)
    for entry, by_computer in zip(analysed, played_for(before, final, computer), strict=True):
        entry.computer = by_computer
    winner = final.winner
    won = None if winner is None else names[winner]
    return build(family, record.data["rules"], names, won, final.is_terminal(), analysed, measure)


def _player_actions(state: Any) -> int:
    """How many player actions (chance events aside) the game has seen by ``state``."""
    return sum(1 for player, _ in state.history() if player != CHANCE)


def played_for(before: Sequence[Any], final: Any, computer: Collection[int]) -> list[bool]:
    """Whether the computer made each move of a replayed record: a move is the player
    actions from its state to the next one's, and ``computer`` numbers the game's player
    actions from 0 (the room's log of the game's ``action`` events, in order). A move of
    several actions (a show, its re-roll and its raise) is the computer's if any of them is."""
    if not computer:
        return [False] * len(before)
    ends = [_player_actions(s) for s in (*before, final)]
    chosen = set(computer)
    return [any(i in chosen for i in range(a, b)) for a, b in itertools.pairwise(ends)]


def _summary(moves: list[dict[str, Any]], players: Sequence[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name in players:
        theirs = [m for m in moves if m["player"] == name and m["kind"] != "ask"]
        mine = [m for m in theirs if not m["computer"]]  # the computer's are not held against them
        judged = [m for m in mine if m["loss"] is not None]
        marks = [m["mark"] for m in judged]
        total = sum(m["loss"] for m in judged)
        out[name] = {
            "decisions": len(mine),
            "computer": len(theirs) - len(mine),
            "judged": len(judged),
            "agreed": sum(1 for m in judged if m["agrees"]),
            "inaccuracies": marks.count("inaccuracy"),
            "mistakes": marks.count("mistake"),
            "blunders": marks.count("blunder"),
            "total_loss": round(total, 4),
            "average_loss": round(total / len(judged), 4) if judged else None,
        }
    return out


def build(
    family: str,
    rules: str,
    players: Sequence[str],
    winner: str | None,
    finished: bool,
    moves: Sequence[MoveAnalysis],
    measure: Measure,
) -> dict[str, Any]:
    """The JSON analysis (``docs/ANALYSIS.md``) of a record's analysed moves."""
    entries = [m.to_json() for m in moves]
    return {
        "format": FORMAT,
        "version": VERSION,
        "family": family,
        "rules": rules,
        "players": _summary(entries, players),
        "seats": list(players),
        "finished": finished,
        "winner": winner,
        "loss_measure": measure.loss,
        "values": measure.values,
        "thresholds": dict(THRESHOLDS),
        "moves": entries,
    }
