"""A real club database is never the demo: with DEBUG off the app refuses to
start while a login has the demo password or no organiser login exists; ``make organiser``
(``manage.py organiser``) puts it right. ``make run`` (DEBUG on) is not affected. Nor is a
server started that cannot keep the data: ``startcheck`` refuses a data
folder that takes no file, a database file that cannot be written and a damaged database (one
older than its ``-wal``), naming the folder or file."""

from __future__ import annotations

import errno
import importlib
import os
import socket
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command
from django.core.management.base import CommandError

from scoring.hall.roles import HELPER, LEADER
from scoring.setup.demo import DEMO_PASSWORD, DEMO_USER, load_demo_login
from scoring.setup.startup import refuse_unsafe_start, start_problems, storage_problems
from tests.conftest import make_login

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.django_db
def test_the_demo_login_stops_the_start_in_german_and_english():
    load_demo_login()
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
    load_demo_login()
    get_user_model().objects.filter(username=DEMO_USER).update(is_active=False)
    assert start_problems()  # the demo login was the only organiser
    make_login(django_user_model, "anna", LEADER)
    assert start_problems() == []
    refuse_unsafe_start()


@pytest.mark.django_db
def test_make_organiser_resets_the_demo_password(monkeypatch, capsys):
    load_demo_login()
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
    load_demo_login()
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


# --- The data can be kept, or the server does not start (never lose an evening's deals) -------


def refused(**options) -> str:
    with pytest.raises(CommandError) as error:
        call_command("startcheck", **options)
    assert error.value.returncode == 1
    return str(error.value)


@pytest.mark.django_db
def test_a_data_folder_that_takes_no_file_stops_the_start_naming_it(settings, tmp_path, monkeypatch, organiser):
    call_command("startcheck")  # a healthy start: folder, database and logins fine
    # A file where the folder should be (root cannot write there either).
    blocker = tmp_path / "kein-ordner"
    blocker.write_text("")
    settings.DATA_DIR = blocker
    message = refused()
    assert f"Der Datenordner {blocker} kann nicht beschrieben werden" in message
    assert f"The data folder {blocker} cannot be written" in message
    # A read-only file system, or a full disk (root cannot write there either): the folder is named.
    settings.DATA_DIR = tmp_path
    for number, text in ((errno.EROFS, "Read-only file system"), (errno.ENOSPC, "No space left on device")):

        def fails(*args, number=number, text=text, **kwargs):
            raise OSError(number, text)

        monkeypatch.setattr("scoring.setup.startup.tempfile.mkstemp", fails)
        message = refused()
        assert f"The data folder {tmp_path} cannot be written ({text})" in message
    monkeypatch.undo()
    if os.geteuid() != 0:  # root writes into a read-only folder anyway
        tmp_path.chmod(0o555)
        try:
            assert str(tmp_path) in refused()
        finally:
            tmp_path.chmod(0o755)
    assert list(tmp_path.iterdir()) == [blocker]  # the check leaves nothing behind


@pytest.mark.django_db
def test_a_cache_folder_left_by_another_user_stops_the_start_naming_it(settings, monkeypatch, organiser):
    """Say `sudo make serve` once: the screens' cache folder belongs to root, and every screen
    would fail for the next server, run as the organiser."""
    screens = Path(settings.CACHES["screens"]["LOCATION"])
    screens.mkdir(parents=True, exist_ok=True)
    real_mkstemp = tempfile.mkstemp

    def mkstemp(*args, dir=None, **kwargs):
        if Path(dir) == screens:
            raise PermissionError(errno.EACCES, "Permission denied")
        return real_mkstemp(*args, dir=dir, **kwargs)

    monkeypatch.setattr("scoring.setup.startup.tempfile.mkstemp", mkstemp)
    assert f"The data folder {screens} cannot be written (Permission denied)" in refused()


def test_a_read_only_database_file_stops_the_start_naming_it(tmp_path, monkeypatch):
    database = tmp_path / "bruus.sqlite3"
    database.write_bytes(b"")
    (tmp_path / "bruus.sqlite3-wal").write_bytes(b"")
    real_access = os.access

    def access(path, mode, *args, **kwargs):  # as for anybody but root after chmod 444
        return not (str(path).startswith(str(database)) and mode & os.W_OK) and real_access(path, mode)

    monkeypatch.setattr("scoring.setup.startup.os.access", access)
    problems = storage_problems(
        data_dir=tmp_path, database={"ENGINE": "django.db.backends.sqlite3", "NAME": str(database)}
    )
    assert len(problems) == 2
    assert f"Die Datenbankdatei {database} kann nicht beschrieben werden" in problems[0]
    assert f"The database file {database}-wal cannot be written" in problems[1]


def test_a_database_older_than_its_wal_stops_serve_naming_it(tmp_path):
    """The tester's case: bruus.sqlite3 copied back from earlier while its -wal stayed. The server
    used to start and fail on every page; now `bruus-turnier serve` stops before it starts."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL",)}
    env.update(DATA_DIR=str(tmp_path), DJANGO_SETTINGS_MODULE="bruus_tournament.settings")
    python = str(ROOT / ".venv" / "bin" / "python")
    subprocess.run([python, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True, capture_output=True)
    login = (
        "import django; django.setup()\nfrom scoring.services.accounts import save_login\n"
        "save_login(username='leitung', password='Deichgraf-1953', role='Turnierleitung')"
    )
    subprocess.run([python, "-c", login], cwd=ROOT, env=env, check=True, capture_output=True)
    database = tmp_path / "bruus.sqlite3"
    wal = tmp_path / "bruus.sqlite3-wal"
    with sqlite3.connect(database) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    earlier = database.read_bytes()
    connection = sqlite3.connect(database)
    connection.execute("PRAGMA wal_autocheckpoint = 0")
    rows = [(f"Spieler {n}", f"Verein {n % 7}", f"spieler {n}|verein {n % 7}") for n in range(3000)]
    with connection:
        connection.executemany(
            "INSERT INTO scoring_player (name, club, match_key, created_at) VALUES (?, ?, ?, '2026-11-21')", rows
        )
    connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # the file grows ...
    with connection:
        connection.execute("UPDATE scoring_player SET club = club || ' e.V.'")  # ... and the WAL holds more
    later_wal = wal.read_bytes()
    connection.close()
    database.write_bytes(earlier)
    wal.write_bytes(later_wal)
    (tmp_path / "bruus.sqlite3-shm").unlink(missing_ok=True)

    result = subprocess.run([python, "manage.py", "startcheck"], cwd=ROOT, env=env, capture_output=True, text=True)
    assert result.returncode == 1, result.stderr
    assert f"Die Datenbank {database} ist beschädigt (PRAGMA quick_check: " in result.stderr
    assert f"The database {database} is damaged" in result.stderr
    assert "Traceback" not in result.stderr
    result = subprocess.run(
        [python, "-m", "bruus_tournament", "serve", "--port", str(free_port())],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode in (1, 2), result.stderr  # 2: already migrate could not read it
    assert str(database) in result.stderr and "Traceback" not in result.stderr
    assert "Tablets:" not in result.stdout
