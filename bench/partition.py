"""The cluster under network faults, at length: each fault of issue 43 (``a`` .. ``g``) held
for ``--during`` seconds during steady play on a new room, healed, played on for ``--after``
seconds; then every player's history checked against the room's log and each finished game's
record verified. Prints one table row per fault: how long the room stopped while the fault
held and after the heal, how soon the cut-off node's players learned it (a close, then a
reconnect through another node), the moves acknowledged, lost and applied twice, and the
records verified.

Needs root and network namespaces (the same harness as ``tests/server/test_partitions.py``:
``tests/netns_util.py``, ``tests/partition_util.py``); PostgreSQL, Redis and iptables come from
Debian's packages when missing. The 200 ms delay of fault ``f`` is not made: this machine's
kernel has no ``netem``, and the loss alone is run::

    sudo .venv/bin/python bench/partition.py [--faults a,b,c,d,e,f,g] [--during 30] [--after 15]
"""

from __future__ import annotations

import argparse
import asyncio
import platform
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import netns_util
from netns_util import Network
from partition_util import FAULTS, HOSTS, Run, partition_cluster, run_fault


def _row(letter: str, run: Run) -> str:
    v = run.verdict
    learned = run.learned(0)
    return (
        f"| {letter}. {FAULTS[letter].what} | {run.stopped:.1f} s | {run.healed:.1f} s | "
        f"{'-' if learned is None else f'{learned:.1f} s'} | {v.acked} | {len(v.lost)} | "
        f"{len(v.applied_twice)} | {len(v.gaps)} | {len(v.unseen_in_log)} | "
        f"{v.records} ({len(v.record_problems)} failed) |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--faults", default=",".join(FAULTS))
    parser.add_argument("--during", type=float, default=30.0, help="seconds each fault holds")
    parser.add_argument("--after", type=float, default=15.0, help="seconds played after")
    args = parser.parse_args()
    letters = args.faults.split(",")
    for letter in letters:
        if letter not in FAULTS:
            parser.error(f"unknown fault {letter!r}: one of {', '.join(FAULTS)}")
    why = netns_util.unavailable()
    if why is not None:
        sys.exit(f"network namespaces are not available here: {why}")
    print(
        f"{platform.processor() or platform.machine()}, {platform.system()} "
        f"{platform.release()}, Python {platform.python_version()}; each fault {args.during:g} s "
        f"then {args.after:g} s healed\n"
    )
    rows = []
    with Network(HOSTS) as net, partition_cluster(net) as cluster:
        for letter in letters:
            run = asyncio.run(run_fault(cluster, FAULTS[letter].cut, args.during, args.after))
            rows.append(_row(letter, run))
            print(rows[-1], flush=True)
    print(
        "\n| fault | longest stop while it held | longest stop after the heal | the owner's "
        "players reconnected after | moves acknowledged | lost | applied twice | gaps | "
        "events seen not in the log | records verified |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for row in rows:
        print(row)


if __name__ == "__main__":
    main()
