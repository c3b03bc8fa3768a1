"""Danish and Swedish beside German and English: the evening's language
suggested by its rule set, the evening page's offer to use it, and the order of names in the
list's language (Danish Æ Ø Å, Swedish Å Ä Ö at the end; German DIN 5007-1 for German and
English) on the pages, the public seat finder, the printouts and the ranking.
"""

from __future__ import annotations

import re
from datetime import date

import pytest
from django.conf import settings
from django.urls import reverse

from scoring import selectors, services
from scoring.models import Evening
from tests.tracing import pdf_text, pdf_texts

pytestmark = pytest.mark.django_db

FORM = {"name": "Aften", "date": "2026-12-05", "venue": "", "sessions_count": 3, "rounds_per_session": 4}


def create(organiser_client, **fields) -> Evening:
    response = organiser_client.post(
        reverse("organiser:evening_create"), {**FORM, "deals_per_round": 4, **fields}, HTTP_ACCEPT_LANGUAGE="de"
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    return Evening.objects.get(name=fields.get("name", "Aften"))


@pytest.mark.parametrize(
    ("rule_set", "language"),
    [("schwesing", "de"), ("treia", "de"), ("danish", "da"), ("ringkobing", "da"), ("braeus", "sv"), ("braeus6", "sv")],
)
def test_a_new_evening_speaks_its_rule_sets_language_unless_another_is_chosen(organiser_client, rule_set, language):
    assert create(organiser_client, name=rule_set, rule_set=rule_set, language="").language == language
    assert create(organiser_client, name=f"{rule_set} en", rule_set=rule_set, language="en").language == "en"
    # The service itself keeps German unless told (the demo, the command line, older callers).
    assert services.create_evening(name="x", date=date(2026, 12, 6), rule_set=rule_set).language == "de"


def test_the_evening_page_offers_the_rule_sets_language(organiser_client):
    evening = services.create_evening(name="Vestjysk aften", date=date(2026, 12, 6), rule_set="danish", language="de")
    url = reverse("organiser:evening_detail", args=[evening.pk])
    page = organiser_client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert 'data-testid="suggested-language"' in page and "Dänisch verwenden" in page
    assert '<input type="hidden" name="language" value="da">' in page
    organiser_client.post(reverse("organiser:evening_language", args=[evening.pk]), {"language": "da"})
    evening.refresh_from_db()
    assert evening.language == "da"
    page = organiser_client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert 'data-testid="suggested-language"' not in page


def test_every_language_is_offered_for_the_evening_and_the_organisers_pages(organiser_client):
    assert [code for code, _name in settings.LANGUAGES] == ["de", "en", "da", "sv"]
    evening = services.create_evening(name="Gotland", date=date(2026, 12, 6), rule_set="braeus", language="sv")
    page = organiser_client.get(reverse("organiser:evening_detail", args=[evening.pk])).content.decode()
    for code in ("de", "en", "da", "sv"):
        assert f'<button name="language" value="{code}"' in page  # the organiser's own pages
        assert f'<option value="{code}"' in page  # the evening's language
    assert '<option value="sv" selected>' in page


ROSTER = ["Ib Ahl", "Anna Aagaard", "Karl Åberg", "Søren Ærø", "Per Ørsted", "Ole Zink", "Eva Öberg", "Bo Ärlig"]
ORDER = {
    "de": ["Anna Aagaard", "Karl Åberg", "Søren Ærø", "Ib Ahl", "Bo Ärlig", "Eva Öberg", "Per Ørsted", "Ole Zink"],
    "da": ["Ib Ahl", "Ole Zink", "Bo Ärlig", "Søren Ærø", "Eva Öberg", "Per Ørsted", "Karl Åberg", "Anna Aagaard"],
    "sv": ["Anna Aagaard", "Ib Ahl", "Ole Zink", "Karl Åberg", "Bo Ärlig", "Søren Ærø", "Eva Öberg", "Per Ørsted"],
}
ORDER["en"] = ORDER["de"]


def names_in(text: str) -> list[str]:
    return re.findall("|".join(map(re.escape, ROSTER)), text)


@pytest.fixture
def nordic_evening(db):
    def make(language: str) -> Evening:
        evening = services.create_evening(name=f"Aften {language}", date=date(2026, 11, 21), language=language)
        for name in ROSTER:
            player, _ = services.add_player(name=name, club="")
            services.set_checked_in(evening=evening, player=player, checked_in=True)
        services.draw_session(evening=evening, seed=3)
        return evening

    return make


@pytest.mark.parametrize("language", ["de", "en", "da", "sv"])
def test_names_in_the_order_of_the_evenings_language(client, organiser_client, nordic_evening, language):
    """The public seat finder and the printouts follow the evening's language; the organiser's
    own pages the organiser's; the ranking's ties too."""
    evening = nordic_evening(language)
    page = client.get(reverse("public:seat_finder", args=[evening.pk])).content.decode()
    assert names_in(page) == ORDER[language]
    response = organiser_client.get(reverse("organiser:route_cards_pdf", args=[evening.pk, 1]))
    texts = pdf_texts(b"".join(response.streaming_content))
    headings = [line for text in texts for line in text.splitlines() if line.strip() in ROSTER]
    assert headings == ORDER[language]
    organiser_client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    page = organiser_client.get(reverse("organiser:evening_players", args=[evening.pk])).content.decode()
    assert names_in(page.split("<tbody", 1)[1]) == ORDER[language]
    from django.utils import translation

    with translation.override(language):
        assert [row.player.name for row in selectors.evening_ranking(evening)] == ORDER[language]


def test_the_seat_finder_lists_danish_names_under_their_own_letters(client, nordic_evening):
    evening = nordic_evening("da")
    page = client.get(reverse("public:seat_finder", args=[evening.pk])).content.decode()
    assert re.findall(r"<h2[^>]*>\s*(\w)\s*</h2>", page) == ["A", "Z", "Æ", "Ø", "Å"]


def test_the_danish_reader_gets_the_danish_guide_and_help(client):
    page = client.get(reverse("public:guide"), HTTP_ACCEPT_LANGUAGE="da").content.decode()
    assert '<article class="guide" lang="da">' in page and "Vejledning til turneringslederen" in page
    assert "Spillets ord på dansk" in page  # the section on the game's Danish words
    page = client.get(reverse("public:help"), HTTP_ACCEPT_LANGUAGE="da").content.decode()
    assert '<html lang="da">' in page and "Chance og smæk" in page and "Æ, Ø og Å" in page


def test_a_danish_evenings_printouts_and_downloads_are_danish(organiser_client, nordic_evening):
    """Whatever the organiser's own pages are set to: the evening's language, its dates and numbers."""
    evening = nordic_evening("da")
    organiser_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    response = organiser_client.get(reverse("organiser:ranking_pdf", args=[evening.pk]))
    text = pdf_text(b"".join(response.streaming_content))
    assert "Stilling" in text and "21. november 2026" in text and "Side 1 af 1" in text and "Rangliste" not in text
    response = organiser_client.get(reverse("organiser:ranking", args=[evening.pk]) + "?_export=csv")
    assert response.content.decode("utf-8-sig").splitlines()[0].startswith("Plads,Navn,Klub,Omgang 1")
    assert "Rangliste" in organiser_client.get(reverse("organiser:ranking", args=[evening.pk])).content.decode()
