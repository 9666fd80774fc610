"""The solver's speed, memory and reach, and the equilibrium bots' exploitability.

    python bench/solve.py [openspiel]      # 1v1: liarsdice vs OpenSpiel's C++ CFR+
    python bench/solve.py reach [--dice 1,2 2,1] [--faces 6] [--src DIR ...]
    python bench/solve.py big [--dice 2,2] [--faces 6] [--max-gib 16] [--hours 2]
    python bench/solve.py bots [--dice 1,2 2,1]
    python bench/solve.py learned --rules snyd-joker --faces 4 --net FILE [--dice 1,1 1,2]
    python bench/solve.py subgame [--dice 2,2] [--faces 6] [--src DIR ...]

``openspiel`` times exploitability 1e-3 on ``openspiel`` 1v1 (6 faces): our solver, then,
when ``pyspiel`` imports (the ``openspiel`` extra), OpenSpiel's C++ CFR+ on
``pyspiel.load_game("liars_dice")`` (checking ``pyspiel.exploitability`` every
``--check-every`` iterations), and prints both times and the ratio.

``reach`` solves each game to the target in a fresh process (so that its peak memory is its
own) and prints seconds, iterations, exploitability, value, peak resident memory and the
solver's own estimate, with the load average. With several ``--src`` trees (e.g. an old
checkout's ``src``) the runs are interleaved, tree by tree, ``--repeats`` times: a fair
old-against-new comparison on a shared machine.

``big`` is the long run: one game (default ``openspiel`` 2,2 with 6 faces, 2^24 public nodes)
within ``--max-gib`` GiB, printing every exploitability check, until the target or
``--hours``. It prints the game's published value when there is one.

``bots`` measures the exploitability of the ``expert`` and ``nash`` bots' play (exact best
responses to the probabilities they play from their views) in each game, solving it first
(cached on disk afterwards, see ``liarsdice.solve.cache``).

``learned`` measures the exploitability of the ``learned`` bot's play exactly: the
strategies of ``--net`` (a ``liarsdice learn rounds`` file; default the shipped ones of the
rules and faces), every public node at once (``liarsdice.learn.rounds.learned_exploitability``),
so two dice each with 6 faces (2^24 histories) takes under a minute and about 12 GiB
(``--max-gib``). Where the game's equilibrium is in the disk cache (``liarsdice solve
--cache``) it also prints that equilibrium's exact win rate against the learned strategy:
what a player who plays the equilibrium and exploits nothing gets.

``subgame`` times the expert's re-solve (``liarsdice.solve.subgame.BidSubgame``): a whole
round from its opening, every bid, both ranges the prior, as the expert's ``track_round``
solves it, with the opponent free and with the default honest-bidder share (0.5). It prints
milliseconds per CFR iteration (best of ``--repeats`` runs of 200) and the value, per source
tree (``--src``, interleaved in fresh processes: old against new on a shared machine).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

from liarsdice.core.bidding import Game, preset
from liarsdice.solve import solve
from liarsdice.solve.tree import PublicTree, estimate_bytes, make_game

OPENSPIEL_REFERENCE_S = 37.0

#: Published first-player values (6 faces unless said): Lanctot et al. for openspiel 1v1,
#: T. Ahle's snyd tables (github.com/thomasahle/snyd) for the snyd rules, "2v1" being two
#: dice for the first player. Floats are published to three digits only.
PUBLISHED: dict[tuple[str, tuple[int, int], int], Fraction | float] = {
    ("openspiel", (1, 1), 6): Fraction(-7, 258),
    ("snyd-normal", (1, 1), 6): Fraction(-1, 9),
    ("snyd-joker", (1, 1), 6): Fraction(-7, 327),
    ("snyd-normal", (2, 1), 4): Fraction(345, 1696),
    ("snyd-normal", (2, 1), 5): Fraction(2128, 8375),
    ("snyd-normal", (2, 1), 6): 0.275,
    ("snyd-joker", (2, 1), 4): Fraction(1, 4),
    ("snyd-joker", (2, 1), 5): Fraction(34, 125),
    ("snyd-joker", (2, 1), 6): Fraction(7, 27),
}


def _dice(text: str) -> tuple[int, int]:
    a, b = (int(x) for x in text.split(","))
    return a, b


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def _published(name: str, dice: tuple[int, int], faces: int) -> str:
    value = PUBLISHED.get((name, dice, faces))
    if value is None:
        return "no published value"
    if isinstance(value, Fraction):
        return f"published {value} = {float(value):+.6f}"
    return f"published {value:+.3f}.."


# ------------------------------------------------------------------------ openspiel
def ours(target: float, algorithm: str, repeats: int) -> tuple[float, int, float, float]:
    """Best of ``repeats`` runs: (seconds, iterations, exploitability, value)."""
    best: tuple[float, int, float, float] | None = None
    for _ in range(repeats):
        start = time.perf_counter()
        result = solve(Game(preset("openspiel")), target=target, algorithm=algorithm)  # type: ignore[arg-type]
        seconds = time.perf_counter() - start
        row = (seconds, result.iterations, result.exploitability, result.value)
        if best is None or row[0] < best[0]:
            best = row
    assert best is not None
    return best


def openspiel(target: float, check_every: int, limit: float) -> tuple[float, int, float] | None:
    """OpenSpiel's C++ CFR+: (seconds, iterations, exploitability), or None without pyspiel."""
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("liars_dice")
    start = time.perf_counter()
    solver = pyspiel.CFRPlusSolver(game)
    it = 0
    expl = float("inf")
    while time.perf_counter() - start < limit:
        for _ in range(check_every):
            solver.evaluate_and_update_policy()
        it += check_every
        expl = pyspiel.exploitability(game, solver.average_policy())
        if expl <= target:
            break
    return time.perf_counter() - start, it, expl


def run_openspiel(args: argparse.Namespace) -> None:
    seconds, iters, expl, value = ours(args.target, args.algorithm, args.repeats)
    print(
        f"liarsdice {args.algorithm}: {seconds:.3f}s, {iters} iterations, "
        f"exploitability {expl:.3e}, value {value:+.6f} (exact -7/258 = {-7 / 258:+.6f})"
    )
    theirs = openspiel(args.target, args.check_every, args.limit)
    if theirs is None:
        print(f"pyspiel not available; OpenSpiel CFR+ reference: {OPENSPIEL_REFERENCE_S:.0f}s")
        print(f"speed-up vs reference: {OPENSPIEL_REFERENCE_S / seconds:.1f}x")
        return
    os_seconds, os_iters, os_expl = theirs
    print(
        f"OpenSpiel CFR+ (C++): {os_seconds:.3f}s, {os_iters} iterations, "
        f"exploitability {os_expl:.3e}"
    )
    print(f"speed-up: {os_seconds / seconds:.1f}x")


# ---------------------------------------------------------------------------- reach
_CHILD = """
import json, resource, sys, time
from liarsdice.solve import solve
from liarsdice.solve.tree import make_game
name, d0, d1, faces, target, max_bytes = sys.argv[1:7]
game = make_game(name, (int(d0), int(d1)), int(faces))
start = time.perf_counter()
result = solve(game, target=float(target), max_bytes=int(max_bytes))
seconds = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
print(json.dumps({"seconds": seconds, "iterations": result.iterations,
                  "exploitability": result.exploitability, "value": result.value,
                  "peak": peak}))
"""


def _child(
    src: str, name: str, dice: tuple[int, int], faces: int, target: float
) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=src)
    argv = [name, str(dice[0]), str(dice[1]), str(faces), repr(target), str(32 * 2**30)]
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, *argv], env=env, capture_output=True, text=True, check=True
    )
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


_SUBGAME_CHILD = """
import json, sys, time
import numpy as np
from liarsdice.bots.bidding.bayes import hand_set
from liarsdice.solve.subgame import BidSubgame
from liarsdice.solve.tree import make_game
name, (a, b, faces), honest = sys.argv[1], map(int, sys.argv[2:5]), float(sys.argv[5])
game = make_game(name, (a, b), faces)
wild = game.rules.wild
ha, hb = hand_set(a, faces), hand_set(b, faces)
bids = [bid for bid in game.space.bids if bid.quantity <= a + b]
count = [ha.matches(x.face, wild)[:, None] + hb.matches(x.face, wild)[None, :] for x in bids]
truth = np.array([c >= x.quantity for c, x in zip(count, bids)], dtype=float)
best = float("inf")
for _ in range(int(sys.argv[6])):
    g = BidSubgame(truth, opened=False, range_a=ha.prior, range_b=hb.prior, honest_b=honest)
    start = time.perf_counter()
    g.solve(200)
    best = min(best, (time.perf_counter() - start) / 200)
print(json.dumps({"ms": 1000 * best, "value": g.value(), "bids": len(bids),
                  "hands": [len(ha.hands), len(hb.hands)]}))
"""


def run_subgame(args: argparse.Namespace) -> None:
    srcs = args.src or [str(Path(__file__).resolve().parents[1] / "src")]
    for dice in args.dice:
        for honest in (0.0, 0.5):
            for src in srcs:
                env = dict(os.environ, PYTHONPATH=src)
                argv = [args.rules, *map(str, dice), str(args.faces), str(honest)]
                argv.append(str(args.repeats))
                out = subprocess.run(
                    [sys.executable, "-c", _SUBGAME_CHILD, *argv],
                    env=env,
                    capture_output=True,
                    text=True,
                    check=True,
                )
                r = json.loads(out.stdout.strip().splitlines()[-1])
                print(
                    f"{args.rules} {dice[0]},{dice[1]} ({args.faces} faces, {r['bids']} bids, "
                    f"{r['hands'][0]} x {r['hands'][1]} hands), honest share {honest}: "
                    f"{r['ms']:.2f} ms an iteration, value {r['value']:+.4f}  [{src}] "
                    f"(load {_load()})",
                    flush=True,
                )


def run_reach(args: argparse.Namespace) -> None:
    srcs = args.src or [str(Path(__file__).resolve().parents[1] / "src")]
    for dice in args.dice:
        game = make_game(args.rules, dice, args.faces)
        tree = PublicTree(game, max_bytes=2**40)
        rolls = [len(r) for r in tree.rolls]
        print(
            f"{args.rules} {dice[0]},{dice[1]}, {args.faces} faces: 2^{tree.num_bids} nodes, "
            f"rolls {rolls[0]}+{rolls[1]}; estimate float32 "
            f"{estimate_bytes(tree.num_bids, rolls, 4) / 2**20:,.0f} MiB, float64 "
            f"{estimate_bytes(tree.num_bids, rolls, 8) / 2**20:,.0f} MiB; "
            + _published(args.rules, dice, args.faces)
        )
        for rep in range(args.repeats):
            for src in srcs:
                before = _load()
                r = _child(src, args.rules, dice, args.faces, args.target)
                print(
                    f"  [{rep + 1}] {src}: {r['seconds']:.1f}s, {r['iterations']} iterations, "
                    f"exploitability {r['exploitability']:.3e}, value {r['value']:+.6f}, "
                    f"peak {r['peak'] / 2**20:,.0f} MiB (load {before} -> {_load()})",
                    flush=True,
                )


# ------------------------------------------------------------------------------ big
def run_big(args: argparse.Namespace) -> None:
    from liarsdice.solve.cfr import Progress

    dice = args.dice[0]
    game = make_game(args.rules, dice, args.faces)
    max_bytes = int(args.max_gib * 2**30)
    tree = PublicTree(game, max_bytes=max_bytes)
    rolls = [len(r) for r in tree.rolls]
    print(
        f"{args.rules} {dice[0]},{dice[1]}, {args.faces} faces: 2^{tree.num_bids} = "
        f"{tree.num_nodes:,} public nodes, rolls {rolls[0]}+{rolls[1]}; solver estimate "
        f"{estimate_bytes(tree.num_bids, rolls, 4) / 2**30:.2f} GiB (float32), limit "
        f"{args.max_gib:g} GiB; load {_load()}; {_published(args.rules, dice, args.faces)}",
        flush=True,
    )

    def report(point: Progress) -> None:
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
        print(
            f"iter {point.iterations:>5}  {point.seconds:8.1f}s  exploitability "
            f"{point.exploitability:.3e}  value {point.value:+.6f}  peak {peak:.2f} GiB  "
            f"load {_load()}",
            flush=True,
        )

    result = solve(
        tree,
        target=args.target,
        max_seconds=args.hours * 3600,
        max_bytes=max_bytes,
        callback=report,
    )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
    print(
        f"done: exploitability {result.exploitability:.3e} after {result.iterations} "
        f"iterations in {result.seconds:.0f}s; value {result.value:+.6f} "
        f"(within {2 * result.exploitability:.1e} of the game's); peak {peak:.2f} GiB"
    )


# ----------------------------------------------------------------------------- bots
def run_bots(args: argparse.Namespace) -> None:
    from liarsdice.bots import ExpertBot
    from liarsdice.bots.bidding.nash import NashBot
    from liarsdice.solve.policy import policy_exploitability

    for dice in args.dice:
        game = make_game(args.rules, dice, args.faces)
        start = time.perf_counter()
        expert = ExpertBot(random.Random(0))
        equilibrium = expert.equilibrium(game)
        if equilibrium is None:
            print(f"{args.rules} {dice}: out of the expert's equilibrium reach")
            continue
        policy = equilibrium.policy_for(game)  # type: ignore[attr-defined]
        ready = time.perf_counter() - start
        nash = NashBot(random.Random(0))
        assert nash.policy_for(game) is policy  # one cached policy for both bots
        start = time.perf_counter()
        played = policy_exploitability(game, policy.view_probabilities)
        measured = time.perf_counter() - start
        print(
            f"{args.rules} {dice[0]},{dice[1]} ({args.faces} faces): expert and nash play "
            f"one policy (ready in {ready:.1f}s): exploitability of their play "
            f"{played:.3e} (best responses to every view's probabilities, {measured:.0f}s); "
            f"the policy's own {policy.exploitability():.3e}, value {policy.value():+.6f}"
        )


def run_learned(args: argparse.Namespace) -> None:
    from liarsdice.bots.bidding.learned import LearnedBot
    from liarsdice.learn.rounds import learned_plans
    from liarsdice.solve.br import exploitability

    bot = LearnedBot(random.Random(0), net=args.net or "")
    for dice in args.dice:
        game = make_game(args.rules, dice, args.faces)
        why = bot.cannot_play(game)
        pol = bot.policies_for(game)
        if why is not None or pol is None:
            print(f"{args.rules} {dice[0]},{dice[1]} ({args.faces} faces): {why}")
            continue
        start = time.perf_counter()
        tree = PublicTree(game, max_bytes=int(args.max_gib * 2**30))
        plans = learned_plans(tree, pol)
        played = exploitability(tree, plans)
        print(
            f"{args.rules} {dice[0]},{dice[1]} ({args.faces} faces, recalling "
            f"{pol.recall(dice)} bids): the learned bot's play is exploitable by {played:.4f} "
            f"({time.perf_counter() - start:.0f}s; load {_load()}): its exact best response "
            f"wins {50 + 50 * played:.2f}% on average over the seats",
            flush=True,
        )
        calls = (plans[0].xc, plans[1].xc)
        del plans  # the calls are all the values below need
        _equilibrium_against(game, tree, calls, args.target)


def _equilibrium_against(
    game: Game, tree: PublicTree, learned_calls: tuple[Any, Any], target: float
) -> None:
    """The exact win rate of the equilibrium cached on disk (``liarsdice solve --cache``)
    against the learned strategy, each in both seats: what a player who does not exploit it
    gets."""
    import numpy as np

    from liarsdice.solve.br import terminal_values
    from liarsdice.solve.cache import cached_policy, is_cached
    from liarsdice.solve.tree import SolverError

    if not is_cached(game, target):
        return
    try:
        eq = cached_policy(game, target=target)  # read from disk; never solved here
    except SolverError:
        return
    payoff = []
    for seat in (0, 1):
        calls = tree.from_layout(eq.seqs[seat])  # the equilibrium's calls, in node order
        calls[0] = 0.0  # no call at the root
        xc = (calls, learned_calls[1]) if seat == 0 else (learned_calls[0], calls)
        value0 = float(np.vdot(xc[0], terminal_values(tree, 0, xc[1])))
        payoff.append(value0 if seat == 0 else -value0)
        del calls, xc
    mean = sum(payoff) / 2
    solved = eq.info.get("exploitability", float("nan"))
    print(
        f"  the cached equilibrium (exploitability {solved:.4f} when solved) against it: "
        f"{50 + 50 * payoff[0]:.2f}% as the opener, {50 + 50 * payoff[1]:.2f}% as the other, "
        f"{50 + 50 * mean:.2f}% on average over the seats",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    modes = ["openspiel", "reach", "big", "bots", "learned", "subgame"]
    parser.add_argument("mode", nargs="?", default="openspiel", choices=modes)
    parser.add_argument("--target", type=float, default=1e-3)
    parser.add_argument("--algorithm", default="dcfr")
    parser.add_argument("--repeats", type=int, default=None)
    parser.add_argument("--check-every", type=int, default=10)
    parser.add_argument("--limit", type=float, default=300.0, help="OpenSpiel time limit (s)")
    parser.add_argument("--rules", default="openspiel")
    parser.add_argument("--dice", type=_dice, nargs="+", default=None)
    parser.add_argument("--faces", type=int, default=6)
    parser.add_argument("--src", nargs="+", default=None, help="source trees to compare")
    parser.add_argument("--max-gib", type=float, default=16.0)
    parser.add_argument("--hours", type=float, default=2.0)
    parser.add_argument("--net", default=None, help="learned strategies (learned mode)")
    args = parser.parse_args()
    if args.mode == "openspiel":
        args.repeats = args.repeats or 3
        run_openspiel(args)
        return
    args.repeats = args.repeats or 1
    if args.dice is None:
        args.dice = [(2, 2)] if args.mode in ("big", "subgame") else [(1, 2), (2, 1)]
    if args.mode == "subgame":
        args.repeats = max(args.repeats, 3)
    modes = {
        "reach": run_reach,
        "big": run_big,
        "bots": run_bots,
        "learned": run_learned,
        "subgame": run_subgame,
    }
    modes[args.mode](args)


if __name__ == "__main__":
    main()
