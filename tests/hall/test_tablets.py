"""Into the hall: the public address on every link and QR code, the
short table codes at /tablet/ and their guessing limit, the page "Tablets einrichten", the table
cards and the web app manifest."""

from __future__ import annotations

import io
import json
import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.db.models import F
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from pypdf import PdfReader

from scoring import selectors, services
from scoring.hall import throttle
from scoring.hall.table_codes import ALPHABET, CODE_SPACE, display, new_table_code, normalise
from scoring.models import AttemptCounter, Evening, Seating, Session, Table
from scoring.views.tablets import COOKIE, DEVICE_KEY
from scoring.web.links import points_at_this_machine
from tests.tracing import pdf_text

HALL = "http://192.168.178.20:8000"
ROOT = Path(__file__).resolve().parents[2]
LIMIT, WINDOW = django_settings.TABLE_CODE_DEVICE_LIMIT, django_settings.TABLE_CODE_WINDOW


@pytest.fixture
def drawn(drawn_roster_evening):
    """The roster evening with session 1 drawn (seed 1)."""
    return drawn_roster_evening


def tablet(address: str = "192.168.178.51") -> Client:
    return Client(REMOTE_ADDR=address)


def join(client: Client, number, code: str):
    return client.post(reverse("public:tablet_join"), {"number": str(number), "code": code})


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


def device_failures(address: str = "192.168.178.51") -> int:
    return throttle.failures(DEVICE_KEY + address, LIMIT, WINDOW)


def wrong_code(table: Table) -> str:
    return "BBBBBB" if table.code != "BBBBBB" else "CCCCCC"


def older(key: str, seconds: float) -> None:
    """Let ``seconds`` pass for the counter of ``key`` (its decay clock moves back)."""
    AttemptCounter.objects.filter(key=key).update(window_start=F("window_start") - timedelta(seconds=seconds))


@pytest.mark.django_db
def test_wrong_old_and_foreign_codes_are_refused_and_counted(drawn):
    three, _five = drawn.tables.get(number=3), drawn.tables.get(number=5)
    client = tablet()
    response = join(client, 5, three.code)  # a foreign code: table 3's code for table 5
    assert response.status_code == 422
    assert "nicht der Code von Tisch 5" in response.content.decode()
    assert "Verbleibende Versuche auf diesem Tablet: 9." in response.content.decode()
    assert COOKIE not in client.cookies
    old = three.code
    services.regenerate_table_link(table_id=three.pk)
    three.refresh_from_db()
    assert three.code != old
    response = join(client, 3, old)  # an old code (after "Neuer Link")
    assert response.status_code == 422
    response = join(client, 3, "12345")  # digits: not a code at all
    assert "6 Buchstaben" in response.content.decode()
    assert device_failures() == 3
    assert not AttemptCounter.objects.exclude(key=DEVICE_KEY + "192.168.178.51").exists()  # nothing per table
    response = join(client, "drei", "ABCDEF")
    assert response.status_code == 422 and "Tischnummer" in response.content.decode()
    assert device_failures() == 3  # a table number that is none is not a guess


@pytest.mark.django_db
def test_no_device_locks_an_honest_tablet_out_of_its_table(drawn, settings):
    """Ten wrong codes for table 4 locked table 4 for everybody for an hour. Now wrong
    codes stop only the devices that typed them."""
    four = drawn.tables.get(number=4)
    for device in ("10.0.0.10", "10.0.0.11", "10.0.0.12"):
        attacker = tablet(device)
        for _ in range(LIMIT):
            assert join(attacker, 4, wrong_code(four)).status_code == 422
        assert join(attacker, 4, wrong_code(four)).status_code == 429
    response = join(tablet("10.0.0.99"), 4, four.code)
    assert response.status_code == 302
    assert response["Location"] == reverse("scorer:table", args=[four.token])


@pytest.mark.django_db
def test_a_right_code_does_not_reset_the_wrong_ones_before_it(drawn):
    """Nine wrong codes, then the right code of the attacker's own table, reset the
    device's count, so one device could guess without end. The right code takes back only its
    own try."""
    four, one = drawn.tables.get(number=4), drawn.tables.get(number=1)
    attacker = tablet("10.0.0.7")
    for _ in range(LIMIT - 1):
        assert join(attacker, 4, wrong_code(four)).status_code == 422
    assert join(attacker, 1, one.code).status_code == 302  # its own table's code, from the card
    assert device_failures("10.0.0.7") == LIMIT - 1
    assert join(attacker, 4, wrong_code(four)).status_code == 422  # the tenth wrong code
    response = join(attacker, 1, one.code)
    assert response.status_code == 429  # stopped, even with a right code
    assert "Zu viele falsche Codes von diesem Tablet" in response.content.decode()
    assert "Tablets einrichten" in response.content.decode()


@pytest.mark.django_db
def test_wrong_codes_are_forgotten_one_at_a_time(drawn):
    """The count decays: one wrong code is forgotten every TABLE_CODE_WINDOW / LIMIT seconds
    (6 minutes), so a stopped device gets one more try, not ten, and at most ten an hour."""
    four = drawn.tables.get(number=4)
    attacker, key = tablet("10.0.0.7"), DEVICE_KEY + "10.0.0.7"
    for _ in range(LIMIT):
        join(attacker, 4, wrong_code(four))
    assert join(attacker, 4, four.code).status_code == 429
    step = WINDOW / LIMIT
    older(key, step - 5)
    assert join(attacker, 4, wrong_code(four)).status_code == 429  # not yet
    assert device_failures("10.0.0.7") == LIMIT  # a refused try is not counted
    older(key, 10)
    assert join(attacker, 4, wrong_code(four)).status_code == 422  # one more try ...
    assert join(attacker, 4, four.code).status_code == 429  # ... and only one
    older(key, WINDOW)
    assert device_failures("10.0.0.7") == 0
    assert join(attacker, 4, four.code).status_code == 302


@pytest.mark.django_db
def test_the_decaying_count_in_numbers():
    key = "table-code:device:192.0.2.1"
    assert [throttle.attempt(key, 3, 300) for _ in range(4)] == [1, 2, 3, None]
    older(key, 99)
    assert throttle.failures(key, 3, 300) == 3 and throttle.attempt(key, 3, 300) is None
    older(key, 2)  # 101 s: one forgotten (a step is 100 s)
    state = throttle.state(key, 3, 300)
    assert state.count == 2 and 98 < (state.next_forgotten - timezone.now()).total_seconds() <= 100
    assert throttle.attempt(key, 3, 300) == 3
    throttle.forgive(key, 3, 300)
    assert throttle.failures(key, 3, 300) == 2
    older(key, 1000)
    assert throttle.failures(key, 3, 300) == 0 and throttle.blocked("table-code:", 3, 300) == []


@pytest.mark.django_db
def test_a_helper_unlocks_a_stopped_device(drawn, client, helper):
    table = drawn.tables.get(number=1)
    stopped = tablet("10.0.0.7")
    for n in range(LIMIT):
        join(stopped, n % 6 + 1, "WWWWWW")
    response = join(stopped, 1, table.code)
    assert response.status_code == 429
    assert "von diesem Tablet" in response.content.decode()
    client.force_login(helper)
    url = reverse("organiser:tablets", args=[drawn.pk])
    page = client.get(url).content.decode()
    assert 'data-testid="locked-devices"' in page and "10.0.0.7" in page
    response = client.post(reverse("organiser:tablet_unlock", args=[drawn.pk]), {"key": f"{DEVICE_KEY}10.0.0.7"})
    assert response.status_code == 302
    assert 'data-testid="locked-devices"' not in client.get(url).content.decode()
    assert join(stopped, 1, table.code).status_code == 302
    # Only counter keys of table codes can be reset from the page.
    throttle.attempt("table-link:10.0.0.7", 10, 600)
    client.post(reverse("organiser:tablet_unlock", args=[drawn.pk]), {"key": "table-link:10.0.0.7"})
    assert throttle.failures("table-link:10.0.0.7", 10, 600) == 1


@pytest.mark.django_db
def test_a_stale_cookie_shows_the_form_without_counting(drawn):
    client = tablet()
    client.cookies[COOKIE] = "nicht-mehr-gueltig"
    response = client.get(reverse("public:tablet_join"))
    assert response.status_code == 200
    assert device_failures() == 0


# --- Codes belong to the evenings being played -----------------------------------------------------


def finish(evening) -> None:
    """Every round confirmed (the evening's sessions all drawn: as when the evening is over)."""
    Seating.objects.filter(round__session__evening=evening).update(confirmed_at=timezone.now())


@pytest.mark.django_db
def test_a_finished_evening_opens_nothing(evening_factory):
    evening = evening_factory(8, sessions_count=1, rounds_per_session=1)
    services.draw_session(evening=evening, seed=1)
    one = evening.tables.get(number=1)
    assert selectors.evenings_being_played().filter(pk=evening.pk).exists()
    finish(evening)
    assert not selectors.evenings_being_played().exists()
    response = join(tablet(), 1, one.code)
    assert response.status_code == 422 and "nicht der Code von Tisch 1" in response.content.decode()
    # Closing the last session for the tables finishes the evening as well.
    Seating.objects.update(confirmed_at=None)
    assert selectors.evenings_being_played().exists()
    services.set_session_closed(session_id=evening.sessions.get().pk, closed=True)
    assert join(tablet("10.0.0.2"), 1, one.code).status_code == 422


@pytest.mark.django_db
def test_the_code_of_an_old_evening_opens_nothing(evening_factory):
    """The codes of every evening in the database were accepted, so old table cards
    still opened old tables."""
    old = evening_factory(8, name="Oktober")
    services.draw_session(evening=old, seed=1)
    card = old.tables.get(number=1)
    long_ago = timezone.now() - timedelta(days=30)
    Evening.objects.filter(pk=old.pk).update(date=long_ago.date())
    Session.objects.filter(evening=old).update(drawn_at=long_ago)
    response = join(tablet(), 1, card.code)
    assert response.status_code == 422
    # Tonight's evening: dated today, drawn long ago (prepared early) or just now (dated wrongly).
    Evening.objects.filter(pk=old.pk).update(date=timezone.localdate())
    assert join(tablet("10.0.0.2"), 1, card.code).status_code == 302
    Evening.objects.filter(pk=old.pk).update(date=long_ago.date())
    Session.objects.filter(evening=old).update(drawn_at=timezone.now() - timedelta(hours=11))
    assert join(tablet("10.0.0.3"), 1, card.code).status_code == 302


@pytest.mark.django_db
def test_the_code_of_an_archived_evening_opens_nothing(evening_factory):
    """An evening archived tonight (put away by mistake or on purpose) is not being played: its table
    cards open nothing and the help page does not count it; brought back, its cards work again."""
    evening = evening_factory(8)
    services.draw_session(evening=evening, seed=1)
    card = evening.tables.get(number=1)
    Evening.objects.filter(pk=evening.pk).update(archived_at=timezone.now())
    assert selectors.evenings_being_played_count() == 0
    assert join(tablet(), 1, card.code).status_code == 422
    Evening.objects.filter(pk=evening.pk).update(archived_at=None)
    assert selectors.evenings_being_played_count() == 1
    assert join(tablet("10.0.0.2"), 1, card.code).status_code == 302


@pytest.mark.django_db
def test_the_help_page_counts_the_evenings_being_played(client, evening_factory):
    page = client.get(reverse("public:help")).content.decode()
    assert "höchstens 70 Versuche" in page and "(jetzt: 0)" in page
    assert "Bei 1 Abend, der gespielt wird" in page and "1 zu 914.286" in page and "1 zu 91.429" in page
    for name in ("Erster", "Zweiter"):
        services.draw_session(evening=evening_factory(8, name=name), seed=1)
    page = client.get(reverse("public:help")).content.decode()
    assert "(jetzt: 2)" in page and "Bei 2 Abenden" in page
    assert "1 zu 457.143" in page and "1 zu 45.714" in page


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
    from scoring.web.links import absolute_reverse, absolute_reverser

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


@pytest.mark.parametrize("language", [code for code, _name in django_settings.LANGUAGES])
def test_the_manifest_is_standalone_with_local_icons_in_every_language(client, language):
    response = client.get(reverse("public:manifest", args=[language]))
    assert response.status_code == 200 and response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["lang"] == language and manifest["display"] == "standalone"
    assert manifest["start_url"] == "/tablet/"
    assert "Bruus" in manifest["name"]
    sizes = set()
    for icon in manifest["icons"]:
        assert icon["src"].startswith("/static/icons/")  # the app's own files, never another site
        path = ROOT / "static" / icon["src"].removeprefix("/static/")
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        sizes.add(icon["sizes"])
    assert {"192x192", "512x512"} <= sizes


def test_the_manifest_speaks_the_language_it_is_asked_for(client):
    """The home-screen icon's name was German in every language."""
    names = {
        code: json.loads(client.get(reverse("public:manifest", args=[code])).content) for code in ("de", "da", "sv")
    }
    assert names["de"]["name"] == "Bruus Turnier – Tisch"
    assert names["da"]["name"] == "Bruus-turnering – bord"
    assert names["da"]["description"] == "Indtast resultaterne ved bordet (Bruus-turnering)"
    assert names["sv"]["description"] == "Registrera resultaten vid bordet (Bruus-turnering)"
    assert client.get(reverse("public:manifest", args=["de"]).replace(".de.", ".xx.")).status_code == 404


@pytest.mark.django_db
def test_the_table_page_and_tablet_page_link_the_manifest(drawn, client):
    table = drawn.tables.get(number=1)
    for url in (reverse("scorer:table", args=[table.token]), reverse("public:tablet_join") + "?andere=1"):
        page = client.get(url).content.decode()
        assert re.search(r'<link rel="manifest" href="/tablet/app\.de\.webmanifest">', page), url
        assert "apple-touch-icon" in page


@pytest.mark.django_db
def test_a_table_page_links_the_manifest_of_its_evening_language(drawn, client):
    Evening.objects.filter(pk=drawn.pk).update(language="da")
    table = drawn.tables.get(number=1)
    page = client.get(reverse("scorer:table", args=[table.token]), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert '<link rel="manifest" href="/tablet/app.da.webmanifest">' in page


# --- The tablet stays at its table ---------------------------------------------------------------


@pytest.mark.django_db
def test_a_tablet_says_plainly_when_its_table_has_nobody_this_session(evening_factory):
    import random

    from scoring.models import Participant
    from scoring.setup.builders import play_session

    evening = evening_factory(12, sessions_count=2, rounds_per_session=1)
    play_session(services.draw_session(evening=evening, seed=5), random.Random(5))
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
