"""The results site's API (docs/results-online.md, "The API"): keys, clubs kept apart, replays,
refusals that change nothing, the size limit, withdrawals and seasons."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from scoring.hub import keys, services
from scoring.hub.models import Club, HubEvening, HubPlayer, HubResult, HubSeason
from tests.hub.conftest import API, evening_snapshot, post, season_snapshot

pytestmark = pytest.mark.django_db


def _state() -> list:
    """Everything the hub holds, to compare before and after a request."""
    return [
        list(model.objects.order_by("pk").values()) for model in (Club, HubEvening, HubPlayer, HubResult, HubSeason)
    ]


def test_a_club_key_is_stored_hashed_and_opens_only_its_club(hub):
    client, club, key = hub
    club.refresh_from_db()
    assert key not in club.key_hash and len(key) >= 40
    assert club.key_hash.startswith("sha256$") and keys.matches(key, club.key_hash)
    assert post(client, evening_snapshot(), key).json() == {"status": "applied", "version": 100}
    assert HubEvening.objects.get().club == club


@pytest.mark.parametrize("header", [None, "Bearer", "Bearer nope", "Basic abc", "Bearer " + "x" * 200])
def test_no_key_or_a_wrong_key_is_refused_401_and_writes_nothing(hub, header):
    client, _, key = hub
    before = _state()
    extra = {"HTTP_AUTHORIZATION": header} if header else {}
    answer = client.generic("POST", API, json.dumps(evening_snapshot()), content_type="application/json", **extra)
    assert answer.status_code == 401
    assert answer.json() == {"status": "refused", "errors": ["key"]}
    assert _state() == before


def test_a_key_writes_only_its_own_club(hub):
    client, first, first_key = hub
    second, second_key = services.create_club("Zweiter Verein")
    post(client, evening_snapshot(version=100), first_key)
    # The same uid from the other club is that club's evening; the first stays as it was.
    assert post(client, evening_snapshot(version=500, name="Anderer Abend"), second_key).json()["status"] == "applied"
    mine = HubEvening.objects.get(club=first)
    assert (mine.version, mine.name) == (100, "Bruus-Abend November")
    assert HubEvening.objects.get(club=second).name == "Anderer Abend"
    withdraw = {"format": "bruus-withdraw", "format_version": 1, "players": ["p-0001"], "evenings": ["hall-1-17"]}
    post(client, withdraw, second_key)
    mine.refresh_from_db()
    assert not mine.withdrawn and HubPlayer.objects.filter(club=first, key="p-0001").exists()


def test_a_new_key_stops_the_old_one(hub):
    client, club, old = hub
    _, new = services.renew_club_key(club.name)
    assert post(client, evening_snapshot(), old).status_code == 401
    assert post(client, evening_snapshot(), new).status_code == 200


@pytest.mark.parametrize("version", [100, 99, 0])
def test_a_replay_or_an_older_snapshot_changes_nothing(hub, version):
    client, _, key = hub
    post(client, evening_snapshot(version=100), key)
    before = _state()
    older = evening_snapshot(version=version, name="Älterer Stand", count=12)
    assert post(client, older, key).json() == {"status": "unchanged", "version": 100}
    assert _state() == before


def test_a_newer_snapshot_replaces_the_evening(hub):
    client, _, key = hub
    post(client, evening_snapshot(version=100), key)
    answer = post(client, evening_snapshot(version=101, count=12, state="final"), key)
    assert answer.json() == {"status": "applied", "version": 101}
    evening = HubEvening.objects.get()
    assert (evening.version, evening.state) == (101, "final")
    assert HubResult.objects.filter(evening=evening).count() == 11  # the twelfth is not published


def test_a_hidden_ranking_keeps_what_was_shown(hub):
    client, _, key = hub
    post(client, evening_snapshot(version=100), key)
    shown = HubEvening.objects.get().snapshot["ranking"]
    assert post(client, evening_snapshot(version=120, hidden=True), key).json()["status"] == "applied"
    evening = HubEvening.objects.get()
    assert evening.ranking_hidden and evening.snapshot["ranking"] == shown
    assert HubResult.objects.count() == 7


def _bad(change) -> dict:
    snapshot = evening_snapshot()
    change(snapshot)
    return snapshot


BAD = {
    "not an object": ([1, 2], "body: not a JSON object"),
    "format": (_bad(lambda s: s.update(format="bruus-backup")), "format"),
    "format version": (_bad(lambda s: s.update(format_version=2)), "format_version"),
    "no evening": (_bad(lambda s: s.pop("evening")), "evening: missing"),
    "no version": (_bad(lambda s: s["evening"].pop("version")), "evening.version: missing"),
    "version text": (_bad(lambda s: s["evening"].update(version="81234")), "evening.version: not a whole number"),
    "version bool": (_bad(lambda s: s["evening"].update(version=True)), "evening.version: not a whole number"),
    "version negative": (_bad(lambda s: s["evening"].update(version=-1)), "evening.version: out of range"),
    "version huge": (_bad(lambda s: s["evening"].update(version=2**63)), "evening.version: out of range"),
    "uid": (_bad(lambda s: s["evening"].update(uid="../x")), "evening.uid"),
    "date": (_bad(lambda s: s["evening"].update(date="2026-02-30")), "evening.date"),
    "date year": (_bad(lambda s: s["evening"].update(date="1066-10-14")), "evening.date"),
    "sent_at": (_bad(lambda s: s["evening"].update(sent_at="gestern")), "evening.sent_at"),
    "state": (_bad(lambda s: s["evening"].update(state="over")), "evening.state"),
    "language": (_bad(lambda s: s["evening"].update(language="fr")), "evening.language"),
    "rule set": (_bad(lambda s: s["evening"].update(rule_set="skat")), "evening.rule_set"),
    "sessions": (_bad(lambda s: s["evening"].update(sessions_count=7)), "evening.sessions_count"),
    "hidden not bool": (_bad(lambda s: s["evening"].update(ranking_hidden="no")), "evening.ranking_hidden"),
    "name empty": (_bad(lambda s: s["evening"].update(name="  ")), "evening.name: empty"),
    "name long": (_bad(lambda s: s["evening"].update(name="x" * 121)), "evening.name: longer"),
    "control character": (_bad(lambda s: s["players"][0].update(name="Anna\x07")), "players[0].name: a control"),
    "bidi override": (_bad(lambda s: s["players"][0].update(name="Anna \u202epetersen")), "players[0].name"),
    "zero width": (_bad(lambda s: s["evening"].update(venue="Dörps\u200bhus")), "evening.venue"),
    "unknown player": (_bad(lambda s: s["ranking"][0].update(player="p-9999")), "ranking[0].player"),
    "unknown at a table": (_bad(lambda s: s["rounds"][0]["tables"][0]["team_a"].__setitem__(0, "p-x")), "team_a[0]"),
    "player twice": (_bad(lambda s: s["players"].append(dict(s["players"][0]))), "named twice"),
    "ranked twice": (_bad(lambda s: s["ranking"][1].update(player="p-0001")), "ranked twice"),
    "total comma": (_bad(lambda s: s["ranking"][0].update(total="54,6")), "ranking[0].total"),
    "total number": (_bad(lambda s: s["ranking"][0].update(total=54)), "ranking[0].total"),
    "places order": (_bad(lambda s: s["ranking"][0].update(place=5)), "places not in order"),
    "place zero": (_bad(lambda s: s["ranking"][0].update(place=0)), "ranking[0].place"),
    "too many sessions": (_bad(lambda s: s["ranking"][0].update(sessions=["1"] * 4)), "ranking[0].sessions"),
    "round twice": (_bad(lambda s: s["rounds"].append(s["rounds"][0])), "this round twice"),
    "round range": (_bad(lambda s: s["rounds"][0].update(round=5)), "rounds[0].round"),
    "table twice": (_bad(lambda s: s["rounds"][0]["tables"][1].update(table=1)), "this table twice"),
    "points negative": (_bad(lambda s: s["rounds"][0]["tables"][0].update(points_a=-1)), "points_a"),
    "team empty": (_bad(lambda s: s["rounds"][0]["tables"][0].update(team_b=[])), "team_b: empty"),
    "team of four": (_bad(lambda s: s["rounds"][0]["tables"][0].update(team_b=[None] * 4)), "team_b: more than"),
    "too many players": (
        _bad(lambda s: s.update(players=[{"key": f"k{n}", "name": "N"} for n in range(1001)])),
        "players: more than 1000",
    ),
    "ranking while hidden": (_bad(lambda s: s["evening"].update(ranking_hidden=True)), "while the ranking is hidden"),
    "deal not object": (_bad(lambda s: s["rounds"][0]["tables"][0].update(deals=[5])), "deals[0]: not an object"),
}


@pytest.mark.parametrize("name", list(BAD))
def test_a_bad_snapshot_is_refused_with_its_reason_and_writes_nothing(hub, name):
    client, _, key = hub
    post(client, evening_snapshot(version=50), key)
    before = _state()
    body, reason = BAD[name]  # version 100 where it has one: newer than the 50 held
    answer = post(client, body, key)
    assert answer.status_code == 400, answer.content
    assert answer.json()["status"] == "refused"
    assert any(reason in error for error in answer.json()["errors"]), answer.json()
    assert _state() == before


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        (b"\xff\xfe", "body: not UTF-8"),
        (b"{", "body: not JSON"),
        (b'{"format": NaN}', "body: not JSON"),
        (b'{"format": "bruus-snapshot", "format": "bruus-snapshot"}', "body: not JSON"),
        (b"[" * 50 + b"]" * 50, "body: not a JSON object"),
        (b"[" * 100000, "nested too deep"),
    ],
)
def test_a_body_that_is_not_plain_json_is_refused(hub, body, reason):
    client, _, key = hub
    answer = post(client, body, key)
    assert answer.status_code == 400
    assert reason in answer.json()["errors"][0]
    assert not HubEvening.objects.exists()


def test_another_content_type_is_refused(hub):
    client, _, key = hub
    answer = client.generic(
        "POST", API, json.dumps(evening_snapshot()), content_type="text/plain", HTTP_AUTHORIZATION=f"Bearer {key}"
    )
    assert answer.status_code == 400 and "content-type" in answer.json()["errors"][0]
    assert not HubEvening.objects.exists()


def test_only_post(hub):
    client, _, _ = hub
    answer = client.get(API)
    assert answer.status_code == 405 and answer["Allow"] == "POST"


def test_a_body_over_the_limit_is_refused_unread(hub, settings):
    client, _, key = hub
    settings.HUB_SNAPSHOT_MAX_BYTES = 4096
    big = evening_snapshot(count=80)
    assert len(json.dumps(big)) > 4096
    answer = post(client, big, key)
    assert answer.status_code == 413 and answer.json()["status"] == "refused"
    # A declared length over the limit is refused before a byte is read.
    answer = client.generic(
        "POST", API, b"", content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {key}", CONTENT_LENGTH="5000"
    )
    assert answer.status_code == 413
    assert not HubEvening.objects.exists()


def test_a_chunked_body_is_read_to_the_limit_only(hub, settings):
    import io

    client, _, key = hub
    settings.HUB_SNAPSHOT_MAX_BYTES = 4096
    stream = io.BytesIO(b"x" * 100_000)
    answer = client.generic(
        "POST",
        API,
        b"",
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {key}",
        HTTP_TRANSFER_ENCODING="chunked",
        **{"wsgi.input": stream, "CONTENT_LENGTH": ""},
    )
    assert answer.status_code == 413
    assert stream.tell() == 4097


def test_a_withdrawal_blanks_players_and_removes_evenings(hub):
    client, club, key = hub
    post(client, evening_snapshot("hall-1-17", 100), key)
    post(client, evening_snapshot("hall-1-18", 100), key)
    post(client, season_snapshot(evenings=("hall-1-17", "hall-1-18")), key)
    withdraw = {"format": "bruus-withdraw", "format_version": 1, "players": ["p-0001"], "evenings": ["hall-1-18"]}
    assert post(client, withdraw, key).json() == {"status": "applied"}
    kept = HubEvening.objects.get(uid="hall-1-17")
    assert "p-0001" not in json.dumps(kept.snapshot) and kept.edits == 1
    assert "p-0001" not in json.dumps(HubSeason.objects.get().snapshot)
    assert not HubPlayer.objects.filter(key="p-0001").exists()
    gone = HubEvening.objects.get(uid="hall-1-18")
    assert gone.withdrawn and gone.snapshot == {} and not gone.results.exists()
    # A replay of the withdrawn evening's old snapshot changes nothing; a newer one brings it back.
    assert post(client, evening_snapshot("hall-1-18", 100), key).json()["status"] == "unchanged"
    assert post(client, evening_snapshot("hall-1-18", 101), key).json()["status"] == "applied"
    assert not HubEvening.objects.get(uid="hall-1-18").withdrawn


def test_a_season_snapshot_is_held_and_replays_change_nothing(hub):
    client, _, key = hub
    assert post(client, season_snapshot(version=7), key).json() == {"status": "applied", "version": 7}
    before = _state()
    assert post(client, season_snapshot(version=7), key).json() == {"status": "unchanged", "version": 7}
    assert _state() == before
    bad = season_snapshot(version=8)
    bad["ranking"][0]["evenings"] = -1
    answer = post(client, bad, key)
    assert answer.status_code == 400 and "ranking[0].evenings" in answer.json()["errors"][0]
    assert _state() == before


def test_unknown_fields_are_dropped(hub):
    client, _, key = hub
    snapshot = evening_snapshot()
    snapshot["secret"] = "x"
    snapshot["evening"]["organiser_password"] = "y"
    snapshot["players"][0]["email"] = "anna@example.org"
    assert post(client, snapshot, key).status_code == 200
    held = json.dumps(HubEvening.objects.get().snapshot)
    assert "anna@example.org" not in held and "organiser_password" not in held and "secret" not in held


def test_the_api_sets_no_cookie_and_needs_no_csrf_token(hub_role, club_key):
    _, key = club_key
    client = Client(enforce_csrf_checks=True)
    answer = post(client, evening_snapshot(), key)
    assert answer.status_code == 200 and not answer.cookies
