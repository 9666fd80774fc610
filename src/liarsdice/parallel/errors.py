"""What :mod:`liarsdice.parallel` and its Ray module both raise and say when Ray is missing
(below both, so that neither imports the other for it)."""

from __future__ import annotations

RAY_HINT = "pip install 'liarsdice[ray]'"


class RayUnavailableError(RuntimeError):
    """``--ray`` was asked for and Ray is not installed (or cannot be reached)."""
