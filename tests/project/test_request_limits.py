"""No URL takes an unbounded body. A body beyond its URL's limit
(``REQUEST_BODY_MAX_BYTES``; the player import its own, ``REQUEST_BODY_LIMITS``) is refused with
413 and a short page in the browser's language before a byte of it is read, whether its length is
declared (``Content-Length``) or it comes chunked; a chunked body within the limit reaches the
form. Checked in the app, and end to end with gunicorn and waitress as ``bruus-turnier serve``
starts them (waitress refuses what no URL accepts before buffering it).
"""

from __future__ import annotations

import io
import os
import re
import signal
import socket
import subprocess
import time

import pytest
from django.conf import settings
from django.http.multipartparser import MultiPartParser
from django.urls import reverse

from bruus_tournament import request_limits
from scoring.transfer.player_files import MAX_FILE_BYTES
from tests.project.test_processes import ROOT, free_port

MB = 1024 * 1024


@pytest.fixture
def nothing_is_parsed(monkeypatch):
    """A multipart body must not even be opened: its file parts would go to temporary files."""

    def parse(self):
        raise AssertionError("the body was read")

    monkeypatch.setattr(MultiPartParser, "parse", parse)


def upload(size: int, name: str = "gross.csv") -> io.BytesIO:
    content = io.BytesIO(b"Name\n" + b"x" * size)
    content.name = name
    return content


@pytest.mark.django_db
def test_a_big_upload_to_a_public_url_is_refused_before_it_is_read(client, seating, nothing_is_parsed):
    for url in (reverse("public:tablet_join"), reverse("scorer:deal", args=[seating.table.token, 1])):
        response = client.post(url, {"number": "1", "file": upload(5 * MB)}, HTTP_ACCEPT_LANGUAGE="de")
        assert response.status_code == 413, url
        page = response.content.decode()
        assert "Zu viele Daten" in page and "höchstens 2 MB" in page and "nichts gespeichert" in page
        assert "script-src 'self'" in response["Content-Security-Policy"]
    response = client.post(reverse("public:tablet_join"), {"file": upload(3 * MB)}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 413
    assert "Too much data" in response.content.decode() and 'lang="en"' in response.content.decode()


@pytest.mark.django_db
def test_the_player_import_has_its_own_limit_above_its_file_limit(organiser_client):
    url = reverse("organiser:player_import")
    assert settings.REQUEST_BODY_LIMITS["organiser:player_import"] > MAX_FILE_BYTES + 256 * 1024
    # A file a little over the import's own limit: the page says so, naming its limit.
    response = organiser_client.post(url, {"file": upload(MAX_FILE_BYTES + MB // 2)}, HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 200
    assert "ist zu groß" in response.content.decode()
    # Beyond the URL's limit: refused before it is read.
    response = organiser_client.post(url, {"file": upload(5 * MB)}, HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 413 and "höchstens 4 MB" in response.content.decode()
    # Any other organiser page keeps the small limit.
    response = organiser_client.post(reverse("organiser:player_list"), {"file": upload(3 * MB)})
    assert response.status_code == 413


def chunked(client, url: str, body: bytes):
    """A POST as gunicorn hands on a chunked body: no Content-Length, the body in wsgi.input."""
    return client.post(
        url,
        content_type="application/x-www-form-urlencoded",
        HTTP_TRANSFER_ENCODING="chunked",
        HTTP_ACCEPT_LANGUAGE="de",
        CONTENT_LENGTH="",
        **{"wsgi.input": io.BytesIO(body)},
    )


@pytest.mark.django_db
def test_a_chunked_body_is_read_only_up_to_the_limit(client, roster_evening):
    url = reverse("public:tablet_join")
    response = chunked(client, url, b"number=7&code=" + b"A" * (3 * MB))
    assert response.status_code == 413 and "Zu viele Daten" in response.content.decode()
    # Within the limit the form gets what was sent (Django alone reads no body without a length).
    response = chunked(client, url, b"number=7&code=KATWEN")
    assert response.status_code != 413
    assert 'value="7"' in response.content.decode()


def test_a_declared_length_is_read_as_django_reads_it():
    assert request_limits.declared_length({"CONTENT_LENGTH": "123"}) == 123
    assert request_limits.declared_length({"CONTENT_LENGTH": ""}) is None
    assert request_limits.declared_length({"CONTENT_LENGTH": "¹²"}) is None
    assert request_limits.declared_length({}) is None


# --- End to end: the servers of `bruus-turnier serve` ---------------------------------------------


def start(env, server: str, port: int) -> subprocess.Popen:
    from bruus_tournament.servers import gunicorn_argv, waitress_argv

    argv = gunicorn_argv("127.0.0.1", port, 1, 2) if server == "gunicorn" else waitress_argv("127.0.0.1", port, 2)
    process = subprocess.Popen(
        argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return process
        except OSError:
            time.sleep(0.2)
    os.killpg(process.pid, signal.SIGKILL)
    pytest.fail(f"{server} did not start")


def exchange(port: int, head: str, body_parts) -> tuple[int, str, str]:
    """Send ``head`` and then ``body_parts`` (stopping when the server closes), and read the
    answer: (status, headers, page)."""
    with socket.create_connection(("127.0.0.1", port), timeout=15) as connection:
        connection.sendall(head.encode())
        try:
            for part in body_parts:
                connection.sendall(part)
        except (BrokenPipeError, ConnectionResetError):
            pass  # refused: the server stops reading
        answer = b""
        while b"\r\n\r\n" not in answer or len(answer) < answer.index(b"\r\n\r\n") + 4 + _length(answer):
            data = connection.recv(65536)
            if not data:
                break
            answer += data
    headers, _, page = answer.decode("utf-8", "replace").partition("\r\n\r\n")
    return int(headers.split()[1]), headers, page


def _length(answer: bytes) -> int:
    found = re.search(rb"(?i)\r\ncontent-length:\s*(\d+)", answer.split(b"\r\n\r\n")[0])
    return int(found.group(1)) if found else 0


@pytest.mark.parametrize("server", ["gunicorn", "waitress"])
def test_the_servers_refuse_a_big_body_before_it_arrives(database, server):  # noqa: F811
    env, _ = database
    port = free_port()
    process = start(env, server, port)
    try:
        # 50 MB announced, 1 MB sent: the answer comes at once, nothing waits for the rest.
        head = (
            "POST /tablet/ HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Language: de\r\n"
            f"Content-Type: multipart/form-data; boundary=x\r\nContent-Length: {50 * MB}\r\n\r\n"
        )
        started = time.monotonic()
        status, _, page = exchange(port, head, [b"--x\r\n" + b"y" * MB])
        assert status == 413 and time.monotonic() - started < 10
        if server == "gunicorn":  # waitress refuses by itself what no URL of the app accepts
            assert "Zu viele Daten" in page
        # 3 MB in chunks without a length (waitress turns them into a body with a length).
        head = (
            "POST /tablet/ HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Language: de\r\n"
            "Content-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n"
        )
        parts = [b"%x\r\n%s\r\n" % (64 * 1024, b"a" * 64 * 1024) for _ in range(48)] + [b"0\r\n\r\n"]
        status, headers, page = exchange(port, head, parts)
        assert status == 413 and "Zu viele Daten" in page, (headers, page)
        # A small chunked form arrives whole: the CSRF check passes and the form sees the number.
        status, headers, page = exchange(port, "GET /tablet/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", [])
        cookie = re.search(r"csrftoken=([^;]+)", headers).group(1)
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        form = f"csrfmiddlewaretoken={token}&number=7&code=KATWEN".encode()
        head = (
            "POST /tablet/ HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Language: de\r\n"
            f"Cookie: csrftoken={cookie}\r\n"
            "Content-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n"
        )
        status, _, page = exchange(port, head, [b"%x\r\n%s\r\n" % (len(form), form), b"0\r\n\r\n"])
        assert status not in (403, 413) and 'value="7"' in page, (status, page[:500])
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=20)


# --- Every error page with the same security headers, in the user's language ----------------------

PAGE_HEADERS = {
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "X-Content-Type-Options": "nosniff",
    "Cross-Origin-Opener-Policy": "same-origin",
}


def assert_page_headers(response):
    for name, value in PAGE_HEADERS.items():
        assert response.get(name) == value, (response.status_code, name)
    assert "script-src 'self'" in response["Content-Security-Policy"]


class _NeverRead(io.BytesIO):
    def read(self, *args):
        raise AssertionError("the body was read")

    readline = read


@pytest.mark.django_db
def test_an_anonymous_body_to_the_restore_url_is_not_read_before_the_login(client):
    """16 anonymous chunked 16 MB bodies at once took 100-140 MB of each worker: the restore URL
    read up to its own limit before ``leader_required`` looked at the login."""
    url = reverse("organiser:backup_restore")
    response = client.post(
        url,
        content_type="multipart/form-data; boundary=x",
        HTTP_TRANSFER_ENCODING="chunked",
        CONTENT_LENGTH="",
        **{"wsgi.input": _NeverRead()},
    )
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    response = client.post(url, {"file": upload(3 * MB, "gross.json")})  # declared: not read either
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


@pytest.mark.django_db
def test_a_logged_in_organiser_still_uploads_beyond_the_default_limit(organiser_client):
    response = organiser_client.post(reverse("organiser:backup_restore"), {"file": upload(3 * MB, "gross.json")})
    assert response.status_code == 302  # read and refused by the restore itself (not a backup), not 413
    assert response["Location"] == reverse("organiser:backups")


@pytest.mark.django_db
def test_every_error_page_has_the_pages_security_headers_and_speaks_the_users_language(client, monkeypatch):
    # 413: made before any other middleware ran.
    response = client.post(reverse("public:tablet_join"), {"file": upload(3 * MB)}, HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 413
    assert_page_headers(response)
    # 404, and a 403 of a role.
    response = client.get("/gibt-es-nicht/", HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 404
    assert_page_headers(response)
    # The CSRF failure: the app's page in the user's language, not Django's English one.
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    for language, words in (("de", "Das Formular ist abgelaufen"), ("da", "Formularen er udløbet")):
        response = strict.post(reverse("login"), {"username": "x", "password": "y"}, HTTP_ACCEPT_LANGUAGE=language)
        assert response.status_code == 403
        page = response.content.decode()
        assert words in page and f'lang="{language}"' in page and "CSRF verification failed" not in page
        assert_page_headers(response)
    # A 500 in a middleware outside the ones that set the headers (the session saved, say).
    monkeypatch.setattr(
        "django.contrib.sessions.middleware.SessionMiddleware.process_response",
        lambda self, request, response: 1 / 0,
    )
    response = Client(raise_request_exception=False).get(reverse("public:help"), HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 500
    assert_page_headers(response)
