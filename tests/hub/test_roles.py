"""The two roles keep apart: a hub serves no hall page, a hall no hub page or API."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client

from tests.hub.conftest import API, evening_snapshot, post

pytestmark = pytest.mark.django_db

HALL_PAGES = ["/organiser/", "/anmelden/", "/hilfe/", "/tablet/", "/abend/1/rangliste/", "/t/abc/", "/i18n/setlang/"]


def test_a_hub_serves_no_hall_page(hub):
    client, _, _ = hub
    for url in HALL_PAGES:
        assert client.get(url).status_code == 404, url
    # The hub's home is not the hall's.
    assert "Bruus-Ergebnisse" in client.get("/").content.decode()


def test_a_hall_serves_no_hub_page_or_api(club_key, settings):
    club, key = club_key
    assert settings.BRUUS_ROLE == "hall"
    client = Client()
    for url in (f"/verein/{club.slug}/", "/verband/x/", "/en/"):
        assert client.get(url).status_code == 404, url
    assert post(client, evening_snapshot(), key).status_code == 404
    assert client.get(API).status_code == 404


def test_the_role_setting_chooses_the_urls_and_refuses_others(monkeypatch):
    import subprocess
    import sys

    script = (
        "import django, os\n"
        "os.environ['DJANGO_SETTINGS_MODULE'] = 'bruus_tournament.settings'\n"
        "from django.conf import settings\n"
        "print(settings.ROOT_URLCONF, 'SessionMiddleware' in ' '.join(settings.MIDDLEWARE))\n"
    )
    import os
    import tempfile

    for role, expected in (("hub", "scoring.hub.urls False"), ("hall", "bruus_tournament.urls True")):
        environ = {**os.environ, "BRUUS_ROLE": role, "DATA_DIR": tempfile.mkdtemp(prefix="bruus-role-")}
        out = subprocess.run([sys.executable, "-c", script], env=environ, capture_output=True, text=True, check=True)
        assert out.stdout.strip() == expected
    environ = {**os.environ, "BRUUS_ROLE": "cloud", "DATA_DIR": tempfile.mkdtemp(prefix="bruus-role-")}
    out = subprocess.run([sys.executable, "-c", script], env=environ, capture_output=True, text=True)
    assert out.returncode != 0 and "BRUUS_ROLE must be hall or hub" in out.stderr


def test_a_results_site_starts_without_organiser_logins(settings):
    """``serve`` and the WSGI app refuse a hall without an organiser login; a hub has none."""
    from django.core.management import CommandError, call_command

    with pytest.raises(CommandError, match="Turnierleitung"):
        call_command("startcheck", verbosity=0)
    settings.BRUUS_ROLE = "hub"
    call_command("startcheck", verbosity=0)


def test_the_hub_role_passes_djangos_checks():
    """A results site's own server runs `manage.py check` (deployment scripts do): the hub role,
    with its middleware without sessions or logins, passes it with no error and no warning."""
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "BRUUS_ROLE": "hub"}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    done = subprocess.run(
        [sys.executable, "manage.py", "check", "--fail-level", "WARNING"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
