"""Restore checks every record against the rules of the game and the models' own constraints
(issue 11): a crafted file with a recomputed checksum and impossible deals changes nothing and
says which record failed; a wish "not together" survives players getting new ids."""

from __future__ import annotations

import json

import pytest
from django.utils import translation

from scoring import backup, services
from scoring.backup import BackupError
from scoring.messages import translate
from scoring.models import Evening, PartnerExclusion, Player
from tests.test_backup import played_evening, reseal, row_counts, snapshot, wipe  # noqa: F401 (fixture)

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
