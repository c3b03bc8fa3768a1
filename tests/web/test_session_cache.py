"""Organiser logins are read from a copy in files (SESSION_ENGINE cached_db, scoring.web.caches):
a poll of the live overview needs no query for its login, a logout counts at once on this
machine, and a copy lives at most a minute (a second machine's logout reaches this one)."""

from __future__ import annotations

import time

import pytest
from django.conf import settings
from django.contrib.sessions.models import Session as StoredSession
from django.core.cache import caches
from django.urls import reverse

from scoring import services
from scoring.web import caches as project_caches

pytestmark = pytest.mark.django_db


def test_the_login_copy_is_shared_files_under_data_dir():
    backend = caches[settings.SESSION_CACHE_ALIAS]
    assert isinstance(backend, project_caches.ShortLivedFileCache)
    assert str(settings.DATA_DIR) in settings.CACHES[settings.SESSION_CACHE_ALIAS]["LOCATION"]
    assert settings.SESSION_ENGINE == "django.contrib.sessions.backends.cached_db"


def test_an_entry_lives_at_most_a_minute_whatever_is_asked(monkeypatch):
    backend = caches[settings.SESSION_CACHE_ALIAS]
    backend.set("k", "v", 14 * 24 * 3600)  # what cached_db asks for: the session's whole age
    assert backend.get("k") == "v"
    now = time.time()
    assert backend.get_backend_timeout(None) <= now + project_caches.MAX_AGE_SECONDS + 1  # None: "for ever"
    monkeypatch.setattr(time, "time", lambda: now + project_caches.MAX_AGE_SECONDS + 1)
    assert backend.get("k") is None


def test_a_poll_finds_its_login_without_the_database(organiser_client, roster_evening, django_assert_num_queries):
    services.draw_session(evening=roster_evening, seed=1)
    url = reverse("organiser:live", args=[roster_evening.pk])
    organiser_client.get(url)  # the CSRF cookie
    tag = organiser_client.get(url, HTTP_HX_REQUEST="true")["ETag"]
    with django_assert_num_queries(1):  # the evening's version; the login and its permissions: copies in files
        assert organiser_client.get(url, HTTP_IF_NONE_MATCH=tag, HTTP_HX_REQUEST="true").status_code == 304


def test_a_poll_that_gets_the_grid_takes_two_queries_at_any_size(
    organiser_client, roster_evening, django_assert_num_queries
):
    """While deals arrive most live-overview polls get the grid: from the shared
    cache it takes the evening (with its version) and its sessions: 2 queries."""
    services.draw_session(evening=roster_evening, seed=1)
    url = reverse("organiser:live", args=[roster_evening.pk]) + "?durchgang=1"
    organiser_client.get(url)  # the CSRF cookie
    organiser_client.get(url, HTTP_HX_REQUEST="true")  # grid and rows now in the shared cache
    with django_assert_num_queries(2):
        response = organiser_client.get(url, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and 'data-testid="live-counts"' in response.content.decode()


def test_logout_counts_at_once_and_a_deleted_login_after_a_minute(
    organiser_client, organiser, roster_evening, monkeypatch
):
    url = reverse("organiser:evening_detail", args=[roster_evening.pk])
    assert organiser_client.get(url).status_code == 200
    organiser_client.post(reverse("logout"))
    assert organiser_client.get(url).status_code == 302  # to the login page
    # Another machine's logout deletes the database row only; this machine's copy expires.
    organiser_client.force_login(organiser)
    assert organiser_client.get(url).status_code == 200
    StoredSession.objects.all().delete()
    assert organiser_client.get(url).status_code == 200  # the copy, for at most a minute
    now = time.time()
    monkeypatch.setattr(time, "time", lambda: now + project_caches.MAX_AGE_SECONDS + 1)
    assert organiser_client.get(url).status_code == 302


def test_the_served_workers_switch_threads_every_millisecond(monkeypatch):
    """gunicorn's workers (forked after bruus_tournament.gunicorn_conf ran) hand the
    interpreter lock on after 1 ms, not Python's 5: a deal entry's many short database waits
    then do not queue behind another thread's page (README "How far one laptop carries")."""
    import importlib
    import sys

    before = sys.getswitchinterval()
    try:
        monkeypatch.delenv("GIL_SWITCH_INTERVAL", raising=False)
        importlib.reload(importlib.import_module("bruus_tournament.gunicorn_conf"))
        assert sys.getswitchinterval() == pytest.approx(0.001)
    finally:
        sys.setswitchinterval(before)


def test_a_served_worker_leaves_what_it_loaded_out_of_full_garbage_collections():
    """Once a gunicorn worker has loaded the app, what it loaded (Django, every module, the
    models) is frozen out of Python's full garbage collections: under load each of them walked
    it all, about 100 ms during which the worker's other requests waited."""
    import gc

    from bruus_tournament import gunicorn_conf

    gc.unfreeze()
    try:
        gunicorn_conf.post_worker_init(worker=None)
        assert gc.get_freeze_count() > 10_000  # tens of thousands of objects no longer walked
    finally:
        gc.unfreeze()


# --- The login and its permissions: a copy too (scoring.hall.auth_backends) ----------------------------


def _two_leaders(django_user_model):
    from scoring.hall.roles import LEADER
    from tests.conftest import make_login

    return make_login(django_user_model, "chefin", LEADER), make_login(django_user_model, "vertretung", LEADER)


def test_a_changed_role_counts_with_the_next_request(client, django_user_model):
    from django.contrib.auth.models import Group, Permission

    from scoring.hall.roles import ASSIST, HELPER
    from scoring.services import accounts

    boss, deputy = _two_leaders(django_user_model)
    client.force_login(deputy)
    logins = reverse("organiser:logins")  # Turnierleitung only
    assert client.get(logins).status_code == 200  # the copy now holds a leader
    accounts.change_role(user_id=deputy.pk, role=HELPER)
    assert client.get(logins).status_code == 403
    assert client.get(reverse("organiser:evening_list")).status_code == 200  # a helper's page
    # A role's own permissions: every login with the role counts at once.
    helpers = Group.objects.get(name=HELPER)
    helpers.permissions.clear()
    assert client.get(reverse("organiser:evening_list")).status_code == 403
    helpers.permissions.add(Permission.objects.get(codename=ASSIST))
    assert client.get(reverse("organiser:evening_list")).status_code == 200


def test_a_new_password_or_a_deactivated_login_counts_with_the_next_request(client, django_user_model):
    from scoring.services import accounts

    boss, deputy = _two_leaders(django_user_model)
    page = reverse("organiser:evening_list")
    client.force_login(deputy)
    assert client.get(page).status_code == 200
    accounts.reset_password(user_id=deputy.pk, password="ein-ganz-neues-Passwort-7")
    assert client.get(page).status_code == 302  # logged out: the session held the old password's hash
    deputy.refresh_from_db()
    client.force_login(deputy)
    assert client.get(page).status_code == 200
    accounts.set_active(user_id=deputy.pk, active=False, by=boss)
    assert client.get(page).status_code == 302


def test_a_change_made_on_another_machine_counts_within_a_minute(client, django_user_model, monkeypatch):
    boss, deputy = _two_leaders(django_user_model)
    page = reverse("organiser:evening_list")
    client.force_login(deputy)
    assert client.get(page).status_code == 200
    # Another machine behind the same database changes the row; this machine hears nothing.
    type(deputy).objects.filter(pk=deputy.pk).update(is_active=False)
    assert client.get(page).status_code == 200  # this machine's copy, for at most a minute
    now = time.time()
    monkeypatch.setattr(time, "time", lambda: now + project_caches.MAX_AGE_SECONDS + 1)
    assert client.get(page).status_code == 302


def test_the_copy_is_forgotten_again_when_the_change_commits(django_user_model, django_capture_on_commit_callbacks):
    from scoring.hall.auth_backends import OrganiserBackend, login_key

    boss, deputy = _two_leaders(django_user_model)
    copies = caches[settings.SESSION_CACHE_ALIAS]
    with django_capture_on_commit_callbacks(execute=True):
        deputy.is_active = False
        deputy.save()
        # A request in between (before the commit) reads the old row and copies it ...
        copies.set(login_key(deputy.pk), boss)
    # ... and the commit forgets that copy too.
    assert copies.get(login_key(deputy.pk)) is None
    assert OrganiserBackend().get_user(deputy.pk) is None  # inactive: no login


def test_a_role_given_or_taken_from_the_roles_side_counts_too(client, django_user_model):
    from django.contrib.auth.models import Group

    from scoring.hall.roles import HELPER, LEADER

    boss, deputy = _two_leaders(django_user_model)
    client.force_login(deputy)
    page = reverse("organiser:evening_list")
    assert client.get(page).status_code == 200
    Group.objects.get(name=LEADER).user_set.remove(deputy)  # from the role's side
    assert client.get(page).status_code == 403
    Group.objects.get(name=HELPER).user_set.add(deputy)
    assert client.get(page).status_code == 200
    Group.objects.get(name=HELPER).delete()  # a role deleted: every login with it
    assert client.get(page).status_code == 403
