"""What each engine supports of the bidding family's rule options: the one table.

Three engines play the rules of :class:`~liarsdice.core.bidding.rules.Rules`: the pure engine
(``core``: :class:`~liarsdice.core.bidding.game.Game`), the NumPy batched simulator (``sim``:
:mod:`liarsdice.sim.bidding`) and the JAX environment (``jax``: :mod:`liarsdice.jax.bidding`).
:data:`SUPPORT` says, for every rule option and engine, which values the engine plays: a tuple
of the values, or ``None`` where it plays every value the option takes. The batched engines
read it to refuse what they do not cover (their ``check_supported``), and their differential
tests against the engine are generated so that every supported value of every option with a
few values (an enum or a flag) is played in some case.

>>> SUPPORT["economy"]["core"]
(<Economy.NONE: 'none'>, <Economy.CHIPS: 'chips'>, <Economy.RICH_MAN: 'rich-man'>)
>>> SUPPORT["economy"]["sim"], SUPPORT["calling_advantage"]["jax"], SUPPORT["dice"]["jax"]
((<Economy.NONE: 'none'>,), (False,), None)
>>> restricted("sim"), restricted("core")
(('economy', 'calling_advantage'), ())
>>> from liarsdice.core.bidding.rules import preset
>>> unsupported(preset("perudo", economy="chips", calling_advantage=True), "jax")
[('economy', 'chips'), ('calling_advantage', 'true')]
>>> unsupported(preset("perudo", economy="chips", calling_advantage=True), "core")
[]
>>> unsupported(preset("perudo"), "sim")
[]
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Iterable, Mapping
from enum import Enum
from typing import Literal

from liarsdice.core.bidding.rules import Economy, Rules
from liarsdice.core.errors import RulesError

__all__ = [
    "ENGINES",
    "SUPPORT",
    "Engine",
    "cover",
    "left_out",
    "restricted",
    "supports",
    "unsupported",
    "values_of",
]

Engine = Literal["core", "sim", "jax"]

ENGINES: tuple[Engine, ...] = ("core", "sim", "jax")

# The options a batched engine leaves out, with the values it plays: money changes hands (and,
# with Rich Man's Dice, dice are bought), or the calling advantage's pile lifts a seat above
# its starting dice. Every other option takes every value on every engine.
_LIMITS: Mapping[str, Mapping[Engine, tuple[object, ...]]] = {
    "economy": {"sim": (Economy.NONE,), "jax": (Economy.NONE,)},
    "calling_advantage": {"sim": (False,), "jax": (False,)},
}

_OPTIONS: tuple[dataclasses.Field[object], ...] = tuple(
    f for f in dataclasses.fields(Rules) if f.name != "name"
)
_TYPES = typing.get_type_hints(Rules)


def values_of(option: str) -> tuple[object, ...] | None:
    """Every value ``option`` takes when they are few (an enum's members, a flag's ``False``
    and ``True``), else ``None`` (numbers, dice lists, face rankings).

    >>> values_of("stash"), values_of("palifico"), values_of("faces")
    ((<Stash.NONE: 'none'>, <Stash.SECRET: 'secret'>, <Stash.OPEN: 'open'>), (False, True), None)
    """
    kind = _TYPES[option]
    if isinstance(kind, type) and issubclass(kind, Enum):
        return tuple(kind)
    if kind is bool:
        return (False, True)
    return None


SUPPORT: Mapping[str, Mapping[Engine, tuple[object, ...] | None]] = {
    f.name: {engine: _LIMITS.get(f.name, {}).get(engine, values_of(f.name)) for engine in ENGINES}
    for f in _OPTIONS
}
"""Rule option -> engine -> the values it plays (``None``: every value), in ``Rules`` order."""


def supports(engine: Engine, option: str, value: object) -> bool:
    """Whether ``engine`` plays ``option`` set to ``value``."""
    values = SUPPORT[option][engine]
    return values is None or value in values


def restricted(engine: Engine) -> tuple[str, ...]:
    """The options of which ``engine`` leaves some values out (economy first: the order the
    batched engines have always checked them in)."""
    return tuple(name for name, by in _LIMITS.items() if engine in by)


def left_out(engine: Engine) -> list[tuple[str, object]]:
    """The (option, value) pairs the engine plays and ``engine`` does not (options with few
    values).

    >>> left_out("jax")
    [('economy', <Economy.CHIPS: 'chips'>), ('economy', <Economy.RICH_MAN: 'rich-man'>), \
('calling_advantage', True)]
    """
    return [
        (name, value)
        for name in restricted(engine)
        for value in SUPPORT[name]["core"] or ()
        if not supports(engine, name, value)
    ]


def unsupported(rules: Rules, engine: Engine) -> list[tuple[str, str]]:
    """The options of ``rules`` that ``engine`` does not play, with their values as text (an
    enum's string, ``true``/``false``), in the order of :func:`restricted`."""
    out = []
    for name in restricted(engine):
        value = getattr(rules, name)
        if not supports(engine, name, value):
            out.append((name, _text(value)))
    return out


def cover(engine: Engine, played: Iterable[Rules], base: Rules) -> list[dict[str, object]]:
    """Changes to ``base``, as few as the rules allow, that between them set every value
    ``engine`` plays of every option with few values (:func:`values_of`) that no rule set of
    ``played`` sets: what a differential test of ``engine`` adds to its cases to play the
    whole table. Raises :class:`RulesError` for a value that ``base`` cannot take.

    >>> from liarsdice.core.bidding.rules import PRESETS
    >>> changes = cover("sim", PRESETS.values(), PRESETS["classic"])
    >>> changes[1], sorted(changes[0])
    ({'stash': <Stash.OPEN: 'open'>},
     ['drinking', 'first_opener', 'ordering', 'show_reroll', 'stash'])
    >>> sorted(cover("core", PRESETS.values(), PRESETS["classic"])[-1])  # the engine plays more
    ['economy', 'stash']
    """
    seen = {(name, getattr(rules, name)) for rules in played for name in SUPPORT}
    out: list[dict[str, object]] = []
    for name, by in SUPPORT.items():
        for value in by[engine] or ():
            if (name, value) in seen:
                continue
            changes = next((c for c in out if name not in c and _takes(base, c, name, value)), None)
            if changes is not None:
                changes[name] = value
            elif _takes(base, {}, name, value):
                out.append({name: value})
            else:
                raise RulesError(f"{base.name} cannot take {name}={_text(value)}")
    return out


def _takes(base: Rules, changes: Mapping[str, object], name: str, value: object) -> bool:
    """Whether ``base`` with ``changes`` takes ``name`` set to ``value`` too."""
    try:
        base.replace(**changes, **{name: value})
    except RulesError:
        return False
    return True


def _text(value: object) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    return str(value.value if isinstance(value, Enum) else value)
