"""Services: the draw, deal entry, corrections with history, and bad input that saves nothing."""

from __future__ import annotations

import pytest

from scoring import services
from scoring.domain.rules import DealResult, ImpossibleResult
from scoring.hall.origin import Origin
from scoring.models import Deal, DealChange, Partnership, Round, Seating, Session
from tests import factories
from tests.conftest import make_evening

PLAIN_A = DealResult(winner="A", to_nil=False, bonus_a=0, bonus_b=0)


def play_session(session: Session, result: DealResult = PLAIN_A) -> None:
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
def test_deal_entry_scores_and_keeps_every_previous_value(roster_evening, organiser):
    session = services.draw_session(evening=roster_evening, seed=3)
    seating = Seating.objects.filter(round__session=session, round__number=1).select_related("table").first()
    deal = factories.enter_deal(seating, to_nil=True, bonus_b=1, origin=Origin.other("Tisch 1"))
    assert (deal.points_a, deal.points_b) == (2, 1)
    deal = factories.enter_deal(seating, 1, "B", origin=Origin.other("Tisch 1"))
    assert (deal.points_a, deal.points_b) == (0, 1)
    changes = list(DealChange.objects.filter(deal=deal).order_by("id"))
    assert changes[0].previous is None and changes[0].new["points_a"] == 2
    assert changes[1].previous["points_a"] == 2 and changes[1].new["points_b"] == 1
    assert Deal.objects.filter(seating=seating).count() == 1


@pytest.mark.django_db
def test_impossible_result_saves_nothing_unless_the_organiser_accepts_it(roster_evening, organiser):
    session = services.draw_session(evening=roster_evening, seed=3)
    seating = Seating.objects.filter(round__session=session, round__number=1).select_related("table").first()
    impossible = DealResult("A", False, 2, 2)
    with pytest.raises(ImpossibleResult):
        factories.enter_deal(seating, 1, result=impossible)
    assert not Deal.objects.exists()
    with pytest.raises(services.ServiceError) as error:
        factories.enter_deal(seating, 1, result=impossible, user=organiser, accept_impossible=True)
    assert error.value.code == "reason_missing"
    deal = factories.enter_deal(
        seating, 1, result=impossible, user=organiser, accept_impossible=True, reason="Ortsbrauch in Treia"
    )
    assert (deal.points_a, deal.points_b) == (3, 2) and deal.override_reason == "Ortsbrauch in Treia"


@pytest.mark.django_db
@pytest.mark.parametrize("number", [0, 5, 99])
def test_deal_number_out_of_range(roster_evening, number):
    session = services.draw_session(evening=roster_evening, seed=3)
    seating = Seating.objects.filter(round__session=session).select_related("table").first()
    with pytest.raises(services.ServiceError) as error:
        factories.enter_deal(seating, number)
    assert error.value.code == "deal_out_of_range"
    assert not Deal.objects.exists()


@pytest.mark.django_db
def test_table_link_cannot_touch_another_table_or_a_finished_round(roster_evening, organiser):
    session = services.draw_session(evening=roster_evening, seed=3)
    first, second = Seating.objects.filter(round__session=session, round__number=1).select_related("table")[:2]
    with pytest.raises(services.ServiceError) as error:
        factories.enter_deal(first, table=second.table)
    assert error.value.code == "foreign_table"
    with pytest.raises(services.ServiceError) as error:
        services.enter_and_confirm_seating(seating_id=first.pk, table=first.table)
    assert error.value.code == "deals_missing"
    for n in range(1, 5):
        factories.enter_deal(first, n)
    services.enter_and_confirm_seating(seating_id=first.pk, table=first.table)
    with pytest.raises(services.ServiceError) as error:
        factories.enter_deal(first, 1, "B")
    assert error.value.code == "round_complete"
    # The organiser can still correct, with the trail kept.
    deal = factories.enter_deal(first, 1, "B", user=organiser, reason="Streit am Tisch")
    assert deal.points_b == 1
    assert deal.changes.last().reason == "Streit am Tisch" and deal.changes.last().changed_by == organiser


@pytest.mark.django_db
def test_player_register_recognises_known_players():
    player, created = services.add_player(name="  Gönke   Hansen ", club="Schwesing")
    assert created and player.name == "Gönke Hansen"
    again, created = services.add_player(name="gönke hansen", club="SCHWESING")
    assert not created and again.pk == player.pk
    with pytest.raises(services.ServiceError):
        services.add_player(name="   ", club="x")


@pytest.mark.django_db
def test_odd_number_of_players_one_sits_out_the_session():
    evening = make_evening(9)
    session = services.draw_session(evening=evening, seed=5)
    assert session.sitout_player_id is not None
    assert session.partnerships.count() == 4
    assert all(r.sitout_partnership_id is None for r in Round.objects.filter(session=session))
