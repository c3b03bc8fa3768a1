"""The rule set on the pages: chosen for a new evening, changed on its page, named on sheets, ranking and exports."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring import services
from scoring.domain.rulesets import BOCK, BRAEUS, RINGKOBING, SCHWESING, TREIA
from scoring.hall.origin import Origin
from scoring.models import Evening
from tests import factories
from tests.services.test_rulesets import first_seating

pytestmark = pytest.mark.django_db


def test_a_new_evening_is_schwesing_unless_the_organiser_chooses(organiser_client):
    url = reverse("organiser:evening_create")
    page = organiser_client.get(url).content.decode()
    assert 'name="rule_set"' in page and "Treia" in page and "Bräus" in page
    data = {"name": "Abend", "date": "2026-11-21", "sessions_count": 3, "rounds_per_session": 4, "deals_per_round": 4}
    organiser_client.post(url, data)
    organiser_client.post(url, {**data, "name": "Treia-Abend", "rule_set": TREIA})
    assert Evening.objects.get(name="Abend").rule_set == SCHWESING
    assert Evening.objects.get(name="Treia-Abend").rules.cards == 32


def test_the_rule_set_page_changes_it_and_explains_a_refusal(organiser_client):
    seating = first_seating(SCHWESING)
    evening = seating.round.session.evening
    url = reverse("organiser:evening_rule_set", args=[evening.pk])
    organiser_client.post(url, {"rule_set": RINGKOBING})
    evening.refresh_from_db()
    assert evening.rule_set == RINGKOBING
    factories.enter_deal(seating, 1, "A", bonus_a=5, table=None)
    response = organiser_client.post(url, {"rule_set": SCHWESING}, follow=True)
    assert "nicht mehr geändert werden" in response.content.decode()
    evening.refresh_from_db()
    assert evening.rule_set == RINGKOBING


def test_score_sheets_ranking_and_exports_name_the_rule_set(organiser_client):
    from tests.documents.test_documents import get_pdf, squeeze

    seating = first_seating(TREIA)
    evening = seating.round.session.evening
    factories.enter_deal(seating, 1, BOCK, table=None)
    factories.enter_deal(seating, 2, "B", table=None)
    _, _, blank, _ = get_pdf(organiser_client, "score_sheets_pdf", evening.pk, 1, query="?leer=1")
    assert "Spielzettel · Abend treia 1 · Treia" in blank[0]
    assert "4:4isteinBock" in squeeze(blank[0])  # the Treia legend
    _, _, filled, _ = get_pdf(organiser_client, "score_sheets_pdf", evening.pk, 1)
    assert filled[0].count("4:4") >= 3  # the legend's two and the Bock row of each team
    _, _, ranking, _ = get_pdf(organiser_client, "ranking_pdf", evening.pk)
    assert "Regeln: Treia" in ranking[0]
    page = organiser_client.get(reverse("organiser:ranking", args=[evening.pk])).content.decode()
    assert "Regeln: Treia" in page
    csv = organiser_client.get(reverse("organiser:deal_results", args=[evening.pk]) + "?_export=csv")
    rows = b"".join(csv.streaming_content if csv.streaming else [csv.content]).decode("utf-8-sig").splitlines()
    assert rows[1].startswith("1;1;") and "Bock" in rows[1]  # German Excel
    assert "Regeln" not in rows[0] and not any(row.endswith(";Treia") for row in rows[1:])


def test_braeus_sheets_have_the_braeus_legend_and_no_daring(organiser_client):
    from tests.documents.test_documents import get_pdf

    evening = first_seating(BRAEUS).round.session.evening
    _, _, blank, _ = get_pdf(organiser_client, "score_sheets_pdf", evening.pk, 1, query="?leer=1")
    assert "Bräus, vier Spieler" in blank[0] and "Sechs Stiche" in blank[0] and "Toller Hund" not in blank[0]


def test_the_organiser_sees_the_draws_of_a_table(organiser_client):
    seating = first_seating(BRAEUS)
    services.record_draw(
        seating_id=seating.pk, number=2, origin=Origin.other("Tisch 1 (Tisch-Link)"), client="192.168.1.20"
    )
    page = organiser_client.get(reverse("organiser:seating_detail", args=[seating.pk])).content.decode()
    assert "Unentschiedene Spiele" in page and "Spiel 2 unentschieden um" in page and "192.168.1.20" in page
