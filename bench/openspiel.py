"""Speed of the OpenSpiel binding (``python_liarsdice``), side by side with what it wraps and
with OpenSpiel's own ``liars_dice``.

Three comparisons, each printed with its ratio (issue 41, point 1):

- ``playout``: a random playout through ``pyspiel`` (a new initial state, chance sampled from
  ``chance_outcomes()`` by its probabilities, a uniform pick among ``legal_actions()``, to
  the end, then ``returns()``) against the same loop on the engine itself (whose
  ``apply_action`` returns a new state): classic (4 players) and Perudo (3 players). The
  sides run interleaved in short slices (A, B, A, B, ...) so that a shared machine's load
  falls on both alike; the figures are the medians over runs, the ratio the median of each
  run's ratio (target: binding >= 0.5x engine).
- ``python``: OpenSpiel's Python algorithms at 1 die each: ``cfr.CFRPlusSolver`` iterations
  and the average policy's exploitability by OpenSpiel's Python best response
  (``exploitability.nash_conv``), on the binding's ``openspiel`` preset and on
  ``python_liars_dice`` against the same calls on ``pyspiel.load_game("liars_dice")``
  (target: within 1.5x); beside them ``exploitability.exploitability``, a Python function
  whose best response OpenSpiel 2.0 computes in C++, and the binding's policy scored on
  ``liars_dice`` itself.
- ``cpp``: OpenSpiel's C++ algorithms, ``pyspiel.CFRPlusSolver`` iterations and
  ``pyspiel.exploitability``, on the binding against ``liars_dice``, beside the same factor
  for a trivial Python game: OpenSpiel's own ``python_kuhn_poker`` against its C++
  ``kuhn_poker`` (what a Python game's callbacks into Python cost C++ code).
- ``rl``: episodes of OpenSpiel's ``rl_environment.Environment`` (information-state tensors
  as observations, a uniform pick among the legal actions) on ``python_liars_dice`` against
  ``liars_dice``, 1 die each, interleaved as the playouts are.

Times are this process's CPU time (``time.process_time``): on a shared machine, what other
work takes of the cores does not count against either side.

``--faces`` shrinks the dice of the algorithm comparisons (6: the full game; each Python CFR
iteration then takes seconds)::

    python bench/openspiel.py [--parts playout,rl,python,cpp] [--seconds 2] [--runs 3]
        [--faces 4] [--iterations 3]
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import pyspiel
from open_spiel.python import rl_environment
from open_spiel.python.algorithms import cfr, exploitability
from open_spiel.python.games import kuhn_poker  # noqa: F401  (registers python_kuhn_poker)

from liarsdice.interop import openspiel as los

PLAYOUTS: list[tuple[str, str, int]] = [
    ("classic, 4 players", "classic", 4),
    ("perudo, 3 players", "perudo", 3),
]

Play = Callable[[], int]  # one game; returns its number of actions


def _pick(outcomes: list[tuple[int, float]], u: float) -> int:
    """The outcome that ``u`` (uniform in [0, 1)) draws by the outcomes' probabilities."""
    for action, p in outcomes:
        u -= p
        if u < 0.0:
            return action
    return outcomes[-1][0]


def playout(game: Any, rng: random.Random, *, in_place: bool) -> Play:
    """One random playout: through ``pyspiel`` (``in_place``: the state changes) or on the
    engine (``apply_action`` returns the next state). Both sides run this same code."""

    def play() -> int:
        actions = 0
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                after = state.apply_action(_pick(state.chance_outcomes(), rng.random()))
            else:
                legal = state.legal_actions()
                after = state.apply_action(legal[rng.randrange(len(legal))])
            if not in_place:
                state = after
            actions += 1
        state.returns()
        return actions

    return play


def _slice(play: Play, seconds: float) -> tuple[int, float]:
    """Games played in about ``seconds`` of CPU time (the clock read every 5 games), and
    the time."""
    games = 0
    start = time.process_time()
    while True:
        for _ in range(5):
            play()
        games += 5
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return games, elapsed


def interleaved(
    a: Play, b: Play, runs: int, seconds: float, slice_s: float
) -> tuple[list[float], list[float]]:
    """Games/s of ``a`` and ``b`` per run, each run ``seconds`` per side in slices."""
    _slice(a, 0.1), _slice(b, 0.1)  # warm up
    rates_a, rates_b = [], []
    for run in range(runs):
        totals = {"a": [0, 0.0], "b": [0, 0.0]}
        order = [("a", a), ("b", b)] if run % 2 == 0 else [("b", b), ("a", a)]
        spent = 0.0
        while spent < seconds:
            for name, play in order:
                g, e = _slice(play, slice_s)
                totals[name][0] += g
                totals[name][1] += e
            spent += slice_s
        rates_a.append(totals["a"][0] / totals["a"][1])
        rates_b.append(totals["b"][0] / totals["b"][1])
    return rates_a, rates_b


def _ratio_cell(mine: list[float], theirs: list[float]) -> str:
    ratios = [x / y for x, y in zip(mine, theirs, strict=True)]
    runs = ", ".join(f"{r:.2f}" for r in ratios)
    return f"**{statistics.median(ratios):.2f}x** ({runs})"


def part_playout(args: argparse.Namespace) -> list[str]:
    rows = []
    for label, rules, players in PLAYOUTS:
        game = los.load(rules, players=players)
        ours = playout(game, random.Random(args.seed), in_place=True)
        engine = playout(game.engine_game, random.Random(args.seed), in_place=False)
        mine, theirs = interleaved(ours, engine, args.runs, args.seconds, args.slice)
        rows.append(
            f"| random playout, chance from chance_outcomes(), returns() | {label} | "
            f"{statistics.median(mine):,.0f} games/s | {statistics.median(theirs):,.0f} "
            f"games/s (engine) | speed {_ratio_cell(mine, theirs)} |"
        )
        print(rows[-1], flush=True)
    return rows


def _timed(call: Callable[[], Any]) -> float:
    start = time.process_time()
    call()
    return time.process_time() - start


def _games(faces: int) -> list[tuple[str, tuple[Any, Any]]]:
    """(label, (binding, liars_dice)) at 1 die each: the ``openspiel`` preset, and the same
    with ``liars_dice``'s interface (``python_liars_dice``)."""
    theirs = pyspiel.load_game("liars_dice", {"dice_sides": faces})
    return [
        (f"{name} vs liars_dice, 1 die each, {faces} faces", (ours, theirs))
        for name, ours in [
            ("openspiel preset", los.load("openspiel", faces=faces)),
            ("python_liars_dice", los.load("openspiel", compat=True, faces=faces)),
        ]
    ]


def _python_cfr(game: Any, iterations: int, score_on: Any = None) -> tuple[float, ...]:
    """Seconds of ``iterations`` Python CFR+ iterations, then of scoring the average policy
    (on ``score_on``, default ``game``) with OpenSpiel's Python best response
    (``exploitability.nash_conv``) and with ``exploitability.exploitability`` (whose best
    response OpenSpiel 2.0 computes in C++, ``pyspiel.TabularBestResponse``)."""
    solver = cfr.CFRPlusSolver(game)
    seconds = _timed(lambda: [solver.evaluate_and_update_policy() for _ in range(iterations)])
    policy, scored = solver.average_policy(), score_on or game
    return (
        seconds,
        _timed(lambda: exploitability.nash_conv(scored, policy)),
        _timed(lambda: exploitability.exploitability(scored, policy)),
    )


Timing = Callable[[Any, int], tuple[float, ...]]  # (game, iterations) -> durations


def _time_rows(
    timing: Timing, label: str, pair: tuple[Any, Any], iterations: int, whats: list[str],
    runs: int, print_from: int = 0,
) -> list[str]:  # fmt: skip
    """Rows for the two durations ``timing`` gives, binding against native, per run (the
    order alternating)."""
    times: list[list[tuple[float, ...]]] = [[], []]
    for run in range(runs):
        for side in (0, 1) if run % 2 == 0 else (1, 0):
            times[side].append(timing(pair[side], iterations))
    rows = []
    for i, what in enumerate(whats):
        mine, native = [t[i] for t in times[0]], [t[i] for t in times[1]]
        rows.append(
            f"| {what} | {label} | {statistics.median(mine):.3f} s | "
            f"{statistics.median(native):.3f} s | time {_ratio_cell(mine, native)} |"
        )
        if i >= print_from:
            print(rows[-1], flush=True)
    return rows


def part_python(args: argparse.Namespace) -> list[str]:
    whats = [
        f"Python CFR+, {args.iterations} iterations",
        "Python best response: exploitability.nash_conv (its policy)",
        "exploitability.exploitability (its policy; a C++ best response)",
    ]
    rows = [
        row
        for label, pair in _games(args.faces)
        for row in _time_rows(_python_cfr, label, pair, args.iterations, whats, args.runs)
    ]
    # python_liars_dice's information-state strings are liars_dice's: a policy learned on
    # it is a policy of liars_dice, scored there at C++ speed
    label, pair = _games(args.faces)[1]
    native = pair[1]
    scored = [whats[0], f"{whats[1]}, scored on liars_dice", f"{whats[2]}, scored on liars_dice"]
    return rows + _time_rows(
        lambda game, n: _python_cfr(game, n, score_on=native),
        label, pair, args.iterations, scored, args.runs, print_from=1,
    )[1:]  # fmt: skip


def _cpp_cfr(game: Any, iterations: int) -> tuple[float, float]:
    """Seconds of ``iterations`` C++ CFR+ iterations, and of ``pyspiel.exploitability`` of
    the average policy."""
    solver = pyspiel.CFRPlusSolver(game)
    seconds = _timed(lambda: [solver.evaluate_and_update_policy() for _ in range(iterations)])
    policy = solver.average_policy()
    return seconds, _timed(lambda: pyspiel.exploitability(game, policy))


def part_cpp(args: argparse.Namespace) -> list[str]:
    kuhn = (pyspiel.load_game("python_kuhn_poker"), pyspiel.load_game("kuhn_poker"))
    rows = []
    for label, pair, iterations in [
        *[(label, pair, args.iterations) for label, pair in _games(args.faces)],
        ("python_kuhn_poker vs kuhn_poker (a trivial Python game)", kuhn, 200 * args.iterations),
    ]:
        whats = [f"C++ CFR+, {iterations} iterations", "pyspiel.exploitability (its policy)"]
        rows += _time_rows(_cpp_cfr, label, pair, iterations, whats, args.runs)
    return rows


def rl_episodes(game: Any, rng: random.Random) -> Play:
    """One episode of OpenSpiel's ``rl_environment`` with uniformly random actions."""
    env = rl_environment.Environment(game, seed=rng.randrange(1 << 30))

    def play() -> int:
        steps = 0
        step = env.reset()
        while not step.last():
            legal = step.observations["legal_actions"][step.observations["current_player"]]
            step = env.step([legal[rng.randrange(len(legal))]])
            steps += 1
        return steps

    return play


def part_rl(args: argparse.Namespace) -> list[str]:
    ours = los.load("openspiel", compat=True)
    native = pyspiel.load_game("liars_dice")
    mine, theirs = interleaved(
        rl_episodes(ours, random.Random(args.seed)),
        rl_episodes(native, random.Random(args.seed)),
        args.runs, args.seconds, args.slice,
    )  # fmt: skip
    row = (
        "| rl_environment episodes, random actions | python_liars_dice vs liars_dice, 1 die "
        f"each | {statistics.median(mine):,.0f} episodes/s | {statistics.median(theirs):,.0f} "
        f"episodes/s | speed {_ratio_cell(mine, theirs)} |"
    )
    print(row, flush=True)
    return [row]


PARTS: dict[str, Callable[[argparse.Namespace], list[str]]] = {
    "playout": part_playout,
    "rl": part_rl,
    "python": part_python,
    "cpp": part_cpp,
}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--parts", default="playout,rl,python,cpp")
    parser.add_argument("--seconds", type=float, default=2.0, help="per side and run (playout)")
    parser.add_argument("--slice", type=float, default=0.2, help="interleaving slice (s)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--faces", type=int, default=4, help="die faces of the CFR parts")
    parser.add_argument("--iterations", type=int, default=10, help="CFR+ iterations")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    parts = args.parts.split(",")
    for part in parts:
        if part not in PARTS:
            parser.error(f"unknown part {part!r}: one of {', '.join(PARTS)}")
    print(
        f"{platform.processor() or platform.machine()}, {platform.python_implementation()} "
        f"{platform.python_version()}, OpenSpiel {_openspiel_version()}; "
        f"median of {args.runs} runs\n"
    )
    rows = [row for part in parts for row in PARTS[part](args)]
    print("\n| loop | workload | binding | native | binding / native (median; per run) |")
    print("|---|---|---|---|---|")
    for row in rows:
        print(row)


def _openspiel_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("open_spiel")
    except PackageNotFoundError:
        return "?"


if __name__ == "__main__":
    main()
