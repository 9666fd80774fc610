"""Random-playout speed of the rules engine.

Plays full random games (uniform over legal actions, chance sampled from a seeded RNG) through
the public state API and prints games/s and actions/s (chance outcomes count as actions, as in
OpenSpiel). Target: at least 300k actions/s on ``openspiel`` 1v1 in pure Python.

    python bench/engine.py [--seconds 5]
"""

from __future__ import annotations

import argparse
import random
import time

from liarsdice.core import CHANCE, Game, preset
from liarsdice.core.state import Phase


def playouts(game: Game, seconds: float, seed: int = 1) -> tuple[int, int, float]:
    """Random playouts for ``seconds``; returns (games, actions, elapsed seconds)."""
    rng = random.Random(seed)
    rnd = rng.random
    root = game.new_initial_state()
    over = Phase.OVER
    games = actions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(100):
            s = root
            while s.phase is not over:
                if s.player == CHANCE:
                    s = s.apply_action(s.sample_chance(rng))
                else:
                    legal = s.legal_actions()
                    s = s.apply_action(legal[int(rnd() * len(legal))])
                actions += 1
            games += 1
        if time.perf_counter() >= deadline:
            break
    return games, actions, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    for name, players in (("classic", 4), ("openspiel", 2)):
        game = Game(preset(name), players)
        games, actions, elapsed = playouts(game, args.seconds)
        print(
            f"{name:10s} {players} players: {games / elapsed:10,.0f} games/s "
            f"{actions / elapsed:10,.0f} actions/s  ({games} games, {actions / games:.1f} "
            f"actions/game)"
        )


if __name__ == "__main__":
    main()
