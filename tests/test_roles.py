"""Roles (issue 9): every organiser URL, taken from the URLconf so that a new one cannot be
forgotten, opened as anonymous, as a login without a role, as Helfer and as Turnierleitung."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.urls import URLResolver, get_resolver, reverse

from scoring import services
from scoring.models import PartnerExclusion, Player, Round, Seating
from scoring.roles import HELPER, LEADER
from tests.conftest import make_evening, make_login

# Which role each organiser page needs. "helper": Helfer and Turnierleitung; "leader":
# Turnierleitung only. A URL missing here fails test_the_matrix_names_every_organiser_url.
NEEDS = {
    "evening_list": "helper",
    "evening_create": "leader",
    "evening_detail": "helper",
    "evening_players": "helper",
    "check_in": "helper",
    "session_draw": "leader",
    "table_link_regenerate": "leader",
    "session_detail": "helper",
    "ranking": "helper",
    "deal_results": "helper",
    "seating_detail": "helper",
    "live": "helper",
    "round_lock": "leader",
    "session_close": "leader",
    "ranking_visibility": "leader",
    "seating_confirm": "helper",
    "stand_in": "leader",
    "mix_clubs": "leader",
    "evening_language": "leader",
    "evening_tiebreaks": "leader",
    "evening_rule_set": "leader",
    "exclusion_add": "leader",
    "exclusion_remove": "leader",
    "session_redraw": "leader",
    "session_swap": "leader",
    "session_replace": "leader",
    "fairness": "helper",
    "tablets": "helper",
    "tablet_unlock": "leader",
    "table_cards_pdf": "helper",
    "logins": "leader",
    "login_password": "leader",
    "login_role": "leader",
    "login_active": "leader",
    "player_list": "helper",
    "player_edit": "helper",
    "player_import": "helper",
    "player_detail": "helper",
    "player_merge": "leader",
    "ranking_pdf": "helper",
    "score_sheets_pdf": "helper",
    "table_list_pdf": "helper",
    "route_cards_pdf": "helper",
    "season_list": "helper",
    "season_create": "leader",
    "season_detail": "helper",
    "season_edit": "leader",
    "season_pdf": "helper",
}


def organiser_patterns():
    """Every URL pattern under the ``organiser`` namespace, straight from the URLconf."""
    resolver = next(p for p in get_resolver().url_patterns if isinstance(p, URLResolver) and p.namespace == "organiser")
    return list(resolver.url_patterns)


def test_the_matrix_names_every_organiser_url():
    names = [p.name for p in organiser_patterns()]
    assert len(names) == len(set(names))
    assert set(names) == set(NEEDS), "add the new organiser URL to NEEDS with the role it needs"


def test_every_organiser_view_declares_its_role():
    for pattern in organiser_patterns():
        assert getattr(pattern.callback, "required_permission", None), pattern.name


@pytest.fixture
def world(db, django_user_model):
    """An evening with session 1 drawn, a confirmed seating, a wish, and the logins."""
    evening = make_evening(10)
    session = services.draw_session(evening=evening, seed=3)
    player = Player.objects.filter(participations__evening=evening).first()
    a, b = Player.objects.filter(participations__evening=evening).order_by("pk")[:2]
    exclusion = PartnerExclusion.objects.create(evening=evening, player_a=a, player_b=b)
    seating = Seating.objects.filter(round__session=session).order_by("pk").first()
    users = {
        "none": make_login(django_user_model, "ohne-rolle", None),
        "helper": make_login(django_user_model, "helfer", HELPER),
        "leader": make_login(django_user_model, "leitung", LEADER),
    }
    season = services.save_season(name="Saison", year=2026, scoring="sum", planned_evenings=2, evening_ids=[evening.pk])
    return {
        "season": season,
        "evening": evening,
        "player": player,
        "exclusion": exclusion,
        "seating": seating,
        "round": Round.objects.filter(session=session).first(),
        "users": users,
    }


def _url(pattern, world) -> str:
    route = str(pattern.pattern)
    kwargs = {}
    for name in pattern.pattern.converters:
        if name == "pk":
            kwargs[name] = world["seating"].pk if route.startswith("tischrunde/") else world["evening"].pk
        elif name == "number":
            kwargs[name] = 1
        elif name == "player_pk":
            kwargs[name] = world["player"].pk
        elif name == "round_pk":
            kwargs[name] = world["round"].pk
        elif name == "exclusion_pk":
            kwargs[name] = world["exclusion"].pk
        elif name == "season_pk":
            kwargs[name] = world["season"].pk
        elif name == "user_pk":
            kwargs[name] = world["users"]["helper"].pk
        else:  # pragma: no cover - a new converter needs a value here
            raise AssertionError(f"no value for {name} in {route}")
    return reverse(f"organiser:{pattern.name}", kwargs=kwargs)


def _open(client, url):
    """GET, or POST (empty form) for views that only take POST."""
    response = client.get(url)
    if response.status_code == 405:
        response = client.post(url)
    return response


@pytest.mark.django_db
def test_roles_matrix(client, world):
    patterns = organiser_patterns()
    urls = {p.name: _url(p, world) for p in patterns}
    login = reverse("login")

    for name, url in urls.items():  # anonymous: the login page, then back
        response = _open(client, url)
        assert response.status_code == 302 and response["Location"].startswith(login), name

    for role in ("none", "helper", "leader"):
        client.force_login(world["users"][role])
        for name, url in urls.items():
            response = _open(client, url)
            allowed = role == "leader" or (role == "helper" and NEEDS[name] == "helper")
            assert response.status_code < 500, (role, name, response.status_code)
            if allowed:
                assert response.status_code != 403, (role, name)
                assert not response.get("Location", "").startswith(login), (role, name)
            else:
                assert response.status_code == 403, (role, name, response.status_code)
                page = response.content.decode()
                assert "Nicht für diese Anmeldung" in page or "Not for this login" in page, (role, name)
        client.logout()


@pytest.mark.django_db
def test_a_helper_enters_deals_from_paper_but_never_corrects_a_confirmed_round(client, world):
    seating = world["seating"]
    client.force_login(world["users"]["helper"])
    url = reverse("organiser:seating_detail", args=[seating.pk])
    data = {"number": 1, "seating": seating.pk, "winner": "A", "bonus_a": 0, "bonus_b": 0, "version": 0}
    response = client.post(url, data)
    assert response.status_code == 302
    assert seating.deals.get(number=1).winner == "A"
    for number in range(2, seating.round.session.evening.deals_per_round + 1):
        client.post(url, {**data, "number": number})
    # Confirmed on both teams' behalf: only the Turnierleitung may correct it now.
    services.mark_seating_entered(seating_id=seating.pk, table=seating.table, team="A")
    services.confirm_seating(seating_id=seating.pk, team="B", table=seating.table, via="Test")
    response = client.post(url, {**data, "winner": "B", "version": 1, "reason": "Zettel falsch gelesen"})
    assert response.status_code == 403
    assert "Turnierleitung" in response.content.decode()
    assert seating.deals.get(number=1).winner == "A"
    page = client.get(url + "?deal=1").content.decode()
    assert 'data-testid="leader-corrects"' in page and 'id="edit"' not in page


@pytest.mark.django_db
def test_a_helper_sees_no_draw_button_and_no_link_renewal(client, world):
    client.force_login(world["users"]["helper"])
    page = client.get(reverse("organiser:evening_detail", args=[world["evening"].pk])).content.decode()
    assert "Neuer Link" not in page
    page = client.get(reverse("organiser:evening_list")).content.decode()
    assert reverse("organiser:logins") not in page
    client.force_login(world["users"]["leader"])
    page = client.get(reverse("organiser:evening_list")).content.decode()
    assert reverse("organiser:logins") in page


@pytest.mark.django_db
def test_the_migration_made_both_groups_with_their_permissions():
    leader = set(Group.objects.get(name=LEADER).permissions.values_list("codename", flat=True))
    helper = set(Group.objects.get(name=HELPER).permissions.values_list("codename", flat=True))
    assert leader == {"assist_evening", "run_evening", "manage_logins"}
    assert helper == {"assist_evening"}


@pytest.mark.django_db
def test_the_demo_login_is_turnierleitung(settings, tmp_path):
    from scoring.demo import DEMO_USER, load_demo
    from tests.conftest import ROSTER

    load_demo(ROSTER)
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.get(username=DEMO_USER)
    assert user.groups.filter(name=LEADER).exists()
