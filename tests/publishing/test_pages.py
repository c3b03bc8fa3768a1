"""The organiser's pages of publishing: the card "Online" of the evening's page (status, mode,
"Erneut senden"), the player's online name, the page "Online"; bad input changes nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from scoring.models import Player
from scoring.publishing import services as publishing
from scoring.publishing.models import EveningPublishing, PlayerPublishing, PublishingConfig, PublishMode
from tests.publishing.conftest import play_round

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _german(settings):
    settings.LANGUAGE_CODE = "de"
    settings.PUBLISH_URL, settings.PUBLISH_KEY = "https://ergebnisse.example.org", "k"


def _card(client, evening) -> str:
    page = client.get(reverse("organiser:evening_detail", args=[evening.pk]), HTTP_ACCEPT_LANGUAGE="de")
    assert page.status_code == 200
    html = page.content.decode()
    return html[html.index('data-testid="online-card"') :]


def test_the_evening_page_tells_the_status_in_german(organiser_client, evening, hub, sender, clock):
    client = organiser_client
    assert "Online: am Ende" in _card(client, evening)
    client.post(reverse("organiser:evening_publish_mode", args=[evening.pk]), {"mode": "live"})
    assert EveningPublishing.objects.get(evening=evening).mode == PublishMode.LIVE
    assert "Online: 1 Änderung wartet" in _card(client, evening)
    play_round(evening, 1)
    assert "Änderungen warten" in _card(client, evening)
    hub.state = "down"
    sender.send_waiting()
    card = _card(client, evening)
    since = timezone.localtime(EveningPublishing.objects.get(evening=evening).failing_since).strftime("%H:%M")
    assert f"Online: keine Verbindung seit {since}" in card and "Erneut senden" in card
    hub.state = "up"
    clock.move(10)
    sender.send_waiting()
    assert "Online: aktuell" in _card(client, evening)  # the sender's answer shows (not a stale 304 tag)


def test_a_refusal_shows_the_hubs_reason_and_send_again(organiser_client, evening, hub, sender):
    publishing.set_publish_mode(evening_id=evening.pk, mode=PublishMode.LIVE)
    hub.state = "refuse"
    sender.send_waiting()
    card = _card(organiser_client, evening)
    assert "Ergebnisseite hat den Abend abgelehnt" in card and "evening.name: too long" in card
    answer = organiser_client.post(reverse("organiser:evening_send_again", args=[evening.pk]))
    assert answer.status_code == 302 and answer["Location"].endswith("#online")
    assert EveningPublishing.objects.get(evening=evening).refused_version is None


def test_a_wrong_mode_changes_nothing_and_says_why(organiser_client, evening):
    answer = organiser_client.post(
        reverse("organiser:evening_publish_mode", args=[evening.pk]), {"mode": "everywhere"}, follow=True
    )
    assert answer.status_code == 200 and "Bitte eine der angebotenen" in answer.content.decode()
    assert not EveningPublishing.objects.exists()


def test_a_helper_sees_the_status_but_cannot_choose(client, helper, evening):
    client.force_login(helper)
    card = _card(client, evening)
    assert "Online: am Ende" in card and 'data-testid="publish-modes"' not in card
    choose = reverse("organiser:evening_publish_mode", args=[evening.pk])
    assert client.post(choose, {"mode": "live"}).status_code == 403


def test_the_players_page_takes_the_player_offline_in_one_tap(organiser_client, evening):
    player = Player.objects.get(name="Spieler 2")
    url = reverse("organiser:player_detail", args=[player.pk])
    page = organiser_client.get(url).content.decode()
    assert "Name online" in page and "S. 2." in page  # the initials the club default would show
    answer = organiser_client.post(reverse("organiser:player_online_name", args=[player.pk]), {"online_name": "hidden"})
    assert answer["Location"] == url + "#online"
    assert PlayerPublishing.objects.get(player=player).online_name == "hidden"
    bad = organiser_client.post(reverse("organiser:player_online_name", args=[player.pk]), {"online_name": "x"})
    assert bad.status_code == 302 and PlayerPublishing.objects.get(player=player).online_name == "hidden"


def test_the_online_page_sets_the_club_default(organiser_client, evening):
    url = reverse("organiser:online")
    page = organiser_client.get(url).content.decode()
    assert "https://ergebnisse.example.org" in page and "Initialen" in page
    organiser_client.post(url, {"club_default": "full"})
    assert PublishingConfig.objects.get().club_default == "full"
    organiser_client.post(url, {"club_default": "nonsense"})
    assert PublishingConfig.objects.get().club_default == "full"


def test_the_online_page_names_an_address_it_refuses(organiser_client, settings):
    settings.PUBLISH_URL = "http://ergebnisse.example.org"
    page = organiser_client.get(reverse("organiser:online")).content.decode()
    assert "PUBLISH_ALLOW_HTTP" in page
