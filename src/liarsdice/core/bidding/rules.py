"""Rule options as data: one frozen, keyword-only :class:`Rules` config and named presets.

Every option is documented in ``docs/RULES.md`` together with the seed document it comes from.

>>> r = preset("classic")
>>> r.loss, r.wild, r.ordering
(<Loss.DIFFERENCE: 'difference'>, 1, <Ordering.LADDER: 'ladder'>)
>>> preset("classic", loss="one").loss
<Loss.ONE: 'one'>
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from liarsdice.core.common import preset_with
from liarsdice.core.errors import RulesError
from liarsdice.core.options import OptionCodec

MIN_PLAYERS = 2
MAX_PLAYERS = 12


class Ordering(StrEnum):
    """How one bid beats another."""

    # rules sources 000/001/002: ones bids interleave, least ones bid floor(q/2)+1
    LADDER = "ladder"
    PERUDO = "perudo"  # Perudo: least ones bid ceil(q/2), back from k ones needs 2k+1
    # quantity-major with a face ranking (rules source 003, OpenSpiel reset-face)
    QUANTITY = "quantity"
    FACE = "face"  # face-major (OpenSpiel reset-quantity)
    MONOTONE = "monotone"  # rules source 004 room: neither goes down, at least one goes up


class ExactCall(StrEnum):
    """Whether a spot-on ("exact") call exists and what it does."""

    NONE = "none"
    # rules source 003: right -> everyone but the caller loses one; wrong -> caller
    SPOT_ON = "spot-on"
    CALZA = "calza"  # Perudo: right -> caller regains a die (up to start); wrong -> caller loses


class Loss(StrEnum):
    """How many dice a challenge loser loses."""

    DIFFERENCE = "difference"  # |actual - bid| (rules sources 000/001/002)
    ONE = "one"


class ExactCount(StrEnum):
    """What happens on a liar call when the count equals the bid exactly."""

    BID_STANDS = "bid-stands"  # the bid was true: the caller loses (one die)
    ALL_BUT_BIDDER = "all-but-bidder"  # rules source 000: every player except the bidder loses one
    # rules source 001: bystanders keep a last die
    ALL_BUT_BIDDER_SPARE_LAST = "all-but-bidder-spare-last"
    CALLER_LOSES_ONE = "caller-loses-one"  # rules source 002 (same effect as bid-stands)


class NextOpener(StrEnum):
    """Who opens the next round."""

    WINNER = "winner"  # rules source 001: winner of the challenge (the bidder on an exact count)
    LOSER = "loser"  # rules source 002, Perudo: the loser (fewest dice among several)
    BIDDER = "bidder"  # rules source 003: the bidder of the called bid ("the previous player")


class FirstOpener(StrEnum):
    """Who opens the first round."""

    GIVEN = "given"  # seat 0, or the seat the game is created with
    RANDOM = "random"
    ROLL_ONE = "roll-one"  # rules source 002: everyone rolls one die, highest opens, ties re-roll
    ROLL_TWO = "roll-two"  # rules source 004: two dice summed, highest opens, ties re-roll


class ShowReroll(StrEnum):
    """Rules source 001's show-and-reroll rule."""

    OFF = "off"
    AFTER = "after"  # show, re-roll the hidden dice, then raise (SoCal order, as source 001)
    BEFORE = "before"  # raise, then show and re-roll (original 1987 order)


class Stash(StrEnum):
    """Rules source 003's stash: one extra die per active player rolled in the middle each round."""

    NONE = "none"
    SECRET = "secret"
    OPEN = "open"


class Economy(StrEnum):
    """Money on the side of the dice."""

    NONE = "none"
    # rules source 001: round pot to the challenge winner, game pot to the game winner
    CHIPS = "chips"
    RICH_MAN = "rich-man"  # rules source 003: buy a die by paying the pot, which doubles


class Resolution(StrEnum):
    """When a call resolves the bid."""

    FIRST_CALL = "first-call"  # the first call resolves it
    ALL_CALL = "all-call"  # rules source 004 room: every other active player must call it


class Scoring(StrEnum):
    """How a game ends and what it pays."""

    ELIMINATION = "elimination"  # last player with dice wins
    ROOM = "room"  # rules source 004 room: a true called bid wins the game outright (+1, others -1)
    SINGLE_ROUND = "single-round"  # one challenge decides: +1 winner, -1 loser (analysis)


@dataclass(frozen=True, kw_only=True)
class Rules:
    """Every rule option of the bidding family. Frozen and keyword-only.

    Build one from a preset with :func:`preset` and override options by name.
    """

    name: str = "custom"
    players: int = 4  # default number of players (a game may be created with another count)
    dice: int | tuple[int, ...] = 5  # per player; a tuple gives each seat its own count
    faces: int = 6
    wild: int | None = 1
    ordering: Ordering = Ordering.LADDER
    face_order: tuple[int, ...] | None = None  # ranking low -> high; None: 1 < 2 < ... < faces
    open_on_wild: bool = True
    exact: ExactCall = ExactCall.NONE
    loss: Loss = Loss.DIFFERENCE
    exact_count: ExactCount = ExactCount.ALL_BUT_BIDDER
    next_opener: NextOpener = NextOpener.LOSER
    first_opener: FirstOpener = FirstOpener.RANDOM
    show_reroll: ShowReroll = ShowReroll.OFF
    stash: Stash = Stash.NONE
    calling_advantage: bool = False
    economy: Economy = Economy.NONE
    chips: int = 50  # starting chips (chips and rich-man economies)
    ante: int = 1  # rich-man: each player's ante into the game pot at the start
    house_penalties: bool = False  # rules source 002: asking whose turn / how many dice costs a die
    drinking: bool = False  # rules source 001: show a drink tally (one drink per die lost)
    resolution: Resolution = Resolution.FIRST_CALL
    scoring: Scoring = Scoring.ELIMINATION
    palifico: bool = False  # Perudo: a player dropping to one die gets a palifico round

    def __post_init__(self) -> None:
        for name, enum in _ENUM_FIELDS.items():
            value = getattr(self, name)
            if not isinstance(value, enum):
                try:
                    object.__setattr__(self, name, enum(value))
                except ValueError:
                    choices = ", ".join(m.value for m in enum)
                    raise RulesError(f"{name} must be one of {choices}, not {value!r}") from None
        if isinstance(self.dice, list):
            object.__setattr__(self, "dice", tuple(self.dice))
        if isinstance(self.face_order, list):
            object.__setattr__(self, "face_order", tuple(self.face_order))
        self._validate()

    def _validate(self) -> None:
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise RulesError(f"players must be {MIN_PLAYERS}..{MAX_PLAYERS}, not {self.players}")
        if not 2 <= self.faces <= 12:
            raise RulesError(f"faces must be 2..12, not {self.faces}")
        counts = self.dice if isinstance(self.dice, tuple) else (self.dice,)
        if not counts or any(not isinstance(d, int) or not 1 <= d <= 30 for d in counts):
            raise RulesError(f"dice must be 1..30 per player, not {self.dice!r}")
        if self.wild is not None and not 1 <= self.wild <= self.faces:
            raise RulesError(f"wild must be a face 1..{self.faces} or none, not {self.wild}")
        if self.face_order is not None and sorted(self.face_order) != list(
            range(1, self.faces + 1)
        ):
            raise RulesError(f"face_order must rank each face 1..{self.faces} exactly once")
        if self.chips < 0 or self.ante < 0:
            raise RulesError("chips and ante must not be negative")
        if self.scoring is Scoring.SINGLE_ROUND and self.players != 2:
            raise RulesError("single-round scoring is for two players")
        if self.resolution is Resolution.ALL_CALL and self.exact is not ExactCall.NONE:
            raise RulesError("all-call resolution cannot be combined with an exact call")

    # ------------------------------------------------------------------ helpers
    def start_dice(self, players: int) -> tuple[int, ...]:
        """Each seat's starting dice for a game of ``players`` players."""
        if isinstance(self.dice, tuple):
            if len(self.dice) == 1:
                return self.dice * players
            if len(self.dice) != players:
                raise RulesError(
                    f"dice lists {len(self.dice)} counts but the game has {players} players"
                )
            return self.dice
        return (self.dice,) * players

    def ranked_faces(self) -> tuple[int, ...]:
        """Faces ranked low to high."""
        return self.face_order or tuple(range(1, self.faces + 1))

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed (names checked)."""
        unknown = set(changes) - OPTION_NAMES
        if unknown:
            raise RulesError(f"unknown rule option(s): {', '.join(sorted(unknown))}")
        return dataclasses.replace(self, **changes)

    def options(self) -> dict[str, Any]:
        """Every option as JSON-friendly values (enums as their strings)."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if isinstance(value, StrEnum):
                value = value.value
            elif isinstance(value, tuple):
                value = list(value)
            out[f.name] = value
        return out

    def diff(self, base: Rules) -> dict[str, Any]:
        """Options where ``self`` differs from ``base`` (JSON-friendly)."""
        mine, theirs = self.options(), base.options()
        return {k: v for k, v in mine.items() if k != "name" and theirs.get(k) != v}


_ENUM_FIELDS: dict[str, type[StrEnum]] = {
    "ordering": Ordering,
    "exact": ExactCall,
    "loss": Loss,
    "exact_count": ExactCount,
    "next_opener": NextOpener,
    "first_opener": FirstOpener,
    "show_reroll": ShowReroll,
    "stash": Stash,
    "economy": Economy,
    "resolution": Resolution,
    "scoring": Scoring,
}

OPTION_NAMES: frozenset[str] = frozenset(f.name for f in dataclasses.fields(Rules))

OPTIONS = OptionCodec.of(Rules, skip=("name",), what="rule option", listed=False)
"""The one reader of the rule options' values, from text (``--option``, a text record's
``Option:`` lines) and from JSON (a JSON record, the server's room options). An unknown
name's error does not list the 23 options (``liarsdice rules`` and ``docs/RULES.md`` do).

>>> OPTIONS.from_text("dice", "3,2"), OPTIONS.from_text("wild", "none")
((3, 2), None)
>>> OPTIONS.from_json("ordering", "perudo")
<Ordering.PERUDO: 'perudo'>
>>> OPTIONS.from_text("palifico", "maybe")
Traceback (most recent call last):
...
liarsdice.core.errors.RulesError: option palifico takes true or false, not 'maybe'
"""

# A lost challenge costs one die, and an exact count upholds the bid (rules sources 003, 004,
# Perudo).
_LOSE_ONE: dict[str, Any] = {"loss": Loss.ONE, "exact_count": ExactCount.BID_STANDS}

# The two-player, one-round analysis games (OpenSpiel, snyd) share everything but the wild face.
_SINGLE_ROUND: dict[str, Any] = {
    **_LOSE_ONE,
    "players": 2,
    "dice": 1,
    "ordering": Ordering.QUANTITY,
    "first_opener": FirstOpener.GIVEN,
    "scoring": Scoring.SINGLE_ROUND,
}

PRESETS: Mapping[str, Rules] = {
    r.name: r
    for r in (
        Rules(name="classic"),
        Rules(
            name="milton-bradley",
            exact_count=ExactCount.ALL_BUT_BIDDER_SPARE_LAST,
            next_opener=NextOpener.WINNER,
            show_reroll=ShowReroll.AFTER,
        ),
        Rules(
            name="house-rules",
            exact_count=ExactCount.CALLER_LOSES_ONE,
            first_opener=FirstOpener.ROLL_ONE,
            house_penalties=True,
        ),
        Rules(
            name="spot-on",
            wild=None,
            ordering=Ordering.QUANTITY,
            exact=ExactCall.SPOT_ON,
            **_LOSE_ONE,
            next_opener=NextOpener.BIDDER,
        ),
        Rules(
            name="room",
            dice=4,
            wild=None,
            ordering=Ordering.MONOTONE,
            face_order=(2, 3, 4, 5, 6, 1),
            **_LOSE_ONE,
            first_opener=FirstOpener.GIVEN,
            resolution=Resolution.ALL_CALL,
            scoring=Scoring.ROOM,
        ),
        Rules(
            name="perudo",
            ordering=Ordering.PERUDO,
            open_on_wild=False,
            exact=ExactCall.CALZA,
            **_LOSE_ONE,
            palifico=True,
        ),
        Rules(
            name="openspiel",
            wild=6,
            **_SINGLE_ROUND,
        ),
        Rules(
            name="snyd-normal",
            wild=None,
            **_SINGLE_ROUND,
        ),
        Rules(
            name="snyd-joker",
            wild=1,
            **_SINGLE_ROUND,
        ),
    )
}


def preset(name: str, **overrides: Any) -> Rules:
    """The named preset, with options overridden by name.

    >>> preset("perudo").exact
    <ExactCall.CALZA: 'calza'>
    >>> preset("nope")
    Traceback (most recent call last):
    ...
    liarsdice.core.errors.RulesError: unknown rules 'nope'; presets: classic, ...
    """
    return preset_with(PRESETS, name, overrides, "rules")


__all__ = [
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "OPTIONS",
    "OPTION_NAMES",
    "PRESETS",
    "Economy",
    "ExactCall",
    "ExactCount",
    "FirstOpener",
    "Loss",
    "NextOpener",
    "Ordering",
    "Resolution",
    "Rules",
    "Scoring",
    "ShowReroll",
    "Stash",
    "preset",
]
