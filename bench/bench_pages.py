"""Query counts and server time of the busiest pages.

Run: ``make bench`` or ``.venv/bin/python bench/bench_pages.py [--repeat N]``.

Builds evenings of 24 and 200 players in a throw-away SQLite database (``DATA_DIR`` is a temporary
folder; nothing touches ``var/``), draws session 1 and plays round 1 at every table. Then prints,
one figure per line:

- the number of SQL queries of the organiser's evening page (progress grid), the live overview
  (dashboard), the ranking page and a
  table's scorer page, for 24 and for 200 players (they must be equal);
- the median time of a scorer's deal entry (POST, saved, redirect), of the ranking page (200
  players) and of a bare Django view returning a short text (``bench/bench_urls.py``), and their
  ratios (aim: entry at most 1.5 times, ranking at most 3 times the bare view), served two ways:
  in this process through Django's WSGI handler (test client: the same middleware, no network), and
  by gunicorn on 127.0.0.1 (one worker, one thread, as a request from a tablet would be served);
- at 1,000 players, in process: the evening page computed afresh and the table list PDF
  of session 1, best and median of N (``BENCH_QUICK=1`` leaves them out).
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ["DJANGO_SETTINGS_MODULE"] = "bench.bench_settings"
os.environ["DATA_DIR"] = tempfile.mkdtemp(prefix="bruus-bench-")
os.environ["DEBUG"] = "false"
os.environ["ALLOWED_HOSTS"] = "testserver,127.0.0.1"

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.urls import reverse  # noqa: E402

from scoring import selectors, services  # noqa: E402
from scoring.setup.builders import evening_with_players, play_round  # noqa: E402


def evening_with(players: int):
    """An evening of ``players`` (the same builder as the tests'), session 1 drawn, round 1 played."""
    evening = evening_with_players(players, name=f"Bench {players}", player_name=f"Spielerin {players}-{{n}}", clubs=7)
    play_round(services.draw_session(evening=evening, seed=players), 1, random.Random(players))
    return evening


def queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as context:
        response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return len(context.captured_queries)


def timings_ms(action, repeat: int) -> list[float]:
    """The times of ``repeat`` calls of ``action`` after one warm-up call, in milliseconds."""
    action()  # warm-up
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    return times


def median_ms(action, repeat: int) -> float:
    return statistics.median(timings_ms(action, repeat))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=60)
    repeat = parser.parse_args().repeat
    call_command("migrate", verbosity=0)
    user = get_user_model().objects.create_superuser("bench", password="bench-bench-bench")
    organiser = Client()
    organiser.force_login(user)
    organiser.get(reverse("organiser:evening_list"))  # the login's copy (scoring.hall.auth_backends), as after any page
    tablet = Client()

    evenings = {}
    for players in (24, 200):
        evening = evening_with(players)
        evenings[players] = evening
        table = evening.tables.get(number=1)
        pages = {
            "evening page": reverse("organiser:evening_detail", args=[evening.pk]),
            "live overview (dashboard)": reverse("organiser:live", args=[evening.pk]),
            "ranking page": reverse("organiser:ranking", args=[evening.pk]),
            "scorer page": reverse("scorer:table", args=[table.token]),
        }
        for name, url in pages.items():
            client = tablet if name == "scorer page" else organiser
            print(f"queries {name} {players} players: {queries(client, url)}")

    evening = evenings[200]
    table = evening.tables.get(number=1)
    seating = selectors.current_seating(table)
    deal_url = reverse("scorer:deal", args=[table.token, 1])
    ranking_url = reverse("organiser:ranking", args=[evening.pk])
    flip = {"n": 0}

    def entry_data() -> dict:
        flip["n"] += 1
        # Each entry changes the deal: the form carries the version it was made from.
        return {
            "seating": seating.pk,
            "winner": "AB"[flip["n"] % 2],
            "bonus_a": 0,
            "bonus_b": 0,
            "version": flip["n"] - 1,
        }

    def entry():
        response = tablet.post(deal_url, entry_data())
        assert response.status_code == 302, response.status_code

    with CaptureQueriesContext(connection) as context:
        entry()
    print(f"queries deal entry 200 players: {len(context.captured_queries)}")
    report(
        "in process",
        median_ms(lambda: tablet.get("/bench/bare/"), repeat),
        median_ms(entry, repeat),
        median_ms(lambda: organiser.get(ranking_url), repeat),
    )

    large_field(organiser, max(5, repeat // 6))

    session_id = organiser.cookies["sessionid"].value
    connection.close()
    with gunicorn() as http:
        http.get("/bench/bare/")
        scorer_page = http.get(reverse("scorer:table", args=[table.token]))
        csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', scorer_page).group(1)

        def http_entry():
            http.post(deal_url, {**entry_data(), "csrfmiddlewaretoken": csrf}, expect=302)

        bare_ms = median_ms(lambda: http.get("/bench/bare/"), repeat)
        entry_ms = median_ms(http_entry, repeat)
        http.cookies["sessionid"] = session_id
        ranking_ms = median_ms(lambda: http.get(ranking_url), repeat)
    report("gunicorn", bare_ms, entry_ms, ranking_ms)


def large_field(organiser: Client, repeat: int) -> None:
    """The pages that grow with the field, at 1,000 players (session 1 drawn, round 1
    played), in process: the evening page computed afresh (its version bumped, the shared
    cache emptied before each request) and the table list PDF of session 1; best and median."""
    from django.core.cache import caches
    from django.db.models import F

    from scoring.models import Evening

    if os.environ.get("BENCH_QUICK"):
        return
    evening = evening_with(1000)
    evening_url = reverse("organiser:evening_detail", args=[evening.pk])
    table_list_url = reverse("organiser:table_list_pdf", args=[evening.pk, 1])

    def fresh_evening_page():
        Evening.objects.filter(pk=evening.pk).update(version=F("version") + 1)
        caches["screens"].clear()
        assert organiser.get(evening_url).status_code == 200

    def table_list():
        response = organiser.get(table_list_url)
        assert response.status_code == 200 and b"".join(response.streaming_content).startswith(b"%PDF")

    for name, action, aim in (("evening page", fresh_evening_page, 100), ("table list PDF", table_list, 600)):
        times = timings_ms(action, repeat)
        print(
            f"in process: {name} (1,000 players): best {min(times):.0f} ms, median {statistics.median(times):.0f} ms"
            f" (aim < {aim} ms)"
        )


def report(how: str, bare_ms: float, entry_ms: float, ranking_ms: float) -> None:
    print(f"{how}: bare view: {bare_ms:.2f} ms")
    print(f"{how}: deal entry (200 players): {entry_ms:.2f} ms")
    print(f"{how}: ranking page (200 players): {ranking_ms:.2f} ms")
    print(f"{how}: ratio deal entry / bare view: {entry_ms / bare_ms:.2f} (aim <= 1.5)")
    print(f"{how}: ratio ranking page / bare view: {ranking_ms / bare_ms:.2f} (aim <= 3)")


class Http:
    """A keep-alive HTTP/1.1 client for one server, with cookies (csrftoken, sessionid)."""

    def __init__(self, port: int):
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.cookies: dict[str, str] = {}

    def _send(self, method: str, url: str, body: str | None, expect: int) -> str:
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        if body is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["Referer"] = "http://127.0.0.1/"
        self.connection.request(method, url, body=body, headers=headers)
        response = self.connection.getresponse()
        text = response.read().decode()
        for header in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = header.partition("=")
            self.cookies[name] = rest.split(";")[0]
        assert response.status == expect, (method, url, response.status, text[:300])
        return text

    def get(self, url: str) -> str:
        return self._send("GET", url, None, 200)

    def post(self, url: str, data: dict, expect: int) -> str:
        return self._send("POST", url, urllib.parse.urlencode(data), expect)


@contextlib.contextmanager
def gunicorn():
    """gunicorn serving this benchmark's database on a free port of 127.0.0.1; stopped afterwards."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [
            str(Path(sys.executable).parent / "gunicorn"),
            "bruus_tournament.wsgi",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            "1",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise RuntimeError("gunicorn did not start") from None
                time.sleep(0.2)
        yield Http(port)
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
