"""Where every player sits, from the one history loader (``selectors/history.py``): the printed
route cards and table list, also after a replacement; the queries do not grow with the number of
players. The tablet's "where everyone sits next": tests/selectors/test_table_entry.py; the seat
page: tests/views/test_seat_pages.py."""

from __future__ import annotations

import pytest

from scoring import selectors, services
from scoring.documents.data import load_session_plan, partner_of, seats_by_player
from scoring.models import Seating
from tests.conftest import make_evening
from tests.services.test_draw_wishes import play_round


def _url(token: str) -> str:
    return f"http://127.0.0.1/t/{token}/"


def replaced_evening(players: int = 17):
    """An evening whose session sit-out player replaces a leaver from round 2 on."""
    evening = make_evening(players)
    session = services.draw_session(evening=evening, seed=6)
    sitter = session.sitout_player
    play_round(session, 1)
    team = session.partnerships.order_by("number").first()
    leaver, partner = team.player_1, team.player_2
    services.replace_player(session_id=session.pk, leaving_id=leaver.pk, replacement_id=sitter.pk)
    return evening, session, sitter, leaver, partner


def _seats(plan, player_id):
    return next(seats for ref, seats in seats_by_player(plan).items() if ref.id == player_id)


@pytest.mark.django_db
def test_every_player_has_one_seat_per_round_in_the_documents():
    evening = make_evening(19)
    session = services.draw_session(evening=evening, seed=2)
    plan = load_session_plan(evening, 1, scorer_url=_url)
    seats = seats_by_player(plan)
    assert {ref.id for ref in seats} == {p.pk for p in selectors.session_players(session)}
    rounds = evening.rounds_per_session
    for player_seats in seats.values():
        assert [s.round for s in player_seats] == list(range(1, rounds + 1))
    sitter = next(ref for ref in seats if ref.id == session.sitout_player_id)
    assert all(s.sits_out and s.partner is None for s in seats[sitter])
    assert partner_of(plan)[sitter] is None
    # At each table: the four players, partners opposite, the other two as opponents.
    first = Seating.objects.select_related("team_a", "team_b", "table").filter(round__session=session).first()
    a1, a2 = first.team_a.player_1_id, first.team_a.player_2_id
    seat = next(s for s in _seats(plan, a1) if s.round == first.round.number)
    assert seat.table == first.table.number and seat.partner.id == a2
    assert {p.id for p in seat.opponents} == {first.team_b.player_1_id, first.team_b.player_2_id}


@pytest.mark.django_db
def test_a_replacements_route_card_and_table_list_are_right():
    """The session's sit-out player replaces a leaver from round 2: they sit out round 1 and
    play at a table from round 2 (once a round, not also "sits out"); the leaver's card ends with
    round 1; both partners are named right."""
    evening, session, sitter, leaver, partner = replaced_evening()
    plan = load_session_plan(evening, 1, scorer_url=_url)
    rounds = evening.rounds_per_session
    replacement = _seats(plan, sitter.pk)
    assert [s.round for s in replacement] == list(range(1, rounds + 1))
    assert replacement[0].sits_out
    assert all(not s.sits_out and s.partner.id == partner.pk for s in replacement[1:])
    assert [s.round for s in _seats(plan, leaver.pk)] == [1]
    assert all(s.partner.id == (leaver.pk if s.round == 1 else sitter.pk) for s in _seats(plan, partner.pk))
    partners = {ref.id: p.id if p else None for ref, p in partner_of(plan).items()}
    assert partners[sitter.pk] == partner.pk
    assert partners[partner.pk] == sitter.pk
    assert partners[leaver.pk] == partner.pk
    # The table list says "sits out this whole session" only in the round they sat out.
    assert [r.session_sitter_sits_out for r in plan.rounds] == [True] + [False] * (rounds - 1)


def _evening_of(players: int):
    evening = make_evening(players, name=f"Abend {players}")
    session = services.draw_session(evening=evening, seed=1)
    play_round(session, 1)
    return evening, session


@pytest.mark.django_db
@pytest.mark.parametrize("players", [16, 61])
@pytest.mark.no_cover  # the pages' code at two field sizes: measured by the pages' own tests (tests/conftest.py)
def test_seat_queries_do_not_grow_with_players(django_assert_num_queries, players):
    evening, session = _evening_of(players)
    player = selectors.session_players(session)[-1]
    seating = Seating.objects.select_related(
        "round__session__evening", "team_a__player_1", "team_a__player_2", "team_b__player_1", "team_b__player_2"
    ).filter(round__session=session, round__number=1)[0]
    session = selectors.latest_session(evening)
    session.evening  # noqa: B018 (loaded by the view already)
    with django_assert_num_queries(5):
        selectors.player_seats(session, player)
    with django_assert_num_queries(6):  # the next round, its history (4), the partners' names
        selectors.next_seats(seating)
    with django_assert_num_queries(5):
        load_session_plan(evening, 1, scorer_url=_url)
    with django_assert_num_queries(6):
        load_session_plan(evening, 1, scorer_url=_url, with_deals=True)
