"""A real club database is never the demo (issue 9, point 1): with DEBUG off the app refuses to
start while a login has the demo password or no organiser login exists; ``make organiser``
(``manage.py organiser``) puts it right. ``make run`` (DEBUG on) is not affected."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command
from django.core.management.base import CommandError

from scoring.demo import DEMO_PASSWORD, DEMO_USER, load_demo
from scoring.roles import HELPER, LEADER
from scoring.startup import refuse_unsafe_start, start_problems
from tests.conftest import ROSTER, make_login

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.django_db
def test_the_demo_login_stops_the_start_in_german_and_english():
    load_demo(ROSTER)
    problems = start_problems()
    assert len(problems) == 1
    assert f"„{DEMO_USER}“ hat noch das Demo-Passwort" in problems[0]
    assert "still has the demo password" in problems[0]
    assert "make organiser" in problems[0]
    with pytest.raises(ImproperlyConfigured, match="will not start"):
        refuse_unsafe_start()
    with pytest.raises(CommandError) as error:
        call_command("startcheck")
    assert error.value.returncode == 1


@pytest.mark.django_db
def test_no_organiser_login_stops_the_start(django_user_model):
    make_login(django_user_model, "nur-helfer", HELPER)
    problems = start_problems()
    assert problems == [
        "Es gibt noch kein Konto der Turnierleitung. Anlegen: bruus-turnier organiser oder make organiser.\n"
        "  There is no organiser (Turnierleitung) login yet. Create one: bruus-turnier organiser or make organiser."
    ]


@pytest.mark.django_db
def test_a_deactivated_demo_login_and_a_real_organiser_may_start(django_user_model):
    load_demo(ROSTER)
    get_user_model().objects.filter(username=DEMO_USER).update(is_active=False)
    assert start_problems()  # the demo login was the only organiser
    make_login(django_user_model, "anna", LEADER)
    assert start_problems() == []
    refuse_unsafe_start()


@pytest.mark.django_db
def test_make_organiser_resets_the_demo_password(monkeypatch, capsys):
    load_demo(ROSTER)
    typed = iter(["Xq7", "Xq7", DEMO_PASSWORD, DEMO_PASSWORD, "Deichgraf-1953", "Deichgraf-1953"])
    monkeypatch.setattr("getpass.getpass", lambda prompt="": next(typed))
    call_command("organiser", DEMO_USER)
    err = capsys.readouterr().err
    assert "Demo-Passwort" in err or "demo password" in err  # the demo password is refused
    assert "Xq7" not in err and ("zu kurz" in err or "too short" in err)  # validators stay on
    user = get_user_model().objects.get(username=DEMO_USER)
    assert user.check_password("Deichgraf-1953") and user.groups.filter(name=LEADER).exists()
    assert start_problems() == []


@pytest.mark.django_db
def test_make_organiser_creates_a_login_and_gives_up_after_three_refusals(monkeypatch):
    monkeypatch.setattr("builtins.input", lambda prompt="": "")  # default name: turnierleitung
    monkeypatch.setattr("getpass.getpass", lambda prompt="": "123")
    with pytest.raises(CommandError):
        call_command("organiser")
    assert not get_user_model().objects.exists()  # nothing saved
    typed = iter(["Treia-Bruus-77", "Treia-Bruus-77"])
    monkeypatch.setattr("getpass.getpass", lambda prompt="": next(typed))
    call_command("organiser")
    user = get_user_model().objects.get(username="turnierleitung")
    assert user.groups.filter(name=LEADER).exists() and user.is_active


@pytest.mark.django_db
def test_the_wsgi_application_refuses_with_debug_off(settings):
    load_demo(ROSTER)
    settings.DEBUG = False
    sys.modules.pop("bruus_tournament.wsgi", None)
    with pytest.raises(ImproperlyConfigured, match="demo password"):
        importlib.import_module("bruus_tournament.wsgi")
    settings.DEBUG = True  # make run: the demo login keeps working
    sys.modules.pop("bruus_tournament.wsgi", None)
    importlib.import_module("bruus_tournament.wsgi")
    sys.modules.pop("bruus_tournament.wsgi", None)


def test_make_serve_refuses_a_demo_database_before_gunicorn_starts(tmp_path):
    """scripts/serve.sh on a database made by ``make run``: exit status 1, the message in both
    languages, and no server started (nothing listens)."""
    env = {
        **os.environ,
        "DATA_DIR": str(tmp_path),
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "DEBUG": "true",
        "PORT": "8799",
        "PUBLIC_BASE_URL": "http://192.168.1.20:8799",
    }
    env.pop("DJANGO_SETTINGS_MODULE", None)
    python = str(ROOT / ".venv" / "bin" / "python")
    for command in (["migrate", "--noinput", "-v0"], ["load_demo"]):
        subprocess.run([python, "manage.py", *command], cwd=ROOT, env=env, check=True, capture_output=True, timeout=300)
    result = subprocess.run(["scripts/serve.sh"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 1
    assert "hat noch das Demo-Passwort" in result.stderr
    assert "still has the demo password" in result.stderr
    assert "gunicorn" not in result.stdout + result.stderr.lower().replace("bruus", "")
    assert "Tablets:" not in result.stdout
