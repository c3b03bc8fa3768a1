"""The organiser's desk: everything for a session in one PDF, certificates and the
prize list, the results for the club's website, backup and restore from the organiser's pages.

Each bad input (a certificate count outside the field, a session not drawn, a damaged or
foreign backup, an evening already there) gets a translated message and changes nothing.
"""

from __future__ import annotations

import gzip
import json
import random
import re
from fractions import Fraction

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse
from django.utils import translation

from scoring import backup, selectors, services
from scoring.documents.certificates import total_wording
from scoring.models import Deal, Evening, Player
from scoring.templatetags.bruus import format_matchsticks
from tests import factories
from tests.backup.played import play_session
from tests.documents.test_documents import _documents_roster_rows, drawn_roster, get_pdf, seatings  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db


def messages_of(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def footers(pages: list[str]) -> list[str]:
    return [re.search(r"Seite \d+ von \d+", page).group(0) for page in pages]


# --- Everything for a session in one PDF ------------------------------------------------------


def test_print_everything_for_session_1_has_the_four_documents_each_numbered_on_its_own(organiser_client, drawn_roster):
    evening = drawn_roster
    response, reader, pages, data = get_pdf(organiser_client, "session_print_pdf", evening.pk, 1)
    assert "Alles%20zum%20Drucken%20Durchgang%201" in response["Content-Disposition"]
    tables = evening.tables.count()
    sheets = sum(1 for s in seatings(evening))
    # The table list (3 pages), the score sheets (two a page), route cards (8 a page), table cards (2 a page).
    parts = [3, -(-sheets // 2), -(-26 // 8), -(-tables // 2)]
    assert len(pages) == sum(parts)
    expected = [f"Seite {n} von {total}" for total in parts for n in range(1, total + 1)]
    assert footers(pages) == expected
    assert "Tischliste · Durchgang 1 · Runde 1" in pages[0]
    assert "Spieler von A bis Z" in pages[2]
    assert "Spielzettel" in pages[3]  # the sheets are blank: to write on
    assert "Laufzettel" in pages[3 + parts[1]]
    assert f"Tisch {tables}" in pages[-1] and "Tischkarten" in pages[-1]
    assert all("Gedruckt am" in page for page in pages)
    fonts = {
        str(f.get_object()["/BaseFont"]).split("+")[-1] for p in reader.pages for f in p["/Resources"]["/Font"].values()
    }
    assert fonts == {"DejaVuSans", "DejaVuSans-Bold"}


def test_print_everything_for_a_later_session_has_no_table_cards(organiser_client, roster_evening, organiser):
    """The table cards lie on the tables from session 1 on: session 2's file has the other three."""
    evening = roster_evening
    play_session(evening, organiser, seed=5, rng=random.Random(3))
    play_session(evening, organiser, seed=6, rng=random.Random(4), complete=False, deals=1)
    _, _, pages, _ = get_pdf(organiser_client, "session_print_pdf", evening.pk, 2)
    assert "Tischliste · Durchgang 2 · Runde 1" in pages[0]
    assert not any("Tischkarten" in page for page in pages)
    assert "Laufzettel" in pages[-1]


def test_print_everything_of_a_session_not_drawn_says_so(organiser_client, drawn_roster):
    response = organiser_client.get(reverse("organiser:session_print_pdf", args=[drawn_roster.pk, 2]))
    assert response.status_code == 302
    assert messages_of(response) == ["Durchgang 2 ist noch nicht ausgelost."]


def test_session_pages_link_to_print_everything(organiser_client, drawn_roster):
    href = reverse("organiser:session_print_pdf", args=[drawn_roster.pk, 1])
    for page in ("session_detail", "evening_detail"):
        args = [drawn_roster.pk, 1] if page == "session_detail" else [drawn_roster.pk]
        content = organiser_client.get(reverse(f"organiser:{page}", args=args)).content.decode()
        assert f'href="{href}"' in content, page


# --- Certificates and the prize list ----------------------------------------------------------


def test_certificates_for_the_first_three_places(organiser_client, drawn_roster):
    evening = drawn_roster
    rows = selectors.evening_ranking(evening)
    winners = [r for r in rows if r.place <= 3]
    response, _, pages, _ = get_pdf(organiser_client, "certificates_pdf", evening.pk, query="?plaetze=3")
    assert "Urkunden" in response["Content-Disposition"]
    assert len(pages) == len(winners) >= 3
    for page, row in zip(pages, winners, strict=True):
        assert "Urkunde" in page and "Schwesing" in page and "21. November 2026" in page
        assert row.player.name in page
        assert f"{row.place}. Platz" in page
        # The total as the ranking prints it; a fractional sit-out credit is no "54,6 Streichhölzern".
        if row.total == int(row.total):
            assert f"mit {int(row.total)} Streichhölzern" in page
        else:
            assert f"mit insgesamt {format_matchsticks(row.total)} (mit Freilos-Gutschrift)" in page
            assert "Streichh" not in page
    # Handed to a player: no page footer.
    assert not any("Seite" in page or "Gedruckt" in page for page in pages)


@pytest.mark.parametrize(
    ("total", "wording"),
    [
        (Fraction(273, 5), "mit insgesamt 54,6 (mit Freilos-Gutschrift)"),
        (Fraction(1), "mit 1 Streichholz"),
        (Fraction(11), "mit 11 Streichhölzern"),
        (Fraction(0), "mit 0 Streichhölzern"),
    ],
)
def test_a_certificate_words_a_fractional_total_as_a_total_not_as_matchsticks(total, wording):
    with translation.override("de"):
        assert total_wording(total) == wording


def test_prize_list_lists_the_same_places(organiser_client, drawn_roster):
    evening = drawn_roster
    rows = [r for r in selectors.evening_ranking(drawn_roster) if r.place <= 5]
    _, _, pages, _ = get_pdf(organiser_client, "prize_list_pdf", evening.pk, query="?plaetze=5")
    assert len(pages) == 1
    assert "Preisliste" in pages[0] and "Preis" in pages[0]
    for row in rows:
        assert row.player.name in pages[0]


@pytest.mark.parametrize("places", ["0", "27", "-1", "drei", "9999999999"])
def test_certificates_refuse_a_count_outside_the_field(organiser_client, drawn_roster, places):
    for name in ("certificates_pdf", "prize_list_pdf"):
        url = reverse(f"organiser:{name}", args=[drawn_roster.pk]) + f"?plaetze={places}"
        response = organiser_client.get(url, follow=True)
        assert response.redirect_chain == [(reverse("organiser:ranking", args=[drawn_roster.pk]), 302)]
        assert "Urkunden: Bitte eine Anzahl Plätze von 1 bis 26 angeben (die Spieler des Abends)." in (
            response.content.decode()
        )


def test_certificates_of_an_evening_without_players_say_so(organiser_client, db):
    evening = services.create_evening(name="Leer", date="2026-11-21")
    response = organiser_client.get(reverse("organiser:certificates_pdf", args=[evening.pk]) + "?plaetze=1")
    assert response.status_code == 302
    assert messages_of(response) == ["Es gibt noch keine Rangliste zum Drucken: Niemand ist als anwesend eingetragen."]


def test_ranking_page_offers_certificates_prize_list_and_results(organiser_client, drawn_roster):
    content = organiser_client.get(reverse("organiser:ranking", args=[drawn_roster.pk])).content.decode()
    assert f'action="{reverse("organiser:certificates_pdf", args=[drawn_roster.pk])}"' in content
    assert f'formaction="{reverse("organiser:prize_list_pdf", args=[drawn_roster.pk])}"' in content
    assert 'max="26"' in content
    assert f'href="{reverse("organiser:results_html", args=[drawn_roster.pk])}"' in content


# --- Results for the club's website -------------------------------------------------------------


def test_results_file_is_one_self_contained_page(organiser_client, drawn_roster):
    evening = drawn_roster
    response = organiser_client.get(reverse("organiser:results_html", args=[evening.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/html; charset=utf-8"
    assert "attachment" in response["Content-Disposition"]
    assert "Ergebnisse%20%E2%80%93%20Schwesing%20%E2%80%93%202026-11-21.html" in response["Content-Disposition"]
    html = response.content.decode()
    assert html.startswith("<!DOCTYPE html>") and '<html lang="de">' in html
    # Nothing from elsewhere: no stylesheet, script, picture, font or frame; links only within.
    assert not re.search(r"<(script|link|img|iframe|object|embed)\b", html)
    assert "url(" not in html and "@import" not in html and " src=" not in html
    assert re.findall(r'href="([^"]*)"', html) and all(h.startswith("#") for h in re.findall(r'href="([^"]*)"', html))
    assert "<style>" in html
    for row in selectors.evening_ranking(evening):
        assert row.player.name in html
        place = f"{row.place}.{'*' if row.shared else ''}"  # as on the page, "*" for a shared place
        assert f'<td class="num">{place}</td><td>{row.player.name}</td>' in html
    assert "Durchgang 1" in html and "Runde 4" in html and "Tisch" in html
    first = seatings(evening)[0]
    points = Deal.objects.filter(seating=first)
    a, b = sum(d.points_a for d in points), sum(d.points_b for d in points)
    assert f"{a} : {b}" in html
    assert html.count("<tr>") >= 26 + 4 + Deal.objects.filter(seating__round__session__evening=evening).count()


def test_results_file_is_in_the_evening_language(organiser_client, drawn_roster):
    drawn_roster.language = "en"
    drawn_roster.save(update_fields=["language"])
    html = organiser_client.get(reverse("organiser:results_html", args=[drawn_roster.pk])).content.decode()
    assert '<html lang="en">' in html and "Ranking" in html and "Session 1" in html and "Rangliste" not in html


def test_results_file_of_an_evening_without_players_says_so(organiser_client, db):
    evening = services.create_evening(name="Leer", date="2026-11-21")
    response = organiser_client.get(reverse("organiser:results_html", args=[evening.pk]))
    assert response.status_code == 302
    assert messages_of(response) == ["Es gibt noch keine Ergebnisse: Niemand ist als anwesend eingetragen."]


# --- Backup and restore from the organiser's pages -----------------------------------------------


def test_backup_downloads_are_for_the_turnierleitung_only(client, helper, drawn_roster):
    client.force_login(helper)
    for name, args in (("backups", []), ("backup_all", []), ("backup_evening", [drawn_roster.pk])):
        assert client.get(reverse(f"organiser:{name}", args=args)).status_code == 403, name
    response = client.post(reverse("organiser:backup_restore"), {})
    assert response.status_code == 403


def test_backup_of_an_evening_restores_as_a_copy_after_a_preview(organiser_client, drawn_roster):
    evening = drawn_roster
    response = organiser_client.get(reverse("organiser:backup_evening", args=[evening.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    assert re.search(r'filename="bruus-schwesing-\d{4}-\d\d-\d\d-\d{6}\.json"', response["Content-Disposition"])
    data = response.content
    assert json.loads(data)["scope"] == "evening"
    deals = Deal.objects.count()

    # An evening with the same name and date is there: refused, as on the command line.
    response = organiser_client.post(
        reverse("organiser:backup_restore"), {"file": _upload(data, "abend.json")}, follow=True
    )
    assert any(
        "ist bereits in dieser Datenbank" in m and "Einen Abend, der schon da ist, als Kopie" in m
        for m in messages_of(response)
    )
    assert not any("--allow-duplicates" in m for m in messages_of(response))  # the page's checkbox, not the option
    assert Evening.objects.count() == 1 and not list(backup_pending())

    # As a copy: the preview says what it adds, and adds nothing yet.
    response = organiser_client.post(
        reverse("organiser:backup_restore"), {"file": _upload(data, "abend.json"), "allow_duplicates": "1"}
    )
    assert response.status_code == 200
    preview = response.content.decode()
    assert "Die Datei abend.json fügt hinzu:" in preview
    assert "Abend Schwesing (Kopie), 21.11.2026" in preview  # a copy is named as one
    assert "Spieler: 0 neu, 26 schon im Spielerverzeichnis" in preview
    assert f"Spiele: {deals}" in preview
    assert Evening.objects.count() == 1 and Deal.objects.count() == deals
    token = re.search(r'name="token" value="([^"]+)"', preview).group(1)

    response = organiser_client.post(reverse("organiser:backup_restore_confirm"), {"token": token}, follow=True)
    assert Evening.objects.count() == 2 and Deal.objects.count() == 2 * deals
    assert Player.objects.count() == 26
    said = messages_of(response)
    assert any(m.startswith("Abend wiederhergestellt: Schwesing (Kopie), 21.11.2026") for m in said)
    assert Evening.objects.filter(name="Schwesing (Kopie)").exists()
    assert said[-1] == "Wiederherstellung abgeschlossen."
    assert not list(backup_pending())
    # The same token again: nothing is waiting any more.
    response = organiser_client.post(reverse("organiser:backup_restore_confirm"), {"token": token}, follow=True)
    assert messages_of(response) == [
        "Es wartet keine Sicherung auf die Wiederherstellung: Bitte laden Sie sie noch einmal hoch."
    ]
    assert Evening.objects.count() == 2


def test_backup_of_everything_and_a_cancelled_restore(organiser_client, drawn_roster):
    response = organiser_client.get(reverse("organiser:backup_all"))
    assert json.loads(response.content)["scope"] == "database"
    assert "bruus-datenbank-" in response["Content-Disposition"]
    compressed = gzip.compress(response.content)
    response = organiser_client.post(
        reverse("organiser:backup_restore"), {"file": _upload(compressed, "alles.json.gz"), "allow_duplicates": "1"}
    )
    token = re.search(r'name="token" value="([^"]+)"', response.content.decode()).group(1)
    assert len(list(backup_pending())) == 1
    response = organiser_client.post(
        reverse("organiser:backup_restore_confirm"), {"token": token, "cancel": "1"}, follow=True
    )
    assert messages_of(response) == ["Es wurde nichts wiederhergestellt."]
    assert Evening.objects.count() == 1 and not list(backup_pending())


@pytest.mark.parametrize(
    ("content", "name"),
    [
        (b"\x1f\x8b\x08\x00kaputt", "kaputt.json.gz"),
        (b'{"format": "bruus-turnier-backup", "version": 1, "scope": "evening", "data": {}', "halb.json"),
        (json.dumps({"hello": "world"}).encode(), "fremd.json"),
        (b"\x00\x01\x02\xff", "bild.png"),
    ],
)
def test_a_damaged_or_foreign_file_is_refused_with_the_command_line_message(
    organiser_client, drawn_roster, content, name
):
    with pytest.raises(backup.BackupError) as refused:
        backup.parse_backup(content)
    from django.utils import translation

    from scoring.web.messages import translate

    with translation.override("de"):
        expected = translate(refused.value)
    counts = (Evening.objects.count(), Player.objects.count(), Deal.objects.count())
    response = organiser_client.post(reverse("organiser:backup_restore"), {"file": _upload(content, name)}, follow=True)
    assert messages_of(response) == [expected]
    assert (Evening.objects.count(), Player.objects.count(), Deal.objects.count()) == counts
    assert not list(backup_pending())


def test_restore_without_a_file_says_what_to_do(organiser_client, db):
    response = organiser_client.post(reverse("organiser:backup_restore"), {}, follow=True)
    assert messages_of(response) == ["Bitte wählen Sie eine Sicherungsdatei (.json oder .json.gz)."]


def test_backup_page_lists_the_evenings_and_is_linked(organiser_client, drawn_roster):
    content = organiser_client.get(reverse("organiser:backups")).content.decode()
    assert reverse("organiser:backup_all") in content
    assert reverse("organiser:backup_evening", args=[drawn_roster.pk]) in content
    assert 'enctype="multipart/form-data"' in content
    for page, args in (("evening_list", []), ("evening_detail", [drawn_roster.pk])):
        assert (
            reverse("organiser:backups")
            in organiser_client.get(reverse(f"organiser:{page}", args=args)).content.decode()
        )


def _upload(content: bytes, name: str):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile(name, content)


def backup_pending():
    from scoring.views.backups import pending_dir

    return pending_dir().glob("*") if pending_dir().exists() else iter(())


@pytest.mark.parametrize(
    ("name", "args", "query"),
    [
        ("results_html", [], ""),
        ("certificates_pdf", [], "?plaetze=3"),
        ("prize_list_pdf", [], "?plaetze=5"),
        ("session_print_pdf", [1], ""),
    ],
)
@pytest.mark.no_cover  # the pages' code at two field sizes: measured by the pages' own tests (tests/conftest.py)
def test_queries_do_not_grow_with_the_field(organiser_client, name, args, query):
    """The same number of queries for 8 players as for 24 (a fixed number per session)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tests.conftest import make_evening

    counts = []
    for players in (8, 24):
        evening = make_evening(players, name=f"Abend {players}")
        services.draw_session(evening=evening, seed=2)
        for seating in seatings(evening)[:3]:
            factories.enter_deals(seating, [("A", False, 0, 0), ("B", True, 1, 0)], table=None)
        url = reverse(f"organiser:{name}", args=[evening.pk, *args]) + query
        organiser_client.get(url)  # caches warmed
        with CaptureQueriesContext(connection) as queries:
            response = organiser_client.get(url)
            assert response.status_code == 200
            if response.streaming:
                b"".join(response.streaming_content)
        counts.append(len(queries))
    assert counts[0] == counts[1], counts
