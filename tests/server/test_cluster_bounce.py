"""Which messages a cluster's node sends back to their sender when it does not run their room
(found by the partition harness, tests/server/test_partitions.py: a node that let a room go
while cut off from Redis stayed subscribed to its channel, heard the messages meant for the
room's new owner and sent each back to be sent again: moves applied twice)."""

from __future__ import annotations

import pytest

pytest.importorskip("redis")

from liarsdice.server.cluster.node import bounces


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ({"op": "msg", "to": "n0", "raw": "{}"}, True),  # meant for us: we let the room go
        ({"op": "msg", "to": "n1", "raw": "{}"}, False),  # meant for the owner, who has it
        ({"op": "open", "to": "n0"}, True),
        ({"op": "open", "to": "n2"}, False),
        ({"op": "call", "id": "x", "node": "n1"}, True),  # a call names no addressee
        ({"op": "close", "conn": "c"}, False),
    ],
)
def test_only_a_message_meant_for_this_node_goes_back(
    message: dict[str, object], expected: bool
) -> None:
    assert bounces(message, "n0") is expected
