"""The pure rules engines: no I/O, no printing, no global randomness.

The shared primitives live here (:mod:`~liarsdice.core.common`: ``CHANCE``, ``TERMINAL``, the
game and state bases; :mod:`~liarsdice.core.errors`: the typed errors); each rule family's
engine is a subpackage of its own: :mod:`liarsdice.core.bidding` (bids on all the dice) and
:mod:`liarsdice.core.poker` (poker dice under one cup).
"""

from liarsdice.core import errors
from liarsdice.core.common import CHANCE, TERMINAL
from liarsdice.core.errors import *  # noqa: F403  (the typed errors: errors.__all__)

__all__ = ["CHANCE", "TERMINAL", *errors.__all__]
