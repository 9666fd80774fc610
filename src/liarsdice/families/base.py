"""The one interface every rule family implements (see ``docs/ARCHITECTURE.md``).

A :class:`Family` describes a rule family completely: its presets and how options are parsed
and checked, how a game is built, the record codec (JSON and text) and replay summary, the
per-player view the server sends, its bots and the terminal front end's family-specific parts.
Callers (CLI, server, arena, replay, verify) find a family through the registry in
:mod:`liarsdice.families` by preset name, record or game, and never ask which family it is.

The game, state, rules and view types differ between families; to the callers they are opaque
objects that follow the OpenSpiel-style API of the rules core (``new_initial_state``,
``current_player``, ``legal_actions``, ``apply_action``, ``view(seat)``, ``history``...).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from liarsdice.bots.table import AnyBot, BotTable, option_codec, read_label, takes_think
from liarsdice.core.errors import RecordError, RulesError
from liarsdice.core.options import OptionCodec
from liarsdice.families.terminal import GameTerminal

if TYPE_CHECKING:
    from liarsdice.families.adapter import Adapter

Record = dict[str, Any]
"""A checked, normalized JSON game record (``docs/RECORD.md``)."""


class Sizes(NamedTuple):
    """The table size given on the command line (None: the preset's)."""

    players: int | None = None
    dice: str | None = None  # e.g. "5", or "5,4" per seat
    faces: int | None = None


class RecordModule(Protocol):
    """What a family's JSON record module provides (``notation/bidding/record.py`` and its
    twins)."""

    def load_record(self, source: Any) -> Record: ...
    def record_from_state(self, state: Any) -> Record: ...
    def replay_partial(self, record: Any) -> tuple[Any | None, RecordError | None]: ...
    def replay_summary(self, record: Any) -> dict[str, Any]: ...
    def summarize_result(self, game: Any, result: Any) -> dict[str, Any]: ...


class TextModule(Protocol):
    """What a family's text record module provides (``notation/bidding/text.py`` and its twins)."""

    def record_to_text(self, record: Any) -> str: ...
    def text_to_record(self, text: str) -> Record: ...


class Family(ABC):
    """A rule family: everything the layers above the rules core need to know about it."""

    name: str
    """The family's name as the public formats write it (``"bidding"``, ``"poker"``)."""

    # ------------------------------------------------------------------------------ rules
    presets: Mapping[str, Any]
    """The named presets of this family (name -> rules), in listing order."""

    rules_type: type
    """The type of this family's rules objects."""

    options: OptionCodec
    """The one reader of this family's rule options, from text and from JSON
    (:mod:`liarsdice.core.options`)."""

    def owns(self, preset: str) -> bool:
        """Whether ``preset`` (a name, any case) is one of this family's presets."""
        return preset.strip().lower() in self.presets

    def owns_rules(self, rules: Any) -> bool:
        """Whether ``rules`` are rules of this family (of its rules type)."""
        return isinstance(rules, self.rules_type)

    @abstractmethod
    def rules(self, preset: str, options: Mapping[str, Any], players: int | None = None) -> Any:
        """The rules of ``preset`` with ``options`` as JSON values (the server's room options,
        a record's options); :class:`RulesError` naming the option when one is wrong."""

    @abstractmethod
    def rules_from_cli(self, preset: str, options: Mapping[str, str], sizes: Sizes) -> Any:
        """The rules of ``preset`` from the command line's ``--option name=value`` texts and
        ``--players``, ``--dice``, ``--faces``; :class:`ValueError` (a :class:`RulesError` or
        a parse error) with a message for the user when something is wrong."""

    @abstractmethod
    def rules_json(self, rules: Any) -> dict[str, Any]:
        """Every option of ``rules`` plus its description, JSON-friendly (``rules --json``)."""

    @abstractmethod
    def rules_listing(self) -> list[str]:
        """This family's lines of ``liarsdice rules`` (every preset, where it differs)."""

    @abstractmethod
    def description(self, rules: Any) -> str:
        """A one-line description of the rules."""

    # ------------------------------------------------------------------------------- games
    @abstractmethod
    def new_game(self, rules: Any, names: Sequence[str], opener: int | None = None) -> Any:
        """A game of ``rules`` with these seat names (``opener``: who opens round 1, None for
        the rules' own way)."""

    def needs_opener_draw(self, game: Any) -> bool:
        """Whether the first opener of ``game`` is drawn by a chance event before round 1
        (the server draws it from the fair dice stream)."""
        return False

    @abstractmethod
    def plain_rules(self, rules: Any) -> list[str]:
        """The rules that are on, one plain sentence each, for players (no option names)."""

    def preset_description(self, rules: Any) -> str:
        """The description the server lists for a preset (``GET /api/presets``)."""
        return self.description(rules)

    # ----------------------------------------------------------------------------- records
    @abstractmethod
    def owns_record(self, data: Mapping[str, Any]) -> bool:
        """Whether a parsed record (its ``"rules"`` name) belongs to this family."""

    records: RecordModule
    """The family's JSON record module (in :mod:`liarsdice.notation`)."""

    texts: TextModule
    """The family's text record module (in :mod:`liarsdice.notation`)."""

    def record_from_state(self, state: Any) -> Record:
        """The JSON record of the game so far."""
        return self.records.record_from_state(state)

    def load_record(self, data: Mapping[str, Any]) -> Record:
        """Check a parsed record of this family; a normalized copy or :class:`RecordError`."""
        return self.records.load_record(data)

    def replay_partial(self, record: Record) -> tuple[Any | None, RecordError | None]:
        """Replay a checked record as far as it is legal: (state reached, first error)."""
        return self.records.replay_partial(record)

    def replay(self, record: Record) -> Any:
        """Replay a checked record; the state reached, or :class:`RecordError`."""
        state, error = self.replay_partial(record)
        if error is not None:
            raise error
        assert state is not None
        return state

    def replay_summary(self, record: Record) -> dict[str, Any]:
        """The ``replay --json`` object of a checked record."""
        return self.records.replay_summary(record)

    def summarize_result(self, game: Any, result: Any) -> dict[str, Any]:
        """One finished round as the replay summary (and the server's views) write it."""
        return self.records.summarize_result(game, result)

    @abstractmethod
    def round_line(self, number: int, summary: Mapping[str, Any]) -> str:
        """Round ``number`` (1-based) of a replay summary as ``liarsdice replay`` prints it."""

    def record_to_text(self, record: Record) -> str:
        """The text record of a checked record."""
        return self.texts.record_to_text(record)

    def text_to_record(self, text: str) -> Record:
        """Read a text record of this family; the checked JSON record or :class:`RecordError`."""
        return self.texts.text_to_record(text)

    # -------------------------------------------------------------------------- the server
    @abstractmethod
    def view_frame(self, state: Any, seat: int) -> dict[str, Any]:
        """What ``seat`` (-1: a spectator) may see of ``state``, as the server's ``view``
        object (``docs/PROTOCOL.md``), built from the rules core's own ``state.view(seat)``."""

    def public_rules(self, rules: Any) -> dict[str, Any] | None:
        """The dice facts a browser needs for its odds helper (None: no helper)."""
        return None

    # -------------------------------------------------------------------------------- bots
    bots: BotTable
    """Every bot of this family by name: its levels weakest first (``bots.levels``), then its
    panel bots (``bots.panel``), then the bots imported on first use (``bots.lazy``: the
    bidding family's solver bot, NumPy and SciPy)."""

    def make_bot(
        self,
        label: str,
        rng: random.Random,
        *,
        think: float | None = None,
        options: Mapping[str, str] | None = None,
    ) -> AnyBot:
        """A new bot drawing its randomness from ``rng``: the one factory of every caller.

        ``label`` is a bot name (any case) and perhaps options, ``expert:cached=false:
        exploit=0.7`` (then perhaps the arena's ``#n``), ``options`` more of them (name ->
        text); both are read by the bot class's option codec, so an error names the option
        and the values it takes. ``think`` (seconds per move; None: the bot's default) goes to
        the bots with a ``think`` field, unless the options set it. ValueError for an unknown
        bot (listing this family's bots), :class:`RulesError` for a wrong option.
        """
        name, given = read_label(label)
        if name not in self.bots:
            raise ValueError(f"unknown bot {name!r}; {self.name} bots: {', '.join(self.bots)}")
        cls = self.bots[name]
        given.update(options or {})
        try:
            kwargs = option_codec(cls).read_text(given)
        except RulesError as err:
            raise RulesError(f"bot {name!r}: {err}") from None
        if think is not None and "think" not in kwargs and takes_think(cls):
            kwargs["think"] = think
        return cls(rng, **kwargs)

    # ---------------------------------------------------------------- the terminal front end
    @abstractmethod
    def terminal(self, game: Any, *, hot_seat: bool = False) -> GameTerminal:
        """The family-specific parts of ``liarsdice play`` for ``game``: the text it prints
        (narration, table, reveal, prompts, hints, help) and the reading of a human's input
        (``hot_seat``: several humans share the screen)."""

    # ------------------------------------------------------------------- the research bindings
    @abstractmethod
    def adapter_type(self) -> type[Adapter]:
        """This family's :class:`~liarsdice.families.adapter.Adapter` (what the OpenSpiel and
        PettingZoo bindings need of its games), imported now: it needs NumPy."""

    def adapter(self, game: object) -> Adapter:
        """The adapter of ``game``, a game of this family."""
        return self.adapter_type()(game)


__all__ = ["Family", "Record", "RecordModule", "Sizes", "TextModule"]
