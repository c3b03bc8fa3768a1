"""Into the hall (issue 9, points 2 to 5): the public address on every link and QR code, the
short table codes at /tablet/ and their guessing limit, the page "Tablets einrichten", the table
cards and the web app manifest."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from scoring import services, throttle
from scoring.links import points_at_this_machine
from scoring.models import Seating, Table
from scoring.table_codes import ALPHABET, CODE_SPACE, display, new_table_code, normalise
from scoring.views.tablets import COOKIE, DEVICE_KEY, TABLE_KEY

HALL = "http://192.168.178.20:8000"
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def drawn(roster_evening):
    services.draw_session(evening=roster_evening, seed=1)
    return roster_evening


def tablet(address: str = "192.168.178.51") -> Client:
    return Client(REMOTE_ADDR=address)


def join(client: Client, number, code: str):
    return client.post(reverse("public:tablet_join"), {"number": str(number), "code": code})


def pdf_text(data: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


# --- Table codes -------------------------------------------------------------------------------


def test_codes_have_no_look_alikes_and_typing_is_forgiving():
    assert not set(ALPHABET) & set("0123456789IL1OQ0YZ")
    assert CODE_SPACE == 20**6 == 64_000_000
    code = new_table_code()
    assert len(code) == 6 and set(code) <= set(ALPHABET)
    assert normalise(f"  {display(code).lower()} ") == code
    assert normalise("kat-wen") == "KATWEN"
    for bad in ("KATWE", "KATWEN1", "KAT0EN", "KATWEI", "", "ＫATWEN"):
        assert normalise(bad) is None, bad


@pytest.mark.django_db
def test_a_tablet_joins_with_number_and_code_lowercase_and_spaces(drawn):
    table = drawn.tables.get(number=3)
    client = tablet()
    response = join(client, " 3 ", f"  {display(table.code).lower()}  ")
    assert response.status_code == 302
    assert response["Location"] == reverse("scorer:table", args=[table.token])
    page = client.get(response["Location"])
    assert "Tisch 3" in page.content.decode()
    # The tablet keeps its table: /tablet/ (and the home-screen icon) leads straight back.
    again = client.get(reverse("public:tablet_join"))
    assert again.status_code == 302 and again["Location"] == reverse("scorer:table", args=[table.token])
    other = client.get(reverse("public:tablet_join") + "?andere=1")
    assert other.status_code == 200  # choose another table


@pytest.mark.django_db
def test_a_tablet_opened_by_qr_link_keeps_its_table_too(drawn):
    table = drawn.tables.get(number=2)
    client = tablet()
    assert client.get(reverse("scorer:table", args=[table.token])).status_code == 200
    assert client.cookies[COOKIE].value == table.token
    response = client.get(reverse("public:tablet_join"))
    assert response["Location"] == reverse("scorer:table", args=[table.token])


@pytest.mark.django_db
def test_wrong_old_and_foreign_codes_are_refused_and_counted(drawn):
    three, _five = drawn.tables.get(number=3), drawn.tables.get(number=5)
    client = tablet()
    response = join(client, 5, three.code)  # a foreign code: table 3's code for table 5
    assert response.status_code == 422
    assert "nicht der Code von Tisch 5" in response.content.decode()
    assert COOKIE not in client.cookies
    old = three.code
    services.regenerate_table_link(table_id=three.pk)
    three.refresh_from_db()
    assert three.code != old
    response = join(client, 3, old)  # an old code (after "Neuer Link")
    assert response.status_code == 422
    response = join(client, 3, "12345")  # digits: not a code at all
    assert "6 Buchstaben" in response.content.decode()
    assert throttle.failures(DEVICE_KEY + "192.168.178.51", 3600) == 3
    assert throttle.failures(TABLE_KEY + "3", 3600) == 2
    response = join(client, "drei", "ABCDEF")
    assert response.status_code == 422 and "Tischnummer" in response.content.decode()


@pytest.mark.django_db
def test_a_table_locks_after_ten_wrong_codes_from_many_devices_and_the_organiser_unlocks(
    drawn, organiser_client, settings
):
    table = drawn.tables.get(number=4)
    wrong = "BBBBBB" if table.code != "BBBBBB" else "CCCCCC"
    for n in range(settings.TABLE_CODE_TABLE_LIMIT):
        assert join(tablet(f"10.0.0.{n + 10}"), 4, wrong).status_code == 422
    # Now even the right code from a fresh device is refused: the table is locked.
    response = join(tablet("10.0.0.99"), 4, table.code)
    assert response.status_code == 429
    assert "Tisch 4 ist nach zu vielen falschen Codes gesperrt" in response.content.decode()
    # Other tables are not affected.
    five = drawn.tables.get(number=5)
    assert join(tablet("10.0.0.99"), 5, five.code).status_code == 302
    # The organiser sees the locked table and unlocks it.
    url = reverse("organiser:tablets", args=[drawn.pk])
    page = organiser_client.get(url).content.decode()
    assert page.count('data-testid="table-locked"') == 1
    response = organiser_client.post(reverse("organiser:tablet_unlock", args=[drawn.pk]), {"key": f"{TABLE_KEY}4"})
    assert response.status_code == 302
    assert 'data-testid="table-locked"' not in organiser_client.get(url).content.decode()
    assert join(tablet("10.0.0.99"), 4, table.code).status_code == 302


@pytest.mark.django_db
def test_a_device_locks_after_ten_wrong_codes_over_all_tables(drawn, settings, organiser_client):
    client = tablet("10.0.0.7")
    for n in range(settings.TABLE_CODE_DEVICE_LIMIT):
        join(client, n % 6 + 1, "WWWWWW")
    table = drawn.tables.get(number=1)
    response = join(client, 1, table.code)
    assert response.status_code == 429
    assert "von diesem Tablet" in response.content.decode()
    page = organiser_client.get(reverse("organiser:tablets", args=[drawn.pk])).content.decode()
    assert "10.0.0.7" in page
    organiser_client.post(reverse("organiser:tablet_unlock", args=[drawn.pk]), {"key": f"{DEVICE_KEY}10.0.0.7"})
    assert join(client, 1, table.code).status_code == 302
    # Only counter keys of table codes can be reset from the page.
    throttle.record_failure("table-link:10.0.0.7", 600)
    organiser_client.post(reverse("organiser:tablet_unlock", args=[drawn.pk]), {"key": "table-link:10.0.0.7"})
    assert throttle.failures("table-link:10.0.0.7", 600) == 1


@pytest.mark.django_db
def test_a_stale_cookie_shows_the_form_without_counting(drawn):
    client = tablet()
    client.cookies[COOKIE] = "nicht-mehr-gueltig"
    response = client.get(reverse("public:tablet_join"))
    assert response.status_code == 200
    assert throttle.failures(DEVICE_KEY + "192.168.178.51", 3600) == 0


# --- Public address on every link and QR code --------------------------------------------------


def test_addresses_of_this_machine_are_recognised():
    for url in (
        "http://127.0.0.1:8000",
        "http://localhost:8000",
        "http://[::1]:8000",
        "http://0.0.0.0:8000",
        "http://127.0.1.1",
    ):
        assert points_at_this_machine(url), url
    for url in (HALL, "http://bruus.fritz.box:8000", "https://turnier.example.org"):
        assert not points_at_this_machine(url), url


@pytest.mark.django_db
def test_every_link_uses_the_public_address(drawn, organiser_client, settings):
    settings.PUBLIC_BASE_URL = HALL
    table = drawn.tables.get(number=1)
    pages = {
        "evening": reverse("organiser:evening_detail", args=[drawn.pk]),
        "tablets": reverse("organiser:tablets", args=[drawn.pk]),
        "live": reverse("organiser:live", args=[drawn.pk]),
    }
    evening_page = organiser_client.get(pages["evening"]).content.decode()
    assert f"{HALL}/t/{table.token}/" in evening_page
    tablets_page = organiser_client.get(pages["tablets"]).content.decode()
    assert f'data-url="{HALL}/t/{table.token}/"' in tablets_page
    assert f"{HALL}/tablet/" in tablets_page
    assert tablets_page.count('<svg class="qr"') == drawn.tables.count()
    live_page = organiser_client.get(pages["live"]).content.decode()
    assert f"{HALL}/abend/{drawn.pk}/rangliste/" in live_page
    assert f"{HALL}/abend/{drawn.pk}/platz/" in live_page
    screen = Client().get(reverse("public:ranking_screen", args=[drawn.pk])).content.decode()
    assert f"{HALL}/abend/{drawn.pk}/platz/" in screen
    for page in (evening_page, tablets_page, live_page):
        assert "127.0.0.1" not in page and "testserver" not in page
        assert 'data-testid="local-links-warning"' not in page
    sheets = organiser_client.get(reverse("organiser:score_sheets_pdf", args=[drawn.pk, 1]))
    assert f"{HALL}/t/{table.token}/" in pdf_text(b"".join(sheets.streaming_content)).replace("\n", "")


@pytest.mark.django_db
def test_a_printout_reverses_the_table_link_once_and_gets_every_link_right(drawn, rf, settings):
    from scoring.links import absolute_reverse, absolute_reverser

    for base in (HALL, ""):
        settings.PUBLIC_BASE_URL = base
        request = rf.get("/", HTTP_HOST="testserver")
        link = absolute_reverser(request, "scorer:table")
        for token in [*drawn.tables.values_list("token", flat=True), "a-b_C9", "ü?x&!$ #%"]:
            assert link(token) == absolute_reverse(request, "scorer:table", token), token


@pytest.mark.django_db
def test_organiser_pages_warn_when_links_point_at_this_machine(drawn, organiser_client, settings):
    settings.PUBLIC_BASE_URL = "http://127.0.0.1:8000"
    for name in ("evening_detail", "tablets", "live"):
        page = organiser_client.get(reverse(f"organiser:{name}", args=[drawn.pk])).content.decode()
        assert 'data-testid="local-links-warning"' in page, name
        assert "make serve" in page
    settings.PUBLIC_BASE_URL = ""  # the browser's address: the test client's "testserver" is fine
    page = organiser_client.get(reverse("organiser:tablets", args=[drawn.pk])).content.decode()
    assert 'data-testid="local-links-warning"' not in page
    # Public pages never carry the organiser's warning.
    settings.PUBLIC_BASE_URL = "http://127.0.0.1:8000"
    assert "local-links-warning" not in Client().get(reverse("public:tablet_join")).content.decode()


def test_a_bad_public_base_url_stops_the_start(monkeypatch):
    import subprocess
    import sys

    for value in ("192.168.1.20:8000", "ftp://x", "http://x/pfad"):
        result = subprocess.run(
            [
                sys.executable,
                "-c",
                "import django, os; os.environ['DJANGO_SETTINGS_MODULE']='bruus_tournament.settings'; django.setup()",
            ],
            env={"PUBLIC_BASE_URL": value, "PATH": "/usr/bin:/bin"},
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
        assert result.returncode != 0 and "PUBLIC_BASE_URL" in result.stderr, value


# --- Table cards ---------------------------------------------------------------------------------


@pytest.mark.django_db
def test_table_cards_show_number_qr_code_address_and_wifi(drawn, organiser_client, settings):
    settings.PUBLIC_BASE_URL = HALL
    settings.WIFI_NAME = "Dörpshus-Gäste"
    response = organiser_client.get(reverse("organiser:table_cards_pdf", args=[drawn.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    data = b"".join(response.streaming_content)
    reader = PdfReader(io.BytesIO(data))
    tables = list(drawn.tables.all())
    assert len(reader.pages) == (len(tables) + 1) // 2  # two cards to a page
    text = pdf_text(data)
    for table in tables:
        assert f"Tisch {table.number}" in text
        assert display(table.code) in text
    assert f"{HALL}/tablet/" in text.replace("\n", "")
    assert "WLAN: Dörpshus-Gäste" in text
    assert "Tischkarten" in response["Content-Disposition"]


@pytest.mark.django_db
def test_table_cards_before_the_draw_say_why_not(roster_evening, organiser_client):
    response = organiser_client.get(reverse("organiser:table_cards_pdf", args=[roster_evening.pk]), follow=True)
    assert response.status_code == 200
    assert "Durchgang 1" in response.content.decode()


# --- Web app manifest ------------------------------------------------------------------------------


def test_the_manifest_is_german_standalone_with_local_icons():
    manifest = json.loads((ROOT / "static" / "manifest.webmanifest").read_text())
    assert manifest["lang"] == "de" and manifest["display"] == "standalone"
    assert manifest["start_url"] == "/tablet/"
    assert "Bruus" in manifest["name"]
    sizes = set()
    for icon in manifest["icons"]:
        assert not icon["src"].startswith(("http:", "https:", "//"))
        path = ROOT / "static" / icon["src"]
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        sizes.add(icon["sizes"])
    assert {"192x192", "512x512"} <= sizes


@pytest.mark.django_db
def test_the_table_page_and_tablet_page_link_the_manifest(drawn, client):
    table = drawn.tables.get(number=1)
    for url in (reverse("scorer:table", args=[table.token]), reverse("public:tablet_join") + "?andere=1"):
        page = client.get(url).content.decode()
        assert re.search(r'<link rel="manifest" href="/static/manifest[^"]*\.webmanifest">', page), url
        assert "apple-touch-icon" in page


# --- The tablet stays at its table ---------------------------------------------------------------


@pytest.mark.django_db
def test_a_tablet_says_plainly_when_its_table_has_nobody_this_session(evening_factory):
    import random

    from scoring.demo import play_seating
    from scoring.models import Participant

    evening = evening_factory(12, sessions_count=2, rounds_per_session=1)
    services.draw_session(evening=evening, seed=5)
    rng = random.Random(5)
    for seating in Seating.objects.filter(round__session__evening=evening).select_related(
        "table", "round__session__evening"
    ):
        play_seating(seating, rng)
    three = Table.objects.get(evening=evening, number=3)
    client = tablet()
    page = client.get(reverse("scorer:table", args=[three.token])).content.decode()
    assert "Bitte warten" in page  # session 2 not drawn yet
    # Four players leave: session 2 needs only two tables.
    Participant.objects.filter(evening=evening, player__name__in=[f"Spieler {n}" for n in (1, 2, 3, 4)]).update(
        checked_in=False
    )
    services.draw_session(evening=evening, seed=6)
    page = client.get(reverse("scorer:table", args=[three.token])).content.decode()
    assert "Niemand spielt an Tisch 3 in Durchgang 2" in page
    one = Table.objects.get(evening=evening, number=1)
    page = client.get(reverse("scorer:table", args=[one.token])).content.decode()
    assert "Niemand spielt" not in page and "Durchgang 2 · Runde 1" in page
