"""Research tools on top of the rule families: batched simulators stepped in NumPy.

* :mod:`~liarsdice.sim.bidding` — :class:`~liarsdice.sim.bidding.VectorEnv`, ``N`` games of
  the bidding family stepped at once, observed through the family's encoding
  (:mod:`liarsdice.families.bidding.encoding`, shared with the OpenSpiel and PettingZoo
  bindings in :mod:`liarsdice.interop`).

See ``docs/RESEARCH.md``.
"""
