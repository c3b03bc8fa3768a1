"""The page "Anmeldungen" (Turnierleitung only): create a login with a role, new password, change
the role, deactivate; Django's password validators stay on; the club never locks itself out."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from scoring.hall.roles import HELPER, LEADER, MANAGE_LOGINS_PERM, RUN_PERM, role_of
from scoring.setup.demo import DEMO_PASSWORD, DEMO_USER
from tests.conftest import make_login

pytestmark = pytest.mark.django_db
URL = reverse("organiser:logins")


def log_in(client, username, password) -> bool:
    """Through the login page (django-axes needs the request)."""
    response = client.post(reverse("login"), {"username": username, "password": password})
    return response.status_code == 302


def new_login(client, username, password, role=HELPER, again=None):
    return client.post(
        URL,
        {"username": username, "role": role, "password1": password, "password2": password if again is None else again},
    )


def test_the_turnierleitung_creates_a_helper_who_can_log_in(organiser_client):
    response = new_login(organiser_client, "kasse", "Kassentisch-2026")
    assert response.status_code == 302
    user = get_user_model().objects.get(username="kasse")
    assert role_of(user) == HELPER
    helper = Client()
    assert log_in(helper, "kasse", "Kassentisch-2026")
    assert helper.get(reverse("organiser:evening_list")).status_code == 200
    assert helper.get(URL).status_code == 403


@pytest.mark.parametrize(
    ("password", "again", "message"),
    [
        ("kurz", None, "zu kurz"),
        (DEMO_PASSWORD, None, "Demo-Passwort"),
        ("kassentisch", None, "zu ähnlich"),  # similar to the user name
        ("Kassentisch-2026", "Kassentisch-2027", "verschieden"),
    ],
)
def test_weak_demo_or_mismatched_passwords_are_refused_and_nothing_is_saved(organiser_client, password, again, message):
    response = new_login(organiser_client, "kassentisch", password, again=again)
    assert response.status_code == 422
    assert message in response.content.decode()
    assert not get_user_model().objects.filter(username="kassentisch").exists()


def test_new_password_role_and_deactivation(organiser_client, django_user_model):
    helper = make_login(django_user_model, "helfer", HELPER)
    response = organiser_client.post(
        reverse("organiser:login_password", args=[helper.pk]),
        {f"u{helper.pk}-password1": "Neu-und-lang-1", f"u{helper.pk}-password2": "Neu-und-lang-1"},
    )
    assert response.status_code == 302
    helper.refresh_from_db()
    assert helper.check_password("Neu-und-lang-1")
    response = organiser_client.post(
        reverse("organiser:login_password", args=[helper.pk]),
        {f"u{helper.pk}-password1": "123", f"u{helper.pk}-password2": "123"},
    )
    assert response.status_code == 422 and "zu kurz" in response.content.decode()
    organiser_client.post(reverse("organiser:login_role", args=[helper.pk]), {"role": LEADER})
    assert role_of(django_user_model.objects.get(pk=helper.pk)) == LEADER
    organiser_client.post(reverse("organiser:login_active", args=[helper.pk]), {"active": "0"})
    assert not django_user_model.objects.get(pk=helper.pk).is_active
    assert not log_in(Client(), "helfer", "Neu-und-lang-1")


def test_the_club_never_locks_itself_out(organiser_client, organiser):
    response = organiser_client.post(
        reverse("organiser:login_active", args=[organiser.pk]), {"active": "0"}, follow=True
    )
    assert "eigene Anmeldung" in response.content.decode()
    response = organiser_client.post(
        reverse("organiser:login_role", args=[organiser.pk]), {"role": HELPER}, follow=True
    )
    assert "letzte Anmeldung der Turnierleitung" in response.content.decode()
    organiser.refresh_from_db()
    assert organiser.is_active and role_of(organiser) == LEADER
    response = organiser_client.post(
        reverse("organiser:login_role", args=[organiser.pk]), {"role": "Chef"}, follow=True
    )
    assert response.status_code == 200 and role_of(organiser) == LEADER


def test_a_superuser_made_helper_is_a_helper(organiser_client, django_user_model):
    """Django lets a superuser do everything whatever its groups; a role given
    in the app takes the superuser and staff flags away."""
    boss = django_user_model.objects.create_superuser("chef", "", "Chef-Passwort-1")
    response = organiser_client.post(reverse("organiser:login_role", args=[boss.pk]), {"role": HELPER}, follow=True)
    assert response.status_code == 200
    boss = django_user_model.objects.get(pk=boss.pk)
    assert (boss.is_superuser, boss.is_staff, role_of(boss)) == (False, False, HELPER)
    assert boss.has_perm("scoring.assist_evening") and not boss.has_perm(RUN_PERM)
    chef = Client()
    assert log_in(chef, "chef", "Chef-Passwort-1")
    assert chef.get(reverse("organiser:evening_list")).status_code == 200
    assert chef.get(URL).status_code == 403


def test_make_organiser_takes_the_old_demo_logins_superuser_away(monkeypatch, django_user_model):
    """The demo login of earlier versions was a superuser: ``make organiser`` (which the start
    refusal asks for) leaves it a Turnierleitung login and nothing more."""
    from django.core.management import call_command

    old_demo = django_user_model.objects.create_superuser(DEMO_USER, "", DEMO_PASSWORD)
    typed = iter(["Deichgraf-1953", "Deichgraf-1953"])
    monkeypatch.setattr("getpass.getpass", lambda prompt="": next(typed))
    call_command("organiser", DEMO_USER)
    old_demo = django_user_model.objects.get(pk=old_demo.pk)
    assert (old_demo.is_superuser, old_demo.is_staff, role_of(old_demo)) == (False, False, LEADER)
    assert old_demo.has_perm(RUN_PERM) and old_demo.has_perm(MANAGE_LOGINS_PERM)


def test_the_last_leader_stays_a_leader_also_as_a_superuser(django_user_model):
    from scoring.services import accounts

    boss = django_user_model.objects.create_superuser("chef", "", "Chef-Passwort-1")
    with pytest.raises(accounts.LoginError):
        accounts.change_role(user_id=boss.pk, role=HELPER)
    assert django_user_model.objects.get(pk=boss.pk).is_superuser


@pytest.mark.parametrize("char", ["\u200b", "\u00ad", "\ufeff", "\u202e"])
def test_a_login_name_with_an_invisible_character_is_refused_and_says_why(organiser_client, char):
    response = new_login(organiser_client, f"kas{char}se", "Kassentisch-2026")
    assert response.status_code == 422
    assert "unsichtbares Zeichen" in response.content.decode() and f"U+{ord(char):04X}" in response.content.decode()
    assert not get_user_model().objects.filter(username__startswith="kas").exists()


def test_the_help_page_has_the_arithmetic_of_the_table_codes(client):
    page = client.get(reverse("public:help")).content.decode()
    assert "64.000.000 mögliche Codes" in page
    # Limits per device only, decaying (one more try every 6 minutes), so in 6 hours
    # 10 + 60 tries per device; the chance grows with the evenings being played
    # (tests/hall/test_tablets.py counts them).
    assert "höchstens 10 falsche Codes in 60 Minuten" in page and "alle 6 Minuten" in page
    assert "höchstens 70 Versuche" in page
    assert "1 zu 914.286" in page and "1 zu 91.429" in page
