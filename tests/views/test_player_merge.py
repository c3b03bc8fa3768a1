"""Merging two register entries on the organiser's pages: the preview, the refusals, the Helfer's missing permission."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.models import Player
from tests.services.test_player_merge import state, twice  # noqa: F401 (twice: a fixture)

pytestmark = pytest.mark.django_db


def test_merge_page_preview_then_merge(organiser_client, twice):
    without, with_club, _, _ = twice
    url = reverse("organiser:player_merge")
    page = organiser_client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Diesen Eintrag behalten" in page
    preview = organiser_client.get(url, {"keep": without.pk, "remove": with_club.pk}, HTTP_ACCEPT_LANGUAGE="de")
    text = preview.content.decode()
    assert "1 Abend: März II" in text and "3 gespielte Spiele" in text and "Jetzt zusammenführen" in text
    assert Player.objects.filter(pk=with_club.pk).exists()  # a preview changes nothing
    response = organiser_client.post(url, {"keep": without.pk, "remove": with_club.pk}, HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 302
    assert response["Location"] == reverse("organiser:player_detail", args=[without.pk])
    assert not Player.objects.filter(pk=with_club.pk).exists()
    done = organiser_client.get(response["Location"], HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "wurde mit Jens Carstensen zusammengeführt" in done


def test_merge_page_refusals_are_clear_and_change_nothing(organiser_client, twice):
    without, _, others, _ = twice
    url = reverse("organiser:player_merge")
    before = state()
    page = organiser_client.get(url, {"keep": without.pk, "remove": others[0].pk}, HTTP_ACCEPT_LANGUAGE="de")
    text = page.content.decode()
    assert "zwei verschiedene Personen" in text and "Jetzt zusammenführen" not in text
    response = organiser_client.post(url, {"keep": without.pk, "remove": others[0].pk}, HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 200 and "Nichts wurde zusammengeführt" in response.content.decode()
    response = organiser_client.post(url, {"keep": without.pk, "remove": without.pk}, HTTP_ACCEPT_LANGUAGE="de")
    assert "nicht mit sich selbst" in response.content.decode()
    response = organiser_client.post(url, {"keep": "１", "remove": "x"}, HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 200 and "Bitte wählen Sie zwei Spieler" in response.content.decode()
    assert state() == before


def test_helfer_cannot_merge(client, helper, twice):
    without, with_club, _, _ = twice
    client.force_login(helper)
    response = client.post(reverse("organiser:player_merge"), {"keep": without.pk, "remove": with_club.pk})
    assert response.status_code == 403
    assert Player.objects.filter(pk=with_club.pk).exists()
