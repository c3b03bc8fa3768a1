"""``bruus-turnier`` in this process (bruus_tournament/cli.py, servers.py, translations.py): what
``run`` and ``serve`` do before a server starts, the servers' command lines, the translations a
checkout compiles. The same commands as real processes, from a built wheel: tests/project/test_standalone.py.
"""

from __future__ import annotations

import gettext
import os
import shutil
import socket

import pytest
from django.core.management import call_command

from bruus_tournament import cli, servers, start_checks, translations
from tests.checkout_guard import CHECKOUT


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def environment(monkeypatch) -> dict:
    """The process environment as a copy: what a command sets stays in the test."""
    copy = dict(os.environ)
    for name in ("LISTEN_ADDRESS", "PORT", "SERVER", "WORKERS", "THREADS", "PUBLIC_BASE_URL"):
        copy.pop(name, None)
    copy.pop("ALLOWED_HOSTS", None)
    copy.pop("CSRF_TRUSTED_ORIGINS", None)
    monkeypatch.setattr(os, "environ", copy)
    return copy


@pytest.fixture
def started(monkeypatch) -> list:
    """The servers ``serve`` would start (``servers.start`` recorded instead)."""
    calls: list = []

    def start(server, address, port, *, workers, threads):
        calls.append((server, address, port, workers, threads))
        return 0

    monkeypatch.setattr(servers, "start", start)
    return calls


@pytest.mark.django_db
def test_serve_checks_collects_prints_the_hall_address_and_starts_the_server(
    environment, started, organiser, monkeypatch, capsys, settings
):
    monkeypatch.setattr(cli, "hall_addresses", lambda: ["192.168.1.20", "10.0.0.5"])
    port = free_port()
    assert cli.main(["serve", "--port", str(port), "--server", "waitress", "--address", "0.0.0.0"]) == 0
    assert started == [("waitress", "0.0.0.0", port, 4, 8)]
    out = capsys.readouterr().out
    assert f"Tablets:            http://192.168.1.20:{port}/tablet/" in out
    assert f"Tablets:            http://10.0.0.5:{port}/tablet/" in out
    assert "Server: waitress" in out and f"Daten / data: {settings.DATA_DIR}" in out
    assert environment["DEBUG"] == "false"
    assert environment["PUBLIC_BASE_URL"] == f"http://192.168.1.20:{port}"
    assert environment["ALLOWED_HOSTS"] == "localhost,127.0.0.1,192.168.1.20,10.0.0.5"
    assert f"http://10.0.0.5:{port}" in environment["CSRF_TRUSTED_ORIGINS"].split(",")
    manifest = settings.STATIC_ROOT / "staticfiles.json"
    assert manifest.is_file() and "css/bruus.css" in manifest.read_text()  # hashed names collected
    assert list(settings.STATIC_ROOT.glob("css/bruus.*.css.gz"))  # and compressed


@pytest.mark.django_db
def test_serve_on_one_address_keeps_a_public_address_it_was_given(environment, started, organiser, capsys):
    environment["PUBLIC_BASE_URL"] = "http://bruus.local:8000"
    port = free_port()
    assert cli.main(["serve", "--port", str(port), "--address", "127.0.0.1", "--workers", "2", "--threads", "3"]) == 0
    assert started == [(cli._choose_server("auto"), "127.0.0.1", port, 2, 3)]
    assert environment["PUBLIC_BASE_URL"] == "http://bruus.local:8000"
    assert environment["ALLOWED_HOSTS"] == "localhost,127.0.0.1,bruus.local"
    assert f"http://127.0.0.1:{port}/tablet/" in capsys.readouterr().out


@pytest.mark.django_db
def test_serve_refuses_a_database_without_an_organiser_and_starts_nothing(environment, started, capsys):
    assert cli.main(["serve", "--port", str(free_port())]) == 1
    assert started == []
    err = capsys.readouterr().err
    assert "Es gibt noch kein Konto der Turnierleitung" in err and "There is no organiser" in err


def test_gunicorn_is_refused_on_windows(monkeypatch):
    monkeypatch.setattr(os, "name", "nt")
    assert cli._choose_server("auto") == "waitress"
    with pytest.raises(cli.StartError, match="gunicorn does not run on Windows"):
        cli._choose_server("gunicorn")


@pytest.mark.django_db
def test_run_migrates_loads_the_demo_says_where_to_click_and_serves_on_this_machine(environment, monkeypatch):
    calls = []
    monkeypatch.setattr("django.core.management.call_command", lambda *a, **k: calls.append((a, k)))
    port = free_port()
    assert cli.main(["run", "--port", str(port)]) == 0
    assert environment["DEBUG"] == "true"
    assert [a[0] for a, _ in calls] == ["migrate", "load_demo", "demo_info", "runserver"]
    assert calls[2][1] == {"host": "127.0.0.1", "port": str(port)}
    assert calls[3] == (("runserver", f"127.0.0.1:{port}"), {"use_ipv6": False, "use_reloader": True})


@pytest.mark.django_db
def test_run_in_the_reloaders_child_only_serves(environment, monkeypatch):
    calls = []
    monkeypatch.setattr("django.core.management.call_command", lambda *a, **k: calls.append(a[0]))
    environment["RUN_MAIN"] = "true"  # django.utils.autoreload's child
    assert cli.main(["run", "--address", "::1", "--port", "8000", "--noreload"]) == 0
    assert calls == ["runserver"]


@pytest.mark.django_db
def test_demo_info_names_the_demo_evening_and_its_login(capsys):
    from scoring import services
    from scoring.setup.demo import DEMO_EVENING, DEMO_PASSWORD, DEMO_USER

    evening = services.create_evening(name=DEMO_EVENING, date="2026-11-25", venue="")
    call_command("demo_info", host="127.0.0.1", port="8123")
    out = capsys.readouterr().out
    assert f"{DEMO_USER} / {DEMO_PASSWORD}" in out
    assert f"http://127.0.0.1:8123/organiser/abende/{evening.pk}/" in out


def test_server_command_lines():
    gunicorn = servers.gunicorn_argv("::", 8000, 4, 4)
    assert gunicorn[1:4] == ["-m", "gunicorn", "bruus_tournament.wsgi"]
    assert gunicorn[gunicorn.index("--bind") + 1] == "[::]:8000"
    assert gunicorn[gunicorn.index("--config") + 1] == "python:bruus_tournament.gunicorn_conf"
    assert servers.waitress_argv("0.0.0.0", 8000, 8)[1:] == ["-m", "bruus_tournament.servers", "0.0.0.0", "8000", "8"]


class Replaced(Exception):
    """os.execv does not come back: the recorded stand-in raises instead."""


def test_on_posix_the_server_replaces_the_command(monkeypatch):
    replaced = []

    def execv(path, argv):
        replaced.append(argv)
        raise Replaced

    monkeypatch.setattr(os, "execv", execv)
    monkeypatch.setattr(os, "name", "posix")
    with pytest.raises(Replaced):
        servers.start("waitress", "127.0.0.1", 8000, workers=4, threads=8)
    assert replaced == [servers.waitress_argv("127.0.0.1", 8000, 8)]


def test_waitress_serves_the_app_without_naming_itself(monkeypatch):
    import gc
    import sys
    import types

    import waitress

    served = {}
    app = types.ModuleType("bruus_tournament.wsgi")
    app.application = lambda environ, start_response: []
    monkeypatch.setitem(
        sys.modules, "bruus_tournament.wsgi", app
    )  # the app itself: tests/project/test_start_refusal.py
    monkeypatch.setattr(waitress, "serve", lambda app, **options: served.update(options, app=app))
    monkeypatch.setattr(gc, "freeze", lambda: None)  # this test process keeps collecting
    servers.waitress_main("127.0.0.1", 8123, 6)
    assert served.pop("app") is app.application
    assert served["ident"] == "" and served["threads"] == 6 and served["port"] == 8123
    assert served["host"] == "127.0.0.1"


def test_a_checkout_compiles_the_translations_that_are_missing_or_older(tmp_path):
    locale = tmp_path / "locale"
    shutil.copytree(CHECKOUT / "locale", locale, ignore=shutil.ignore_patterns("*.mo"))
    catalogs = translations.catalogs(locale)  # German, Danish, ... (sorted)
    po = locale / "de" / "LC_MESSAGES" / "django.po"
    assert po in catalogs and locale / "da" / "LC_MESSAGES" / "django.po" in catalogs
    assert translations.compile_stale(locale) == [catalog.with_suffix(".mo") for catalog in catalogs]
    with po.with_suffix(".mo").open("rb") as mo:
        assert gettext.GNUTranslations(mo).gettext("Organiser login") == "Anmeldung Turnierleitung"
    with (locale / "da" / "LC_MESSAGES" / "django.mo").open("rb") as mo:
        assert gettext.GNUTranslations(mo).gettext("Organiser login") == "Login for turneringsledelsen"
    assert translations.compile_stale(locale) == []  # fresh: nothing to do
    os.utime(po, (po.with_suffix(".mo").stat().st_mtime + 10,) * 2)  # the .po edited after
    assert translations.compile_stale(locale) == [po.with_suffix(".mo")]


def test_a_port_in_use_names_the_program_holding_it(capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        if os.geteuid() == 0:  # psutil sees every process's sockets only as root
            assert f"Prozess / process {os.getpid()}" in start_checks.port_holder(port)
        with pytest.raises(start_checks.StartError, match=f"Port {port} ist belegt"):
            start_checks.check_port_free("127.0.0.1", port, wait=0.6)
    assert "warte bis zu 1 s / is still in use" in capsys.readouterr().err
    assert start_checks.port_holder(port) == ""


def test_the_machines_network_addresses_leave_out_loopback():
    found = start_checks.hall_addresses()
    assert all(not a.startswith(("127.", "169.254.")) and a.count(".") == 3 for a in found)


@pytest.mark.django_db
def test_management_commands_pass_through(capsys, monkeypatch):
    from django.db import connections

    from tests.conftest import ROSTER

    # A command run from the command line closes the connections when it ends: here that would
    # close the test's transaction on PostgreSQL.
    monkeypatch.setattr(connections, "close_all", lambda: None)

    assert cli.main(["manage", "check"]) == 0
    assert cli.main(["import-players", str(ROSTER), "--dry-run"]) == 0
    assert "26" in capsys.readouterr().out
    from scoring.models import Player

    assert not Player.objects.exists()  # a dry run saves nothing


def test_a_database_error_is_one_line_naming_the_database(settings):
    database = settings.DATABASES["default"]
    where = database["NAME"] if "sqlite" in database["ENGINE"] else database["HOST"]  # a file, or a server
    error = cli._database_error(Exception("file is not a database\nmore detail"))
    assert str(error) == f"The database ({where}) cannot be used: file is not a database"
