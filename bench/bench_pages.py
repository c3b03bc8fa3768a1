"""Query counts and server time of the busiest pages.

Run: ``make bench`` or ``.venv/bin/python bench/bench_pages.py [--repeat N]``.

Builds evenings of 24 and 200 players in a throw-away SQLite database (``DATA_DIR`` is a temporary
folder; nothing touches ``var/``), draws session 1 and plays round 1 at every table. Then prints,
one figure per line:

- the number of SQL queries of the organiser's evening page (progress grid), the ranking page and a
  table's scorer page, for 24 and for 200 players (they must be equal);
- the median server time of a scorer's deal entry (POST, saved, redirect) and of the ranking page
  (200 players) and of a bare Django view returning a short text, all through the same WSGI handler
  in this process (Django's test client: no network, the same middleware), and their ratios
  (aim: entry at most 1.5 times, ranking at most 3 times the bare view).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bruus_tournament.settings")
os.environ["DATA_DIR"] = tempfile.mkdtemp(prefix="bruus-bench-")
os.environ["DEBUG"] = "false"
os.environ["ALLOWED_HOSTS"] = "testserver"

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.http import HttpResponse  # noqa: E402
from django.test import Client, override_settings  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.urls import include, path, reverse  # noqa: E402

from scoring import services  # noqa: E402
from scoring.demo import play_seating  # noqa: E402
from scoring.models import Seating  # noqa: E402


def bare(request):
    return HttpResponse("ok")


urlpatterns = [path("bench/bare/", bare), path("", include("bruus_tournament.urls"))]


def evening_with(players: int):
    evening = services.create_evening(name=f"Bench {players}", date=date(2026, 11, 21))
    for n in range(players):
        player, _ = services.add_player(name=f"Spielerin {players}-{n}", club=f"Verein {n % 7}")
        services.set_checked_in(evening=evening, player=player, checked_in=True)
    session = services.draw_session(evening=evening, seed=players)
    rng = random.Random(players)
    for seating in Seating.objects.filter(round__session=session, round__number=1).select_related(
        "table", "round__session__evening"
    ):
        play_seating(seating, rng)
    return evening


def queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as context:
        response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return len(context.captured_queries)


def median_ms(action, repeat: int) -> float:
    action()  # warm-up
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=60)
    repeat = parser.parse_args().repeat
    call_command("migrate", verbosity=0)
    user = get_user_model().objects.create_user("bench", password="bench-bench-bench")
    organiser = Client()
    organiser.force_login(user)
    tablet = Client()

    evenings = {}
    for players in (24, 200):
        evening = evening_with(players)
        evenings[players] = evening
        table = evening.tables.get(number=1)
        pages = {
            "evening page": reverse("organiser:evening_detail", args=[evening.pk]),
            "ranking page": reverse("organiser:ranking", args=[evening.pk]),
            "scorer page": reverse("scorer:table", args=[table.token]),
        }
        for name, url in pages.items():
            client = tablet if name == "scorer page" else organiser
            print(f"queries {name} {players} players: {queries(client, url)}")

    with override_settings(ROOT_URLCONF=__name__):
        evening = evenings[200]
        table = evening.tables.get(number=1)
        seating = services.current_seating(table)
        deal_url = reverse("scorer:deal", args=[table.token, 1])
        flip = {"n": 0}

        def entry():
            flip["n"] += 1
            data = {"seating": seating.pk, "winner": "AB"[flip["n"] % 2], "bonus_a": 0, "bonus_b": 0}
            response = tablet.post(deal_url, data)
            assert response.status_code == 302, response.status_code

        ranking_url = reverse("organiser:ranking", args=[evening.pk])
        bare_ms = median_ms(lambda: tablet.get("/bench/bare/"), repeat)
        entry_ms = median_ms(entry, repeat)
        ranking_ms = median_ms(lambda: organiser.get(ranking_url), repeat)
    print(f"server time bare view: {bare_ms:.2f} ms")
    print(f"server time deal entry (200 players): {entry_ms:.2f} ms")
    print(f"server time ranking page (200 players): {ranking_ms:.2f} ms")
    print(f"ratio deal entry / bare view: {entry_ms / bare_ms:.2f} (aim <= 1.5)")
    print(f"ratio ranking page / bare view: {ranking_ms / bare_ms:.2f} (aim <= 3)")


if __name__ == "__main__":
    main()
