"""Speed of the rules engine, side by side with OpenSpiel's C++ ``liars_dice`` through pyspiel.

Four loops, each written out on every side (pyspiel changes its state in place; ours returns
a new immutable state); chance outcomes count as actions. By default the first:

- ``spiel``: the loop RL code runs on OpenSpiel games (its examples and ``rl_environment``):
  at a chance node ``outcomes, probs = zip(*state.chance_outcomes())`` and an outcome drawn
  with those probabilities (``random.choices``); at a decision ``legal_actions()`` and the
  player to act's ``information_state_tensor(player)`` read as a NumPy array
  (``np.asarray(..., dtype=np.float32)``), a legal action taken; at the end ``returns()``.

The others (``--loops returns,rl,playout`` or ``--loops all``) take
``a = choice(state.legal_actions())`` at every node, chance included, as OpenSpiel's own
benchmarks do:

- ``returns``: OpenSpiel's loop: a new initial state, ``apply_action(choice(legal_actions()))``
  until terminal, then ``returns()`` (who won: the round is resolved).
- ``rl``: a learner's loop: at every decision ``legal_actions()`` and the player to act's
  ``information_state_tensor(player)`` (ours: a FloatTensor, the simulator's layout;
  pyspiel's: its own ``liars_dice`` layout), at the end ``returns()``.
- ``playout``: the earlier bench's loop, never asking who won (no ``returns()``): a random
  playout that stops at the terminal state.

Workloads: the ``openspiel`` preset with 1 and with 5 dice each against
``pyspiel.load_game("liars_dice", {"numdice": 1 or 5})``, and ``classic``, 4 players x 5 dice,
whole games (no OpenSpiel counterpart).

Each run interleaves the sides in short slices (A, B, A, B, ...) so that the load of a shared
machine falls on every side alike; the table gives the median of the runs' figures and of the
ratios of the same run. ``pyspiel`` is an optional extra (``pip install
'liarsdice[openspiel]'``): without it only our figures print. ``--baseline SRC`` adds another
checkout's engine (its ``src`` folder, run in a worker process with ``PYTHONPATH=SRC``,
interleaved the same way; loops it cannot run are skipped), e.g. the code before a change::

    git worktree add /tmp/engine-old HEAD
    python bench/engine.py --baseline /tmp/engine-old/src

    python bench/engine.py [--seconds 3] [--runs 3] [--slice 0.2] [--loops spiel|all|returns,...]
        [--baseline SRC]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

# (label, preset, players, dice per player, pyspiel numdice or None)
WORKLOADS: list[tuple[str, str, int, int, int | None]] = [
    ("openspiel, 1 die each", "openspiel", 2, 1, 1),
    ("openspiel, 5 dice each", "openspiel", 2, 5, 5),
    ("classic, 4 players x 5 dice", "classic", 4, 5, None),
]

LOOPS: dict[str, str] = {
    "spiel": "RL loop: chance_outcomes(), legal, NumPy info-state tensor, returns()",
    "returns": "OpenSpiel's loop + returns()",
    "rl": "RL loop: legal + info-state tensor, returns()",
    "playout": "playout, no returns() (earlier bench)",
}

Slice = Callable[[float], tuple[int, int, float]]  # seconds -> (games, actions, elapsed)


def _timed(one_game: Callable[[], int]) -> Slice:
    """A slice that plays ``one_game`` (it returns its number of actions) until ``seconds``
    are up, looking at the clock every 20 games. Each side pays the same one call per game;
    the actions inside a game are the loop's own code."""

    def play(seconds: float) -> tuple[int, int, float]:
        games = actions = 0
        start = time.perf_counter()
        deadline = start + seconds
        while True:
            for _ in range(20):
                actions += one_game()
            games += 20
            now = time.perf_counter()
            if now >= deadline:
                return games, actions, now - start

    return play


def ours_slice(
    preset_name: str, players: int, dice: int, seed: int, loop: str = "returns"
) -> Slice:
    """Our engine's ``loop``, one slice at a time (the RNG carries on between slices)."""
    from liarsdice.core.bidding import Game, preset

    game = Game(preset(preset_name, dice=dice), players)
    rng = random.Random(seed)
    choice, choices = rng.choice, rng.choices
    asarray, float32 = np.asarray, np.float32

    def playout() -> int:
        actions = 0
        state = game.new_initial_state()
        while not state.is_terminal():
            state = state.apply_action(choice(state.legal_actions()))
            actions += 1
        return actions

    def returns() -> int:
        actions = 0
        state = game.new_initial_state()
        while not state.is_terminal():
            state = state.apply_action(choice(state.legal_actions()))
            actions += 1
        state.returns()
        return actions

    def rl() -> int:
        actions = 0
        state = game.new_initial_state()
        while not state.is_terminal():
            player = state.current_player
            legal = state.legal_actions()
            if player >= 0:
                state.information_state_tensor(player)
            state = state.apply_action(choice(legal))
            actions += 1
        state.returns()
        return actions

    def spiel() -> int:
        actions = 0
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                action = choices(outcomes, probs)[0]
            else:
                player = state.current_player
                legal = state.legal_actions()
                asarray(state.information_state_tensor(player), dtype=float32)
                action = choice(legal)
            state = state.apply_action(action)
            actions += 1
        state.returns()
        return actions

    loops = {"playout": playout, "returns": returns, "rl": rl, "spiel": spiel}
    return _timed(loops[loop])


def pyspiel_slice(numdice: int, seed: int, loop: str = "returns") -> Slice | None:
    """OpenSpiel's C++ game through pyspiel, the same ``loop``; None without pyspiel.

    The games are written out again on purpose: a shared helper taking a step function would
    add a Python call per action to one side (pyspiel changes its state in place, ours
    returns a new one) and skew the ratio being measured."""
    try:
        import pyspiel  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return None
    game = pyspiel.load_game("liars_dice", {"numdice": numdice})
    rng = random.Random(seed)
    choice, choices = rng.choice, rng.choices
    asarray, float32 = np.asarray, np.float32

    def playout() -> int:
        actions = 0
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(choice(state.legal_actions()))
            actions += 1
        return actions

    def returns() -> int:
        actions = 0
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(choice(state.legal_actions()))
            actions += 1
        state.returns()
        return actions

    def rl() -> int:
        actions = 0
        state = game.new_initial_state()
        while not state.is_terminal():
            player = state.current_player()
            legal = state.legal_actions()
            if player >= 0:
                state.information_state_tensor(player)
            state.apply_action(choice(legal))
            actions += 1
        state.returns()
        return actions

    def spiel() -> int:
        actions = 0
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                action = choices(outcomes, probs)[0]
            else:
                player = state.current_player()
                legal = state.legal_actions()
                asarray(state.information_state_tensor(player), dtype=float32)
                action = choice(legal)
            state.apply_action(action)
            actions += 1
        state.returns()
        return actions

    loops = {"playout": playout, "returns": returns, "rl": rl, "spiel": spiel}
    return _timed(loops[loop])


class Worker:
    """Another checkout's engine in a child process (``PYTHONPATH=src``), one slice per call."""

    def __init__(self, src: str) -> None:
        env = {**os.environ, "PYTHONPATH": os.path.abspath(src)}
        self.proc = subprocess.Popen(
            [sys.executable, __file__, "--worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
            text=True,
        )
        self.where = self._call({"where": True})["where"]

    def _call(self, request: dict[str, Any]) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        answer: dict[str, Any] = json.loads(self.proc.stdout.readline())
        return answer

    def slice(self, preset_name: str, players: int, dice: int, seed: int, loop: str) -> Slice:
        key = {"preset": preset_name, "players": players, "dice": dice, "seed": seed, "loop": loop}

        def play(seconds: float) -> tuple[int, int, float]:
            got = self._call({**key, "seconds": seconds})
            if "error" in got:
                raise RuntimeError(got["error"])
            return got["games"], got["actions"], got["elapsed"]

        return play

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait()


def worker() -> None:
    """The child side of :class:`Worker`: JSON requests in, JSON figures out."""
    slices: dict[tuple[str, int, int, int, str], Slice] = {}
    for line in sys.stdin:
        request = json.loads(line)
        if request.get("where"):
            import liarsdice

            print(json.dumps({"where": os.path.dirname(liarsdice.__file__)}), flush=True)
            continue
        key = (
            request["preset"], request["players"], request["dice"], request["seed"],
            request["loop"],
        )  # fmt: skip
        if key not in slices:
            slices[key] = ours_slice(*key)
        try:
            games, actions, elapsed = slices[key](request["seconds"])
        except AttributeError as error:  # an engine without this loop's calls
            print(json.dumps({"error": str(error)}), flush=True)
            continue
        print(json.dumps({"games": games, "actions": actions, "elapsed": elapsed}), flush=True)


@dataclass
class Side:
    """One side of a comparison: its slices and the per-run totals."""

    name: str
    play: Slice
    runs: list[tuple[int, int, float]] = field(default_factory=list)

    def games_per_s(self) -> float:
        return statistics.median(g / e for g, _, e in self.runs)

    def actions_per_s(self) -> float:
        return statistics.median(a / e for _, a, e in self.runs)

    def ratios_to(self, other: Side) -> list[float]:
        """This side's games/s over ``other``'s, run by run."""
        return [
            (g / e) / (og / oe)
            for (g, _, e), (og, _, oe) in zip(self.runs, other.runs, strict=True)
        ]

    def ratio_to(self, other: Side) -> float:
        """Median over runs of this side's games/s over ``other``'s in the same run."""
        return statistics.median(self.ratios_to(other))


def measure(sides: list[Side], runs: int, seconds: float, slice_s: float) -> None:
    """``runs`` runs of ``seconds`` per side, interleaved in slices of ``slice_s``."""
    for side in sides:  # warm up: caches, imports, specialisation
        side.play(min(0.2, slice_s))
    for run in range(runs):
        totals = [[0, 0, 0.0] for _ in sides]
        spent = 0.0
        order = sides if run % 2 == 0 else sides[::-1]
        while spent < seconds:
            for side in order:
                g, a, e = side.play(slice_s)
                total = totals[sides.index(side)]
                total[0] += g
                total[1] += a
                total[2] += e
            spent += slice_s
        for side, (g, a, e) in zip(sides, totals, strict=True):
            side.runs.append((int(g), int(a), float(e)))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=3.0, help="per side and run")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--slice", type=float, default=0.2, help="interleaving slice (s)")
    parser.add_argument("--loops", default="spiel", help="which loops, in order (all: every one)")
    parser.add_argument("--baseline", metavar="SRC", help="another checkout's src folder")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker()
        return
    loops = list(LOOPS) if args.loops == "all" else args.loops.split(",")
    for loop in loops:
        if loop not in LOOPS:
            parser.error(f"unknown loop {loop!r}: one of {', '.join(LOOPS)}")
    base = Worker(args.baseline) if args.baseline else None
    if base is not None:
        print(f"baseline: the engine in {base.where}")
    rows: list[str] = []
    base_rows: list[str] = []
    for loop in loops:
        for label, name, players, dice, numdice in WORKLOADS:
            mine = Side("liarsdice", ours_slice(name, players, dice, args.seed, loop))
            sides = [mine]
            spiel = pyspiel_slice(numdice, args.seed, loop) if numdice is not None else None
            theirs = Side("pyspiel", spiel) if spiel is not None else None
            if theirs is not None:
                sides.append(theirs)
            old = None
            if base is not None:
                old = Side("baseline", base.slice(name, players, dice, args.seed, loop))
                try:
                    old.play(0.01)
                except RuntimeError as error:
                    print(f"  baseline skips {loop}: {error}", flush=True)
                    old = None
            if old is not None:
                sides.append(old)
            measure(sides, args.runs, args.seconds, args.slice)
            row = (
                f"| {LOOPS[loop]} | {label} | {mine.games_per_s():,.0f} games/s, "
                f"{mine.actions_per_s():,.0f} actions/s |"
            )
            if theirs is not None:
                runs = ", ".join(f"{r:.2f}" for r in mine.ratios_to(theirs))
                row += (
                    f" {theirs.games_per_s():,.0f} games/s |"
                    f" **{mine.ratio_to(theirs):.2f}** ({runs}) |"
                )
            else:
                row += " — | — |"
            rows.append(row)
            print(row, flush=True)
            if old is not None:
                base_rows.append(
                    f"| {LOOPS[loop]} | {label} | {old.games_per_s():,.0f} | "
                    f"{mine.games_per_s():,.0f} | {mine.ratio_to(old):.2f} |"
                )
    print(
        f"\nMedian of {args.runs} runs, {args.seconds:g} s per side per run, interleaved in "
        f"{args.slice:g} s slices; ratio = liarsdice / pyspiel games/s in the same run "
        "(median, then each run's).\n"
    )
    print("| loop | workload | liarsdice | pyspiel | ratio (per run) |")
    print("|---|---|---|---|---|")
    for row in rows:
        print(row)
    if base is not None:
        base.close()
        print("\n| loop | workload | baseline games/s | liarsdice games/s | speed-up |")
        print("|---|---|---|---|---|")
        for row in base_rows:
            print(row)


if __name__ == "__main__":
    main()
