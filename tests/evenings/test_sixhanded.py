"""End to end, six-handed Bräus (rule set ``braeus6``): an evening of 26 and one of 31
players created, filled and drawn on the organiser's pages, every deal entered on the table pages
(drawn deals that do not use up a deal included), finished by one team and confirmed by the other
there. The ranking export is checked against totals this test computes itself (*Bräus*
(encyclopedia), "Scoring": 1 matchstick, Jan 2; docs/rules.md, "Bräus, six players": every
matchstick a team wins counts for each of its three players, a sit-out player gets the average of
the teams that played the round). Also: no two players in one team twice over the evening,
sit-outs rotate, the tablet names three players a team and tells all six where they sit next, the
organiser can record a draw."""

from __future__ import annotations

import csv
import io
import itertools
import random
import re
from collections import Counter, defaultdict
from fractions import Fraction

import pytest
from django.urls import reverse

from scoring import selectors, services
from scoring.models import DrawnDeal, Evening, Partnership, Round, Seating, Session
from scoring.services import ServiceError
from tests import factories
from tests.conftest import make_evening
from tests.evenings.test_schwesing import one_decimal
from tests.services.test_draw_wishes import play_round

SELECT = (
    "table",
    *(f"team_{t}__player_{n}" for t in "ab" for n in (1, 2, 3)),
)


def create_evening(organiser_client, players: int) -> Evening:
    """The evening made on the organiser's form with rule set braeus6, players added and checked
    in on the check-in page."""
    response = organiser_client.post(
        reverse("organiser:evening_create"),
        {
            "name": f"Bräus zu sechst {players}",
            "date": "2026-11-21",
            "rule_set": "braeus6",
            "language": "de",  # the German headings below (the form would suggest the rule set's)
            "sessions_count": 3,
            "rounds_per_session": 4,
            "deals_per_round": 4,
        },
    )
    assert response.status_code == 302
    evening = Evening.objects.get(name=f"Bräus zu sechst {players}")
    assert evening.rules.players_per_table == 6
    url = reverse("organiser:evening_players", args=[evening.pk])
    for n in range(1, players + 1):
        response = organiser_client.post(url, {"name": f"Spieler {n:02d}", "club": f"Verein {n % 4}"})
        assert response.status_code == 302, response.content.decode()[:300]
    assert selectors.checked_in_count(evening) == players
    return evening


def team_of(partnership: Partnership) -> tuple[str, ...]:
    return tuple(p.name for p in partnership.players)


def play_table(client, seating: Seating, rng: random.Random) -> tuple[int, int, int]:
    """Enter a round's four deals on the tablet (a draw before some deals), check the totals shown,
    finish as team A and confirm as team B; returns (total A, total B, draws)."""
    token = seating.table.token
    page = client.get(reverse("scorer:table", args=[token])).content.decode()
    for name in (*team_of(seating.team_a), *team_of(seating.team_b)):
        assert name in page
    assert 'value="draw"' in page and 'name="bonus_a"' not in page
    draws, total_a, total_b = 0, 0, 0
    for number in range(1, 5):
        while rng.random() < 0.2:  # nobody six tricks, nor five and the ♣K: dealt again
            data = {"seating": seating.pk, "winner": "draw", "version": 0}
            assert client.post(reverse("scorer:deal", args=[token, number]), data).status_code == 302
            draws += 1
        winner, jan = rng.choice("AB"), rng.random() < 0.15
        data = {"seating": seating.pk, "winner": winner, "version": 0} | ({"to_nil": "on"} if jan else {})
        response = client.post(reverse("scorer:deal", args=[token, number]), data)
        assert response.status_code == 302, response.content.decode()[:500]
        points = 2 if jan else 1
        total_a += points if winner == "A" else 0
        total_b += points if winner == "B" else 0
    page = client.get(reverse("scorer:table", args=[token])).content.decode()
    assert f'data-testid="total-a">{total_a}<' in page and f'data-testid="total-b">{total_b}<' in page
    assert client.post(reverse("scorer:finish", args=[token]), {"seating": seating.pk, "team": "A"}).status_code == 302
    page = client.get(reverse("scorer:table", args=[token])).content.decode()
    assert all(name in page for name in team_of(seating.team_b))  # team B is asked to confirm
    assert client.post(reverse("scorer:confirm", args=[token]), {"seating": seating.pk, "team": "B"}).status_code == 302
    seating.refresh_from_db()
    assert seating.confirmed_at is not None and seating.entered_by == "A"
    return total_a, total_b, draws


def check_next_seats(client, seating: Seating) -> None:
    """After the round, the tablet says where each of the six players sits next."""
    page = client.get(reverse("scorer:table", args=[seating.table.token])).content.decode()
    if "next-seats" not in page:  # the table plays on at once: nothing to show
        return
    section = page.split('class="next-seats"', 1)[1].split("</ul>", 1)[0]
    shown = re.findall(r"<strong>([^<]+)</strong>", section)
    assert sorted(shown) == sorted((*team_of(seating.team_a), *team_of(seating.team_b)))


@pytest.mark.parametrize("players", [26, 31])
@pytest.mark.no_cover  # end to end: every line it runs is measured by the tests of each part (tests/conftest.py)
def test_whole_sixhanded_evening(players, organiser_client, client, db):
    evening = create_evening(organiser_client, players)
    hint = {26: "setzen zwei Spieler aus. Mit 4 Ersatzspielern", 31: "setzt ein Spieler aus. Mit 5 Ersatzspielern"}
    page = organiser_client.get(reverse("organiser:evening_players", args=[evening.pk])).content.decode()
    assert hint[players] in page and "alle Sechsertische voll" in page
    rng = random.Random(players)
    expected: dict[str, list[Fraction]] = defaultdict(lambda: [Fraction(0)] * 3)
    teammates: Counter[frozenset[str]] = Counter()
    sat_out: Counter[str] = Counter()
    draws = 0
    for session_number in (1, 2, 3):
        response = organiser_client.post(
            reverse("organiser:session_draw", args=[evening.pk]), {"number": session_number}
        )
        assert response.status_code == 302
        session = Session.objects.select_related("sitout_player", "sitout_player_2").get(
            evening=evening, number=session_number
        )
        sitters = [p.name for p in (session.sitout_player, session.sitout_player_2) if p is not None]
        assert len(sitters) == players % 3  # 26: two, 31: one sit out the whole session
        teams = [
            team_of(p)
            for p in Partnership.objects.filter(session=session).select_related("player_1", "player_2", "player_3")
        ]
        assert all(len(team) == 3 for team in teams) and len(teams) == players // 3
        assert sorted(itertools.chain(sitters, *teams)) == sorted(f"Spieler {n:02d}" for n in range(1, players + 1))
        for team in teams:
            teammates.update(frozenset(pair) for pair in itertools.combinations(team, 2))
        sat_out.update(sitters)
        page = organiser_client.get(
            reverse("organiser:session_detail", args=[evening.pk, session_number])
        ).content.decode()
        assert all(f"<li>{' &amp; '.join(team)}</li>" in page for team in teams)
        assert all(name in page for name in sitters)
        assert ("setzen in diesem ganzen Durchgang aus" in page) == (len(sitters) == 2)
        for round_ in Round.objects.filter(session=session).order_by("number"):
            assert round_.sitout_partnership_id is None  # an even number of teams: all play
            seatings = list(Seating.objects.filter(round=round_).select_related(*SELECT).order_by("table__number"))
            assert len(seatings) == players // 6
            team_totals = []
            for seating in seatings:
                total_a, total_b, drawn = play_table(client, seating, rng)
                draws += drawn
                for team, total in ((seating.team_a, total_a), (seating.team_b, total_b)):
                    team_totals.append(total)
                    for name in team_of(team):
                        expected[name][session_number - 1] += total
            check_next_seats(client, seatings[0])
            average = Fraction(sum(team_totals), len(team_totals))
            for name in sitters:
                expected[name][session_number - 1] += average

    assert max(teammates.values()) == 1, "two players in one team twice"
    assert max(sat_out.values()) == 1 and len(sat_out) == 3 * (players % 3), "sit-outs rotate"
    assert draws > 0 and DrawnDeal.objects.filter(seating__round__session__evening=evening).count() == draws
    assert selectors.evening_is_confirmed(evening)

    response = organiser_client.get(reverse("organiser:ranking", args=[evening.pk]) + "?_export=csv")
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig")), delimiter=";"))
    assert len(rows) == players, response.content.decode("utf-8-sig")[:600]
    for row in rows:
        sessions = expected[row["Name"]]
        assert [row[f"Durchgang {n}"] for n in (1, 2, 3)] == [one_decimal(s) for s in sessions], row["Name"]
        assert row["Gesamt"] == one_decimal(sum(sessions))
        assert "Regeln" not in row
    ranking = {r.player.name: r.total for r in selectors.evening_ranking(evening)}
    assert ranking == {name: sum(sessions) for name, sessions in expected.items()}
    for name in ("organiser:evening_detail", "organiser:ranking", "organiser:live"):
        assert organiser_client.get(reverse(name, args=[evening.pk])).status_code == 200
    every_deal = organiser_client.get(reverse("organiser:deal_results", args=[evening.pk]) + "?_export=csv")
    assert " & ".join(teams[0]) in every_deal.content.decode("utf-8-sig")  # three names a team in "every deal"


@pytest.mark.django_db
def test_six_players_needed_for_a_table_of_six(organiser_client):
    evening = create_evening(organiser_client, 5)
    response = organiser_client.post(reverse("organiser:session_draw", args=[evening.pk]), {"number": 1}, follow=True)
    assert "Für einen Tisch braucht man mindestens 6 Spieler; angemeldet sind 5." in response.content.decode()
    assert not Session.objects.filter(evening=evening).exists()


# --- Changes to a drawn six-handed session ---------------------------------------------------------


def _drawn(players: int = 26, seed: int = 4):
    evening = make_evening(players, rule_set="braeus6")
    return evening, services.draw_session(evening=evening, seed=seed)


def _ids(team: Partnership) -> tuple[int, ...]:
    team.refresh_from_db()
    return (team.player_1_id, team.player_2_id, team.player_3_id)


@pytest.mark.django_db
def test_swap_two_players_of_teams_of_three():
    _, session = _drawn()
    first, second = Partnership.objects.filter(session=session).order_by("number")[:2]
    a, b = first.player_3_id, second.player_1_id
    services.swap_players(session_id=session.pk, player_a_id=a, player_b_id=b)
    assert _ids(first) == (first.player_1_id, first.player_2_id, b)
    assert _ids(second) == (a, second.player_2_id, second.player_3_id)


@pytest.mark.django_db
def test_second_session_sitter_swaps_in_and_a_late_arrival_takes_a_seat():
    evening, session = _drawn(26)
    assert session.sitout_player_id and session.sitout_player_2_id
    team = Partnership.objects.filter(session=session).order_by("number").first()
    sitter, player = session.sitout_player_2_id, team.player_2_id
    services.swap_players(session_id=session.pk, player_a_id=sitter, player_b_id=player)
    session.refresh_from_db()
    assert _ids(team)[1] == sitter and session.sitout_player_2_id == player
    late, _ = services.add_player(name="Spät Gekommen", club="")
    services.set_checked_in(evening=evening, player=late, checked_in=True)
    services.swap_players(session_id=session.pk, player_a_id=late.pk, player_b_id=team.player_3_id)
    assert _ids(team)[2] == late.pk
    page_players = {p.pk for p in selectors.session_players(session)}
    assert late.pk in page_players and len(page_players) == 26


@pytest.mark.django_db
def test_swap_refuses_a_wish_not_together_with_any_of_the_new_teammates():
    evening, session = _drawn()
    team, other = Partnership.objects.filter(session=session).order_by("number")[:2]
    # The wish is about the team's first player; the swap puts the other team's player in seat 3.
    services.add_partner_exclusion(evening=evening, player_a_id=team.player_1_id, player_b_id=other.player_2_id)
    with pytest.raises(ServiceError) as error:
        services.swap_players(session_id=session.pk, player_a_id=team.player_3_id, player_b_id=other.player_2_id)
    assert error.value.code == "wish_not_together"
    assert other.player_2_id not in _ids(team)


@pytest.mark.django_db
def test_leaver_of_a_team_of_three_is_replaced_by_the_second_session_sitter(organiser_client):
    evening, session = _drawn(26)
    play_round(session, 1)
    seating = Seating.objects.filter(round__session=session, round__number=2).select_related("team_a").first()
    team = seating.team_a
    leaver, stay_1, stay_2 = team.player_1_id, team.player_2_id, team.player_3_id
    replacement = session.sitout_player_2_id
    page = organiser_client.get(reverse("organiser:session_detail", args=[evening.pk, 1])).content.decode()
    assert f'<option value="{replacement}">' in page  # offered as "takes over"
    substitution = services.replace_player(session_id=session.pk, leaving_id=leaver, replacement_id=replacement)
    after = substitution.partnership_after
    assert substitution.from_round == 2 and after.pk != team.pk
    assert _ids(after) == (replacement, stay_1, stay_2)
    seating.refresh_from_db()
    assert seating.team_a_id == after.pk
    play_round(session, 2)
    ranking = {r.player.pk: r.total for r in selectors.evening_ranking(evening)}
    # play_round: team A wins each of the four deals 1:0.
    leaver_in_a = Seating.objects.filter(round__session=session, round__number=1, team_a=team).exists()
    assert ranking[leaver] == (4 if leaver_in_a else 0)
    assert ranking[stay_1] == ranking[stay_2] == ranking[leaver] + 4
    # The replacement sat out round 1 (credit: the average of the teams, 2) and played round 2 in team A.
    assert ranking[replacement] == 2 + 4
    page = organiser_client.get(reverse("organiser:session_detail", args=[evening.pk, 1])).content.decode()
    assert "spielt ab Runde 2 für" in page


@pytest.mark.django_db
@pytest.mark.parametrize("rule_set", ["braeus", "braeus6"])
def test_correction_form_records_a_braeus_draw(organiser_client, rule_set):
    """Typing in a paper score sheet: a drawn deal is recorded on the organiser's page too, and the
    deal is still to be entered (it was not used up)."""
    evening = make_evening(8 if rule_set == "braeus" else 12, rule_set=rule_set)
    session = services.draw_session(evening=evening, seed=1)
    seating = Seating.objects.filter(round__session=session).first()
    url = reverse("organiser:seating_detail", args=[seating.pk])
    page = organiser_client.get(url + "?deal=2").content.decode()
    assert 'value="draw"' in page
    data = {"number": 2, "winner": "draw", "version": 0, "seating": seating.pk}
    response = organiser_client.post(url + "?deal=2", data, follow=True)
    assert "Spiel 2 als unentschieden erfasst: Am Tisch wird es neu gegeben." in response.content.decode()
    drawn = DrawnDeal.objects.get(seating=seating)
    assert drawn.number == 2 and drawn.recorded_by is not None and drawn.name == "leitung" and drawn.role == "leader"
    assert not seating.deals.exists()
    # A deal already entered cannot have been drawn: refused, nothing recorded.
    factories.enter_deal(seating, table=None)
    response = organiser_client.post(url + "?deal=1", data | {"number": 1}, follow=True)
    assert "Spiel 1 ist schon eingetragen" in response.content.decode()
    assert DrawnDeal.objects.filter(seating=seating).count() == 1


@pytest.mark.django_db
def test_team_size_cannot_change_once_a_session_is_drawn():
    """Tables of four and of six cannot be mixed in one evening: after the first draw the rule set
    may change only to one with the same team size (Bräus for six to Bräus for four is refused)."""
    evening = make_evening(12, rule_set="braeus6")
    services.draw_session(evening=evening, seed=1)
    with pytest.raises(ServiceError) as error:
        services.set_evening_rule_set(evening_id=evening.pk, rule_set="braeus")
    assert error.value.code == "team_size_in_use"
    evening.refresh_from_db()
    assert evening.rule_set == "braeus6"
    schwesing = make_evening(12, name="Schwesing")
    services.draw_session(evening=schwesing, seed=1)
    services.set_evening_rule_set(evening_id=schwesing.pk, rule_set="treia")  # teams of two: allowed
    with pytest.raises(ServiceError):
        services.set_evening_rule_set(evening_id=schwesing.pk, rule_set="braeus6")


@pytest.mark.django_db
def test_draw_check_knows_the_table_size():
    six = make_evening(0, rule_set="braeus6", name="Sechs")
    four = make_evening(0, name="Vier")
    with pytest.raises(ServiceError) as error:
        services.check_next_session_drawable(six, [], present=5)
    assert error.value.code == "too_few_players" and error.value.params == {"needed": 6, "count": 5}
    services.check_next_session_drawable(six, [], present=6)
    services.check_next_session_drawable(four, [], present=4)
    with pytest.raises(ServiceError):
        services.check_next_session_drawable(four, [], present=3)
