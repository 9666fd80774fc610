"""``liarsdice serve`` as a newcomer starts it: data in the per-user data directory (never the
working directory), and a busy port is one clear error before anything is announced."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from urllib.parse import urlparse

from e2e_util import get_json, live_server


def test_default_database_lives_in_the_user_data_directory(tmp_path: Path) -> None:
    work, data = tmp_path / "work", tmp_path / "data"
    work.mkdir()
    with live_server(tmp_path, db=False, env={"XDG_DATA_HOME": str(data)}, cwd=work) as base:
        assert get_json(base + "/api/health")["ok"]
    assert (data / "liarsdice" / "liarsdice.db").is_file()
    assert list(work.iterdir()) == []  # nothing written where the server was started
    assert "liarsdice.db" in (tmp_path / "server.log").read_text()


def test_busy_port_is_one_clear_error(tmp_path: Path) -> None:
    with live_server(tmp_path) as base:
        port = str(urlparse(base).port)
        cmd = [sys.executable, "-m", "liarsdice.cli.main", "serve", "--port", port]
        cmd += ["--db", f"sqlite+aiosqlite:///{tmp_path / 'second.db'}"]
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert out.returncode == 1
    assert f"Error: Port {port} on 127.0.0.1 is already in use" in out.stderr
    assert "serving on" not in out.stderr and "Errno" not in out.stderr
    assert "Traceback" not in out.stderr
