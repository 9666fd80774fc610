"""The expert against the robustness panel: seat-rotated arena matches with 95% Wilson intervals.

Each pairing is one arena (``liarsdice.arena``): the candidate bot and one panel member in a
two-player single-round game (seats rotated, the dice fixed by the game seed), or the candidate
against ``players - 1`` copies of the member in a whole game. Every line printed is one JSON
object: the pairing, games, the candidate's wins, win rate, its 95% Wilson interval, and the
candidate's decision times (median, p99, max in ms).

    python bench/panel.py single --rules snyd-joker --dice 2 --games 2000 --jobs 16
    python bench/panel.py single --rules openspiel --dice 1,2 --vs nash --games 2000
    python bench/panel.py whole --rules classic --players 4 --vs bayes --games 500
    python bench/panel.py all --games 2000 --jobs 16     # the issue's whole table
    python bench/panel.py single --rules openspiel --dice 2 --bot expert:cached=false --vs nash

Panel (docs/BOTS.md): random, prob, bayes, bluffer, expert-v1, and nash where the game is
within the solver's reach. ``--think`` is the experts' budget per move (default: theirs, 0.05 s).
``--bot`` takes options as the arena does (docs/ARENA.md): ``expert:cached=false`` is the
re-solve where a cached equilibrium of the game would otherwise be played, set against it.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from typing import Any

from liarsdice.arena import ArenaSpec, run_arena
from liarsdice.core.bidding import preset

PANEL = ("random", "prob", "bayes", "bluffer", "expert-v1")
SINGLE = [(rules, dice) for rules in ("snyd-joker", "openspiel") for dice in ("2", "3", "5")]
WHOLE = [("classic", 2), ("classic", 4), ("perudo", 6)]


def _dice(text: str) -> int | tuple[int, ...]:
    parts = tuple(int(x) for x in text.split(","))
    return parts[0] if len(parts) == 1 else parts


def pairing(
    rules_name: str,
    dice: str | None,
    players: int,
    bot: str,
    vs: str,
    games: int,
    seed: int,
    jobs: int,
    think: float | None,
) -> dict[str, Any]:
    """One arena of ``bot`` against ``vs`` and its line of figures."""
    options: dict[str, Any] = {"players": players}
    if dice is not None:
        options["dice"] = _dice(dice)
    rules = preset(rules_name, **options)
    bots = (bot, vs) if players == 2 else (bot, *([vs] * (players - 1)))
    spec = ArenaSpec(rules=rules, bots=bots, games=games, seed=seed, think=think)
    start = time.perf_counter()
    result = run_arena(spec, jobs, bootstrap=0)
    seconds = time.perf_counter() - start
    mine = next(s for s in result.standings if s.label == bot)
    times = sorted(t for g in result.games for t in g.times.get(bot, ()))
    p99 = times[min(len(times) - 1, int(0.99 * len(times)))] if times else 0.0
    return {
        "rules": rules_name,
        "dice": dice,
        "players": players,
        "bot": bot,
        "vs": vs,
        "games": mine.games,
        "wins": mine.wins,
        "win_rate": round(mine.win_rate, 4),
        "ci95": [round(mine.win_low, 4), round(mine.win_high, 4)],
        "errors": len(result.errors),
        "ms_p50": round(1000 * statistics.median(times), 2) if times else None,
        "ms_p99": round(1000 * p99, 2),
        "ms_max": round(1000 * times[-1], 2) if times else None,
        "seconds": round(seconds, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("mode", choices=("single", "whole", "all"))
    parser.add_argument("--rules", default="snyd-joker")
    parser.add_argument("--dice", default="2", help="dice per player: 2, or 1,2 per seat")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--bot", default="expert")
    parser.add_argument("--vs", default=None, help="comma-separated panel members")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--whole-games", type=int, default=None, help="games of a whole-game row")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--think", type=float, default=None)
    args = parser.parse_args(argv)
    vs = tuple(args.vs.split(",")) if args.vs else PANEL
    rows: list[tuple[str, str | None, int, str]] = []
    if args.mode == "single":
        rows = [(args.rules, args.dice, 2, v) for v in vs]
    elif args.mode == "whole":
        rows = [(args.rules, None, args.players or 2, v) for v in (args.vs or "bayes").split(",")]
    else:
        rows = [(r, d, 2, v) for r, d in SINGLE for v in vs]
        rows += [(r, d, 2, "nash") for r in ("snyd-joker", "openspiel") for d in ("1,2", "2,1")]
        rows += [(r, None, p, "bayes") for r, p in WHOLE]
    for rules_name, dice, players, member in rows:
        games = args.games if dice is not None else (args.whole_games or args.games)
        line = pairing(
            rules_name, dice, players, args.bot, member, games, args.seed, args.jobs, args.think
        )
        print(json.dumps(line), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
