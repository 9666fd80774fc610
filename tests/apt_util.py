"""What the tests' real servers need of the machine (not a test module): a Debian package
(the browser tests' chromium, the store tests' PostgreSQL, the cluster tests' Redis), installed
as root or with ``sudo -n`` (a failure fails the test, naming the package and the flag that
skips the tests instead), and a free port on 127.0.0.1."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
from collections.abc import Callable
from typing import TypeVar

import pytest

T = TypeVar("T")

APT_TIMEOUT = 1800  # seconds: apt-get update and the download


def apt_install(package: str, skip_flag: str) -> None:
    """``apt-get install -y package``, or fail the calling test saying what to do."""
    script = (
        f"export DEBIAN_FRONTEND=noninteractive; apt-get update && apt-get install -y {package}"
    )
    if os.geteuid() == 0:
        cmd = ["sh", "-c", script]
    elif shutil.which("sudo"):
        cmd = ["sudo", "-n", "sh", "-c", script]
    else:
        pytest.fail(
            f"{package} is missing and this user can't install it (not root, no sudo): "
            f"run `apt-get install {package}` as root, or set {skip_flag}=1"
        )
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=APT_TIMEOUT, check=False)
    except (OSError, subprocess.TimeoutExpired) as err:
        pytest.fail(f"installing {package} with apt failed: {err}")
    if done.returncode != 0:
        tail = (done.stdout + done.stderr)[-2000:]
        pytest.fail(
            f"installing {package} with apt failed (exit status {done.returncode}); "
            f"set {skip_flag}=1 to skip these tests. Output:\n{tail}"
        )


def ensure_installed(package: str, skip_flag: str, find: Callable[[], T | None], what: str) -> T:
    """What ``find()`` finds (a program, a folder), installing ``package`` first when it finds
    nothing; fails the test when the package did not bring it (``what``: what it should have
    installed)."""
    found = find()
    if found is not None:
        return found
    apt_install(package, skip_flag)
    found = find()
    if found is None:
        pytest.fail(f"the {package} package installed no {what}")
    return found


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])
