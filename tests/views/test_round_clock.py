"""The round clock on the pages: the organiser's buttons and lengths on the live overview, the lock
at zero without a browser, the same time on every screen, the clock gone with its round; and "Wo
sitze ich?" depending on the seatings and the clock, not on the deals (point 5). The services
themselves (bad input, two organisers at once): tests/services/test_clock.py."""

from __future__ import annotations

import importlib
import re
from datetime import timedelta

import pytest
from django.db.models import Q
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scoring import selectors, services
from scoring.hall.origin import Origin
from scoring.models import Evening, Partnership, Player, ProjectorMode, Round, Seating, Table
from scoring.services.base import ServiceError
from scoring.setup import builders
from scoring.setup.builders import evening_with_players, play_seating, play_session
from scoring.web import screen_cache
from tests import factories
from tests.conftest import make_evening
from tests.factories import A_WINS
from tests.services.test_clock import (  # noqa: F401 (_clock_evening_rows, drawn, evening: fixtures)
    CLOCK,
    CLOCK_FIELDS,
    _clock_evening_rows,
    _fresh,
    _run_out,
    _stored,
    drawn,
    evening,
)
from tests.services.test_draw_wishes import play_round

HTMX = {"HTTP_HX_REQUEST": "true"}


def _round(evening, number: int = 1) -> Round:
    return Round.objects.get(session__evening=evening, session__number=1, number=number)


# --- the lock at zero: lazily, by whichever request reads the clock first ------------------------


def test_the_round_locks_itself_at_zero_on_the_next_request_idempotently(client, drawn):
    services.set_clock_lengths(evening_id=drawn.pk, round_minutes=30, break_minutes=10, locks_round=True)
    round_1 = _round(drawn)
    services.start_round_clock(evening_id=drawn.pk, round_id=round_1.pk)
    _run_out(drawn)
    round_1.refresh_from_db()
    assert not round_1.locked  # nothing runs in the background: no request, no lock yet
    player = Partnership.objects.filter(session=round_1.session).first().player_1
    page = client.get(reverse("public:seat", args=[drawn.pk, player.pk])).content.decode()
    round_1.refresh_from_db()
    assert round_1.locked
    evening = Evening.objects.get(pk=drawn.pk)
    assert evening.clock_status == "ended" and "Runde beendet" in page
    settled = _stored(drawn)
    assert services.settle_round_clock(evening_id=drawn.pk) is False  # settled once only
    client.get(reverse("public:seat_finder", args=[drawn.pk]))
    assert _stored(drawn) == settled
    # The organiser unlocks it (tables still playing): the clock does not lock it again.
    services.set_round_locked(round_id=round_1.pk, locked=False)
    client.get(reverse("public:seat_finder", args=[drawn.pk]))
    round_1.refresh_from_db()
    assert not round_1.locked


def test_a_deal_sent_after_zero_from_a_tablet_is_refused_by_the_lock(client, drawn):
    services.set_clock_lengths(evening_id=drawn.pk, round_minutes=30, break_minutes=10, locks_round=True)
    seating = Seating.objects.filter(round=_round(drawn)).select_related("table").first()
    page = client.get(reverse("scorer:table", args=[seating.table.token])).content.decode()
    services.start_round_clock(evening_id=drawn.pk, round_id=seating.round_id)
    _run_out(drawn)  # the tablet was offline; nobody else looked
    key = re.search(r'name="key" value="([^"]+)"', page).group(1)
    client.post(
        reverse("scorer:deal", args=[seating.table.token, 1]),
        {"seating": seating.pk, "key": key, "version": 0, "winner": "A", "bonus_a": 0, "bonus_b": 0},
    )
    assert not seating.deals.exists()
    seating.round.refresh_from_db()
    assert seating.round.locked


def test_a_press_after_zero_is_not_refused_because_the_clock_settled_meanwhile(client, drawn, organiser):
    """The live overview shows "Runde beendet" (counted down in the browser); a phone's poll
    settles the clock meanwhile; the organiser's "+5 minutes" from that page still counts."""
    services.start_round_clock(evening_id=drawn.pk, round_id=_round(drawn).pk)
    seen = Evening.objects.get(pk=drawn.pk).clock_version
    _run_out(drawn)
    client.get(reverse("public:seat_finder", args=[drawn.pk]))  # settles it
    assert Evening.objects.get(pk=drawn.pk).clock_status == "ended"
    evening = services.extend_round_clock(evening_id=drawn.pk, minutes=5, user=organiser, seen=seen)
    assert evening.clock_status == "running" and 4 * 60 < selectors.round_clock(evening).seconds_left <= 5 * 60


def test_without_the_lock_option_zero_locks_nothing(client, drawn):
    services.start_round_clock(evening_id=drawn.pk, round_id=_round(drawn).pk)
    _run_out(drawn)
    client.get(reverse("public:seat_finder", args=[drawn.pk]))
    assert Evening.objects.get(pk=drawn.pk).clock_status == "ended"
    assert not _round(drawn).locked


# --- the screens: the same time everywhere, a clear clock, German first --------------------------


def _clock_data(html: str) -> dict[str, str]:
    tag = re.search(r"<div class=\"round-clock[^>]*>", html).group(0)
    return dict(re.findall(r'data-([a-z-]+)="([^"]*)"', tag))


def test_every_screen_shows_the_same_end_time_from_the_database(client, drawn):
    seating = Seating.objects.filter(round=_round(drawn)).select_related("table").first()
    services.start_round_clock(evening_id=drawn.pk, round_id=seating.round_id)
    ends = int(Evening.objects.get(pk=drawn.pk).clock_ends_at.timestamp() * 1000)
    pages = [
        client.get(reverse("public:seat_finder", args=[drawn.pk])),
        client.get(reverse("public:seat", args=[drawn.pk, seating.team_a.player_1_id])),
        client.get(reverse("scorer:table", args=[seating.table.token])),
        client.get(reverse("public:round_clock", args=[drawn.pk]) + "?size=large"),
    ]
    for page in pages:
        html = page.content.decode()
        data = _clock_data(html)
        assert data["status"] == "running" and int(data["ends"]) == ends, page.request["PATH_INFO"]
        assert "Durchgang 1 · Runde 1" in html and re.search(r"data-clock-time>(30:00|29:59)<", html)
    assert 'class="round-clock large' in pages[-1].content.decode()
    assert "js/clock.js" in pages[0].content.decode() and "js/clock.js" in pages[2].content.decode()


def test_the_clock_of_an_evening_that_does_not_exist_is_not_found(client, drawn):
    response = client.get(reverse("public:round_clock", args=[drawn.pk + 1000]) + "?size=large")
    assert response.status_code == 404


def test_paused_and_warning_states_are_shown(client, drawn):
    services.start_round_clock(evening_id=drawn.pk, round_id=_round(drawn).pk)
    Evening.objects.filter(pk=drawn.pk).update(clock_ends_at=timezone.now() + timedelta(minutes=3))
    html = client.get(reverse("public:round_clock", args=[drawn.pk])).content.decode()
    assert "round-clock small warning" in html
    services.pause_round_clock(evening_id=drawn.pk)
    html = client.get(reverse("public:round_clock", args=[drawn.pk])).content.decode()
    assert "paused" in html and "Angehalten" in html and _clock_data(html)["ends"] == ""


def test_the_clock_poll_answers_304_after_one_query_until_the_clock_changes(client, drawn, django_assert_num_queries):
    url = reverse("public:round_clock", args=[drawn.pk])
    off = client.get(url, **HTMX)
    assert off.status_code == 200 and "round-clock-off" in off.content.decode()
    with django_assert_num_queries(1):
        assert client.get(url, HTTP_IF_NONE_MATCH=off["ETag"], **HTMX).status_code == 304
    services.start_round_clock(evening_id=drawn.pk, round_id=_round(drawn).pk)
    fresh = client.get(url, HTTP_IF_NONE_MATCH=off["ETag"], **HTMX)
    assert fresh.status_code == 200 and "data-clock-time" in fresh.content.decode()
    # Deals everywhere and a confirmation at one table: the clock is the same (the round's last
    # confirmation switches it off: tests/services/test_clock.py).
    first = Seating.objects.filter(round=_round(drawn)).order_by("table__number").first()
    builders.play_seating(first, result=A_WINS, origin=Origin.other("t"))
    with django_assert_num_queries(1):
        assert client.get(url, HTTP_IF_NONE_MATCH=fresh["ETag"], **HTMX).status_code == 304


# --- the organiser's buttons on the live overview ------------------------------------------------


def test_the_live_overview_starts_pauses_and_extends_the_clock(organiser_client, drawn):
    live = reverse("organiser:live", args=[drawn.pk])
    page = organiser_client.get(live).content.decode()
    assert 'data-testid="clock-start"' in page and "Runde 1 starten" in page
    action = reverse("organiser:clock_action", args=[drawn.pk])
    seen = Evening.objects.get(pk=drawn.pk).clock_version
    answer = organiser_client.post(action, {"action": "start", "round": _round(drawn).pk, "seen": seen}, follow=True)
    assert "läuft" in answer.content.decode() and Evening.objects.get(pk=drawn.pk).clock_status == "running"
    # The same page pressed again (a second organiser, a double tap): a message, nothing changed.
    before = _stored(drawn)
    answer = organiser_client.post(action, {"action": "start", "round": _round(drawn).pk, "seen": seen}, follow=True)
    assert "Jemand hat die Rundenuhr" in answer.content.decode() and _stored(drawn) == before
    seen = before[CLOCK_FIELDS.index("clock_version")]
    answer = organiser_client.post(action, {"action": "extend", "minutes": "0", "seen": seen}, follow=True)
    assert "zwischen 1 und 60 Minuten" in answer.content.decode() and _stored(drawn) == before
    answer = organiser_client.post(action, {"action": "pause", "seen": seen}, follow=True)
    assert "angehalten" in answer.content.decode() and 'data-testid="clock-resume"' in answer.content.decode()
    answer = organiser_client.post(action, {"action": "nonsense"}, follow=True)
    assert answer.status_code == 200 and "Knöpfe der Uhr" in answer.content.decode()


def test_the_live_overview_saves_the_lengths_or_says_why_not(organiser_client, drawn):
    url = reverse("organiser:clock_settings", args=[drawn.pk])
    before = _stored(drawn)
    answer = organiser_client.post(url, {"round_minutes": "0", "break_minutes": "10"}, follow=True)
    assert "Eine Runde dauert 1 bis 180 Minuten" in answer.content.decode() and _stored(drawn) == before
    answer = organiser_client.post(url, {"round_minutes": "20", "break_minutes": "7", "locks_round": "1"}, follow=True)
    assert answer.status_code == 200
    evening = Evening.objects.get(pk=drawn.pk)
    assert (evening.round_minutes, evening.break_minutes, evening.clock_locks_round) == (20, 7, True)


def test_a_helper_gets_403_from_the_clock_buttons(client, helper, drawn):
    client.force_login(helper)
    answer = client.post(reverse("organiser:clock_action", args=[drawn.pk]), {"action": "break"})
    assert answer.status_code == 403 and Evening.objects.get(pk=drawn.pk).clock_kind == ""


# --- point 5: "Wo sitze ich?" depends on the seatings and the clock, not on the deals ------------


class Later:
    """screen_cache's clock, moved past the floor by hand."""

    def __init__(self, monkeypatch) -> None:
        self.now = 1_800_000_000.0
        monkeypatch.setattr(screen_cache.time, "time", lambda: self.now)

    def move(self, seconds: float = 60) -> None:
        self.now += seconds


def _version_of(response) -> str:
    return response["ETag"].strip('"').split(".")[0]


def test_a_deal_leaves_the_seat_pages_etag_a_swap_redraw_confirmation_or_clock_changes_it(client, drawn, monkeypatch):
    later = Later(monkeypatch)
    session = _round(drawn).session
    player = Partnership.objects.filter(session=session).first().player_1
    urls = [reverse("public:seat_finder", args=[drawn.pk]), reverse("public:seat", args=[drawn.pk, player.pk])]

    def tags() -> list[str]:
        later.move()  # the pages are computed at most every few seconds (the floor): past it
        return [_version_of(client.get(url, **HTMX)) for url in urls]

    first = tags()
    services.redraw_session(session_id=session.pk, seed=9)
    redrawn = tags()
    assert all(a != b for a, b in zip(first, redrawn, strict=True))
    a, b = Partnership.objects.filter(session=session).order_by("number")[:2]
    services.swap_players(session_id=session.pk, player_a_id=a.player_1_id, player_b_id=b.player_1_id)
    swapped = tags()
    assert all(a != b for a, b in zip(redrawn, swapped, strict=True))
    etags = [client.get(url, **HTMX)["ETag"] for url in urls]
    seating = Seating.objects.filter(round__session=session, round__number=1).select_related("table").first()
    for number in (1, 2, 3):
        factories.enter_deal(seating, number)
    later.move()  # long past the floor: only the version decides
    for url, etag in zip(urls, etags, strict=True):
        assert client.get(url, HTTP_IF_NONE_MATCH=etag, **HTMX).status_code == 304, url
    factories.enter_deal(seating, 4)
    services.mark_seating_entered(seating_id=seating.pk, table=seating.table, team="A")
    assert tags() == swapped  # finished at the table, not confirmed: nobody moves yet
    services.confirm_seating(seating_id=seating.pk, team="B", table=seating.table)
    confirmed = tags()
    assert all(a != b for a, b in zip(swapped, confirmed, strict=True))
    services.start_round_clock(evening_id=drawn.pk, round_id=_round(drawn, 2).pk)
    assert all(a != b for a, b in zip(confirmed, tags(), strict=True))


def test_a_seat_poll_while_deals_arrive_is_304_after_one_query(client, drawn, monkeypatch, django_assert_num_queries):
    later = Later(monkeypatch)
    player = Partnership.objects.filter(session__evening=drawn).first().player_1
    url = reverse("public:seat", args=[drawn.pk, player.pk])
    first = client.get(url, **HTMX)
    seating = Seating.objects.filter(round=_round(drawn)).select_related("table").first()
    factories.enter_deal(seating)
    later.move()
    with django_assert_num_queries(1):
        assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"], **HTMX).status_code == 304


@pytest.mark.django_db
@pytest.mark.parametrize("players", [8, 40])
@pytest.mark.no_cover  # the pages' code at two field sizes: measured by the pages' own tests (tests/conftest.py)
def test_seat_pages_queries_do_not_grow_with_the_field(client, django_assert_num_queries, players):
    evening = make_evening(players, name=f"Feld {players}")
    session = services.draw_session(evening=evening, seed=2)
    services.start_round_clock(evening_id=evening.pk, round_id=Round.objects.get(session=session, number=1).pk)
    first, second = Partnership.objects.filter(session=session)[:2]
    with django_assert_num_queries(3):  # the evening, the latest session, its players
        assert client.get(reverse("public:seat_finder", args=[evening.pk])).status_code == 200
    with django_assert_num_queries(8):  # the evening, the session, its players, the history (4), names
        assert client.get(reverse("public:seat", args=[evening.pk, first.player_1_id]), **HTMX).status_code == 200
    # Every other phone in the hall: the evening alone; the list and the seats come from the
    # shared cache until the seatings change (the round-change storm).
    with django_assert_num_queries(1):
        assert Client().get(reverse("public:seat_finder", args=[evening.pk])).status_code == 200
    with django_assert_num_queries(1):
        page = Client().get(reverse("public:seat", args=[evening.pk, second.player_2_id]))
    assert page.status_code == 200 and f"Tisch {_table_of(second)}" in page.content.decode()


def _table_of(partnership) -> int:
    seating = Seating.objects.filter(round__number=1, round__session=partnership.session_id).filter(
        Q(team_a=partnership) | Q(team_b=partnership)
    )
    return seating.select_related("table").get().table.number


def test_a_confirmation_elsewhere_leaves_a_players_poll_at_304_their_own_tables_brings_the_page(
    client, drawn, monkeypatch
):
    """At a round change every confirmation is a new seating version; a player whose seats did
    not change still gets 304 (the ETag names what their page shows), a player of the table
    that confirmed gets their next round."""
    later = Later(monkeypatch)
    round_1 = _round(drawn)
    here, there = Seating.objects.filter(round=round_1).select_related("table", "team_a")[:2]
    mine = reverse("public:seat", args=[drawn.pk, here.team_a.player_1_id])
    theirs = reverse("public:seat", args=[drawn.pk, there.team_a.player_1_id])
    tags = {url: client.get(url, **HTMX)["ETag"] for url in (mine, theirs)}
    for number in range(1, drawn.deals_per_round + 1):
        factories.enter_deal(there, number)
    services.enter_and_confirm_seating(seating_id=there.pk)
    later.move()
    unchanged = client.get(mine, HTTP_IF_NONE_MATCH=tags[mine], **HTMX)
    assert unchanged.status_code == 304 and unchanged["ETag"] != tags[mine]  # the current version
    assert client.get(mine, HTTP_IF_NONE_MATCH=unchanged["ETag"], **HTMX).status_code == 304
    moved = client.get(theirs, HTTP_IF_NONE_MATCH=tags[theirs], **HTMX)
    assert moved.status_code == 200 and "Runde 2" in moved.content.decode()


def _pages(evening, organiser) -> dict[str, str]:
    """The projector's clock view, a tablet, a player's seat page and the seat finder."""
    services.set_projector_mode(evening_id=evening.pk, mode=ProjectorMode.ROTATION, user=organiser)
    client = Client()
    table = Table.objects.get(evening=evening, number=1)
    player = Player.objects.get(name="Spieler 1")
    return {
        "projector": client.get(reverse("public:projector", args=[evening.pk])).content.decode(),
        "tablet": client.get(reverse("scorer:table", args=[table.token])).content.decode(),
        "seat": client.get(reverse("public:seat", args=[evening.pk, player.pk])).content.decode(),
        "finder": client.get(reverse("public:seat_finder", args=[evening.pk])).content.decode(),
    }


def test_the_clock_runs_until_the_rounds_last_table_confirms_then_is_gone_everywhere(evening, organiser):
    services.start_round_clock(evening_id=evening.pk, round_id=_round(evening).pk)
    first, last = Seating.objects.filter(round=_round(evening)).order_by("table__number")
    play_seating(first)
    assert selectors.round_clock(_fresh(evening)).running  # one table still plays
    assert all(CLOCK in html for html in _pages(evening, organiser).values())

    play_seating(last)
    stopped = _fresh(evening)
    assert stopped.clock_kind == "" and selectors.round_clock(stopped) is None
    for name, html in _pages(evening, organiser).items():
        assert CLOCK not in html, name


def test_the_migration_stops_a_clock_stored_for_a_confirmed_round_and_leaves_a_live_one(evening, organiser):
    from django.apps import apps

    stop_outlived_clocks = importlib.import_module(
        "scoring.migrations.0023_clock_stops_with_its_round"
    ).stop_outlived_clocks
    live = evening_with_players(8, name="Live", player_name="Gast {n}")
    services.draw_session(evening=live, seed=1)
    services.start_round_clock(evening_id=live.pk, round_id=_round(live).pk)
    play_session(evening.sessions.get(number=1))
    services.draw_session(evening=evening, seed=2)
    # A clock left running for session 1, round 1 (stored before the rule, as in the issue).
    Evening.objects.filter(pk=evening.pk).update(
        clock_kind="round",
        clock_status="running",
        clock_session=1,
        clock_round=1,
        clock_ends_at=timezone.now() + timedelta(minutes=20),
    )
    assert CLOCK in _pages(evening, organiser)["projector"]
    stop_outlived_clocks(apps, None)
    assert _fresh(evening).clock_kind == ""
    for name, html in _pages(evening, organiser).items():
        assert CLOCK not in html, name
    assert _fresh(live).clock_status == "running"


def test_at_the_evenings_end_no_clock_runs_not_even_a_break(evening, organiser, organiser_client):
    live = reverse("organiser:live", args=[evening.pk])
    play_session(evening.sessions.get(number=1))
    assert 'data-testid="clock-break"' in organiser_client.get(live).content.decode()  # between sessions
    session = services.draw_session(evening=evening, seed=2)
    play_round(session, 1)
    services.start_break_clock(evening_id=evening.pk)
    assert _fresh(evening).clock_kind == "break"
    play_round(session, 2)
    assert _fresh(evening).clock_kind == ""
    with pytest.raises(ServiceError) as error:
        services.start_break_clock(evening_id=evening.pk)
    assert error.value.code == "evening_over"
    assert _fresh(evening).clock_kind == ""
    for name, html in _pages(evening, organiser).items():
        assert CLOCK not in html, name
    assert 'data-testid="clock-break"' not in organiser_client.get(live).content.decode()  # nothing to offer
