"""Backup and restore: a played evening (or the whole database) goes into one file and comes back
on another machine with nothing lost; a damaged or foreign file is refused and changes nothing."""

from __future__ import annotations

import gzip
import json
import random
from datetime import date
from pathlib import Path

import pytest
from django.apps import apps
from django.core.management import CommandError, call_command
from django.utils import timezone, translation

from scoring import backup, selectors, services
from scoring.backup import BackupError
from scoring.backup.base import OLD_ORIGIN_TEXTS
from scoring.hall.origin import Origin, Source, describe, origin_from_text
from scoring.models import (
    Deal,
    DealChange,
    Evening,
    Participant,
    Partnership,
    Player,
    Round,
    Seating,
    Table,
)
from scoring.web.messages import translate
from tests import factories
from tests.backup.played import play_session

pytestmark = pytest.mark.django_db

ALL_MODELS = [model for _, model, _ in backup.MODELS]
DATA = Path(__file__).parents[1] / "data"


def normalised(document: dict) -> dict:
    """A backup's data with every id (and reference) replaced by the record's position in its
    list: two backups of the same content compare equal whatever the primary keys are."""
    position = {key: {r["id"]: i for i, r in enumerate(document["data"][key])} for key, _, _ in backup.MODELS}
    result = {}
    for key, model, _ in backup.MODELS:
        targets = {
            f.name: backup.KEY_OF_MODEL.get(f.related_model) for f in model._meta.concrete_fields if f.is_relation
        }
        records = []
        for record in document["data"][key]:
            record = dict(record, id=position[key][record["id"]])
            for name, target in targets.items():
                if target and record.get(name) is not None:
                    record[name] = position[target][record[name]]
            records.append(record)
        result[key] = records
    return result


def snapshot(evening: Evening, tokens: bool = True) -> dict:
    """Everything of an evening that matters, by names and numbers (no primary keys)."""

    def team(p):
        return (p.number, *(player.name for player in p.players)) if p else None

    def where(seating):
        return (seating.round.session.number, seating.round.number, seating.table.number)

    seating_related = (
        "round__session",
        "table",
        "team_a__player_1",
        "team_a__player_2",
        "team_a__player_3",
        "team_b__player_1",
        "team_b__player_2",
        "team_b__player_3",
    )
    return {
        "evening": (
            evening.name,
            evening.date,
            evening.venue,
            evening.sessions_count,
            evening.rounds_per_session,
            evening.deals_per_round,
            evening.created_at,
            evening.rule_set,
        ),
        "participants": sorted(
            (p.player.name, p.player.club, p.checked_in)
            for p in Participant.objects.filter(evening=evening).select_related("player")
        ),
        "tables": sorted((t.number, t.token if tokens else None) for t in evening.tables.all()),
        "sessions": [
            (
                s.number,
                s.seed,
                s.sitout_player.name if s.sitout_player else None,
                s.sitout_player_2.name if s.sitout_player_2 else None,
                s.drawn_at,
                s.drawn_by.username if s.drawn_by else None,
            )
            for s in evening.sessions.order_by("number").select_related("sitout_player", "sitout_player_2", "drawn_by")
        ],
        "partnerships": [
            (p.session.number, *team(p))
            for p in Partnership.objects.filter(session__evening=evening)
            .select_related("session", "player_1", "player_2", "player_3")
            .order_by("session__number", "number")
        ],
        "rounds": [
            (r.session.number, r.number, team(r.sitout_partnership))
            for r in Round.objects.filter(session__evening=evening)
            .select_related(
                "session",
                "sitout_partnership__player_1",
                "sitout_partnership__player_2",
                "sitout_partnership__player_3",
            )
            .order_by("session__number", "number")
        ],
        "seatings": sorted(
            (where(s), team(s.team_a), team(s.team_b), s.confirmed_at)
            for s in Seating.objects.filter(round__session__evening=evening).select_related(*seating_related)
        ),
        "deals": sorted(
            (
                where(d.seating),
                d.number,
                d.winner,
                d.to_nil,
                d.bonus_a,
                d.bonus_b,
                d.points_a,
                d.points_b,
                d.override_reason,
                d.updated_at,
            )
            for d in Deal.objects.filter(seating__round__session__evening=evening).select_related(
                *(f"seating__{r}" for r in seating_related)
            )
        ),
        "changes": sorted(
            (
                where(c.deal.seating),
                c.deal.number,
                c.changed_at,
                c.changed_by.username if c.changed_by else None,
                Origin.of(c),
                json.dumps(c.previous, sort_keys=True),
                json.dumps(c.new, sort_keys=True),
                c.reason,
            )
            for c in DealChange.objects.filter(deal__seating__round__session__evening=evening).select_related(
                "changed_by", *(f"deal__seating__{r}" for r in seating_related)
            )
        ),
        "ranking": [
            (r.place, r.shared, r.player.name, r.player.club, r.sessions, r.total)
            for r in selectors.evening_ranking(evening)
        ],
    }


def renamed(snapshot_of: dict, name: str) -> dict:
    """A snapshot of an evening as its copy named ``name`` has it."""
    return {**snapshot_of, "evening": (name, *snapshot_of["evening"][1:])}


def wipe() -> None:
    """Delete every evening and the whole player register (the 'other machine')."""
    for model in reversed(ALL_MODELS):
        if model is Round:
            Round.objects.update(sitout_partnership=None)
        model.objects.all().delete()


def row_counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in ALL_MODELS}


def reseal(document: dict) -> dict:
    """After changing ``data`` on purpose: a matching checksum, so the deeper checks are reached."""
    document["sha256"] = backup.checksum(document["data"])
    return document


# --- Round trips ---------------------------------------------------------------------------------


def test_evening_round_trip_loses_nothing(played_evening, tmp_path):
    before = snapshot(played_evening)
    assert len(before["deals"]) == 24 * 4 + 24 * 2 and len(before["changes"]) == len(before["deals"]) + 2
    assert any(change[3] == "leitung" for change in before["changes"])
    original = backup.export_evening(played_evening)
    path = backup.write_backup(original, tmp_path / "abend.json")

    wipe()
    assert not Player.objects.exists() and not Evening.objects.exists()
    outcome = backup.restore(backup.read_backup(path))

    assert (outcome.players_new, outcome.players_reused, outcome.deals, outcome.new_tokens) == (26, 0, 144, 0)
    assert outcome.scope == "evening" and outcome.unknown_users == [] and outcome.ignored_fields == []
    [restored] = outcome.evenings
    assert snapshot(Evening.objects.get(pk=restored.pk)) == before
    # Every field of every model, including those the snapshot does not name, came back.
    assert normalised(backup.export_evening(restored)) == normalised(original)


@pytest.fixture
def six_handed_evening(db):
    """A six-handed Bräus evening of 26 players (teams of three, two players out for the whole
    session), session 1 written straight into the database (``tests/six_handed.py``), every
    table's first deal entered and its round 1 confirmed."""
    from tests.conftest import make_evening
    from tests.six_handed import draw_six_handed

    evening = make_evening(26, rule_set="braeus6", name="Bräus zu sechst")
    session = draw_six_handed(evening)
    assert session.sitout_player_id and session.sitout_player_2_id
    for seating in Seating.objects.filter(round__session=session):
        factories.enter_deal(seating, 1, "B", to_nil=True, table=None)
        if seating.round.number == 1:
            Seating.objects.filter(pk=seating.pk).update(entered_at=timezone.now(), confirmed_at=timezone.now())
    return evening


def test_six_handed_evening_round_trips_with_its_teams_of_three(six_handed_evening, tmp_path):
    """The rule set, every partnership's third player and the session's second sit-out player
    come back: restored into an empty database, and next to the original (players reused)."""
    evening = six_handed_evening
    before = snapshot(evening)
    assert before["evening"][-1] == "braeus6"
    assert all(len(team) == 4 for team in (p[1:] for p in before["partnerships"]))  # number + 3 names
    assert all(s[2] and s[3] for s in before["sessions"])  # two session sit-out players
    original = backup.export_evening(evening)
    assert all(r["player_3"] for r in original["data"]["partnerships"])
    assert all(r["sitout_player_2"] for r in original["data"]["sessions"])

    copy = backup.restore(original, allow_duplicates=True).evenings[0]  # merge: players reused
    assert copy.name == "Bräus zu sechst (Kopie)"
    assert snapshot(copy, tokens=False) == renamed(snapshot(evening, tokens=False), copy.name)

    path = backup.write_backup(original, tmp_path / "braeus.json")
    wipe()
    outcome = backup.restore(backup.read_backup(path))
    assert (outcome.players_new, outcome.ignored_fields) == (26, [])
    [restored] = outcome.evenings
    assert snapshot(Evening.objects.get(pk=restored.pk)) == before
    assert normalised(backup.export_evening(restored)) == normalised(original)


def test_file_with_the_old_seating_field_names_restores_entered_and_confirmed(played_evening):
    """Files written before the fields were renamed (finished_at, finished_by, completed_at)
    still come back with every round's entered and confirmed times."""
    before = snapshot(played_evening)
    document = backup.export_evening(played_evening)
    renamed = {"entered_at": "finished_at", "entered_by": "finished_by", "confirmed_at": "completed_at"}
    for record in document["data"]["seatings"]:
        for new, old in renamed.items():
            record[old] = record.pop(new)
    assert any(r["completed_at"] for r in document["data"]["seatings"])
    assert any(r["finished_by"] for r in document["data"]["seatings"])
    wipe()
    outcome = backup.restore(reseal(document))
    assert outcome.ignored_fields == []
    [restored] = outcome.evenings
    assert snapshot(Evening.objects.get(pk=restored.pk)) == before
    exported = backup.export_evening(restored)["data"]["seatings"]
    assert sorted((r["entered_by"], r["confirmed_at"] is None) for r in exported) == sorted(
        (r["finished_by"], r["completed_at"] is None) for r in document["data"]["seatings"]
    )


@pytest.mark.parametrize("name", ["backup_v1_evening.json", "backup_v1_evening_old_names.json"])
def test_files_written_by_earlier_versions_restore_every_field(name, organiser):
    """Committed files of format version 1, written by the code before the backup used Django's
    serializers (``played_evening`` plus a wish "not together", exported at e26e19f; the second
    at 91d723c, before the seating fields were renamed), come back with every field they hold."""
    document = backup.read_backup(DATA / name)
    outcome = backup.restore(document)
    assert (outcome.players_new, outcome.players_reused, outcome.deals, outcome.new_tokens) == (26, 0, 144, 0)
    assert outcome.unknown_users == [] and outcome.ignored_fields == []
    [restored] = outcome.evenings
    assert (restored.name, restored.date, restored.venue) == ("Schwesing", date(2026, 11, 21), "Dörpshus")
    today = {old: new for (_, new), old in backup.OLD_FIELD_NAMES.items()}
    for records in document["data"].values():
        for i, record in enumerate(records):
            records[i] = {today.get(name, name): value for name, value in record.items()}
    for key, (text_field, prefix) in OLD_ORIGIN_TEXTS.items():  # a sentence then, data now
        for record in document["data"].get(key, []):
            text = record.pop(text_field)
            record.update(origin_from_text(text).fields(prefix) if text else {})
    for key in backup.ADDED_LATER:  # models added after the file was written: it has none
        document["data"].setdefault(key, [])
    expected = normalised(document)
    exported = normalised(backup.export_evening(restored))
    assert sorted(expected) == sorted(exported)
    for key, records in expected.items():
        assert len(exported[key]) == len(records), key
        for mine, theirs in zip(exported[key], records, strict=True):
            assert {name: mine[name] for name in theirs} == theirs, key
    changes = DealChange.objects.filter(deal__seating__round__session__evening=restored)
    assert {Origin.of(c) for c in changes} == {
        *(Origin.table_link(n) for n in range(1, 7)),  # "Tisch 1 (Tablet)" ...
        Origin(Source.ORGANISER, role="leader", name="leitung"),  # "Turnierleitung (leitung)"
    }
    confirmed = Seating.objects.get(round__session__evening=restored, confirmed_source="organiser")
    with translation.override("en"):  # written in German, read in English
        assert describe(Origin.of(confirmed, "confirmed_")) == "Organiser"
        assert describe(Origin.table_link(1)) == "Table 1 (table link)"


def test_automatic_dates_the_file_does_not_hold_are_the_time_of_the_restore(played_evening):
    """A file without an automatic date (a field added after it was written) restores as a save
    would: with the time of the restore, never refused."""
    document = backup.export_evening(played_evening)
    automatic = {"players": "created_at", "evenings": "created_at", "deals": "updated_at", "deal_changes": "changed_at"}
    for key, name in automatic.items():
        for record in document["data"][key]:
            del record[name]
    wipe()
    start = timezone.now()
    [restored] = backup.restore(reseal(document)).evenings
    assert Evening.objects.get(pk=restored.pk).created_at >= start
    assert min(Player.objects.values_list("created_at", flat=True)) >= start
    assert min(Deal.objects.values_list("updated_at", flat=True)) >= start
    assert min(DealChange.objects.values_list("changed_at", flat=True)) >= start


def test_fields_this_version_does_not_know_are_ignored_and_reported(played_evening, tmp_path, capsys):
    before = snapshot(played_evening)
    document = backup.export_evening(played_evening)
    document["data"]["deals"][0]["weather"] = "stormy"
    document["data"]["players"][3]["nickname"] = "Hauke"
    path = backup.write_backup(reseal(document), tmp_path / "neuer.json")
    wipe()
    outcome = backup.restore(backup.read_backup(path))
    assert outcome.ignored_fields == ["deals.weather", "players.nickname"]
    assert snapshot(Evening.objects.get(pk=outcome.evenings[0].pk)) == before
    call_command("restore", str(path), "--allow-duplicates")
    assert "deals.weather, players.nickname" in capsys.readouterr().out


def test_backup_file_is_readable_utf8_json_or_gzip(played_evening, tmp_path):
    document = backup.export_evening(played_evening)
    plain = backup.write_backup(document, tmp_path / "abend.json")
    packed = backup.write_backup(document, tmp_path / "abend.json.gz")
    text = plain.read_text(encoding="utf-8")
    assert '"format": "bruus-turnier-backup"' in text and "Dörpshus" in text
    assert gzip.decompress(packed.read_bytes()) == plain.read_bytes()
    assert backup.read_backup(plain) == backup.read_backup(packed) == json.loads(text)
    assert document["scope"] == "evening" and document["version"] == 1
    deal = document["data"]["deals"][0]
    assert {
        "id",
        "seating",
        "number",
        "winner",
        "to_nil",
        "bonus_a",
        "bonus_b",
        "points_a",
        "points_b",
        "override_reason",
        "updated_at",
    } <= set(deal)
    assert all(c["changed_by"] in (None, "leitung") for c in document["data"]["deal_changes"])


def test_restore_next_to_the_original_reuses_players_and_needs_allow_duplicates(played_evening):
    document = backup.export_evening(played_evening)
    counts = row_counts()
    with pytest.raises(BackupError) as refused:
        backup.restore(document)
    assert refused.value.code == "duplicate_evening" and "Schwesing" in str(refused.value)
    with translation.override("de"):
        assert "bereits" in translate(refused.value)
    assert row_counts() == counts

    outcome = backup.restore(document, allow_duplicates=True)
    assert (outcome.players_new, outcome.players_reused) == (0, 26)
    assert outcome.new_tokens == played_evening.tables.count() > 0
    assert Player.objects.count() == counts["Player"]
    assert Evening.objects.count() == 2 and Deal.objects.count() == 2 * counts["Deal"]
    [copy] = outcome.evenings
    assert snapshot(copy, tokens=False) == renamed(snapshot(played_evening, tokens=False), copy.name)
    tokens = list(Table.objects.values_list("token", flat=True))
    assert len(tokens) == len(set(tokens))


def test_database_round_trip_with_two_evenings_and_the_register(played_evening, organiser):
    second = services.create_evening(
        name="Oster-Ohrstedt",
        date=date(2026, 12, 5),
        venue="Gasthof Treia",
        sessions_count=2,
        rounds_per_session=3,
        deals_per_round=3,
    )
    for player in Player.objects.order_by("name")[:12]:
        services.set_checked_in(evening=second, player=player, checked_in=True)
    play_session(second, organiser, seed=9, rng=random.Random(3))
    services.add_player(name="Jürgen Öhlschläger", club="Süderlügum")  # in the register only
    before = {e.name: snapshot(e) for e in Evening.objects.all()}
    register = sorted(Player.objects.values_list("name", "club", "match_key", "created_at"))

    document = backup.export_database()
    assert document["scope"] == "database"
    wipe()
    outcome = backup.restore(document)

    assert outcome.scope == "database" and len(outcome.evenings) == 2
    assert outcome.players_new == len(register) == 27
    assert {e.name: snapshot(e) for e in Evening.objects.all()} == before
    assert sorted(Player.objects.values_list("name", "club", "match_key", "created_at")) == register
    assert normalised(backup.export_database()) == normalised(document)


def test_unknown_login_is_left_empty_and_reported(played_evening, django_user_model):
    document = backup.export_evening(played_evening)
    wipe()
    django_user_model.objects.all().delete()
    outcome = backup.restore(document)
    assert outcome.unknown_users == ["leitung"]
    changes = DealChange.objects.filter(reason="Zählfehler")
    assert changes.count() == 1 and changes[0].changed_by is None
    with translation.override("de"):
        assert describe(Origin.of(changes[0])) == "Turnierleitung (leitung)"


def test_every_model_is_backed_up_and_restorable_in_order():
    """A model added to the app must be added to backup.MODELS (or NOT_BACKED_UP); every foreign key of a backed-up
    model points to a model restored before it (or to a user)."""
    app_models = {m for m in apps.get_app_config("scoring").get_models() if not m._meta.auto_created}
    assert app_models == set(ALL_MODELS) | set(backup.NOT_BACKED_UP)
    seen = set()
    for model in ALL_MODELS:
        for field in model._meta.concrete_fields:
            if field.is_relation:
                assert field.related_model in seen or field.related_model._meta.label == "auth.User", field
        assert not [f for f in model._meta.many_to_many if f.remote_field.through._meta.auto_created]
        seen.add(model)


# --- Refused files change nothing ------------------------------------------------------------


def _bad_documents(good: dict) -> list[tuple[str, bytes]]:
    def variant(change) -> bytes:
        document = json.loads(json.dumps(good))
        change(document)
        return json.dumps(document).encode()

    good_bytes = json.dumps(good, ensure_ascii=False).encode("utf-8")
    return [
        ("not_json", b"Dies ist keine Sicherung."),
        ("not_json", bytes(range(256)) * 8),
        ("not_json", good_bytes[: len(good_bytes) // 2]),  # truncated
        ("bad_gzip", gzip.compress(good_bytes)[:400]),  # truncated gzip
        ("bad_gzip", b"\x1f\x8b" + b"kaputt" * 50),  # not gzip data
        ("foreign", b'{"a": 1}'),
        ("foreign", b"[]"),
        ("foreign", variant(lambda d: d.update(format="bruus-turnier"))),
        ("newer_version", variant(lambda d: d.update(version=2))),
        ("broken", variant(lambda d: d.update(version="1"))),
        ("checksum", variant(lambda d: d["data"]["deals"][0].update(points_a=9))),
        ("checksum", variant(lambda d: d.update(sha256="0" * 64))),
        ("broken", variant(lambda d: (d["data"].pop("deals"), reseal(d)))),
        ("broken", variant(lambda d: (d["data"]["seatings"][0].update(team_a=999999), reseal(d)))),
        ("broken", variant(lambda d: (d["data"]["deals"][0].update(points_a="viel"), reseal(d)))),
        ("broken", variant(lambda d: (d["data"]["deals"][0].pop("winner"), reseal(d)))),
        ("broken", variant(lambda d: (d["data"]["evenings"][0].update(date="31.11.2026"), reseal(d)))),
        ("broken", variant(lambda d: (d["data"]["players"].append(dict(d["data"]["players"][0])), reseal(d)))),
        # Two tables number 1: refused by the check of the models' constraints, naming the record.
        ("invalid_record", variant(lambda d: (d["data"]["tables"][1].update(number=1), reseal(d)))),
    ]


def test_damaged_or_foreign_files_are_refused_and_change_nothing(played_evening, tmp_path):
    good = backup.export_evening(played_evening)
    call_command("dumpdata", "scoring", output=str(tmp_path / "dump.json"), verbosity=0)
    cases = _bad_documents(good) + [("dumpdata", (tmp_path / "dump.json").read_bytes())]
    wipe()  # so that nothing but the refusal itself stops a restore
    counts = row_counts()
    for i, (code, content) in enumerate(cases):
        path = tmp_path / f"kaputt-{i}.json"
        path.write_bytes(content)
        with pytest.raises(BackupError) as error:
            backup.restore(backup.read_backup(path))
        assert error.value.code == code, (i, code, str(error.value))
        with translation.override("de"):
            assert translate(error.value) != error.value.message or error.value.params, code
        assert row_counts() == counts, (i, code)
    # The good file still works afterwards.
    backup.restore(good)
    assert Evening.objects.count() == 1


def test_refusal_messages_are_german_by_default(tmp_path):
    (tmp_path / "x.json").write_text('{"format": "bruus-turnier-backup", "version": 7}')
    with translation.override("de"):
        with pytest.raises(BackupError) as error:
            backup.read_backup(tmp_path / "x.json")
        assert "neueren Version" in translate(error.value)
        with pytest.raises(BackupError) as error:
            backup.read_backup(tmp_path / "fehlt.json")
        assert "nicht gefunden" in translate(error.value)


# --- Commands ---------------------------------------------------------------------------------


def test_backup_and_restore_commands(played_evening, tmp_path, capsys):
    before = snapshot(played_evening)
    target = tmp_path / "sicherung.json.gz"
    call_command("backup", "--evening", str(played_evening.pk), "--output", str(target))
    out = capsys.readouterr().out
    assert str(target) in out and "144" in out
    assert target.read_bytes()[:2] == b"\x1f\x8b"

    with pytest.raises(CommandError) as error:
        call_command("restore", str(target))
    assert "bereits" in str(error.value)  # German by default

    wipe()
    call_command("restore", str(target), "--language", "en")
    out = capsys.readouterr().out
    assert "Schwesing" in out and "26 new" in out and "144" in out
    assert snapshot(Evening.objects.get()) == before

    call_command("restore", str(target), "--allow-duplicates")
    out = capsys.readouterr().out
    assert "26 schon im Spielerverzeichnis" in out
    assert Evening.objects.count() == 2 and Player.objects.count() == 26


def test_backup_command_default_file_name_and_whole_database(played_evening, tmp_path, settings, capsys):
    settings.DATA_DIR = tmp_path
    call_command("backup", "--evening", str(played_evening.pk))
    call_command("backup")
    files = sorted(p.name for p in (tmp_path / "backups").iterdir())
    assert len(files) == 2
    assert any(f.startswith("bruus-schwesing-") and f.endswith(".json") for f in files)
    assert any(f.startswith("bruus-datenbank-") for f in files)
    out = capsys.readouterr().out
    for name in files:
        assert name in out
    whole = next(p for p in (tmp_path / "backups").iterdir() if p.name.startswith("bruus-datenbank-"))
    assert backup.read_backup(whole)["scope"] == "database"


def test_commands_refuse_bad_input_with_a_clear_message(tmp_path, db):
    with pytest.raises(CommandError, match="keine Sicherung|keine Bruus"):
        (tmp_path / "x.json").write_text("{}")
        call_command("restore", str(tmp_path / "x.json"))
    with pytest.raises(CommandError, match="not a Bruus Turnier backup"):
        call_command("restore", str(tmp_path / "x.json"), "--language", "en")
    with pytest.raises(CommandError, match="nicht gefunden"):
        call_command("restore", str(tmp_path / "fehlt.json"))
    with pytest.raises(CommandError, match="99"):
        call_command("backup", "--evening", "99", "--output", str(tmp_path / "y.json"))
    assert not (tmp_path / "y.json").exists()
