"""Screens that cost nothing between changes: ETag/304 from the evening version, the shared cache
of computed results, and the time floor of the public screens, which never shows a ranking older
than the last write for longer than one poll interval."""

from __future__ import annotations

import threading
import time

import pytest
from django.core.cache import caches
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring import selectors, services
from scoring.models import Seating
from scoring.views import live, screens
from scoring.web import screen_cache
from tests import factories
from tests.conftest import make_evening
from tests.factories import A_WINS

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def drawn(db):
    evening = make_evening(8)
    services.draw_session(evening=evening, seed=3)
    return evening


def _deal(evening, number=1, result=A_WINS):
    seating = Seating.objects.filter(round__session__evening=evening).select_related("table").first()
    factories.enter_deal(seating, number, result=result)
    return seating


class Clock:
    """screen_cache's clock, moved by hand."""

    def __init__(self, monkeypatch) -> None:
        self.now = 1_800_000_000.0
        monkeypatch.setattr(screen_cache.time, "time", lambda: self.now)


def _totals(rows) -> list[tuple[int, object]]:
    return [(row.player.pk, row.total) for row in rows]


def test_the_floor_is_shorter_than_every_public_poll_interval():
    assert min(screens.RANKING_POLL_SECONDS, screens.SEAT_POLL_SECONDS) > screen_cache.FLOOR_SECONDS


def test_unchanged_ranking_screen_poll_is_304_after_one_query(client, drawn, django_assert_num_queries):
    url = reverse("public:ranking_screen", args=[drawn.pk])
    first = client.get(url, **HTMX)
    assert first.status_code == 200 and first["ETag"]
    assert "no-cache" in first["Cache-Control"] and "HX-Request" in first["Vary"]
    with django_assert_num_queries(1):
        again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"], **HTMX)
    assert again.status_code == 304 and again["ETag"] == first["ETag"]
    # The whole page and the fragment are different answers: never one for the other.
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 200


def test_a_ranking_screen_poll_served_from_the_shared_cache_takes_one_query(client, drawn, django_assert_num_queries):
    """While deals arrive most phones get the fragment: the evening is read once,
    with its version and language, and the fragment comes from the shared cache."""
    url = reverse("public:ranking_screen", args=[drawn.pk])
    first = client.get(url, **HTMX)
    with django_assert_num_queries(1):
        again = client.get(url, **HTMX)  # no If-None-Match: a phone that has just opened the screen
    assert again.status_code == 200 and again.content == first.content


def test_ranking_screen_after_a_write_is_fresh_within_one_poll_interval(client, drawn, monkeypatch):
    """Write, then poll, then compare with a fresh computation."""
    clock = Clock(monkeypatch)
    url = reverse("public:ranking_screen", args=[drawn.pk])
    before = client.get(url)
    tag = before["ETag"]
    _deal(drawn)
    fresh = selectors.evening_ranking(drawn)
    assert _totals(before.context["rows"]) != _totals(fresh)
    # Within the floor the screen may still show the previous result (one computation per floor)...
    clock.now += screen_cache.FLOOR_SECONDS / 2
    assert client.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 304
    assert _totals(client.get(url).context["rows"]) == _totals(before.context["rows"])
    # ... but the next poll, one poll interval later at the latest, shows the write.
    clock.now += screens.RANKING_POLL_SECONDS - screen_cache.FLOOR_SECONDS / 2
    polled = client.get(url, HTTP_IF_NONE_MATCH=tag)
    assert polled.status_code == 200
    assert _totals(polled.context["rows"]) == _totals(fresh)
    fragment = client.get(url, **HTMX).content.decode()
    assert fragment == client.get(url, **HTMX).content.decode()  # served from the shared cache
    winner = next(row for row in fresh if row.total)
    assert winner.player.name in fragment


def test_hiding_the_ranking_reaches_the_screen_within_one_poll_interval(client, drawn, monkeypatch):
    clock = Clock(monkeypatch)
    url = reverse("public:ranking_screen", args=[drawn.pk])
    tag = client.get(url, **HTMX)["ETag"]
    services.set_ranking_hidden(evening_id=drawn.pk, hidden=True)
    clock.now += screens.RANKING_POLL_SECONDS
    polled = client.get(url, HTTP_IF_NONE_MATCH=tag, **HTMX)
    assert polled.status_code == 200 and 'data-testid="ranking-hidden"' in polled.content.decode()


def test_one_computation_per_key_while_another_worker_computes(drawn, monkeypatch):
    clock = Clock(monkeypatch)
    calls = []

    def compute():
        calls.append(1)
        return len(calls)

    first = screen_cache.computed("t", drawn.pk, 1, compute, floor=5)
    clock.now += 6
    key = f"screen:t:{drawn.pk}:{screen_cache._hash('')}:computing"
    assert caches[screen_cache.CACHE].add(key, 1)  # another worker holds the lock
    assert screen_cache.computed("t", drawn.pk, 2, compute, floor=5) == first
    caches[screen_cache.CACHE].delete(key)
    assert screen_cache.computed("t", drawn.pk, 2, compute, floor=5).value == 2
    assert screen_cache.computed("t", drawn.pk, 2, compute).value == 2 and len(calls) == 2
    # Without a floor (the organiser's pages) an older result is never served.
    assert screen_cache.computed("t", drawn.pk, 3, compute).value == 3


def _computing_elsewhere(evening, kind: str = "t") -> str:
    """The cache key of ``kind``, its lock taken as by another worker; returns the key."""
    key = f"screen:{kind}:{evening.pk}:{screen_cache._hash('')}"
    assert caches[screen_cache.CACHE].add(f"{key}:computing", 1)
    return key


def test_the_first_polls_wait_for_the_one_computation_under_way(drawn):
    """100 phones opening the screen at once, nothing computed yet: one computes, the others wait
    for its result instead of each computing the ranking of 1,000 players."""
    key = _computing_elsewhere(drawn)
    calls = []

    def other_worker():
        time.sleep(0.2)
        caches[screen_cache.CACHE].set(key, screen_cache.Computed(1, time.time(), "theirs"))

    thread = threading.Thread(target=other_worker)
    thread.start()
    got = screen_cache.computed("t", drawn.pk, 1, lambda: calls.append(1) or "mine", floor=5)
    thread.join()
    assert got.value == "theirs" and calls == []


def test_a_waiting_poll_computes_itself_when_no_result_or_only_an_old_one_comes(drawn, monkeypatch):
    _computing_elsewhere(drawn)
    monkeypatch.setattr(screen_cache, "WAIT_SECONDS", 0.1)
    assert screen_cache.computed("t", drawn.pk, 1, lambda: "mine", floor=5).value == "mine"
    # A result of an older version, begun longer ago than the floor, is not served either.
    _computing_elsewhere(drawn, "u")
    old = screen_cache.Computed(1, time.time() - 60, "old")
    monkeypatch.setattr(screen_cache, "_awaited", lambda cache, key: old)
    assert screen_cache.computed("u", drawn.pk, 2, lambda: "mine", floor=5).value == "mine"


def test_the_screens_cache_is_shared_by_every_worker(settings):
    """Files under DATA_DIR: every gunicorn worker process of the machine reads the same."""
    backend = caches[screen_cache.CACHE]
    assert backend.__class__.__name__ == "FileBasedCache"
    assert str(settings.DATA_DIR) in settings.CACHES[screen_cache.CACHE]["LOCATION"]


def test_live_poll_is_304_until_the_evening_changes(organiser_client, organiser, drawn, monkeypatch):
    clock = Clock(monkeypatch)
    calls = []
    real = selectors.live_grid
    monkeypatch.setattr(selectors, "live_grid", lambda session: calls.append(1) or real(session))
    url = reverse("organiser:live", args=[drawn.pk])
    organiser_client.get(url)  # the first page sets the CSRF cookie, which the ETag includes
    first = organiser_client.get(url, **HTMX)
    assert first.status_code == 200 and "private" in first["Cache-Control"]
    with CaptureQueriesContext(connection) as queries:
        assert organiser_client.get(url, HTTP_IF_NONE_MATCH=first["ETag"], **HTMX).status_code == 304
    assert len(queries) == 1  # the version: the login and its permissions come from their copy (OrganiserBackend)
    assert organiser_client.get(url, **HTMX).status_code == 200 and len(calls) == 1  # computed once
    client_2 = Client()
    client_2.force_login(organiser)
    assert client_2.get(url).status_code == 200 and len(calls) == 1  # another screen: shared cache
    _deal(drawn)
    # While deals arrive, a poll may show a grid up to POLL_FLOOR_SECONDS old, never older.
    clock.now += live.POLL_FLOOR_SECONDS / 2
    assert organiser_client.get(url, HTTP_IF_NONE_MATCH=first["ETag"], **HTMX).status_code == 304
    clock.now += live.POLL_FLOOR_SECONDS
    changed = organiser_client.get(url, HTTP_IF_NONE_MATCH=first["ETag"], **HTMX)
    assert changed.status_code == 200 and "1/4" in changed.content.decode() and len(calls) == 2
    # The page itself (no htmx) is never older than the evening.
    assert "1/4" in organiser_client.get(url).content.decode()


def test_organiser_pages_never_304_for_another_login_or_with_messages(client, organiser, helper, drawn):
    for name in ("organiser:live", "organiser:evening_detail", "organiser:ranking"):
        url = reverse(name, args=[drawn.pk])
        client.force_login(organiser)
        client.get(url)  # sets the CSRF cookie
        tag = client.get(url)["ETag"]
        assert client.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 304
        client.force_login(helper)  # another login, other permissions, a new CSRF cookie
        assert client.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 200
    client.force_login(organiser)
    url = reverse("organiser:evening_detail", args=[drawn.pk])
    client.get(url)
    tag = client.get(url)["ETag"]
    client.post(reverse("organiser:evening_language", args=[drawn.pk]), {"language": "xx"})  # a message waits
    answer = client.get(url, HTTP_IF_NONE_MATCH=tag)
    assert answer.status_code == 200 and 'class="msg error"' in answer.content.decode()


def test_seat_page_poll_is_304_until_the_seatings_change(client, drawn, monkeypatch):
    """A deal moves nobody: the seat page's poll stays 304; a confirmed round moves
    its players on: the next poll after the floor gets the page."""
    clock = Clock(monkeypatch)
    player = drawn.players.first()
    url = reverse("public:seat", args=[drawn.pk, player.pk])
    tag = client.get(url, **HTMX)["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=tag, **HTMX).status_code == 304
    other = reverse("public:seat", args=[drawn.pk, drawn.players.last().pk])
    assert client.get(other, HTTP_IF_NONE_MATCH=tag, **HTMX).status_code == 200
    seating = _deal(drawn)
    clock.now += screens.SEAT_POLL_SECONDS
    assert client.get(url, HTTP_IF_NONE_MATCH=tag, **HTMX).status_code == 304
    for number in range(2, drawn.deals_per_round + 1):
        _deal(drawn, number)
    services.enter_and_confirm_seating(seating_id=seating.pk)
    clock.now += screens.SEAT_POLL_SECONDS
    assert client.get(url, HTTP_IF_NONE_MATCH=tag, **HTMX).status_code == 200


def test_locking_a_round_answers_with_the_grid_after_the_lock(organiser_client, drawn):
    """The grid of the evening before the lock is in the shared cache; the answer to the lock
    must not be it."""
    url = reverse("organiser:live", args=[drawn.pk])
    assert 'data-testid="lock-1"' in organiser_client.get(url, **HTMX).content.decode()
    round_1 = drawn.sessions.get(number=1).rounds.get(number=1)
    tables = [str(n) for n in drawn.tables.values_list("number", flat=True)]  # none started: confirmed
    answer = organiser_client.post(
        reverse("organiser:round_lock", args=[drawn.pk, round_1.pk]),
        {"locked": "1", "confirmed": "1", "seen": tables},
        **HTMX,
    ).content.decode()
    assert 'data-testid="unlock-1"' in answer


def test_live_poll_floor_is_shorter_than_its_poll_interval():
    assert live.POLL_FLOOR_SECONDS < live.POLL_SECONDS


def test_live_rows_are_cached_per_language(client, organiser, drawn, monkeypatch):
    """The grid's rows are built once per grid and language and shared by every organiser's
    screen; an English screen never gets the German rows from the cache, nor the other way."""
    clock = Clock(monkeypatch)
    url = reverse("organiser:live", args=[drawn.pk])
    client.force_login(organiser)
    german = client.get(url, HTTP_ACCEPT_LANGUAGE="de", **HTMX).content.decode()
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en", **HTMX).content.decode()
    assert "nicht begonnen" in german and "not started" not in german
    assert "not started" in english and "nicht begonnen" not in english
    _deal(drawn)
    clock.now += live.POLL_FLOOR_SECONDS
    assert "1/4" in client.get(url, HTTP_ACCEPT_LANGUAGE="de", **HTMX).content.decode()
