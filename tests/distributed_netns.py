"""The network rule for the Ray tests: they run only inside a private network namespace
whose one interface is loopback, so that nothing they start can bind or send to any
other address. CI runs them that way (.ci/run), as root:

    unshare -n sh -c 'ip link set lo up; pytest -q -p no:cacheprovider tests/test_distributed.py'

Anywhere else they skip, unless ENVPOOL_REQUIRE_NETNS is set (as CI sets it), when
they fail instead: CI must not pass with them skipped.
"""

from __future__ import annotations

import os
import socket

import pytest

NETNS_COMMAND = (
    "unshare -n sh -c 'ip link set lo up; pytest -q -p no:cacheprovider tests/test_distributed.py'"
)


def interfaces() -> list[str]:
    return [name for _, name in socket.if_nameindex()]


def only_loopback() -> bool:
    """True inside a network namespace whose only interface is 'lo' (and lo is up)."""
    if interfaces() != ["lo"]:
        return False
    # lo must be up, or Ray cannot even talk to itself.
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
            probe.bind(("127.0.0.1", 0))
            probe.listen(1)
            with socket.create_connection(probe.getsockname(), timeout=2):
                pass
    except OSError:
        return False
    return True


def require_only_loopback() -> None:
    """Skips the calling test unless the process is in a loopback-only namespace."""
    if not only_loopback():
        why = (
            "Ray tests run only in a network namespace with loopback alone "
            f"(interfaces here: {', '.join(interfaces())}); as root: {NETNS_COMMAND}"
        )
        if os.environ.get("ENVPOOL_REQUIRE_NETNS"):
            pytest.fail(why)
        pytest.skip(why)
