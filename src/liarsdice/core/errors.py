"""Typed errors. Every error subclasses :class:`ValueError` so callers can catch broadly."""

from __future__ import annotations


class LiarsDiceError(ValueError):
    """Base class of every error raised by liarsdice."""


class RulesError(LiarsDiceError):
    """A rule option or preset is invalid (unknown name, value out of range...)."""


class IllegalActionError(LiarsDiceError):
    """An action is not legal in the current state; the message says why."""


class NotationError(LiarsDiceError):
    """A bid or call could not be parsed."""


class RecordError(LiarsDiceError):
    """A game record is malformed or does not replay.

    ``round`` and ``move`` locate the problem (0-based); ``move`` is ``None`` when the round
    itself is wrong (dice count, face out of range, ...).
    """

    def __init__(self, message: str, *, round: int | None = None, move: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.round = round
        self.move = move


__all__ = ["IllegalActionError", "LiarsDiceError", "NotationError", "RecordError", "RulesError"]
