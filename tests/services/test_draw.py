"""The draw (scoring.services.draw): seeds, every player seated each round, sessions in order, too
few players, an odd number. Deal entry: tests/services/test_deals.py."""

from __future__ import annotations

import pytest

from scoring import services
from scoring.domain.rules import DealResult
from scoring.models import Partnership, Round, Seating, Session
from tests import factories
from tests.conftest import make_evening
from tests.factories import A_WINS


def play_session(session: Session, result: DealResult = A_WINS) -> None:
    for seating in Seating.objects.filter(round__session=session).select_related("table"):
        factories.enter_round(seating, result, finish=True)


@pytest.mark.django_db
def test_draw_stores_seed_and_seats_everybody_each_round(roster_evening):
    session = services.draw_session(evening=roster_evening, seed=42)
    assert session.seed == 42
    assert session.partnerships.count() == 13
    for round_ in session.rounds.all():
        seated = set()
        for s in round_.seatings.all():
            for team in (s.team_a, s.team_b):
                seated |= {team.player_1_id, team.player_2_id}
        sitting_out = {round_.sitout_partnership.player_1_id, round_.sitout_partnership.player_2_id}
        assert len(seated) == 24 and not seated & sitting_out
    assert roster_evening.tables.count() == 6


@pytest.mark.django_db
def test_same_seed_reproduces_the_draw(roster_evening):
    first = services.draw_session(evening=roster_evening, seed=99)
    pairs = [(p.player_1_id, p.player_2_id) for p in first.partnerships.all()]
    other = services.create_evening(name="Wiederholung", date=roster_evening.date)
    for participant in roster_evening.participants.all():
        services.set_checked_in(evening=other, player=participant.player, checked_in=True)
    second = services.draw_session(evening=other, seed=99)
    assert [(p.player_1_id, p.player_2_id) for p in second.partnerships.all()] == pairs


@pytest.mark.django_db
def test_next_session_only_after_the_previous_is_complete(roster_evening):
    session = services.draw_session(evening=roster_evening, seed=1)
    with pytest.raises(services.ServiceError) as error:
        services.draw_session(evening=roster_evening)
    assert error.value.code == "previous_incomplete"
    assert Session.objects.filter(evening=roster_evening).count() == 1
    play_session(session)
    second = services.draw_session(evening=roster_evening, seed=2)
    first_pairs = {frozenset((p.player_1_id, p.player_2_id)) for p in session.partnerships.all()}
    second_pairs = {frozenset((p.player_1_id, p.player_2_id)) for p in second.partnerships.all()}
    assert not first_pairs & second_pairs


@pytest.mark.django_db
def test_too_few_players_saves_nothing(evening_factory):
    evening = evening_factory(3)
    with pytest.raises(Exception) as error:
        services.draw_session(evening=evening)
    assert "4" in str(error.value)
    assert not Session.objects.exists() and not Partnership.objects.exists()


@pytest.mark.django_db
def test_odd_number_of_players_one_sits_out_the_session():
    evening = make_evening(9)
    session = services.draw_session(evening=evening, seed=5)
    assert session.sitout_player_id is not None
    assert session.partnerships.count() == 4
    assert all(r.sitout_partnership_id is None for r in Round.objects.filter(session=session))
