"""The commands a club types: every subcommand of ``bruus-turnier`` has its own parser
(options in any order, ``--help``, one error line with exit status 2, also for what a management
command refuses), every command brings the database up to date first and refuses one made by a
newer version, ``run`` keeps the demo out of the club's data folder, and ``bruus-turnier settings``
keeps settings in the data folder. In this process where the test database does; as real processes
(tests/project/conftest.py's migrated database, copied) where a data folder of its own matters.
"""

from __future__ import annotations

import os
import re
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bruus_tournament import cli, envfile
from tests.project.test_processes import ROOT, environment


def bruus(env: dict, *args: str, stdin: str = "") -> subprocess.CompletedProcess:
    """``python -m bruus_tournament ARGS`` as a real process (the installed ``bruus-turnier``)."""
    return subprocess.run(
        [sys.executable, "-m", "bruus_tournament", *args],
        cwd=ROOT,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=180,
    )


def one_line(result: subprocess.CompletedProcess | str) -> str:
    err = result if isinstance(result, str) else result.stderr
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("bruus-turnier: "), err
    assert "Traceback" not in err
    return lines[0]


# --- Every command its own parser ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["backup", "--evening", "1"], {"evening": 1, "output": None, "language": "de"}),
        (["backup", "--output", "x.json.gz", "--evening", "2"], {"evening": 2, "output": Path("x.json.gz")}),
        (["restore", "--language", "en", "b.json"], {"file": Path("b.json"), "language": "en"}),
        (["restore", "--allow-duplicates", "b.json"], {"file": Path("b.json"), "allow_duplicates": True}),
        (["restore", "b.json", "--allow-duplicates"], {"file": Path("b.json"), "allow_duplicates": True}),
        (["import-players", "--dry-run", "l.csv"], {"file": Path("l.csv"), "dry_run": True, "evening": None}),
        (["import-players", "l.xlsx", "--evening", "1"], {"file": Path("l.xlsx"), "evening": 1}),
        (["organiser", "--helper", "anna"], {"username": "anna", "helper": True}),
        (["organiser"], {"username": None, "helper": False}),
        (["settings", "set", "WIFI_NAME", "Halle"], {"action": "set", "key": "WIFI_NAME", "value": "Halle"}),
        (["manage", "check", "--deploy"], {"rest": ["check", "--deploy"]}),
    ],
)
def test_options_in_any_order(argv, expected):
    parsed = vars(cli.build_parser().parse_args(argv))
    assert {key: parsed[key] for key in expected} == expected


@pytest.mark.parametrize("command", ["run", "serve", "organiser", "backup", "restore", "import-players", "settings"])
def test_every_command_has_its_help(command, capsys):
    assert cli.main([command, "--help"]) == 0
    assert capsys.readouterr().out.startswith(f"usage: bruus-turnier {command} [-h]")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["backup", "--evening", "eins"], "argument --evening: invalid int value: 'eins' (see: bruus-turnier backup"),
        (["backup", "--bogus"], "unrecognized arguments: --bogus (see: bruus-turnier backup --help)"),
        (["restore"], "the following arguments are required: FILE (see: bruus-turnier restore --help)"),
        (["restore", "b.json", "--language", "fr"], "argument --language: invalid choice: 'fr'"),
        (["import-players", "--dry-run"], "the following arguments are required: FILE"),
        (["settings", "set", "PORT"], "the following arguments are required: VALUE"),
        (["hall"], "argument COMMAND: invalid choice: 'hall'"),
    ],
)
def test_a_mistake_in_the_options_is_one_line_with_exit_status_2(argv, message, capsys):
    assert cli.main(argv) == cli.EXIT_START_ERROR
    captured = capsys.readouterr()
    assert message in one_line(captured.err) and captured.out == ""


@pytest.mark.django_db
def test_what_a_command_refuses_is_one_line_with_exit_status_2(capsys, monkeypatch):
    from django.db import connections

    monkeypatch.setattr(connections, "close_all", lambda: None)  # the test's transaction stays open
    assert cli.main(["backup", "--language", "en", "--evening", "99"]) == cli.EXIT_START_ERROR
    assert one_line(capsys.readouterr().err) == "bruus-turnier: There is no evening with number 99."
    assert cli.main(["import-players", "--language", "en", "missing.csv"]) == cli.EXIT_START_ERROR
    assert one_line(capsys.readouterr().err) == "bruus-turnier: File not found: missing.csv"
    assert cli.main(["manage", "check", "--nosuch"]) == cli.EXIT_START_ERROR
    assert "unrecognized arguments: --nosuch (see: bruus-turnier manage check --help)" in one_line(
        capsys.readouterr().err
    )
    assert cli.main(["manage", "createsuperuser", "--noinput"]) == cli.EXIT_START_ERROR  # a CommandError
    assert "You must use --username with --noinput." in one_line(capsys.readouterr().err)


@pytest.mark.django_db
def test_backup_and_restore_with_their_options(tmp_path, capsys):
    from scoring import services

    services.create_evening(name="Optionen", date="2026-11-21", venue="")
    target = tmp_path / "abend.json.gz"
    assert cli.main(["backup", "--output", str(target), "--language", "en"]) == 0
    assert "Backup written: evenings: 1" in capsys.readouterr().out and target.is_file()
    assert cli.main(["restore", "--language", "en", str(target)]) == cli.EXIT_START_ERROR  # it is there
    assert "is already in this database. Nothing was restored." in one_line(capsys.readouterr().err)
    assert cli.main(["restore", str(target), "--allow-duplicates", "--language", "en"]) == 0
    assert "Restore complete" in capsys.readouterr().out
    from scoring.models import Evening

    assert Evening.objects.filter(name__startswith="Optionen").count() == 2


@pytest.mark.django_db
def test_organiser_with_the_input_ended_changes_nothing(monkeypatch, capsys, django_user_model):
    def ended(prompt=""):
        raise EOFError

    monkeypatch.setattr("builtins.input", ended)
    monkeypatch.setattr("getpass.getpass", ended)
    for argv in (["organiser"], ["organiser", "--helper", "anna"]):
        assert cli.main(argv) == cli.EXIT_START_ERROR
        assert "No input (Ctrl+D or an empty standard input): nothing changed." in one_line(capsys.readouterr().err)
    assert not django_user_model.objects.exists()


# --- The database brought up to date, a newer one refused -----------------------------------------


def test_a_new_data_folder_works_with_every_command(tmp_path, database):
    """A new laptop: ``organiser`` with nothing typed, then a backup from another data folder
    restored, into a data folder that has never seen ``serve``."""
    source_env, _ = database
    backup_file = tmp_path / "vom-alten-laptop.json"
    made = bruus(source_env, "backup", "--output", str(backup_file))
    assert made.returncode == 0, made.stderr
    env = environment(tmp_path / "neu")
    ended = bruus(env, "organiser", stdin="")
    assert ended.returncode == 2 and "nothing changed" in one_line(ended.stderr.replace("Warning", "")), ended.stderr
    restored = bruus(env, "restore", "--language", "en", str(backup_file))
    assert restored.returncode == 0, restored.stderr
    assert "Restore complete" in restored.stdout
    with sqlite3.connect(tmp_path / "neu" / "bruus.sqlite3") as db:
        assert db.execute("select count(*) from scoring_player").fetchone() == (24,)


def test_an_older_database_is_brought_up_to_date_before_the_command(database, tmp_path):
    env, _ = database
    down = subprocess.run(
        [sys.executable, "manage.py", "migrate", "scoring", "0021", "-v0"], cwd=ROOT, env=env, capture_output=True
    )
    assert down.returncode == 0, down.stderr
    result = bruus(env, "backup", "--output", str(tmp_path / "b.json"))
    assert result.returncode == 0, result.stderr
    with sqlite3.connect(Path(env["DATA_DIR"]) / "bruus.sqlite3") as db:
        applied = db.execute("select name from django_migrations where app = 'scoring'").fetchall()
    assert ("0022_evening_projector_mode",) in applied


def test_a_database_of_a_newer_version_is_refused_in_one_line(database, tmp_path):
    env, _ = database
    from bruus_tournament import __version__
    from scoring.setup.schema_version import TABLE

    with sqlite3.connect(Path(env["DATA_DIR"]) / "bruus.sqlite3") as db:
        assert db.execute(f"select version from {TABLE}").fetchall() == [(__version__,)]  # set by migrate
        db.execute(
            "insert into django_migrations (app, name, applied) "
            "values ('scoring', '0099_from_the_future', '2027-01-01')"
        )
        db.execute(f"update {TABLE} set version = '99.1.0'")
    for argv in (["backup", "--output", str(tmp_path / "b.json")], ["import-players", "--dry-run", "x.csv"]):
        result = bruus(env, *argv)
        assert result.returncode == 2
        line = one_line(result)
        assert "newer Bruus Turnier 99.1.0" in line and "install Bruus Turnier 99.1.0 or newer" in line
    assert not (tmp_path / "b.json").exists()


# --- The demo in a data folder of its own ---------------------------------------------------------


def test_run_checks_the_port_before_it_writes_anything(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(os, "environ", {**os.environ, "DATA_DIR": str(tmp_path / "club")})
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        assert cli.main(["run", "--noreload", "--port", str(taken.getsockname()[1])]) == cli.EXIT_START_ERROR
    assert "ist belegt / is in use" in one_line(capsys.readouterr().err)
    assert not (tmp_path / "club").exists()


def test_run_uses_the_demo_folder_not_the_clubs(tmp_path, monkeypatch):
    environ = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "RUN_MAIN")}
    environ["DATA_DIR"] = str(tmp_path / "club")
    monkeypatch.setattr(os, "environ", environ)
    monkeypatch.setattr(cli, "setup_django", lambda: (_ for _ in ()).throw(cli.StartError("stopped here")))
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    assert cli.main(["run", "--noreload", "--port", str(port)]) == cli.EXIT_START_ERROR
    assert environ["DATA_DIR"] == str(tmp_path / "club" / "demo")
    assert environ["DATABASE_URL"] == f"sqlite:///{tmp_path / 'club' / 'demo' / 'bruus.sqlite3'}"


# --- Settings kept in the data folder --------------------------------------------------------------


@pytest.fixture
def settings_environment(tmp_path, monkeypatch) -> dict:
    environ = {k: v for k, v in os.environ.items() if k not in envfile.KNOWN}
    environ["DATA_DIR"] = str(tmp_path)
    monkeypatch.setattr(os, "environ", environ)
    monkeypatch.setattr(envfile, "_loaded", {})
    monkeypatch.setattr(envfile, "ENV_FILE", tmp_path / "checkout.env")
    return environ


def test_settings_set_show_and_unset(settings_environment, tmp_path, capsys):
    assert cli.main(["settings", "set", "WIFI_NAME", "Halle Gast"]) == 0
    assert cli.main(["settings", "set", "PUBLIC_BASE_URL", "http://192.168.1.20:8000"]) == 0
    assert envfile.parse(tmp_path / "settings.env") == {
        "WIFI_NAME": "Halle Gast",
        "PUBLIC_BASE_URL": "http://192.168.1.20:8000",
    }
    if os.name == "posix":
        assert (tmp_path / "settings.env").stat().st_mode & 0o777 == 0o600  # the owner's only
    capsys.readouterr()
    for name in ("WIFI_NAME", "PUBLIC_BASE_URL"):
        settings_environment.pop(name, None)
    envfile._loaded.clear()
    assert cli.main(["settings"]) == 0
    out = capsys.readouterr().out
    assert f"Datenordner / data folder:        {tmp_path}  (environment)" in out
    assert "WIFI_NAME             Halle Gast  (data folder file)" in out
    assert "PORT                  -  (default)" in out
    assert cli.main(["settings", "unset", "WIFI_NAME"]) == 0
    assert "WIFI_NAME" not in envfile.parse(tmp_path / "settings.env")


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("PORT", "80a", "PORT must be a number from 1 to 65535"),
        ("USE_TLS", "vielleicht", "USE_TLS must be true or false"),
        ("PUBLIC_BASE_URL", "halle", "PUBLIC_BASE_URL must be an address such as"),
        ("DATA_DIR", "/tmp/x", "DATA_DIR cannot be kept inside the data folder"),
        ("WIFI", "Halle", "'WIFI' is not a setting of Bruus Turnier"),
        ("SCREEN_FLOOR_SECONDS", "fünf", "SCREEN_FLOOR_SECONDS must be a number of seconds (0 to 3600), not 'fünf'."),
        ("GIL_SWITCH_INTERVAL", "0", "GIL_SWITCH_INTERVAL must be a number of seconds"),
    ],
)
def test_a_wrong_setting_is_refused_and_nothing_written(settings_environment, tmp_path, capsys, key, value, message):
    assert cli.main(["settings", "set", key, value]) == cli.EXIT_START_ERROR
    assert message in one_line(capsys.readouterr().err)
    assert not (tmp_path / "settings.env").exists()


def test_precedence_environment_then_data_folder_then_checkout(settings_environment, tmp_path):
    (tmp_path / "settings.env").write_text("WIFI_NAME=aus dem Datenordner\nPORT=8100\nexport SERVER='waitress'\n")
    (tmp_path / "checkout.env").write_text("WIFI_NAME=aus der Arbeitskopie\nTHREADS=6\nPORT=8200\n")
    settings_environment["PORT"] = "8300"
    envfile.read_env_file(envfile.ENV_FILE)
    assert settings_environment["PORT"] == "8300" and envfile.source("PORT") == envfile.ENVIRONMENT
    assert settings_environment["WIFI_NAME"] == "aus dem Datenordner"
    assert envfile.source("WIFI_NAME") == envfile.DATA_FOLDER_FILE
    assert settings_environment["SERVER"] == "waitress"
    assert settings_environment["THREADS"] == "6" and envfile.source("THREADS") == envfile.CHECKOUT_FILE
    assert envfile.source("WORKERS") == envfile.DEFAULT


def test_an_installed_program_reads_the_data_folders_settings(tmp_path):
    env = environment(tmp_path)
    env.pop("WIFI_NAME", None)
    (tmp_path / "settings.env").write_text("WIFI_NAME=Vereinsheim\n")
    code = "import django; django.setup()\nfrom django.conf import settings\nprint(settings.WIFI_NAME)"
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True)
    assert result.stdout.strip() == "Vereinsheim", result.stderr


# --- The import on the command line shows what the page's preview shows ---------------------------


@pytest.mark.django_db
def test_import_players_prints_the_preview_in_the_chosen_language(tmp_path, capsys, monkeypatch):
    from django.db import connections

    from scoring import services
    from scoring.models import Player

    monkeypatch.setattr(connections, "close_all", lambda: None)
    services.add_player(name="Aase Due", club="")
    listed = tmp_path / "spillere.csv"
    rows = "Fornavn;Efternavn;Klub\nSøren;Hansen;Brus IF\nSøren;Hansen;Brus IF\nAase;Due;\n"
    listed.write_bytes(rows.encode("cp1252"))  # read as older Windows text: the note says so
    assert cli.main(["import-players", "--dry-run", "--language", "da", str(listed)]) == 0
    captured = capsys.readouterr()
    assert "    2  Søren Hansen (Brus IF): ny" in captured.out
    assert "    4  Aase Due: allerede i registeret" in captured.out
    assert "2 spillere kan importeres (1 nye)." in captured.out
    assert "Windows-1252" in captured.out and "preview" not in captured.out and "Vorschau" not in captured.out
    assert "Disse rækker kan ikke importeres:" in captured.err and "Linje 3: Søren Hansen (Brus IF)" in captured.err
    assert Player.objects.count() == 1  # a dry run imports nothing
    assert cli.main(["import-players", str(listed), "--language", "da"]) == 0
    assert Player.objects.count() == 2


def test_the_microsoft_store_pythons_real_data_folder_is_named():
    store = r"C:\Program Files\WindowsApps\PythonSoftwareFoundation.Python.3.12_3.12.2032.0_x64__qbz5n2kfra8p0"
    local = r"C:\Users\Turnier\AppData\Local"
    folder = local + r"\bruus-turnier"
    assert envfile.store_python_folder(Path(folder), base_prefix=store, local=local) == (
        local + r"\Packages\PythonSoftwareFoundation.Python.3.12_qbz5n2kfra8p0\LocalCache\Local\bruus-turnier"
    )
    assert envfile.store_python_folder(Path(folder), base_prefix=r"C:\Python312", local=local) is None
    assert envfile.store_python_folder(Path(r"D:\bruus"), base_prefix=store, local=local) is None


@pytest.mark.django_db
def test_a_newer_database_without_a_recorded_version_asks_for_the_newest(monkeypatch):
    from scoring.setup import schema_version

    assert schema_version.newer_database_problem("1.0") is None  # the test database: all known
    monkeypatch.setattr(schema_version, "unknown_migrations", lambda alias="default": [("scoring", "0099_x")])
    monkeypatch.setattr(schema_version, "recorded", lambda alias="default": None)
    problem = schema_version.newer_database_problem("1.0")
    assert "install the newest Bruus Turnier (pip install --upgrade bruus-turnier)" in problem
    assert "unknown: scoring.0099_x" in problem and "\n" not in problem


def test_every_documented_setting_can_be_kept_in_the_data_folder():
    table = (ROOT / "docs" / "settings-and-security.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"^\| `([A-Z_]+)` \|", table, re.MULTILINE))
    assert documented == set(envfile.KNOWN)
