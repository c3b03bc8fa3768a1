"""The season ranking (Jahreswertung) of 40 evenings x 60 players: query count and time.

Run: ``make bench`` or ``.venv/bin/python bench/bench_season.py [--repeat N]``.

Builds, in a throw-away SQLite database (``DATA_DIR`` is a temporary folder; nothing touches
``var/``), 40 fully played evenings of 60 players in the Schwesing format (3 sessions of 4
rounds of 4 deals at 15 tables, every round confirmed: 28,800 deals) with bulk inserts, not
through the services (that would take minutes; the services are proven by
``tests/services/test_seasons.py``). Then prints, one figure per line:

- the SQL queries of the season ranking (``scoring.selectors.season_ranking``) for a season of 4
  and of 40 evenings (they must be equal), and of the season page for both;
- the median time of the season ranking of 40 evenings, of the evening ranking of one evening
  (``scoring.selectors.evening_ranking``), and their ratio; and the same for the two pages.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ["DJANGO_SETTINGS_MODULE"] = "bench.bench_settings"
os.environ["DATA_DIR"] = tempfile.mkdtemp(prefix="bruus-bench-season-")
os.environ["DEBUG"] = "false"
os.environ["ALLOWED_HOSTS"] = "testserver,127.0.0.1"

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.urls import reverse  # noqa: E402
from django.utils import timezone  # noqa: E402

from scoring import selectors, services  # noqa: E402
from scoring.domain.names import match_key  # noqa: E402
from scoring.hall.table_codes import new_table_code  # noqa: E402
from scoring.models import (  # noqa: E402
    Deal,
    Evening,
    Participant,
    Partnership,
    Player,
    Round,
    Seating,
    Session,
    Table,
    new_table_token,
)

PLAYERS = 60
EVENINGS = 40
SESSIONS, ROUNDS, DEALS = 3, 4, 4


@transaction.atomic
def build(rng: random.Random) -> list[Evening]:
    """40 evenings, each with 56 to 60 of the 60 players (a multiple of 4: nobody sits out), all
    played and confirmed, inserted in bulk."""
    players = Player.objects.bulk_create(
        [
            Player(
                name=f"Spielerin {n:02d}",
                club=f"Verein {n % 7}",
                match_key=match_key(f"Spielerin {n:02d}", f"Verein {n % 7}"),
            )
            for n in range(PLAYERS)
        ]
    )
    evenings = Evening.objects.bulk_create(
        [
            Evening(
                name=f"Abend {n + 1}",
                date=date(2026, 1, 1) + timedelta(days=7 * n),
                sessions_count=SESSIONS,
                rounds_per_session=ROUNDS,
                deals_per_round=DEALS,
            )  # fmt: skip
            for n in range(EVENINGS)
        ]
    )
    now = timezone.now()
    present = {e.pk: rng.sample(players, rng.choice((56, 60))) for e in evenings}
    Participant.objects.bulk_create([Participant(evening=e, player=p) for e in evenings for p in present[e.pk]])
    tables = Table.objects.bulk_create(
        [
            Table(evening=e, number=n, token=new_table_token(), code=new_table_code())
            for e in evenings
            for n in range(1, PLAYERS // 4 + 1)
        ]
    )
    table_of = {(t.evening_id, t.number): t for t in tables}
    sessions = Session.objects.bulk_create(
        [Session(evening=e, number=n, seed=n) for e in evenings for n in range(1, SESSIONS + 1)]
    )
    pairs = []
    for session in sessions:
        people = list(present[session.evening_id])
        rng.shuffle(people)
        pairs += [
            Partnership(session=session, number=i + 1, player_1=people[2 * i], player_2=people[2 * i + 1])
            for i in range(len(people) // 2)
        ]
    pairs = Partnership.objects.bulk_create(pairs)
    by_session: dict[int, list[Partnership]] = {}
    for pair in pairs:
        by_session.setdefault(pair.session_id, []).append(pair)
    rounds = Round.objects.bulk_create([Round(session=s, number=n) for s in sessions for n in range(1, ROUNDS + 1)])
    session_of = {s.pk: s for s in sessions}
    seatings = []
    for r in rounds:
        teams = list(by_session[r.session_id])
        rng.shuffle(teams)
        evening_id = session_of[r.session_id].evening_id
        for t in range(len(teams) // 2):
            seatings.append(
                Seating(
                    round=r,
                    table=table_of[(evening_id, t + 1)],
                    team_a=teams[2 * t],
                    team_b=teams[2 * t + 1],
                    entered_at=now,
                    entered_by="A",
                    confirmed_at=now,
                )  # fmt: skip
            )
    seatings = Seating.objects.bulk_create(seatings)
    deals = []
    for seating in seatings:
        for n in range(1, DEALS + 1):
            winner = rng.choice("AB")
            points = 2 if rng.random() < 0.1 else 1
            bonus_a, bonus_b = rng.choice(((0, 0), (0, 0), (0, 0), (1, 0), (0, 1), (0, 2)))
            deals.append(
                Deal(
                    seating=seating,
                    number=n,
                    winner=winner,
                    bonus_a=bonus_a,
                    bonus_b=bonus_b,
                    points_a=(points if winner == "A" else 0) + bonus_a,
                    points_b=(points if winner == "B" else 0) + bonus_b,
                )  # fmt: skip
            )
    Deal.objects.bulk_create(deals, batch_size=2000)
    return evenings


def median_ms(action, repeat: int) -> float:
    action()  # warm-up
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def count(action) -> int:
    with CaptureQueriesContext(connection) as context:
        action()
    return len(context.captured_queries)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    repeat = parser.parse_args().repeat
    call_command("migrate", verbosity=0)
    start = time.perf_counter()
    evenings = build(random.Random(13))
    print(f"set-up {EVENINGS} evenings x {PLAYERS} players (bulk inserts): {time.perf_counter() - start:.1f} s")
    user = get_user_model().objects.create_superuser("bench", "", "bench-bench-bench")
    client = Client()
    client.force_login(user)

    def page(url: str):
        def get():
            response = client.get(url)
            assert response.status_code == 200, (url, response.status_code)

        return get

    settings = {"year": 2026, "scoring": "points"}
    small = services.save_season(
        name="Vier", planned_evenings=4, best_of=3, min_evenings=2, evening_ids=[e.pk for e in evenings[:4]], **settings
    )
    queries_4 = count(lambda: selectors.season_ranking(small))
    page_4 = count(page(reverse("organiser:season_detail", args=[small.pk])))
    small.delete()
    season = services.save_season(
        name="Vierzig",
        planned_evenings=EVENINGS,
        best_of=30,
        min_evenings=10,
        evening_ids=[e.pk for e in evenings],
        **settings,
    )
    queries_40 = count(lambda: selectors.season_ranking(season))
    page_40 = count(page(reverse("organiser:season_detail", args=[season.pk])))
    print(f"queries season ranking 4 evenings: {queries_4}")
    print(f"queries season ranking 40 evenings: {queries_40}")
    print(f"queries season page 4 evenings: {page_4}")
    print(f"queries season page 40 evenings: {page_40}")
    assert queries_4 == queries_40 and page_4 == page_40, "the season's query count grows with its evenings"
    ranking = selectors.season_ranking(season)
    assert len(ranking.evenings) == EVENINGS and len(ranking.lines) == PLAYERS

    evening = evenings[0]
    season_ms = median_ms(lambda: selectors.season_ranking(season), repeat)
    evening_ms = median_ms(lambda: selectors.evening_ranking(evening), repeat)
    print(f"season ranking {EVENINGS} evenings x {PLAYERS} players: {season_ms:.0f} ms (median of {repeat})")
    print(f"evening ranking 1 evening x {PLAYERS} players: {evening_ms:.0f} ms")
    print(f"ratio season / evening: {season_ms / evening_ms:.1f} (for {EVENINGS} times the data)")
    season_page = median_ms(page(reverse("organiser:season_detail", args=[season.pk])), repeat)
    evening_page = median_ms(page(reverse("organiser:ranking", args=[evening.pk])), repeat)
    print(f"season page {EVENINGS} evenings: {season_page:.0f} ms; evening ranking page: {evening_page:.0f} ms; "
          f"ratio {season_page / evening_page:.1f}")  # fmt: skip


if __name__ == "__main__":
    main()
