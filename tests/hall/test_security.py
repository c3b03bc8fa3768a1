"""Security: login lockout, table links (randomness, regeneration, throttling, own table only),
read-only public pages, CSRF and security headers."""

from __future__ import annotations

import math
import uuid

import pytest
from axes.models import AccessAttempt
from django.test import Client
from django.urls import reverse

from scoring import services
from scoring.hall.client_address import client_address
from scoring.models import Deal, Seating, Table
from tests import factories


@pytest.mark.django_db
def test_login_is_locked_after_five_wrong_passwords(organiser):
    client = Client()
    for _ in range(5):
        response = client.post(reverse("login"), {"username": "leitung", "password": "falsch"})
    response = client.post(reverse("login"), {"username": "leitung", "password": "geheim-123"})
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_one_password_sprayed_over_many_names_is_locked_per_address(settings, organiser):
    """The lockout counted per name and device only, so one password tried on many
    names never stopped. Now five failures from one address lock it, whatever the names; another
    device still logs in."""
    settings.TRUSTED_PROXY_COUNT = 1
    sprayer, laptop = behind_proxy("192.168.1.66"), behind_proxy("192.168.1.20")
    for name in ("anna", "bernd", "carla", "dirk", "emil"):
        sprayer.post(reverse("login"), {"username": name, "password": "Sommer2026"})
    assert sprayer.post(reverse("login"), {"username": "leitung", "password": "geheim-123"}).status_code == 429
    assert "_auth_user_id" not in sprayer.session
    response = laptop.post(reverse("login"), {"username": "leitung", "password": "geheim-123"})
    assert response.status_code == 302


@pytest.mark.django_db
def test_correct_login_works(organiser):
    client = Client()
    response = client.post(reverse("login"), {"username": "leitung", "password": "geheim-123"})
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(organiser.pk)


@pytest.mark.django_db
def test_table_links_carry_at_least_128_random_bits(roster_evening):
    services.draw_session(evening=roster_evening, seed=1)
    tokens = list(Table.objects.values_list("token", flat=True))
    assert len(set(tokens)) == len(tokens)
    for token in tokens:
        assert len(token) * math.log2(64) >= 128  # URL-safe base64: 6 bits a character


@pytest.mark.django_db
def test_regenerated_link_replaces_the_old_one_at_once(organiser_client, client, roster_evening):
    services.draw_session(evening=roster_evening, seed=1)
    table = Table.objects.get(evening=roster_evening, number=1)
    old = table.token
    response = organiser_client.post(reverse("organiser:table_link_regenerate", args=[roster_evening.pk, 1]))
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.token != old
    assert client.get(reverse("scorer:table", args=[old])).status_code == 404
    assert client.get(reverse("scorer:table", args=[table.token])).status_code == 200
    seating = Seating.objects.filter(table=table).order_by("round__number").first()
    client.post(
        reverse("scorer:deal", args=[old, 1]), {"seating": seating.pk, "winner": "A", "bonus_a": 0, "bonus_b": 0}
    )
    assert not Deal.objects.exists()


@pytest.mark.django_db
def test_table_link_enters_only_its_own_current_round(client, roster_evening):
    services.draw_session(evening=roster_evening, seed=1)
    table = Table.objects.get(evening=roster_evening, number=1)
    later = Seating.objects.filter(table=table, round__number=2).get()
    other = Seating.objects.filter(round__number=1).exclude(table=table).first()
    for seating in (later, other):
        response = client.post(
            reverse("scorer:deal", args=[table.token, 1]),
            {"seating": seating.pk, "winner": "A", "bonus_a": 0, "bonus_b": 0, "version": 0},
            follow=True,
        )
        assert 'class="msg error"' in response.content.decode()
    assert not Deal.objects.exists()


@pytest.mark.django_db
def test_repeated_wrong_table_links_are_slowed_down(client, roster_evening):
    services.draw_session(evening=roster_evening, seed=1)
    good = Table.objects.get(evening=roster_evening, number=1).token
    for n in range(10):
        assert client.get(f"/t/falsch{n}/").status_code == 404
    assert client.get("/t/falsch-again/").status_code == 429
    assert client.get("/t/falsch-again/stand/").status_code == 429
    # A valid link always opens, from that address too (it answered 429 for 10
    # minutes), and so do its polls; only wrong links are refused.
    assert client.get(reverse("scorer:table", args=[good])).status_code == 200
    assert client.get(reverse("scorer:poll", args=[good])).status_code == 200
    assert client.get("/t/falsch-once-more/").status_code == 429
    other_device = Client(REMOTE_ADDR="192.0.2.77")
    assert other_device.get("/t/falsch/").status_code == 404


# --- Behind a reverse proxy (TRUSTED_PROXY_COUNT) --------------------------------------------------


def forwarded(rf, chain: str, remote: str = "10.0.0.1"):
    return rf.get("/", REMOTE_ADDR=remote, HTTP_X_FORWARDED_FOR=chain)


def test_the_client_address_comes_from_x_forwarded_for_only_behind_trusted_proxies(rf, settings):
    settings.TRUSTED_PROXY_COUNT = 0  # served directly: the header is anybody's to write
    assert client_address(forwarded(rf, "203.0.113.9")) == "10.0.0.1"
    settings.TRUSTED_PROXY_COUNT = 1  # the proxy appends the address it saw, rightmost
    assert client_address(forwarded(rf, "203.0.113.9")) == "203.0.113.9"
    assert client_address(forwarded(rf, "6.6.6.6, 203.0.113.9")) == "203.0.113.9"  # left: the sender's
    assert client_address(forwarded(rf, " 2001:DB8::7 ")) == "2001:db8::7"
    assert client_address(forwarded(rf, "203.0.113.9:51234")) == "203.0.113.9"
    settings.TRUSTED_PROXY_COUNT = 2  # two proxies: the second address from the right
    assert client_address(forwarded(rf, "6.6.6.6, 203.0.113.9, 198.51.100.2")) == "203.0.113.9"
    # Not through the proxies as configured (too few entries, or not an address): REMOTE_ADDR.
    assert client_address(forwarded(rf, "203.0.113.9")) == "10.0.0.1"
    assert client_address(forwarded(rf, "unbekannt, 198.51.100.2")) == "10.0.0.1"
    assert client_address(rf.get("/", REMOTE_ADDR="10.0.0.1")) == "10.0.0.1"


def behind_proxy(device: str) -> Client:
    """A device in the hall as the app sees it behind one proxy on this machine."""
    return Client(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=device)


@pytest.mark.django_db
def test_behind_a_proxy_wrong_links_stop_only_their_device(settings):
    """Behind a proxy every request came from the proxy's address, so one device's
    wrong links made the hall wait."""
    settings.TRUSTED_PROXY_COUNT = 1
    attacker, neighbour = behind_proxy("192.168.1.66"), behind_proxy("192.168.1.23")
    for n in range(10):
        assert attacker.get(f"/t/falsch{n}/").status_code == 404
    assert attacker.get("/t/falsch/").status_code == 429
    assert neighbour.get("/t/vertippt/").status_code == 404


@pytest.mark.django_db
def test_behind_a_proxy_wrong_codes_stop_only_their_device(settings, roster_evening):
    settings.TRUSTED_PROXY_COUNT = 1
    services.draw_session(evening=roster_evening, seed=1)
    table = Table.objects.get(evening=roster_evening, number=2)
    wrong = "BBBBBB" if table.code != "BBBBBB" else "CCCCCC"
    url = reverse("public:tablet_join")
    attacker, neighbour = behind_proxy("192.168.1.66"), behind_proxy("192.168.1.23")
    for _ in range(settings.TABLE_CODE_DEVICE_LIMIT):
        attacker.post(url, {"number": "2", "code": wrong})
    assert attacker.post(url, {"number": "2", "code": table.code}).status_code == 429
    assert neighbour.post(url, {"number": "2", "code": table.code}).status_code == 302


@pytest.mark.django_db
def test_behind_a_proxy_wrong_passwords_lock_only_their_device(settings, organiser):
    """django-axes counts by user name and address (AXES_CLIENT_IP_CALLABLE): the organiser's
    laptop logs in while a phone that tried five wrong passwords is locked."""
    settings.TRUSTED_PROXY_COUNT = 1
    phone, laptop = behind_proxy("192.168.1.66"), behind_proxy("192.168.1.20")
    for _ in range(5):
        phone.post(reverse("login"), {"username": "leitung", "password": "falsch"})
    assert phone.post(reverse("login"), {"username": "leitung", "password": "geheim-123"}).status_code == 429
    assert AccessAttempt.objects.get().ip_address == "192.168.1.66"
    response = laptop.post(reverse("login"), {"username": "leitung", "password": "geheim-123"})
    assert response.status_code == 302 and laptop.session["_auth_user_id"] == str(organiser.pk)


@pytest.mark.django_db
def test_behind_a_proxy_the_deal_history_names_the_tablets_address(settings, roster_evening):
    """The history of a deal keeps the device's address, not the proxy's (TRUSTED_PROXY_COUNT)."""
    settings.TRUSTED_PROXY_COUNT = 1
    services.draw_session(evening=roster_evening, seed=1)
    seating = Seating.objects.select_related("table").get(
        table__evening=roster_evening, table__number=1, round__number=1
    )
    tablet = behind_proxy("192.168.1.31")
    url = reverse("scorer:deal", args=[seating.table.token, 1])
    data = {"seating": seating.pk, "winner": "A", "bonus_a": 0, "bonus_b": 0, "key": str(uuid.uuid4()), "version": 0}
    response = tablet.post(url, data)
    assert response.status_code in (200, 302)
    change = Deal.objects.get(seating=seating, number=1).changes.get()
    assert change.client == "192.168.1.31"


@pytest.mark.django_db
def test_public_pages_are_read_only(client):
    for name in ("public:home", "public:help"):
        assert client.get(reverse(name)).status_code == 200
        assert client.post(reverse(name)).status_code == 405


@pytest.mark.django_db
def test_scorer_forms_are_csrf_protected(roster_evening):
    services.draw_session(evening=roster_evening, seed=1)
    table = Table.objects.get(evening=roster_evening, number=1)
    seating = Seating.objects.filter(table=table, round__number=1).get()
    strict = Client(enforce_csrf_checks=True)
    response = strict.post(
        reverse("scorer:deal", args=[table.token, 1]),
        {"seating": seating.pk, "winner": "A", "bonus_a": 0, "bonus_b": 0},
    )
    assert response.status_code == 403
    assert not Deal.objects.exists()


@pytest.mark.django_db
def test_security_headers(client):
    response = client.get(reverse("public:home"))
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"


@pytest.mark.django_db
def test_organiser_can_still_correct_with_service_after_regeneration(roster_evening, organiser):
    services.draw_session(evening=roster_evening, seed=1)
    seating = Seating.objects.filter(round__number=1).select_related("table").first()
    services.regenerate_table_link(table_id=seating.table_id)
    deal = factories.enter_deal(seating, user=organiser)
    assert deal.points_a == 1


# --- Old doors --------------------------------------------------------------


@pytest.mark.django_db
def test_the_django_admin_is_off_unless_admin_enabled(client, django_user_model, settings):
    """The admin edits any record past the app's rules; off, even a superuser finds no door."""
    assert settings.ADMIN_ENABLED is False
    client.force_login(django_user_model.objects.create_superuser("chef", "", "Chef-Passwort-1"))
    for path in ("/admin/", "/admin/login/", "/admin/auth/user/"):
        assert client.get(path).status_code == 404, path


@pytest.mark.django_db
def test_admin_enabled_opens_the_django_admin(client, settings):
    import importlib

    from django.urls import clear_url_caches

    import bruus_tournament.urls

    settings.ADMIN_ENABLED = True
    try:
        importlib.reload(bruus_tournament.urls)
        clear_url_caches()
        assert client.get("/admin/login/").status_code == 200
    finally:
        settings.ADMIN_ENABLED = False
        importlib.reload(bruus_tournament.urls)
        clear_url_caches()
    assert client.get("/admin/login/").status_code == 404
