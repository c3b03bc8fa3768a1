"""Seasons: settings refused when they cannot work, the season ranking
with a fixed number of queries, the demo season, and the proof: a season of 8 evenings with
changing attendance, checked against sums the test works out itself. The season's pages, PDF and
spreadsheets: tests/views/test_season_pages.py."""

from __future__ import annotations

import random
from collections import defaultdict
from datetime import date, timedelta
from fractions import Fraction

import pytest

from scoring import selectors, services
from scoring.domain.errors import DomainError
from scoring.models import Deal, Evening, Player, Season, SeasonEvening
from scoring.setup.demo import play_evening

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


# --- The season ranking: queries and values (its pages: tests/views/test_season_pages.py) -------


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
