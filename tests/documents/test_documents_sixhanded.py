"""Printed documents of a six-handed Bräus evening (teams of three, tables of six): the table list,
route cards and score sheets show three names a team, both partners of every player, every
player who sits out the whole session (up to two) and the round's sit-out team of three; the
score sheet numbers the seats round the table, partners alternating (A1 B1 A2 B2 A3 B3,
*Bräus* (Gotland)).

The session is written straight into the database (``tests/six_handed.py``); the documents are
fetched through their organiser URLs and read back with pypdf. Every expectation is computed
here from the database rows.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring import services
from scoring.models import Round
from tests import factories
from tests.conftest import make_evening
from tests.documents.test_documents import alphabetical, get_pdf, lines_of, seatings, squeeze
from tests.six_handed import draw_six_handed, session_sitters, team_names


def six_handed_evening(players: int):
    evening = make_evening(players, rule_set="braeus6", name="Bräus")
    session = draw_six_handed(evening, seed=players)
    return evening, session


def seat_map(evening):
    """player name -> {round: table number or None}, and player name -> partners' names."""
    where: dict[str, dict[int, int | None]] = {}
    partners: dict[str, list[str]] = {}
    for seating in seatings(evening):
        for team in (seating.team_a, seating.team_b):
            names = team_names(team)
            for name in names:
                where.setdefault(name, {})[seating.round.number] = seating.table.number
                partners[name] = [n for n in names if n != name]
    for round_ in Round.objects.filter(session__evening=evening).select_related(
        "sitout_partnership__player_1", "sitout_partnership__player_2", "sitout_partnership__player_3"
    ):
        if round_.sitout_partnership:
            for name in team_names(round_.sitout_partnership):
                where.setdefault(name, {})[round_.number] = None
    return where, partners


@pytest.mark.django_db
@pytest.mark.parametrize("players", [23, 31])
def test_table_list_shows_teams_of_three_and_every_sit_out(organiser_client, players):
    """23 players: seven teams of three (one sits out each round) and two players out for the
    session; 31: ten teams at five tables and one player out."""
    evening, session = six_handed_evening(players)
    sitters = [p.name for p in session_sitters(session)]
    assert len(sitters) == players % 3
    _, _, pages, _ = get_pdf(organiser_client, "table_list_pdf", evening.pk, 1)
    for round_ in Round.objects.filter(session=session).order_by("number"):
        heading = f"Tischliste · Durchgang 1 · Runde {round_.number}\n"
        page = next(p for p in pages if heading in p)
        # Several rounds may share a page: this round's part of it.
        page = page.split(heading, 1)[1].split("Tischliste · Durchgang 1 · Runde", 1)[0]
        lines = lines_of(page)
        for seating in seatings(evening):
            if seating.round_id != round_.pk:
                continue
            a, b = team_names(seating.team_a), team_names(seating.team_b)
            assert len(a) == len(b) == 3
            start = lines.index(str(seating.table.number))
            assert lines[start + 1 : start + 7] == a + b  # table number, then three names a team
        if round_.sitout_partnership:
            assert "Setzt aus: " + " & ".join(team_names(round_.sitout_partnership)) in page
        if len(sitters) == 2:
            assert f"{sitters[0]} & {sitters[1]} setzen den ganzen Durchgang aus." in squeeze_lines(page)
        elif sitters:
            assert f"{sitters[0]} setzt den ganzen Durchgang aus." in page

    where, partners = seat_map(evening)
    players_page = next(i for i, page in enumerate(pages) if "Spieler von A bis Z" in page)
    body = "".join(squeeze(page).split("TischlisteDurchgang1–", 1)[0] for page in pages[players_page:])
    expected = ""
    for name in alphabetical(list(where) + sitters):
        rounds = where.get(name, {})
        tables = [str(rounds[r]) if rounds.get(r) else "setzt aus" for r in range(1, 5)]
        expected += squeeze(name + "".join(partners.get(name, ["–"])) + "".join(tables))
    # The heading is on every page of the list.
    body = body.replace("NamePartnerRunde1Runde2Runde3Runde4", "").replace("SpielervonAbisZ·Durchgang1", "")
    start = body.index(squeeze(alphabetical(list(where) + sitters)[0]))
    assert body[start : start + len(expected)] == expected


def squeeze_lines(page: str) -> str:
    """The page's text with line breaks inside a paragraph turned into spaces."""
    return " ".join(lines_of(page))


@pytest.mark.django_db
def test_route_cards_name_both_partners_and_both_sit_out_players(organiser_client):
    evening, session = six_handed_evening(26)  # eight teams, two players out for the session
    sitters = [p.name for p in session_sitters(session)]
    assert len(sitters) == 2
    where, partners = seat_map(evening)
    _, _, pages, _ = get_pdf(organiser_client, "route_cards_pdf", evening.pk, 1)
    lines = [line for page in pages for line in lines_of(page)]
    cards = [i for i, line in enumerate(lines) if lines[i - 2 : i] == ["Laufzettel · Durchgang 1", "Bräus"]]
    assert [lines[i] for i in cards] == alphabetical(list(where) + sitters)
    for i in cards:
        name, rest = lines[i], lines[i + 1 : i + 12]
        if name in sitters:
            assert "Sie setzen den ganzen Durchgang aus." in rest
            assert all(rest[rest.index(f"Runde {r}") + 1] == "setzt aus" for r in range(1, 5))
            continue
        first, second = partners[name]
        assert f"Partner: {first} & {second}" in rest
        for r in range(1, 5):
            table = where[name][r]
            assert rest[rest.index(f"Runde {r}") + 1] == (f"Tisch {table}" if table else "setzt aus")


@pytest.mark.django_db
@pytest.mark.parametrize("filled", [False, True])
def test_score_sheets_name_three_a_team_and_the_alternating_seat_order(organiser_client, filled):
    evening, _ = six_handed_evening(24)  # eight teams, four tables of six
    query = "" if filled else "?leer=1"
    _, _, pages, _ = get_pdf(organiser_client, "score_sheets_pdf", evening.pk, 1, query=query)
    text = "\n".join(pages)
    sheets = text.split("Spielzettel · Bräus · Bräus, sechs Spieler")[1:]
    expected = seatings(evening)
    assert len(sheets) == len(expected) == 4 * 4
    for sheet, seating in zip(sheets, expected, strict=True):
        a, b = team_names(seating.team_a), team_names(seating.team_b)
        lines = lines_of(sheet)
        assert lines[0] == f"Tisch {seating.table.number}"
        assert lines[1] == f"Durchgang 1 · Runde {seating.round.number}"
        flat = squeeze_lines(sheet)  # a long team line wraps
        # Seats numbered round the table, partners alternating: A1 B1 A2 B2 A3 B3.
        assert f"Team A: 1: {a[0]} · 3: {a[1]} · 5: {a[2]}" in flat
        assert f"Team B: 2: {b[0]} · 4: {b[1]} · 6: {b[2]}" in flat
        assert "Plätze 1 bis 6 reihum: Partner abwechselnd." in flat


@pytest.mark.django_db
def test_score_sheets_of_teams_of_two_have_no_seat_numbers(organiser_client):
    evening = make_evening(8)
    services.draw_session(evening=evening, seed=3)
    _, _, pages, _ = get_pdf(organiser_client, "score_sheets_pdf", evening.pk, 1)
    text = "\n".join(pages)
    assert "Plätze 1 bis" not in text and "1: Spieler" not in text
    for seating in seatings(evening):
        assert "Team A:\n" + " & ".join(team_names(seating.team_a)) in text


@pytest.mark.django_db
@pytest.mark.parametrize(("rule_set", "players"), [("braeus6", 24), ("braeus", 8)])
def test_braeus_score_sheets_have_no_bonus_column(organiser_client, rule_set, players):
    """Bräus scores no bonus matchsticks: no column headed "–" full of 0s. The rule set
    is asked (``has_bonus``), not its code compared."""
    evening = make_evening(players, rule_set=rule_set, name="Bräus")
    assert not evening.rules.has_bonus
    services.draw_session(evening=evening, seed=1)
    first = seatings(evening)[0]
    for number in range(1, evening.deals_per_round + 1):
        factories.enter_deal(first, number)
    _, _, pages, _ = get_pdf(organiser_client, "score_sheets_pdf", evening.pk, 1)
    sheet = lines_of(pages[0].split("Tisch 2")[0])
    assert "–" not in sheet, sheet
    assert sheet.count("Streichhölzer") == 2
    # Zeros: team B's matchsticks of each deal and its total; no bonus 0:0 beside them.
    assert sheet.count("0") == evening.deals_per_round + 1, sheet


@pytest.mark.django_db
def test_a_schwesing_score_sheet_keeps_its_bonus_column(organiser_client):
    evening = make_evening(8)
    services.draw_session(evening=evening, seed=1)
    _, _, pages, _ = get_pdf(organiser_client, "score_sheets_pdf", evening.pk, 1)
    assert squeeze("Wagen und Schlagen") in squeeze(pages[0])


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "word", "pair_word"), [("sv", "Lag om tre", "Par"), ("de", "Dreierteams", "Teams")]
)
def test_a_session_of_teams_of_three_is_headed_teams_of_three_not_pairs(client, organiser, language, word, pair_word):
    evening = make_evening(24, rule_set="braeus6", name="Bräus")
    draw_six_handed(evening)
    client.force_login(organiser)
    url = reverse("organiser:session_detail", args=[evening.pk, 1])
    html = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert f"<h2>{word}</h2>" in html and f"<h2>{pair_word}</h2>" not in html
    pairs = make_evening(8, name="Paare")
    services.draw_session(evening=pairs, seed=1)
    html = client.get(reverse("organiser:session_detail", args=[pairs.pk, 1]), HTTP_ACCEPT_LANGUAGE=language)
    assert f"<h2>{pair_word}</h2>" in html.content.decode()
