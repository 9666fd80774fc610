"""Post-game analysis: every decision of a finished (or unfinished) game, judged.

:func:`analyse` takes a game record of any rule family (``docs/RECORD.md``) and returns the
versioned JSON object of ``docs/ANALYSIS.md``: for each move, the chance that the bid the
player faced was true as they could know it and with every die known, the expert bot's move
from the player's own view, the win chance the move gave away by the expert's estimate and a
mark on clear mistakes; and a summary per player. The command writes it for people
(``liarsdice analyse``). Deterministic: the bots are seeded and never timed.

Each family's analyser lives in the module named after it (``analysis/bidding.py``,
``analysis/poker.py``), found here by the record's family name.

>>> from liarsdice.analysis import analyse
>>> record = {"liarsdice": 1, "rules": "openspiel", "players": ["ann", "bob"],
...           "rounds": [{"dice": {"ann": [3], "bob": [5]},
...                       "moves": [{"player": "ann", "bid": "1x3"},
...                                 {"player": "bob", "bid": "2x3"},
...                                 {"player": "ann", "call": "liar"}]}]}
>>> a = analyse(record)
>>> [(m["played"], m["p_known"], m["p_actual"]) for m in a["moves"]]
[('1x3', None, None), ('2x3', 0.3333, 1.0), ('liar', 0.3333, 0.0)]
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from liarsdice.analysis.bidding import FAMILY as BIDDING
from liarsdice.analysis.bidding import analyse_bidding
from liarsdice.analysis.common import FORMAT, THRESHOLDS, VERSION
from liarsdice.analysis.poker import FAMILY as POKER
from liarsdice.analysis.poker import analyse_poker
from liarsdice.families import AnyRecord, LoadedRecord, RulesAPI, family_of_record, load_record

__all__ = ["FORMAT", "THRESHOLDS", "VERSION", "analyse"]

_ANALYSERS: dict[str, Callable[[Any, Collection[int]], dict[str, Any]]] = {
    BIDDING: analyse_bidding,
    POKER: analyse_poker,
}


def analyse(
    record: AnyRecord | LoadedRecord[RulesAPI], computer: Collection[int] = ()
) -> dict[str, Any]:
    """The analysis of a record of any family (JSON text, data or a loaded record); a
    :class:`~liarsdice.core.errors.RecordError` when it is not a legal record.

    ``computer``: the game's player actions (numbered from 0 in the order played, chance
    events aside) that the computer made for a person who was away, out of time or gone;
    their moves are marked ``computer`` and not counted in that person's summary. A record
    does not say so: the server knows it from its room's log."""
    loaded = record if isinstance(record, LoadedRecord) else load_record(record)
    family_of_record(loaded)  # the family that loaded it: known rules
    return _ANALYSERS[loaded.family](loaded, computer)
