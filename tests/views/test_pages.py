"""Organiser and scorer pages: what users see, bad input answered with a message, never a 500."""

from __future__ import annotations

import io

import openpyxl
import pytest
from django.urls import reverse

from scoring import services
from scoring.models import Deal, Evening, Participant, Player, Seating, Session
from tests import factories
from tests.conftest import ROSTER, make_evening


def first_seating(evening):
    return (
        Seating.objects.filter(round__session__evening=evening)
        .select_related("table")
        .order_by("round__number", "table__number")
        .first()
    )


@pytest.mark.django_db
def test_organiser_pages_need_a_login(client, roster_evening):
    response = client.get(reverse("organiser:evening_detail", args=[roster_evening.pk]))
    assert response.status_code == 302 and "/anmelden/" in response["Location"]


@pytest.mark.django_db
def test_create_evening_with_default_format(organiser_client):
    response = organiser_client.post(
        reverse("organiser:evening_create"),
        {
            "name": "Herbstturnier",
            "date": "2026-11-21",
            "venue": "Treia",
            "sessions_count": 3,
            "rounds_per_session": 4,
            "deals_per_round": 4,
        },
    )
    assert response.status_code == 302
    evening = Evening.objects.get(name="Herbstturnier")
    assert (evening.sessions_count, evening.rounds_per_session, evening.deals_per_round) == (3, 4, 4)


@pytest.mark.django_db
def test_create_evening_bad_input_shows_errors(organiser_client):
    response = organiser_client.post(
        reverse("organiser:evening_create"), {"name": "", "date": "kein Datum", "sessions_count": 0}
    )
    assert response.status_code == 200
    assert response.context["form"].errors
    assert not Evening.objects.exists()


@pytest.mark.django_db
def test_check_in_and_out(organiser_client, roster_evening):
    player = Player.objects.get(name="Tom Whitfield")
    url = reverse("organiser:check_in", args=[roster_evening.pk, player.pk])
    organiser_client.post(url, {"present": "0"})
    assert not Participant.objects.get(evening=roster_evening, player=player).checked_in
    organiser_client.post(url, {"present": "1"})
    assert Participant.objects.get(evening=roster_evening, player=player).checked_in


@pytest.mark.django_db
def test_names_with_markup_and_quotes_are_shown_literally(organiser_client, client):
    evening = make_evening(3)
    organiser_client.post(
        reverse("organiser:evening_players", args=[evening.pk]),
        {"name": '<script>alert(1)</script> "Jan" O\'Neill', "club": "<b>Treia</b>"},
    )
    page = organiser_client.get(reverse("organiser:evening_players", args=[evening.pk])).content.decode()
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &quot;Jan&quot; O&#x27;Neill" in page
    services.draw_session(evening=evening, seed=1)
    seating = first_seating(evening)
    table_page = client.get(reverse("scorer:table", args=[seating.table.token])).content.decode()
    assert "<script>alert(1)</script>" not in table_page


@pytest.mark.django_db
def test_draw_page_flow_and_second_draw_refused(organiser_client, roster_evening):
    url = reverse("organiser:session_draw", args=[roster_evening.pk])
    response = organiser_client.post(url, follow=True)
    assert response.status_code == 200
    session = Session.objects.get(evening=roster_evening)
    assert str(session.seed) in response.content.decode()
    response = organiser_client.post(url, follow=True)
    assert response.status_code == 200
    assert Session.objects.filter(evening=roster_evening).count() == 1
    messages = [str(m) for m in response.context["messages"]]
    assert any("1" in m for m in messages)


@pytest.mark.django_db
def test_table_list_shows_tables_and_sit_outs(organiser_client, roster_evening):
    session = services.draw_session(evening=roster_evening, seed=8)
    page = organiser_client.get(reverse("organiser:session_detail", args=[roster_evening.pk, 1])).content.decode()
    for round_ in session.rounds.all():
        assert round_.sitout_partnership.player_1.name in page
    missing = organiser_client.get(reverse("organiser:session_detail", args=[roster_evening.pk, 3]))
    assert missing.status_code == 302


@pytest.mark.django_db
def test_unknown_and_mistyped_table_links_get_a_friendly_404(client, roster_evening):
    services.draw_session(evening=roster_evening, seed=1)
    token = first_seating(roster_evening).table.token
    for url in ("/t/gibt-es-nicht/", f"/t/{token[:-1]}/", f"/t/{token}x/spiel/1/", "/t/%3Cscript%3E/"):
        response = client.get(url) if "spiel" not in url else client.post(url, {})
        assert response.status_code == 404, url
        assert "Tisch-Link" in response.content.decode() or "table link" in response.content.decode()


@pytest.mark.django_db
def test_scorer_bad_input_changes_nothing(client, roster_evening):
    services.draw_session(evening=roster_evening, seed=1)
    seating = first_seating(roster_evening)
    base = reverse("scorer:deal", args=[seating.table.token, 1])
    # No team chosen, garbage bonus, impossible pair, foreign seating, deal number out of range.
    bad_posts = [
        (base, {"seating": seating.pk}),
        (base, {"seating": seating.pk, "winner": "C", "bonus_a": "x", "bonus_b": "0"}),
        (base, {"seating": seating.pk, "winner": "A", "bonus_a": "2", "bonus_b": "2"}),
        (base, {"seating": seating.pk + 1, "winner": "A", "bonus_a": "0", "bonus_b": "0"}),
        (
            reverse("scorer:deal", args=[seating.table.token, 9]),
            {"seating": seating.pk, "winner": "A", "bonus_a": "0", "bonus_b": "0"},
        ),
    ]
    for url, data in bad_posts:
        response = client.post(url, data, follow=True)
        assert response.status_code in (200, 422)
        page = response.content.decode()
        assert 'class="errorlist' in page or 'class="msg error"' in page, data
    assert not Deal.objects.exists()
    response = client.get(reverse("scorer:table", args=[seating.table.token]) + "?deal=77")
    assert response.status_code == 200 and 'class="msg error"' in response.content.decode()


@pytest.mark.django_db
def test_scorer_round_flow_shows_where_to_sit_next(client, roster_evening):
    services.draw_session(evening=roster_evening, seed=1)
    seating = first_seating(roster_evening)
    token = seating.table.token
    for n in range(1, 5):
        client.post(
            reverse("scorer:deal", args=[token, n]),
            {"seating": seating.pk, "winner": "A", "to_nil": "on", "bonus_a": "1", "bonus_b": "0", "version": 0},
        )
    page = client.get(reverse("scorer:table", args=[token])).content.decode()
    assert 'data-testid="total-a">12<' in page and 'data-testid="total-b">0<' in page
    # The scorer (team A) finishes the round, the other team confirms it: only then is it final.
    client.post(reverse("scorer:finish", args=[token]), {"seating": seating.pk, "team": "A"})
    page = client.get(reverse("scorer:table", args=[token])).content.decode()
    assert 'class="next-seats"' not in page and 'data-testid="confirm-button"' in page
    client.post(reverse("scorer:confirm", args=[token]), {"seating": seating.pk, "team": "B"})
    page = client.get(reverse("scorer:table", args=[token])).content.decode()
    assert 'class="next-seats"' in page
    for player in (seating.team_a.player_1, seating.team_b.player_2):
        assert player.name in page
    # After finishing, the tablet cannot change the round any more.
    client.post(
        reverse("scorer:deal", args=[token, 1]),
        {"seating": seating.pk, "winner": "B", "bonus_a": "0", "bonus_b": "0", "version": 1},
    )
    assert Deal.objects.get(seating=seating, number=1).winner == "A"


@pytest.mark.django_db
def test_import_preview_then_confirm(organiser_client, roster_evening):
    Player.objects.filter(name="Tom Whitfield").update(club="England")
    content = "Name;Verein\nTom Whitfield;England\nNeue Spielerin;Husum\n;Husum\nNeue Spielerin;Husum\n".encode(
        "cp1252"
    )
    url = reverse("organiser:player_import") + f"?evening={roster_evening.pk}"
    upload = io.BytesIO(content)
    upload.name = "liste.csv"
    response = organiser_client.post(url, {"file": upload, "evening": roster_evening.pk})
    page = response.content.decode()
    assert response.status_code == 200
    assert "Neue Spielerin" in page
    assert len(response.context["preview"].problems) == 2  # empty name (line 4), duplicate (line 5)
    assert not Player.objects.filter(name="Neue Spielerin").exists(), "nothing saved before confirming"
    response = organiser_client.post(url, {"confirm": "1", "evening": roster_evening.pk})
    assert response.status_code == 302
    assert Player.objects.filter(name="Neue Spielerin").count() == 1
    assert Player.objects.filter(name="Tom Whitfield").count() == 1
    assert Participant.objects.get(player__name="Neue Spielerin").checked_in


@pytest.mark.django_db
def test_import_confirmed_without_a_preview_asks_for_the_file_again(organiser_client):
    """The preview lives in the login's session: "Übernehmen" after it was used (a second tap, the
    back button) or without one saves nothing and says what to do."""
    url = reverse("organiser:player_import")
    response = organiser_client.post(url, {"confirm": "1"}, follow=True)
    assert "Die Vorschau ist abgelaufen. Bitte laden Sie die Datei noch einmal hoch." in response.content.decode()
    assert not Player.objects.exists()


@pytest.mark.django_db
def test_import_xlsx_and_bad_files(organiser_client):
    workbook = openpyxl.Workbook()
    workbook.active.append(["Vorname", "Nachname", "Ort"])
    workbook.active.append(["Hauke", "Petersen", "Schwesing"])
    buffer = io.BytesIO()
    workbook.save(buffer)
    buffer.seek(0)
    buffer.name = "spieler.xlsx"
    response = organiser_client.post(reverse("organiser:player_import"), {"file": buffer})
    assert [p.name for p, _ in response.context["preview"].rows] == ["Hauke Petersen"]
    for name, content in (
        ("liste.pdf", b"%PDF-1.4"),
        ("leer.csv", b""),
        ("kaputt.xlsx", b"PK\x03\x04kaputt"),
        ("binär.csv", bytes(range(256)) * 4),
    ):
        upload = io.BytesIO(content)
        upload.name = name
        response = organiser_client.post(reverse("organiser:player_import"), {"file": upload})
        assert response.status_code == 200, name
        assert response.context["form"].errors, name
    assert not Player.objects.exists()


@pytest.mark.django_db
def test_import_command(capsys):
    from django.core.management import call_command

    call_command("import_players", str(ROSTER))
    assert Player.objects.count() == 26
    call_command("import_players", str(ROSTER))
    assert Player.objects.count() == 26


def _ranking_queries(organiser_client, evening, django_assert_num_queries, expected):
    with django_assert_num_queries(expected):
        response = organiser_client.get(reverse("organiser:ranking", args=[evening.pk]))
    assert response.status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize("players", [24, 60])
@pytest.mark.no_cover  # the pages' code at two field sizes: measured by the pages' own tests (tests/conftest.py)
def test_ranking_page_query_count_does_not_grow_with_players(organiser_client, django_assert_num_queries, players):
    evening = make_evening(players)
    services.draw_session(evening=evening, seed=1)
    # The evening with its version (ETag, read once for the page too) + ranking selector (5) +
    # sessions drawn ("–" for the others) + completeness (the login and its permissions: a copy in
    # files, scoring.web.caches and scoring.hall.auth_backends); then again with the rows from the
    # shared cache (files, no query): 2.
    _ranking_queries(organiser_client, evening, django_assert_num_queries, 8)
    _ranking_queries(organiser_client, evening, django_assert_num_queries, 2)


@pytest.mark.django_db
def test_ranking_page_and_csv(organiser_client, roster_evening):
    services.draw_session(evening=roster_evening, seed=1)
    response = organiser_client.get(reverse("organiser:ranking", args=[roster_evening.pk]) + "?sort=-total")
    assert response.status_code == 200
    assert "Tom Whitfield" in response.content.decode()
    csv = organiser_client.get(reverse("organiser:ranking", args=[roster_evening.pk]) + "?_export=csv")
    assert csv["Content-Type"].startswith("text/csv")
    assert csv.content.decode("utf-8-sig").count("\n") >= 27


def _count_queries(client, url):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as context:
        assert client.get(url).status_code == 200
    return len(context.captured_queries)


@pytest.mark.django_db
@pytest.mark.no_cover  # the pages' code at two field sizes: measured by the pages' own tests (tests/conftest.py)
def test_page_query_counts_do_not_grow_with_players(organiser_client, client):
    """Evening page, table list and scorer page run the same number of queries for 24 and 60 players."""
    counts = []
    for players in (24, 60):
        evening = make_evening(players, name=f"Abend {players}")
        services.draw_session(evening=evening, seed=1)
        seating = first_seating(evening)
        for n in range(1, 5):
            factories.enter_deal(seating, n)
        services.enter_and_confirm_seating(seating_id=seating.pk, table=seating.table)
        counts.append(
            (
                _count_queries(organiser_client, reverse("organiser:evening_detail", args=[evening.pk])),
                _count_queries(organiser_client, reverse("organiser:session_detail", args=[evening.pk, 1])),
                _count_queries(client, reverse("scorer:table", args=[seating.table.token])),
            )
        )
    assert counts[0] == counts[1]


@pytest.mark.django_db
def test_german_by_default_english_switchable(client):
    page = client.get(reverse("public:help")).content.decode()
    assert "Durchgang" in page and 'lang="de"' in page
    response = client.post(reverse("set_language"), {"language": "en", "next": reverse("public:help")})
    assert response.status_code == 302
    page = client.get(reverse("public:help")).content.decode()
    assert 'lang="en"' in page and "Running an evening" in page


@pytest.mark.django_db
def test_an_evening_reads_as_its_name():
    """Where Django shows an evening as text (the admin's lists), it reads as its name."""
    evening = make_evening(4, name="Schwesinger Bruus-Abend")
    assert str(evening) == "Schwesinger Bruus-Abend"


@pytest.mark.django_db
def test_a_player_added_at_the_register_is_added_once(organiser_client):
    """The register's form adds a new player and says so; the same name and club again (in other
    letter case) adds nobody and says the player is already there."""
    url = reverse("organiser:player_list")
    response = organiser_client.post(url, {"name": "Gönke Hanssen", "club": "Schwesing"}, follow=True)
    assert "Gönke Hanssen hinzugefügt." in response.content.decode()
    response = organiser_client.post(url, {"name": "gönke hanssen", "club": "SCHWESING"}, follow=True)
    assert "ist schon im Spielerverzeichnis." in response.content.decode()
    assert list(Player.objects.values_list("name", "club")) == [("Gönke Hanssen", "Schwesing")]


@pytest.mark.django_db
def test_player_register_search_and_correction(organiser_client):
    gonke, _ = services.add_player(name="Gönke Hanssen", club="Schwesing")
    services.add_player(name="Hauke Petersen", club="Treia")
    page = organiser_client.get(reverse("organiser:player_list") + "?q=gönke").content.decode()
    assert "Gönke Hanssen" in page and "Hauke Petersen" not in page
    url = reverse("organiser:player_edit", args=[gonke.pk])
    response = organiser_client.post(url, {"name": "Gönke Hansen", "club": "Schwesing"})
    assert response.status_code == 302
    gonke.refresh_from_db()
    assert gonke.name == "Gönke Hansen"
    # Another player's name and club, or an empty name: refused with a message, nothing changed.
    for data in ({"name": "hauke petersen", "club": "TREIA"}, {"name": "  ", "club": ""}):
        response = organiser_client.post(url, data)
        assert response.status_code == 200 and response.context["form"].errors
    gonke.refresh_from_db()
    assert (gonke.name, gonke.club) == ("Gönke Hansen", "Schwesing")
    assert organiser_client.get(reverse("organiser:player_edit", args=[9999])).status_code == 404


@pytest.mark.django_db
def test_check_in_page_search_keeps_the_filter(organiser_client, roster_evening):
    url = reverse("organiser:evening_players", args=[roster_evening.pk])
    page = organiser_client.get(url + "?q=ohrstedt").content.decode()
    shown = {
        name
        for name in Player.objects.values_list("name", flat=True)
        if f'id="p{Player.objects.get(name=name).pk}"' in page
    }
    assert shown == {
        "Jürgen Lützen",
        "Dörte Boysen",
        "Sönke Andresen",
        "Wiebke Matthiesen",
        "Uwe Christiansen",
        "Knut Lorenzen",
        "Heike Nissen",
    }
    player = Player.objects.get(name="Knut Lorenzen")
    response = organiser_client.post(
        reverse("organiser:check_in", args=[roster_evening.pk, player.pk]), {"present": "0", "q": "ohrstedt"}
    )
    assert response["Location"].endswith(f"?q=ohrstedt#p{player.pk}")
    assert not Participant.objects.get(evening=roster_evening, player=player).checked_in


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "advice", "error"),
    [
        ("da", "fx Navn og Klub eller Fornavn og Efternavn", "»Navn« (eller »Spiller«)"),
        ("sv", "t.ex. Namn och Klubb, eller Förnamn och Efternamn", "»Namn« (eller »Spelare«)"),
        ("en", "e.g. Name and Club, or First name and Last name", "“Name” (or “Player”)"),
    ],
)
def test_the_import_page_names_the_headings_in_its_language(organiser_client, language, advice, error):
    """A Danish or Swedish club reads its own headings on the page and in the refusal, and
    its list with those headings imports."""
    url = reverse("organiser:player_import")
    assert advice in organiser_client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    upload = io.BytesIO(b"X;Y\n1;2\n")
    upload.name = "liste.csv"
    page = organiser_client.post(url, {"file": upload}, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert error in page.replace("&quot;", '"')
    heading = {"da": "Fornavn;Efternavn;Klub", "sv": "Förnamn;Efternamn;Klubb", "en": "First name;Last name;Club"}
    upload = io.BytesIO(f"{heading[language]}\nJens;Hansen;Bjolderup\n".encode())
    upload.name = "liste.csv"
    response = organiser_client.post(url, {"file": upload}, HTTP_ACCEPT_LANGUAGE=language)
    assert [(p.name, p.club) for p, _ in response.context["preview"].rows] == [("Jens Hansen", "Bjolderup")]
