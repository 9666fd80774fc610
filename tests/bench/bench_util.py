"""Helpers for the bench smoke tests (not a test module)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

BENCH = Path(__file__).resolve().parents[2] / "bench"


def load_bench(name: str) -> ModuleType:
    """``bench/<name>.py`` imported as the module ``bench_<name>``."""
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def bench_json(name: str, *args: str) -> Any:
    """Run ``bench/<name>.py`` with ``args``; the one line it prints, a JSON value, read."""
    out = subprocess.run(
        [sys.executable, str(BENCH / f"{name}.py"), *args],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    lines = out.strip().splitlines()
    assert len(lines) == 1, out
    return json.loads(lines[0])
