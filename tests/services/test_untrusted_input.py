"""Nothing claimed that did not happen: an idempotency key is bound to what it was
first sent with, the version is required, numbers from requests are ASCII digits only, a form
with two answers for one field is refused."""

from __future__ import annotations

import re
import uuid

import pytest
from django.test import Client
from django.urls import reverse

from scoring import services
from scoring.models import Deal, DealChange, Seating

SUPERSCRIPT_TWO = "²"  # "²".isdigit() is True, int("²") raises ValueError


@pytest.fixture
def seating(drawn_roster_evening) -> Seating:
    """Table 1, session 1, round 1 of the roster evening (drawn with seed 1)."""
    return Seating.objects.select_related("table", "round__session__evening").get(
        table__evening=drawn_roster_evening, table__number=1, round__number=1
    )


def deal_url(seating, number=1):
    return reverse("scorer:deal", args=[seating.table.token, number])


def post(client, seating, number=1, htmx=False, **fields):
    data = {"seating": seating.pk, "winner": "A", "bonus_a": 0, "bonus_b": 0, "version": 0}
    data.update(fields)
    data = {k: v for k, v in data.items() if v is not None}
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(deal_url(seating, number), data, **headers)


def flashed(client, response) -> str:
    """The messages shown after a redirect (the page without JavaScript)."""
    assert response.status_code == 302
    return " ".join(str(m) for m in client.get(response["Location"]).context["messages"])


# --- 1. The key is bound to its content ------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("htmx", [True, False])
def test_the_same_key_with_other_content_is_a_conflict_naming_what_is_stored(client, seating, htmx):
    key = str(uuid.uuid4())
    assert post(client, seating, key=key, winner="B").status_code == 302
    client.get(reverse("scorer:table", args=[seating.table.token]))  # read the "saved" message
    # The Back button restores the old form with its key; the scorer changes the entry.
    response = post(client, seating, key=key, winner="A", bonus_a=2, htmx=htmx)
    text = response.content.decode() if htmx else flashed(client, response)
    if htmx:
        assert response.status_code == 409
    assert "gespeichert" not in text
    assert "Spiel 1 lautet: Team B hat gewonnen, 0:1" in text
    deal = Deal.objects.get(seating=seating, number=1)
    assert (deal.winner, deal.bonus_a, deal.points_a, deal.points_b) == ("B", 0, 0, 1)
    assert DealChange.objects.count() == 1


@pytest.mark.django_db
def test_the_same_key_and_content_again_is_saved_once_and_says_so(client, seating):
    key = str(uuid.uuid4())
    post(client, seating, key=key, winner="B")
    response = post(client, seating, key=key, winner="B", htmx=True)
    assert response.status_code == 200 and "Spiel 1 gespeichert" in response.content.decode()
    assert DealChange.objects.count() == 1


@pytest.mark.django_db
def test_a_replay_of_a_form_corrected_since_does_not_say_saved(client, seating):
    key = str(uuid.uuid4())
    post(client, seating, key=key, winner="A", htmx=True)
    post(client, seating, key=str(uuid.uuid4()), winner="B", version=1, htmx=True)
    response = post(client, seating, key=key, winner="A", htmx=True)
    page = response.content.decode()
    assert response.status_code == 409 and "gespeichert." not in page
    assert "inzwischen geändert" in page and "Team B hat gewonnen, 0:1" in page
    assert Deal.objects.get().winner == "B" and DealChange.objects.count() == 2


# --- 2. The version is required ------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("version", [None, ""])
def test_a_deal_post_without_version_does_not_overwrite(client, seating, version):
    post(client, seating, key=str(uuid.uuid4()), winner="A")
    response = post(client, seating, key=str(uuid.uuid4()), winner="B", bonus_b=1, version=version, htmx=True)
    assert response.status_code == 422
    assert "Formular ist veraltet" in response.content.decode()
    deal = Deal.objects.get()
    assert (deal.winner, deal.points_a, deal.points_b, deal.version) == ("A", 1, 0, 1)


# --- 3. No number parsed by hand -----------------------------------------------------------------


@pytest.mark.django_db
def test_superscript_digits_are_no_server_error_anywhere(client, organiser, seating):
    evening = seating.round.session.evening
    token = seating.table.token
    anonymous = [
        ("get", reverse("public:ranking_screen", args=[evening.pk]), {"top": SUPERSCRIPT_TWO}),
        ("get", reverse("scorer:table", args=[token]), {"deal": SUPERSCRIPT_TWO}),
        ("post", reverse("scorer:finish", args=[token]), {"seating": SUPERSCRIPT_TWO, "team": "A"}),
        ("post", reverse("scorer:confirm", args=[token]), {"seating": SUPERSCRIPT_TWO, "team": "B"}),
        ("post", reverse("scorer:reopen", args=[token]), {"seating": SUPERSCRIPT_TWO}),
    ]
    organiser_client = Client()
    organiser_client.force_login(organiser)
    organiser_requests = [
        ("get", reverse("organiser:live", args=[evening.pk]), {"durchgang": SUPERSCRIPT_TWO}),
        ("get", reverse("organiser:seating_detail", args=[seating.pk]), {"deal": SUPERSCRIPT_TWO}),
        ("get", reverse("organiser:player_import"), {"evening": SUPERSCRIPT_TWO}),
        ("post", reverse("organiser:session_draw", args=[evening.pk]), {"number": SUPERSCRIPT_TWO}),
        (
            "post",
            reverse("organiser:seating_detail", args=[seating.pk]),
            {"number": SUPERSCRIPT_TWO, "seating": seating.pk, "winner": "A", "bonus_a": 0, "bonus_b": 0, "version": 0},
        ),
        ("post", reverse("organiser:exclusion_add", args=[evening.pk]), {"player_a": "١", "player_b": "٢"}),
    ]
    for who, requests in ((client, anonymous), (organiser_client, organiser_requests)):
        for method, url, data in requests:
            response = getattr(who, method)(url, data)
            assert response.status_code < 500, (method, url, data)
    assert not Deal.objects.exists()
    assert evening.sessions.count() == 1  # "number=²" drew nothing more


@pytest.mark.django_db
def test_a_superscript_deal_number_on_the_tablet_says_there_is_no_such_deal(client, seating):
    response = client.get(reverse("scorer:table", args=[seating.table.token]), {"deal": SUPERSCRIPT_TWO})
    assert response.status_code == 200
    assert any("Es gibt kein Spiel ²" in str(m) for m in response.context["messages"])


# --- 4. Two answers for one field ----------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("field, values", [("winner", ["A", "B"]), ("bonus_a", ["0", "1"]), ("version", ["0", "0"])])
def test_two_values_for_one_field_are_refused(client, seating, field, values):
    data = {
        "seating": seating.pk,
        "winner": "A",
        "bonus_a": 0,
        "bonus_b": 0,
        "version": 0,
        "key": str(uuid.uuid4()),
        field: values,
    }
    response = client.post(deal_url(seating), data, HTTP_HX_REQUEST="true")
    assert response.status_code == 422
    assert "mit zwei Antworten" in response.content.decode()
    assert not Deal.objects.exists()


# --- 10. Headers and names ----------------------------------------------------------------------


@pytest.mark.django_db
def test_every_page_has_a_content_security_policy_without_inline_script(client, organiser_client, seating):
    for who, url in (
        (client, reverse("public:home")),
        (client, reverse("scorer:table", args=[seating.table.token])),
        (organiser_client, reverse("organiser:evening_detail", args=[seating.table.evening_id])),
    ):
        response = who.get(url)
        policy = response["Content-Security-Policy"]
        assert "script-src 'self';" in policy and "'unsafe-inline'" not in policy and "unsafe-eval" not in policy
        page = response.content.decode()
        assert " onsubmit=" not in page and " onclick=" not in page and "<script>" not in page
        assert not re.search(r"<script(?![^>]*\bsrc=)", page), url  # every script is a file


BIDI = ["\u202e", "\u202d", "\u2066", "\u2067", "\u2068", "\u2069", "\u200f", "\u061c"]


def _refused_everywhere(client, char: str, said: str) -> services.ServiceError:
    """Post ``char`` in a player's name, a club and an evening's name: each page says ``said`` and
    nothing is saved; returns the error of the service itself for a name with ``char``."""
    from scoring.models import Evening, Player

    response = client.post(reverse("organiser:player_list"), {"name": f"Hans{char}Hansen", "club": ""})
    assert response.status_code == 200 and said in response.content.decode()
    response = client.post(reverse("organiser:player_list"), {"name": "Hans", "club": f"Hu{char}sum"})
    assert said in response.content.decode()
    evening = {"name": f"Abend{char}Nord", "date": "2026-11-21", "venue": "", "sessions_count": 3}
    evening |= {"rounds_per_session": 4, "deals_per_round": 4}
    response = client.post(reverse("organiser:evening_create"), evening)
    assert response.status_code == 200 and said in response.content.decode()
    assert not Player.objects.exists() and not Evening.objects.exists()
    with pytest.raises(services.ServiceError) as error:
        services.add_player(name=f"Gönke{char}", club="")
    return error.value


@pytest.mark.django_db
@pytest.mark.parametrize("char", BIDI)
def test_bidi_controls_are_refused_in_names_and_clubs(organiser_client, char):
    assert _refused_everywhere(organiser_client, char, "Schreibrichtung").code == "bidi_control"


def test_bidi_controls_are_refused_in_an_imported_list():
    from scoring.transfer.player_files import parse_player_file

    parsed = parse_player_file("Name;Verein\nGönke Hansen;Husum\nBoy\u202eJensen;Husum\n".encode(), "x.csv")
    assert [p.name for p in parsed.players] == ["Gönke Hansen"]
    assert [(p.line, p.code) for p in parsed.problems] == [(3, "bidi_control")]
    assert "U+202E" in str(parsed.problems[0])


# Characters that show nothing (Unicode's format characters, category Cf):
# zero-width space, non-joiner, joiner, word joiner, invisible operators, byte order mark, soft
# hyphen, Mongolian vowel separator, a tag character; a control character; and the blank
# letters outside Cf (Hangul fillers, combining grapheme joiner, a variation selector, the blank
# Braille pattern).
INVISIBLE = [
    "\u200b",
    "\u200c",
    "\u200d",
    "\u2060",
    "\u2061",
    "\u2064",
    "\ufeff",
    "\u00ad",
    "\u180e",
    "\U000e0041",
    "\x07",
    "\u3164",
    "\u115f",
    "\u034f",
    "\ufe0f",
    "\u2800",
    "\u2028",  # the line and paragraph separators
    "\u2029",
]


@pytest.mark.django_db
@pytest.mark.parametrize("char", INVISIBLE)
def test_invisible_characters_are_refused_in_names_clubs_and_evening_names(organiser_client, char):
    error = _refused_everywhere(organiser_client, char, f"unsichtbares Zeichen (U+{ord(char):04X})")
    assert error.code == "invisible_character" and error.params["character"] == f"{ord(char):04X}"


@pytest.mark.django_db
def test_visible_names_stay_welcome():
    for name, club in (("Søren Ærø-Hansen", "Nordfriesland"), ("Jan de Vries", ""), ("O'Neill, Máire", "Husum")):
        player, created = services.add_player(name=name, club=club)
        assert created and player.name == name


def test_invisible_characters_are_refused_in_an_imported_list():
    from scoring.transfer.player_files import parse_player_file

    text = "Name;Verein\nGönke Hansen;Husum\nBoy\u200bJensen;Husum\nSönke Pe\u00adtersen;Husum\n"
    parsed = parse_player_file(text.encode(), "x.csv")
    assert [p.name for p in parsed.players] == ["Gönke Hansen"]
    assert [(p.line, p.code) for p in parsed.problems] == [(3, "invisible_character"), (4, "invisible_character")]
    assert "U+200B" in str(parsed.problems[0]) and "U+00AD" in str(parsed.problems[1])
