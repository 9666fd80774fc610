"""Names that ``vulture`` takes for dead code but that are used from outside ``src/``.

``vulture src vulture_whitelist.py --min-confidence 60`` (``make test``) must report nothing:
remove dead code, or list a name kept on purpose here with a comment saying who uses it.
Vulture matches names, not owners: ``GameResult.outcome`` marks every ``outcome`` used. This file
is only parsed (by vulture, ruff and mypy), never run.
"""

from importlib import import_module

from babel.messages.catalog import Catalog as BabelCatalog
from uvicorn.config import Config as UvicornConfig

from liarsdice.arena import GameResult
from liarsdice.bots.table import BotTable
from liarsdice.cli.command import Command, Context, PresetChoice
from liarsdice.core.bidding.game import Game as BiddingGame
from liarsdice.core.bidding.ladder import BidSpace
from liarsdice.core.bidding.state import State as BiddingState
from liarsdice.core.bidding.state import _single_round_table
from liarsdice.core.options import OptionCodec
from liarsdice.core.poker.state import PokerState
from liarsdice.i18n.build import _PageText
from liarsdice.interop.openspiel import (
    LiarsDiceCompatGame,
    LiarsDiceCompatState,
    LiarsDiceGame,
    LiarsDiceState,
    Observer,
)
from liarsdice.interop.pettingzoo import LiarsDiceAEC, LiarsDiceGymEnv
from liarsdice.jax.bidding import JaxBiddingEnv
from liarsdice.server.http.analysis import get_analysis
from liarsdice.server.http.health import ready
from liarsdice.server.http.players import create_player, get_player, rename_player
from liarsdice.server.http.rooms import get_record, get_room, join_room, list_rooms
from liarsdice.server.http.rules import every_preset, one_preset
from liarsdice.server.http.static import index, static_file
from liarsdice.server.metrics import Metrics
from liarsdice.server.protocol import Envelope
from liarsdice.server.room.state import RoomState
from liarsdice.server.store import Store
from liarsdice.server.transport import BoundedWsProtocol
from liarsdice.server.ws import ws_room
from liarsdice.sim.bidding import VectorEnv
from liarsdice.solve.cfr import CFRSolver
from liarsdice.solve.policy import Policy
from liarsdice.solve.tree import PublicTree

# FastAPI routes: called by the framework through their decorators.
create_player, get_player, rename_player
get_analysis
get_record, get_room, join_room, list_rooms
every_preset, one_preset
index, static_file
ready
ws_room

# The metrics the cluster code (issue 23: src/liarsdice/server/cluster/) observes and counts.
Metrics.redis_call
Metrics.takeovers

# Alembic reads these from every revision module (server/migrations/versions/).
migration = import_module("liarsdice.server.migrations.versions.0001_initial")
migration.revision, migration.down_revision, migration.downgrade

# click's Choice calls it for a value that is not one of its choices (--rules).
PresetChoice.get_invalid_choice_message

# click reads these from our commands: their context's class, its help formatter, the help text.
Command.context_class, Context.formatter_class, Command.format_help_text

# html.parser.HTMLParser calls these (i18n/build.py reads index.html's text for the catalogue).
_PageText.handle_starttag
_PageText.handle_endtag

# pydantic reads a model's configuration.
Envelope.model_config

# uvicorn's WebSocketsSansIOProtocol: the method it dispatches to, and the timer it cancels.
BoundedWsProtocol.handle_events
BoundedWsProtocol.close_timer

# OpenSpiel's Python game API (pyspiel calls these).
LiarsDiceGame.make_py_observer
LiarsDiceState._legal_actions
LiarsDiceState._apply_action
LiarsDiceState._action_to_string
LiarsDiceState.information_state_string  # pyspiel's own call, answered in Python
LiarsDiceCompatGame.max_chance_nodes_in_history
LiarsDiceCompatState.legal_actions_mask  # pyspiel's own call, answered in Python
# pyspiel's State calls, answered from the state's node (moves made in Python skip C++)
LiarsDiceState.undo_action
LiarsDiceState.full_history
LiarsDiceState.is_simultaneous_node
LiarsDiceState.is_player_node
LiarsDiceState.move_number
LiarsDiceState.is_initial_state
Observer.set_from
Observer.string_from

# PettingZoo's AEC API and Gymnasium's Env API.
LiarsDiceAEC.observation_space
LiarsDiceAEC.action_space
LiarsDiceAEC.observe
LiarsDiceAEC.render
LiarsDiceGymEnv.observation_space
LiarsDiceGymEnv.action_space
LiarsDiceGymEnv.render

# Public API: called by users, the tests, the benchmarks and the docs' examples.
GameResult.outcome  # tests/test_arena.py: results equal whatever the scheduling
BidSpace.id_of  # tests/test_core_ladder.py, the module's doctest
BidSpace.beats  # tests/test_core_ladder.py
OptionCodec.of  # core/options.py's doctest
BotTable.plus  # tests/test_arena.py (a family's bots with extra panel bots)
OptionCodec.read_json  # the families' and the records' option readers (main, since 3eed368)
PokerState.rolling_under_cup  # tests/test_poker_core.py, docs/POKER.md
LiarsDiceGame.engine_game  # tests/test_openspiel.py
RoomState.facts  # tests/server_util.py, tests/test_server_room.py (a room value's content)
VectorEnv.action_mask  # tests/test_sim.py, docs/RESEARCH.md

VectorEnv.sample_actions  # tests/test_sim.py, bench/sim.py, docs/RESEARCH.md
VectorEnv.take_chance_log  # tests/test_sim.py, docs/RESEARCH.md
JaxBiddingEnv.sample_action  # tests/jax/, docs/RESEARCH.md
CFRSolver.current_plan  # tests/test_solve.py
Policy.from_plans  # tests/test_solve_lean.py
PublicTree.from_layout  # tests/test_solve_lean.py
PublicTree.action_string  # tests/test_poker_core.py
Store.take_lease  # tests/server/test_server_fence.py (the room actor's lease wiring: issue 23)
Store.lease_epoch  # tests/server/test_server_fence.py, operators (a room's fence)
UvicornConfig.timeout_graceful_shutdown  # read by uvicorn's Server.shutdown (a drained node)
BabelCatalog.header_comment  # read by babel's write_po (liarsdice.i18n.build)
BabelCatalog.creation_date  # read by babel's write_po: the headers' fixed date (no churn)
BabelCatalog.revision_date  # read by babel's write_po

# The core's OpenSpiel-named tensors (docs/RESEARCH.md "The engine API"): called by learners
# and bench/engine.py's RL loop, checked by tests/core/test_core_tensors.py.
BiddingState.information_state_tensor
BiddingState.observation_tensor
BiddingGame.observation_tensor_shape
BiddingGame.information_state_tensor_shape
BiddingGame.observation_tensor_size
BiddingGame.information_state_tensor_size

# The reference builder of a single-round game's final table: tests/core/test_core_fast.py
# checks the short resolution against it.
_single_round_table
