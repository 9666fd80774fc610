"""Learned values, played in NumPy: what :mod:`liarsdice.learn` trains, read from ``.npz``
files (shipped ones under ``liarsdice/nets/data``), no training framework needed.

* :mod:`~liarsdice.nets.positions` — the chance to win a whole game from a position (every
  seat's dice, in seat order), per rules family: a learned model of rounds, solved exactly;
* :mod:`~liarsdice.nets.rounds` — learned strategies of two-player single rounds, per pair
  of dice counts (what the ``learned`` bot plays);
* :mod:`~liarsdice.nets.npz` — the files' one shape: arrays and a JSON ``meta`` naming the
  format and version.
"""

from __future__ import annotations

from liarsdice.nets.positions import PositionValues, packaged_positions

__all__ = ["PositionValues", "packaged_positions"]
