"""The one interface every rule family implements (see ``docs/ARCHITECTURE.md``).

A :class:`Family` describes a rule family completely: its presets and how options are parsed
and checked, how a game is built, the record codec (JSON and text) and replay summary, the
per-player view the server sends, its bots and the terminal front end's family-specific parts.
Callers (CLI, server, arena, replay, verify) find a family through the registry in
:mod:`liarsdice.families` by preset name, record or game, and never ask which family it is.

The game, state, rules and view types differ between families; to the callers they are the
protocols of :mod:`liarsdice.core.api` (:class:`RulesAPI`, :class:`GameAPI`, :class:`StateAPI`,
:class:`ViewAPI`, :class:`ResultAPI`), the OpenSpiel-style API every engine keeps. A record, once
read and checked, is a :class:`~liarsdice.notation.common.LoadedRecord`: every later step takes
it and checks nothing again.

Why not a generic ``Family[R, G, S]``: the callers hold families of every kind side by side
(the registry, a room's family), so they would see ``Family[Any, Any, Any]`` and lose the
checking. The interface takes and returns the protocols instead; a concrete family keeps them
in its signatures (a method may not narrow a parameter) and narrows to its own engine's types
inside, with :func:`own` and :func:`own_record` (a :class:`TypeError` for another family's
object, which is a bug of the caller).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from liarsdice.bots.table import AnyBot, BotTable, option_codec, read_label, takes_think
from liarsdice.core.api import GameAPI, ResultAPI, RulesAPI, StateAPI
from liarsdice.core.errors import RecordError, RulesError
from liarsdice.core.options import OptionCodec
from liarsdice.families.sizes import Sizes
from liarsdice.families.terminal import GameTerminal
from liarsdice.i18n import _
from liarsdice.notation.common import JSONObject, LoadedRecord, Record, Source
from liarsdice.notation.text_common import option_text

if TYPE_CHECKING:
    from liarsdice.families.adapter import Adapter

T = TypeVar("T")
R = TypeVar("R", bound=RulesAPI)


def own(value: object, kind: type[T]) -> T:
    """``value`` as the family's own ``kind`` (its rules, game or state type); a
    :class:`TypeError` when another family's object reached it."""
    if not isinstance(value, kind):
        raise TypeError(f"expected {kind.__name__}, not {type(value).__name__}: {value!r}")
    return value


def own_record(record: LoadedRecord[RulesAPI], kind: type[R]) -> LoadedRecord[R]:
    """A loaded record with its rules as the family's own ``kind`` (no check of the data)."""
    return LoadedRecord(record.family, own(record.rules, kind), record.data)


class PlainWords(Protocol):
    """What every family's ``plain.py`` provides: its rules in words (English messages,
    translated where they are shown)."""

    SUMMARIES: Mapping[str, str]
    OPTION_HELP: Mapping[str, str]
    VALUE_HELP: Mapping[str, Mapping[str, str]]

    def plain_rules(self, rules: Any) -> list[str]: ...


class RecordModule(Protocol):
    """What every family's JSON record module (``notation/<family>/record.py``) provides, by
    the same names; each takes its own engine's types (which :class:`Family` narrows to)."""

    def load_record(self, data: Source) -> LoadedRecord[Any]: ...
    def record_from_state(self, state: Any) -> LoadedRecord[Any]: ...
    def replay_partial(self, record: Any) -> tuple[Any, RecordError | None]: ...
    def replay_summary(self, record: Any) -> JSONObject: ...
    def summarize_result(self, game: Any, result: Any) -> JSONObject: ...


class TextModule(Protocol):
    """What every family's text record module (``notation/<family>/text.py``) provides."""

    def record_to_text(self, record: Any) -> str: ...
    def text_to_record(self, text: str) -> LoadedRecord[Any]: ...


@dataclass(frozen=True)
class Records:
    """What a family's record methods hand over to (:class:`Family`): its notation's record
    and text modules, and its engine's game, state and round result types, which the
    protocol types are narrowed to (:func:`own`) before the modules take them."""

    record: RecordModule
    text: TextModule
    game: type[GameAPI]
    state: type[StateAPI]
    result: type[ResultAPI]


class Family(ABC):
    """A rule family: everything the layers above the rules core need to know about it.

    The methods take the protocol types and narrow them to the family's engine's own
    (:attr:`rules_type`, :attr:`records`' types) with :func:`own` (module docstring)."""

    name: str
    """The family's name as the public formats write it (``"bidding"``, ``"poker"``)."""

    # ------------------------------------------------------------------------------ rules
    presets: Mapping[str, RulesAPI]
    """The named presets of this family (name -> rules), in listing order."""

    rules_type: type[RulesAPI]
    """The type of this family's rules objects."""

    options: OptionCodec
    """The one reader of this family's rule options, from text and from JSON
    (:mod:`liarsdice.core.options`)."""

    def owns(self, preset: str) -> bool:
        """Whether ``preset`` (a name, any case) is one of this family's presets."""
        return preset.strip().lower() in self.presets

    def owns_rules(self, rules: object) -> bool:
        """Whether ``rules`` are rules of this family (of its rules type)."""
        return isinstance(rules, self.rules_type)

    def room_options(
        self, options: Mapping[str, object], players: int | None = None
    ) -> dict[str, object]:
        """``options`` as JSON values (strings read as text) and ``players``, read by the
        family's codec for :meth:`rules`; :class:`RulesError` for the players or the name
        given as an option (the room sets those)."""
        for k in options:
            if k.strip().replace("-", "_") in ("players", "name"):
                raise RulesError(f"option {k!r} is set by the room, not by an option")
        read: dict[str, object] = self.options.read_json(options, text_strings=True)
        if players is not None:
            read["players"] = players
        return read

    @abstractmethod
    def rules(
        self, preset: str, options: Mapping[str, object], players: int | None = None
    ) -> RulesAPI:
        """The rules of ``preset`` with ``options`` as JSON values (the server's room options,
        a record's options); :class:`RulesError` naming the option when one is wrong."""

    @abstractmethod
    def rules_from_cli(self, preset: str, options: Mapping[str, str], sizes: Sizes) -> RulesAPI:
        """The rules of ``preset`` from the command line's ``--option name=value`` texts and
        ``--players``, ``--dice``, ``--faces``; :class:`ValueError` (a :class:`RulesError` or
        a parse error) with a message for the user when something is wrong."""

    @abstractmethod
    def rules_json(self, rules: RulesAPI) -> JSONObject:
        """Every option of ``rules`` plus its description, JSON-friendly (``rules --json``)."""

    @abstractmethod
    def rules_listing(self) -> list[str]:
        """This family's lines of ``liarsdice rules`` (every preset, where it differs)."""

    # ------------------------------------------------------------------- the rules in words
    # What the rules say in words is written once, in the family's ``plain.py``, and said in
    # the language in use: the terminal and the browser (``GET /api/rules``) show the same.
    plain: PlainWords
    """The family's ``plain.py``: the tables below and :meth:`plain_rules` read it."""

    @property
    def summaries(self) -> Mapping[str, str]:
        """One line per preset (an English message, translated where it is shown), true of
        the preset's own options only."""
        return self.plain.SUMMARIES

    @property
    def option_help(self) -> Mapping[str, str]:
        """One sentence per option (an English message): what it is."""
        return self.plain.OPTION_HELP

    @property
    def value_help(self) -> Mapping[str, Mapping[str, str]]:
        """What each value of the options that take one of a few values does (English
        messages)."""
        return self.plain.VALUE_HELP

    def changes(self, rules: RulesAPI) -> dict[str, object]:
        """The options where ``rules`` differ from their preset, JSON-friendly (the table's
        size, ``players``, is the table's, not a change); ``{}`` for rules of no preset."""
        base = self.presets.get(rules.name)
        if base is None:
            return {}
        theirs = base.options()
        return {
            k: v
            for k, v in rules.options().items()
            if k not in ("name", "players") and theirs.get(k) != v
        }

    def description(self, rules: RulesAPI) -> str:
        """A one-line description of the rules, in the language in use: the preset's summary
        for its own options, else the preset and what changed (``""``: rules of no preset)."""
        if rules.name not in self.presets:
            return ""
        changed = self.changes(rules)
        if not changed:
            return _(self.summaries[rules.name])
        said = ", ".join(f"{k}={option_text(v, command_line=True)}" for k, v in changed.items())
        return _("The {preset} rules with {changes}.").format(preset=rules.name, changes=said)

    def changed_rules(self, rules: RulesAPI) -> list[str]:
        """The sentences of :meth:`plain_rules` that the preset's own rules do not say: what
        the changed options make of the game (none for the preset's own options)."""
        base = self.presets.get(rules.name)
        if base is None or not self.changes(rules):
            return []
        before = set(self.plain_rules(base))  # (the sentences never name the table's size)
        return [line for line in self.plain_rules(rules) if line not in before]

    def rules_notes(self, rules: RulesAPI) -> list[str]:
        """What ``liarsdice play`` says of the rules under its first line: the description,
        then the sentences of the changed options."""
        return [line for line in (self.description(rules), *self.changed_rules(rules)) if line]

    def describe_option(self, name: str, value: object) -> str:
        """Option ``name`` and what its ``value`` (JSON-friendly) does, in the language in use:
        its sentence, then the value's own (empty for an option with no words)."""
        said = _(self.option_help[name]) if name in self.option_help else ""
        meaning = self.value_help.get(name, {}).get(str(value))
        if meaning:
            value_said = _("{value}: {meaning}.").format(
                value=str(value).capitalize(), meaning=_(meaning)
            )
            said = f"{said} {value_said}"
        return said.strip()

    def rules_text(self, rules: RulesAPI) -> JSONObject:
        """The rules in words, as the browser shows them (``GET /api/rules``) and ``liarsdice
        rules`` prints them, in the language in use: ``preset``, ``family``, ``description``,
        ``changed`` (:meth:`changes`) and ``rules`` (:meth:`plain_rules`)."""
        return {
            "preset": rules.name,
            "family": self.name,
            "description": self.description(rules),
            "changed": self.changes(rules),
            "rules": self.plain_rules(rules),
        }

    # ------------------------------------------------------------------------------- games
    @abstractmethod
    def new_game(self, rules: RulesAPI, names: Sequence[str], opener: int | None = None) -> GameAPI:
        """A game of ``rules`` with these seat names (``opener``: who opens round 1, None for
        the rules' own way)."""

    def needs_opener_draw(self, game: GameAPI) -> bool:
        """Whether the first opener of ``game`` is drawn by a chance event before round 1
        (the server draws it from the fair dice stream)."""
        return False

    def plain_rules(self, rules: RulesAPI) -> list[str]:
        """The rules that are on, one plain sentence each, for players (no option names), in
        the language in use; a changed option changes its sentence (``plain.py``)."""
        return self.plain.plain_rules(own(rules, self.rules_type))

    def preset_description(self, rules: RulesAPI) -> str:
        """The description the server lists for a preset (``GET /api/presets``)."""
        return self.description(rules)

    # ----------------------------------------------------------------------------- records
    @abstractmethod
    def owns_record(self, data: Mapping[str, object]) -> bool:
        """Whether a parsed record (its ``"rules"`` name) belongs to this family."""

    records: Records
    """The family's record modules and engine types: the record methods below hand over to
    the modules, narrowing the protocol types to the engine's own on the way."""

    def load_record(self, data: Source) -> LoadedRecord[RulesAPI]:
        """Check a record of this family (parsed data or JSON text): the loaded record, with
        its rules built, or :class:`RecordError`."""
        return self.records.record.load_record(data)

    def record_from_state(self, state: StateAPI) -> LoadedRecord[RulesAPI]:
        """The record of the game so far (a loaded record: nothing to check)."""
        return self.records.record.record_from_state(own(state, self.records.state))

    def replay_partial(
        self, record: LoadedRecord[RulesAPI]
    ) -> tuple[StateAPI | None, RecordError | None]:
        """Replay a loaded record as far as it is legal: (state reached, first error)."""
        return self.records.record.replay_partial(own_record(record, self.rules_type))

    def replay(self, record: LoadedRecord[RulesAPI]) -> StateAPI:
        """Replay a loaded record; the state reached, or :class:`RecordError`."""
        state, error = self.replay_partial(record)
        if error is not None:
            raise error
        assert state is not None
        return state

    def replay_summary(self, record: LoadedRecord[RulesAPI]) -> JSONObject:
        """The ``replay --json`` object of a loaded record."""
        return self.records.record.replay_summary(own_record(record, self.rules_type))

    def summarize_result(self, game: GameAPI, result: ResultAPI) -> JSONObject:
        """One finished round as the replay summary (and the server's views) write it."""
        game, result = own(game, self.records.game), own(result, self.records.result)
        return self.records.record.summarize_result(game, result)

    @abstractmethod
    def round_line(self, number: int, summary: JSONObject) -> str:
        """Round ``number`` (1-based) of a replay summary as ``liarsdice replay`` prints it."""

    def record_to_text(self, record: LoadedRecord[RulesAPI]) -> str:
        """The text record of a loaded record."""
        return self.records.text.record_to_text(own_record(record, self.rules_type))

    def text_to_record(self, text: str) -> LoadedRecord[RulesAPI]:
        """Read a text record of this family; the loaded record or :class:`RecordError`."""
        return self.records.text.text_to_record(text)

    # -------------------------------------------------------------------------- the server
    @abstractmethod
    def view_frame(self, state: StateAPI, seat: int) -> JSONObject:
        """What ``seat`` (-1: a spectator) may see of ``state``, as the server's ``view``
        object (``docs/PROTOCOL.md``), built from the rules core's own ``state.view(seat)``."""

    @abstractmethod
    def move_json(self, game: GameAPI, text: str) -> JSONObject:
        """A move's notation (``game.action_to_string``'s: ``legal``, ``history`` and the
        ``action`` events carry it) as a structured move, so that a client words it without
        reading notation (``docs/PROTOCOL.md``, "Moves"): ``{"kind": "bid", "quantity": 3,
        "face": 5}``, ``{"kind": "call", "call": "liar"}``, a poker claim's category and
        faces..."""

    def legal_frame(self, state: StateAPI, seat: int, actions: Sequence[int]) -> list[JSONObject]:
        """The ``legal`` list of ``seat``'s view: each of ``actions`` with its notation and its
        structured move. A family may add what the seat's own view tells of a move (the bidding
        family: each bid's chance from the seat's own dice)."""
        game = state.game
        out: list[JSONObject] = []
        for action in actions:
            text = game.action_to_string(action, seat)
            out.append({"action": action, "text": text, "move": self.move_json(game, text)})
        return out

    def public_rules(self, rules: RulesAPI) -> JSONObject | None:
        """The dice facts a browser needs to lay out bids and light up the dice that count (the
        room's ``rules``; None: none)."""
        return None

    @abstractmethod
    def reveal_count(self, result: ResultAPI) -> int:
        """How many dice the reveal of a finished round counts out one by one (the server
        times the reveal by it)."""

    # -------------------------------------------------------------------------------- bots
    bots: BotTable
    """Every bot of this family by name: its levels weakest first (``bots.levels``), then its
    panel bots (``bots.panel``), then the bots imported on first use (``bots.lazy``: the
    bidding family's solver bot, NumPy and SciPy, and its learned bot, NumPy)."""

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
    def terminal(self, game: GameAPI, *, hot_seat: bool = False) -> GameTerminal:
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


__all__ = ["Family", "JSONObject", "LoadedRecord", "Record", "Sizes", "own", "own_record"]
