"""``bruus-turnier hub club …`` and ``hub association …``: one line each, the key last, mistakes
in one line with exit status 2."""

from __future__ import annotations

import os

import pytest
from django.db import connections

from bruus_tournament import cli
from scoring.hub import keys
from scoring.hub.models import Association, Club, HubEvening, HubPlayer, HubSeason
from tests.hub.conftest import evening_snapshot, post

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _keep_connections(monkeypatch):
    """The test database stays open; the role and data folder the command sets stay in this test."""
    monkeypatch.setattr(connections, "close_all", lambda: None)
    monkeypatch.setattr(os, "environ", dict(os.environ))


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    status = cli.main(list(argv))
    out = capsys.readouterr()
    return status, out.out, out.err


def test_club_add_prints_one_line_with_the_key_last(capsys):
    status, out, _ = _run(capsys, "hub", "club", "add", "Bruus-Club Schwesing")
    assert status == 0 and out.count("\n") == 1
    key = out.split()[-1]
    club = Club.objects.get()
    assert (club.name, club.slug) == ("Bruus-Club Schwesing", "bruus-club-schwesing")
    assert keys.matches(key, club.key_hash) and key not in club.key_hash


def test_club_key_gives_a_new_key_and_the_old_one_stops(capsys):
    _, out, _ = _run(capsys, "hub", "club", "add", "Bruus-Club Schwesing")
    old = out.split()[-1]
    status, out, _ = _run(capsys, "hub", "club", "key", "Bruus-Club Schwesing")
    new = out.split()[-1]
    club = Club.objects.get()
    assert status == 0 and new != old and keys.matches(new, club.key_hash) and not keys.matches(old, club.key_hash)


def test_club_list_imprint_and_associations(capsys):
    _run(capsys, "hub", "club", "add", "Bruus-Club Schwesing")
    _run(capsys, "hub", "club", "add", "Bruus-Club Treia")
    assert _run(capsys, "hub", "club", "imprint", "Bruus-Club Treia", "Dorfstraße 1")[0] == 0
    assert Club.objects.get(name="Bruus-Club Treia").imprint == "Dorfstraße 1"
    clubs = ("Bruus-Club Schwesing", "Bruus-Club Treia")
    status, out, _ = _run(capsys, "hub", "association", "add", "Nordfriesland", *clubs)
    assert status == 0 and "/verband/nordfriesland/" in out
    status, out, _ = _run(capsys, "hub", "association", "season", "Nordfriesland", "Winter", "2026-09-01", "2027-04-30")
    assert status == 0 and HubSeason.objects.get().association == Association.objects.get()
    status, out, _ = _run(capsys, "hub", "club", "list")
    assert out.splitlines() == [
        "Bruus-Club Schwesing · /verein/bruus-club-schwesing/ · Nordfriesland",
        "Bruus-Club Treia · /verein/bruus-club-treia/ · Nordfriesland",
    ]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("hub", "club", "key", "Niemand"), "No club 'Niemand'"),
        (("hub", "club", "add", "  "), "A name of 1 to 120"),
        (("hub", "association", "add", "V", "Niemand"), "No club 'Niemand'"),
        (("hub", "association", "season", "Niemand", "W", "2026-01-01", "2026-02-01"), "No association"),
        (("hub", "club"), "the following arguments are required"),
    ],
)
def test_mistakes_end_in_one_line(capsys, argv, message):
    status, _, err = _run(capsys, *argv)
    assert status == 2 and message in err and err.count("\n") == 1


def test_a_club_name_twice_is_refused(capsys):
    _run(capsys, "hub", "club", "add", "Bruus-Club Schwesing")
    status, _, err = _run(capsys, "hub", "club", "add", "Bruus-Club Schwesing")
    assert status == 2 and "exists already" in err
    assert Club.objects.count() == 1


def test_season_dates_are_checked(capsys):
    _run(capsys, "hub", "club", "add", "A")
    _run(capsys, "hub", "association", "add", "V", "A")
    status, _, err = _run(capsys, "hub", "association", "season", "V", "W", "2027-01-01", "2026-01-01")
    assert status == 2 and "ends before it starts" in err
    assert not HubSeason.objects.exists()


def test_hub_migrates_says_where_to_click_and_serves_on_this_machine(monkeypatch, capsys, tmp_path):
    from tests.project.test_cli import free_port

    os.environ.pop("BRUUS_ROLE", None)
    os.environ.pop("DATABASE_URL", None)
    os.environ["DATA_DIR"] = str(tmp_path)
    calls = []
    monkeypatch.setattr("django.core.management.call_command", lambda *a, **k: calls.append((a, k)))
    port = free_port()
    assert cli.main(["hub", "--port", str(port)]) == 0
    assert [a[0] for a, _ in calls] == ["migrate", "runserver"]
    assert calls[1] == (("runserver", f"127.0.0.1:{port}"), {"use_ipv6": False, "use_reloader": True})
    # In the data folder's own hub folder (never the hall's database), in the hub role.
    assert os.environ["BRUUS_ROLE"] == "hub" and os.environ["DATA_DIR"] == str(tmp_path / "hub")
    assert os.environ["DATABASE_URL"] == f"sqlite:///{tmp_path / 'hub' / 'bruus.sqlite3'}"
    out = capsys.readouterr().out
    assert f"http://127.0.0.1:{port}/" in out and 'bruus-turnier hub club add "NAME"' in out


def test_hub_on_a_results_sites_own_machine_keeps_its_data_folder(monkeypatch, tmp_path):
    os.environ["BRUUS_ROLE"] = "hub"
    os.environ["DATA_DIR"] = str(tmp_path)
    monkeypatch.setattr("django.core.management.call_command", lambda *a, **k: None)
    assert cli.main(["hub", "club", "list"]) == 0
    assert os.environ["DATA_DIR"] == str(tmp_path)


def test_hub_refuses_a_port_in_use(capsys):
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        status = cli.main(["hub", "--port", str(taken.getsockname()[1])])
    assert status == 2 and "is in use" in capsys.readouterr().err


def test_club_delete_takes_one_club_and_its_results_off_the_hub(capsys, hub_role, client):
    clubs = ("Bruus-Club Schwesing", "Bruus-Club Treia")
    club_keys = [_run(capsys, "hub", "club", "add", name)[1].split()[-1] for name in clubs]
    for key, uid in zip(club_keys, ("hall-1-17", "hall-2-3"), strict=True):
        assert post(client, evening_snapshot(uid), key).status_code == 200
    _run(capsys, "hub", "association", "add", "Nordfriesland", *clubs)
    # Without --yes: what would go, and nothing goes.
    status, _, err = _run(capsys, "hub", "club", "delete", "Bruus-Club Schwesing")
    assert status == 2 and "1 Abende / evenings, 7 Spieler / players" in err and "--yes" in err
    assert Club.objects.count() == 2 and HubEvening.objects.count() == 2
    status, out, _ = _run(capsys, "hub", "club", "delete", "Bruus-Club Schwesing", "--yes")
    assert status == 0 and "gelöscht / deleted: 1 Abende / evenings, 7 Spieler / players" in out
    treia = Club.objects.get()
    assert treia.name == "Bruus-Club Treia" and treia.association == Association.objects.get()
    assert set(HubEvening.objects.values_list("club", flat=True)) == {treia.pk}
    assert set(HubPlayer.objects.values_list("club", flat=True)) == {treia.pk}
    assert post(client, evening_snapshot("hall-1-17", 101), club_keys[0]).status_code == 401  # the key is gone
    assert client.get("/verein/bruus-club-schwesing/").status_code == 404
    assert client.get("/verein/bruus-club-treia/").status_code == 200
    status, _, err = _run(capsys, "hub", "club", "delete", "Bruus-Club Schwesing", "--yes")
    assert status == 2 and "No club 'Bruus-Club Schwesing'" in err
