"""The results site served as on a server (scripts/hub-stack.sh, docs/hub-serving.md): PostgreSQL,
Redis, two app processes and nginx on this machine's loopback address, as a hall and the viewers
meet it. Needs no test database (so it runs once, in the SQLite run of ``make test``); ``make
test`` installs redis-server and nginx (``make hub-services``), the script PostgreSQL.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def version_of(etag: str) -> int:
    """The evening's version in the hub's ETag ("hub-<id>-<version>-…", scoring/hub/views.py)."""
    return int(etag.strip('"').split("-")[2])


def free_ports(count: int) -> int:
    """The first of ``count`` consecutive free ports on 127.0.0.1 (the stack's nginx, PostgreSQL,
    Redis and two app processes)."""
    for base in range(55460, 55900, 7):
        sockets = []
        try:
            for port in range(base, base + count):
                s = socket.socket()
                sockets.append(s)
                s.bind(("127.0.0.1", port))
            return base
        except OSError:
            continue
        finally:
            for s in sockets:
                s.close()
    raise RuntimeError("no free ports")


def test_the_served_hub_takes_snapshots_shares_its_cache_and_survives_a_killed_app_process():
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DATA_DIR", "REDIS_URL")}
    env["HUB_STACK_PORT"] = str(free_ports(5))
    env["PY"] = sys.executable
    stack = subprocess.Popen(
        [str(ROOT / "scripts" / "hub-stack.sh"), sys.executable, str(ROOT / "tests" / "hub_stack" / "stack_check.py")],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # on a time-out the whole script is stopped, and cleans up
    )
    try:
        stdout, stderr = stack.communicate(timeout=300)
    except subprocess.TimeoutExpired:
        os.killpg(stack.pid, signal.SIGTERM)
        stdout, stderr = stack.communicate(timeout=60)
    result = subprocess.CompletedProcess(stack.args, stack.returncode, stdout, stderr)
    lines = [line for line in result.stdout.splitlines() if line.startswith("STACK-CHECK ")]
    assert result.returncode == 0 and lines, result.stdout + result.stderr
    seen = json.loads(lines[0].removeprefix("STACK-CHECK "))

    # A page through nginx.
    assert seen["home"] == [200, "nginx"]
    # A snapshot posted through nginx is applied and shown; the page is shared by the proxy's
    # cache and answers 304 to a viewer holding it.
    assert seen["post"] == [200, {"status": "applied", "version": 10}]
    status, named, etag = seen["page"]
    assert (status, named) == (200, True) and version_of(etag) == 10
    assert seen["again"] == [200, "HIT"]
    assert seen["conditional"] == 304
    # Redis is the cache the app processes use.
    assert "screens" in seen["redis_keys"] and seen["redis_clients"] >= 2
    # One of the two app processes killed while four viewers read past the cache: none of them
    # sees an error, and the next snapshot is applied by the one left.
    assert seen["viewers_with_one_killed"]["errors"] == 0
    assert seen["viewers_with_one_killed"]["answers"] > 20
    assert seen["post_after_kill"] == [200, {"status": "applied", "version": 11}]
    assert seen["page_after_kill"][0] == 200 and version_of(seen["page_after_kill"][1]) == 11
