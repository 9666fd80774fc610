"""How the bindings build a game: :func:`make_adapter` builds the game of a preset through
the family registry (:mod:`liarsdice.families`) and wraps it in the family's own adapter
(:class:`~liarsdice.families.adapter.Adapter`, ``Family.adapter_type()``), so the bindings
never ask which family they have.

>>> adapter = make_adapter("openspiel")
>>> adapter.num_actions, adapter.observation_size, adapter.max_chance_outcomes
(20, 26, 7)
>>> make_adapter("openspiel", faces=3).game.rules.wild    # the highest face stays wild
3
>>> make_adapter("poker-dice", players=3).num_actions
3462
"""

from __future__ import annotations

from collections.abc import Mapping

from liarsdice.core.common import default_names
from liarsdice.families import family_of
from liarsdice.families.adapter import Adapter
from liarsdice.families.base import Sizes

__all__ = ["make_adapter", "parse_options"]


def parse_options(text: str) -> dict[str, str]:
    """Rule options from one string: ``name=value`` or ``name:value`` items separated by
    ``;`` or spaces, list values with ``,`` or ``+`` (OpenSpiel game strings cannot carry
    ``=`` or ``,`` in a parameter, so its form is ``"exact:spot-on; face_order:2+3+4+5+6+1"``).

    >>> parse_options("exact:spot-on; face_order:2+3+4+5+6+1")
    {'exact': 'spot-on', 'face_order': '2,3,4,5,6,1'}
    >>> parse_options("dice=3,2 stash=open")
    {'dice': '3,2', 'stash': 'open'}
    """
    out: dict[str, str] = {}
    for item in text.replace(";", " ").split():
        sep = "=" if "=" in item else ":"
        name, found, value = item.partition(sep)
        if not found or not name or not value:
            raise ValueError(
                f"rule options are name:value (or name=value) items separated by ';', not {item!r}"
            )
        out[name.strip().replace("-", "_")] = value.strip().replace("+", ",")
    return out


def make_adapter(
    preset: str,
    *,
    players: int | None = None,
    dice: str | int | None = None,
    faces: int | None = None,
    options: Mapping[str, str] | str | None = None,
    opener: int | None = None,
) -> Adapter:
    """The adapter of a new game of ``preset`` (any family) with the given table size and
    rule options (command-line texts, or one string for :func:`parse_options`)."""
    family = family_of(preset)
    opts = parse_options(options) if isinstance(options, str) else dict(options or {})
    adapter_type = family.adapter_type()
    sizes = Sizes(players, None if dice is None else str(dice), faces)
    rules = adapter_type.rules(family, preset, opts, sizes)
    game = family.new_game(rules, default_names(rules.players), opener)
    return adapter_type(game)
