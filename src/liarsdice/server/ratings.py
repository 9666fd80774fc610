"""Ratings of players over finished games: OpenSkill's Plackett-Luce model (multiplayer
placements), from the maintained ``openskill`` package.

Players are rated per rule family (:data:`FAMILY_NAMES`: the bidding games and poker dice
apart), each family with its own rating; the games of a tutorial room are not rated.

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

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from liarsdice.core.errors import LiarsDiceError
from liarsdice.families import FAMILIES, family_of

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


FAMILY_NAMES: tuple[str, ...] = tuple(f.name for f in FAMILIES)
DEFAULT_FAMILY = FAMILY_NAMES[0]  # the bidding games: the leaderboard's first page


def family_of_preset(preset: str | None) -> str:
    """The rating family of a game's preset (an unknown or missing one: the default)."""
    if preset is None:
        return DEFAULT_FAMILY
    try:
        return family_of(preset).name
    except (LiarsDiceError, ValueError):  # (an unknown preset: from another version)
        return DEFAULT_FAMILY


def rating_key(family: str, player: str) -> str:
    """The key of a player's rating in one family (the rooms' shared dict of ratings).

    >>> rating_key("poker", "bot-prob")
    'poker/bot-prob'
    """
    return f"{family}/{player}"


def tag(player: str) -> str:
    """A short tag that tells apart two players of one name ("Ann #3f2a"): four hex digits
    of the SHA-256 of the player's id (the id itself stays a public key, but shorter is
    easier to read).

    >>> tag("bot-prob") == tag("bot-prob") != tag("bot-random")
    True
    """
    return hashlib.sha256(player.encode()).hexdigest()[:4]


@dataclass
class Totals:
    """A player's rating and counts in one family."""

    mu: float = INITIAL[0]
    sigma: float = INITIAL[1]
    games: int = 0
    wins: int = 0
    calls_made: int = 0
    calls_won: int = 0


@dataclass
class Replayed:
    """What :func:`replay` gives: every (family, player)'s totals, and each game's shown
    rating of each of its players after it (in the games' order)."""

    totals: dict[tuple[str, str], Totals] = field(default_factory=dict)
    shown: list[dict[str, int]] = field(default_factory=list)


def replay(games: Iterable[tuple[str, list[Standing]]]) -> Replayed:
    """Rate ``(family, standings)`` games in order from scratch, each family on its own
    (the migration to ratings per family recomputes the stored games so).

    >>> out = replay([("bidding", [Standing("a", 1), Standing("b", 2)]),
    ...               ("poker", [Standing("b", 1), Standing("a", 2)])])
    >>> out.shown[0]["a"] == out.shown[1]["b"] > 1000, out.totals["poker", "a"].games
    (True, 1)
    """
    out = Replayed()
    for family, standings in games:
        current = {
            s.player: (t.mu, t.sigma)
            for s in standings
            if (t := out.totals.get((family, s.player))) is not None
        }
        new = rate(current, standings)
        shown: dict[str, int] = {}
        for s in best_places(standings):
            t = out.totals.setdefault((family, s.player), Totals())
            if s.player in new:
                t.mu, t.sigma = new[s.player]
            t.games += 1
            t.wins += 1 if s.place == 1 else 0
            t.calls_made += s.calls_made
            t.calls_won += s.calls_won
            shown[s.player] = display(t.mu, t.sigma)
        out.shown.append(shown)
    return out


BOT_PLAYER_PREFIX = "bot-"


def bot_player(level: str) -> str:
    """The rated identity of a bot level (every bot of a level is one player)."""
    return f"{BOT_PLAYER_PREFIX}{level}"


def bot_level(player: str) -> str | None:
    """The bot level of a rated identity made by :func:`bot_player`, else None. The browser
    names a level by it (``static/names.js``: one name per level everywhere).

    >>> bot_level(bot_player("prob")), bot_level("3fA9x")
    ('prob', None)
    """
    return player.removeprefix(BOT_PLAYER_PREFIX) if player.startswith(BOT_PLAYER_PREFIX) else None


__all__ = [
    "BOT_PLAYER_PREFIX",
    "DEFAULT_FAMILY",
    "FAMILY_NAMES",
    "INITIAL",
    "Rating",
    "Replayed",
    "Standing",
    "Totals",
    "best_places",
    "bot_level",
    "bot_player",
    "display",
    "family_of_preset",
    "rate",
    "rating_key",
    "replay",
    "score",
    "tag",
]
