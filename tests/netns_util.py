"""A small network of Linux network namespaces for fault tests (not a test module): one bridge,
one namespace per host with one address on it, and the test process (the clients) on the
bridge's own address in the root namespace. Links are cut, one way or both, and made lossy
with iptables rules inside the hosts' namespaces (the root namespace's rules are never
touched), as Jepsen's harness does with real machines.

Needs root, ``ip`` (iproute2) and ``iptables`` (Debian's package, installed when missing).
``LIARSDICE_SKIP_NETNS=1`` skips the tests that need it; where namespaces cannot be made
(a container without the capability) they are skipped, saying why.

    with Network(["pg", "redis", "n0"]) as net:
        net.run("pg", ["postgres", ...])      # a process inside pg's namespace
        net.cut("n0", "redis")                # n0 <-/-> redis, both ways
        net.cut("n0", CLIENTS, one_way=True)  # n0 can't send to the clients; they still reach it
        net.lossy("n0", "redis", 0.05)        # 5% of packets each way dropped
        net.heal()                            # every link whole again
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterable, Sequence
from types import TracebackType

import pytest

from apt_util import ensure_installed

SKIP_FLAG = "LIARSDICE_SKIP_NETNS"
SKIP = os.environ.get(SKIP_FLAG) == "1"
CLIENTS = "clients"  # the root namespace: the test process, on the bridge's address


def _sh(cmd: Sequence[str], check: bool = True) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(list(cmd), capture_output=True, text=True, timeout=30, check=False)
    if check and done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({done.returncode}): {done.stderr.strip()}")
    return done


def unavailable() -> str | None:
    """Why network namespaces cannot be made here (None: they can)."""
    if SKIP:
        return f"{SKIP_FLAG}=1"
    if os.geteuid() != 0:
        return "network namespaces need root"
    if shutil.which("ip") is None:
        return "no `ip` command (iproute2)"
    probe = f"ldprobe{os.getpid() % 100000}"
    made = _sh(["ip", "netns", "add", probe], check=False)
    if made.returncode != 0:
        return f"`ip netns add` failed: {made.stderr.strip()}"
    _sh(["ip", "netns", "del", probe], check=False)
    return None


def require() -> None:
    """Skip the calling test when namespaces cannot be made; install iptables when missing."""
    why = unavailable()
    if why is not None:
        pytest.skip(why)
    ensure_installed("iptables", SKIP_FLAG, lambda: shutil.which("iptables"), "iptables")


class Network:
    """The bridge and the hosts' namespaces (see the module docstring); removed on exit."""

    def __init__(self, hosts: Iterable[str], subnet: int | None = None) -> None:
        self.hosts = list(hosts)
        tag = os.getpid() % 10000
        self.subnet = subnet if subnet is not None else 16 + os.getpid() % 200
        self.bridge = f"ld{tag}br"
        self.names = {host: f"ld{tag}-{host}" for host in self.hosts}
        self.addresses = {CLIENTS: f"10.{self.subnet}.0.1"}
        for i, host in enumerate(self.hosts):
            self.addresses[host] = f"10.{self.subnet}.0.{i + 2}"
        self._made: list[list[str]] = []  # commands that undo what was made, last first

    # ----------------------------------------------------------------------- making it
    def __enter__(self) -> Network:
        try:
            self._make()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(
        self, kind: type[BaseException] | None, err: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def _make(self) -> None:
        _sh(["ip", "link", "add", self.bridge, "type", "bridge"])
        self._made.append(["ip", "link", "del", self.bridge])
        _sh(["ip", "addr", "add", f"{self.addresses[CLIENTS]}/24", "dev", self.bridge])
        _sh(["ip", "link", "set", self.bridge, "up"])
        for i, host in enumerate(self.hosts):
            ns, outside, inside = self.names[host], f"{self.bridge}v{i}", f"{self.bridge}p{i}"
            _sh(["ip", "netns", "add", ns])
            self._made.append(["ip", "netns", "del", ns])
            _sh(["ip", "link", "add", outside, "type", "veth", "peer", "name", inside])
            _sh(["ip", "link", "set", inside, "netns", ns])
            _sh(["ip", "link", "set", outside, "master", self.bridge])
            _sh(["ip", "link", "set", outside, "up"])
            _sh(["ip", "-n", ns, "addr", "add", f"{self.addresses[host]}/24", "dev", inside])
            _sh(["ip", "-n", ns, "link", "set", inside, "up"])
            _sh(["ip", "-n", ns, "link", "set", "lo", "up"])

    def close(self) -> None:
        """Remove the namespaces and the bridge (their processes should be stopped first)."""
        while self._made:
            _sh(self._made.pop(), check=False)

    # ----------------------------------------------------------------------- using it
    def ip(self, host: str) -> str:
        """The host's address (:data:`CLIENTS`: the bridge's, where the test process is)."""
        return self.addresses[host]

    def command(self, host: str, cmd: Sequence[str]) -> list[str]:
        """``cmd`` to run inside ``host``'s namespace."""
        return ["ip", "netns", "exec", self.names[host], *cmd]

    def _rule(self, host: str, *rule: str) -> None:
        _sh(self.command(host, ["iptables", "-w", *rule]))

    def _drop(self, a: str, b: str, extra: Sequence[str] = ()) -> None:
        """Drop what ``a`` sends to ``b`` (a rule in ``a``'s namespace, or in ``b``'s for
        the clients, whose namespace is the root's)."""
        if a != CLIENTS:
            self._rule(a, "-A", "OUTPUT", "-d", self.ip(b), *extra, "-j", "DROP")
        else:
            self._rule(b, "-A", "INPUT", "-s", self.ip(a), *extra, "-j", "DROP")

    def cut(self, a: str, b: str, *, one_way: bool = False) -> None:
        """Cut the link between ``a`` and ``b``: both ways, or only what ``a`` sends to
        ``b`` (``one_way``). Packets are dropped (no reset): connections hang, as in a real
        partition, until the link heals or their own timeouts end them."""
        self._drop(a, b)
        if not one_way:
            self._drop(b, a)

    def isolate(self, host: str) -> None:
        """Cut ``host`` from every other host (the clients stay linked)."""
        for other in self.hosts:
            if other != host:
                self.cut(host, other)

    def lossy(self, a: str, b: str, loss: float, *, one_way: bool = False) -> None:
        """Drop each packet between ``a`` and ``b`` with probability ``loss`` (iptables'
        ``statistic`` match): both ways, or only what ``a`` sends to ``b``."""
        extra = ["-m", "statistic", "--mode", "random", "--probability", f"{loss:.4f}"]
        self._drop(a, b, extra)
        if not one_way:
            self._drop(b, a, extra)

    def heal(self) -> None:
        """Every link whole again (every host's rules flushed)."""
        for host in self.hosts:
            self._rule(host, "-F")
