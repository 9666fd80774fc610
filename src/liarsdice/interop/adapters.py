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
from typing import Any

from liarsdice.core.bidding.actions import BID_BASE, LIAR
from liarsdice.core.bidding.bid import Bid
from liarsdice.core.common import default_names
from liarsdice.families import family_of
from liarsdice.families.adapter import Adapter
from liarsdice.families.base import Sizes

__all__ = ["LiarsDiceCodec", "make_adapter", "parse_options"]


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


class LiarsDiceCodec:
    """OpenSpiel's own ``liars_dice`` numbering and presentation of an engine game of the
    ``openspiel`` preset (two seats, the same dice each, the highest face wild): what the
    OpenSpiel-compatible binding shows instead of the adapter's (pure Python).

    Bids are ``(quantity - 1) * faces + face - 1``, the liar call the last action
    (``dice * faces``); chance outcomes are ``face - 1``; seat 0 rolls its dice first. A
    state is described by its rolls (chance outcomes, in order) and its calls (action ids,
    in order), which is all ``liars_dice`` keeps.

    >>> codec = LiarsDiceCodec(make_adapter("openspiel").game)
    >>> codec.num_actions, codec.info_size, codec.action_string(6), codec.action_string(12)
    (13, 21, '2-1', 'Liar')
    >>> codec.info_string(1, (2, 5), (3, 7))
    '6 1-4 2-2'
    >>> codec.to_string((2,), ())
    '3 -1 - chance node, current roller is player 1'
    """

    def __init__(self, game: Any) -> None:
        rules = game.rules
        dice = tuple(game.start_dice)
        if rules.name != "openspiel" or len(set(dice)) != 1 or rules.wild != rules.faces:
            raise ValueError(
                "liars_dice's interface exists for the openspiel preset only (two seats, the "
                f"same dice each, the highest face wild), not {rules.name} with dice {dice}"
            )
        self.game = game
        self.num_players = P = len(dice)
        self.dice, self.faces = dice[0], rules.faces
        self.total = total = sum(dice)
        self.liar = total * self.faces
        self.num_actions = self.max_game_length = self.liar + 1
        self.info_size = P + self.dice * self.faces + self.liar + 1
        # engine action of each id, and back (the engine ranks bids as liars_dice does)
        self.actions = [0] * self.num_actions
        for k in range(total * self.faces):
            bid = Bid(k // self.faces + 1, k % self.faces + 1)
            self.actions[k] = game.bid_action(bid)
        self.actions[self.liar] = LIAR
        self.ids = {a: k for k, a in enumerate(self.actions)}
        assert self.actions[: self.liar] == list(range(BID_BASE, BID_BASE + self.liar))

    # ------------------------------------------------------------------ actions
    def to_index(self, action: int) -> int:
        """The id of an engine action."""
        try:
            return self.ids[action]
        except KeyError:
            raise ValueError(f"engine action {action} has no liars_dice id") from None

    def action_string(self, action: int) -> str:
        """``liars_dice``'s text of a player's action: ``2-5`` or ``Liar``."""
        if action == self.liar:
            return "Liar"
        return f"{action // self.faces + 1}-{action % self.faces + 1}"

    # ------------------------------------------------------------------- views
    def hands(self, rolls: tuple[int, ...]) -> list[list[int]]:
        """Each seat's dice as ``liars_dice`` keeps them: faces in the order rolled, ``-1``
        for those not rolled yet, sorted once every die is rolled."""
        faces = [r + 1 for r in rolls] + [-1] * (self.total - len(rolls))
        hands = [faces[p * self.dice : (p + 1) * self.dice] for p in range(self.num_players)]
        if len(rolls) == self.total:
            hands = [sorted(h) for h in hands]
        return hands

    def _calls(self, calls: tuple[int, ...]) -> str:
        return "".join(f" {self.action_string(a)}" for a in calls)

    def info_string(self, player: int, rolls: tuple[int, ...], calls: tuple[int, ...]) -> str:
        """``player``'s information-state string: its dice, then every call."""
        return "".join(map(str, self.hands(rolls)[player])) + self._calls(calls)

    def to_string(self, rolls: tuple[int, ...], calls: tuple[int, ...]) -> str:
        """The state as ``liars_dice`` prints it."""
        text = " ".join("".join(map(str, h)) for h in self.hands(rolls))
        if len(rolls) < self.total:
            return f"{text} - chance node, current roller is player {len(rolls) // self.dice}"
        return text + self._calls(calls)

    def tensor(
        self, player: int, rolls: tuple[int, ...], calls: tuple[int, ...], *, last: int = 0
    ) -> list[float]:
        """``player``'s information-state tensor (``last``: only the last ``last`` calls,
        the observation tensor): the seat one-hot, a one-hot per die, a bit per call."""
        out = [0.0] * self.info_size
        out[player] = 1.0
        for d, face in enumerate(self.hands(rolls)[player]):
            if face > 0:
                out[self.num_players + d * self.faces + face - 1] = 1.0
        base = self.num_players + self.dice * self.faces
        for a in calls[-last:] if last else calls:
            out[base + a] = 1.0
        return out
