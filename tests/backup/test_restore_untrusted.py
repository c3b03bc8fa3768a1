"""A backup is untrusted input: restore checks the whole graph before it writes, a
restored copy cannot collide with the original, the memory a restore takes is bounded by what it
parses, the preview writes nothing and a restore of any size fits SQLite's limit of variables."""

from __future__ import annotations

import gzip
import json
import re
import sqlite3
import tracemalloc

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring import backup
from scoring.models import Evening, Player, Table
from scoring.selectors.tablets import table_for_code
from tests.backup.test_backup import row_counts, wipe
from tests.backup.test_restore_checks import crafted, german, refusal
from tests.views.test_printing import _upload, backup_pending, messages_of

pytestmark = pytest.mark.django_db


def _partnership_of(data: dict, session: int, number: int) -> dict:
    return next(p for p in data["partnerships"] if p["session"] == session and p["number"] == number)


def _self_partner(d: dict) -> None:
    team = d["partnerships"][0]
    team["player_2"] = team["player_1"]


def _two_partnerships(d: dict) -> None:
    first, second = d["partnerships"][0], d["partnerships"][1]
    second["player_1"] = first["player_1"]


def _playing_against_itself(d: dict) -> None:
    d["seatings"][0]["team_b"] = d["seatings"][0]["team_a"]


def _team_of_another_session(d: dict) -> None:
    seating = d["seatings"][0]
    session = next(r["session"] for r in d["rounds"] if r["id"] == seating["round"])
    other = next(p for p in d["partnerships"] if p["session"] != session)
    seating["team_b"] = other["id"]


#: (what is changed, the record's key, words the German refusal holds)
CRAFTED = {
    "partnered-with-himself": (_self_partner, "partnerships", "zweimal in derselben Partnerschaft"),
    "in-two-partnerships": (_two_partnerships, "partnerships", "auch in Partnerschaft"),
    "against-itself": (_playing_against_itself, "seatings", "gegen sich selbst"),
    "team-of-another-session": (_team_of_another_session, "seatings", "anderen Durchgang"),
    "changed-in-9999": (
        lambda d: d["deal_changes"][0].update(changed_at="9999-12-31T00:00:00+00:00"),
        "deal_changes",
        "außerhalb der Jahre 1970 bis 2099",
    ),
    "confirmed-in-9999": (
        lambda d: d["seatings"][0].update(confirmed_at="9999-12-31T00:00:00+00:00"),
        "seatings",
        "außerhalb der Jahre",
    ),
    "clock-version-at-the-end": (
        lambda d: d["evenings"][0].update(clock_version=2**63 - 1),
        "evenings",
        "passt nicht in seine Spalte",
    ),
    "deal-version-at-the-end": (
        lambda d: d["deals"][0].update(version=2**63 - 1),
        "deals",
        "passt nicht in seine Spalte",
    ),
    "direction-character-in-a-history-name": (
        lambda d: d["deal_changes"][0].update(name="Leitung\u202e"),
        "deal_changes",
        "U+202E",
    ),
    "a-reason-of-megabytes": (
        lambda d: d["deals"][0].update(override_reason="x" * 100_000),
        "deals",
        "länger als 2000 Zeichen",
    ),
    "unknown-clock-kind": (lambda d: d["evenings"][0].update(clock_kind="xyz"), "evenings", "keiner der Werte"),
}


@pytest.mark.parametrize("case", sorted(CRAFTED))
def test_a_crafted_graph_or_value_is_refused_naming_the_record_and_nothing_is_written(played_evening, case):
    change, key, words = CRAFTED[case]
    good = backup.export_evening(played_evening)
    wipe()
    error = refusal(crafted(good, change))  # nothing written
    assert error.code == "invalid_record", german(error)
    assert f"Datensatz {key} " in german(error) and words in german(error), german(error)


def test_a_moment_beyond_the_year_9999_is_refused_on_the_page_without_a_file_left_behind(
    played_evening, organiser_client
):
    """An ``updated_at`` of 9999-12-31T23:59:59-12:00 is the year 10000 in UTC: the preview
    answered 500 and left the upload in the pending folder."""
    document = crafted(
        backup.export_evening(played_evening), lambda d: d["deals"][0].update(updated_at="9999-12-31T23:59:59-12:00")
    )
    response = organiser_client.post(
        reverse("organiser:backup_restore"),
        {"file": _upload(json.dumps(document).encode(), "abend.json"), "allow_duplicates": "1"},
        follow=True,
    )
    assert response.status_code == 200
    [said] = messages_of(response)
    assert "beschädigt" in said or "Datensatz deals" in said
    assert Evening.objects.count() == 1 and not list(backup_pending())


def test_the_pending_file_is_removed_whatever_fails_during_the_preview(played_evening, organiser_client, monkeypatch):
    def fails(*args, **kwargs):
        raise RuntimeError("unexpected")

    monkeypatch.setattr(backup, "preview", fails)
    organiser_client.raise_request_exception = False
    data = json.dumps(backup.export_evening(played_evening)).encode()
    response = organiser_client.post(
        reverse("organiser:backup_restore"), {"file": _upload(data, "abend.json"), "allow_duplicates": "1"}
    )
    assert response.status_code == 500
    assert not list(backup_pending())


# --- Point 2: nothing restored collides with what is there ----------------------------------------


def test_a_copy_gets_new_table_codes_so_a_tablet_rejoining_by_code_finds_the_original(played_evening):
    from django.utils import timezone

    Evening.objects.filter(pk=played_evening.pk).update(date=timezone.localdate())  # being played today
    original = {t.number: t.code for t in played_evening.tables.all()}
    outcome = backup.restore(backup.export_evening(played_evening), allow_duplicates=True)
    [copy] = outcome.evenings
    assert copy.name == f"{played_evening.name} (Kopie)"
    copied = {t.number: t.code for t in Table.objects.filter(evening=copy)}
    assert copied.keys() == original.keys()
    assert not set(copied.values()) & set(original.values())
    assert outcome.new_tokens == len(original)
    for number, code in original.items():
        assert table_for_code(number, code).evening_id == played_evening.pk
    # A third copy: a name of its own again.
    third = backup.restore(backup.export_evening(played_evening), allow_duplicates=True).evenings[0]
    assert third.name == f"{played_evening.name} (Kopie 2)"


def test_a_code_taken_by_another_evening_is_renewed_with_the_link(played_evening):
    document = backup.export_evening(played_evening)
    first = document["data"]["tables"][0]
    wipe()
    from tests.conftest import make_roster_evening

    other = make_roster_evening()
    Table.objects.create(evening=other, number=7, code=first["code"])
    outcome = backup.restore(document, allow_duplicates=True)  # the roster's evening is there too
    assert outcome.new_tokens == 1
    restored = Table.objects.get(evening=outcome.evenings[0], number=first["number"])
    assert restored.code != first["code"] and restored.token != first["token"]


# --- Point 3: memory bounded by what is parsed ----------------------------------------------------


def test_a_bomb_of_empty_objects_is_refused_before_it_is_parsed(settings, tmp_path):
    """99 KB of gzip unpacking to "[{},{},...]": within the bytes allowed, but millions of objects."""
    settings.RESTORE_MAX_BYTES = 16 * 1024 * 1024
    settings.RESTORE_MAX_VALUES = 100_000
    content = b"[" + b"{}," * (5 * 1024 * 1024) + b"{}]"  # 15 MB, 10 million values
    path = tmp_path / "bombe.json.gz"
    path.write_bytes(gzip.compress(content, compresslevel=9))
    del content
    tracemalloc.start()
    try:
        with pytest.raises(backup.BackupError) as error:
            backup.read_backup(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert error.value.code == "too_many_values"
    assert peak < 8 * 1024 * 1024, peak  # parsed, the file takes some 700 MB
    assert "100000 Werte" in german(error.value) and "RESTORE_MAX_VALUES" in german(error.value)
    with pytest.raises(backup.BackupError) as error:  # not compressed: the same
        backup.parse_backup(b"[" + b"{}," * 60_000 + b"{}]")
    assert error.value.code == "too_many_values"


def test_a_played_evening_is_far_within_the_values_budget(played_evening, settings):
    content = backup.encode_backup(backup.export_evening(played_evening))
    records = sum(backup.counts(json.loads(content)).values())
    values = backup.files.values_in(content)
    assert values < 30 * records  # the settings' arithmetic: about 20 values a record
    assert settings.RESTORE_MAX_VALUES >= 5_000_000


# --- Point 4: the hall keeps playing ----------------------------------------------------------------


def test_the_preview_writes_nothing_and_takes_no_write_lock(played_evening, organiser_client):
    """The preview restored the file inside a transaction and rolled it back: SQLite's write lock
    for the whole time. Now it only reads."""
    data = json.dumps(backup.export_evening(played_evening)).encode()
    with CaptureQueriesContext(connection) as queries:
        response = organiser_client.post(
            reverse("organiser:backup_restore"), {"file": _upload(data, "abend.json"), "allow_duplicates": "1"}
        )
    assert response.status_code == 200 and "Schwesing (Kopie)" in response.content.decode()
    statements = [q["sql"] for q in queries.captured_queries]
    writes = [
        sql
        for sql in statements
        if sql.split()[0].upper() in ("INSERT", "UPDATE", "DELETE") and "django_session" not in sql
    ]
    assert writes == []
    # One transaction: the session's, saved after the page (the preview itself opens none).
    assert sum(sql.startswith("SAVEPOINT") for sql in statements) == 1
    token = re.search(r'name="token" value="([^"]+)"', response.content.decode()).group(1)
    organiser_client.post(reverse("organiser:backup_restore_confirm"), {"token": token, "cancel": "1"})
    assert not list(backup_pending())


def test_a_restore_beyond_sqlites_limit_of_variables(db, settings):
    """Every ``__in`` filter and insert stays below the connection's limit of variables in one
    statement (999 here, as SQLite before 3.32 and many builds): 1,500 players in one file."""
    if connection.vendor != "sqlite":
        pytest.skip("SQLite's limit")
    connection.ensure_connection()
    before = connection.connection.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER)
    connection.connection.setlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER, 999)
    try:
        Player.objects.create(name="Spieler 7", club="")
        data = {key: [] for key, _, _ in backup.MODELS}
        data["players"] = [
            {"id": i, "name": f"Spieler {i}", "club": "", "match_key": "", "created_at": "2026-01-01T10:00:00+00:00"}
            for i in range(1, 1501)
        ]
        document = {"format": "bruus-turnier-backup", "version": 1, "scope": "database", "data": data}
        document["sha256"] = backup.checksum(data)
        preview = backup.preview(document)
        assert (preview.players_new, preview.players_reused) == (1499, 1)
        counts = row_counts()
        outcome = backup.restore(document)
        assert (outcome.players_new, outcome.players_reused) == (1499, 1)
        assert Player.objects.count() == counts["Player"] + 1499
    finally:
        connection.connection.setlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER, before)


def test_a_restore_that_fails_after_some_short_transactions_leaves_nothing_behind(played_evening, monkeypatch):
    """The restore writes in short transactions (the tablets' deals go in between): a failure in a
    later one deletes what the earlier ones wrote."""
    from django.db import IntegrityError

    from scoring.backup import merge
    from scoring.models import DealChange

    document = backup.export_evening(played_evening)
    monkeypatch.setattr(merge, "ROWS_PER_TRANSACTION", 10)
    insert = DealChange._base_manager._insert

    def refused(objs, *args, **kwargs):
        if objs and isinstance(objs[0], DealChange):
            raise IntegrityError("crafted")
        return insert(objs, *args, **kwargs)

    monkeypatch.setattr(type(DealChange._base_manager), "_insert", lambda self, objs, *a, **k: refused(objs, *a, **k))
    counts = row_counts()
    with pytest.raises(backup.BackupError) as error:
        backup.restore(document, allow_duplicates=True)
    assert error.value.code == "integrity"
    assert row_counts() == counts
