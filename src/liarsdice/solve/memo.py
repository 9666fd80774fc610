"""A memo: values computed once per key and kept while its owner lives, with a bound.

A :class:`Memo` is the cache of one object (a bot's memory, the process's solved policies):
it lives as long as that object does and :meth:`Memo.clear` forgets it. Where the keys can
grow without bound (one per situation met), ``limit`` bounds it: past that many entries it
starts afresh, which costs one recomputation per key and no bookkeeping.

>>> squares: Memo[int, int] = Memo(limit=2)
>>> squares.get_or(3, lambda: 9), squares.get(3), squares.get(4), 3 in squares
(9, 9, None, True)
>>> for k in (1, 2, 4):
...     squares.put(k, k * k)
>>> len(squares), 3 in squares  # a third key past the limit started it afresh
(1, False)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

__all__ = ["Memo"]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Memo(Generic[K, V]):
    """Values by key; ``limit``: the most entries kept past which the memo starts afresh
    (``None``: unbounded, where the keys are few by nature: rule sets, packaged models)."""

    def __init__(self, limit: int | None = None) -> None:
        self.limit = limit
        self._values: dict[K, V] = {}

    def get(self, key: K) -> V | None:
        """The value kept for ``key``, or ``None``."""
        return self._values.get(key)

    def put(self, key: K, value: V) -> None:
        """Keep ``value`` for ``key`` (first forgetting everything when over the limit)."""
        if self.limit is not None and len(self._values) > self.limit:
            self._values.clear()
        self._values[key] = value

    def get_or(self, key: K, make: Callable[[], V]) -> V:
        """The value kept for ``key``, else ``make()`` kept and returned."""
        if key in self._values:
            return self._values[key]
        value = make()
        self.put(key, value)
        return value

    def clear(self) -> None:
        """Forget every value."""
        self._values.clear()

    def __contains__(self, key: object) -> bool:
        return key in self._values

    def __len__(self) -> int:
        return len(self._values)
