"""Checking in (scoring.services.check_in): the last evening's attendance and its undo; the wishes
offer only players checked in."""

from __future__ import annotations

from datetime import date

import pytest

from scoring import selectors, services
from scoring.models import Participant, Player
from scoring.services.base import ServiceError
from scoring.services.check_in import check_in_like_last_evening, undo_check_in
from scoring.setup.builders import evening_with_players

pytestmark = pytest.mark.django_db


def register(count: int, prefix: str = "Spieler") -> list:
    return [services.add_player(name=f"{prefix} {n}", club="Schwesing")[0] for n in range(1, count + 1)]


def present(evening) -> set[int]:
    return set(Participant.objects.filter(evening=evening, checked_in=True).values_list("player_id", flat=True))


def test_as_at_the_last_evening_copies_its_attendance():
    players = register(8)
    earlier = services.create_evening(name="Oktober", date=date(2026, 10, 17))
    older = services.create_evening(name="September", date=date(2026, 9, 19))
    later = services.create_evening(name="Dezember", date=date(2026, 12, 19))
    for p in players[:5]:
        services.set_checked_in(evening=earlier, player=p, checked_in=True)
    services.set_checked_in(evening=earlier, player=players[4], checked_in=False)  # left early
    for p in players:
        services.set_checked_in(evening=older, player=p, checked_in=True)
        services.set_checked_in(evening=later, player=p, checked_in=True)  # after this one: not used
    evening = services.create_evening(name="November", date=date(2026, 11, 21))

    source, ids = check_in_like_last_evening(evening_id=evening.pk)
    assert source == earlier
    assert present(evening) == {p.pk for p in players[:4]} and ids == sorted(p.pk for p in players[:4])
    assert undo_check_in(evening_id=evening.pk, player_ids=ids) == ids
    assert present(evening) == set()


def test_the_wishes_offer_only_players_checked_in():
    evening = evening_with_players(6)
    gone = Player.objects.get(name="Spieler 6")
    services.set_checked_in(evening=evening, player=gone, checked_in=False)
    offered = selectors.draw_wishes(evening).participants
    assert len(offered) == 5 and gone not in offered
    with pytest.raises(ServiceError) as error:
        services.add_partner_exclusion(
            evening=evening, player_a_id=gone.pk, player_b_id=Player.objects.get(name="Spieler 1").pk
        )
    assert error.value.code == "not_participant"
