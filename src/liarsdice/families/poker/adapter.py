"""The poker-dice family's adapter for the research bindings (see
:mod:`liarsdice.families.adapter`)."""

from __future__ import annotations

from typing import Any

from liarsdice.families.adapter import Adapter
from liarsdice.families.poker.encoding import PokerEncoding
from liarsdice.families.tensors import Floats32

__all__ = ["PokerAdapter"]


class PokerAdapter(Adapter):
    """The poker-dice family (:class:`~liarsdice.families.poker.encoding.PokerEncoding`)."""

    encoding: PokerEncoding

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

    def observation_string(self, state: Any, player: int) -> str:
        return self.encoding.observation_string(state, player)
