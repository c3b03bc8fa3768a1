"""The real transport against a stand-in hub on 127.0.0.1 that answers as the contract says
(docs/results-online.md, "The API"), the address check, ``bruus-turnier publish --once``, and
a deal's service that talks to no network."""

from __future__ import annotations

import json
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.core.management import CommandError, call_command

from scoring import services
from scoring.domain.rules import DealResult
from scoring.hall.origin import Origin
from scoring.publishing import services as publishing
from scoring.publishing.models import EveningPublishing, PublishMode
from scoring.publishing.sender import Sender, configured_transport, start_background_sender
from scoring.publishing.transport import HttpTransport, address_problem
from tests.publishing.conftest import play_round, seatings, small_evening

KEY = "club-key-0123456789"


class StandInHub(ThreadingHTTPServer):
    """Answers ``POST /api/v1/snapshots/`` as the hub does: 401 without the key, 413 over
    ``limit`` bytes, 400 for a body that is not a snapshot, else applied or unchanged."""

    def __init__(self):
        super().__init__(("127.0.0.1", 0), Handler)
        self.bodies: list[bytes] = []
        self.held: dict[str, int] = {}
        self.limit = 2 * 1024 * 1024
        self.portal = False  # a hall's Wi-Fi login page: 200 with HTML to every request

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


class Handler(BaseHTTPRequestHandler):
    server: StandInHub

    def log_message(self, *args):  # quiet
        pass

    def _answer(self, status: int, data: dict) -> None:
        body = json.dumps(data).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):  # noqa: N802 (http.server's name)
        if self.server.portal:
            page = b"<html><body>Bitte im WLAN anmelden</body></html>"
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(page)))
            self.end_headers()
            self.wfile.write(page)
            return None
        if self.path != "/api/v1/snapshots/":
            return self._answer(404, {"status": "not found"})
        if self.headers.get("Authorization") != f"Bearer {KEY}":
            return self._answer(401, {"status": "refused", "errors": ["key"]})
        length = int(self.headers.get("Content-Length", 0))
        if length > self.server.limit:
            return self._answer(413, {"status": "refused", "errors": ["too large"]})
        raw = self.rfile.read(length)
        self.server.bodies.append(raw)
        try:
            data = json.loads(raw)
            assert self.headers.get("Content-Type") == "application/json"
            assert data["format_version"] == 1
        except (ValueError, AssertionError, KeyError):
            return self._answer(400, {"status": "refused", "errors": ["not a snapshot"]})
        if data["format"] != "bruus-snapshot":
            return self._answer(200, {"status": "applied"})
        uid, version = data["evening"]["uid"], data["evening"]["version"]
        if self.server.held.get(uid, -1) >= version:
            return self._answer(200, {"status": "unchanged", "version": self.server.held[uid]})
        self.server.held[uid] = version
        return self._answer(200, {"status": "applied", "version": version})


@pytest.fixture
def stand_in():
    server = StandInHub()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.django_db
def test_a_round_played_in_the_hall_reaches_the_stand_in_hub(stand_in, settings):
    settings.PUBLISH_URL, settings.PUBLISH_KEY = stand_in.url, KEY
    evening = small_evening()
    publishing.set_publish_mode(evening_id=evening.pk, mode=PublishMode.LIVE)
    play_round(evening, 1)
    sender = Sender(configured_transport())
    evening.refresh_from_db()
    assert sender.send_waiting().sent == [(evening.pk, evening.version)]
    (body,) = stand_in.bodies
    assert json.loads(body)["evening"]["version"] == evening.version
    assert len(json.loads(body)["rounds"]) == 1
    publishing.send_again(evening_id=evening.pk)  # the hub holds it already: "unchanged" is a success
    assert sender.send_waiting().sent == [(evening.pk, evening.version)]
    assert EveningPublishing.objects.get(evening=evening).waiting_version is None


@pytest.mark.django_db
def test_a_wrong_key_and_a_body_too_large_are_refused_with_the_hubs_reason(stand_in):
    evening = small_evening()
    publishing.set_publish_mode(evening_id=evening.pk, mode=PublishMode.LIVE)
    assert Sender(HttpTransport(stand_in.url, "wrong"), holder="t").send_waiting().refused == 1
    assert EveningPublishing.objects.get(evening=evening).last_error == "HTTP 401: key"
    stand_in.limit = 100
    publishing.send_again(evening_id=evening.pk)
    assert Sender(HttpTransport(stand_in.url, KEY), holder="t").send_waiting().refused == 1
    assert EveningPublishing.objects.get(evening=evening).last_error == "HTTP 413: too large"


@pytest.mark.django_db
def test_connection_refused_is_retried_not_refused():
    evening = small_evening()
    publishing.set_publish_mode(evening_id=evening.pk, mode=PublishMode.LIVE)
    done = Sender(HttpTransport(f"http://127.0.0.1:{_closed_port()}", KEY, timeout=2)).send_waiting()
    row = EveningPublishing.objects.get(evening=evening)
    assert done.failed == 1 and row.attempts == 1 and row.failing_since is not None and "refused" in row.last_error


@pytest.mark.django_db
def test_a_wifi_login_page_answering_200_is_not_taken_for_the_hub(stand_in):
    evening = small_evening()
    publishing.set_publish_mode(evening_id=evening.pk, mode=PublishMode.LIVE)
    stand_in.portal = True
    sender = Sender(HttpTransport(stand_in.url, KEY), holder="t")
    assert sender.send_waiting().failed == 1
    row = EveningPublishing.objects.get(evening=evening)
    assert row.waiting_version is not None and row.sent_version is None and row.attempts == 1


@pytest.mark.parametrize(
    ("url", "allow", "refused"),
    [
        ("https://ergebnisse.example.org", False, False),
        ("http://127.0.0.1:8001", False, False),
        ("http://localhost:8001", False, False),
        ("http://[::1]:8001", False, False),
        ("http://ergebnisse.example.org", False, True),
        ("http://192.168.1.20:8001", False, True),
        ("http://192.168.1.20:8001", True, False),
        ("ftp://ergebnisse.example.org", True, True),
        ("ergebnisse.example.org", False, True),
    ],
)
def test_plain_http_only_to_this_machine_unless_allowed(url, allow, refused):
    assert (address_problem(url, allow) is not None) is refused


@pytest.mark.django_db
def test_plain_http_to_another_machine_is_recorded_as_a_refusal_and_sends_nothing():
    evening = small_evening()
    publishing.set_publish_mode(evening_id=evening.pk, mode=PublishMode.LIVE)
    assert Sender(HttpTransport("http://192.0.2.1", KEY)).send_waiting().refused == 1
    assert "PUBLISH_ALLOW_HTTP" in EveningPublishing.objects.get(evening=evening).last_error


@pytest.mark.django_db
def test_publish_once_sends_what_waits_and_stops(stand_in, settings, capsys):
    settings.PUBLISH_URL, settings.PUBLISH_KEY = stand_in.url, KEY
    evening = small_evening()
    publishing.set_publish_mode(evening_id=evening.pk, mode=PublishMode.LIVE)
    call_command("publish", once=True)
    assert "Sent 1 evening(s)" in capsys.readouterr().out and len(stand_in.bodies) == 1
    settings.PUBLISH_URL = f"http://127.0.0.1:{_closed_port()}"
    services.set_ranking_hidden(evening_id=evening.pk, hidden=True)
    with pytest.raises(CommandError, match="Not everything could be sent"):
        call_command("publish", once=True)
    settings.PUBLISH_URL = ""
    with pytest.raises(CommandError, match="PUBLISH_URL is not set"):
        call_command("publish", once=True)


def test_no_sender_without_a_results_site(settings):
    settings.PUBLISH_URL = ""
    assert start_background_sender() is None


@pytest.mark.django_db
def test_a_deal_of_a_live_evening_talks_to_no_network(settings, monkeypatch):
    """The deal's transaction marks the evening waiting and nothing else: no connection is opened
    (the hub unreachable or not; the sender works apart from the requests)."""
    settings.PUBLISH_URL, settings.PUBLISH_KEY = f"http://127.0.0.1:{_closed_port()}", KEY
    evening = small_evening()
    publishing.set_publish_mode(evening_id=evening.pk, mode=PublishMode.LIVE)
    connections = []
    real_connect = socket.socket.connect

    def connect(sock, address):
        connections.append(address)
        return real_connect(sock, address)

    monkeypatch.setattr(socket.socket, "connect", connect)
    monkeypatch.setattr(socket, "create_connection", lambda *a, **k: connections.append(a) or 1 / 0)
    seating = seatings(evening, 1).first()
    deal = services.enter_deal(
        seating_id=seating.pk,
        number=1,
        result=DealResult(winner="A", to_nil=False, bonus_a=0, bonus_b=0),
        origin=Origin.demo(),
        table=seating.table,
    )
    assert deal.outcome == "created" and connections == []
    evening.refresh_from_db()
    assert EveningPublishing.objects.get(evening=evening).waiting_version == evening.version
