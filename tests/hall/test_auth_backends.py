"""The login backend reads a login's permissions in one query and answers exactly as Django's
ModelBackend: which organiser pages a login may open depends on it."""

from __future__ import annotations

import pytest
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import Permission
from django.urls import reverse

from scoring.hall.auth_backends import OrganiserBackend
from scoring.hall.roles import ASSIST_PERM, HELPER, LEADER, MANAGE_LOGINS_PERM, RUN_PERM
from tests.conftest import make_login

pytestmark = pytest.mark.django_db


def _fresh(user):
    return type(user).objects.get(pk=user.pk)  # no permission cache on the object


def _logins(django_user_model):
    leader = make_login(django_user_model, "leitung", LEADER)
    helper = make_login(django_user_model, "helfer", HELPER)
    nobody = make_login(django_user_model, "niemand", None)
    direct = make_login(django_user_model, "direkt", HELPER)
    direct.user_permissions.add(Permission.objects.get(codename="run_evening"))
    inactive = make_login(django_user_model, "weg", LEADER)
    inactive.is_active = False
    inactive.save()
    boss = django_user_model.objects.create_superuser("chef", password="geheim-123")
    return leader, helper, nobody, direct, inactive, boss


def test_the_same_permissions_as_djangos_model_backend(django_user_model):
    for user in _logins(django_user_model):
        assert OrganiserBackend().get_all_permissions(_fresh(user)) == ModelBackend().get_all_permissions(
            _fresh(user)
        ), user.username


def test_roles_as_the_pages_need_them(django_user_model):
    leader, helper, nobody, direct, inactive, boss = (_fresh(u) for u in _logins(django_user_model))
    assert {ASSIST_PERM, RUN_PERM, MANAGE_LOGINS_PERM} <= leader.get_all_permissions()
    assert helper.has_perm(ASSIST_PERM) and not helper.has_perm(RUN_PERM)
    assert nobody.get_all_permissions() == set() and not nobody.has_perm(ASSIST_PERM)
    assert direct.has_perm(RUN_PERM) and direct.has_perm(ASSIST_PERM)  # own permission and group's
    assert not inactive.has_perm(ASSIST_PERM)
    assert boss.has_perm(MANAGE_LOGINS_PERM)


def test_one_query_for_all_permissions_then_none(django_user_model, django_assert_num_queries):
    direct = _fresh(_logins(django_user_model)[3])
    with django_assert_num_queries(1):
        assert direct.has_perm(RUN_PERM) and direct.has_perm(ASSIST_PERM)
    with django_assert_num_queries(0):
        direct.get_all_permissions()


def test_a_helper_is_refused_a_leaders_page_and_may_open_a_helpers(client, django_user_model, roster_evening):
    client.force_login(make_login(django_user_model, "helfer", HELPER))
    assert client.get(reverse("organiser:evening_detail", args=[roster_evening.pk])).status_code == 200
    assert client.get(reverse("organiser:logins")).status_code == 403
