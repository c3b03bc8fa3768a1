"""No page answers bad input with a server error: every URL of every role, with unknown numbers,
wrong tokens and junk form data, GET and POST, answers below 500."""

from __future__ import annotations

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from scoring import services
from scoring.models import Seating

JUNK_POSTS = [
    {},
    {
        "seating": "x",
        "winner": "Z",
        "bonus_a": "-1",
        "bonus_b": "99",
        "number": "abc",
        "version": "-5",
        "key": "not-a-uuid",
        "team": "C",
        "present": "2",
        "player_a": "x",
        "player_b": "",
        "leaving": "0",
        "replacement": "999999",
        "reason": "<script>",
        "locked": "vielleicht",
        "closed": "?",
        "hidden": "?",
        "name": "",
        "club": "x" * 500,
        "q": "%",
        "language": "xx",
        "confirm": "1",
        "evening": "abc",
    },
]


def patterns(resolver: URLResolver, prefix: str = ""):
    for entry in resolver.url_patterns:
        if isinstance(entry, URLResolver):
            namespace = entry.namespace
            if namespace in ("admin",) or entry.app_name == "admin":
                continue
            yield from patterns(entry, f"{prefix}{namespace}:" if namespace else prefix)
        elif isinstance(entry, URLPattern) and entry.name:
            yield f"{prefix}{entry.name}", entry


def bad_urls(evening, seating, token):
    """Every named URL with unknown numbers, and with real ones of a drawn evening."""
    for name, entry in patterns(get_resolver()):
        converters = entry.pattern.converters
        if name in ("set_language", "login", "logout"):
            continue
        if not converters:
            yield reverse(name)
            continue
        unknown = {key: ("nope" if key == "token" else 999999) for key in converters}
        yield reverse(name, kwargs=unknown)
        real = {}
        for key in converters:
            real[key] = {
                "pk": evening.pk,
                "number": 1,
                "token": token,
                "player_pk": 999999,
                "round_pk": 999999,
                "exclusion_pk": 999999,
            }.get(key, 1)
        if name == "organiser:seating_detail" or name == "organiser:seating_confirm":
            real["pk"] = seating.pk
        yield reverse(name, kwargs=real)


@pytest.mark.no_cover  # a sweep of every URL: its lines are measured by the tests of each page (tests/conftest.py)
@pytest.mark.django_db
def test_no_url_answers_with_a_server_error(organiser_client, client, roster_evening):
    services.draw_session(evening=roster_evening, seed=1)
    seating = Seating.objects.filter(round__number=1).select_related("table").first()
    token = seating.table.token
    checked = 0
    for url in bad_urls(roster_evening, seating, token):
        for browser in (organiser_client, client):
            response = browser.get(url)
            assert response.status_code < 500, ("GET", url, response.status_code)
            for data in JUNK_POSTS:
                response = browser.post(url, data)
                assert response.status_code < 500, ("POST", url, data, response.status_code)
            checked += 1
    assert checked > 60
