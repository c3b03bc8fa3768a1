"""End to end: the real Schwesing roster (26 players) plays a whole evening through the organiser
and scorer pages; the final ranking is checked against totals this test computes itself."""

from __future__ import annotations

import csv
import io
import random
from collections import defaultdict
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

import pytest
from django.urls import reverse

from scoring.models import Round, Seating, Session

POSSIBLE = [(0, 0), (1, 0), (0, 1), (2, 0), (0, 2), (1, 1), (3, 0), (0, 3), (2, 1), (1, 2), (4, 0), (0, 4)]


def deal_points(winner: str, to_nil: bool, bonus_a: int, bonus_b: int) -> tuple[int, int]:
    """Schwesing scoring, written out independently of the app: 1 (2 to nil) for five tricks."""
    base = 2 if to_nil else 1
    return (bonus_a + (base if winner == "A" else 0), bonus_b + (base if winner == "B" else 0))


def one_decimal(value: Fraction) -> str:
    if value.denominator == 1:
        return str(value.numerator)
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    # Half up, as German lists do: 14.25 -> 14,3.
    return str(exact.quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)).replace(".", ",")


@pytest.mark.no_cover  # end to end: every line it runs is measured by the tests of each part (tests/conftest.py)
def test_whole_evening_through_the_pages(roster_evening, organiser_client, client):
    evening = roster_evening
    rng = random.Random(7)
    expected: dict[str, list[Fraction]] = defaultdict(lambda: [Fraction(0)] * 3)
    partners_seen: set[frozenset[str]] = set()
    scorer = client.__class__()  # a second browser: the tablets have no login

    for session_number in (1, 2, 3):
        response = organiser_client.post(reverse("organiser:session_draw", args=[evening.pk]))
        assert response.status_code == 302
        session = Session.objects.get(evening=evening, number=session_number)
        for p in session.partnerships.all():
            pair = frozenset((p.player_1.name, p.player_2.name))
            assert pair not in partners_seen, "nobody partners anyone twice"
            partners_seen.add(pair)

        for round_ in Round.objects.filter(session=session).order_by("number"):
            team_totals = []
            for seating in Seating.objects.filter(round=round_).select_related(
                "table", "team_a__player_1", "team_a__player_2", "team_b__player_1", "team_b__player_2"
            ):
                url = reverse("scorer:table", args=[seating.table.token])
                page = scorer.get(url)
                assert page.status_code == 200
                # The page shows this seating's teams by name.
                assert seating.team_a.player_1.name in page.content.decode()
                total_a = total_b = 0
                for number in range(1, 5):
                    a, b = rng.choice(POSSIBLE)
                    winner = rng.choice("AB")
                    to_nil = rng.random() < 0.15
                    data = {"seating": seating.pk, "winner": winner, "bonus_a": a, "bonus_b": b, "version": 0}
                    if to_nil:
                        data["to_nil"] = "on"
                    response = scorer.post(reverse("scorer:deal", args=[seating.table.token, number]), data)
                    assert response.status_code == 302, response.content.decode()[:500]
                    pa, pb = deal_points(winner, to_nil, a, b)
                    total_a, total_b = total_a + pa, total_b + pb
                page = scorer.get(url).content.decode()
                assert f'data-testid="total-a">{total_a}<' in page
                assert f'data-testid="total-b">{total_b}<' in page
                # The scorer finishes the round for their team; the other team confirms it.
                scorer_team = rng.choice("AB")
                response = scorer.post(
                    reverse("scorer:finish", args=[seating.table.token]), {"seating": seating.pk, "team": scorer_team}
                )
                assert response.status_code == 302
                response = scorer.post(
                    reverse("scorer:confirm", args=[seating.table.token]),
                    {"seating": seating.pk, "team": "B" if scorer_team == "A" else "A"},
                )
                assert response.status_code == 302
                seating.refresh_from_db()
                assert seating.confirmed_at is not None
                for team, total in ((seating.team_a, total_a), (seating.team_b, total_b)):
                    team_totals.append(total)
                    for player in (team.player_1, team.player_2):
                        expected[player.name][session_number - 1] += total
            # 26 players: 13 partnerships, one sits out each round, credited the average.
            assert round_.sitout_partnership is not None
            average = Fraction(sum(team_totals), len(team_totals))
            for player in (round_.sitout_partnership.player_1, round_.sitout_partnership.player_2):
                expected[player.name][session_number - 1] += average

    # No player sat out twice: 12 sit-out partnerships = 24 distinct players.
    sitters = [
        name
        for r in Round.objects.filter(session__evening=evening)
        for name in (r.sitout_partnership.player_1.name, r.sitout_partnership.player_2.name)
    ]
    assert len(sitters) == 24 == len(set(sitters))

    response = organiser_client.get(reverse("organiser:ranking", args=[evening.pk]) + "?_export=csv")
    assert response.status_code == 200
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig")), delimiter=";"))
    assert len(rows) == 26
    by_name = {row["Name"]: row for row in rows}
    for name, sessions in expected.items():
        row = by_name[name]
        assert [row[f"Durchgang {n}"] for n in (1, 2, 3)] == [one_decimal(s) for s in sessions]
        assert row["Gesamt"] == one_decimal(sum(sessions))
    # Places: sorted by exact total, equal totals share a place.
    totals = sorted(((sum(s), n) for n, s in expected.items()), key=lambda t: -t[0])
    for name_total, name in totals:
        place = 1 + sum(1 for t, _ in totals if t > name_total)
        assert int(by_name[name]["Platz"]) == place

    # The evening is complete: no fourth session, the ranking is final.
    page = organiser_client.get(reverse("organiser:ranking", args=[evening.pk])).content.decode()
    assert "Endstand" in page or "Final ranking" in page
    response = organiser_client.post(reverse("organiser:session_draw", args=[evening.pk]), follow=True)
    assert Session.objects.filter(evening=evening).count() == 3
