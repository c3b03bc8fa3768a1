"""The tie-break chain on the pages: set on the evening page, shown on the ranking, the screen,
the exports and the PDF."""

from __future__ import annotations

import csv
import io

import openpyxl
import pytest
from django.urls import reverse
from django.utils import translation

from scoring import selectors, services
from scoring.models import Evening, Seating
from tests import factories
from tests.conftest import make_evening
from tests.services.test_tiebreaks import tied  # noqa: F401 (fixture)
from tests.tracing import pdf_texts

pytestmark = pytest.mark.django_db


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
