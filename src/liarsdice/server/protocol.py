"""The wire protocol: a versioned envelope and strict pydantic models (``docs/PROTOCOL.md``).

Every WebSocket frame, both ways, is a JSON object ``{"type": ..., "version": 1, "data": {...}}``.
Client messages are validated strictly: unknown fields, wrong types and out-of-range values are
errors with a clear message (never a crash, never a silent default). The size and nesting limits
are the server's (``Limits.max_frame``, ``Limits.max_depth``): they are passed in.

>>> parse_client('{"type": "chat", "version": 1, "data": {"text": "hi"}}', 4096, 16)
('chat', ChatMsg(text='hi', id=None))
>>> parse_client('{"type": "chat", "version": 2, "data": {"text": "hi"}}', 4096, 16)
Traceback (most recent call last):
...
liarsdice.server.protocol.ProtocolError: unsupported_version: protocol version 2 ...
"""

from __future__ import annotations

import json
import unicodedata
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError

from liarsdice.server.fair import check_client_seed

PROTOCOL_VERSION = 1
MAX_CHAT = 200
MAX_NAME = 24
_OPENERS = frozenset(b"[{")


class ProtocolError(Exception):
    """A client message that cannot be accepted; ``code`` is one of the documented codes."""

    def __init__(
        self,
        code: str,
        message: str,
        reply_to: str | None = None,
        details: list[dict[str, Any]] | None = None,
    ) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.reply_to = reply_to
        self.details = details


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class Envelope(_Strict):
    """The outer frame of every message."""

    type: str = Field(min_length=1, max_length=32)
    version: int
    data: dict[str, Any] = Field(default_factory=dict)


def _name(value: str) -> str:
    value = " ".join(unicodedata.normalize("NFKC", value).split())
    if not value:
        raise ValueError("the name is empty")
    if any(not (c.isprintable()) for c in value):
        raise ValueError("the name has unprintable characters")
    if len(value) > MAX_NAME:
        raise ValueError(f"the name is longer than {MAX_NAME} characters")
    return value


ClientSeed = Annotated[str, AfterValidator(check_client_seed)]
Name = Annotated[str, Field(min_length=1, max_length=MAX_NAME), AfterValidator(_name)]


# ------------------------------------------------------------------ client -> server (WS)
class HelloMsg(_Strict):
    """First message on a WebSocket: a seat token (a player) or none (a spectator)."""

    token: str | None = Field(default=None, max_length=128)
    last_seq: int | None = Field(default=None, ge=0)
    client_seed: ClientSeed | None = None
    id: str | None = Field(default=None, max_length=64)


class ActionMsg(_Strict):
    """A move: ``action`` (engine integer) or ``text`` (notation: ``3x5``, ``liar``, ...)."""

    action: int | None = Field(default=None, ge=0)
    text: str | None = Field(default=None, min_length=1, max_length=64)
    room: str | None = Field(default=None, max_length=64)
    seq: int | None = Field(default=None, ge=0)
    id: str | None = Field(default=None, max_length=64)


class ChatMsg(_Strict):
    """Table talk (rules source 002): at most :data:`MAX_CHAT` characters, HTML-escaped on the way
    out."""

    text: str = Field(min_length=1, max_length=MAX_CHAT)
    id: str | None = Field(default=None, max_length=64)


class AddBotMsg(_Strict):
    """Host only, in the lobby: seat a bot of a level (``random``, ``prob``, ...)."""

    level: str = Field(default="prob", min_length=1, max_length=16)
    id: str | None = Field(default=None, max_length=64)


class SettingsMsg(_Strict):
    """Host only, in the lobby: the turn timer in seconds (null: no timer)."""

    turn_timer: float | None = Field(default=None, ge=5, le=3600)
    id: str | None = Field(default=None, max_length=64)


class EmptyMsg(_Strict):
    """``start``, ``rematch``, ``ping``, ``back``, ``continue``, ``leave``: no fields but an
    optional ``id``."""

    id: str | None = Field(default=None, max_length=64)


class StartMsg(EmptyMsg):
    """Host only: start the first game."""


class RematchMsg(EmptyMsg):
    """Host only: start the next game once one is over."""


class PingMsg(EmptyMsg):
    """Answered with ``pong``."""


class BackMsg(EmptyMsg):
    """The player is back at the table (clears ``away``)."""


class ContinueMsg(EmptyMsg):
    """Done looking at the reveal after a call: the next round may start (once every player
    the reveal waits for has said so, or its time has run out)."""


class WaitMsg(EmptyMsg):
    """Hold the reveal after a call (once per player and reveal): the next round waits until
    every player said ``continue``, at most 15 s from now."""


class LeaveMsg(EmptyMsg):
    """Leave the room (during a game, a bot plays the seat to its end)."""


class SeatMsg(_Strict):
    """A message about one seat (host only)."""

    seat: int = Field(ge=0, le=64)
    id: str | None = Field(default=None, max_length=64)


class RemoveSeatMsg(SeatMsg):
    """Host only: remove a bot or another player."""


class MakeHostMsg(SeatMsg):
    """Host only: hand the host role to a player."""


class BanMsg(SeatMsg):
    """Host only: remove a player and refuse their name in this room from now on."""


class LockMsg(_Strict):
    """Host only: lock the room (nobody new takes a seat) or unlock it."""

    locked: bool = True
    id: str | None = Field(default=None, max_length=64)


class ClientSeedMsg(_Strict):
    """Change this seat's client seed (used from the next round on)."""

    seed: ClientSeed
    id: str | None = Field(default=None, max_length=64)


class ResyncMsg(_Strict):
    """Ask for everything after ``last_seq`` (missing events, or a fresh snapshot)."""

    last_seq: int = Field(ge=0)
    id: str | None = Field(default=None, max_length=64)


CLIENT_MESSAGES: dict[str, type[_Strict]] = {
    "hello": HelloMsg,
    "action": ActionMsg,
    "chat": ChatMsg,
    "add_bot": AddBotMsg,
    "settings": SettingsMsg,
    "start": StartMsg,
    "rematch": RematchMsg,
    "back": BackMsg,
    "continue": ContinueMsg,
    "wait": WaitMsg,
    "ping": PingMsg,
    "leave": LeaveMsg,
    "remove_seat": RemoveSeatMsg,
    "make_host": MakeHostMsg,
    "ban": BanMsg,
    "lock": LockMsg,
    "client_seed": ClientSeedMsg,
    "resync": ResyncMsg,
}


# ------------------------------------------------------------------------- HTTP bodies
class CreateRoomBody(_Strict):
    """``POST /api/rooms``: the creator joins as seat 0 and becomes the host."""

    preset: str = Field(default="classic", min_length=1, max_length=32)
    options: dict[str, str | int | bool | list[int] | None] = Field(default_factory=dict)
    name: Name
    client_seed: ClientSeed | None = None
    turn_timer: float | None = Field(default=None, ge=5, le=3600)
    private: bool = False  # by link only: not in the public room list
    tutorial: bool = False  # "Play your first game": the room's games are not rated
    player_token: str | None = Field(default=None, max_length=128)  # a guest identity


class JoinBody(_Strict):
    """``POST /api/rooms/{room}/join``: take the next free seat."""

    name: Name
    client_seed: ClientSeed | None = None
    player_token: str | None = Field(default=None, max_length=128)  # a guest identity


class PlayerBody(_Strict):
    """``POST /api/players`` (a new guest identity) and ``POST /api/players/me`` (rename)."""

    name: Name


def _describe(err: ValidationError) -> str:
    parts = []
    for e in err.errors():
        where = ".".join(str(x) for x in e["loc"]) or "message"
        parts.append(f"{where}: {e['msg']}")
    return "; ".join(parts)


def validation_details(err: ValidationError) -> list[dict[str, Any]]:
    """What was wrong, for a client to say in its own words and language: per problem the
    ``field`` (the last name in its path, or null), the ``problem`` (pydantic's error type:
    ``greater_than_equal``, ``string_too_long``, ``missing``...) and the ``limit`` it broke
    (a number, or null).

    >>> try:
    ...     SettingsMsg.model_validate({"turn_timer": 3})
    ... except ValidationError as err:
    ...     validation_details(err)
    [{'field': 'turn_timer', 'problem': 'greater_than_equal', 'limit': 5}]
    """
    out = []
    for e in err.errors():
        names = [x for x in e["loc"] if isinstance(x, str)]
        ctx = e.get("ctx") or {}
        limits = [v for v in ctx.values() if isinstance(v, int | float) and not isinstance(v, bool)]
        limit = limits[0] if limits else None
        if isinstance(limit, float) and limit.is_integer():
            limit = int(limit)  # "at least 5", not "5.0"
        out.append({"field": names[-1] if names else None, "problem": e["type"], "limit": limit})
    return out


def check_depth(text: str | bytes, max_depth: int) -> None:
    """Refuse (``malformed``) JSON nested deeper than ``max_depth`` arrays and objects, before
    it is parsed: a cheap scan that skips strings.

    >>> check_depth('{"a": [[1], "[[[["]}', 3)
    >>> check_depth("[" * 2000 + "]" * 2000, 16)
    Traceback (most recent call last):
    ...
    liarsdice.server.protocol.ProtocolError: malformed: JSON nested deeper than 16 levels
    """
    data = text.encode("utf-8", "replace") if isinstance(text, str) else text
    if data.count(b"[") + data.count(b"{") <= max_depth:
        return  # the common case: too few brackets to be too deep
    depth, in_str, escaped = 0, False, False
    for byte in data:
        if in_str:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_str = False
        elif byte == 0x22:
            in_str = True
        elif byte in _OPENERS:
            depth += 1
            if depth > max_depth:
                raise ProtocolError("malformed", f"JSON nested deeper than {max_depth} levels")
        elif byte in (0x5D, 0x7D):  # ] }
            depth -= 1


def parse_envelope(text: str | bytes, max_bytes: int, max_depth: int) -> Envelope:
    """Parse and check the envelope of a raw frame (ProtocolError when it is wrong): at most
    ``max_bytes`` bytes (UTF-8) and ``max_depth`` nested arrays and objects."""
    size = len(text) if isinstance(text, bytes) else len(text.encode("utf-8", "replace"))
    if size > max_bytes:
        raise ProtocolError("too_big", f"frames are limited to {max_bytes} bytes")
    check_depth(text, max_depth)
    try:
        raw = json.loads(text)
    except (ValueError, UnicodeDecodeError):
        raise ProtocolError("malformed", "the frame is not valid JSON") from None
    if not isinstance(raw, dict):
        raise ProtocolError("malformed", "a frame is a JSON object {type, version, data}")
    if "version" in raw and raw["version"] != PROTOCOL_VERSION and isinstance(raw["version"], int):
        raise ProtocolError(
            "unsupported_version",
            f"protocol version {raw['version']} is not supported "
            f"(this server speaks {PROTOCOL_VERSION})",
        )
    try:
        return Envelope.model_validate(raw)
    except ValidationError as err:
        raise ProtocolError("invalid", _describe(err), None, validation_details(err)) from None


def parse_client(text: str | bytes, max_bytes: int, max_depth: int) -> tuple[str, Any]:
    """Parse a client frame into ``(type, model)``; ProtocolError says what is wrong."""
    env = parse_envelope(text, max_bytes, max_depth)
    ref = env.data.get("id")
    reply_to = ref if isinstance(ref, str) and len(ref) <= 64 else None
    model = CLIENT_MESSAGES.get(env.type)
    if model is None:
        raise ProtocolError(
            "unknown_type",
            f"unknown message type {env.type!r}; types: {', '.join(CLIENT_MESSAGES)}",
            reply_to,
        )
    try:
        return env.type, model.model_validate(env.data)
    except ValidationError as err:
        details = validation_details(err)
        raise ProtocolError("invalid", f"{env.type}: {_describe(err)}", reply_to, details) from None


def envelope(type_: str, data: dict[str, Any]) -> dict[str, Any]:
    """An outgoing frame (build it only in :mod:`liarsdice.server.views`)."""
    return {"type": type_, "version": PROTOCOL_VERSION, "data": data}


ServerType = Literal["welcome", "snapshot", "update", "error", "pong"]

__all__ = [
    "CLIENT_MESSAGES",
    "MAX_CHAT",
    "PROTOCOL_VERSION",
    "ActionMsg",
    "AddBotMsg",
    "BackMsg",
    "BanMsg",
    "ChatMsg",
    "ClientSeedMsg",
    "ContinueMsg",
    "CreateRoomBody",
    "EmptyMsg",
    "Envelope",
    "HelloMsg",
    "JoinBody",
    "LeaveMsg",
    "LockMsg",
    "MakeHostMsg",
    "PingMsg",
    "ProtocolError",
    "RematchMsg",
    "RemoveSeatMsg",
    "ResyncMsg",
    "ServerType",
    "SettingsMsg",
    "StartMsg",
    "WaitMsg",
    "check_depth",
    "envelope",
    "parse_client",
    "parse_envelope",
    "validation_details",
]
