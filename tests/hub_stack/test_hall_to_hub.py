"""End to end on this machine: a hall (this test's database, its real sender and HTTP transport)
publishes to a results site running as its own process (``bruus-turnier hub``, its own SQLite
database), and a round played in the hall appears on the hub's page of the evening."""

from __future__ import annotations

import html
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from scoring.models import Evening
from scoring.publishing import services as publishing
from scoring.publishing.models import PublishMode
from scoring.publishing.queue import config
from scoring.publishing.sender import Sender
from scoring.publishing.snapshot import evening_snapshot
from scoring.publishing.transport import HttpTransport
from tests.hub_stack.test_hub_stack import version_of
from tests.publishing.conftest import play_round, small_evening

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def hub(tmp_path_factory):
    """(address, club key) of a results site on 127.0.0.1, with one club, for this module."""
    folder = tmp_path_factory.mktemp("hub")
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(BRUUS_ROLE="hub", DATA_DIR=str(folder), DATABASE_URL=f"sqlite:///{folder / 'hub.sqlite3'}")
    command = [sys.executable, "-m", "bruus_tournament", "hub"]
    added = subprocess.run(
        [*command, "club", "add", "Halle Schwesing"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert added.returncode == 0, added.stderr
    key = added.stdout.strip().splitlines()[-1].split()[-1]
    port = free_port()
    server = subprocess.Popen(
        [*command, "--port", str(port), "--noreload"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, "the hub did not start"
                time.sleep(0.2)
        yield f"http://127.0.0.1:{port}", key
    finally:
        server.terminate()
        server.wait(timeout=30)


def page(url: str) -> tuple[str, str]:
    with urllib.request.urlopen(url, timeout=10) as answer:
        return answer.read().decode(), answer.headers["ETag"]


@pytest.mark.django_db
def test_a_round_played_in_the_hall_appears_on_the_hub(hub):
    address, key = hub
    sender = Sender(HttpTransport(address, key, allow_http=False))
    evening = small_evening()
    publishing.set_publish_mode(evening_id=evening.pk, mode=PublishMode.LIVE)
    assert sender.send_waiting().sent
    uid = evening_snapshot(evening.pk, config())["evening"]["uid"]
    url = f"{address}/verein/halle-schwesing/abend/{uid}/"
    before, _ = page(url)
    assert "Runde 1" not in before

    play_round(evening, 1)
    done = sender.send_waiting()
    version = Evening.objects.get(pk=evening.pk).version
    assert done.sent == [(evening.pk, version)]
    after, etag = page(url)
    assert version_of(etag) == version
    assert "Runde 1" in after
    snapshot = evening_snapshot(evening.pk, config())
    first = snapshot["rounds"][0]["tables"][0]
    assert f"{first['points_a']} : {first['points_b']}" in after
    assert snapshot["players"] and all(html.escape(player["name"]) in after for player in snapshot["players"])
