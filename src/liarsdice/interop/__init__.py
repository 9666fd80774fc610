"""Bindings to research frameworks, for every preset of both families (``docs/RESEARCH.md``).

* :mod:`~liarsdice.interop.adapters` — the game of a preset wrapped in its family's adapter
  (:mod:`liarsdice.families.adapter`: dense actions, observation tensors and strings), through
  the family registry;
* :mod:`~liarsdice.interop.openspiel` — the ``python_liarsdice`` OpenSpiel game (needs the
  ``openspiel`` extra: ``pip install 'liarsdice[openspiel]'``);
* :mod:`~liarsdice.interop.pettingzoo` — a PettingZoo AEC environment and a Gymnasium
  single-agent wrapper against the project's bots (the ``pettingzoo`` extra).

The third-party packages are imported only by their own modules, so the base install never
needs them.
"""
