"""Ratings of players over finished games: OpenSkill's Plackett-Luce model (multiplayer
placements), from the maintained ``openskill`` package.

A finished game gives every rated seat a place (1: the winner, then in reverse order of going
out). A player who held two seats of one game (a bot level seated twice) is rated on the best
of them. The number shown is :func:`display`: ``1000 + 40 * (mu - 3 sigma)``, so a newcomer
shows 1000 and the figure grows as the model grows sure of a player's skill.

>>> new = {"a": INITIAL, "b": INITIAL}
>>> after = rate(new, [Standing("a", 1), Standing("b", 2)])
>>> display(*after["a"]) > display(*INITIAL) > display(*after["b"])
True
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

Rating = tuple[float, float]  # (mu, sigma)


@cache
def _model() -> Any:
    from openskill.models import PlackettLuce

    return PlackettLuce()


INITIAL: Rating = (25.0, 25.0 / 3.0)  # the model's defaults


@dataclass(frozen=True)
class Standing:
    """One rated seat of a finished game."""

    player: str
    place: int  # 1 = the winner
    calls_made: int = 0
    calls_won: int = 0


def score(mu: float, sigma: float) -> float:
    """The conservative skill estimate the leaderboard sorts by."""
    return mu - 3.0 * sigma


def display(mu: float, sigma: float) -> int:
    """The rating shown to players (a newcomer: 1000)."""
    return round(1000 + 40 * score(mu, sigma))


def best_places(standings: list[Standing]) -> list[Standing]:
    """One standing per player: the best placed of its seats, in place order."""
    best: dict[str, Standing] = {}
    for s in sorted(standings, key=lambda s: s.place):
        best.setdefault(s.player, s)
    return list(best.values())


def rate(current: dict[str, Rating], standings: list[Standing]) -> dict[str, Rating]:
    """The new (mu, sigma) of every player of ``standings`` (at least two distinct ones)."""
    field = best_places(standings)
    if len(field) < 2:
        return {}
    model = _model()
    teams = [[model.rating(*current.get(s.player, INITIAL), name=s.player)] for s in field]
    rated = model.rate(teams, ranks=[float(s.place) for s in field])
    return {s.player: (team[0].mu, team[0].sigma) for s, team in zip(field, rated, strict=True)}


BOT_PLAYER_PREFIX = "bot-"


def bot_player(level: str) -> str:
    """The rated identity of a bot level (every bot of a level is one player)."""
    return f"{BOT_PLAYER_PREFIX}{level}"


__all__ = [
    "BOT_PLAYER_PREFIX",
    "INITIAL",
    "Rating",
    "Standing",
    "best_places",
    "bot_player",
    "display",
    "rate",
    "score",
]
