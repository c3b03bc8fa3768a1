"""The evening's language: printouts, public screens and tablets speak the
evening's language (German by default), whatever the browser asks for (Accept-Language) or the
organiser has chosen for their own pages; the organiser's choice changes only the organiser's pages.
"""

from __future__ import annotations

import csv
import io
from datetime import date

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from scoring import services
from scoring.hall.origin import Origin
from scoring.models import DealChange, Evening, Seating
from tests import tracing
from tests.conftest import make_evening
from tests.transfer.test_exports import play

pytestmark = pytest.mark.django_db

GERMAN_BROWSER = {"HTTP_ACCEPT_LANGUAGE": "de-DE,de;q=0.9"}
ENGLISH_BROWSER = {"HTTP_ACCEPT_LANGUAGE": "en-GB,en;q=0.9"}


def english_organiser(client: Client) -> Client:
    """The organiser has switched their own pages to English (the EN button)."""
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


@pytest.fixture
def german_evening(db):
    evening = make_evening(8, name="Dörpsabend")
    play(evening, deals=4, rounds=[1])
    return evening


@pytest.fixture
def english_evening(db):
    evening = make_evening(8, name="International Open", language="en")
    play(evening, deals=4, rounds=[1])
    return evening


def text(response) -> str:
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def pdf_text(response) -> str:
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    return tracing.pdf_text(response.getvalue())


# --- The field ----------------------------------------------------------------------------------


def test_new_evenings_are_german_and_the_form_offers_every_language(organiser_client):
    page = text(organiser_client.get(reverse("organiser:evening_create"), **GERMAN_BROWSER))
    assert 'name="language"' in page and '<option value="" selected>Die Sprache des Regelwerks</option>' in page
    for code in ("de", "en", "da", "sv"):
        assert f'<option value="{code}">' in page
    response = organiser_client.post(
        reverse("organiser:evening_create"),
        {
            "name": "Open",
            "date": "2026-12-05",
            "venue": "",
            "sessions_count": 3,
            "rounds_per_session": 4,
            "deals_per_round": 4,
            "language": "en",
        },
    )
    assert response.status_code == 302
    assert Evening.objects.get(name="Open").language == "en"
    assert services.create_evening(name="Ohne Angabe", date=date(2026, 12, 6)).language == "de"


def test_the_organiser_changes_the_language_on_the_evening_page(organiser_client, german_evening):
    url = reverse("organiser:evening_language", args=[german_evening.pk])
    response = organiser_client.post(url, {"language": "en"}, follow=True, **GERMAN_BROWSER)
    german_evening.refresh_from_db()
    assert german_evening.language == "en"
    assert "jetzt auf Englisch" in text(response)  # the organiser's page stays German
    response = organiser_client.post(url, {"language": "xx"}, follow=True, **GERMAN_BROWSER)
    german_evening.refresh_from_db()
    assert german_evening.language == "en" and "Bitte wählen Sie eine der angebotenen Sprachen" in text(response)


# --- Tablets --------------------------------------------------------------------------------------


def test_tablet_speaks_the_evenings_language_not_the_browsers(german_evening, english_evening):
    german_table = german_evening.tables.get(number=1)
    english_table = english_evening.tables.get(number=1)
    tablet = english_organiser(Client())
    page = text(tablet.get(reverse("scorer:table", args=[german_table.token]), **ENGLISH_BROWSER))
    assert '<html lang="de">' in page and "speichern" in page and "Save deal" not in page
    assert 'name="language"' not in page  # no language buttons: they would change nothing here
    page = text(Client().get(reverse("scorer:table", args=[english_table.token]), **GERMAN_BROWSER))
    assert '<html lang="en">' in page and "Save deal" in page and "speichern" not in page
    response = Client().get(reverse("scorer:table", args=[english_table.token]), **GERMAN_BROWSER)
    assert response["Content-Language"] == "en"


def test_tablet_messages_are_in_the_evenings_language(german_evening):
    seating = Seating.objects.filter(round__session__evening=german_evening, round__number=1).first()
    response = Client().post(
        reverse("scorer:finish", args=[seating.table.token]),
        {"seating": seating.pk, "team": "A"},
        follow=True,
        **ENGLISH_BROWSER,
    )
    assert "Runde abgeschlossen" in text(response)


def test_the_history_names_the_table_link_in_the_readers_language(organiser_client, german_evening):
    """The tablet keeps where a change came from as data; the English organiser reads "Table 1
    (table link)" though the evening's language is German."""
    seating = Seating.objects.filter(round__session__evening=german_evening, round__number=1).first()
    DealChange.objects.filter(deal__seating=seating, deal__number=1).update(**Origin.table_link(1).fields())
    Seating.objects.filter(pk=seating.pk).update(
        **Origin.table_link(1, "B").fields("confirmed_"), confirmed_at="2026-11-21T20:00:00Z"
    )
    english_organiser(organiser_client)
    page = text(organiser_client.get(reverse("organiser:seating_detail", args=[seating.pk]), **GERMAN_BROWSER))
    assert "Table 1 (table link)" in page and "(Table 1 (table link), team B)" in page and "Tisch-Link" not in page


# --- Public screens -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["ranking_screen", "seat_finder"])
def test_public_screens_speak_the_evenings_language(german_evening, english_evening, name):
    page = text(english_organiser(Client()).get(reverse(f"public:{name}", args=[german_evening.pk]), **ENGLISH_BROWSER))
    assert '<html lang="de">' in page and ("Rangliste" in page or "Wo sitze ich?" in page)
    assert 'name="language"' not in page
    page = text(Client().get(reverse(f"public:{name}", args=[english_evening.pk]), **GERMAN_BROWSER))
    assert '<html lang="en">' in page and ("Ranking" in page or "Where do I sit?" in page)


def test_a_players_seat_speaks_the_evenings_language(english_evening):
    seating = Seating.objects.filter(round__session__evening=english_evening).first()
    url = reverse("public:seat", args=[english_evening.pk, seating.team_a.player_1_id])
    page = text(Client().get(url, **GERMAN_BROWSER))
    assert '<html lang="en">' in page and "Table" in page and "Tisch" not in page


def test_pages_of_no_evening_keep_the_browsers_language():
    assert '<html lang="en">' in text(Client().get(reverse("public:help"), **ENGLISH_BROWSER))
    assert '<html lang="de">' in text(Client().get(reverse("public:help"), **GERMAN_BROWSER))


# --- The organiser's own pages and printouts -----------------------------------------------------


def test_organiser_pages_follow_the_organiser_not_the_evening(organiser_client, german_evening):
    english_organiser(organiser_client)
    page = text(organiser_client.get(reverse("organiser:evening_detail", args=[german_evening.pk]), **GERMAN_BROWSER))
    assert '<html lang="en">' in page and "Check-in" in page and 'name="language"' in page


@pytest.mark.parametrize(
    ("name", "number", "german", "english"),
    [
        ("ranking_pdf", None, "Rangliste", "Ranking"),
        ("table_list_pdf", 1, "Tischliste", "Table list"),
        ("score_sheets_pdf", 1, "Spielzettel", "Score sheet"),
        ("route_cards_pdf", 1, "Laufzettel", "Route card"),
    ],
)
def test_printouts_are_in_the_evenings_language(
    organiser_client, german_evening, english_evening, name, number, german, english
):
    def url(evening):
        return reverse(f"organiser:{name}", args=[evening.pk] + ([number] if number else []))

    english_organiser(organiser_client)
    printed = pdf_text(organiser_client.get(url(german_evening), **ENGLISH_BROWSER))
    assert german in printed and english not in printed
    organiser_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    printed = pdf_text(organiser_client.get(url(english_evening), **GERMAN_BROWSER))
    assert english in printed and german not in printed


@pytest.mark.parametrize(
    ("name", "german", "english"), [("ranking", "Verein", "Club"), ("deal_results", "Fünf Stiche", "Five tricks")]
)
def test_downloads_are_in_the_evenings_language(organiser_client, german_evening, name, german, english):
    english_organiser(organiser_client)
    url = reverse(f"organiser:{name}", args=[german_evening.pk])
    response = organiser_client.get(url + "?_export=csv", **ENGLISH_BROWSER)
    header = next(csv.reader(io.StringIO(response.content.decode("utf-8-sig")), delimiter=";"))
    assert german in header and english not in header
    # ... while the page itself is the organiser's
    assert english in text(organiser_client.get(url, **ENGLISH_BROWSER))


def test_an_evening_number_too_large_for_the_database_is_not_found(client):
    for name in ("public:ranking_screen", "public:seat_finder"):
        assert client.get(reverse(name, args=[10**30])).status_code in (404,)
