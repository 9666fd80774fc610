"""Training by self-play: the networks that :mod:`liarsdice.nets` plays in NumPy.

Optional (``pip install 'liarsdice[learn]'``: JAX and optax, for the networks; the round
learner needs NumPy only); nothing that plays imports it. Every training run is one
command, reproducible (from its seed, where it draws), and resumes from its checkpoints
when interrupted:

* :mod:`~liarsdice.learn.fit` — fitting an MLP with optax's Adam, checkpointed per epoch;
* :mod:`~liarsdice.learn.positions` — the chance to win from a position, learned from
  self-play games of the expert (``liarsdice learn positions``);
* :mod:`~liarsdice.learn.rounds` — two-player single rounds, every pair of dice counts up to
  five each, by fixed-strategy iteration CFR (``liarsdice learn rounds``; the ``learned``
  bot plays them).
"""
