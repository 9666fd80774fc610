"""What the families' observation encodings share: the array type and the two tensors.

An :class:`Encoding` names its blocks (``slices``: the observation's, then ``history``, the
information state's extra block) and fills them from one viewer's own view; the observation
and the information-state tensors are built here, once for every family.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

import numpy as np
import numpy.typing as npt

Floats32 = npt.NDArray[np.float32]
"""An observation or information-state tensor."""


class Encoding(ABC):
    """A family's tensors of one game (``size`` and ``info_size`` floats, named ``slices``)."""

    size: int
    info_size: int
    slices: dict[str, slice]

    def observation(self, state: Any, player: int) -> Floats32:
        """The observation tensor of ``player`` (a seat) in ``state``."""
        out = np.zeros(self.size, dtype=np.float32)
        self._fill(out, state, player, history=False)
        return out

    def information_state(self, state: Any, player: int) -> Floats32:
        """The observation followed by the round's bid history (``info_size`` floats)."""
        out = np.zeros(self.info_size, dtype=np.float32)
        self._fill(out, state, player, history=True)
        return out

    def blocks(self, history: bool) -> dict[str, slice]:
        """The named blocks of the observation (``history``: of the information state)."""
        out = dict(self.slices)
        if not history:
            del out["history"]
        return out

    def _lay_out(self, blocks: list[tuple[str, int]], history: int) -> None:
        """Name the observation's ``blocks`` (name, width) in order, then ``history`` floats
        of the information state's extra block."""
        self.slices = {}
        at = 0
        for name, width in blocks:
            self.slices[name] = slice(at, at + width)
            at += width
        self.size = at
        self.slices["history"] = slice(at, at + history)
        self.info_size = at + history

    @abstractmethod
    def _fill(self, out: Floats32, state: Any, player: int, *, history: bool) -> None:
        """Write ``player``'s blocks of ``state`` into the zeroed ``out``."""


__all__ = ["Encoding", "Floats32"]
