"""The hub's pages ask the database a fixed number of times, whatever the size of the field."""

from __future__ import annotations

import pytest

from scoring.hub import services
from tests.hub.conftest import evening_snapshot, post, season_snapshot

pytestmark = [pytest.mark.django_db, pytest.mark.no_cover]


@pytest.mark.parametrize("count", [8, 64])
def test_the_pages_take_the_same_queries_for_8_and_64_players(hub, count, django_assert_num_queries):
    client, club, key = hub
    for number in range(3):
        post(client, evening_snapshot(f"e{number}", 100, count=count, state="final"), key)
    post(client, season_snapshot(evenings=("e0", "e1", "e2")), key)
    slug = services.create_association("Nordfriesland", [club.name]).slug
    season = services.add_association_season("Nordfriesland", "Winter", "2026-09-01", "2027-04-30")
    pages = {
        "/": 2,
        f"/verein/{club.slug}/": 3,
        f"/verein/{club.slug}/abend/e0/": 2,
        f"/verein/{club.slug}/spieler/p-0001/": 2,
        f"/verein/{club.slug}/saison/hall-1-s3/": 2,
        f"/verband/{slug}/": 3,
        f"/verband/{slug}/saison/{season.pk}/": 2,
    }
    for url, queries in pages.items():
        with django_assert_num_queries(queries):
            assert client.get(url).status_code == 200, url
    evening = f"/verein/{club.slug}/abend/e0/"
    etag = client.get(evening)["ETag"]
    with django_assert_num_queries(1):  # a 304 reads the version only
        assert client.get(evening, HTTP_IF_NONE_MATCH=etag).status_code == 304
    rendered = client.get(evening).content
    with django_assert_num_queries(1):  # rendered once per version and language (the shared cache)
        assert client.get(evening, HTTP_IF_NONE_MATCH='"other"').content == rendered
