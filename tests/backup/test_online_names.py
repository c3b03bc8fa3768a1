"""A player's online name travels with the backup (docs/publishing.md): a player set to "not online"
stays so after a restore onto another laptop, and a restore never makes a player here more public."""

from __future__ import annotations

import pytest

from scoring import backup
from scoring.models import Player
from scoring.publishing import privacy, queue
from scoring.publishing.models import EveningPublishing, OnlineName, PlayerPublishing, Withdrawal
from scoring.publishing.services import set_online_name
from tests.backup.test_backup import reseal, wipe
from tests.backup.test_restore_checks import crafted, german, refusal

pytestmark = pytest.mark.django_db


def _choices() -> dict[str, str]:
    """Player name -> online name of every player with one."""
    return dict(PlayerPublishing.objects.values_list("player__name", "online_name"))


def _two_players() -> tuple[Player, Player]:
    first, second = Player.objects.order_by("name")[:2]
    return first, second


@pytest.mark.parametrize("scope", ["database", "evening"])
def test_a_round_trip_onto_an_empty_database_keeps_each_players_online_name(played_evening, scope):
    hidden, full = _two_players()
    set_online_name(player_id=hidden.pk, choice=OnlineName.HIDDEN)
    set_online_name(player_id=full.pk, choice=OnlineName.FULL)
    document = backup.export_database() if scope == "database" else backup.export_evening(played_evening)
    assert len(document["data"]["player_publishing"]) == 2  # only the players that have a choice
    wipe()
    assert not PlayerPublishing.objects.exists()

    outcome = backup.restore(backup.parse_backup(backup.encode_backup(document)))

    assert outcome.players_new == Player.objects.count() and outcome.players_reused == 0
    assert _choices() == {hidden.name: OnlineName.HIDDEN, full.name: OnlineName.FULL}
    restored = Player.objects.get(name=hidden.name)
    assert privacy.effective_choice(restored.publishing.online_name, queue.club_default()) == privacy.HIDDEN


def test_an_evening_backup_holds_the_online_names_of_its_players_only(played_evening):
    outsider = Player.objects.create(name="Nicht Dabei", club="")
    set_online_name(player_id=outsider.pk, choice=OnlineName.HIDDEN)
    assert backup.export_evening(played_evening)["data"]["player_publishing"] == []
    assert len(backup.export_database()["data"]["player_publishing"]) == 1


def test_a_player_here_with_full_name_becomes_not_online_when_the_file_says_so(played_evening):
    hidden, other = _two_players()
    set_online_name(player_id=hidden.pk, choice=OnlineName.HIDDEN)
    document = backup.export_evening(played_evening)
    set_online_name(player_id=hidden.pk, choice=OnlineName.FULL)  # here: full name
    set_online_name(player_id=other.pk, choice=OnlineName.INITIALS)
    # Something was published: the player's key is withdrawn from the results site.
    EveningPublishing.objects.create(evening=played_evening, sent_version=played_evening.version)
    Withdrawal.objects.all().delete()

    outcome = backup.restore(document, allow_duplicates=True)

    assert outcome.players_reused == Player.objects.count() and outcome.players_new == 0
    assert _choices() == {hidden.name: OnlineName.HIDDEN, other.name: OnlineName.INITIALS}
    [withdrawal] = Withdrawal.objects.all()
    assert withdrawal.players == [privacy.player_key(queue.config().secret, hidden.pk)]


def test_a_restore_never_makes_a_player_here_more_public(played_evening):
    initials, following = _two_players()
    set_online_name(player_id=initials.pk, choice=OnlineName.FULL)
    set_online_name(player_id=following.pk, choice=OnlineName.FULL)
    document = backup.export_evening(played_evening)
    set_online_name(player_id=initials.pk, choice=OnlineName.INITIALS)  # here: more private than the file
    set_online_name(player_id=following.pk, choice=OnlineName.DEFAULT)  # the club default: initials

    backup.restore(document, allow_duplicates=True)

    assert _choices() == {initials.name: OnlineName.INITIALS, following.name: OnlineName.DEFAULT}
    assert not Withdrawal.objects.exists()


def test_an_old_file_without_online_names_restores_as_before(played_evening):
    set_online_name(player_id=Player.objects.first().pk, choice=OnlineName.HIDDEN)
    document = backup.export_evening(played_evening)
    del document["data"]["player_publishing"]
    reseal(document)
    wipe()

    outcome = backup.restore(document)

    assert outcome.players_new == Player.objects.count() > 0 and len(outcome.evenings) == 1
    assert not PlayerPublishing.objects.exists()  # everybody follows the club default


@pytest.mark.parametrize(
    ("value", "shown"),
    [("public", "'public'"), ("HIDDEN", "'HIDDEN'"), ("", "darf nicht leer sein")],
)
def test_an_unknown_online_name_is_refused_and_nothing_is_written(played_evening, value, shown):
    player = Player.objects.first()
    set_online_name(player_id=player.pk, choice=OnlineName.HIDDEN)
    good = backup.export_evening(played_evening)
    set_online_name(player_id=player.pk, choice=OnlineName.FULL)
    [row] = good["data"]["player_publishing"]

    error = refusal(crafted(good, lambda d: d["player_publishing"][0].update(online_name=value)))

    assert error.code == "invalid_record"
    message = german(error)
    assert f"player_publishing {row['id']}" in message and shown in message, message
    assert "Es wurde nichts wiederhergestellt" in message
    assert _choices() == {player.name: OnlineName.FULL}


@pytest.mark.parametrize(
    "change",
    [
        lambda row: row.update(online_name=3),  # not a text
        lambda row: row.update(player=999_999),  # a player who is not in the file
    ],
)
def test_a_malformed_online_name_record_is_refused_as_damaged(played_evening, change):
    set_online_name(player_id=Player.objects.first().pk, choice=OnlineName.HIDDEN)
    good = backup.export_evening(played_evening)

    error = refusal(crafted(good, lambda d: change(d["player_publishing"][0])))

    assert error.code == "broken"


def test_two_online_names_for_one_player_in_a_file_are_refused(played_evening):
    set_online_name(player_id=Player.objects.first().pk, choice=OnlineName.HIDDEN)
    good = backup.export_evening(played_evening)

    def twice(data: dict) -> None:
        data["player_publishing"].append(dict(data["player_publishing"][0], id=999_999, online_name="full"))

    error = refusal(crafted(good, twice))

    assert error.code == "invalid_record" and "player_publishing 999999" in german(error)
