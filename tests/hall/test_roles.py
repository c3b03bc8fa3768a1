"""Roles: every organiser URL, taken from the URLconf so that a new one cannot be
forgotten, opened as anonymous, as a login without a role, as Helfer and as Turnierleitung."""

from __future__ import annotations

import threading
import time

import pytest
from django.contrib.auth.models import Group
from django.db import connection, transaction
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import translation

from scoring import services
from scoring.hall.origin import Origin, describe
from scoring.hall.roles import HELPER, LEADER
from scoring.models import DealChange, PartnerExclusion, Player, Round, Seating
from tests import factories
from tests.conftest import make_evening, make_login

# Which role each organiser page needs. "helper": Helfer and Turnierleitung; "leader":
# Turnierleitung only. A URL missing here fails test_the_matrix_names_every_organiser_url.
NEEDS = {
    "evening_list": "helper",
    "evening_create": "leader",
    "evening_detail": "helper",
    "evening_players": "helper",
    "check_in": "helper",
    "check_in_all": "helper",
    "check_in_last": "helper",
    "check_in_undo": "helper",
    "session_draw": "leader",
    "table_link_regenerate": "leader",
    "session_detail": "helper",
    "ranking": "helper",
    "deal_results": "helper",
    "seating_detail": "helper",
    "live": "helper",
    "round_lock": "leader",
    "clock_action": "leader",
    "clock_settings": "leader",
    "session_close": "leader",
    "ranking_visibility": "leader",
    "projector_mode": "leader",
    "seating_confirm": "helper",
    "stand_in": "leader",
    "mix_clubs": "leader",
    "evening_language": "leader",
    "evening_tiebreaks": "leader",
    "evening_rule_set": "leader",
    "evening_rename": "leader",
    "evening_archive": "leader",
    "evening_delete": "leader",
    "exclusion_add": "leader",
    "exclusion_remove": "leader",
    "session_redraw": "leader",
    "session_swap": "leader",
    "session_replace": "leader",
    "fairness": "helper",
    "tablets": "helper",
    "tablet_unlock": "helper",
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
    "session_print_pdf": "helper",
    "certificates_pdf": "helper",
    "prize_list_pdf": "helper",
    "results_html": "helper",
    "backups": "leader",
    "online": "leader",
    "evening_publish_mode": "leader",
    "evening_send_again": "leader",
    "player_online_name": "leader",
    "backup_all": "leader",
    "backup_evening": "leader",
    "backup_restore": "leader",
    "backup_restore_confirm": "leader",
}


def organiser_patterns():
    """Every URL pattern under the ``organiser`` namespace, straight from the URLconf."""
    resolver = next(p for p in get_resolver().url_patterns if isinstance(p, URLResolver) and p.namespace == "organiser")

    def walk(patterns) -> list[URLPattern]:  # the features' modules, each included once
        return [q for p in patterns for q in (walk(p.url_patterns) if isinstance(p, URLResolver) else [p])]

    return walk(resolver.url_patterns)


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
    services.confirm_seating(seating_id=seating.pk, team="B", table=seating.table, origin=Origin.other("Test"))
    changes = DealChange.objects.count()
    for extra in ({"reason": "Zettel falsch gelesen"}, {"reason": "Brauch", "accept_impossible": "on"}):
        response = client.post(url, {**data, "winner": "B", "version": 1, **extra})
        assert response.status_code == 200
        assert "Korrigieren kann sie jetzt nur noch die Turnierleitung" in response.content.decode()
    assert seating.deals.get(number=1).winner == "A" and DealChange.objects.count() == changes
    page = client.get(url + "?deal=1").content.decode()
    assert 'data-testid="leader-corrects"' in page and 'id="edit"' not in page


def _played(seating):
    """Every deal of ``seating`` entered at its table and the round finished by team A."""
    factories.enter_round(seating)
    services.mark_seating_entered(seating_id=seating.pk, table=seating.table, team="A")


@pytest.mark.django_db
def test_a_round_confirmed_while_the_helpers_correction_is_on_its_way_stays_as_confirmed(client, world, monkeypatch):
    """The view reads the round unconfirmed, then team B confirms at the table, then
    the service runs. The service decides with the round locked: nothing changes."""
    seating = world["seating"]
    _played(seating)
    client.force_login(world["users"]["helper"])
    url = reverse("organiser:seating_detail", args=[seating.pk])
    enter_deal = services.enter_deal

    def confirmed_meanwhile(**kwargs):
        services.confirm_seating(seating_id=seating.pk, team="B", table=seating.table, origin=Origin.other("Tisch"))
        return enter_deal(**kwargs)

    monkeypatch.setattr(services, "enter_deal", confirmed_meanwhile)
    changes = DealChange.objects.count()
    data = {"number": 1, "seating": seating.pk, "winner": "B", "bonus_a": 0, "bonus_b": 0, "version": 1}
    response = client.post(url, {**data, "reason": "Zettel falsch gelesen"})
    assert response.status_code == 200
    assert "Korrigieren kann sie jetzt nur noch die Turnierleitung" in response.content.decode()
    seating.refresh_from_db()
    assert seating.confirmed_at is not None and seating.deals.get(number=1).winner == "A"
    assert DealChange.objects.count() == changes


@pytest.mark.django_db(transaction=True)
def test_on_postgresql_the_helpers_correction_waits_for_the_confirmations_lock_and_is_refused(django_user_model):
    """The real race with two connections: the table's confirmation holds the seating's row lock;
    the Helfer's correction waits for it, then sees the confirmed round and changes nothing.
    PostgreSQL only (``make test`` runs it there): the SQLite test database lives in memory, where
    a second connection is refused instead of waiting."""
    if connection.vendor != "postgresql":
        pytest.skip("two connections waiting for a row lock need PostgreSQL")
    evening = make_evening(8)
    services.draw_session(evening=evening, seed=3)
    seating = Seating.objects.select_related("table", "round__session__evening").filter(round__number=1).first()
    _played(seating)
    helper = make_login(django_user_model, "helfer", HELPER)
    locked, release = threading.Event(), threading.Event()
    outcome = []

    def confirm():
        try:
            with transaction.atomic():
                services.confirm_seating(
                    seating_id=seating.pk, team="B", table=seating.table, origin=Origin.other("Tisch")
                )
                locked.set()
                release.wait(10)
        finally:
            connection.close()

    def correct():
        try:
            factories.enter_deal(seating, 1, "B", user=helper, reason="Zettel falsch gelesen")
            outcome.append("saved")
        except services.ServiceError as error:
            outcome.append(error.code)
        finally:
            connection.close()

    table, helper_thread = threading.Thread(target=confirm), threading.Thread(target=correct)
    table.start()
    assert locked.wait(10)
    helper_thread.start()
    waited = False
    for _ in range(200):  # until the Helfer's transaction waits for the row lock
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'")
            waited = cursor.fetchone()[0] > 0
        if waited:
            break
        time.sleep(0.05)
    release.set()
    table.join(10)
    helper_thread.join(10)
    assert waited and outcome == ["confirmed_leader_only"]
    seating.refresh_from_db()
    assert seating.confirmed_at is not None and seating.deals.get(number=1).winner == "A"


@pytest.mark.django_db
def test_the_correction_service_refuses_a_helper_on_a_confirmed_round_and_lets_the_leader(world):
    seating = world["seating"]
    _played(seating)
    services.confirm_seating(seating_id=seating.pk, team="B", table=seating.table, origin=Origin.other("Tisch"))
    helper, leader = world["users"]["helper"], world["users"]["leader"]
    with pytest.raises(services.ServiceError) as refused:
        factories.enter_deal(seating, 1, "B", user=helper, reason="Zettel")
    assert refused.value.code == "confirmed_leader_only"
    assert seating.deals.get(number=1).winner == "A"
    assert factories.enter_deal(seating, 1, "B", user=leader, reason="Zettel").winner == "B"


@pytest.mark.django_db
def test_only_the_leader_accepts_an_impossible_result(world):
    seating = world["seating"]
    impossible = {"bonus_a": 2, "bonus_b": 2, "reason": "Brauch", "accept_impossible": True}
    with pytest.raises(services.ServiceError) as refused:
        factories.enter_deal(seating, 1, user=world["users"]["helper"], **impossible)
    assert refused.value.code == "impossible_leader_only"
    assert not seating.deals.exists()
    factories.enter_deal(seating, 1, user=world["users"]["leader"], **impossible)
    assert seating.deals.get(number=1).override_reason == "Brauch"


@pytest.mark.django_db
def test_the_history_names_the_role_the_login_has_and_its_full_name(client, world):
    seating = world["seating"]
    helper, leader = world["users"]["helper"], world["users"]["leader"]
    helper.first_name, helper.last_name = "Gönke", "Hansen"
    helper.save()
    url = reverse("organiser:seating_detail", args=[seating.pk])
    data = {"seating": seating.pk, "winner": "A", "bonus_a": 0, "bonus_b": 0, "version": 0}
    client.force_login(helper)
    for number in range(1, seating.round.session.evening.deals_per_round + 1):
        assert client.post(url, {**data, "number": number}).status_code == 302
    client.post(reverse("organiser:seating_confirm", args=[seating.pk]), {"team": "B"})
    client.force_login(leader)
    client.post(url, {**data, "number": 1, "winner": "B", "version": 1, "reason": "nachgezählt"})
    changes = list(DealChange.objects.filter(deal__seating=seating, deal__number=1).order_by("pk"))
    seating.refresh_from_db()
    # Kept as data (the role then, the name then), shown in the reader's language: nothing parsed.
    assert [(c.source, c.role, c.name, c.team) for c in changes] == [
        ("organiser", "helper", "Gönke Hansen", ""),
        ("organiser", "leader", "leitung", ""),
    ]
    assert (seating.confirmed_role, seating.confirmed_name, seating.confirmed_team) == ("helper", "Gönke Hansen", "B")
    with translation.override("de"):
        assert [describe(Origin.of(c)) for c in changes] == ["Helfer (Gönke Hansen)", "Turnierleitung (leitung)"]
        assert describe(Origin.of(seating, "confirmed_")) == "Helfer (Gönke Hansen) für Team B"
    with translation.override("en"):
        assert describe(Origin.of(seating, "confirmed_")) == "Helper (Gönke Hansen) for team B"
        assert [describe(Origin.of(c)) for c in changes] == ["Helper (Gönke Hansen)", "Organiser (leitung)"]


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
    from scoring.setup.demo import DEMO_USER, load_demo_login

    load_demo_login()  # what load_demo (make run) makes of the login
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.get(username=DEMO_USER)
    assert user.groups.filter(name=LEADER).exists()
    # A Turnierleitung by its group, no superuser (no door past the roles).
    assert not user.is_superuser and not user.is_staff
    assert user.has_perm("scoring.run_evening") and user.has_perm("scoring.manage_logins")


@pytest.mark.django_db(transaction=True)
@pytest.mark.no_cover  # migrations back and forth: migrations/ is not measured, the rest is elsewhere
def test_the_migration_takes_superuser_and_staff_from_logins_with_a_role():
    """No door past the roles, for a database of an earlier version: its demo login (a superuser in
    Turnierleitung) and a superuser made Helfer lose the flags; a superuser without a role keeps them."""
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    executor.migrate([("scoring", "0016_sixhanded_teams_of_three")])
    executor.loader.build_graph()
    from django.contrib.auth import get_user_model

    users = get_user_model().objects
    old_demo = users.create_superuser("turnierleitung", "", "x-1-long-password")
    old_demo.groups.add(Group.objects.get(name=LEADER))
    helper = users.create_superuser("helfer1", "", "x-1-long-password")
    helper.groups.add(Group.objects.get(name=HELPER))
    admin = users.create_superuser("it", "", "x-1-long-password")
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    flags = {u.username: (u.is_superuser, u.is_staff) for u in users.all()}
    assert flags == {"turnierleitung": (False, False), "helfer1": (False, False), "it": (True, True)}
    assert users.get(username="turnierleitung").has_perm("scoring.run_evening")
    assert admin.pk
