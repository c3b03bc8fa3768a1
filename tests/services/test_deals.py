"""Deal entry (scoring.services.deals): scores and a trail of every previous value, impossible results,
deal numbers, foreign tables and finished rounds, idempotency keys and versions."""

from __future__ import annotations

import uuid

import pytest

from scoring import services
from scoring.domain.rules import DealResult, ImpossibleResult
from scoring.hall.origin import Origin
from scoring.models import Deal, DealChange, Seating
from tests import factories


@pytest.mark.django_db
def test_a_replay_after_a_correction_does_not_undo_it(seating):
    key = uuid.uuid4()
    factories.enter_deal(seating, key=key, based_on_version=0)
    factories.enter_deal(seating, 1, "B", key=uuid.uuid4(), based_on_version=1)
    # The first form arrives once more (a tablet that lost its connection sends it again): not
    # "saved" (the database does not hold it), a conflict naming what is stored.
    with pytest.raises(services.ConflictError) as conflict:
        factories.enter_deal(seating, key=key, based_on_version=0)
    assert conflict.value.code == "changed_since" and conflict.value.params["winner"] == "B"
    assert Deal.objects.get().winner == "B" and Deal.objects.get().version == 2
    assert DealChange.objects.count() == 2


@pytest.mark.django_db
def test_a_stale_form_is_refused_with_the_current_value(seating):
    # Two tablets on one table: both showed deal 1 as not entered (version 0).
    factories.enter_deal(seating, to_nil=True, origin=Origin.other("tablet 1"), key=uuid.uuid4(), based_on_version=0)
    with pytest.raises(services.ConflictError) as conflict:
        factories.enter_deal(seating, 1, "B", origin=Origin.other("tablet 2"), key=uuid.uuid4(), based_on_version=0)
    assert conflict.value.code == "conflict" and conflict.value.deal.winner == "A"
    assert conflict.value.params["points_a"] == 2 and conflict.value.params["points_b"] == 0
    deal = Deal.objects.get()
    assert (deal.winner, deal.points_a, deal.version) == ("A", 2, 1)
    assert DealChange.objects.count() == 1


@pytest.mark.django_db
def test_a_stale_form_with_the_same_result_is_no_conflict(seating):
    factories.enter_deal(seating, based_on_version=0)
    deal = factories.enter_deal(seating, based_on_version=0, key=uuid.uuid4())
    assert deal.outcome == "unchanged" and DealChange.objects.count() == 1


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
