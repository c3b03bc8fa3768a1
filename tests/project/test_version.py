"""The program's version: one line of pyproject.toml, read from the package's
metadata when installed and from the checkout's pyproject.toml when not; shown in the footer of
every page, written into every PDF (creator) and every backup (``app_version``)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import tomllib
from importlib.metadata import PackageNotFoundError
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from pypdf import PdfReader

import bruus_tournament
from bruus_tournament import __version__
from scoring import backup, services
from scoring.models import Evening, Seating
from tests import factories

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).parents[1] / "data"


def pyproject_version() -> str:
    with (ROOT / "pyproject.toml").open("rb") as stream:
        return tomllib.load(stream)["project"]["version"]


# --- Where the version comes from --------------------------------------------------------------


def test_the_version_is_the_one_of_pyproject():
    """Installed or not, the version is pyproject.toml's (the metadata is made from it)."""
    assert __version__ == pyproject_version()
    assert __version__[0].isdigit() and __version__ != bruus_tournament.UNKNOWN


def test_installed_the_metadata_says_not_installed_pyproject_does(monkeypatch):
    monkeypatch.setattr(bruus_tournament, "version", lambda name: "7.8.9" if name == "bruus-turnier" else None)
    assert bruus_tournament._version() == "7.8.9"

    def not_installed(name):
        raise PackageNotFoundError(name)

    monkeypatch.setattr(bruus_tournament, "version", not_installed)
    assert bruus_tournament._version() == pyproject_version()


def test_a_pyproject_that_does_not_say_gives_unknown(tmp_path):
    unknown = bruus_tournament.UNKNOWN
    assert bruus_tournament._checkout_version(tmp_path / "missing.toml") == unknown
    cases = {
        "broken.toml": "[project\nversion = ",
        "other.toml": '[project]\nname = "something-else"\nversion = "1.0"\n',
        "no-version.toml": '[project]\nname = "bruus-turnier"\n',
        "no-project.toml": "[tool.ruff]\nline-length = 120\n",
        "ours.toml": '[project]\nname = "bruus-turnier"\nversion = "1.2.3"\n',
    }
    found = {}
    for name, text in cases.items():
        (tmp_path / name).write_text(text)
        found[name] = bruus_tournament._checkout_version(tmp_path / name)
    assert found == {name: unknown for name in cases if name != "ours.toml"} | {"ours.toml": "1.2.3"}


def test_importing_the_version_loads_no_django():
    script = "import sys, bruus_tournament; print(bruus_tournament.__version__); print(sorted(sys.modules))"
    out = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True, env={"PATH": "/usr/bin"}
    ).stdout
    shown, modules = out.splitlines()
    assert shown == __version__
    assert "'django'" not in modules


# --- Page footer -------------------------------------------------------------------------------


def footer(response) -> str:
    page = response.content.decode()
    start = page.index('<footer class="app-version">')
    return page[start : page.index("</footer>", start)].split(">", 1)[1]


@pytest.mark.django_db
def test_every_kind_of_page_shows_the_version_in_its_footer(client, organiser_client, roster_evening):
    services.draw_session(evening=roster_evening, seed=1)
    token = Seating.objects.filter(round__session__evening=roster_evening).first().table.token
    public = {
        "help": reverse("public:help"),
        "home": reverse("public:home"),
        "login": reverse("login"),
        "ranking screen": reverse("public:ranking_screen", args=[roster_evening.pk]),
        "seat finder": reverse("public:seat_finder", args=[roster_evening.pk]),
        "tablet": reverse("scorer:table", args=[token]),
        "unknown table link": "/t/gibt-es-nicht/",
    }
    for name, url in public.items():
        response = client.get(url, HTTP_ACCEPT_LANGUAGE="de")
        assert response.status_code in (200, 404), name
        assert footer(response) == f"Bruus Turnier {__version__}", name
    for url in (reverse("organiser:evening_list"), reverse("organiser:evening_detail", args=[roster_evening.pk])):
        assert footer(organiser_client.get(url)) == f"Bruus Turnier {__version__}", url


@pytest.mark.django_db
def test_the_footer_speaks_the_readers_language(client):
    response = client.get(reverse("public:help"), HTTP_ACCEPT_LANGUAGE="en")
    assert footer(response) == f"Bruus Tournament {__version__}"


# --- PDF metadata ------------------------------------------------------------------------------


def pdf_routes() -> dict[str, URLPattern]:
    """Every URL of the app that answers a PDF (``….pdf``), as ``namespace:name``."""
    found: dict[str, URLPattern] = {}

    def walk(patterns, namespace: str) -> None:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns, pattern.namespace or namespace)
            elif pattern.name and str(pattern.pattern).endswith(".pdf"):
                found[f"{namespace}:{pattern.name}"] = pattern

    walk(get_resolver().url_patterns, "")
    return found


@pytest.mark.django_db
def test_every_pdf_names_the_program_and_its_version_as_creator(organiser_client, roster_evening):
    """Every kind of printed document, found in the URLconf (a new one is checked without
    changing this test): ranking, score sheets (filled in and blank), table list, route cards,
    table cards, season ranking."""
    services.draw_session(evening=roster_evening, seed=1)
    seating = Seating.objects.filter(round__session__evening=roster_evening).order_by("pk").first()
    factories.enter_deal(seating, table=None)
    season = services.save_season(name="Jahreswertung 2026", year=2026, scoring="sum", evening_ids=[roster_evening.pk])
    values = {"pk": roster_evening.pk, "number": 1, "season_pk": season.pk}
    routes = pdf_routes()
    assert {"organiser:ranking_pdf", "organiser:season_pdf", "organiser:table_cards_pdf"} <= set(routes)
    urls = [
        reverse(name, kwargs={key: values[key] for key in route.pattern.converters}) for name, route in routes.items()
    ]
    urls.append(reverse("organiser:score_sheets_pdf", args=[roster_evening.pk, 1]) + "?leer=1")
    for url in urls:
        response = organiser_client.get(url)
        assert response.status_code == 200 and response["Content-Type"] == "application/pdf", url
        metadata = PdfReader(io.BytesIO(b"".join(response.streaming_content))).metadata
        assert metadata["/Creator"] == f"Bruus Turnier {__version__}", url
        assert __version__ in metadata["/Creator"] and metadata["/Author"] == "Bruus Turnier", url


# --- Backups -----------------------------------------------------------------------------------


@pytest.fixture
def played(roster_evening):
    services.draw_session(evening=roster_evening, seed=1)
    seating = Seating.objects.filter(round__session__evening=roster_evening).order_by("pk").first()
    factories.enter_deal(seating, 1, "B", to_nil=True, bonus_a=1, table=None)
    return roster_evening


@pytest.mark.django_db
def test_a_backup_records_the_version_that_made_it_and_restore_names_it(played, tmp_path, capsys):
    target = tmp_path / "sicherung.json"
    call_command("backup", "--evening", str(played.pk), "--output", str(target))
    call_command("backup", "--output", str(tmp_path / "alles.json.gz"))
    document = json.loads(target.read_text(encoding="utf-8"))
    assert list(document)[:3] == ["format", "version", "app_version"]
    assert document["app_version"] == __version__ and document["version"] == backup.VERSION
    assert backup.read_backup(tmp_path / "alles.json.gz")["app_version"] == __version__
    capsys.readouterr()

    call_command("restore", str(target), "--allow-duplicates")
    assert f"Sicherung erstellt mit Bruus Turnier {__version__}." in capsys.readouterr().out
    call_command("restore", str(target), "--allow-duplicates", "--language", "en")
    out = capsys.readouterr().out
    assert f"Backup made by Bruus Turnier {__version__}." in out and "Restore complete." in out


@pytest.mark.django_db
def test_older_backups_without_the_version_still_restore(capsys, db):
    """The committed files of format version 1 were written before the backup recorded the
    program's version."""
    older = DATA / "backup_v1_evening.json"
    assert "app_version" not in json.loads(older.read_text(encoding="utf-8"))
    call_command("restore", str(older))
    out = capsys.readouterr().out
    assert "nennt nicht, mit welcher Version" in out and "Versionen vor 0.9.0" in out
    call_command("restore", str(older), "--allow-duplicates", "--language", "en")
    assert "does not say which version of Bruus Turnier made it" in capsys.readouterr().out
    assert backup.restore(backup.read_backup(older), allow_duplicates=True).app_version is None
    assert Evening.objects.count() == 3


@pytest.mark.django_db
def test_the_version_field_is_information_only(played):
    """Outside the checksum and never a reason to refuse a file: a newer program's version is
    named, anything that is not a short text is left unnamed."""
    document = backup.export_evening(played)
    for given, named in (("1.4.2", "1.4.2"), (" 2.0.0rc1 ", "2.0.0rc1"), (9, None), ("", None), ("x" * 41, None)):
        outcome = backup.restore(dict(document, app_version=given), allow_duplicates=True)
        assert outcome.app_version == named, given
    assert Evening.objects.count() == 1 + 5
