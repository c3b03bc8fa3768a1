"""Seasons: settings refused when they cannot work, the season ranking
with a fixed number of queries, its pages, PDF and spreadsheets, the demo season, and the proof: a
season of 8 evenings with changing attendance, checked against sums the test works out itself."""

from __future__ import annotations

import io
import random
from collections import defaultdict
from datetime import date, timedelta
from fractions import Fraction

import pytest
from django.urls import reverse
from openpyxl import load_workbook
from pypdf import PdfReader

from scoring import selectors, services
from scoring.documents.season import build_season_ranking
from scoring.domain.errors import DomainError
from scoring.domain.rules import DealResult
from scoring.domain.tiebreaks import Criterion
from scoring.models import Deal, Evening, Player, Season, SeasonEvening, Seating
from scoring.setup.demo import play_evening
from tests import factories
from tests.pdf_check import Box, problems
from tests.tracing import pdf_texts

SHORT = {"sessions_count": 1, "rounds_per_session": 2, "deals_per_round": 1}


def pool(count: int) -> list[Player]:
    return [services.add_player(name=f"Spieler {n:02d}", club=f"Verein {n % 3}")[0] for n in range(1, count + 1)]


def played_evening(players, day: int, seed: int, **format_) -> Evening:
    """An evening of ``players`` (a multiple of 4: nobody sits out), every round played and confirmed."""
    evening = services.create_evening(
        name=f"Abend {day}", date=date(2026, 1, 1) + timedelta(days=day), **(format_ or SHORT)
    )
    for player in players:
        services.set_checked_in(evening=evening, player=player, checked_in=True)
    play_evening(evening, random.Random(seed))
    return evening


def season_with(evenings, **settings) -> Season:
    values = {"name": "Jahreswertung", "year": 2026, "scoring": "sum", "planned_evenings": len(evenings)}
    values.update(settings)
    return services.save_season(evening_ids=[e.pk for e in evenings], **values)


# --- Settings that cannot work: a clear message, nothing changed ------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"best_of": 5}, "best_of"),
        ({"min_evenings": 0}, "min_evenings"),
        ({"scoring": "points", "placement_points": (10, -2)}, "points_negative"),
        ({"scoring": "points", "placement_points": (5, 10)}, "points_rising"),
        ({"planned_evenings": 1}, "too_many_evenings"),
        ({"name": "  "}, "name"),
    ],
)
def test_bad_settings_are_refused_and_nothing_changes(change, code):
    evenings = [services.create_evening(name=f"A{n}", date=date(2026, 1, n)) for n in (1, 2)]
    season = season_with(evenings, planned_evenings=4)
    third = services.create_evening(name="A3", date=date(2026, 1, 3))
    settings = {"name": "Jahreswertung", "year": 2026, "scoring": "sum", "planned_evenings": 4, **change}
    with pytest.raises(DomainError) as caught:
        services.save_season(season=season, evening_ids=[evenings[0].pk, third.pk], **settings)
    assert caught.value.code == code
    season.refresh_from_db()
    assert (season.name, season.best_of, season.planned_evenings) == ("Jahreswertung", None, 4)
    assert set(season.links.values_list("evening_id", flat=True)) == {e.pk for e in evenings}


@pytest.mark.django_db
def test_an_evening_belongs_to_one_season_only():
    evening = services.create_evening(name="Januar", date=date(2026, 1, 10))
    first = season_with([evening], name="Jahreswertung 2026")
    with pytest.raises(DomainError) as caught:
        services.save_season(name="Wintercup", year=2026, scoring="sum", evening_ids=[evening.pk])
    assert caught.value.code == "evening_taken"
    assert "Jahreswertung 2026" in str(caught.value)
    assert Season.objects.count() == 1 and SeasonEvening.objects.get().season == first


@pytest.mark.django_db
def test_the_form_shows_the_placement_table_error_in_german_and_saves_nothing(organiser_client):
    evening = services.create_evening(name="Januar", date=date(2026, 1, 10))
    data = {
        "name": "Jahreswertung",
        "year": "2026",
        "scoring": "points",
        "placement_points": "25, 20, , 13",
        "min_evenings": "1",
        "planned_evenings": "12",
        "evenings": [evening.pk],
    }
    response = organiser_client.post(reverse("organiser:season_create"), data)
    assert response.status_code == 200
    assert "Die Punkte für Platz 3 fehlen" in response.content.decode()
    data["placement_points"] = "25, 20, 16"
    data["best_of"] = "１"  # a full-width digit is no number here
    response = organiser_client.post(reverse("organiser:season_create"), data)
    assert "ganze Zahl" in response.content.decode()
    assert not Season.objects.exists()
    data["best_of"] = "13"
    response = organiser_client.post(reverse("organiser:season_create"), data)
    assert "zwischen 1 und den 12 geplanten Abenden" in response.content.decode()
    assert not Season.objects.exists()
    data["best_of"] = ""
    response = organiser_client.post(reverse("organiser:season_create"), data)
    season = Season.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("organiser:season_detail", args=[season.pk])
    assert season.placement_points == [25, 20, 16] and list(season.evenings.all()) == [evening]


# --- The season ranking: queries, pages, PDF, spreadsheets ------------------------------------


@pytest.mark.django_db
@pytest.mark.no_cover  # the season's code for more evenings: measured by the season's own tests (tests/conftest.py)
def test_season_ranking_queries_do_not_grow_with_evenings(django_assert_num_queries):
    players = pool(8)
    evenings = [played_evening(players, day, seed=day) for day in range(7)]
    two = season_with(evenings[:2], name="Zwei")
    five = season_with(evenings[2:], name="Fünf")
    for season, count in ((two, 2), (five, 5)):
        with django_assert_num_queries(6):
            ranking = selectors.season_ranking(season)
        assert len(ranking.evenings) == count and len(ranking.lines) == 8
        assert all(line.played == count for line in ranking.lines)


@pytest.mark.django_db
def test_each_evening_in_the_season_is_ranked_as_on_its_own_ranking_page():
    players = pool(12)
    evenings = [played_evening(players[:8], 1, seed=1), played_evening(players, 2, seed=2)]
    ranking = selectors.season_ranking(season_with(evenings))
    for index, evening in enumerate(evenings):
        own = {row.player.pk: (row.total, row.place) for row in selectors.evening_ranking(evening)}
        season = {
            line.player.pk: (line.cells[index].result.total, line.cells[index].result.place)
            for line in ranking.lines
            if index in line.cells
        }
        assert season == own


@pytest.fixture
def small_season(db):
    """Three evenings of 8 players of a pool of 12; best 2 count, ranked from 2 evenings."""
    players = pool(12)
    evenings = [
        played_evening(players[:8], 1, seed=1),
        played_evening(players[4:], 2, seed=2),
        played_evening(players[:8], 3, seed=3),
    ]
    extra = services.create_evening(name="Noch nicht gespielt", date=date(2026, 2, 1))
    return season_with([*evenings, extra], best_of=2, min_evenings=2, planned_evenings=4)


def test_the_season_page_strikes_dropped_results_and_lists_the_unranked_below(organiser_client, small_season):
    ranking = selectors.season_ranking(small_season)
    assert ranking.any_dropped and ranking.unranked and not ranking.final
    page = organiser_client.get(reverse("organiser:season_detail", args=[small_season.pk])).content.decode()
    assert 'class="num dropped"' in page
    dropped = next(c for line in ranking.lines for c in line.cells.values() if c.dropped)
    assert f">({dropped.value})</td>" in page
    assert "Noch nicht gewertet (weniger als 2 Abende)" in page
    assert 'data-testid="season-provisional"' in page
    assert page.index(ranking.ranked[-1].player.name) < page.index(ranking.unranked[0].player.name)
    screen = organiser_client.get(reverse("public:season_screen", args=[small_season.pk])).content.decode()
    assert ranking.ranked[0].player.name in screen and "vorläufig" in screen


def test_public_player_pages_only_when_the_season_allows_them(client, small_season):
    """Players' pages of a season are public only when the organiser allows it; then the season
    screen links each name to the player's evenings of this season (and no other evening)."""
    ranking = selectors.season_ranking(small_season)
    first = ranking.ranked[0].player
    page_url = reverse("public:season_player", args=[small_season.pk, first.pk])
    screen_url = reverse("public:season_screen", args=[small_season.pk])
    assert client.get(page_url).status_code == 404
    assert page_url not in client.get(screen_url).content.decode()

    regulars = [p for p in pool(16) if p != first]
    other = played_evening([*regulars[-7:], first], 40, seed=9)  # first plays it, not in the season
    small_season.public_player_pages = True
    small_season.save()
    assert page_url in client.get(screen_url).content.decode()
    page = client.get(page_url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert first.name in page and small_season.name in page and "<svg" in page
    line = next(line for line in ranking.lines if line.player == first)
    played = {ranking.evenings[i].evening.name for i in line.cells}
    assert played and all(f"<td>{name}</td>" in page for name in played)
    assert "<td>Abend 40</td>" not in page and other.name == "Abend 40"  # only the season's evenings
    assert "/organiser/" not in page  # no organiser links on a public page

    never = services.add_player(name="Nie Dabei", club="")[0]
    assert client.get(reverse("public:season_player", args=[small_season.pk, never.pk])).status_code == 404


def test_season_spreadsheets(organiser_client, small_season):
    ranking = selectors.season_ranking(small_season)
    url = reverse("organiser:season_detail", args=[small_season.pk])
    csv = organiser_client.get(url + "?_export=csv")
    assert csv["Content-Type"].startswith("text/csv") and "Saisonwertung" in csv["Content-Disposition"]
    text = csv.content.decode("utf-8-sig").splitlines()
    assert text[0].startswith("Platz;Name;Verein;1 · ") and text[0].endswith(";Abende;Gesamt")  # German Excel
    first = ranking.lines[0]
    assert text[1].startswith(f"{first.place}.") and first.player.name in text[1]
    assert any("(" in line for line in text[1:])  # dropped results in brackets
    xlsx = organiser_client.get(url + "?_export=xlsx")
    sheet = load_workbook(io.BytesIO(xlsx.content)).active
    assert sheet.cell(2, 1).value == first.place
    assert sheet.cell(2, 5 + len(ranking.evenings)).value == int(first.total)
    # Named as the season's PDF, another extension.
    pdf = organiser_client.get(reverse("organiser:season_pdf", args=[small_season.pk]))["Content-Disposition"]
    for response, extension in ((csv, "csv"), (xlsx, "xlsx")):
        stem, found = response["Content-Disposition"].split("filename*=utf-8''")[1].rsplit(".", 1)
        assert found == extension and stem.startswith("Saisonwertung")
        assert stem == pdf.split("filename*=utf-8''")[1].rsplit(".", 1)[0]


def test_season_pdf_fits_portrait_and_landscape(organiser_client, small_season):
    response = organiser_client.get(reverse("organiser:season_pdf", args=[small_season.pk]))
    assert response["Content-Type"] == "application/pdf"
    data = b"".join(response.streaming_content)
    page = PdfReader(io.BytesIO(data)).pages[0]
    assert float(page.mediabox.width) < float(page.mediabox.height)  # 4 evenings: portrait
    width, height = float(page.mediabox.width), float(page.mediabox.height)
    assert problems(data, [Box(0, 0, width, height)]) == []
    text = pdf_texts(data)[0]
    assert "Saisonwertung (vorläufig)" in text and "VORLÄUFIG" in text
    # Twelve evenings: landscape, every column on the page.
    evenings = [services.create_evening(name=f"Abend {n}", date=date(2026, 3, n)) for n in range(1, 9)]
    services.save_season(
        season=small_season,
        name="Jahreswertung",
        year=2026,
        scoring="sum",
        planned_evenings=12,
        evening_ids=[*small_season.links.values_list("evening_id", flat=True), *(e.pk for e in evenings)],
    )
    ranking = selectors.season_ranking(small_season)
    assert len(ranking.evenings) == 12
    data = build_season_ranking(ranking)
    page = PdfReader(io.BytesIO(data)).pages[0]
    width, height = float(page.mediabox.width), float(page.mediabox.height)
    assert width > height
    assert problems(data, [Box(0, 0, width, height)]) == []
    text = pdf_texts(data)[0]
    assert "Abend 8" in text and "12\n" in text


@pytest.mark.django_db
def test_a_season_without_results_prints_nothing_and_says_why(organiser_client):
    season = season_with([services.create_evening(name="Januar", date=date(2026, 1, 10))])
    response = organiser_client.get(reverse("organiser:season_pdf", args=[season.pk]))
    assert response.status_code == 302
    page = organiser_client.get(response["Location"]).content.decode()
    assert "noch keine Saisonwertung zu drucken" in page


@pytest.mark.django_db
def test_the_evening_page_links_to_its_season(organiser_client):
    evening = services.create_evening(name="Januar", date=date(2026, 1, 10))
    page = organiser_client.get(reverse("organiser:evening_detail", args=[evening.pk])).content.decode()
    assert "Nicht in einer Saison" in page
    season = season_with([evening], name="Jahreswertung 2026")
    page = organiser_client.get(reverse("organiser:evening_detail", args=[evening.pk])).content.decode()
    assert reverse("organiser:season_detail", args=[season.pk]) in page
    page = organiser_client.get(reverse("organiser:evening_list")).content.decode()
    assert reverse("organiser:season_list") in page


# --- The demo -----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_demo_has_a_season_of_three_played_evenings_and_the_demo_evening(settings):
    from scoring.setup.demo import DEMO_EVENING, DEMO_SEASON, load_demo
    from tests.conftest import ROSTER

    evening, _ = load_demo(ROSTER)
    season = Season.objects.get(name=DEMO_SEASON)
    ranking = selectors.season_ranking(season)
    assert [e.confirmed for e in ranking.evenings] == [True, True, True, False]
    assert ranking.evenings[-1].evening.name == DEMO_EVENING
    attendance = [e.players for e in ranking.evenings[:3]]
    assert len(set(attendance)) > 1 and max(attendance) < 26  # some players missing each time
    assert ranking.ranked and ranking.any_dropped and not ranking.final
    Season.objects.all().delete()
    load_demo(ROSTER)  # an older demo database gets its season on the next make run
    assert Season.objects.filter(name=DEMO_SEASON).exists()


# --- The proof: 8 evenings, changing attendance ------------------------------------------------


def own_totals(evening: Evening) -> dict[int, int]:
    """Player id -> matchsticks, summed by this test from the deals (no sit-outs here)."""
    totals: dict[int, int] = defaultdict(int)
    deals = Deal.objects.filter(seating__round__session__evening=evening).select_related(
        "seating__team_a", "seating__team_b"
    )
    for deal in deals:
        for team, points in ((deal.seating.team_a, deal.points_a), (deal.seating.team_b, deal.points_b)):
            totals[team.player_1_id] += points
            totals[team.player_2_id] += points
    return totals


@pytest.mark.django_db
def test_proof_a_season_of_eight_evenings_with_changing_attendance():
    rng = random.Random(13)
    players = pool(12)
    regulars, rare = players[:10], players[10:]
    evenings = []
    for day in range(8):
        # Evenings 3 and 6: everybody (12); the others: 8 of the 10 regulars, drawn at random.
        present = regulars + rare if day in (3, 6) else rng.sample(regulars, 8)
        evenings.append(played_evening(present, day, seed=day))
    played_by = defaultdict(list)
    per_evening = [own_totals(e) for e in evenings]
    for index, totals in enumerate(per_evening):
        for pid in totals:
            played_by[pid].append(index)
    assert len({len(t) for t in per_evening}) > 1, "attendance must change"
    assert {len(played_by[p.pk]) for p in rare} == {2}

    def places(totals):  # 1 + number of players with more matchsticks (shared places)
        return {pid: 1 + sum(1 for other in totals.values() if other > total) for pid, total in totals.items()}

    table = (10, 8, 6, 5, 4, 3, 2, 1)
    for scoring in ("points", "sum", "average"):
        season = Season.objects.filter(name="Proof").first()
        season = services.save_season(
            season=season,
            name="Proof",
            year=2026,
            scoring=scoring,
            placement_points=table,
            best_of=5,
            min_evenings=4,
            planned_evenings=8,
            evening_ids=[e.pk for e in evenings],
        )
        expected = {}
        for pid, indexes in played_by.items():
            values = []
            for index in indexes:
                total = per_evening[index][pid]
                if scoring == "points":
                    place = places(per_evening[index])[pid]
                    total = table[place - 1] if place <= len(table) else 0
                values.append((Fraction(total), index))
            kept = sorted(values)[-5:] if len(values) > 5 else values
            dropped = {index for _, index in values} - {index for _, index in kept}
            counted = sum(v for v, _ in kept)
            if scoring == "average":
                counted /= len(kept)
            expected[pid] = (counted, dropped, len(indexes) >= 4)
        ranking = selectors.season_ranking(season)
        assert ranking.final
        got = {
            line.player.pk: (line.total, {i for i, c in line.cells.items() if c.dropped}, line.ranked)
            for line in ranking.lines
        }
        assert got == expected, scoring
        ranked = [line for line in ranking.lines if line.ranked]
        for line in ranked:
            assert line.place == 1 + sum(1 for other in ranked if other.total > line.total)
        assert all(not line.ranked for line in ranking.lines[len(ranked) :])
        assert {p.pk for p in rare} <= {line.player.pk for line in ranking.unranked}


@pytest.mark.django_db
def test_a_season_tie_break_chain_is_saved_from_the_form_and_separates_equal_values(organiser_client):
    players = pool(8)
    evening = services.create_evening(
        name="Gleichstand", date=date(2026, 1, 5), sessions_count=1, rounds_per_session=1, deals_per_round=1
    )
    for player in players:
        services.set_checked_in(evening=evening, player=player, checked_in=True)
    # Team A wins its deal (1), team B dares successfully (1): everybody has 1 matchstick, only
    # team A has won a deal.
    session = services.draw_session(evening=evening, seed=41)
    winners = set()
    for seating in Seating.objects.filter(round__session=session).select_related("table", "team_a"):
        result = DealResult(winner="A", to_nil=False, bonus_a=0, bonus_b=1)
        factories.enter_deal(seating, 1, result=result)
        services.enter_and_confirm_seating(seating_id=seating.pk, table=seating.table)
        winners |= {seating.team_a.player_1_id, seating.team_a.player_2_id}
    season = season_with([evening], planned_evenings=1)
    ranking = selectors.season_ranking(season)
    assert {line.total for line in ranking.lines} == {1} and {line.place for line in ranking.lines} == {1}
    data = {
        "name": "Jahreswertung",
        "year": "2026",
        "scoring": "sum",
        "min_evenings": "1",
        "planned_evenings": "1",
        "tiebreak_1": "deals_won",
        "tiebreak_2": "deals_won",
        "evenings": [evening.pk],
    }
    url = reverse("organiser:season_edit", args=[season.pk])
    response = organiser_client.post(url, data)
    assert "nur einmal" in response.content.decode()  # the same tie-break twice: refused
    season.refresh_from_db()
    assert season.tie_break == ""
    data["tiebreak_2"] = "best_session"
    assert organiser_client.post(url, data).status_code == 302
    season.refresh_from_db()
    assert season.tie_break == "deals_won,best_session"
    lines = selectors.season_ranking(season).lines
    assert [(line.player.pk in winners, line.place, line.shared) for line in lines] == [
        *[(True, 1, True)] * 4,
        *[(False, 5, True)] * 4,
    ]
    assert [line.ahead_by for line in lines] == [None, None, None, Criterion.DEALS_WON, None, None, None, None]
    page = organiser_client.get(reverse("organiser:season_detail", args=[season.pk])).content.decode()
    assert "in dieser Reihenfolge" in page
    assert page.count('class="meta tiebreak"') == 1
    assert f"vor {lines[4].player.name}" in page


@pytest.mark.django_db
def test_a_season_comes_back_with_a_backup_of_the_database():
    from scoring import backup
    from tests.backup.test_backup import wipe

    players = pool(8)
    evenings = [played_evening(players, day, seed=day) for day in (1, 2)]
    season = season_with(evenings, scoring="points", placement_points=(5, 3, 1), best_of=1, tie_break="deals_won")
    before = selectors.season_ranking(season)
    document = backup.export_database()
    wipe()
    assert not Season.objects.exists()
    backup.restore(document)
    restored = Season.objects.get()
    assert (restored.placement_points, restored.best_of, restored.tie_break) == ([5, 3, 1], 1, "deals_won")
    after = selectors.season_ranking(restored)
    assert [e.evening.name for e in after.evenings] == [e.evening.name for e in before.evenings]
    assert [(line.player.name, line.place, line.total) for line in after.lines] == [
        (line.player.name, line.place, line.total) for line in before.lines
    ]
    # The backup of one evening brings its season's settings and its own link.
    single = backup.export_evening(after.evenings[0].evening)
    assert [row["name"] for row in single["data"]["seasons"]] == ["Jahreswertung"]
    assert len(single["data"]["season_evenings"]) == 1


@pytest.mark.django_db
def test_evening_backups_of_one_season_restored_one_by_one_give_one_season():
    """The backup of each evening carries its season; restoring them one after the other on
    another machine joins them in one season (the same name and year), not one season each."""
    from scoring import backup
    from tests.backup.test_backup import wipe

    players = pool(8)
    evenings = [played_evening(players, day, seed=day) for day in (1, 2)]
    season = season_with(evenings, scoring="points", placement_points=(5, 3, 1))
    before = selectors.season_ranking(season)
    files = [backup.export_evening(evening) for evening in evenings]
    wipe()
    for document in files:
        backup.restore(document)
    restored = Season.objects.get()
    assert restored.links.count() == 2
    after = selectors.season_ranking(restored)
    assert [(line.player.name, line.place, line.total) for line in after.lines] == [
        (line.player.name, line.place, line.total) for line in before.lines
    ]


@pytest.mark.django_db
def test_a_second_copy_of_an_evening_does_not_count_twice_in_its_season():
    from scoring import backup

    players = pool(8)
    evenings = [played_evening(players, day, seed=day) for day in (1, 2)]
    season = season_with(evenings, scoring="sum")
    backup.restore(backup.export_evening(evenings[0]), allow_duplicates=True)
    assert season.links.count() == 2 and Season.objects.count() == 2
