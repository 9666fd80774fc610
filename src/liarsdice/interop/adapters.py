"""What the OpenSpiel and PettingZoo bindings need of a game, for every family: the dense
action numbering, observation and information-state tensors and strings, utility bounds.

An :class:`Adapter` wraps one engine game; :func:`make_adapter` builds the game of a preset
through the family registry (:mod:`liarsdice.families`) and picks the family's adapter by the
family's name (:data:`ADAPTERS`), so the bindings never ask which family they have.

>>> adapter = make_adapter("openspiel")
>>> adapter.num_actions, adapter.observation_size, adapter.max_chance_outcomes
(20, 26, 7)
>>> make_adapter("openspiel", faces=3).game.rules.wild    # the highest face stays wild
3
>>> make_adapter("poker-dice", players=3).num_actions
3462
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any, ClassVar

from liarsdice.core.bidding.game import Game
from liarsdice.core.bidding.rules import Economy, ExactCall, FirstOpener, Scoring, ShowReroll, Stash
from liarsdice.core.common import CHANCE, TERMINAL, default_names
from liarsdice.families import family_of
from liarsdice.families.base import Family, Sizes
from liarsdice.families.bidding.encoding import BiddingEncoding
from liarsdice.families.poker.encoding import PokerEncoding
from liarsdice.families.tensors import Floats32

__all__ = [
    "ADAPTERS",
    "Adapter",
    "BiddingAdapter",
    "PokerAdapter",
    "make_adapter",
    "parse_options",
]


class Adapter(ABC):
    """One engine game as the bindings see it (see the module docstring)."""

    family_name: ClassVar[str]

    def __init__(self, game: Any) -> None:
        self.game = game
        self.num_players: int = game.num_players

    def __deepcopy__(self, memo: dict[int, Any]) -> Adapter:
        return self  # immutable; shared by the copies of the states that hold it

    # ------------------------------------------------------------------ sizes
    num_actions: int
    observation_size: int
    info_size: int
    max_chance_outcomes: int
    min_utility: float
    max_utility: float
    zero_sum: bool
    max_game_length: int
    """A bound on the number of decisions in a game (see :meth:`rounds_bound`)."""

    # ------------------------------------------------------------- rules, games
    @classmethod
    def rules(cls, family: Family, preset: str, options: Mapping[str, str], sizes: Sizes) -> Any:
        """The rules of ``preset`` with ``options`` (command-line texts) and ``sizes``."""
        return family.rules_from_cli(preset, options, sizes)

    # ---------------------------------------------------------------- actions
    @abstractmethod
    def to_action(self, index: int) -> int:
        """The engine action of a dense action index."""

    @abstractmethod
    def to_index(self, action: int) -> int:
        """The dense index of an engine action."""

    def legal_indices(self, state: Any) -> list[int]:
        """The legal actions of the player to act (chance outcomes at chance nodes, which
        are the engine's own), ascending."""
        if state.current_player == CHANCE:
            return list(state.legal_actions())
        if state.current_player == TERMINAL:
            return []
        return [self.to_index(a) for a in state.legal_actions()]

    # ----------------------------------------------------------- observations
    @abstractmethod
    def observation(self, state: Any, player: int) -> Floats32:
        """``player``'s observation tensor (``observation_size`` floats)."""

    @abstractmethod
    def information_state(self, state: Any, player: int) -> Floats32:
        """``player``'s information-state tensor (``info_size`` floats)."""

    @abstractmethod
    def observation_string(self, state: Any, player: int) -> str:
        """What ``player`` sees now, as one line."""

    @abstractmethod
    def slices(self, history: bool) -> dict[str, slice]:
        """The named blocks of the observation (``history``: the information state)."""

    @abstractmethod
    def observation_bounds(self) -> tuple[float, float]:
        """The least and greatest value of any entry of the tensors."""

    def recall_key(self, state: Any, player: int) -> str:
        """What ``player`` observes now beyond the moves themselves (which every player
        sees): the information-state strings record it whenever it changes. By default the
        whole observation string."""
        return self.observation_string(state, player)


class BiddingAdapter(Adapter):
    """The bidding family (:class:`~liarsdice.families.bidding.encoding.BiddingEncoding`)."""

    family_name = "bidding"
    game: Game

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.encoding = enc = BiddingEncoding(game)
        rules = game.rules
        P = self.num_players
        self.num_actions = enc.num_actions
        self.observation_size = enc.size
        self.info_size = enc.info_size
        self.max_chance_outcomes = max(rules.faces + 1, P)  # faces 1..F, or a random seat
        if rules.scoring is Scoring.ROOM:
            # -1 for going out, then -1 more when another seat's bid stands; +1 for a bid
            self.min_utility, self.max_utility, self.zero_sum = -2.0, 1.0, False
        else:
            self.min_utility, self.max_utility, self.zero_sum = -1.0 / (P - 1), 1.0, True
        self._single_round = (
            rules.scoring is Scoring.SINGLE_ROUND
            and (rules.first_opener is FirstOpener.GIVEN or game.opener is not None)
            and rules.show_reroll is ShowReroll.OFF
            and rules.stash is Stash.NONE
        )
        # per bid at most: the other seats' calls, a show (and no-show), a die bought
        per_bid = P + (2 if rules.show_reroll is not ShowReroll.OFF else 0)
        per_bid += 1 if rules.economy is Economy.RICH_MAN else 0
        self.max_game_length = self.rounds_bound() * (enc.num_bids * per_bid + P)

    def observation_bounds(self) -> tuple[float, float]:
        rules = self.game.rules
        low = -2.0 if rules.scoring is Scoring.ROOM else 0.0
        high = self.game.max_quantity  # dice, counts, the pile
        if rules.economy is not Economy.NONE:
            high = max(high, self.num_players * rules.chips)  # money only changes hands
        return low, float(high)

    def rounds_bound(self) -> int:
        """Rounds a game lasts at most: each costs a die, but a right calza wins one back,
        so with calza this is a generous practical bound (three times the dice), not a
        hard one."""
        dice = sum(self.game.start_dice)
        return dice * (3 if self.game.rules.exact is ExactCall.CALZA else 1) + 1

    @classmethod
    def rules(cls, family: Family, preset: str, options: Mapping[str, str], sizes: Sizes) -> Any:
        base = family.rules_from_cli(preset, {}, Sizes())
        changed = dict(options)
        if sizes.faces is not None and "wild" not in changed and base.wild == base.faces:
            changed["wild"] = str(sizes.faces)  # the highest face stays wild (OpenSpiel)
        return family.rules_from_cli(preset, changed, sizes)

    def to_action(self, index: int) -> int:
        return self.encoding.to_action(index)

    def to_index(self, action: int) -> int:
        return self.encoding.to_index(action)

    def observation(self, state: Any, player: int) -> Floats32:
        return self.encoding.observation(state, player)

    def information_state(self, state: Any, player: int) -> Floats32:
        return self.encoding.information_state(state, player)

    def slices(self, history: bool) -> dict[str, slice]:
        out = dict(self.encoding.slices)
        if not history:
            del out["history"]
        return out

    def recall_key(self, state: Any, player: int) -> str:
        """Single-round games with a given opener: only the player's own dice are observed
        beyond the moves (the round's roll is the only chance event), so they make the key,
        without building a view."""
        if self._single_round:
            hand = "" if state.is_chance_node() else "".join(map(str, state.hand(player)))
            return f"mine {hand or '-'}"
        return self.observation_string(state, player)

    def observation_string(self, state: Any, player: int) -> str:
        v = state.view(player)
        parts = [
            f"p{player}",
            f"round {v.round}",
            f"{v.phase}",
            f"opener {v.opener}",
            f"to_move {v.to_move}",
            "dice " + ",".join(map(str, v.dice_counts)),
            "mine " + ("".join(map(str, v.my_dice)) or "-"),
        ]
        if v.current_bid is not None:
            parts.append(f"bid {v.current_bid} by {v.bidder}")
        if any(v.shown):
            parts.append("shown " + "/".join("".join(map(str, s)) or "-" for s in v.shown))
        if v.stash is not None:
            parts.append("stash " + ("".join(map(str, v.stash)) or "-"))
        if v.callers:
            parts.append("callers " + ",".join(map(str, v.callers)))
        if v.palifico:
            parts.append("palifico")
        enc = self.encoding
        if "must_raise" in enc.slices and enc.must_raise(state, v):
            parts.append("must-raise")
        if "scores" in enc.slices:
            parts.append("scores " + ",".join(map(str, v.scores)))
        if "chips" in enc.slices:
            parts.append(f"chips {','.join(map(str, v.chips))} pots {v.round_pot},{v.game_pot}")
        if "pile" in enc.slices:
            parts.append(f"pile {v.pile}")
        if v.results:
            last = v.results[-1]
            hands = "/".join("".join(map(str, h)) or "-" for h in last.hands)
            parts.append(f"revealed {hands}")
        return " ".join(parts)


class PokerAdapter(Adapter):
    """The poker-dice family (:class:`~liarsdice.families.poker.encoding.PokerEncoding`)."""

    family_name = "poker"

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self.encoding = enc = PokerEncoding(game)
        P = self.num_players
        self.num_actions = enc.num_actions
        self.observation_size = enc.size
        self.info_size = enc.info_size
        self.max_chance_outcomes = 7  # faces 1..6
        self.min_utility, self.max_utility, self.zero_sum = -1.0 / (P - 1), 1.0, True
        # per bid at most: respond, arrange, shake, pass (+ a five-of-a-kind challenge)
        rounds = 3 * P * game.rules.lives + 1  # a met five-of-a-kind challenge costs no life
        self.max_game_length = rounds * (enc.num_bids * 5 + 8)

    def observation_bounds(self) -> tuple[float, float]:
        return 0.0, float(max(self.game.rules.lives, 5))

    def to_action(self, index: int) -> int:
        return index

    def to_index(self, action: int) -> int:
        return action

    def observation(self, state: Any, player: int) -> Floats32:
        return self.encoding.observation(state, player)

    def information_state(self, state: Any, player: int) -> Floats32:
        return self.encoding.information_state(state, player)

    def slices(self, history: bool) -> dict[str, slice]:
        out = dict(self.encoding.slices)
        if not history:
            del out["history"]
        return out

    def observation_string(self, state: Any, player: int) -> str:
        return self.encoding.observation_string(state, player)


ADAPTERS: dict[str, type[Adapter]] = {a.family_name: a for a in (BiddingAdapter, PokerAdapter)}
"""The adapter of each family, by the family's name."""


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
    adapter_type = ADAPTERS[family.name]
    sizes = Sizes(players, None if dice is None else str(dice), faces)
    rules = adapter_type.rules(family, preset, opts, sizes)
    game = family.new_game(rules, default_names(rules.players), opener)
    return adapter_type(game)
