"""Tie-breaks per evening: the organiser's chain on the evening page, the
ranking selector, the ranking page, the projector screen, the PDF and the CSV/XLSX exports.

The hand-made evening: 8 players, one session of one round of four deals, two tables.
Table 1: team A wins all four deals (4 matchsticks, 4 deals won, no daring and striking).
Table 2: team A wins two deals with a successful dare each (2 x (1 + 1) = 4 matchsticks, 2 deals
won, 2 from daring and striking), team B wins the other two (2 matchsticks).
So four players have 4 matchsticks: without a chain they share place 1.
"""

from __future__ import annotations

import csv
import io
import random
from collections import defaultdict
from datetime import date
from fractions import Fraction

import openpyxl
import pytest
from django.urls import reverse
from django.utils import translation

from scoring import selectors, services
from scoring.domain.tiebreaks import Criterion
from scoring.models import Deal, Evening, Round, Seating
from tests import factories
from tests.conftest import make_evening
from tests.tracing import pdf_texts

pytestmark = pytest.mark.django_db

B, D, S, F = Criterion.BEST_SESSION, Criterion.DEALS_WON, Criterion.BONUS_STICKS, Criterion.FEWEST_SITOUTS


@pytest.fixture
def tied():
    """The hand-made evening; returns (evening, table-1 team A players, table-2 team A players)."""
    evening = make_evening(8, sessions_count=1, rounds_per_session=1)
    session = services.draw_session(evening=evening, seed=3)
    first, second = (
        Seating.objects.filter(round__session=session)
        .order_by("table__number")
        .select_related(*selectors.PARTNERSHIP_PLAYERS)
    )
    factories.enter_deals(first, [factories.A_WINS] * 4, table=None)
    factories.enter_deals(
        second, [("A", False, 1, 0), ("A", False, 1, 0), ("B", False, 0, 0), ("B", False, 0, 0)], table=None
    )
    for seating in (first, second):
        services.enter_and_confirm_seating(seating_id=seating.pk)
    return evening, first.team_a.players, second.team_a.players


def places(evening) -> dict[str, tuple[int, bool]]:
    return {row.player.name: (row.place, row.shared) for row in selectors.evening_ranking(evening)}


def test_without_a_chain_equal_totals_share_a_place(tied):
    evening, winners, darers = tied
    result = places(evening)
    for player in (*winners, *darers):
        assert result[player.name] == (1, True)
    rows = {row.player.pk: row for row in selectors.evening_ranking(evening)}
    for player in winners:
        assert rows[player.pk].tiebreaks == {B: 4, D: 4, S: 0, F: 0}
    for player in darers:
        assert rows[player.pk].tiebreaks == {B: 4, D: 2, S: 2, F: 0}
    assert selectors.tiebreak_columns(evening, selectors.evening_ranking(evening)) == ()


def test_the_chain_separates_and_says_by_which_rule(tied):
    evening, winners, darers = tied
    services.set_evening_tiebreaks(evening_id=evening.pk, criteria=["best_session", "deals_won", ""])
    evening.refresh_from_db()
    rows = selectors.evening_ranking(evening)
    result = {row.player.name: (row.place, row.shared) for row in rows}
    for player in winners:  # best session equal (4), more deals won (4 against 2)
        assert result[player.name] == (1, True)
    for player in darers:
        assert result[player.name] == (3, True)
    second_winner = rows[1]
    assert second_winner.ahead_by is D and second_winner.ahead_of == rows[2].player
    assert rows[2].behind_by is D
    assert selectors.tiebreak_columns(evening, rows) == (B, D)

    services.set_evening_tiebreaks(evening_id=evening.pk, criteria=["bonus_sticks"])
    evening.refresh_from_db()
    result = places(evening)
    assert {result[p.name] for p in darers} == {(1, True)}
    assert {result[p.name] for p in winners} == {(3, True)}


def test_organiser_sets_the_chain_on_the_evening_page(organiser_client, tied):
    evening, _, _ = tied
    url = reverse("organiser:evening_detail", args=[evening.pk])
    with translation.override("de"):
        page = organiser_client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Gleichstand in der Rangliste" in page and "teilt man sich einen Platz" in page
    response = organiser_client.post(
        reverse("organiser:evening_tiebreaks", args=[evening.pk]),
        {"tiebreak": ["", "deals_won", "", "best_session"]},
        HTTP_ACCEPT_LANGUAGE="de",
    )
    assert response.status_code == 302 and response["Location"].endswith("#tiebreaks")
    evening.refresh_from_db()
    assert evening.tiebreaks == "deals_won,best_session"  # "none" skipped, order kept
    page = organiser_client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "meiste gewonnene Spiele, bester einzelner Durchgang" in page


def test_a_criterion_twice_or_unknown_is_refused_and_nothing_changes(organiser_client, tied):
    evening, _, _ = tied
    services.set_evening_tiebreaks(evening_id=evening.pk, criteria=["fewest_sitouts"])
    url = reverse("organiser:evening_tiebreaks", args=[evening.pk])
    for sent, message in (
        (["deals_won", "deals_won"], "Jedes Kriterium kann nur einmal gewählt werden."),
        (["luck"], "Bitte wählen Sie die Kriterien aus der Liste."),
    ):
        response = organiser_client.post(url, {"tiebreak": sent}, HTTP_ACCEPT_LANGUAGE="de", follow=True)
        assert message in response.content.decode()
        evening.refresh_from_db()
        assert evening.tiebreaks == "fewest_sitouts"


def test_only_turnierleitung_sets_the_chain(client, helper, tied):
    evening, _, _ = tied
    client.force_login(helper)
    response = client.post(reverse("organiser:evening_tiebreaks", args=[evening.pk]), {"tiebreak": ["deals_won"]})
    assert response.status_code == 403
    evening.refresh_from_db()
    assert evening.tiebreaks == ""
    page = client.get(reverse("organiser:evening_detail", args=[evening.pk])).content.decode()
    assert 'name="tiebreak"' not in page


def test_ranking_page_screen_exports_and_pdf_show_the_rule(organiser_client, client, tied):
    evening, winners, darers = tied
    services.set_evening_tiebreaks(evening_id=evening.pk, criteria=["best_session", "deals_won"])
    rows = selectors.evening_ranking(Evening.objects.get(pk=evening.pk))
    upper, lower = rows[1].player.name, rows[2].player.name
    note = f"vor {lower} durch mehr gewonnene Spiele"
    ranking = reverse("organiser:ranking", args=[evening.pk])

    page = organiser_client.get(ranking, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Bester Durchgang" in page and "Gewonnene Spiele" in page and "Wagen und Schlagen" not in page
    assert note in page
    assert "Gleichstand wird entschieden durch, in dieser Reihenfolge: bester einzelner Durchgang" in page

    with translation.override("de"):
        text = organiser_client.get(ranking + "?_export=csv", HTTP_ACCEPT_LANGUAGE="de").content.decode("utf-8-sig")
    table = list(csv.reader(io.StringIO(text), delimiter=";"))  # German Excel's CSV
    # the tie-break columns last (the rule set is not repeated on every row)
    assert table[0][-3:] == ["Bester Durchgang", "Gewonnene Spiele", "Gleichstand"]
    by_name = {line[1]: line for line in table[1:]}
    assert by_name[upper][-3:] == ["4", "4", note]
    assert by_name[lower][-3:] == ["4", "2", ""]

    book = openpyxl.load_workbook(
        io.BytesIO(organiser_client.get(ranking + "?_export=xlsx", HTTP_ACCEPT_LANGUAGE="de").content)
    )
    cells = {row[1]: row for row in book.active.iter_rows(min_row=2, values_only=True)}
    assert cells[lower][-3:] == (4, 2, None) or cells[lower][-3:] == (4, 2, "")
    assert cells[upper][-1] == note

    screen = client.get(reverse("public:ranking_screen", args=[evening.pk])).content.decode()
    assert note in screen and "Gewonnene Spiele 2" in screen

    response = organiser_client.get(reverse("organiser:ranking_pdf", args=[evening.pk]))
    pdf = " ".join(" ".join(text.split()) for text in pdf_texts(b"".join(response.streaming_content)))
    assert note in pdf and "Bester Durchgang" in pdf and "Gewonnene Spiele" in pdf
    assert "bester einzelner Durchgang, meiste gewonnene Spiele" in pdf


def test_no_columns_when_the_chain_decides_nothing(organiser_client, tied):
    evening, _, _ = tied
    services.set_evening_tiebreaks(evening_id=evening.pk, criteria=["fewest_sitouts"])
    # Nobody sat out: the chain is looked at for the four players on 4 and separates nobody.
    rows = selectors.evening_ranking(Evening.objects.get(pk=evening.pk))
    assert {row.place for row in rows if row.total == 4} == {1}
    page = organiser_client.get(reverse("organiser:ranking", args=[evening.pk]), HTTP_ACCEPT_LANGUAGE="de")
    assert "Ausgesetzt" in page.content.decode()  # looked at, so shown


# --- A whole evening with sit-outs, checked against values the test computes itself ---------------


def independent_values(evening) -> dict[int, dict]:
    """Per player: total, best session, deals won, bonus, rounds sat out, from the deals and the
    rounds' sit-out partnerships (every round finished: the credit is the round's team average)."""
    sessions: dict[int, dict[int, Fraction]] = defaultdict(lambda: defaultdict(Fraction))
    won: dict[int, int] = defaultdict(int)
    bonus: dict[int, int] = defaultdict(int)
    sat: dict[int, int] = defaultdict(int)
    for deal in Deal.objects.filter(seating__round__session__evening=evening).select_related(
        "seating__round__session", *(f"seating__{p}" for p in selectors.PARTNERSHIP_PLAYERS)
    ):
        number = deal.seating.round.session.number
        for team, points, extra, letter in (
            (deal.seating.team_a, deal.points_a, deal.bonus_a, "A"),
            (deal.seating.team_b, deal.points_b, deal.bonus_b, "B"),
        ):
            for player in team.players:
                sessions[player.pk][number] += points
                bonus[player.pk] += extra
                won[player.pk] += deal.winner == letter
    for rnd in Round.objects.filter(session__evening=evening, sitout_partnership__isnull=False).select_related(
        "session", "sitout_partnership"
    ):
        points = [p for s in rnd.seatings.all() for d in s.deals.all() for p in (d.points_a, d.points_b)]
        teams = 2 * rnd.seatings.count()
        credit = Fraction(sum(points), teams)
        for pid in (rnd.sitout_partnership.player_1_id, rnd.sitout_partnership.player_2_id):
            sessions[pid][rnd.session.number] += credit
            sat[pid] += 1
    return {
        pid: {
            "total": sum(per.values(), Fraction(0)),
            B: max(per.values()),
            D: won[pid],
            S: bonus[pid],
            F: sat[pid],
        }
        for pid, per in sessions.items()
    }


def test_a_played_evening_with_sit_outs_is_ordered_by_the_chain(django_assert_max_num_queries):
    evening = make_evening(18, sessions_count=2, rounds_per_session=2, deals_per_round=2)  # 9 teams: one sits out
    services.set_evening_tiebreaks(evening_id=evening.pk, criteria=["fewest_sitouts", "bonus_sticks", "deals_won"])
    rng = random.Random(4)
    for number in (1, 2):
        session = services.draw_session(evening=evening, seed=number)
        for seating in Seating.objects.filter(round__session=session):
            factories.enter_deals(
                seating,
                [(rng.choice("AB"), False, *rng.choice([(0, 0), (1, 0), (0, 1)])) for _ in range(2)],
                table=None,
            )
            services.enter_and_confirm_seating(seating_id=seating.pk)
    evening.refresh_from_db()
    expected = independent_values(evening)
    rows = selectors.evening_ranking(evening)
    assert len(rows) == 18
    chain = (F, S, D)
    for row in rows:
        mine = expected[row.player.pk]
        assert row.total == mine["total"]
        assert row.tiebreaks == {c: mine[c] for c in (B, D, S, F)}
    for upper, lower in zip(rows, rows[1:], strict=False):
        a, b = expected[upper.player.pk], expected[lower.player.pk]
        key_a = (-a["total"], a[F], -a[S], -a[D])
        key_b = (-b["total"], b[F], -b[S], -b[D])
        assert key_a <= key_b
        assert (upper.place == lower.place) == (key_a == key_b)
        if a["total"] == b["total"] and key_a != key_b:
            first_difference = next(c for c in chain if a[c] != b[c])
            assert upper.ahead_by is first_difference and lower.behind_by is first_difference
        else:
            assert upper.ahead_by is None


@pytest.mark.parametrize("players", [24, 60])
@pytest.mark.no_cover  # the pages' code at two field sizes: measured by the pages' own tests (tests/conftest.py)
def test_ranking_page_with_a_chain_query_count_does_not_grow_with_players(
    organiser_client, django_assert_num_queries, players
):
    evening = make_evening(players)
    services.set_evening_tiebreaks(evening_id=evening.pk, criteria=["best_session", "deals_won"])
    session = services.draw_session(evening=evening, seed=1)
    for seating in Seating.objects.filter(round__session=session, round__number=1):
        factories.enter_deals(
            seating, [factories.A_WINS] * 4, table=None
        )  # every team A on 4: ties everywhere, notes on the page
    # As without a chain (8, tests/views/test_pages.py) + the names shown in the notes (1)
    with django_assert_num_queries(9):
        response = organiser_client.get(reverse("organiser:ranking", args=[evening.pk]))
    assert "durch" in response.content.decode() or "by" in response.content.decode()


def test_an_evening_from_before_the_chain_has_none():
    evening = services.create_evening(name="Alt", date=date(2026, 1, 2))
    assert evening.tiebreaks == "" and selectors.evening_chain(evening) == ()
    evening.tiebreaks = "best_session,nonsense"  # never an error page for a bad stored value
    assert selectors.evening_chain(evening) == ()


def test_translated_labels_use_the_domain_names_as_msgids():
    from scoring.web import tiebreak_labels

    with translation.override("en"):
        for criterion in Criterion:
            assert str(tiebreak_labels.LABELS[criterion]) == criterion.label
            assert str(tiebreak_labels.COLUMNS[criterion]) == criterion.column
    with translation.override("de"):
        assert [name for _, name in tiebreak_labels.choices()] == [
            "bester einzelner Durchgang",
            "meiste gewonnene Spiele",
            "meiste Streichhölzer aus Wagen und Schlagen",
            "wenigste ausgesetzte Runden",
        ]
