"""Installing a Debian package a test needs (not a test module): the browser tests' chromium,
the store tests' PostgreSQL. As root, or with ``sudo -n``; a failure fails the test, naming the
package and the flag that skips the tests instead."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

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
