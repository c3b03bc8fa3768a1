"""The round clock: the organiser's buttons and lengths, bad input and two
organisers at once (a message, nothing changed), the lock at zero without a browser, the same
time on every screen; and "Wo sitze ich?" depending on the seatings and the clock, not on the
deals (point 5)."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.db.models import Q
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scoring import selectors, services
from scoring.hall.origin import Origin
from scoring.models import Evening, Partnership, Round, Seating
from scoring.services.base import ServiceError
from scoring.setup import builders
from scoring.web import screen_cache
from tests import rows
from tests.conftest import make_evening
from tests.services.test_draw_wishes import PLAIN_A, play_round

HTMX = {"HTTP_HX_REQUEST": "true"}
CLOCK_FIELDS = (
    "round_minutes",
    "break_minutes",
    "clock_locks_round",
    "clock_kind",
    "clock_status",
    "clock_session",
    "clock_round",
    "clock_ends_at",
    "clock_remaining",
    "clock_version",
    "version",
    "seating_version",
)


@pytest.fixture(scope="session")
def _clock_evening_rows(django_db_setup, django_db_blocker) -> tuple[int, list[dict]]:
    """The rows of :func:`drawn`, built through the services once per test process (tests/rows.py)."""

    def build() -> int:
        evening = make_evening(8)
        services.draw_session(evening=evening, seed=3)
        return evening.pk

    with django_db_blocker.unblock():
        return rows.capture(build)


@pytest.fixture
def drawn(db, _clock_evening_rows):
    """8 players, session 1 drawn (seed 3): the rows as the services wrote them, put back."""
    pk, built = _clock_evening_rows
    rows.put_back(built)
    return Evening.objects.get(pk=pk)


def _round(evening, number: int = 1) -> Round:
    return Round.objects.get(session__evening=evening, session__number=1, number=number)


def _stored(evening) -> tuple:
    return Evening.objects.values_list(*CLOCK_FIELDS).get(pk=evening.pk)


def _refused(code: str, service, **kwargs) -> ServiceError:
    with pytest.raises(ServiceError) as error:
        service(**kwargs)
    assert error.value.code == code
    return error.value


def _run_out(evening) -> None:
    """The clock's end time a second ago, as if its minutes had passed (nobody looking)."""
    Evening.objects.filter(pk=evening.pk).update(clock_ends_at=timezone.now() - timedelta(seconds=1))


# --- the services: bad input, wrong state, two organisers: a message and nothing changed ---------


@pytest.mark.parametrize("minutes", [0, -5, "-5", 181, 100000, "", "abc", "2.5", None])
def test_a_length_of_zero_negative_or_absurd_is_refused_and_nothing_changes(drawn, organiser, minutes):
    before = _stored(drawn)
    for field in ("round_minutes", "break_minutes"):
        values = {"round_minutes": 30, "break_minutes": 10, field: minutes}
        error = _refused(
            "minutes_range" if isinstance(minutes, int) or str(minutes).lstrip("-").isdigit() else "minutes_invalid",
            services.set_clock_lengths,
            evening_id=drawn.pk,
            locks_round=True,
            user=organiser,
            **values,
        )
        assert ("break" in error.message) == (field == "break_minutes")
    assert _stored(drawn) == before


def test_lengths_are_saved(drawn, organiser):
    evening = services.set_clock_lengths(
        evening_id=drawn.pk, round_minutes="25", break_minutes=5, locks_round=True, user=organiser
    )
    assert (evening.round_minutes, evening.break_minutes, evening.clock_locks_round) == (25, 5, True)
    started = services.start_round_clock(evening_id=drawn.pk, round_id=_round(drawn).pk, user=organiser)
    assert selectors.round_clock(started).seconds_left in (25 * 60, 25 * 60 - 1)


def test_a_start_on_a_locked_round_a_closed_session_or_a_finished_round_is_refused(drawn, organiser):
    round_1 = _round(drawn)
    services.set_round_locked(round_id=round_1.pk, locked=True)
    before = _stored(drawn)
    error = _refused("round_locked", services.start_round_clock, evening_id=drawn.pk, round_id=round_1.pk)
    assert error.params == {"session": 1, "round": 1}
    services.set_round_locked(round_id=round_1.pk, locked=False)
    play_round(round_1.session, 1)
    before = _stored(drawn)
    _refused("round_finished", services.start_round_clock, evening_id=drawn.pk, round_id=round_1.pk)
    services.set_session_closed(session_id=round_1.session_id, closed=True)
    before = _stored(drawn)
    _refused("session_closed", services.start_round_clock, evening_id=drawn.pk, round_id=_round(drawn, 2).pk)
    other = make_evening(8, name="Anderer Abend")
    foreign = Round.objects.filter(session=services.draw_session(evening=other, seed=1)).first()
    _refused("no_round", services.start_round_clock, evening_id=drawn.pk, round_id=foreign.pk)
    assert _stored(drawn) == before


def test_a_helper_cannot_set_the_clock(drawn, helper):
    before = _stored(drawn)
    _refused("permission", services.start_round_clock, evening_id=drawn.pk, round_id=_round(drawn).pk, user=helper)
    _refused(
        "permission",
        services.set_clock_lengths,
        evening_id=drawn.pk,
        round_minutes=30,
        break_minutes=10,
        locks_round=False,
        user=helper,
    )
    assert _stored(drawn) == before


def test_two_organisers_pressing_at_once_change_the_clock_once(drawn, organiser):
    round_1 = _round(drawn)
    seen = Evening.objects.get(pk=drawn.pk).clock_version
    services.start_round_clock(evening_id=drawn.pk, round_id=round_1.pk, user=organiser, seen=seen)
    after_first = _stored(drawn)
    # The second press, from a page that showed the same clock: refused, nothing changed.
    _refused("clock_changed", services.start_round_clock, evening_id=drawn.pk, round_id=round_1.pk, seen=seen)
    # Without a version (a script): still started once only.
    _refused("already_running", services.start_round_clock, evening_id=drawn.pk, round_id=round_1.pk)
    assert _stored(drawn) == after_first
    # "+5 minutes" pressed by two organisers: five minutes, not ten.
    seen = after_first[CLOCK_FIELDS.index("clock_version")]
    ends = after_first[CLOCK_FIELDS.index("clock_ends_at")]
    services.extend_round_clock(evening_id=drawn.pk, minutes="5", user=organiser, seen=seen)
    _refused("clock_changed", services.extend_round_clock, evening_id=drawn.pk, minutes="5", seen=seen)
    assert Evening.objects.get(pk=drawn.pk).clock_ends_at == ends + timedelta(minutes=5)


@pytest.mark.parametrize("minutes", ["0", "-3", "61", "x", ""])
def test_a_bad_extension_is_refused(drawn, minutes):
    services.start_round_clock(evening_id=drawn.pk, round_id=_round(drawn).pk)
    before = _stored(drawn)
    _refused("extend_invalid", services.extend_round_clock, evening_id=drawn.pk, minutes=minutes)
    assert _stored(drawn) == before


def test_pause_resume_restart_break_and_off(drawn, organiser):
    round_1 = _round(drawn)
    _refused("not_running", services.pause_round_clock, evening_id=drawn.pk)
    _refused("clock_off", services.stop_round_clock, evening_id=drawn.pk)
    services.start_round_clock(evening_id=drawn.pk, round_id=round_1.pk)
    paused = services.pause_round_clock(evening_id=drawn.pk, user=organiser)
    assert paused.clock_status == "paused" and 29 * 60 <= paused.clock_remaining <= 30 * 60
    _refused("not_running", services.pause_round_clock, evening_id=drawn.pk)
    resumed = services.resume_round_clock(evening_id=drawn.pk)
    assert resumed.clock_status == "running" and resumed.clock_remaining is None
    _refused("not_paused", services.resume_round_clock, evening_id=drawn.pk)
    _run_out(drawn)
    restarted = services.restart_round_clock(evening_id=drawn.pk)
    assert restarted.clock_status == "running" and selectors.round_clock(restarted).seconds_left >= 29 * 60
    pause = services.start_break_clock(evening_id=drawn.pk)
    assert (pause.clock_kind, pause.clock_round) == ("break", 1)
    assert selectors.round_clock(pause).seconds_left in (600, 599)
    assert services.stop_round_clock(evening_id=drawn.pk).clock_kind == ""
    assert selectors.round_clock(Evening.objects.get(pk=drawn.pk)) is None


def test_the_next_round_may_be_started_while_the_last_still_runs(drawn):
    services.start_round_clock(evening_id=drawn.pk, round_id=_round(drawn).pk)
    evening = services.start_round_clock(evening_id=drawn.pk, round_id=_round(drawn, 2).pk)
    assert (evening.clock_round, evening.clock_status) == (2, "running")


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
    # confirmation switches it off: tests/services/test_clock_stops.py).
    first = Seating.objects.filter(round=_round(drawn)).order_by("table__number").first()
    builders.play_seating(first, result=PLAIN_A, origin=Origin.other("t"))
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
        services.enter_deal(
            seating_id=seating.pk, number=number, result=PLAIN_A, origin=Origin.other("t"), table=seating.table
        )
    later.move()  # long past the floor: only the version decides
    for url, etag in zip(urls, etags, strict=True):
        assert client.get(url, HTTP_IF_NONE_MATCH=etag, **HTMX).status_code == 304, url
    services.enter_deal(seating_id=seating.pk, number=4, result=PLAIN_A, origin=Origin.other("t"), table=seating.table)
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
    services.enter_deal(seating_id=seating.pk, number=1, result=PLAIN_A, origin=Origin.other("t"), table=seating.table)
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
        services.enter_deal(
            seating_id=there.pk, number=number, result=PLAIN_A, origin=Origin.other("t"), table=there.table
        )
    services.enter_and_confirm_seating(seating_id=there.pk)
    later.move()
    unchanged = client.get(mine, HTTP_IF_NONE_MATCH=tags[mine], **HTMX)
    assert unchanged.status_code == 304 and unchanged["ETag"] != tags[mine]  # the current version
    assert client.get(mine, HTTP_IF_NONE_MATCH=unchanged["ETag"], **HTMX).status_code == 304
    moved = client.get(theirs, HTTP_IF_NONE_MATCH=tags[theirs], **HTMX)
    assert moved.status_code == 200 and "Runde 2" in moved.content.decode()
