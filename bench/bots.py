"""Bot strength and speed: seat-rotated matches, decision times and a legality sweep.

    python bench/bots.py match --rules classic --players 2 --bot bayes --vs prob --games 200
    python bench/bots.py match --rules perudo --players 4 --bot expert --vs prob --games 100
    python bench/bots.py match --family poker --players 3 --bot expert --vs prob --games 200
    python bench/bots.py legal --games 10000          # every bot, every preset, no illegal move
    python bench/bots.py times                        # decision-time p50/p99/max per bot, preset

A match seats one ``--bot`` against ``players - 1`` copies of ``--vs``; the seat of ``--bot``
rotates with the game number, and the game seed fixes the dice. The win rate is printed with a
95% Wilson interval. ``--think`` sets the expert's time per move (seconds).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections import defaultdict
from typing import Any

from liarsdice.core.bidding import CHANCE, PRESETS, Game, preset
from liarsdice.core.poker import PokerGame, PokerRules
from liarsdice.families import FAMILIES, family_named

Times = dict[str, list[float]]


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a win rate."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    den = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / den
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / den
    return centre - half, centre + half


def _bot(kind: str, seed: Any, family: str, think: float | None) -> Any:
    rng = random.Random(seed)
    return family_named(family).make_bot(kind, rng, think=think)


def play(
    family: str,
    rules_name: str,
    kinds: list[str],
    seed: int,
    times: Times | None = None,
    think: float | None = None,
    overrides: dict[str, Any] | None = None,
) -> Any:
    """One game between bots seen only through their views; returns the final state."""
    game: Any
    if family == "poker":
        game = PokerGame(PokerRules(players=len(kinds)))
    else:
        game = Game(preset(rules_name, **(overrides or {})), len(kinds))
    bots = [_bot(k, f"{seed}:{i}:{k}", family, think) for i, k in enumerate(kinds)]
    rng = random.Random(seed)
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.current_player == CHANCE:
            state = state.resolve_chance(rng)
            continue
        seat = state.current_player
        view = state.view(seat)
        t0 = time.perf_counter()
        action = bots[seat].choose(game, view)
        if times is not None:
            times[kinds[seat]].append(time.perf_counter() - t0)
        if action not in view.legal_actions:
            raise AssertionError(f"{kinds[seat]} played illegal {action} in {rules_name}")
        state = state.apply_action(action)
        moves += 1
        if moves > 20000:
            raise AssertionError("the game does not end")
    return state


def match(args: argparse.Namespace) -> None:
    wins = 0
    times: Times = defaultdict(list)
    start = time.perf_counter()
    for g in range(args.games):
        kinds = [args.vs] * args.players
        seat = g % args.players
        kinds[seat] = args.bot
        state = play(args.family, args.rules, kinds, args.seed + g, times, args.think)
        wins += state.winner == seat
        if args.progress and (g + 1) % args.progress == 0:
            print(f"  {g + 1} games: {wins} wins ({wins / (g + 1):.1%})", flush=True)
    lo, hi = wilson(wins, args.games)
    label = "poker-dice" if args.family == "poker" else args.rules
    print(
        f"{label} {args.players}p: {args.bot} vs {args.players - 1}x {args.vs}: "
        f"{wins}/{args.games} = {wins / args.games:.1%} (95% CI {lo:.1%}..{hi:.1%}), "
        f"{time.perf_counter() - start:.0f}s"
    )
    _print_times(times)


def _print_times(times: Times, label: str = "") -> None:
    for kind, ts in sorted(times.items()):
        if not ts:
            continue
        ts = sorted(ts)
        p50 = statistics.median(ts)
        p99 = ts[min(len(ts) - 1, int(0.99 * len(ts)))]
        print(
            f"  {label}{kind:7s} decisions {len(ts):6d}  p50 {p50 * 1e3:7.2f} ms  "
            f"p99 {p99 * 1e3:7.2f} ms  max {ts[-1] * 1e3:7.2f} ms"
        )


def _presets() -> list[tuple[str, str]]:
    return [("bidding", name) for name in PRESETS] + [("poker", "poker-dice")]


def legal(args: argparse.Namespace) -> None:
    """``--games`` games spread over every preset, bot mixes rotating; all moves legal."""
    cases = _presets()
    # Every level of each family, and the bidding family's panel bots (bluffer, expert-v1).
    family_names = {f.name: [*f.bots.levels, *f.bots.panel] for f in FAMILIES}
    start = time.perf_counter()
    count = 0
    for g in range(args.games):
        family, name = cases[g % len(cases)]
        # 2 to 6 players, and now and then a full table of 12 (single-round presets: 2).
        players = 12 if g % 97 == 0 else 2 + g % 5
        if family == "bidding" and PRESETS[name].scoring.value == "single-round":
            players = PRESETS[name].players
        names = family_names[family]
        kinds = [names[(g + i) % len(names)] for i in range(players)]
        play(family, name, kinds, g, think=args.think)
        count += 1
    print(
        f"{count} games over {len(cases)} presets, no illegal move "
        f"({time.perf_counter() - start:.0f}s)"
    )


def timing(args: argparse.Namespace) -> None:
    """Decision times per bot and preset, each bot against prob bots."""
    for family, name in _presets():
        players = 2 if family == "bidding" and PRESETS[name].players == 2 else 4
        for kind in ("bayes", "expert"):
            times: Times = defaultdict(list)
            for g in range(args.games):
                kinds = ["prob"] * players
                kinds[g % players] = kind
                play(family, name, kinds, g, times, args.think)
            _print_times({kind: times[kind]}, f"{name:15s} ")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    sub = parser.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("match")
    m.add_argument("--family", default="bidding", choices=("bidding", "poker"))
    m.add_argument("--rules", default="classic")
    m.add_argument("--players", type=int, default=2)
    m.add_argument("--bot", default="expert")
    m.add_argument("--vs", default="prob")
    m.add_argument("--games", type=int, default=200)
    m.add_argument("--seed", type=int, default=0)
    m.add_argument("--progress", type=int, default=0)
    m.add_argument("--think", type=float, default=None)
    m.set_defaults(func=match)
    lg = sub.add_parser("legal")
    lg.add_argument("--games", type=int, default=10000)
    lg.add_argument("--think", type=float, default=0.005)
    lg.set_defaults(func=legal)
    tm = sub.add_parser("times")
    tm.add_argument("--games", type=int, default=6)
    tm.add_argument("--think", type=float, default=None)
    tm.set_defaults(func=timing)
    args = parser.parse_args()
    args.func(args)


if __name__ == "__main__":
    main()
