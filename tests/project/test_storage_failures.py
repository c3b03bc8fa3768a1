"""Failures are said, and said truly.

- A full disk or a read-only database during the evening answers 503 "Speicher voll – nichts
  gespeichert, bitte Turnierleitung rufen" (in the evening's language), never the 500 page's
  "nothing you entered is lost": for a deal (SQLite's own errors, and a file the app writes), and
  for a failure outside the view too. The tablet keeps the entry (tests/browser/test_table.py).
- A server error prints its traceback to the server's log (standard error); a page or a 404
  prints nothing.
- ``bruus-turnier serve`` waits for a port still in use (gunicorn's workers outlive a killed
  master for a while) instead of giving up; tests/project/test_standalone.py has the waiting itself.
"""

from __future__ import annotations

import errno
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request

import pytest
from django.core.cache.backends.filebased import FileBasedCache
from django.db import DatabaseError, OperationalError, connection
from django.test import Client
from django.urls import reverse

from scoring import services
from scoring.models import Deal, Evening
from tests.project.test_processes import ROOT, free_port

FULL = "Speicher voll – nichts gespeichert, bitte Turnierleitung rufen"
FULL_EN = "Storage full – nothing saved, please call the organiser"


def deal_post(client, seating, key="7c1c6f7e-4b8e-4d2a-9d7e-0d8f9a1b2c3d"):
    data = {"seating": seating.pk, "winner": "A", "bonus_a": 0, "bonus_b": 0, "version": 0, "key": key}
    return client.post(reverse("scorer:deal", args=[seating.table.token, 1]), data, HTTP_HX_REQUEST="true")


def disk_full(execute, sql, params, many, context):
    """Every write fails as SQLite fails on a full disk (the reads still work)."""
    if sql.lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE")):
        raise OperationalError("database or disk is full") from sqlite3.OperationalError("database or disk is full")
    return execute(sql, params, many, context)


def assert_nothing_saved_page(response, text=FULL):
    assert response.status_code == 503
    page = response.content.decode()
    assert text in page
    assert "nicht verloren" not in page and "not lost" not in page
    assert "Spiel 1 gespeichert" not in page and "Deal 1 saved" not in page
    assert response["Retry-After"]


@pytest.mark.django_db
def test_a_deal_on_a_full_disk_answers_503_and_saves_nothing(client, seating):
    with connection.execute_wrapper(disk_full):
        assert_nothing_saved_page(deal_post(client, seating))
    assert not Deal.objects.exists()
    # Room again: the tablet sends the same entry once more and it is saved, once.
    response = deal_post(client, seating)
    assert response.status_code == 200 and "Spiel 1 gespeichert" in response.content.decode()
    assert Deal.objects.count() == 1


@pytest.mark.django_db
def test_a_read_only_database_answers_503_in_the_evenings_language(client, seating):
    if connection.vendor != "sqlite":
        pytest.skip("SQLite's own read-only error")
    Evening.objects.filter(pk=seating.table.evening_id).update(language="en")
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA query_only = ON")  # SQLite: "attempt to write a readonly database"
    try:
        response = deal_post(client, seating)
    finally:
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA query_only = OFF")
    assert_nothing_saved_page(response, FULL_EN)
    assert not Deal.objects.exists()


@pytest.mark.django_db
def test_a_file_the_app_cannot_write_for_want_of_room_answers_503(client, roster_evening, monkeypatch):
    services.draw_session(evening=roster_evening, seed=1)

    def no_room(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(FileBasedCache, "set", no_room)  # the screens' cache in DATA_DIR
    response = client.get(reverse("public:ranking_screen", args=[roster_evening.pk]))
    assert_nothing_saved_page(response)


@pytest.mark.django_db
def test_a_failure_outside_the_view_answers_503_too(seating, monkeypatch):
    def read_only(*args, **kwargs):
        raise OperationalError("attempt to write a readonly database")

    monkeypatch.setattr("scoring.web.middleware.evening_language", read_only)
    response = Client(raise_request_exception=False).get(reverse("scorer:table", args=[seating.table.token]))
    assert_nothing_saved_page(response)
    # Any other failure is still the 500 page.
    monkeypatch.setattr("scoring.web.middleware.evening_language", lambda *a, **k: 1 / 0)
    response = Client(raise_request_exception=False).get(reverse("scorer:table", args=[seating.table.token]))
    assert response.status_code == 500


LOGGED = """
import sys
from unittest import mock
import django; django.setup()
from django.db import OperationalError
from django.test import Client
client = Client(raise_request_exception=False)
print(client.get('/hilfe/').status_code, client.get('/gibt-es-nicht/').status_code, flush=True)
sys.stderr.write('--- quiet until here ---\\n'); sys.stderr.flush()
with mock.patch('scoring.views.public.render', side_effect=RuntimeError('kaputt')):
    print(client.get('/hilfe/').status_code, flush=True)
with mock.patch('scoring.views.public.render', side_effect=OperationalError('database or disk is full')):
    print(client.get('/hilfe/').status_code, flush=True)
"""


def test_a_server_error_prints_its_traceback_and_nothing_else_does(database):
    env, _ = database
    result = subprocess.run(
        [sys.executable, "-c", LOGGED], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["200", "404", "500", "503"]
    quiet, _, logged = result.stderr.partition("--- quiet until here ---\n")
    assert quiet == ""
    assert "ERROR django.request: Internal Server Error: /hilfe/" in logged
    assert "Traceback (most recent call last)" in logged and "RuntimeError: kaputt" in logged
    assert "Service Unavailable (nothing saved: storage full, read-only or failing): GET /hilfe/" in logged
    assert "database or disk is full" in logged


def test_serve_waits_for_its_port_instead_of_giving_up(database):
    """The tester's evening: the port still held (by gunicorn's orphaned workers) when `make serve`
    starts again. serve says once that it waits, and starts as soon as the port is free."""
    env, _ = database
    port = free_port()
    holder = socket.socket()
    holder.bind(("127.0.0.1", port))
    holder.listen()
    server = subprocess.Popen(
        [sys.executable, "-m", "bruus_tournament", "serve", "--address", "127.0.0.1", "--port", str(port)],
        cwd=ROOT,
        env={**env, "WORKERS": "1", "THREADS": "2"},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        line = server.stderr.readline()  # blocks until serve has migrated, checked and waits
        assert f"Port {port} ist noch belegt" in line and "waiting up to 30 s" in line, line
        holder.close()  # the old server is gone
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/hilfe/", timeout=2) as response:
                    assert response.status == 200
                    break
            except OSError:
                assert server.poll() is None, server.stderr.read()
                time.sleep(0.3)
        else:
            pytest.fail("serve did not start once the port was free")
    finally:
        holder.close()
        os.killpg(server.pid, signal.SIGTERM)
        server.communicate(timeout=30)


# --- Every failure of the storage, not only a full one ---------------------------------------------


def _sqlite_error(kind: type, message: str, code: int | None) -> Exception:
    error = kind(message)
    if code is not None:
        error.sqlite_errorcode = code
    return error


#: What SQLite says when its storage fails: (exception, message, extended result code).
STORAGE_ERRORS = {
    "full": (sqlite3.OperationalError, "database or disk is full", 13),
    "read-only": (sqlite3.OperationalError, "attempt to write a readonly database", 8),
    "io-error": (sqlite3.OperationalError, "disk I/O error", 778),  # SQLITE_IOERR_WRITE
    "malformed": (sqlite3.DatabaseError, "database disk image is malformed", 11),
    "cannot-open": (sqlite3.OperationalError, "unable to open database file", 14),
    "not-a-database": (sqlite3.DatabaseError, "file is not a database", 26),
}


@pytest.mark.django_db
@pytest.mark.parametrize("with_code", [True, False], ids=["by-code", "by-message"])
@pytest.mark.parametrize("kind", sorted(STORAGE_ERRORS))
def test_every_storage_failure_of_sqlite_answers_503_nothing_saved_and_is_logged(
    client, seating, kind, with_code, monkeypatch
):
    exception, message, code = STORAGE_ERRORS[kind]
    if with_code:
        message = "Fehler"  # a message of no use (another language, another version): the code decides
    cause = _sqlite_error(exception, message, code if with_code else None)
    logged = []
    monkeypatch.setattr("bruus_tournament.storage_failures.logger.error", lambda *args, **kw: logged.append(args))

    def failing(execute, sql, params, many, context):
        if sql.lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE")):
            wrapped = (OperationalError if exception is sqlite3.OperationalError else DatabaseError)(message)
            raise wrapped from cause
        return execute(sql, params, many, context)

    with connection.execute_wrapper(failing):
        assert_nothing_saved_page(deal_post(client, seating))
    assert not Deal.objects.exists()
    assert [args[0] for args in logged] == [
        "Service Unavailable (nothing saved: storage full, read-only or failing): %s %s"
    ]


def test_a_file_of_the_app_on_a_failing_disk_answers_503():
    from bruus_tournament.storage_failures import is_storage_failure

    assert is_storage_failure(OSError(errno.EIO, "Input/output error"))
    assert not is_storage_failure(OSError(errno.ENOENT, "No such file"))
    assert not is_storage_failure(_sqlite_error(sqlite3.OperationalError, "no such table: x", 1))


SHUTDOWN = """
import fcntl, os, struct, sys
folder = os.open(sys.argv[1], os.O_RDONLY)
fcntl.ioctl(folder, 0x8004587D, struct.pack("I", 2))  # EXT4_IOC_SHUTDOWN, EXT4_GOING_FLAGS_NOLOGFLUSH
"""


@pytest.fixture
def failing_folder(tmp_path_factory):
    """An ext4 file system of its own (a loop-mounted image), to be shut down under the server
    (``EXT4_IOC_SHUTDOWN``: every later read and write of it fails as on a dying disk). Root only."""
    if os.geteuid() != 0 or not sys.platform.startswith("linux"):
        pytest.skip("mounting a file system needs root on Linux")
    where = tmp_path_factory.mktemp("failing-disk")
    image, folder = where / "disk.img", where / "disk"
    folder.mkdir()
    with image.open("wb") as stream:
        stream.truncate(32 * 1024 * 1024)
    made = subprocess.run(["mkfs.ext4", "-q", "-F", str(image)], capture_output=True)
    mounted = made.returncode == 0 and subprocess.run(["mount", "-o", "loop", str(image), str(folder)]).returncode == 0
    if not mounted:
        pytest.skip("no loop device to mount a file system on")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def test_a_deal_on_a_file_system_failing_under_the_running_server_answers_503_and_is_logged(
    database, failing_folder, tmp_path
):
    """The tester's evening: the data folder's file system shut down under ``serve`` (gunicorn,
    DEBUG off). A deal answered 500 "… nicht verloren"; now 503 "nichts gespeichert", logged."""
    import shutil

    from tests.project.test_processes import Tablet

    env, tokens = database
    shutil.copytree(env["DATA_DIR"], failing_folder, dirs_exist_ok=True)
    env = {**env, "DATA_DIR": str(failing_folder)}
    port = free_port()
    log = (tmp_path / "server.log").open("w")
    server = subprocess.Popen(
        [sys.executable, "-m", "bruus_tournament", "serve", "--address", "127.0.0.1", "--port", str(port)],
        cwd=ROOT,
        env={**env, "WORKERS": "1", "THREADS": "2"},
        stdout=subprocess.DEVNULL,
        stderr=log,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/hilfe/", timeout=2)
                break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, "serve did not start"
                time.sleep(0.3)
        tablet = Tablet(port, tokens[0])
        assert tablet.enter(1, 0, "A", 0) is not None  # saved while the disk works
        subprocess.run([sys.executable, "-c", SHUTDOWN, str(failing_folder)], check=True)
        for number in (2, 3):  # the write fails (I/O error), then the reads (malformed, cannot open)
            data = urllib.parse.urlencode(
                {"csrfmiddlewaretoken": tablet.csrf, "seating": tablet.seating, "winner": "A", "bonus_a": 0}
                | {"bonus_b": 0, "version": 0, "key": f"00000000-0000-4000-8000-00000000000{number}"}
            ).encode()
            request = urllib.request.Request(f"{tablet.base}spiel/{number}/", data=data, headers={"HX-Request": "true"})
            with pytest.raises(urllib.error.HTTPError) as answer:
                tablet.opener.open(request, timeout=20)
            page = answer.value.read().decode()
            assert answer.value.code == 503, page
            assert "nichts gespeichert" in page and "nicht verloren" not in page
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
        log.close()
    logged = (tmp_path / "server.log").read_text()
    # Each 503 is logged with its traceback: by the middleware when the view failed, by Django
    # (handler500's answer) when the read failed before the view, in a middleware.
    for number in (2, 3):
        said = r"Service Unavailable(?: \(nothing saved: storage full, read-only or failing\): POST|:) /t/\S+/spiel/"
        assert re.search(said + str(number) + "/", logged), logged
    assert logged.count("Traceback (most recent call last)") >= 2, logged
