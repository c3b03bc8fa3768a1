"""The evening's rule set: fixed once a deal is entered, carried by the backup; deals entered and
scored by it (Treia Bock carried, Bräus draw dealt again, Ringkøbing hawk, no bonus in Bräus). On
the pages (chosen for a new evening, changed, named on sheets and exports):
tests/views/test_rulesets.py."""

from __future__ import annotations

import uuid

import pytest
from django.utils import translation

from scoring import backup, services
from scoring.domain.rules import ImpossibleResult
from scoring.domain.rulesets import BOCK, BRAEUS, DRAW, RINGKOBING, SCHWESING, TREIA
from scoring.hall.origin import Origin
from scoring.models import Deal, DealChange, DrawnDeal, Evening, Seating
from scoring.web.messages import translate
from tests import factories
from tests.backup.test_backup import wipe
from tests.conftest import make_evening

pytestmark = pytest.mark.django_db


def first_seating(rule_set: str, players: int = 8) -> Seating:
    evening = make_evening(players, rule_set=rule_set, name=f"Abend {rule_set} {Evening.objects.count() + 1}")
    session = services.draw_session(evening=evening, seed=1)
    return Seating.objects.filter(round__session=session).order_by("round__number", "table__number").first()


def points(seating: Seating) -> list[tuple[int, int]]:
    return [(d.points_a, d.points_b) for d in Deal.objects.filter(seating=seating).order_by("number")]


def test_the_rule_set_cannot_change_once_a_deal_is_entered():
    seating = first_seating(SCHWESING)
    evening = seating.round.session.evening
    assert services.set_evening_rule_set(evening_id=evening.pk, rule_set=TREIA).rule_set == TREIA
    with pytest.raises(services.ServiceError) as unknown:
        services.set_evening_rule_set(evening_id=evening.pk, rule_set="skat")
    assert unknown.value.code == "rule_set"
    factories.enter_deal(seating, 1, "A", table=None)
    with pytest.raises(services.ServiceError) as refused:
        services.set_evening_rule_set(evening_id=evening.pk, rule_set=SCHWESING)
    with translation.override("de"):
        assert "nicht mehr geändert werden" in translate(refused.value)
    evening.refresh_from_db()
    assert evening.rule_set == TREIA


def test_a_recorded_draw_also_fixes_the_rule_set():
    seating = first_seating(BRAEUS)
    services.record_draw(seating_id=seating.pk, number=1, origin=Origin.other("test"))
    with pytest.raises(services.ServiceError):
        services.set_evening_rule_set(evening_id=seating.round.session.evening_id, rule_set=SCHWESING)


# --- entering deals by the evening's rule set -----------------------------------------------------


def test_treia_bock_is_carried_to_the_next_winner_and_lapses_at_the_end():
    seating = first_seating(TREIA)
    factories.enter_deal(seating, 1, BOCK, table=None)
    factories.enter_deal(seating, 2, BOCK, bonus_b=1, table=None)
    factories.enter_deal(seating, 3, "B", to_nil=True, table=None)
    factories.enter_deal(seating, 4, BOCK, table=None)
    assert points(seating) == [(0, 0), (0, 1), (0, 4), (0, 0)]


def test_correcting_a_bock_rescores_the_later_deal_with_a_history_entry():
    seating = first_seating(TREIA)
    factories.enter_deal(seating, 1, BOCK, table=None)
    deal_2 = factories.enter_deal(seating, 2, "A", table=None)
    assert points(seating) == [(0, 0), (2, 0)]
    factories.enter_deal(seating, 1, "B", table=None)
    assert points(seating) == [(0, 1), (1, 0)]
    deal_2.refresh_from_db()
    assert deal_2.version == 2
    change = DealChange.objects.filter(deal=deal_2).last()
    assert change.previous["points_a"] == 2 and change.new["points_a"] == 1 and "Bock" in change.reason


def test_a_bock_is_refused_outside_treia_with_a_message():
    seating = first_seating(SCHWESING)
    with pytest.raises(ImpossibleResult):
        factories.enter_deal(seating, 1, BOCK, table=None)
    assert not Deal.objects.exists()


def test_braeus_has_no_bonus_and_a_draw_does_not_use_up_the_deal():
    seating = first_seating(BRAEUS)
    with pytest.raises(ImpossibleResult) as bonus:
        factories.enter_deal(seating, 1, "A", bonus_a=1, table=None)
    assert bonus.value.code == "no_bonus"
    key = uuid.uuid4()
    drawn = services.record_draw(seating_id=seating.pk, number=1, origin=Origin.other("test"), key=key)
    again = services.record_draw(seating_id=seating.pk, number=1, origin=Origin.other("test"), key=key)
    assert (drawn.outcome, again.outcome, DrawnDeal.objects.count()) == ("created", "replayed", 1)
    assert not Deal.objects.exists()
    with pytest.raises(services.ServiceError) as not_a_deal:
        factories.enter_deal(seating, 1, DRAW, table=None)
    assert not_a_deal.value.code == "draw_not_a_deal"
    factories.enter_deal(seating, 1, "B", to_nil=True, table=None)
    assert points(seating) == [(0, 2)]
    with pytest.raises(services.ServiceError) as entered:
        services.record_draw(seating_id=seating.pk, number=1, origin=Origin.other("test"))
    assert entered.value.code == "draw_after_entry"


def test_a_draw_outside_braeus_is_refused():
    seating = first_seating(TREIA)
    with pytest.raises(ImpossibleResult):
        services.record_draw(seating_id=seating.pk, number=1, origin=Origin.other("test"))
    assert not DrawnDeal.objects.exists()


def test_ringkobing_accepts_the_hawk_that_schwesing_refuses(organiser):
    seating = first_seating(RINGKOBING)
    assert points([factories.enter_deal(seating, 1, "A", bonus_a=5, table=None)][0].seating) == [(6, 0)]
    schwesing = first_seating(SCHWESING)
    with pytest.raises(ImpossibleResult):
        factories.enter_deal(schwesing, 1, "A", bonus_a=5, table=None)
    # The organiser may accept it there with a reason; scored by the rule set.
    deal = factories.enter_deal(
        schwesing, 1, "A", bonus_a=5, user=organiser, reason="Hausregel", accept_impossible=True
    )
    assert (deal.points_a, deal.points_b) == (6, 0)


# --- the backup carries the rule set, Bocks and draws ---------------------------------------------


def test_backup_round_trip_keeps_rule_set_bocks_and_draws():
    seating = first_seating(TREIA)
    factories.enter_deal(seating, 1, BOCK, table=None)
    factories.enter_deal(seating, 2, "A", to_nil=True, table=None)
    braeus = first_seating(BRAEUS)
    services.record_draw(seating_id=braeus.pk, number=1, origin=Origin.other("Tisch 1"))
    factories.enter_deal(braeus, 1, "B", table=None)
    documents = [backup.export_evening(s.round.session.evening) for s in (seating, braeus)]
    wipe()
    restored = [backup.restore(document).evenings[0] for document in documents]
    assert [e.rule_set for e in restored] == [TREIA, BRAEUS]
    treia_seating = Seating.objects.filter(round__session__evening=restored[0], deals__isnull=False).first()
    assert points(treia_seating) == [(0, 0), (3, 0)]
    assert DrawnDeal.objects.filter(seating__round__session__evening=restored[1], number=1).count() == 1
