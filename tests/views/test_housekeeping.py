"""Housekeeping of an evening: rename, archive and bring back, delete with a
backup written first and a confirmation naming what goes."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scoring import selectors, services
from scoring.backup import read_backup
from scoring.models import Deal, Evening, Participant, Player, Season, Session
from scoring.services.base import ServiceError
from tests.services.test_seasons import played_evening, pool, season_with


@pytest.fixture
def two_evenings(db):
    """Two played evenings of the same eight players, both in one season."""
    players = pool(8)
    first, second = played_evening(players, 1, seed=1), played_evening(players, 8, seed=2)
    season = season_with([first, second])
    return first, second, season, players


def _messages(response) -> str:
    return " ".join(str(m) for m in response.context["messages"])


# --- Rename ------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_rename_an_evening_from_its_page(organiser_client, evening_factory):
    evening = evening_factory(8, name="Abend")
    version = evening.version
    page = organiser_client.get(reverse("organiser:evening_detail", args=[evening.pk])).content.decode()
    assert 'id="housekeeping"' in page and "Umbenennen" in page
    response = organiser_client.post(
        reverse("organiser:evening_rename", args=[evening.pk]), {"name": "  Schwesing, Januar  "}, follow=True
    )
    assert "Der Abend heißt jetzt „Schwesing, Januar“." in _messages(response)
    evening.refresh_from_db()
    assert evening.name == "Schwesing, Januar" and evening.version > version


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("   ", "Bitte geben Sie dem Abend einen Namen."),
        ("x" * 121, "höchstens 120 Zeichen"),
        ("a\u202eb", "Steuerzeichen"),
    ],
)
def test_a_bad_name_is_refused_with_a_message_and_changes_nothing(organiser_client, evening_factory, name, message):
    evening = evening_factory(4, name="Abend")
    response = organiser_client.post(
        reverse("organiser:evening_rename", args=[evening.pk]), {"name": name}, follow=True
    )
    assert response.status_code == 200 and message in _messages(response)
    evening.refresh_from_db()
    assert evening.name == "Abend"


@pytest.mark.django_db
def test_a_helper_may_not_rename_archive_or_delete(client, helper, evening_factory):
    evening = evening_factory(4, name="Abend")
    client.force_login(helper)
    for name in ("evening_rename", "evening_archive", "evening_delete"):
        assert client.post(reverse(f"organiser:{name}", args=[evening.pk]), {"name": "X"}).status_code == 403
    for call in (
        lambda: services.rename_evening(evening_id=evening.pk, name="X", user=helper),
        lambda: services.set_evening_archived(evening_id=evening.pk, archived=True, user=helper),
        lambda: services.delete_evening(evening_id=evening.pk, user=helper, seen_version=evening.version),
    ):
        with pytest.raises(ServiceError) as raised:
            call()
        assert raised.value.code == "permission"
    evening.refresh_from_db()
    assert evening.name == "Abend" and evening.archived_at is None


# --- Archive -----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_archiving_hides_from_the_lists_and_keeps_the_history(organiser_client, two_evenings):
    first, second, season, players = two_evenings
    season_before = selectors.season_ranking(season)
    before = [(line.player.pk, line.total, len(line.cells)) for line in season_before.ranked]
    history_before = organiser_client.get(reverse("organiser:player_detail", args=[players[0].pk])).content.decode()
    assert history_before.count(reverse("organiser:evening_detail", args=[first.pk])) >= 1

    response = organiser_client.post(
        reverse("organiser:evening_archive", args=[first.pk]), {"archived": "1"}, follow=True
    )
    assert "ist archiviert" in _messages(response)
    first.refresh_from_db()
    assert first.archived_at is not None

    listing = organiser_client.get(reverse("organiser:evening_list")).content.decode()
    assert first.name not in listing and second.name in listing and "1 archivierter Abend" in listing
    archive = organiser_client.get(reverse("organiser:evening_list") + "?archiv=1").content.decode()
    assert first.name in archive and second.name not in archive
    # The form of a new season does not offer it; the form of its own season keeps it (ticked).
    new_form = organiser_client.get(reverse("organiser:season_create")).content.decode()
    assert first.name not in new_form and new_form.count(second.name) == 1
    own_form = organiser_client.get(reverse("organiser:season_edit", args=[season.pk])).content.decode()
    assert own_form.count(first.name) == 1
    # The season still counts it; the player's page still lists it.
    after = [(line.player.pk, line.total, len(line.cells)) for line in selectors.season_ranking(season).ranked]
    assert after == before
    history = organiser_client.get(reverse("organiser:player_detail", args=[players[0].pk])).content.decode()
    assert history.count(reverse("organiser:evening_detail", args=[first.pk])) == history_before.count(
        reverse("organiser:evening_detail", args=[first.pk])
    )
    # Its page answers and says it is archived; back from the archive.
    page = organiser_client.get(reverse("organiser:evening_detail", args=[first.pk])).content.decode()
    assert 'data-testid="archived"' in page
    organiser_client.post(reverse("organiser:evening_archive", args=[first.pk]), {"archived": "0"})
    first.refresh_from_db()
    assert first.archived_at is None
    assert first.name in organiser_client.get(reverse("organiser:evening_list")).content.decode()


# --- Delete ------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_delete_names_what_goes_writes_a_backup_first_then_deletes(organiser_client, two_evenings, settings, tmp_path):
    settings.DATA_DIR = tmp_path
    first, second, season, players = two_evenings
    url = reverse("organiser:evening_delete", args=[first.pk])
    deals = Deal.objects.filter(seating__round__session__evening=first).count()
    page = organiser_client.get(url).content.decode()
    assert "die Ergebnisse von 8 Spielern" in page
    assert f"{deals} eingetragene Spiele" in page and "1 ausgeloster Durchgang" in page
    assert "Jahreswertung" in page and 'data-testid="delete-evening"' in page
    assert Evening.objects.filter(pk=first.pk).exists()  # showing the page deletes nothing

    shown = re.search(r'name="version" value="(\d+)"', page).group(1)
    second_version = Evening.objects.get(pk=second.pk).version
    response = organiser_client.post(url, {"version": shown}, follow=True)
    assert "ist gelöscht" in _messages(response)
    assert not Evening.objects.filter(pk=first.pk).exists()
    assert not Session.objects.filter(evening_id=first.pk).exists()
    assert not Participant.objects.filter(evening_id=first.pk).exists()
    assert Player.objects.count() == 8 and Evening.objects.filter(pk=second.pk).exists()
    assert list(Season.objects.get(pk=season.pk).evenings.all()) == [second]
    assert Evening.objects.get(pk=second.pk).version > second_version  # its season's ranking changed
    files = list((tmp_path / "backups").glob("bruus-abend-1-*.json"))
    assert len(files) == 1
    document = read_backup(files[0])
    assert [e["name"] for e in document["data"]["evenings"]] == ["Abend 1"]
    assert len(document["data"]["deals"]) == deals


@pytest.mark.django_db
def test_delete_refuses_an_evening_changed_since_the_confirmation(
    organiser_client, evening_factory, settings, tmp_path
):
    settings.DATA_DIR = tmp_path
    evening = evening_factory(8, name="Abend")
    seen = evening.version
    services.set_ranking_hidden(evening_id=evening.pk, hidden=True)  # a change after the page was shown
    url = reverse("organiser:evening_delete", args=[evening.pk])
    for version in (str(seen), "", "x1"):
        response = organiser_client.post(url, {"version": version}, follow=True)
        assert response.status_code == 200 and "hat sich geändert" in _messages(response)
    assert Evening.objects.filter(pk=evening.pk).exists()
    assert not (tmp_path / "backups").exists()


@pytest.mark.django_db
def test_delete_without_a_backup_deletes_nothing(organiser, evening_factory, settings, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    settings.DATA_DIR = blocker  # DATA_DIR/backups cannot be made
    evening = evening_factory(4, name="Abend")
    evening.refresh_from_db()
    with pytest.raises(ServiceError) as raised:
        services.delete_evening(evening_id=evening.pk, user=organiser, seen_version=evening.version)
    assert raised.value.code == "backup_failed"
    assert Evening.objects.filter(pk=evening.pk).exists()


@pytest.mark.django_db
def test_the_help_page_tells_the_housekeeping_and_the_rounds_history(client):
    page = client.get(reverse("public:help"), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Einen Abend umbenennen, archivieren oder löschen" in page
    assert "Sperren fragt erst nach, wenn Tische die Runde noch nicht begonnen haben" in page
