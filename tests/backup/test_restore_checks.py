"""Restore checks every record against the rules of the game and the models' own constraints: a
crafted file with a recomputed checksum and impossible deals changes nothing and says which record
failed; a wish "not together" survives players getting new ids. A restore trusts nothing it did
not make: table links and codes must be ones the app makes; a file too big unpacked (a gzip bomb), nested too
deeply or otherwise unreadable is refused as damaged, never with an error of Python."""

from __future__ import annotations

import gzip
import json
import tracemalloc

import pytest
from django.utils import translation

from scoring import backup, services
from scoring.backup import BackupError
from scoring.hall import table_codes
from scoring.hall.table_links import is_table_token
from scoring.models import Evening, PartnerExclusion, Player, Table, new_table_token
from scoring.web.messages import translate
from tests.backup.test_backup import reseal, row_counts, snapshot, wipe

pytestmark = pytest.mark.django_db


def crafted(good: dict, change) -> dict:
    """A copy of a good backup, changed on purpose and sealed with a matching checksum."""
    document = json.loads(json.dumps(good))
    change(document["data"])
    return reseal(document)


def refusal(document: dict) -> BackupError:
    counts = row_counts()
    with pytest.raises(BackupError) as error:
        backup.restore(document)
    assert row_counts() == counts  # nothing changed
    return error.value


def german(error: BackupError) -> str:
    with translation.override("de"):
        return translate(error)


def deal_with(data: dict, **values) -> dict:
    return next(d for d in data["deals"] if all(d[k] == v for k, v in values.items()))


def test_impossible_deals_with_a_recomputed_checksum_are_refused_naming_the_record(played_evening):
    good = backup.export_evening(played_evening)
    wipe()
    first = good["data"]["deals"][0]["id"]
    # Deal 9 of a round of 4.
    error = refusal(crafted(good, lambda d: d["deals"][0].update(number=9)))
    assert error.code == "invalid_record"
    assert german(error) == (
        f"Die Sicherung kann nicht wiederhergestellt werden: Datensatz deals {first}: Es gibt kein "
        "Spiel 9: Eine Runde hat die Spiele 1 bis 4. Es wurde nichts wiederhergestellt."
    )
    # 3:3 for daring and striking without the organiser's reason.
    accepted = deal_with(good["data"], bonus_a=3, bonus_b=3)
    assert accepted["override_reason"] == "Hausregel"
    error = refusal(crafted(good, lambda d: deal_with(d, id=accepted["id"]).update(override_reason="")))
    assert f"deals {accepted['id']}" in german(error) and "nicht im selben Spiel geben" in german(error)
    # 99 matchsticks for a plain win.
    plain = deal_with(good["data"], bonus_a=0, bonus_b=0, to_nil=False, override_reason="")
    error = refusal(crafted(good, lambda d: deal_with(d, id=plain["id"]).update(points_a=99, points_b=99)))
    assert f"deals {plain['id']}" in german(error) and "99:99" in german(error)
    # A bonus of 9 with a reason is still scored as entered: the points must match.
    error = refusal(
        crafted(good, lambda d: deal_with(d, id=plain["id"]).update(bonus_a=9, override_reason="Hausregel"))
    )
    assert "Regeln ergeben" in german(error)
    # The good file is restored afterwards.
    backup.restore(good)
    assert Evening.objects.count() == 1


def test_the_models_own_constraints_are_checked_naming_the_record(played_evening):
    good = backup.export_evening(played_evening)
    wipe()
    seating = good["data"]["seatings"][0]
    error = refusal(crafted(good, lambda d: d["seatings"][0].update(team_b=seating["team_a"])))
    assert error.code == "invalid_record" and f"seatings {seating['id']}" in german(error)
    second = good["data"]["deals"][1]
    error = refusal(
        crafted(good, lambda d: d["deals"][1].update(number=d["deals"][0]["number"], seating=d["deals"][0]["seating"]))
    )
    assert f"deals {second['id']}" in german(error)
    error = refusal(crafted(good, lambda d: d["evenings"][0].update(deals_per_round=99)))
    assert "evenings" in german(error)


def test_a_not_together_wish_survives_players_getting_ids_in_the_other_order(roster_evening):
    first, second = Player.objects.order_by("pk")[:2]
    services.add_partner_exclusion(evening=roster_evening, player_a_id=first.pk, player_b_id=second.pk)
    before = snapshot(roster_evening)
    good = backup.export_evening(roster_evening)
    wipe()
    # The second player is in this register already: reused with a smaller id than the first,
    # who is created anew, so the pair's order flips.
    services.add_player(name=second.name, club=second.club)
    backup.restore(good)
    evening = Evening.objects.get()
    wish = PartnerExclusion.objects.get(evening=evening)
    assert {wish.player_a.name, wish.player_b.name} == {first.name, second.name}
    assert wish.player_a_id < wish.player_b_id
    assert snapshot(evening)["participants"] == before["participants"]


# --- Restore trusts nothing it did not make (a file may be crafted) ---------------------------


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("token", "short"),
        ("token", "x" * 31 + "!"),  # 32 characters, one not URL-safe
        ("token", "a" * 64),
        ("code", "KATWE"),
        ("code", "KATWEI"),  # I is not in the alphabet of table codes
        ("code", "katwen"),  # typed in lower case: the app stores capitals only
    ],
)
def test_a_table_link_or_code_the_app_never_makes_is_refused(played_evening, client, field, value):
    good = backup.export_evening(played_evening)
    wipe()
    table = good["data"]["tables"][0]
    error = refusal(crafted(good, lambda d: d["tables"][0].update({field: value})))
    assert error.code == "invalid_record"
    assert f"tables {table['id']}" in german(error)
    assert ("Tisch-Link" if field == "token" else "Tischcode") in german(error)
    assert not Table.objects.exists()
    if field == "token":
        assert client.get(f"/t/{value}/").status_code == 404  # no table answers to it


def test_a_login_that_is_a_list_or_an_object_is_a_damaged_file(played_evening):
    """Found by feeding restore odd values: a username field holding a list or an object was a
    TypeError (unhashable), not a refusal."""
    good = backup.export_evening(played_evening)
    wipe()
    for value in ([1], {"name": "leitung"}):
        error = refusal(crafted(good, lambda d, value=value: d["seatings"][0].update(confirmed_by=value)))
        assert error.code == "broken" and "confirmed_by" in german(error)


def test_the_table_links_and_codes_the_app_makes_are_accepted():
    for _ in range(200):
        assert is_table_token(new_table_token())
        assert table_codes.is_table_code(table_codes.new_table_code())
    assert not is_table_token(None) and not table_codes.is_table_code(None)


def test_deeply_nested_json_is_a_damaged_file_not_a_recursion_error():
    deep = b"[" * 100_000 + b"]" * 100_000
    with pytest.raises(BackupError) as error:
        backup.parse_backup(deep)
    assert error.value.code == "not_json"
    # Nested just deep enough to be read, then too deep for the checks (the checksum writes it out).
    for depth in range(900, 1100, 7):
        nested = "[" * depth + "]" * depth
        text = (
            '{"format": "bruus-turnier-backup", "version": 1, "scope": "evening", "sha256": "0", '
            f'"data": {{"players": {nested}}}}}'
        )
        with pytest.raises(BackupError):
            backup.parse_backup(text.encode())
    document = {"format": "bruus-turnier-backup", "version": 1, "scope": "evening", "sha256": "0", "data": {}}
    inner = document["data"]
    for _ in range(5000):
        inner["x"] = {}
        inner = inner["x"]
    with pytest.raises(BackupError) as error:
        backup.restore(document)  # a document built in Python, restored without a file
    assert error.value.code == "broken"


@pytest.mark.parametrize(
    "content",
    [
        b'{"format": "bruus-turnier-backup", "version": ' + b"1" * 5000 + b"}",  # ValueError: too many digits
        b'{"format": "bruus-turnier-backup", "version": 1, "scope": "\xff\xfe"}',  # UnicodeDecodeError
        gzip.compress(b"\xff\xfe\xfd" * 1000, mtime=0),
    ],
    ids=["too-many-digits", "not-utf8", "gzip-not-utf8"],  # the same ids in every test process (xdist)
)
def test_any_parse_failure_is_the_usual_damaged_file_message(content):
    with pytest.raises(BackupError) as error:
        backup.parse_backup(content)
    assert error.value.code == "not_json"
    assert "kein" in german(error.value) or "unvollständig" in german(error.value)


def test_running_out_of_memory_while_reading_is_a_damaged_file(monkeypatch):
    def out_of_memory(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr("scoring.backup.files.json.loads", out_of_memory)
    with pytest.raises(BackupError) as error:
        backup.parse_backup(b'{"format": "bruus-turnier-backup"}')
    assert error.value.code == "not_json"


def test_a_gzip_bomb_is_refused_while_unpacking_without_filling_the_memory(settings, tmp_path):
    settings.RESTORE_MAX_BYTES = 8 * 1024 * 1024
    bomb = gzip.compress(b" " * (200 * 1024 * 1024), compresslevel=9)  # 200 MB of spaces in ~200 kB
    assert len(bomb) < 1024 * 1024
    path = tmp_path / "bombe.json.gz"
    path.write_bytes(bomb)
    tracemalloc.start()
    try:
        with pytest.raises(BackupError) as error:
            backup.read_backup(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert error.value.code == "too_large"
    assert peak < 40 * 1024 * 1024, peak
    assert "8 MB" in german(error.value) and "RESTORE_MAX_MB" in german(error.value)
    # An uncompressed file beyond the limit is refused before it is read whole.
    plain = tmp_path / "gross.json"
    plain.write_bytes(b" " * (settings.RESTORE_MAX_BYTES + 1))
    with pytest.raises(BackupError) as error:
        backup.read_backup(plain)
    assert error.value.code == "too_large"
    # Within the limit, a compressed backup still restores.
    settings.RESTORE_MAX_BYTES = 1024 * 1024
    good = tmp_path / "gut.json.gz"
    empty = {key: [] for key, _, _ in backup.MODELS}
    backup.write_backup(
        {
            "format": "bruus-turnier-backup",
            "version": 1,
            "scope": "database",
            "sha256": backup.checksum(empty),
            "data": empty,
        },
        good,
    )
    assert backup.read_backup(good)["scope"] == "database"
