"""Load benchmark of table-side entry: many tablets entering deals at the same moment.

Run: ``make bench`` or ``.venv/bin/python bench/bench_load.py [--tables 50] [--rounds 4]``.

What it does, bounded in time (every request and the whole run have time-outs):

1. A temporary DATA_DIR with a fresh SQLite database (WAL, as in the hall): migrate, create an
   evening with 4 x ``--tables`` players (200 by default) and draw session 1 (50 tables).
2. Starts gunicorn on 127.0.0.1 at a free port, configured as ``make serve`` does (gthread,
   2 workers x 8 threads, DEBUG off).
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
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
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

from scoring.domain.rules import POSSIBLE_BONUS_PAIRS, DealResult, score_deal  # noqa: E402  (pure Python)

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
# A served app (DEBUG off) refuses to start without an organiser login (scoring.startup).
from scoring.accounts import save_login
import secrets
save_login(username="bench-leitung", password=secrets.token_urlsafe(16), role="Turnierleitung")
tokens = dict(Table.objects.filter(evening=evening).values_list("number", "token"))
print(json.dumps({{"evening": evening.pk, "tokens": tokens}}))
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def planned_result(table: int, round_number: int, deal: int) -> DealResult:
    """The deal a tablet enters, the same on every run: mostly plain, sometimes bonuses or to nil."""
    rng = random.Random(table * 10_000 + round_number * 100 + deal)
    pairs = sorted(POSSIBLE_BONUS_PAIRS)
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
        return response.status, text

    def form(self, html: str, name: str) -> str:
        match = re.search(rf'name="{name}" value="([^"]*)"', html)
        if match is None:
            raise RuntimeError(f"table {self.number}: no {name} in the page")
        return match.group(1)

    def run(self, ready: threading.Barrier, rounds: int, deals: int, deadline: float) -> None:
        base = f"/t/{self.token}/"
        try:
            status, html = self.request("GET", base)
            if status != 200:
                raise RuntimeError(f"table page answered {status}")
            ready.wait(timeout=60)
            for round_number in range(1, rounds + 1):
                for deal in range(1, deals + 1):
                    if time.monotonic() > deadline:
                        raise RuntimeError("run time-out")
                    result = planned_result(self.number, round_number, deal)
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
                    status, html = self.request(
                        "POST",
                        f"{base}{step}/",
                        {
                            "csrfmiddlewaretoken": self.form(html, "csrfmiddlewaretoken"),
                            "seating": seating,
                            "team": team,
                        },
                    )
                    if status != 200 or 'class="msg error"' in html:
                        self.failures.append(f"table {self.number} round {round_number} {step}: {status}")
        except Exception as error:  # noqa: BLE001 - every failure is counted and shown
            self.failures.append(f"table {self.number}: {type(error).__name__}: {error}")
        finally:
            self.conn.close()


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def check_database(db: Path, evening: int, tokens: dict[str, str], rounds: int, deals: int) -> dict[str, int]:
    """Lost, duplicated and wrong entries, read straight from the SQLite file."""
    con = sqlite3.connect(db)
    rows = con.execute(
        """SELECT t.number, r.number, d.number, d.winner, d.to_nil, d.bonus_a, d.bonus_b, d.points_a,
                  d.points_b, (SELECT COUNT(*) FROM scoring_dealchange c WHERE c.deal_id = d.id)
           FROM scoring_deal d JOIN scoring_seating s ON d.seating_id = s.id
           JOIN scoring_round r ON s.round_id = r.id JOIN scoring_table t ON s.table_id = t.id
           WHERE t.evening_id = ?""",
        (evening,),
    ).fetchall()
    confirmed = con.execute(
        """SELECT COUNT(*) FROM scoring_seating s JOIN scoring_table t ON s.table_id = t.id
           WHERE t.evening_id = ? AND s.confirmed_at IS NOT NULL""",
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
                score = score_deal(result)
                expected = [result.winner, result.to_nil, result.bonus_a, result.bonus_b, score.a, score.b]
                got = found.get((table, round_number, deal))
                if got is None:
                    lost += 1
                elif got != expected:
                    wrong += 1
    return {"lost": lost, "duplicated": duplicated, "wrong": wrong, "confirmed": confirmed}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50, help="tables = simulated tablets (players = 4 x tables)")
    parser.add_argument("--rounds", type=int, default=4, help="rounds each tablet enters")
    parser.add_argument("--deals", type=int, default=4, help="deals per round")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn worker processes (make serve: 2)")
    parser.add_argument("--threads", type=int, default=8, help="threads per worker (make serve: 8)")
    args = parser.parse_args()

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
        f"({4 * args.tables} players), gunicorn {args.workers}x{args.threads} threads, SQLite in {data_dir}"
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

    log_path = data_dir / "gunicorn.log"
    with open(log_path, "w") as log:
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "bruus_tournament.wsgi",
                "--config",
                "python:bruus_tournament.gunicorn_conf",
                "--bind",
                f"127.0.0.1:{port}",
                "--worker-class",
                "gthread",
                "--workers",
                str(args.workers),
                "--threads",
                str(args.threads),
                "--timeout",
                "60",
                "--log-level",
                "warning",
                "--error-logfile",
                "-",
            ],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
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
                print("gunicorn did not start:\n" + log_path.read_text()[-2000:])
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
        print(f"FAILED (gunicorn log: {log_path})")
        return 1
    print("OK: nothing lost, nothing twice, nothing failed")
    shutil.rmtree(data_dir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
