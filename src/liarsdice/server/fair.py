"""Provably fair dice: commit-reveal server seeds, client seeds, HMAC-SHA256 and rejection sampling.

The scheme (``docs/SERVER.md``, "Fairness"), per round of a game:

1. The server draws a secret *server seed* (64 hex digits) and publishes its *commitment*,
   ``sha256(server_seed as ASCII)`` in hex, one round ahead: the commitment of round ``r + 1``
   is published when round ``r`` starts (the first game's round 0 at room creation).
2. Every seat has a *client seed* (1..64 characters of ``[A-Za-z0-9_-]``) that its player may
   change at any time; the seeds in effect when the round starts are locked for that round.
3. Every chance outcome of the round (the opener draw, every die) comes from the byte stream
   ``HMAC-SHA256(key=server_seed, msg="liarsdice/v1/" + ",".join(client_seeds) + "/" + block)``
   for ``block = 0, 1, 2, ...``; an outcome among ``n`` takes the next byte ``b`` and rejects
   it while ``b >= 256 - 256 % n`` (so ``b % n`` is uniform: no modulo bias).
4. When the round ends the server seed is revealed; anyone can check the commitment and
   re-derive every outcome (``liarsdice verify RECORD``).

>>> seed = "00" * 32
>>> commitment(seed) == hashlib.sha256(seed.encode()).hexdigest()
True
>>> s = DiceStream(seed, ["alice", "bob"])
>>> [s.draw(6) + 1 for _ in range(5)]
[1, 6, 1, 1, 5]
>>> DiceStream(seed, ["alice", "bob"]).draw(6) == 0
True
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Sequence

SCHEME = "hmac-sha256-v1"
CLIENT_SEED_RE = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
SERVER_SEED_RE = re.compile(r"^[0-9a-f]{64}$")


def new_server_seed() -> str:
    """A fresh secret server seed: 32 random bytes as 64 lowercase hex digits."""
    return secrets.token_hex(32)


def new_client_seed() -> str:
    """A random client seed (for bots, and players who did not choose one)."""
    return secrets.token_urlsafe(12)


def commitment(server_seed: str) -> str:
    """The published commitment to a server seed: SHA-256 of its ASCII text, in hex."""
    return hashlib.sha256(server_seed.encode("ascii")).hexdigest()


def check_client_seed(seed: str) -> str:
    """``seed`` when it is a valid client seed, else ValueError."""
    if not CLIENT_SEED_RE.match(seed):
        raise ValueError("a client seed is 1..64 characters of A-Z, a-z, 0-9, '_' and '-'")
    return seed


Cursor = tuple[int, int]  # (block, byte within it) of the next byte of a round's stream
START: Cursor = (0, 0)


def _prefix(client_seeds: Sequence[str]) -> bytes:
    return ("liarsdice/v1/" + ",".join(client_seeds) + "/").encode("ascii")


def draw_at(
    server_seed: str, client_seeds: Sequence[str], at: Cursor, n: int
) -> tuple[int, Cursor]:
    """The draw among ``n`` outcomes at ``at`` in a round's stream, and the cursor after it.

    A pure function of its arguments: a room keeps the cursor in its state (a value) and the
    drawn outcome travels in the logged event, so the dice are drawn once.

    >>> seed = "00" * 32
    >>> v, at = draw_at(seed, ["alice", "bob"], START, 6)
    >>> v, at
    (0, (0, 1))
    >>> draw_at(seed, ["alice", "bob"], at, 6)[0] + 1
    6
    """
    if not 1 <= n <= 256:
        raise ValueError(f"can only draw among 1..256 outcomes, not {n}")
    key = server_seed.encode("ascii")
    prefix = _prefix(client_seeds)
    block, pos = at
    while True:
        buf = hmac.new(key, prefix + str(block).encode("ascii"), hashlib.sha256).digest()
        found = pick(buf, pos, n)
        if found is not None:
            return found[0], (block, found[1])
        block, pos = block + 1, 0


def pick(data: bytes, pos: int, n: int) -> tuple[int, int] | None:
    """The first byte of ``data`` from ``pos`` on that is not in the biased tail (``b >= 256 -
    256 % n``), as an outcome ``b % n``, with the position after it; None when none is.

    >>> pick(bytes([255, 252, 251, 5]), 0, 6)  # 252..255 would bias a die: rejected
    (5, 3)
    """
    limit = 256 - 256 % n
    for i in range(pos, len(data)):
        if data[i] < limit:
            return data[i] % n, i + 1
    return None


class DiceStream:
    """The outcome stream of one round, as an object: successive :func:`draw_at` draws
    (``liarsdice verify`` re-derives a record's rolls with it)."""

    def __init__(self, server_seed: str, client_seeds: Sequence[str]) -> None:
        self._seed = server_seed
        self._clients = tuple(client_seeds)
        self.at: Cursor = START

    def draw(self, n: int) -> int:
        """A uniform integer in ``0..n-1`` (``1 <= n <= 256``), by rejection sampling."""
        value, self.at = draw_at(self._seed, self._clients, self.at, n)
        return value
