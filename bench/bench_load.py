"""Load benchmark of table-side entry: many tablets entering deals at the same moment.

Run: ``make bench`` or ``.venv/bin/python bench/bench_load.py [--tables 50] [--rounds 4]``.

What it does, bounded in time (every request and the whole run have time-outs):

1. A temporary DATA_DIR with a fresh SQLite database (WAL, as in the hall): migrate, create an
   evening with 4 x ``--tables`` players (200 by default) and draw session 1 (50 tables).
2. Starts gunicorn on 127.0.0.1 at a free port, configured as ``make serve`` does (gthread,
   4 workers x 4 threads, DEBUG off).
3. One thread per table (a simulated tablet, http.client with keep-alive): fetches its table page
   (CSRF cookie and token, the form with its idempotency key), waits until every tablet is ready,
   then enters ``--rounds`` rounds of ``--deals`` deals as the page's own script does (htmx
   requests, each answer carries the next form), sends one deal per round a second time with the
   same key (a double tap or a resent form), finishes each round (scorer in team A) and confirms
   it (team B).
4. Prints entries per second, median and 95th percentile latency of a deal entry, and counts
   lost, duplicated and failed entries, checked by reading the database at the end: every deal
   exactly once with the value sent, exactly one history entry per deal, every round confirmed,
   no "database is locked" in the server log. Exit status 1 when any count is not zero.

``--scenario`` (``make bench``): a busy hall, one field after the other, through gunicorn
as ``make serve`` starts it (4 workers x 4 threads; the project's settings plus the bare view of
``bench/bench_urls.py``): 26 players with 6 tablets, 300 with 75, 1,000 with 250 (``--fields``;
``BENCH_QUICK=1`` leaves out the 1,000), each with 60 live-overview pollers (organiser logins,
every 5 s) and 100 phones on the public ranking screen (every 10 s), all sending
``If-None-Match`` as a browser does, and one client asking the bare view twice a second; they
start once every tablet shows its page, each at a random moment of its interval. Each
tablet polls its table's state every 15 s as the page does (204 while nothing changed) and plays
round 1 as the page's own script does (htmx POST with the form's idempotency key and
version, one deal resent, finish, confirm), one deal every ``--deal-every`` seconds (30: at
1,000 players 8.3 deals a second, the rate of the busiest evening we plan for; ``--deal-every 15`` doubles it; a
real table takes minutes a deal). ``--server waitress`` serves it with waitress instead (the
pure-Python path of ``bruus-turnier serve`` on Windows; one process, 8 threads).
On SQLite (a fresh file per field) or, with ``--database postgres`` inside
``scripts/with-postgres.sh``, on PostgreSQL (a fresh database per field). Prints per request
kind p50/p95/p99 and errors, lost and duplicated deals counted in the database, and the 304
polls against the bare view.

``--scenario --storm`` (``make bench``): the round-change storm, the same hall and fields, and
in addition every player of the field opens "Wo sitze ich?" at a random moment of
the first minute (the list of names, then their own seat page, both whole pages, no cache),
then stays on the seat page, which polls every 15 s as htmx does. The tablets play their round
meanwhile, so the seat pages' polls meet deals arriving (they answer 304: the seat pages rest on
the seatings, ``Evening.seating_version``) and, at the end, the confirmations that move the
players on (fresh pages). Prints the opens and the polls like the other kinds, and one line: the
95th percentile of every answer to the players' phones against 300 ms (an answer nobody waits
for), their errors, and how many of their polls were 304.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import resource
import secrets
import shutil
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bruus_tournament import servers  # noqa: E402  (imports nothing of Django)
from scoring.domain.rules import DealResult  # noqa: E402  (pure Python)
from scoring.domain.rulesets import DEFAULT, rule_set  # noqa: E402  (pure Python)

#: The rules of the bench's evening (created with the default rule set).
RULES = rule_set(DEFAULT)

REQUEST_TIMEOUT = 30  # seconds, each HTTP request
RUN_TIMEOUT = 300  # seconds, the whole load phase

SETUP = """
import json, django
django.setup()
from datetime import date
from scoring import services
from scoring.domain.player_import import ParsedPlayer
from scoring.models import Table
evening = services.create_evening(name="Lasttest", date=date(2026, 11, 21), rounds_per_session={rounds},
                                  deals_per_round={deals})
roster = [ParsedPlayer(line=n, name=f"Spieler {{n:03d}}", club="Bench") for n in range(1, {players} + 1)]
services.import_players(roster, check_in_to=evening)
services.draw_session(evening=evening, seed=2026)
# A served app (DEBUG off) refuses to start without an organiser login (scoring.setup.startup).
from scoring.services.accounts import save_login
import secrets
user = save_login(username="bench-leitung", password=secrets.token_urlsafe(16), role="Turnierleitung")
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.conf import settings
from django.contrib.sessions.backends.db import SessionStore
user = get_user_model().objects.get(username="bench-leitung")
login = SessionStore()
login[SESSION_KEY], login[BACKEND_SESSION_KEY] = str(user.pk), settings.AUTHENTICATION_BACKENDS[-1]
login[HASH_SESSION_KEY] = user.get_session_auth_hash()
login.create()
tokens = dict(Table.objects.filter(evening=evening).values_list("number", "token"))
from django.db import connection
if connection.vendor == "postgresql":
    # The planner's statistics of the tables just filled, as autovacuum gathers them within a
    # minute of an import or a draw in the hall (the load here starts seconds after them).
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
players = sorted(evening.participants.filter(checked_in=True).values_list("player_id", flat=True))
print(json.dumps({{"evening": evening.pk, "tokens": tokens, "session": login.session_key, "players": players}}))
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def planned_result(table: int, round_number: int, deal: int) -> DealResult:
    """The deal a tablet enters, the same on every run: mostly plain, sometimes bonuses or to nil."""
    rng = random.Random(table * 10_000 + round_number * 100 + deal)
    pairs = sorted(RULES.bonus_pairs)
    weights = [12 if pair == (0, 0) else 3 if sum(pair) == 1 else 1 for pair in pairs]
    bonus_a, bonus_b = rng.choices(pairs, weights=weights)[0]
    return DealResult(winner=rng.choice("AB"), to_nil=rng.random() < 0.1, bonus_a=bonus_a, bonus_b=bonus_b)


@dataclass
class Tablet:
    """One table's tablet: its own connection and cookies, like a browser."""

    number: int
    token: str
    port: int
    latencies: list[float] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    entries: int = 0
    resends: int = 0
    cookies: dict[str, str] = field(default_factory=dict)
    think: float = 0.0  # seconds between two deals (the scenario's pace); 0: as fast as possible
    steps: list[float] = field(default_factory=list)  # latencies of finishing and confirming
    poller: TabletPoller | None = None  # the page's own poll: each answer carries its new signature

    def __post_init__(self) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=REQUEST_TIMEOUT)

    def request(self, method: str, path: str, data: dict | None = None) -> tuple[int, str]:
        headers = {"HX-Request": "true", "HX-Target": "scorer-state"} if method == "POST" else {}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if data is not None:
            body = urllib.parse.urlencode(data)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        for attempt in (1, 2):
            try:
                self.conn.request(method, path, body=body, headers=headers)
                response = self.conn.getresponse()
                text = response.read().decode()
                break
            except (http.client.HTTPException, ConnectionError):
                self.conn.close()  # keep-alive connection closed by the server: reconnect once
                if attempt == 2:
                    raise
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                self.cookies[key] = rest.split(";", 1)[0]
        if self.poller is not None:
            self.poller._seen(text.encode())  # htmx swapped in the answer, with the poll's new URL
        return response.status, text

    def form(self, html: str, name: str) -> str:
        match = re.search(rf'name="{name}" value="([^"]*)"', html)
        if match is None:
            raise RuntimeError(f"table {self.number}: no {name} in the page")
        return match.group(1)

    def deal_form(self, html: str, result: DealResult) -> dict:
        """What the page's form sends for a deal: CSRF token, seating, the form's idempotency key
        and the deal's version (both from the page), the entry."""
        data = {
            "csrfmiddlewaretoken": self.form(html, "csrfmiddlewaretoken"),
            "seating": self.form(html, "seating"),
            "key": self.form(html, "key"),
            "version": self.form(html, "version"),
            "winner": result.winner,
            "bonus_a": result.bonus_a,
            "bonus_b": result.bonus_b,
        }
        if result.to_nil:
            data["to_nil"] = "on"
        return data

    def pause(self, first: bool = False) -> None:
        """The scenario's pace: a tablet's next deal comes ``think`` seconds after the last one
        (within 20 %); the tables start at random moments within the first ``think``."""
        if self.think:
            time.sleep(random.uniform(0, self.think) if first else self.think * random.uniform(0.8, 1.2))

    def run(self, ready: threading.Barrier, rounds: int, deals: int, deadline: float) -> None:
        base = f"/t/{self.token}/"
        try:
            status, html = self.request("GET", base)
            if status != 200:
                raise RuntimeError(f"table page answered {status}")
            ready.wait(timeout=120)
            self.pause(first=True)
            for round_number in range(1, rounds + 1):
                for deal in range(1, deals + 1):
                    if time.monotonic() > deadline:
                        raise RuntimeError("run time-out")
                    if (round_number, deal) != (1, 1):
                        self.pause()
                    data = self.deal_form(html, planned_result(self.number, round_number, deal))
                    start = time.perf_counter()
                    status, answer = self.request("POST", f"{base}spiel/{deal}/", data)
                    self.latencies.append(time.perf_counter() - start)
                    self.entries += 1
                    if (
                        status != 200
                        or 'class="msg error"' in answer
                        or f'data-deal="{deal}" data-entered="1"' not in answer
                    ):
                        self.failures.append(f"table {self.number} round {round_number} deal {deal}: {status}")
                    if deal == 2:  # the same form once more: a double tap, a resent form
                        status, again = self.request("POST", f"{base}spiel/{deal}/", data)
                        self.resends += 1
                        if status != 200 or 'class="msg error"' in again:
                            self.failures.append(f"table {self.number} resend of deal {deal}: {status}")
                    html = answer
                seating = self.form(html, "seating")
                for step, team in (("fertig", "A"), ("bestaetigen", "B")):
                    start = time.perf_counter()
                    status, html = self.request(
                        "POST",
                        f"{base}{step}/",
                        {
                            "csrfmiddlewaretoken": self.form(html, "csrfmiddlewaretoken"),
                            "seating": seating,
                            "team": team,
                        },
                    )
                    self.steps.append(time.perf_counter() - start)
                    if status != 200 or 'class="msg error"' in html:
                        self.failures.append(f"table {self.number} round {round_number} {step}: {status}")
        except Exception as error:  # noqa: BLE001 - every failure is counted and shown
            self.failures.append(f"table {self.number}: {type(error).__name__}: {error}")
        finally:
            self.conn.close()


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def _connect(database: Path | str):
    """A DB-API connection and its parameter mark: the SQLite file, or a PostgreSQL URL."""
    if isinstance(database, str) and database.startswith("postgres"):
        import psycopg

        return psycopg.connect(database), "%s"
    return sqlite3.connect(database), "?"


def check_database(db: Path | str, evening: int, tokens: dict[str, str], rounds: int, deals: int) -> dict[str, int]:
    """Lost, duplicated and wrong entries, read straight from the database (SQLite file or
    PostgreSQL URL)."""
    con, mark = _connect(db)
    rows = con.execute(
        """SELECT t.number, r.number, d.number, d.winner, d.to_nil, d.bonus_a, d.bonus_b, d.points_a,
                  d.points_b, (SELECT COUNT(*) FROM scoring_dealchange c WHERE c.deal_id = d.id)
           FROM scoring_deal d JOIN scoring_seating s ON d.seating_id = s.id
           JOIN scoring_round r ON s.round_id = r.id JOIN scoring_table t ON s.table_id = t.id
           WHERE t.evening_id = ?""".replace("?", mark),
        (evening,),
    ).fetchall()
    confirmed = con.execute(
        """SELECT COUNT(*) FROM scoring_seating s JOIN scoring_table t ON s.table_id = t.id
           WHERE t.evening_id = ? AND s.confirmed_at IS NOT NULL""".replace("?", mark),
        (evening,),
    ).fetchone()[0]
    con.close()
    found: dict[tuple[int, int, int], list] = {}
    duplicated = wrong = 0
    for table, round_number, deal, winner, to_nil, bonus_a, bonus_b, points_a, points_b, changes in rows:
        key = (table, round_number, deal)
        if key in found:
            duplicated += 1
        found[key] = [winner, bool(to_nil), bonus_a, bonus_b, points_a, points_b]
        duplicated += max(0, changes - 1)  # a second history entry: saved twice
        if changes == 0:
            wrong += 1
    lost = 0
    for table in map(int, tokens):
        for round_number in range(1, rounds + 1):
            for deal in range(1, deals + 1):
                result = planned_result(table, round_number, deal)
                score = RULES.score_deal(result)
                expected = [result.winner, result.to_nil, result.bonus_a, result.bonus_b, score.a, score.b]
                got = found.get((table, round_number, deal))
                if got is None:
                    lost += 1
                elif got != expected:
                    wrong += 1
    return {"lost": lost, "duplicated": duplicated, "wrong": wrong, "confirmed": confirmed}


# --- A busy hall: tablets, live-overview pollers, public screens -------------------------------

#: players -> tablets (tables): a club evening, a large open, the largest we plan for
FIELDS = {26: 6, 300: 75, 1000: 250}
LIVE_POLLERS, LIVE_EVERY = 60, 5.0  # organiser screens on the live overview, seconds
SCREEN_PHONES, SCREEN_EVERY = 100, 10.0  # phones on the public ranking screen, seconds
TABLET_EVERY = 15.0  # each tablet page polls its table's state (templates/scorer/_state.html)
SEAT_EVERY = 15.0  # a seat page polls itself (scoring.views.screens.SEAT_POLL_SECONDS)
STORM_SECONDS = 60.0  # --storm: every player opens "Wo sitze ich?" within this of the round change
STORM_P95_TARGET = 0.300  # the storm's answers within 300 ms at the 95th percentile
BARE_EVERY = 0.5  # seconds between two requests of the bare view


@dataclass
class Poller:
    """A screen that reloads a page every ``every`` seconds as htmx and the browser do: the
    fragment (HX-Request), with ``If-None-Match`` of the last answer (the browser's cache)."""

    kind: str
    path: str
    every: float
    port: int
    cookies: dict[str, str] = field(default_factory=dict)
    htmx: bool = True
    results: list[tuple[int, float]] = field(default_factory=list)  # (status, seconds)
    failures: list[str] = field(default_factory=list)

    def _url(self) -> str:
        return self.path

    def _seen(self, body: bytes) -> None:
        """What a poller keeps of an answer besides its ETag (nothing; the tablet: its signature)."""

    def _get(self, conn: http.client.HTTPConnection, headers: dict) -> http.client.HTTPResponse:
        """GET the page; an idle keep-alive connection the server has closed meanwhile is
        opened again once, as a browser does."""
        for attempt in (1, 2):
            try:
                conn.request("GET", self._url(), headers=headers)
                response = conn.getresponse()
                self._seen(response.read())
                return response
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                conn.close()
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def run(self, stop: threading.Event) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=REQUEST_TIMEOUT)
        stop.wait(random.uniform(0, self.every))
        self._poll(conn, stop)

    def _poll(self, conn: http.client.HTTPConnection, stop: threading.Event) -> None:
        """Poll every ``every`` seconds until ``stop``, as the page does."""
        etag = None
        while not stop.is_set():
            headers = {"HX-Request": "true"} if self.htmx else {}
            if self.cookies:
                headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
            if etag:
                headers["If-None-Match"] = etag
            start = time.perf_counter()
            try:
                response = self._get(conn, headers)
            except (OSError, http.client.HTTPException) as error:
                conn.close()
                self.failures.append(f"{self.kind}: {type(error).__name__}: {error}")
                stop.wait(self.every)
                continue
            self.results.append((response.status, time.perf_counter() - start))
            if response.status not in (200, 204, 304):
                self.failures.append(f"{self.kind}: HTTP {response.status}")
            etag = response.getheader("ETag") or etag
            for name, value in response.getheaders():
                if name.lower() == "set-cookie":
                    key, _, rest = value.partition("=")
                    self.cookies[key] = rest.split(";", 1)[0]
            stop.wait(self.every)
        conn.close()


@dataclass
class TabletPoller(Poller):
    """A tablet page's own poll (``hx-trigger="every 15s"`` in ``templates/scorer/_state.html``):
    ``?s=<signature>`` of what it shows; 204 while nothing changed at its table, else the page's
    changing part with a new signature."""

    signature: str = ""

    def _url(self) -> str:
        return f"{self.path}?s={self.signature}"

    def _seen(self, body: bytes) -> None:
        match = re.search(rb"\?s=([0-9a-f]{16})", body)
        if match:
            self.signature = match.group(1).decode()


@dataclass
class SeatPhone(Poller):
    """A player's phone at a round change (``--storm``): at a random moment of the first
    :data:`STORM_SECONDS` it opens "Wo sitze ich?" (the list of names, the whole page), taps its
    name (the seat page, the whole page), then stays on it: the page polls every
    :data:`SEAT_EVERY` seconds as htmx does (the fragment, ``If-None-Match``)."""

    finder: str = ""
    within: float = 60.0
    opens: list[tuple[str, int, float]] = field(default_factory=list)  # (what, status, seconds)

    def run(self, stop: threading.Event) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=REQUEST_TIMEOUT)
        if stop.wait(random.uniform(0, self.within)):
            return
        for what, path in (("seat finder (opened)", self.finder), ("seat page (opened)", self.path)):
            start = time.perf_counter()
            try:
                conn.request("GET", path)
                response = conn.getresponse()
                response.read()
            except (OSError, http.client.HTTPException) as error:
                conn.close()
                self.failures.append(f"{what}: {type(error).__name__}: {error}")
                continue
            self.opens.append((what, response.status, time.perf_counter() - start))
            if response.status != 200:
                self.failures.append(f"{what}: HTTP {response.status}")
        if not stop.wait(self.every):
            self._poll(conn, stop)
        conn.close()


def _start_server(env: dict, port: int, log_path: Path, args) -> subprocess.Popen:
    """The server as ``bruus-turnier serve`` starts it (bruus_tournament.servers: gunicorn gthread with
    the project's config, or waitress), on 127.0.0.1."""
    if args.server == "waitress":
        argv = servers.waitress_argv("127.0.0.1", port, args.threads)
    else:
        argv = servers.gunicorn_argv("127.0.0.1", port, args.workers, args.threads)
        argv += ["--timeout", "60", "--error-logfile", "-", "--access-logfile", "/dev/null"]
    with open(log_path, "w") as log:
        return subprocess.Popen(argv, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)


def server_cpu_by_process(master: int) -> dict[int, float]:
    """CPU time (user + system, seconds) used so far by each gunicorn process (pid: seconds)."""
    ticks = os.sysconf("SC_CLK_TCK")
    used: dict[int, float] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid, ppid = int(stat.parent.name), int(fields[1])
        if master in (pid, ppid):
            used[pid] = (int(fields[11]) + int(fields[12])) / ticks
    return used


def machine_cpu_seconds() -> float:
    """CPU time (seconds, all cores) the whole machine has been busy so far (/proc/stat)."""
    return sum(_machine_cpu())


def stolen_cpu_seconds() -> float:
    """CPU time (seconds, all cores) a virtual machine's host gave to other guests so far."""
    return _machine_cpu()[-1]


def _machine_cpu() -> tuple[float, ...]:
    fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(v) for v in fields[:8])
    return tuple(v / os.sysconf("SC_CLK_TCK") for v in (user, nice, system, irq, softirq, steal))


def own_cpu_seconds() -> float:
    """CPU time (user + system) of this script: the simulated tablets and screens."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _wait_until_up(port: int, server: subprocess.Popen) -> bool:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and server.poll() is None:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", "/")
            if conn.getresponse().status == 200:
                return True
        except OSError:
            pass
        time.sleep(0.2)
    return False


def _stop(server: subprocess.Popen) -> None:
    server.terminate()
    try:
        server.wait(timeout=15)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait(timeout=5)


def _fresh_database(database: str, name: str, data_dir: Path) -> str:
    """A new empty database for one field: an SQLite file, or a PostgreSQL database created on
    the server of ``DATABASE_URL`` (scripts/with-postgres.sh)."""
    if database == "sqlite":
        return f"sqlite:///{data_dir / 'bruus.sqlite3'}"
    import psycopg

    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        raise SystemExit("--database postgres needs DATABASE_URL (run inside scripts/with-postgres.sh)")
    with psycopg.connect(url, autocommit=True) as con:
        con.execute(f'CREATE DATABASE "{name}"')
    return url.rsplit("/", 1)[0] + "/" + name


def _stats(values: list[float]) -> str:
    if not values:
        return "-"
    return (
        f"p50 {percentile(values, 0.5) * 1000:6.0f} ms  p95 {percentile(values, 0.95) * 1000:6.0f} ms  "
        f"p99 {percentile(values, 0.99) * 1000:6.0f} ms"
    )


def run_field(players: int, tables: int, args, database: str) -> bool:
    """One field of the scenario; prints its figures and returns True when nothing failed."""
    data_dir = Path(tempfile.mkdtemp(prefix=f"bruus-room-{players}-"))
    port = free_port()
    db_url = _fresh_database(database, f"bench_{players}_{secrets.token_hex(3)}", data_dir)
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "bench.bench_settings",  # the project + the bare view
        "DATA_DIR": str(data_dir),
        "DATABASE_URL": db_url,
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "CSRF_TRUSTED_ORIGINS": f"http://127.0.0.1:{port}",
    }
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True, timeout=300
    )
    setup = subprocess.run(
        [sys.executable, "-c", SETUP.format(players=players, rounds=4, deals=args.deals)],
        cwd=ROOT,
        env=env,
        check=True,
        timeout=600,
        capture_output=True,
        text=True,
    )
    plan = json.loads(setup.stdout.strip().splitlines()[-1])
    tokens: dict[str, str] = plan["tokens"]
    evening = plan["evening"]
    think = args.deal_every
    print(
        f"\n{players} players, {len(tokens)} tablets (each also polling every {TABLET_EVERY:g} s), "
        f"{LIVE_POLLERS} live-overview pollers, "
        f"{SCREEN_PHONES} phones{f', {players} players on Wo sitze ich?' if args.storm else ''}, "
        f"{database} (set-up {time.perf_counter() - started:.0f} s; "
        f"each tablet enters a deal every {think:g} s: {len(tokens) / think:.1f} deals/s in the room)"
    )
    log_path = data_dir / "server.log"
    server = _start_server(env, port, log_path, args)
    stop = threading.Event()
    try:
        if not _wait_until_up(port, server):
            print(f"{args.server} did not start:\n" + log_path.read_text()[-2000:])
            return False
        tablets = [
            Tablet(number=int(n), token=t, port=port, think=think)
            for n, t in sorted(tokens.items(), key=lambda i: int(i[0]))
        ]
        pollers = [
            Poller(
                "live overview",
                f"/organiser/abende/{evening}/live/?durchgang=1",
                LIVE_EVERY,
                port,
                cookies={"sessionid": plan["session"]},
            )
            for _ in range(LIVE_POLLERS)
        ]
        pollers += [
            Poller("public screen", f"/abend/{evening}/rangliste/", SCREEN_EVERY, port) for _ in range(SCREEN_PHONES)
        ]
        for tablet in tablets:
            tablet.poller = TabletPoller("tablet poll", f"/t/{tablet.token}/stand/", TABLET_EVERY, port)
            pollers.append(tablet.poller)
        pollers.append(Poller("bare view", "/bench/bare/", BARE_EVERY, port, htmx=False))
        if args.storm:  # the round change: every player opens "Wo sitze ich?" within a minute
            pollers += [
                SeatPhone(
                    "seat poll",
                    f"/abend/{evening}/platz/{player}/",
                    SEAT_EVERY,
                    port,
                    finder=f"/abend/{evening}/platz/",
                    within=STORM_SECONDS,
                )
                for player in plan["players"]
            ]
        poll_threads = [threading.Thread(target=p.run, args=(stop,), daemon=True) for p in pollers]
        ready = threading.Barrier(len(tablets) + 1)
        deadline = time.monotonic() + RUN_TIMEOUT
        threads = [threading.Thread(target=t.run, args=(ready, 1, args.deals, deadline), daemon=True) for t in tablets]
        for thread in threads:
            thread.start()
        ready.wait(timeout=300)
        # The screens open once every tablet shows its page: a tablet polls with the fingerprint
        # of the page it shows (before, a poll could go out with none and get the whole page).
        for thread in poll_threads:
            thread.start()
        load_start = time.perf_counter()
        cpu_start = server_cpu_by_process(server.pid)
        machine_start, own_start, stolen_start = machine_cpu_seconds(), own_cpu_seconds(), stolen_cpu_seconds()
        for thread in threads:
            thread.join(timeout=max(0.0, deadline - time.monotonic()) + 5)
        elapsed = time.perf_counter() - load_start
        cpu_end = server_cpu_by_process(server.pid)
        machine, own = machine_cpu_seconds() - machine_start, own_cpu_seconds() - own_start
        stolen = stolen_cpu_seconds() - stolen_start
        hung = sum(1 for thread in threads if thread.is_alive())
        # The room between rounds: the screens go on polling, nothing changes (304s).
        stop.wait(max(args.quiet, args.min_duration - elapsed))
        stop.set()
        for thread in poll_threads:
            thread.join(timeout=REQUEST_TIMEOUT + 5)
    finally:
        stop.set()
        _stop(server)

    counts = check_database(
        data_dir / "bruus.sqlite3" if database == "sqlite" else db_url, evening, tokens, 1, args.deals
    )
    server_log = log_path.read_text()
    errors = server_log.count("Traceback") + server_log.count("database is locked")
    until = max(elapsed + args.quiet, args.min_duration)
    print(f"  tablets done after {elapsed:.0f} s; the screens polled on, the room quiet, until {until:.0f} s")
    per_process = sorted(
        ((seconds - cpu_start.get(pid, 0.0)) / elapsed for pid, seconds in cpu_end.items()), reverse=True
    )
    cpu = sum(per_process) * elapsed
    print(
        f"  server CPU while the tablets played: {cpu:.0f} s in {elapsed:.0f} s = {cpu / elapsed:.2f} cores "
        f"(per process, master included: {', '.join(f'{c:.2f}' for c in per_process)})"
    )
    print(
        f"  the whole machine meanwhile: {machine / elapsed:.2f} of {os.cpu_count()} cores busy; of them this "
        f"script (the simulated tablets and screens) {own / elapsed:.2f}, {args.server} {cpu / elapsed:.2f}, "
        f"the rest (database server, other jobs) {max(0.0, machine - own - cpu - stolen) / elapsed:.2f}, "
        f"taken by other guests of the host (steal) {stolen / elapsed:.2f}"
    )
    bad = _report(tablets, pollers, counts, errors, hung, len(tokens))
    if not bad:
        shutil.rmtree(data_dir, ignore_errors=True)
    else:
        print(f"  FAILED ({args.server} log: {log_path})")
    return not bad


def _report(tablets: list[Tablet], pollers: list[Poller], counts: dict, errors: int, hung: int, tables: int) -> int:
    """Print a field's figures; returns the number of things that went wrong."""
    deals = [x for t in tablets for x in t.latencies]
    steps = [x for t in tablets for x in t.steps]
    failures = [f for t in tablets for f in t.failures] + [f for p in pollers for f in p.failures]
    print(
        f"  {'deal entry (htmx POST)':28s} {_stats(deals)}  n={len(deals)} (+ {sum(t.resends for t in tablets)} resent)"
    )
    print(f"  {'finish + confirm':28s} {_stats(steps)}  n={len(steps)}")
    by_kind: dict[str, dict[int, list[float]]] = {}
    for poller in pollers:
        for status, seconds in poller.results:
            by_kind.setdefault(poller.kind, {}).setdefault(status, []).append(seconds)
    for kind, statuses in by_kind.items():
        for status, values in sorted(statuses.items()):
            print(f"  {f'{kind} {status}':28s} {_stats(values)}  n={len(values)}")
    phones = [p for p in pollers if isinstance(p, SeatPhone)]
    opened: dict[tuple[str, int], list[float]] = {}
    for phone in phones:
        for what, status, seconds in phone.opens:
            opened.setdefault((what, status), []).append(seconds)
    for (what, status), values in sorted(opened.items()):
        print(f"  {f'{what} {status}':28s} {_stats(values)}  n={len(values)}")
    bare = by_kind.get("bare view", {}).get(200, [])
    for kind in ("live overview", "public screen"):
        not_modified = by_kind.get(kind, {}).get(304, [])
        if bare and not_modified:
            ratio = percentile(not_modified, 0.5) / percentile(bare, 0.5)
            print(f"  {kind} 304 against the bare view (p50): {ratio:.1f}x")
    print(
        f"  errors: HTTP/app {len(failures)}, server tracebacks/locks {errors}, tablets hung {hung}; "
        f"deals lost {counts['lost']}, duplicated {counts['duplicated']}, wrong {counts['wrong']}; "
        f"rounds confirmed {counts['confirmed']} of {tables}"
    )
    if phones:
        storm = [seconds for phone in phones for _, _, seconds in phone.opens]
        storm += [seconds for phone in phones for _, seconds in phone.results]
        seat_polls = [status for phone in phones for status, _ in phone.results]
        storm_failures = sum(len(phone.failures) for phone in phones)
        p95 = percentile(storm, 0.95) if storm else 0.0
        print(
            f"  round-change storm: {len(phones)} players opened Wo sitze ich? within {STORM_SECONDS:g} s; "
            f"every answer to them (opened and polls) p95 {p95 * 1000:.0f} ms "
            f"(target {STORM_P95_TARGET * 1000:.0f} ms: {'met' if p95 <= STORM_P95_TARGET else 'MISSED'}), "
            f"errors {storm_failures}; their seat polls answered 304 (nothing new for them while deals "
            f"arrived): {seat_polls.count(304)} of {len(seat_polls)}; the others are each phone's first "
            f"poll and those after a confirmation moved the players on"
        )
    for failure in failures[:5]:
        print(f"    {failure}")
    bad = len(failures) + errors + hung + counts["lost"] + counts["duplicated"] + counts["wrong"]
    return bad + tables - counts["confirmed"]


def scenario(args) -> int:
    fields = [int(f) for f in args.fields.split(",")] if args.fields else list(FIELDS)
    if os.environ.get("BENCH_QUICK") and not args.fields:
        fields = [f for f in fields if f < 1000]
    ok = True
    for players in fields:
        ok &= run_field(players, FIELDS.get(players, players // 4), args, args.database)
    return 0 if ok else 1


def arguments() -> argparse.Namespace:
    """The command line (``--help``); ``--threads`` defaults to the chosen server's (4 or 8)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50, help="tables = simulated tablets (players = 4 x tables)")
    parser.add_argument("--rounds", type=int, default=4, help="rounds each tablet enters")
    parser.add_argument("--deals", type=int, default=4, help="deals per round")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn worker processes (make serve: 4)")
    parser.add_argument("--threads", type=int, default=None, help="threads per worker (make serve: 4; waitress: 8)")
    parser.add_argument("--server", choices=("gunicorn", "waitress"), default="gunicorn", help="gunicorn or waitress")
    parser.add_argument("--scenario", action="store_true", help="a busy hall (tablets, pollers, screens)")
    parser.add_argument("--fields", default="", help="scenario: players per field, e.g. 26,300 (default 26,300,1000)")
    parser.add_argument("--database", choices=("sqlite", "postgres"), default="sqlite", help="scenario: database")
    parser.add_argument(
        "--storm",
        action="store_true",
        help='scenario: the round-change storm, every player also opens "Wo sitze ich?" within a minute',
    )
    parser.add_argument(
        "--deal-every", type=float, default=30.0, help="scenario: seconds between two deals of one tablet"
    )
    parser.add_argument("--quiet", type=float, default=20.0, help="scenario: seconds of polling after the tablets")
    parser.add_argument("--min-duration", type=float, default=45.0, help="scenario: shortest load phase, seconds")
    args = parser.parse_args()
    if args.threads is None:
        args.threads = 8 if args.server == "waitress" else 4
    return args


def main() -> int:
    args = arguments()
    if args.scenario:
        return scenario(args)

    data_dir = Path(tempfile.mkdtemp(prefix="bruus-load-"))
    port = free_port()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "bruus_tournament.settings",
        "DATA_DIR": str(data_dir),
        "DATABASE_URL": f"sqlite:///{data_dir / 'bruus.sqlite3'}",
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "CSRF_TRUSTED_ORIGINS": f"http://127.0.0.1:{port}",
    }
    print(
        f"Load benchmark: {args.tables} tablets x {args.rounds} rounds x {args.deals} deals "
        f"({4 * args.tables} players), {args.server} {args.workers}x{args.threads} threads, SQLite in {data_dir}"
    )
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True, timeout=180
    )
    setup = subprocess.run(
        [sys.executable, "-c", SETUP.format(players=4 * args.tables, rounds=args.rounds, deals=args.deals)],
        cwd=ROOT,
        env=env,
        check=True,
        timeout=300,
        capture_output=True,
        text=True,
    )
    plan = json.loads(setup.stdout.strip().splitlines()[-1])
    tokens: dict[str, str] = plan["tokens"]
    print(
        f"  set-up (migrate, {4 * args.tables} players, draw of {len(tokens)} tables): "
        f"{time.perf_counter() - started:.1f} s"
    )

    log_path = data_dir / "server.log"
    server = _start_server(env, port, log_path, args)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                conn.request("GET", "/")
                if conn.getresponse().status == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline or server.poll() is not None:
                print(f"{args.server} did not start:\n" + log_path.read_text()[-2000:])
                return 1
            time.sleep(0.2)

        tablets = [
            Tablet(number=int(n), token=t, port=port) for n, t in sorted(tokens.items(), key=lambda i: int(i[0]))
        ]
        ready = threading.Barrier(len(tablets) + 1)
        deadline = time.monotonic() + RUN_TIMEOUT
        threads = [
            threading.Thread(target=t.run, args=(ready, args.rounds, args.deals, deadline), daemon=True)
            for t in tablets
        ]
        for thread in threads:
            thread.start()
        ready.wait(timeout=120)  # every tablet has its page: all start at once
        load_start = time.perf_counter()
        for thread in threads:
            thread.join(timeout=max(0.0, deadline - time.monotonic()) + 5)
        elapsed = time.perf_counter() - load_start
        hung = sum(1 for thread in threads if thread.is_alive())
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=5)

    latencies = [x for t in tablets for x in t.latencies]
    failures = [f for t in tablets for f in t.failures]
    entries = sum(t.entries for t in tablets)
    resends = sum(t.resends for t in tablets)
    counts = check_database(data_dir / "bruus.sqlite3", plan["evening"], tokens, args.rounds, args.deals)
    server_log = log_path.read_text()
    locked = server_log.count("database is locked")
    errors = server_log.count("Traceback")
    expected_rounds = len(tokens) * args.rounds

    print(
        f"  deal entries sent:      {entries} (+ {resends} sent twice with the same key), "
        f"{len(tokens)} tablets at once, {elapsed:.1f} s"
    )
    print(f"  entries per second:     {entries / elapsed:.0f}" if elapsed else "  entries per second: -")
    if latencies:
        print(
            f"  latency of an entry:    median {statistics.median(latencies) * 1000:.0f} ms, "
            f"95th percentile {percentile(latencies, 0.95) * 1000:.0f} ms, max {max(latencies) * 1000:.0f} ms"
        )
    print(f"  rounds confirmed:       {counts['confirmed']} of {expected_rounds}")
    print(f"  lost entries:           {counts['lost']}")
    print(f"  duplicated entries:     {counts['duplicated']}")
    print(
        f"  failed entries:         {len(failures) + counts['wrong'] + hung} "
        f"(HTTP/app errors {len(failures)}, wrong values {counts['wrong']}, tablets hung {hung})"
    )
    print(f"  server log:             'database is locked' {locked}x, tracebacks {errors}")
    for failure in failures[:10]:
        print(f"    {failure}")
    bad = counts["lost"] + counts["duplicated"] + counts["wrong"] + len(failures) + hung + locked + errors
    bad += expected_rounds - counts["confirmed"]
    if bad:
        print(f"FAILED ({args.server} log: {log_path})")
        return 1
    print("OK: nothing lost, nothing twice, nothing failed")
    shutil.rmtree(data_dir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
