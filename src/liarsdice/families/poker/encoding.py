"""Observation tensors and strings of the poker-dice family, for the OpenSpiel and PettingZoo
bindings. Actions need no renumbering: the engine's action integers (0..3461) are the indices.

One ``float32`` vector per (state, viewer), from the viewer's own view only
(:class:`~liarsdice.core.poker.view.PokerView`). Seats are relative to the viewer (position
``k`` is seat ``(viewer + k) % players``). Blocks, in order (:attr:`PokerEncoding.slices`):

=================  ========  ===========================================================
block              size      content
=================  ========  ===========================================================
``seat``           P         one-hot of the viewer's absolute seat
``to_move``        P         one-hot of the seat to act (relative); zero at chance and end
``phase``          10        one-hot of the phase (roll, bid, pass, respond, ...)
``lives``          P         lives per seat (relative)
``direction``      2         the cup goes left (up the seats) / right; zero before the pass
``holder``         P         who last looked under the cup (relative)
``opener``         P         Player One of the round (relative)
``cup``            6         the dice under the cup per face, while the viewer looks under it
``cup_count``      1         how many dice are under the cup
``outside``        6         the dice outside the cup per face
``passed``         7         the cup as the viewer last passed it on (per face), then 1 if so
``known``          6         the dice the viewer knows are under the cup (per face)
``known_by``       P         the seats that know every die under the cup (relative)
``bid``            462       one-hot of the current bid
``bidder``         P         the current bid's bidder (relative)
``attempts``       1         rolls made so far in a five-of-a-kind challenge
=================  ========  ===========================================================

The information-state tensor appends ``history`` (P*462): 1 at (relative seat, bid) for each
bid of the current round.

>>> from liarsdice.core.poker.game import PokerGame
>>> game = PokerGame(players=2)
>>> enc = PokerEncoding(game)
>>> enc.size, enc.info_size
(515, 1439)
>>> s = game.replay([(-1, f) for f in (6, 6, 5, 3, 1)])
>>> enc.observation(s, 0)[enc.slices["cup"]].tolist()     # seat 0 looks under the cup
[1.0, 0.0, 1.0, 0.0, 1.0, 2.0]
>>> enc.observation(s, 1)[enc.slices["cup"]].tolist()
[0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
>>> enc.observation_string(s, 0)
'p0 round 0 bid opener 0 to_move 0 lives 3,3 holder 0 cup 9 J K A A under 5 out -'
"""

from __future__ import annotations

from typing import Any

from liarsdice.core.poker.actions import KEEP_BASE, NUM_MULTISETS
from liarsdice.core.poker.hands import BID_IDS, NUM_BIDS, format_face, format_poker_bid
from liarsdice.core.poker.state import Phase
from liarsdice.families.tensors import Encoding, Floats32

__all__ = ["PokerEncoding"]

_PHASES = tuple(p.name.lower() for p in Phase)


def _faces(dice: tuple[int, ...]) -> str:
    return " ".join(format_face(d) for d in dice) if dice else "-"


class PokerEncoding(Encoding):
    """The observation layout of one poker-dice game (see the module docstring)."""

    def __init__(self, game: Any) -> None:
        self.game = game
        self.players: int = game.num_players
        P = self.players
        self.num_bids = NUM_BIDS
        self.num_actions = KEEP_BASE + NUM_MULTISETS
        blocks = [
            ("seat", P),
            ("to_move", P),
            ("phase", len(_PHASES)),
            ("lives", P),
            ("direction", 2),
            ("holder", P),
            ("opener", P),
            ("cup", 6),
            ("cup_count", 1),
            ("outside", 6),
            ("passed", 7),
            ("known", 6),
            ("known_by", P),
            ("bid", NUM_BIDS),
            ("bidder", P),
            ("attempts", 1),
        ]
        self._lay_out(blocks, P * NUM_BIDS)

    def _fill(self, out: Floats32, state: Any, player: int, *, history: bool) -> None:
        P = self.players
        sl = self.slices
        v = state.view(player)

        def rel(seat: int) -> int:
            return (seat - player) % P

        def at(name: str, offset: int, value: float = 1.0) -> None:
            out[sl[name].start + offset] = value

        def count(name: str, dice: tuple[int, ...]) -> None:
            for f in dice:
                out[sl[name].start + f - 1] += 1.0

        at("seat", player)
        if v.to_move >= 0:
            at("to_move", rel(v.to_move))
        at("phase", _PHASES.index(v.phase))
        for seat, lives in enumerate(v.lives):
            at("lives", rel(seat), lives)
        if v.direction:
            at("direction", 0 if v.direction > 0 else 1)
        if v.holder >= 0:
            at("holder", rel(v.holder))
        at("opener", rel(v.opener))
        count("cup", v.cup)
        at("cup_count", 0, v.cup_count)
        count("outside", v.outside)
        if v.passed_cup is not None:
            count("passed", v.passed_cup)
            at("passed", 6)
        count("known", v.known_cup)
        for seat in v.cup_known_by:
            at("known_by", rel(seat))
        if v.current_bid is not None:
            at("bid", BID_IDS[v.current_bid])
            at("bidder", rel(v.bidder))
        at("attempts", 0, len(v.five_attempts))
        if history:
            for seat, bid in v.bids:
                at("history", rel(seat) * NUM_BIDS + BID_IDS[bid])

    def observation_string(self, state: Any, player: int) -> str:
        """What ``player`` sees now, as one line."""
        v = state.view(player)
        parts = [
            f"p{player}",
            f"round {v.round}",
            v.phase,
            f"opener {v.opener}",
            f"to_move {v.to_move}",
            "lives " + ",".join(map(str, v.lives)),
        ]
        if v.direction:
            parts.append("left" if v.direction > 0 else "right")
        parts.append(f"holder {v.holder}")
        if v.cup:
            parts.append(f"cup {_faces(v.cup)}")
        parts += [f"under {v.cup_count}", f"out {_faces(v.outside)}"]
        if v.passed_cup is not None:
            parts.append(f"passed {_faces(v.passed_cup)}")
        if v.known_cup and v.known_cup != v.cup:
            parts.append(f"known {_faces(v.known_cup)}")
        if v.current_bid is not None:
            parts.append(f"bid {format_poker_bid(v.current_bid)} by {v.bidder}")
        if v.five_attempts:
            parts.append("attempts " + "/".join(_faces(a) for a in v.five_attempts))
        if v.results:
            last = v.results[-1]
            parts.append(f"revealed {_faces(last.hand)} loser {last.loser}")
        return " ".join(parts)
