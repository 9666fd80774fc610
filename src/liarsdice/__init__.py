"""liarsdice: Liar's Dice in all its rule families."""

from liarsdice.core.bidding import Bid, Game, Rules, State, preset

__version__ = "0.1.0"
__all__ = ["Bid", "Game", "Rules", "State", "__version__", "preset"]
