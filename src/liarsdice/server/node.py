"""This node as ``/api/health`` shows it: its id, the rooms it owns and the cluster it sees.

The app holds one :class:`NodeView` (``app.state.server.node``). A single server is a
:class:`LocalNode`: it owns every room it has loaded, and its cluster is itself. A cluster of
nodes replaces it with a view of its own (same methods) once it knows its peers.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from liarsdice.server.room import RoomManager


class NodeView(Protocol):
    """What the operator endpoints ask of a node."""

    node_id: str

    def owned(self) -> list[str]:
        """The ids of the rooms this node has loaded and owns, sorted."""

    def cluster_view(self) -> dict[str, Any]:
        """``{"nodes": [{"node": id, "heartbeat": unix time}, ...]}``: the live nodes."""


class LocalNode:
    """A server alone: every loaded room is its own; its heartbeat is now."""

    def __init__(self, node_id: str, manager: RoomManager) -> None:
        self.node_id = node_id
        self.manager = manager

    def owned(self) -> list[str]:
        return sorted(self.manager.rooms)

    def cluster_view(self) -> dict[str, Any]:
        return {"nodes": [{"node": self.node_id, "heartbeat": round(time.time(), 3)}]}


__all__ = ["LocalNode", "NodeView"]
