"""Training by self-play: what :mod:`liarsdice.nets` plays in NumPy.

NumPy and SciPy only; nothing that plays imports it. Every training run is one command,
reproducible (from its seed, where it draws), and resumes from what it wrote when
interrupted:

* :mod:`~liarsdice.learn.positions` — the chance to win from a position: a model of how
  rounds end, fitted to self-play games of the expert (``liarsdice learn positions``);
* :mod:`~liarsdice.learn.rounds` — two-player single rounds, every pair of dice counts up to
  five each, by fixed-strategy iteration CFR (``liarsdice learn rounds``; the ``learned``
  bot plays them).
"""
