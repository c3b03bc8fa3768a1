"""Limits and durability across processes, on SQLite as the app runs it (a file in WAL
mode; the in-memory test database cannot be shared between processes):

- wrong table links and wrong passwords are counted in the database, so two worker processes
  hitting the limit at the same moment together get exactly the limit;
- the server killed (SIGKILL) in the middle of an evening loses no deal a tablet was told is saved.
"""

from __future__ import annotations

import contextlib
import http.client
import http.cookiejar
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from pathlib import Path

import pytest

from bruus_tournament import servers

ROOT = Path(__file__).resolve().parents[2]


def environment(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DJANGO_ALLOW_ASYNC_UNSAFE")}
    env.update(
        DATA_DIR=str(tmp_path),
        DJANGO_SETTINGS_MODULE="bruus_tournament.settings",
        PYTHONPATH=str(ROOT),
        DEBUG="false",
        ALLOWED_HOSTS="127.0.0.1,localhost,testserver",
    )
    return env


def run(env, code: str, *args: str) -> str:
    result = subprocess.run(
        [sys.executable, "-c", code, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=180
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout


SETUP = """
import django; django.setup()
from datetime import date
from scoring import services
evening = services.create_evening(name="Prozesse", date=date(2026, 11, 21))
for n in range(24):
    player, _ = services.add_player(name=f"Spieler {n}", club="")
    services.set_checked_in(evening=evening, player=player, checked_in=True)
services.draw_session(evening=evening, seed=1)
# A Turnierleitung login: without one the served app (DEBUG off) refuses to start (scoring.setup.startup).
import secrets
from scoring.services.accounts import save_login
save_login(username="leitung", password=secrets.token_urlsafe(16), role="Turnierleitung")
print(" ".join(t.token for t in evening.tables.order_by("number")))
"""


AT_ONCE = """
import sys, time
import django; django.setup()
from django.test import Client
start, what, count = float(sys.argv[1]), sys.argv[2], int(sys.argv[3])
client = Client(REMOTE_ADDR="192.0.2.10")
time.sleep(max(0.0, start - time.time()))
answers = []
for n in range(count):
    if what == "links":
        answers.append(client.get(f"/t/falsch-{n}-{sys.argv[4]}/").status_code)
    else:
        answers.append(client.post("/anmelden/", {"username": "leitung", "password": f"falsch{n}"}).status_code)
print(" ".join(map(str, answers)))
"""


def two_processes_at_once(env, what: str, count: int) -> list[int]:
    start = str(time.time() + 2)
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", AT_ONCE, start, what, str(count), str(i)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(2)
    ]
    answers = []
    for process in processes:
        out, err = process.communicate(timeout=180)
        assert process.returncode == 0, err[-3000:]
        answers += [int(code) for code in out.split()]
    return answers


def test_two_workers_hitting_the_wrong_link_limit_together_get_exactly_ten(database):
    env, tokens = database
    answers = two_processes_at_once(env, "links", 12)
    assert answers.count(404) == 10 and answers.count(429) == 14, answers
    # A third process (a restarted worker) still sees the count: a wrong link waits; a real link
    # always opens (it answered 429 too).
    check = (
        "import django; django.setup()\nfrom django.test import Client\n"
        "client = Client(REMOTE_ADDR='192.0.2.10')\n"
        f"print(client.get('/t/falsch-third/').status_code, client.get('/t/{tokens[0]}/').status_code)"
    )
    assert run(env, check).split() == ["429", "200"]


def test_two_workers_share_the_login_lockout(database):
    env, _ = database
    answers = two_processes_at_once(env, "logins", 4)
    # The fifth wrong password locks the login (429) for both processes: 4 answers with the form
    # again (5 if two failures land at the very same moment), not 4 per process as with counts in
    # each process's memory.
    assert answers.count(200) in (4, 5) and answers.count(200) + answers.count(429) == 8, answers
    check = (
        "import django; django.setup()\nfrom django.test import Client\n"
        "print(Client(REMOTE_ADDR='192.0.2.10').post('/anmelden/', "
        "{'username': 'leitung', 'password': 'geheim-123'}).status_code)"
    )
    assert run(env, check).strip() == "429"  # even the right password, from a third process


def test_sqlite_runs_with_synchronous_full(tmp_path):
    env = environment(tmp_path)
    code = (
        "import django; django.setup()\nfrom django.db import connection\n"
        "with connection.cursor() as c:\n"
        "    c.execute('PRAGMA synchronous'); print(c.fetchone()[0])\n"
        "    c.execute('PRAGMA journal_mode'); print(c.fetchone()[0])"
    )
    assert run(env, code).split() == ["2", "wal"]  # 2 = FULL


# --- The server killed mid-entry -----------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(env, port: int) -> subprocess.Popen:
    server = subprocess.Popen(
        servers.gunicorn_argv("127.0.0.1", port, workers=2, threads=4),  # as bruus-turnier serve starts it
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/hilfe/", timeout=2)
            return server
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.2)
    os.killpg(server.pid, signal.SIGKILL)
    pytest.fail("gunicorn did not start")


class Tablet:
    """One table's tablet: its own cookies and CSRF token, posting like the page's script does."""

    def __init__(self, port: int, token: str):
        self.base = f"http://127.0.0.1:{port}/t/{token}/"
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        page = self.opener.open(self.base, timeout=10).read().decode()
        self.csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        self.seating = re.search(r'name="seating" value="(\d+)"', page).group(1)

    def enter(self, number: int, version: int, winner: str, bonus_a: int) -> int | None:
        """The deal's version shown with "saved" (the page's answer), else None."""
        data = urllib.parse.urlencode(
            {
                "csrfmiddlewaretoken": self.csrf,
                "seating": self.seating,
                "winner": winner,
                "bonus_a": bonus_a,
                "bonus_b": 0,
                "version": version,
                "key": str(uuid.uuid4()),
            }
        ).encode()
        request = urllib.request.Request(f"{self.base}spiel/{number}/", data=data, headers={"HX-Request": "true"})
        try:
            with self.opener.open(request, timeout=10) as response:
                page = response.read().decode()
        except (urllib.error.URLError, ConnectionError, TimeoutError, OSError, http.client.HTTPException):
            return None  # no answer, or one cut off by the kill (IncompleteRead): not acknowledged
        if response.status != 200 or f"Spiel {number} gespeichert" not in page:
            return None
        return int(re.search(rf'data-deal="{number}" data-entered="1" data-version="(\d+)"', page).group(1))


def test_every_acknowledged_deal_survives_the_server_killed_mid_entry(database):
    env, tokens = database
    port = free_port()
    server = start_server(env, port)
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/hilfe/", timeout=10) as response:
        assert response.headers.get("Server") is None  # gunicorn does not name itself (gunicorn_conf)
        assert "script-src 'self'" in response.headers["Content-Security-Policy"]
    acknowledged: dict[tuple[int, int], tuple[int, str, int]] = {}  # (table, deal) -> (version, winner, bonus)
    lock = threading.Lock()
    stop = threading.Event()

    def tablet(table: int, token: str):
        device = Tablet(port, token)
        version = {n: 0 for n in range(1, 5)}
        step = 0
        while not stop.is_set():
            number = step % 4 + 1
            winner, bonus = ("A", 0) if step % 3 else ("B", 1)
            saved = device.enter(number, version[number], winner, bonus)
            if saved is not None:
                version[number] = saved
                with lock:
                    acknowledged[(table, number)] = (version[number], winner, bonus)
            step += 1

    threads = [threading.Thread(target=tablet, args=(n, token)) for n, token in enumerate(tokens, start=1)]
    try:
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + 60

        def versions() -> int:
            with lock:  # the tablets add to it meanwhile
                return sum(v for v, _, _ in acknowledged.values())

        while versions() < 60 and time.monotonic() < deadline:
            time.sleep(0.05)
        os.killpg(server.pid, signal.SIGKILL)  # mid-entry: the tablets are still sending
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=30)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(server.pid, signal.SIGKILL)
        server.wait(timeout=10)
    assert sum(v for v, _, _ in acknowledged.values()) >= 60
    database_file = sqlite3.connect(Path(env["DATA_DIR"]) / "bruus.sqlite3")
    rows = database_file.execute(
        "select t.number, d.number, d.version, d.winner, d.bonus_a, d.points_a, d.points_b, "
        "(select count(*) from scoring_dealchange c where c.deal_id = d.id) "
        "from scoring_deal d join scoring_seating s on s.id = d.seating_id join scoring_table t on t.id = s.table_id"
    ).fetchall()
    stored = {(table, deal): rest for table, deal, *rest in rows}
    for where, (version, winner, bonus) in acknowledged.items():
        assert where in stored, where
        db_version, db_winner, db_bonus, points_a, points_b, changes = stored[where]
        assert changes == db_version  # one history row per version
        # The acknowledged entry, or one the server committed just before it died (not acknowledged).
        assert db_version in (version, version + 1), (where, version, db_version)
        if db_version == version:
            assert (db_winner, db_bonus) == (winner, bonus), where
        expected = (db_bonus + (1 if db_winner == "A" else 0), 0 if db_winner == "A" else 1)
        assert (points_a, points_b) == expected
