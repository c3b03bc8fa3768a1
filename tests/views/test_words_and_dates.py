"""Small things a club notices, in the organiser's and the room's languages:

- the Swedish check-in button "Som vid senaste kvällen (…, 2026-10-17)" broke its date at the
  hyphen ("2026-" / "10-17"): its hyphens are non-breaking;
- the Danish (and English) pages kept German words, "(Ersatzspieler)" and "(Jahreswertung)".
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from django.conf import settings
from django.urls import reverse

from scoring import services
from scoring.templatetags.bruus import NON_BREAKING_HYPHEN, nobreak

GERMAN_WORDS = ("Ersatzspieler", "Jahreswertung")
LOCALE = Path(__file__).resolve().parents[2] / "locale"


def test_nobreak_makes_every_hyphen_a_non_breaking_one():
    assert nobreak("2026-11-27") == f"2026{NON_BREAKING_HYPHEN}11{NON_BREAKING_HYPHEN}27"
    assert nobreak("27.11.26") == "27.11.26"


@pytest.mark.django_db
def test_the_swedish_check_in_button_keeps_its_date_in_one_piece(organiser_client):
    earlier = services.create_evening(name="Oktober", date=date(2026, 10, 17))
    player, _ = services.add_player(name="Anna Berg", club="")
    services.set_checked_in(evening=earlier, player=player, checked_in=True)
    evening = services.create_evening(name="November", date=date(2026, 11, 27))
    organiser_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "sv"
    html = organiser_client.get(reverse("organiser:evening_players", args=[evening.pk])).content.decode()
    assert f"Oktober, 2026{NON_BREAKING_HYPHEN}10{NON_BREAKING_HYPHEN}17)" in html
    assert "2026-10-17" not in html


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "da", "sv"])
def test_no_german_words_on_the_pages_in_another_language(organiser_client, language):
    evening = services.create_evening(name="Herbst", date=date(2026, 11, 27))
    organiser_client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    for url in (
        reverse("organiser:evening_list"),
        reverse("organiser:season_list"),
        reverse("organiser:evening_players", args=[evening.pk]),
        reverse("public:help"),
    ):
        html = organiser_client.get(url).content.decode()
        for word in GERMAN_WORDS:
            assert word not in html, (language, url, word)


@pytest.mark.parametrize("language", ["da", "sv"])
def test_no_translation_keeps_a_german_word(language):
    with (LOCALE / language / "LC_MESSAGES" / "django.po").open("rb") as source:
        catalog = read_po(source, locale=language)
    kept = [m.id for m in catalog if m.id and any(w in str(m.string) for w in GERMAN_WORDS)]
    assert kept == []
