"""Research tools on top of the bidding family: the batched simulator and the encodings.

* :mod:`~liarsdice.sim.encoding` — dense action indices and observation tensors of a game
  (shared with the OpenSpiel and PettingZoo bindings in :mod:`liarsdice.interop`);
* :mod:`~liarsdice.sim.vector` — :class:`VectorEnv`, ``N`` games stepped at once in NumPy.

See ``docs/RESEARCH.md``.
"""

from __future__ import annotations

from liarsdice.sim.encoding import BiddingEncoding
from liarsdice.sim.vector import UNSUPPORTED, VectorEnv, check_supported

__all__ = ["UNSUPPORTED", "BiddingEncoding", "VectorEnv", "check_supported"]
