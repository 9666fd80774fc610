"""What the command line gives every family to build rules from: the table size
(:class:`Sizes`) and the one :class:`~liarsdice.families.base.Family` method that reads them
(:class:`CommandLineRules`).

Both sit below :mod:`liarsdice.families.base` and :mod:`liarsdice.families.adapter`, which
both need them: the adapter builds its rules through a family without importing the family's
interface, so that the two modules never import each other.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple, Protocol

from liarsdice.core.api import RulesAPI


class Sizes(NamedTuple):
    """The table size given on the command line (None: the preset's)."""

    players: int | None = None
    dice: str | None = None  # e.g. "5", or "5,4" per seat
    faces: int | None = None


class CommandLineRules(Protocol):
    """A family as far as building rules from the command line goes
    (:meth:`~liarsdice.families.base.Family.rules_from_cli`)."""

    def rules_from_cli(self, preset: str, options: Mapping[str, str], sizes: Sizes) -> RulesAPI:
        """The rules of ``preset`` from ``--option`` texts and ``sizes``."""
        ...


__all__ = ["CommandLineRules", "Sizes"]
