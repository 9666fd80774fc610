"""Time to exploitability 1e-3 on ``openspiel`` 1v1 (6 faces): our solver vs OpenSpiel.

Runs :func:`liarsdice.solve.solve` (vectorised DCFR, exact exploitability checked along the
way), then, when ``pyspiel`` imports, OpenSpiel's C++ CFR+ (``pyspiel.CFRPlusSolver`` on
``pyspiel.load_game("liars_dice")``, checking ``pyspiel.exploitability`` every
``--check-every`` iterations) on the same game, and prints both times and the ratio. OpenSpiel
is never a dependency: install it in a throwaway environment to compare, e.g.

    python -m venv /tmp/osvenv && /tmp/osvenv/bin/pip install open_spiel numpy scipy click rich
    PYTHONPATH=src /tmp/osvenv/bin/python bench/solve.py

Without ``pyspiel`` the script prints our time and the reference (about 37 s measured for
OpenSpiel's CFR+ on this machine class). Target: at least 10x faster than OpenSpiel.
"""

from __future__ import annotations

import argparse
import time

from liarsdice.core import Game, preset
from liarsdice.solve import solve

OPENSPIEL_REFERENCE_S = 37.0


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", type=float, default=1e-3)
    parser.add_argument("--algorithm", default="dcfr")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--check-every", type=int, default=10)
    parser.add_argument("--limit", type=float, default=300.0, help="OpenSpiel time limit (s)")
    args = parser.parse_args()
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


if __name__ == "__main__":
    main()
